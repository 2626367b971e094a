/* report.html's system summary (see system_summary.h). */

#include "results/system_summary.h"
#include "lib/fmt.h"
#include "lib/json_read.h"
#include "lib/table.h"
#include "core/platform.h"
#include "results/report_html.h"

/* ---- Constants -------------------------------------------------------- */

#define VALUE_MAX 512
#define CLAIMS_MAX 16   /* caches or TLBs read, each; lib/machine.h holds fewer */

static const struct table_column summary_columns[] = {
	{ "what", NULL, 0, 1, 0 },
	{ "value", NULL, 0, 1, 0 },
};
static const struct table summary_table = TABLE_OF(summary_columns, "");

/* ---- Private Data ----------------------------------------------------- */

static const char *doc;
static size_t doc_len;

/* ---- Private Functions ------------------------------------------------ */

/* The member at path as text; "" when it is not there. */
static const char *member(const char *path, char *out, size_t size)
{
	if (json_get_scalar(doc, doc_len, path, out, size) != 0 && size)
		out[0] = '\0';
	return out;
}

/* The member at path as a whole number; 0 when it is not there or not one. */
static uint64_t number(const char *path)
{
	char text[32];
	uint64_t v = 0;

	member(path, text, sizeof text);
	for (const char *p = text; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	return v;
}

/* An amount of memory to one decimal in its largest whole unit ("22.9
   GiB"): mp_format_bytes is exact, and an exact count of free memory
   reads as "23974260 KiB". */
static void about_bytes(char *buf, size_t size, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	unsigned u = 0;

	while (v >= 1024 && u + 1 < sizeof units / sizeof *units) {
		v /= 1024;
		u++;
	}
	mp_snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

static int has(const char *path)
{
	char text[8];

	return json_get_scalar(doc, doc_len, path, text, sizeof text) == 0;
}

static void row(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One row of the table: what, and its value formatted. */
static void row(const char *what, const char *fmt, ...)
{
	char value[VALUE_MAX];
	const char *cell[2] = { what, value };
	va_list ap;

	va_start(ap, fmt);
	mp_vsnprintf(value, sizeof value, fmt, ap);
	va_end(ap);
	report_html_table_row(cell, 0);
}

static void platform_rows(void)
{
	char name[16], a[128], b[128], c[VALUE_MAX];

	member("platform.name", name, sizeof name);
	if (!mp_strcmp(name, "uefi")) {
		row("firmware", "%s, revision 0x%08llx, UEFI %llu.%llu; Secure Boot: %s%s",
		    member("firmware.vendor", a, sizeof a),
		    (unsigned long long)number("firmware.revision"),
		    (unsigned long long)number("firmware.uefi_major"),
		    (unsigned long long)number("firmware.uefi_minor"),
		    member("firmware.secure_boot_state", c, sizeof c),
		    !mp_strcmp(member("firmware.under_qemu", b, sizeof b), "true")
			? "; under QEMU" : "");
	} else {
		row("operating system", "%s", member("platform.kernel", c, sizeof c));
	}
	row("timed sections", "%s", member("platform.timed_sections", c, sizeof c));
}

static void cpu_rows(void)
{
	char brand[128], vendor[32], micro[32], hyper[64], under[8], path[48];
	unsigned cpus = 0;

	member("cpu.brand", brand, sizeof brand);
	member("cpu.vendor", vendor, sizeof vendor);
	member("cpu.microcode", micro, sizeof micro);
	/* A revision is read as a number and told in hex, as vendors list it. */
	if (micro[0] >= '0' && micro[0] <= '9')
		mp_snprintf(micro, sizeof micro, "0x%llx",
			    (unsigned long long)number("cpu.microcode"));
	/* under_hypervisor is CPUID's bit; hypervisor the signature it gives. */
	member("cpu.hypervisor", hyper, sizeof hyper);
	member("cpu.under_hypervisor", under, sizeof under);
	row("CPU", "%s: %s family %llu model %llu stepping %llu, microcode %s%s%s", brand, vendor,
	    (unsigned long long)number("cpu.family"), (unsigned long long)number("cpu.model"),
	    (unsigned long long)number("cpu.stepping"), micro[0] ? micro : "not read",
	    !mp_strcmp(under, "true") ? "; under a hypervisor: " : "",
	    !mp_strcmp(under, "true") ? (hyper[0] ? hyper : "no signature given") : "");
	for (;;) {
		mp_snprintf(path, sizeof path, "cpus.%u.cpu", cpus);
		if (!has(path))
			break;
		cpus++;
	}
	row("logical CPUs", "%u described (system.json's cpus)", cpus);
}

/* A member of one claim ("cpu.caches.0"), as text ("" when absent). */
static const char *claim_member(const char *claim, const char *key, char *out, size_t size)
{
	char path[64];

	mp_snprintf(path, sizeof path, "%s.%s", claim, key);
	return member(path, out, size);
}

/* A member of one claim as a whole number (0 when absent). */
static uint64_t claim_number(const char *claim, const char *key)
{
	char path[64];

	mp_snprintf(path, sizeof path, "%s.%s", claim, key);
	return number(path);
}

/* "12-way", "fully associative", or "ways unstated", from a claim's members. */
static void ways_text(const char *claim, char *out, size_t size)
{
	char flag[8];

	if (!mp_strcmp(claim_member(claim, "fully_associative", flag, sizeof flag), "true"))
		mp_strlcpy(out, "fully associative", size);
	else if (!claim_member(claim, "ways", flag, sizeof flag)[0])
		mp_strlcpy(out, "ways unstated", size);
	else
		mp_snprintf(out, size, "%llu-way", (unsigned long long)claim_number(claim, "ways"));
}

/* One claimed cache's row. */
static void cache_row(const char *claim)
{
	char what[96], kind[32], size[24], ways[32], source[64];

	mp_snprintf(what, sizeof what, "L%llu %s cache (claimed)",
		    (unsigned long long)claim_number(claim, "level"),
		    claim_member(claim, "type", kind, sizeof kind));
	mp_format_bytes(size, sizeof size, claim_number(claim, "size_bytes"));
	ways_text(claim, ways, sizeof ways);
	row(what, "%s, %s, %llu B lines (%s)", size, ways,
	    (unsigned long long)claim_number(claim, "line_bytes"),
	    claim_member(claim, "source", source, sizeof source));
}

/* One claimed TLB's row. */
static void tlb_row(const char *claim)
{
	char what[96], kind[32], pages[32], ways[32], source[64];

	mp_snprintf(what, sizeof what, "L%llu %s TLB, %s pages (claimed)",
		    (unsigned long long)claim_number(claim, "level"),
		    claim_member(claim, "type", kind, sizeof kind),
		    claim_member(claim, "pages", pages, sizeof pages));
	ways_text(claim, ways, sizeof ways);
	row(what, "%llu entries, %s (%s)", (unsigned long long)claim_number(claim, "entries"),
	    ways, claim_member(claim, "source", source, sizeof source));
}

/* A row per element of the claims list at path, or one row saying there
   is none: an empty list is a fact worth a line, not a gap. */
static void claim_rows(const char *list, void (*one)(const char *claim), const char *none_what,
		       const char *none_text)
{
	char claim[32], level[8];
	unsigned i;

	for (i = 0; i < CLAIMS_MAX; i++) {
		mp_snprintf(claim, sizeof claim, "%s.%u", list, i);
		if (!claim_member(claim, "level", level, sizeof level)[0])
			break;
		one(claim);
	}
	if (i == 0)
		row(none_what, "%s", none_text);
}

static void memory_rows(void)
{
	char a[24], b[24];

	if (has("platform.mem_available_bytes")) {
		about_bytes(a, sizeof a, number("platform.mem_available_bytes"));
		row("memory", "%s available to a run (the kernel's MemAvailable)", a);
	}
	if (has("memory_map.ram_bytes")) {
		about_bytes(a, sizeof a, number("memory_map.ram_bytes"));
		about_bytes(b, sizeof b, number("memory_map.free_bytes"));
		row("memory", "%s of RAM in the firmware's memory map, %s of it free", a, b);
	}
}

static void clock_rows(void)
{
	char counter[32], source[VALUE_MAX - 96], invariant[8];
	uint64_t core_hz = number("clock.core_hz");

	member("clock.counter", counter, sizeof counter);
	member("clock.invariant", invariant, sizeof invariant);
	row("timer", "%s at %.6f GHz +- %llu ppm, %s; %s", counter,
	    (double)number("clock.ticks_per_s") / 1e9,
	    (unsigned long long)number("clock.uncertainty_ppm"),
	    !mp_strcmp(invariant, "true") ? "invariant" : "NOT invariant",
	    member("clock.source", source, sizeof source));
	member("clock.core_source", source, sizeof source);
	if (core_hz)
		row("core clock", "%.3f GHz: %s", (double)core_hz / 1e9, source);
	else
		row("core clock", "not measured (%s): cycle figures are meaningless", source);
}

/* The page sizes a probe buffer can have now, with the largest buffer of
   each: what the probes' page-size loop will find. */
static void page_size_row(void)
{
	static const unsigned shifts[] = { PAGE_SHIFT_4K, PAGE_SHIFT_2M, PAGE_SHIFT_1G };
	char text[VALUE_MAX], name[48], size[24];
	struct mp_text out = { text, sizeof text, 0 };

	text[0] = '\0';
	for (unsigned i = 0; i < sizeof shifts / sizeof *shifts; i++) {
		size_t max = plat_buffer_max(shifts[i]);

		mp_format_bytes(name, sizeof name, 1ull << shifts[i]);
		about_bytes(size, sizeof size, max);
		if (max)
			mp_append(&out, "%s%s pages (a buffer of up to %s)", i ? "; " : "", name, size);
		else
			mp_append(&out, "%s%s pages: not available", i ? "; " : "", name);
	}
	row("page sizes now", "%s", text);
}

/* How NMIs and SMIs are counted here (system.json's disturbances are
   filled only at the run's end): what can stall a timed section unseen. */
static void disturbance_row(void)
{
	struct plat_disturbances d;

	plat_disturbances(&d);
	row("disturbances", "NMIs %s; SMIs %s; a trial during which either count moved is "
	    "discarded and measured again", d.nmi_how ? d.nmi_how : "not counted",
	    d.smi_how ? d.smi_how : "not counted");
}

/* ---- Public Functions ------------------------------------------------- */

void system_summary_html(const char *json, size_t len)
{
	doc = json;
	doc_len = len;
	report_html_table_begin(&summary_table, "the machine, as system.json describes it");
	platform_rows();
	cpu_rows();
	claim_rows("cpu.caches", cache_row, "caches (claimed)", "none: the CPU described no cache");
	claim_rows("cpu.tlbs", tlb_row, "TLBs (claimed)",
		   "none: the CPU described no TLB (a hypervisor may hide the leaves that do)");
	memory_rows();
	clock_rows();
	page_size_row();
	disturbance_row();
	report_html_table_end();
}
