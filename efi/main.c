/* memprobe's UEFI entry: take the machine, say what it is, run the probes,
 * leave by the configured end action.
 */

#include "efi/fw.h"
#include "efi/guarded.h"
#include "efi/clock.h"
#include "efi/cpus.h"
#include "efi/core_clock.h"
#include "efi/disturb.h"
#include "efi/end.h"
#include "efi/files.h"
#include "efi/guarded.h"
#include "efi/memtypes.h"
#include "efi/numa.h"
#include "efi/paging.h"
#include "efi/settings.h"
#include "efi/timed.h"
#include "efi/secure_boot.h"
#include "efi/volume.h"
#include "arch/harness.h"
#include "core/probe.h"
#include "run/run.h"
#include "results/results.h"
#include "lib/fmt.h"
#include "core/platform.h"

static void banner(void)
{
	const struct cpuinfo *ci = &fw_cpu;
	struct arch_fact facts[8];
	char vendor[64];
	size_t n;

	fw_ascii(vendor, sizeof vendor, fw_st->FirmwareVendor);
	memprobe_report_version();
	report_printf("firmware: %s, revision 0x%08x, UEFI %u.%u\n"
		    "cpu: %s, %s (family %u model %u stepping %u)\n"
		    "secure boot: %s\n",
		    vendor,
		    (unsigned)fw_st->FirmwareRevision,
		    (unsigned)(fw_st->Hdr.Revision >> 16),
		    (unsigned)(fw_st->Hdr.Revision & 0xffff) / 10,
		    ci->vendor, ci->brand[0] ? ci->brand : "(no brand string)",
		    ci->family, ci->model, ci->stepping,
		    secure_boot_words(secure_boot_state()));
	n = cpu_conditions(ci, guarded_run, facts, sizeof facts / sizeof *facts);
	for (size_t i = 0; i < n; i++)
		report_printf("%s: %s\n", facts[i].name, facts[i].text);
}

/* Every step before the probes either works or says why no probe can run. */
static int take_over(struct config *c)
{
	/* First: from here an NMI is counted instead of stopping the firmware. */
	disturb_init();
	/* No volume (a netbooted run): the configuration then comes from the
	   boot server, and the result files are held for upload.url. */
	if (volume_open()) {
		plat_console("memprobe: no boot volume: ");
		plat_console(volume_error());
		plat_console("\n");
	}
	if (settings_load(c))
		return -1;
	if (clock_init(c))
		return -1;
	core_clock_init();
	cpus_count();
	if (paging_init(c) || numa_init(c) || timed_init())
		return -1;
	cpus_init();
	memtypes_init();
	files_init(c->profile == PROFILE_QUICK ? RUN_FILES_QUICK_BYTES : RUN_FILES_FULL_BYTES,
		   c->upload_url[0] != '\0');
	return 0;
}

/* gnu-efi's crt0 calls efi_main with the System V convention (see
   docs/BUILD.md), so this is deliberately not marked EFIAPI. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	static struct config c;
	int ok;

	fw_init(image, st);
	/* Before the first line, so the harness's log has them all. */
	if (fw_under_qemu)
		harness_channel_open(guarded_run);
	banner();
	if (end_after_own_reboot())
		return EFI_SUCCESS;
	if (take_over(&c))
		return end_run(c.end_set ? c.end : END_DEFAULT, 0);
	/* From here on: the banner came before the configuration said quiet. */
	results_console(c.quiet, plat_console_redraws());
	/* memprobe_run's status counts every result file, as the page's
	   verdict does, the last flushes too (results_close), and not the
	   card-first copies: one that does not fit leaves its report whole as
	   streamed, and the console has said so. After it comes only the
	   upload, which files held in memory need to be kept at all. */
	ok = memprobe_run(&c) == 0;
	if (ok && !files_kept()) {
		plat_console("memprobe: the result files, held in memory, did not all reach "
			     "upload.url (see above): the run's results are lost\n");
		ok = 0;
	}
	return end_run(c.end_set ? c.end : END_DEFAULT, ok);
}
