/* The bare-metal members of system.json and the report's account of how
 * timed sections run. */

#include "efi/buffers.h"
#include "efi/cpus.h"
#include "efi/fw.h"
#include "efi/memmap.h"
#include "efi/memtypes.h"
#include "efi/numa.h"
#include "efi/paging.h"
#include "efi/secure_boot.h"
#include "efi/guarded.h"
#include "arch/cpu.h"
#include "arch/guard.h"
#include "arch/memtype.h"
#include "arch/paging.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "lib/machine.h"
#include "core/platform.h"

static char conditions[512];

const char *plat_timed_conditions(void)
{
	char paging[160], state[96];

	paging_summary(paging, sizeof paging);
	guard_state_words(state, sizeof state);
	mp_snprintf(conditions, sizeof conditions,
		    "timed sections: bare metal, TPL_HIGH_LEVEL, interrupts off, %s (%s); "
		    "descriptor tables: %s", state, paging, guard_tables_summary());
	return conditions;
}

static void firmware_json(struct json *j)
{
	const struct secure_boot *sb = secure_boot_state();
	char vendor[64];

	fw_ascii(vendor, sizeof vendor, fw_st->FirmwareVendor);
	json_object_begin(j, "firmware");
	json_string(j, "vendor", vendor);
	json_u64(j, "revision", fw_st->FirmwareRevision);
	json_u64(j, "uefi_major", fw_st->Hdr.Revision >> 16);
	json_u64(j, "uefi_minor", fw_st->Hdr.Revision & 0xffff);
	json_bool(j, "under_qemu", fw_under_qemu);
	json_bool(j, "secure_boot", sb->enforced);
	json_bool(j, "secure_boot_variable", sb->secure_boot);
	json_bool(j, "setup_mode", sb->setup_mode);
	json_string(j, "secure_boot_state", secure_boot_words(sb));
	json_object_end(j);
}

static void time_json(struct json *j)
{
	EFI_TIME t;
	char text[32];

	if (uefi_call_wrapper(fw_rt->GetTime, 2, &t, NULL) != EFI_SUCCESS) {
		json_string(j, "date_time", "firmware clock unreadable");
		return;
	}
	mp_snprintf(text, sizeof text, "%04u-%02u-%02uT%02u:%02u:%02u", t.Year, t.Month, t.Day,
		    t.Hour, t.Minute, t.Second);
	json_string(j, "date_time", text);
	json_string(j, "date_time_zone", t.TimeZone == EFI_UNSPECIFIED_TIMEZONE
			? "unspecified (firmware clock, usually local or UTC)" : "offset given");
}

/* The architecture's named facts as members of the open object: a text,
   or else a number. */
static void facts_json(struct json *j, const struct arch_fact *facts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (facts[i].text)
			json_string(j, facts[i].name, facts[i].text);
		else
			json_u64(j, facts[i].name, facts[i].value);
	}
}

static void paging_json(struct json *j)
{
	const struct pt_config *cfg = paging_config();
	struct arch_fact facts[4];
	size_t n = pt_firmware_facts(facts, sizeof facts / sizeof *facts);

	json_object_begin(j, "paging");
	json_u64(j, "levels", cfg->levels);
	json_u64(j, "phys_addr_bits", cfg->phys_bits);
	json_bool(j, "pages_1g", cfg->has_1g);
	facts_json(j, facts, n);
	json_object_end(j);
}

/* The memory-type registers as the architecture names them (arch/memtype.h). */
static void memtypes_json(struct json *j)
{
	struct arch_fact facts[16];
	size_t n = memtype_facts(facts, sizeof facts / sizeof *facts);

	json_object_begin(j, "memory_types");
	facts_json(j, facts, n);
	json_object_end(j);
}

/* The CPU's conditions that change figures (arch/cpu.h), also in the
   banner. */
static void conditions_json(struct json *j)
{
	struct arch_fact facts[8];
	size_t n = cpu_conditions(&fw_cpu, guarded_run, facts, sizeof facts / sizeof *facts);

	json_object_begin(j, "conditions");
	for (size_t i = 0; i < n; i++)
		json_string(j, facts[i].name, facts[i].text);
	json_object_end(j);
}

static void memory_map_json(struct json *j)
{
	const struct efimap *m = memmap_now();
	const struct efimap_skipped *skipped = paging_skipped();

	json_object_begin(j, "memory_map");
	if (m) {
		json_u64(j, "entries", m->count);
		json_u64(j, "ram_bytes", efimap_bytes(m, 0));
		json_u64(j, "free_bytes", efimap_bytes(m, 1));
	}
	json_u64(j, "unmapped_beyond_limit_descriptors", skipped->descriptors);
	json_u64(j, "unmapped_beyond_limit_bytes", skipped->bytes);
	json_object_end(j);
}

void plat_cache_claims(struct cache_claims *out)
{
	cpu_caches_read(out);
}

void plat_describe(struct json *j)
{
	/* Static: the claims with their raw registers are large for a
	   firmware stack. */
	static struct cache_claims claims;

	json_object_begin(j, "platform");
	json_string(j, "name", "uefi");
	json_string(j, "timed_sections", plat_timed_conditions());
	json_string(j, "other_cpus", plat_cpus_conditions());
	json_string(j, "descriptor_tables", guard_tables_summary());
	json_object_end(j);
	cpus_describe(j);
	plat_cache_claims(&claims);
	machine_describe_cpu(j, &fw_cpu, cpu_microcode(&fw_cpu, guarded_run), &claims);
	firmware_json(j);
	time_json(j);
	paging_json(j);
	conditions_json(j);
	memtypes_json(j);
	buffers_json(j);
	memory_map_json(j);
	numa_json(j);
}
