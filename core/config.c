/* Configuration from key = value text (see config.h, docs/CONFIG.md).
 *
 * The text comes from outside the program (a file on a stick, shell load
 * options), so nothing in it is trusted: every byte is checked, every number
 * is range-checked before it is stored, and the first problem stops the load
 * with a message naming where it was, so a run never starts from a
 * configuration that was only partly understood.
 */
#include "core/config.h"
#include "lib/fmt.h"
#include "lib/suggest.h"
#include "lib/url.h"

#include <stdarg.h>

/* ---- Constants -------------------------------------------------------- */


#define FIELD(f) __builtin_offsetof(struct config, f)

/* The general keys, by index: the rest of config.c names a key by its
   index here, never by its text. */
enum general_key {
	KEY_PROFILE, KEY_PROBES, KEY_PAGES, KEY_MIN_SIZE, KEY_MAX_SIZE, KEY_TRIALS,
	KEY_MAX_TRIALS, KEY_PRECISION, KEY_STEP_MS, KEY_CPUS_DEADLINE, KEY_END,
	KEY_NUMA_NODE, KEY_NUMA_SPECIAL, KEY_PAGING_TEST_POOL, KEY_CLOCK_REFERENCE,
	KEY_UPLOAD_URL, KEY_QUIET,
	GENERAL_KEYS
};

/* Why numa.node and numa.special are bare metal's alone. */
#define NUMA_BARE_METAL_ONLY "numa.node and numa.special place buffers on bare metal only; " \
	"on Linux run under numactl --membind=NODE instead"

/* In the order config_describe prints them; profile first, because it is
   resolved first. Each key's defaults are the text a user would write, as
   a probe's keys' are: full follows the seeds; quick must run every probe,
   together, well under 30 s under QEMU's TCG (10-50x slower than hardware:
   a chase read 4 ns at 4 KiB, 22 ns at 1 MiB, 370 ns at 64 MiB there) in
   QEMU's default 1 GiB of RAM, so its buffers stay small and its trials
   few. The profile has no default of its own (quick unless a source says
   otherwise), the probes key takes the rows that say they run in the
   profile (profile_probes), and end and upload.url are unset by default.
   - pages: 1 GiB pages where available: a size the machine cannot give
     (no pdpe1gb, no aligned free GiB, no hugetlb pool on Linux) is
     reported and skipped, and the run goes on with the others.
   - min_size, max_size: the latency sweep's grid (and the stop rule every
     probe shares), from 4 KiB up to past four times the largest claimed
     cache (auto; the floor per profile is LATENCY_TOP_*), so the last
     cache's edge has memory's plateau past it: on a 32 MiB L3, 128 MiB.
   - cpus.deadline: c2c and loaded: the deadline bounds the longest role,
     a loaded chase: quick's 32 MiB takes under a second on hardware and a
     few under TCG; full's 256 MiB is 4 Mi loads a lap, a warm-up lap and
     three trials of a lap, 2 s at 100 ns a load and 8 s at the 500 ns a
     saturated server's DRAM can read. Only a CPU that is not coming back
     reaches either.
   - numa.*: buffers beside the processor that runs the probes, in
     ordinary memory: another domain or special-purpose memory only when
     asked. */
static const struct config_key keys[GENERAL_KEYS] = {
	[KEY_PROFILE] = { "profile", KIND_PROFILE, FIELD(profile),
		0, 0, 0, NULL, NULL, NULL, NULL, NULL },
	[KEY_PROBES] = { "probes", KIND_PROBES, FIELD(probes),
		0, 0, 0, NULL, NULL, NULL, NULL, NULL },
	[KEY_PAGES] = { "pages", KIND_PAGES, FIELD(pages),
		0, 0, 0, "4k,2m,1g", "4k,2m,1g", NULL, NULL, NULL },
	[KEY_MIN_SIZE] = { "min_size", KIND_SIZE, FIELD(min_size),
		64, PROBE_BUFFER_MAX, 64, "4K", "4K", NULL, NULL, NULL },
	[KEY_MAX_SIZE] = { "max_size", KIND_SIZE_AUTO, FIELD(max_size),
		64, PROBE_BUFFER_MAX, 64, "auto", "auto", NULL, NULL, NULL },
	[KEY_TRIALS] = { "trials", KIND_UINT, FIELD(trials),
		1, 1000, 0, "3", "3", NULL, NULL, NULL },
	[KEY_MAX_TRIALS] = { "max_trials", KIND_UINT, FIELD(max_trials),
		1, 100000, 0, "8", "20", NULL, NULL, NULL },
	[KEY_PRECISION] = { "precision", KIND_FRACTION, FIELD(precision),
		0, 0, 0, "0.05", "0.01", NULL, NULL, NULL },
	[KEY_STEP_MS] = { "step_ms", KIND_MS, FIELD(step_ms),
		0, 0, 0, "1", "1", NULL, NULL, NULL },
	[KEY_CPUS_DEADLINE] = { "cpus.deadline", KIND_MS, FIELD(cpus_deadline_ms),
		0, 0, 0, "10000", "60000", NULL, NULL, NULL },
	[KEY_END] = { "end", KIND_END, FIELD(end),
		0, 0, 0, NULL, NULL, NULL, NULL, NULL },
	[KEY_NUMA_NODE] = { "numa.node", KIND_NODE, FIELD(numa_node),
		0, NUMA_NODE_AUTO - 1, 0, "auto", "auto", NULL, NULL, NUMA_BARE_METAL_ONLY },
	[KEY_NUMA_SPECIAL] = { "numa.special", KIND_YESNO, FIELD(numa_special),
		0, 0, 0, "no", "no", NULL, NULL, NUMA_BARE_METAL_ONLY },
	[KEY_PAGING_TEST_POOL] = { "paging.test_pool", KIND_UINT, FIELD(paging_test_pool),
		0, 1u << 20, 0, "0", "0", NULL, NULL,
		"paging.test_pool sizes the bare-metal app's page-table pool; the kernel maps "
		"a Linux run's pages" },
	[KEY_CLOCK_REFERENCE] = { "clock.reference", KIND_REFERENCE, FIELD(clock_reference),
		0, 0, 0, "auto", "auto", NULL, NULL,
		"clock.reference chooses a bare-metal timer; the Linux build calibrates against "
		"CLOCK_MONOTONIC_RAW" },
	[KEY_UPLOAD_URL] = { "upload.url", KIND_URL, FIELD(upload_url),
		0, 0, 0, NULL, NULL, NULL, NULL, NULL },
	[KEY_QUIET] = { "quiet", KIND_YESNO, FIELD(quiet),
		0, 0, 0, "no", "no", NULL, NULL, NULL },
};
/* Every key: the general ones, then each probe's in run order. */
#define KEYS_MAX 128
#define KEY_NAME_MAX 48

/* `memprobe keys`'s columns: the widths its text is padded to, and the
   longest a values or default column may be. */
#define KEYS_NAME_WIDTH 26
#define KEYS_VALUES_WIDTH 44
#define KEYS_DEFAULT_WIDTH 14
#define KEYS_COLUMN_MAX 200

/* One key of the flat list config.c walks: its definition, whose settings
   hold it (-1: struct config itself) and its whole name. */
struct key_ref {
	const struct config_key *def;
	int probe;
	char name[KEY_NAME_MAX];
};
static struct key_ref all_keys[KEYS_MAX];
static unsigned key_count;

/* (0, 0.5]: 0 could never be met by three real trials, and over a half the
   rule would accept trials that disagree by more than they agree. */
#define FRACTION_MAX 0.5
#define MS_MAX 60000.0


static const struct config_word profile_words[] = {
	{ "quick", PROFILE_QUICK }, { "full", PROFILE_FULL }, { 0, 0 } };
/* The registry's probes in run order (probe.h), filled from the rows by
   probe_words_fill: a probe's name is written once, in its row. */
static struct config_word probe_words[PROBE_COUNT + 1];
#define PAGE_WORD_(word, bit, shift) { #word, bit },
static const struct config_word page_words[] = { PAGE_SIZE_LIST(PAGE_WORD_) { 0, 0 } };
/* x86 vectors, then AArch64 exception classes (ESR_ELx.EC: an undefined
   instruction (UDF), a data abort, a BRK) stored FAULT_VECTOR_AARCH64 above
   their number, so that each word has a value of its own and describes back
   as itself ("undef" is not "de"). Each machine raises its own and reports
   the others as raised with no fault arriving. */
static const struct config_word end_words[] = {
	{ "off", END_OFF }, { "reboot", END_REBOOT }, { "return", END_RETURN },
	{ "wait", END_WAIT }, { 0, 0 } };
static const struct config_word yesno_words[] = { { "no", 0 }, { "yes", 1 }, { 0, 0 } };
static const struct config_word node_words[] = { { "auto", NUMA_NODE_AUTO }, { 0, 0 } };
static const struct config_word cores_words[] = { { "all", CONFIG_CPUS_ALL }, { 0, 0 } };
static const struct config_word reference_words[] = {
	{ "auto", CLOCK_REF_AUTO }, { "pm", CLOCK_REF_PM_TIMER }, { "hpet", CLOCK_REF_HPET },
	{ "stall", CLOCK_REF_STALL }, { 0, 0 } };

/* ---- Private Functions ------------------------------------------------ */

/* The flat key list and the probes key's words, from the general keys
   and every registry row; filled before any key is looked up. */
static void keys_fill(void)
{
	key_count = 0;
	for (size_t k = 0; k < GENERAL_KEYS; k++) {
		all_keys[key_count] = (struct key_ref){ &keys[k], -1, "" };
		mp_strlcpy(all_keys[key_count++].name, keys[k].name, KEY_NAME_MAX);
	}
	for (unsigned p = 0; p < PROBE_COUNT; p++) {
		const struct probe_config *pc = probe_configs[p];

		probe_words[p] = (struct config_word){ pc->name, 1u << p };
		for (unsigned k = 0; k < pc->nkeys && key_count < KEYS_MAX; k++) {
			all_keys[key_count] = (struct key_ref){ &pc->keys[k], (int)p, "" };
			mp_snprintf(all_keys[key_count++].name, KEY_NAME_MAX, "%s.%s", pc->name,
				    pc->keys[k].name);
		}
	}
}

/* Where key k's value lives in c. */
static void *field_of(const struct config *c, unsigned k)
{
	const struct key_ref *r = &all_keys[k];
	const unsigned char *base = r->probe < 0 ? (const unsigned char *)c
						  : c->probe_settings[r->probe];

	return (void *)(uintptr_t)(base + r->def->offset);
}

/* Where a key's effective value came from, for combination errors. */
struct origin {
	const char *source;       /* NULL: the profile's default */
	int line;
};

struct loader {
	struct config *c;
	const struct config_platform *platform;  /* NULL: the defaults, no check */
	const struct config_source *src;  /* the one being read */
	struct config_error *err;
	struct origin origin[KEYS_MAX];
	int seen_line[KEYS_MAX];  /* in the source being read; 0: not yet */
	int seen_any[KEYS_MAX];
	enum profile profile;
};

/* "<source>[:line]: key '<key>': <what>" */
static int fail(struct loader *l, const struct config_entry *e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct loader *l, const struct config_entry *e, const char *fmt, ...)
{
	char where[160], what[200];
	va_list ap;

	config_where(where, sizeof where, l->src->name, e->line);
	va_start(ap, fmt);
	mp_vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	mp_snprintf(l->err->text, sizeof l->err->text, "%s: key '%.*s': %s", where,
		    config_echo_len(e->key), e->key.p, what);
	return -1;
}

static int find_key(struct config_span key)
{
	for (unsigned k = 0; k < key_count; k++) {
		size_t n = mp_strlen(all_keys[k].name);
		if (n == key.n && mp_strncmp(all_keys[k].name, key.p, n) == 0)
			return (int)k;
	}
	return -1;
}

/* ---- Values ----------------------------------------------------------- */

static const char *word_name(const struct config_word *words, unsigned value)
{
	for (const struct config_word *w = words; w->name; w++)
		if (w->value == value)
			return w->name;
	return 0;
}

/* "; did you mean 'WORD'?" when one of words is near s, else "". */
static void append_suggestion(struct mp_text *t, struct config_span s,
			      const struct config_word *words)
{
	struct suggest near;

	suggest_begin(&near, s.p, s.n);
	for (const struct config_word *w = words; w->name; w++)
		suggest_offer(&near, w->name);
	if (near.best)
		mp_append(t, "; did you mean '%s'?", near.best);
}

static int parse_word(struct loader *l, const struct config_entry *e, struct config_span s,
		      const struct config_word *words, const char *what, unsigned *out)
{
	for (const struct config_word *w = words; w->name; w++)
		if (config_span_equals_nocase(s, w->name)) {
			*out = w->value;
			return 0;
		}

	char choices[160];
	struct mp_text t = { choices, sizeof choices, 0 };
	choices[0] = '\0';
	for (const struct config_word *w = words; w->name; w++)
		mp_append(&t, "%s%s", w == words ? "" : ", ", w->name);
	append_suggestion(&t, s, words);
	return fail(l, e, "unknown %s '%.*s' (one of: %s)", what, config_echo_len(s), s.p, choices);
}

/* One item of a list key into its bit; 0, or -1 with the error set. */
typedef int (*list_item_fn)(struct loader *l, const struct config_entry *e,
			    struct config_span item, unsigned *bit);

static int probe_item(struct loader *l, const struct config_entry *e, struct config_span item,
		      unsigned *bit)
{
	return parse_word(l, e, item, probe_words, "probe", bit);
}

/* A comma-separated list of items, each through item_of, into a set of bits. */
static int parse_list(struct loader *l, const struct config_entry *e, const char *what,
		      list_item_fn item_of, unsigned *out)
{
	struct config_span v = e->value;
	unsigned bits = 0;

	for (size_t start = 0; start <= v.n;) {
		size_t stop = start;
		while (stop < v.n && v.p[stop] != ',')
			stop++;
		struct config_span item = config_span_trim((struct config_span){ v.p + start, stop - start });
		unsigned bit;
		if (item.n == 0)
			return fail(l, e, "an empty item in the %s list '%.*s'", what,
				    config_echo_len(v), v.p);
		if (item_of(l, e, item, &bit))
			return -1;
		bits |= bit;
		start = stop + 1;
	}
	*out = bits;
	return 0;
}

/* A page size of another architecture's is refused by name now, before
   any probe runs, rather than skipped by every probe at run time. */
#define PAGE_SHIFT_ROW_(word, bit, shift) { bit, shift },
static const struct { unsigned bit, shift; } page_shifts[] = { PAGE_SIZE_LIST(PAGE_SHIFT_ROW_) };

static int check_architected(struct loader *l, const struct config_entry *e, unsigned pages)
{
	char why[160];

	if (!l->platform)
		return 0;
	for (size_t i = 0; i < sizeof page_shifts / sizeof *page_shifts; i++)
		if ((pages & page_shifts[i].bit) &&
		    !l->platform->page_size_architected(page_shifts[i].shift, why, sizeof why))
			return fail(l, e, "%s", why);
	return 0;
}

/* Decimal digits only: no sign, no hex, so "-1" cannot wrap to 4 billion. */
static int parse_digits(struct config_span s, size_t *used, uint64_t *out, int *overflow)
{
	uint64_t v = 0;
	size_t i = 0;

	*overflow = 0;
	while (i < s.n && s.p[i] >= '0' && s.p[i] <= '9') {
		unsigned d = (unsigned)(s.p[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			*overflow = 1;
		else
			v = v * 10 + d;
		i++;
	}
	*used = i;
	*out = v;
	return i > 0;
}

static int check_range(struct loader *l, const struct config_entry *e, const struct config_key *k,
		       uint64_t v, int overflow)
{
	char low[32], high[32];

	if (!overflow && v >= k->min && v <= k->max)
		return 0;
	if (k->kind == KIND_SIZE || k->kind == KIND_SIZE_AUTO) {
		mp_format_bytes(low, sizeof low, k->min);
		mp_format_bytes(high, sizeof high, k->max);
	} else {
		mp_snprintf(low, sizeof low, "%llu", (unsigned long long)k->min);
		mp_snprintf(high, sizeof high, "%llu", (unsigned long long)k->max);
	}
	return fail(l, e, "out of range: '%.*s' (from %s to %s)", config_echo_len(e->value),
		    e->value.p, low, high);
}

static int parse_count(struct loader *l, const struct config_entry *e, const struct config_key *k,
		       uint64_t *out)
{
	size_t used;
	int overflow;

	if (!parse_digits(e->value, &used, out, &overflow) || used != e->value.n)
		return fail(l, e, "bad number '%.*s' (a whole number in decimal)",
			    config_echo_len(e->value), e->value.p);
	return check_range(l, e, k, *out, overflow);
}

/* One size grammar for every size key and the pages key: a decimal number
   with a unit of none or B (bytes), K or KiB, M or MiB, G or GiB, any case,
   a blank allowed before the unit ("2 MiB"). A fraction ("1.5M") is taken
   when it makes a whole number of bytes. */
static const struct { const char *name; unsigned shift; } size_units[] = {
	{ "", 0 }, { "b", 0 }, { "k", 10 }, { "kib", 10 }, { "m", 20 }, { "mib", 20 },
	{ "g", 30 }, { "gib", 30 },
};
#define SIZE_DECIMALS_MAX 9     /* 10^9 << 30 still fits 64 bits */

enum size_status { SIZE_OK, SIZE_BAD_NUMBER, SIZE_BAD_UNIT, SIZE_NOT_WHOLE };

/* s's bytes into *bytes (*overflow set when they do not fit 64 bits);
   *unit is the unit's text, for a message. */
static enum size_status size_of_text(struct config_span s, uint64_t *bytes, int *overflow,
				     struct config_span *unit)
{
	size_t used, fraction_used = 0, u;
	uint64_t whole, fraction = 0, scale = 1, part;
	int fraction_overflow = 0;

	if (!parse_digits(s, &used, &whole, overflow))
		return SIZE_BAD_NUMBER;
	if (used < s.n && s.p[used] == '.') {
		struct config_span rest = { s.p + used + 1, s.n - used - 1 };

		if (!parse_digits(rest, &fraction_used, &fraction, &fraction_overflow) ||
		    fraction_used > SIZE_DECIMALS_MAX)
			return SIZE_BAD_NUMBER;
		for (size_t i = 0; i < fraction_used; i++)
			scale *= 10;
		used += 1 + fraction_used;
	}
	*unit = config_span_trim((struct config_span){ s.p + used, s.n - used });
	for (u = 0; u < sizeof size_units / sizeof *size_units; u++)
		if (config_span_equals_nocase(*unit, size_units[u].name))
			break;
	if (u == sizeof size_units / sizeof *size_units)
		return SIZE_BAD_UNIT;
	unsigned shift = size_units[u].shift;
	if ((fraction << shift) % scale)
		return SIZE_NOT_WHOLE;
	part = (fraction << shift) / scale;
	if (*overflow || whole > (UINT64_MAX >> shift) || (whole << shift) > UINT64_MAX - part)
		*overflow = 1;
	else
		*bytes = (whole << shift) + part;
	return SIZE_OK;
}

static int parse_size(struct loader *l, const struct config_entry *e, const struct config_key *k,
		      uint64_t *out)
{
	struct config_span unit;
	uint64_t v = 0;
	int overflow;

	switch (size_of_text(e->value, &v, &overflow, &unit)) {
	case SIZE_BAD_NUMBER:
		return fail(l, e, "bad number '%.*s' (bytes, or a number with K, KiB, M, MiB, "
			    "G or GiB, like 64M or 1.5MiB)", config_echo_len(e->value), e->value.p);
	case SIZE_BAD_UNIT:
		return fail(l, e, "bad unit '%.*s' (none or B for bytes, or K, KiB, M, MiB, G, GiB)",
			    config_echo_len(unit), unit.p);
	case SIZE_NOT_WHOLE:
		return fail(l, e, "'%.*s' is not a whole number of bytes",
			    config_echo_len(e->value), e->value.p);
	case SIZE_OK:
		break;
	}
	if (check_range(l, e, k, v, overflow))
		return -1;
	if (v % k->multiple) {
		char text[32];
		mp_format_bytes(text, sizeof text, v);
		return fail(l, e, "%s is not a multiple of %llu bytes", text,
			    (unsigned long long)k->multiple);
	}
	*out = v;
	return 0;
}

static const double powers_of_ten[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* "12.5" or "1%". At most 15 significant digits and 20 decimals, so the
   value is one exact integer divided by one exact power of ten: a single
   correctly rounded division, and config_describe can print it back in
   digits that read back to the very same double. Returns 0 on success. */
static int parse_decimal(struct config_span s, double *out)
{
	uint64_t mantissa = 0;
	int digits = 0, decimals = 0, seen_point = 0, any = 0;
	size_t i = 0;

	for (; i < s.n; i++) {
		char ch = s.p[i];
		if (ch == '.' && !seen_point) {
			seen_point = 1;
			continue;
		}
		if (ch < '0' || ch > '9')
			break;
		any = 1;
		if (mantissa || ch != '0')
			digits++;
		if (digits > 15)
			return -1;
		mantissa = mantissa * 10 + (uint64_t)(ch - '0');
		decimals += seen_point;
	}
	if (!any)
		return -1;
	if (i < s.n && s.p[i] == '%' && i + 1 == s.n)
		decimals += 2;
	else if (i != s.n)
		return -1;
	if (decimals > 22)
		return -1;
	*out = (double)mantissa / powers_of_ten[decimals];
	return 0;
}

static int parse_real(struct loader *l, const struct config_entry *e, double max,
		      const char *form, double *out)
{
	double v;

	if (parse_decimal(e->value, &v))
		return fail(l, e, "bad number '%.*s' (%s)", config_echo_len(e->value), e->value.p, form);
	if (!(v > 0.0 && v <= max)) {
		char high[32];
		mp_snprintf(high, sizeof high, "%g", max);
		return fail(l, e, "out of range: '%.*s' (above 0, at most %s)",
			    config_echo_len(e->value), e->value.p, high);
	}
	*out = v;
	return 0;
}

/* "all", or logical CPUs and ranges: "0-7,16". Each number below
   CONFIG_CPUS_MAX, a range low to high; at least one CPU. */
static int parse_cpus(struct loader *l, const struct config_entry *e, uint64_t *set)
{
	struct config_span v = e->value;
	uint64_t bits[CONFIG_CPU_WORDS] = { 0 };

	if (config_span_equals_nocase(v, "all")) {
		for (unsigned w = 0; w < CONFIG_CPU_WORDS; w++)
			set[w] = ~0ull;
		return 0;
	}
	for (size_t start = 0; start <= v.n;) {
		size_t stop = start, used, used_high;
		uint64_t low, high;
		int overflow, overflow_high;

		while (stop < v.n && v.p[stop] != ',')
			stop++;
		struct config_span item = config_span_trim((struct config_span){ v.p + start, stop - start });
		if (!parse_digits(item, &used, &low, &overflow))
			return fail(l, e, "bad CPU list '%.*s' (all, or numbers and ranges like "
				    "0-7,16)", config_echo_len(v), v.p);
		high = low;
		overflow_high = overflow;
		if (used < item.n && item.p[used] == '-') {
			struct config_span rest = { item.p + used + 1, item.n - used - 1 };
			if (!parse_digits(rest, &used_high, &high, &overflow_high) ||
			    used_high != rest.n)
				return fail(l, e, "bad CPU range '%.*s' (like 0-7)",
					    config_echo_len(item), item.p);
		} else if (used != item.n) {
			return fail(l, e, "bad CPU number '%.*s'", config_echo_len(item), item.p);
		}
		if (overflow || overflow_high || high >= CONFIG_CPUS_MAX)
			return fail(l, e, "CPU '%.*s' out of range (0 to %u)", config_echo_len(item),
				    item.p, CONFIG_CPUS_MAX - 1);
		if (low > high)
			return fail(l, e, "CPU range '%.*s' runs backwards", config_echo_len(item), item.p);
		for (uint64_t cpu = low; cpu <= high; cpu++)
			bits[cpu / 64] |= 1ull << (cpu % 64);
		start = stop + 1;
	}
	for (unsigned w = 0; w < CONFIG_CPU_WORDS; w++)
		set[w] = bits[w];
	return 0;
}

/* upload.url: off, or http://HOST[:PORT][/PATH] or tftp://HOST[/PATH],
   printable characters only (it goes into a request line as it is), and
   taken apart by lib/url.c now: no user information, query or fragment,
   a port from 1 to 65535, so a URL the upload would refuse is refused
   before the run. */
static int parse_url(struct loader *l, const struct config_entry *e, char *out)
{
	struct config_span v = e->value;
	size_t scheme = 0;
	struct url parts;
	char why[160];

	mp_memset(out, 0, CONFIG_URL_MAX);
	if (config_span_equals_nocase(v, "off"))
		return 0;
	if (v.n > 7 && mp_strncmp(v.p, "http://", 7) == 0)
		scheme = 7;
	else if (v.n > 7 && mp_strncmp(v.p, "tftp://", 7) == 0)
		scheme = 7;
	if (!scheme || v.p[scheme] == '/' || v.p[scheme] == ':')
		return fail(l, e, "'%.*s' is not an http://HOST/PATH or tftp://HOST/PATH URL, "
			    "nor off", config_echo_len(v), v.p);
	if (v.n >= CONFIG_URL_MAX)
		return fail(l, e, "the URL is longer than %d characters", CONFIG_URL_MAX - 1);
	for (size_t i = 0; i < v.n; i++)
		if (v.p[i] <= ' ' || v.p[i] >= 0x7f || v.p[i] == '#')
			return fail(l, e, "the URL holds a blank, '#' or a character outside "
				    "printable ASCII");
	mp_memcpy(out, v.p, v.n);
	out[v.n] = '\0';
	if (url_parse(out, &parts, why, sizeof why) != 0) {
		mp_memset(out, 0, CONFIG_URL_MAX);
		return fail(l, e, "%s", why);
	}
	return 0;
}

/* ---- The kinds: how each parses, prints and compares its value -------- */

/* A key's value from e into field; 0, or -1 with the error set. */
typedef int (*parse_fn)(struct loader *l, const struct config_entry *e, const struct config_key *k,
			void *field);
/* The value's canonical text, which parse reads back as the same value. */
struct kind_ops;
typedef void (*describe_fn)(struct mp_text *t, const struct config_word *words,
			    const void *field);

struct kind_ops {
	parse_fn parse;
	describe_fn describe;
	size_t bytes;             /* the field's width: config_equal compares them */
	const struct config_word *words; /* a word kind's words (describe_word, parse_one_word) */
	const char *noun;         /* what an error calls one of its values */
};
static const struct kind_ops kinds[];

/* One word of the key's list (KIND_WORD) or else the kind's. */
static int parse_one_word(struct loader *l, const struct config_entry *e, const struct config_key *k,
			  void *field)
{
	return parse_word(l, e, e->value, k->words ? k->words : kinds[k->kind].words,
			  k->words ? k->noun : kinds[k->kind].noun, (unsigned *)field);
}

/* The profile is resolved in the first pass (check_entry) and skipped in
   the second (apply_entry): never here. */
static int parse_profile(struct loader *l, const struct config_entry *e, const struct config_key *k,
			 void *field)
{
	(void)field;
	(void)k;
	return fail(l, e, "internal error: the profile is resolved first");
}

static int parse_probes(struct loader *l, const struct config_entry *e, const struct config_key *k,
			void *field)
{
	(void)k;
	return parse_list(l, e, "probe", probe_item, (unsigned *)field);
}

/* The pages key's words for the page sizes this platform's architecture
   has (all of them where no platform is given: the defaults), ending in
   { 0, 0 }. */
static void architected_words(const struct loader *l,
			      struct config_word out[sizeof page_words / sizeof *page_words])
{
	char why[160];
	unsigned n = 0;

	for (size_t i = 0; i < sizeof page_shifts / sizeof *page_shifts; i++)
		if (!l->platform ||
		    l->platform->page_size_architected(page_shifts[i].shift, why, sizeof why))
			out[n++] = page_words[i];
	out[n] = (struct config_word){ 0, 0 };
}

/* One page size: its word ("2m") or a size in the size grammar ("2MiB",
   "2 M", "2097152"). A size that is no page size is refused with the
   sizes this platform has. */
static int page_item(struct loader *l, const struct config_entry *e, struct config_span item,
		     unsigned *bit)
{
	struct config_span unit;
	uint64_t bytes = 0;
	int overflow;

	for (const struct config_word *w = page_words; w->name; w++)
		if (config_span_equals_nocase(item, w->name)) {
			*bit = w->value;
			return 0;
		}
	if (size_of_text(item, &bytes, &overflow, &unit) == SIZE_OK && !overflow)
		for (size_t i = 0; i < sizeof page_shifts / sizeof *page_shifts; i++)
			if (bytes == 1ull << page_shifts[i].shift) {
				*bit = page_shifts[i].bit;
				return 0;
			}

	struct config_word here[sizeof page_words / sizeof *page_words];
	char choices[160];
	struct mp_text t = { choices, sizeof choices, 0 };

	choices[0] = '\0';
	architected_words(l, here);
	for (const struct config_word *w = here; w->name; w++)
		mp_append(&t, "%s%s", w == here ? "" : ", ", w->name);
	append_suggestion(&t, item, here);
	return fail(l, e, "unknown page size '%.*s' (this machine's: %s)", config_echo_len(item),
		    item.p, choices);
}

static int parse_pages(struct loader *l, const struct config_entry *e, const struct config_key *k,
		       void *field)
{
	(void)k;
	if (parse_list(l, e, "page size", page_item, (unsigned *)field))
		return -1;
	return check_architected(l, e, *(unsigned *)field);
}

static int parse_bytes(struct loader *l, const struct config_entry *e, const struct config_key *k,
		       void *field)
{
	return parse_size(l, e, k, (uint64_t *)field);
}

static int parse_bytes_or_auto(struct loader *l, const struct config_entry *e,
			       const struct config_key *k, void *field)
{
	if (config_span_equals_nocase(e->value, "auto")) {
		*(uint64_t *)field = 0;
		return 0;
	}
	return parse_size(l, e, k, (uint64_t *)field);
}

static int parse_uint(struct loader *l, const struct config_entry *e, const struct config_key *k,
		      void *field)
{
	uint64_t v;

	if (parse_count(l, e, k, &v))
		return -1;
	*(unsigned *)field = (unsigned)v;
	return 0;
}

static int parse_u64(struct loader *l, const struct config_entry *e, const struct config_key *k,
		     void *field)
{
	return parse_count(l, e, k, (uint64_t *)field);
}

static int parse_fraction(struct loader *l, const struct config_entry *e, const struct config_key *k,
			  void *field)
{
	(void)k;
	return parse_real(l, e, FRACTION_MAX, "a fraction like 0.01 or a percentage like 1%",
			  (double *)field);
}

static int parse_ms(struct loader *l, const struct config_entry *e, const struct config_key *k,
		    void *field)
{
	(void)k;
	return parse_real(l, e, MS_MAX, "milliseconds, like 10 or 0.5", (double *)field);
}

/* The end action, and that it was given (end_set). */
static int parse_end(struct loader *l, const struct config_entry *e, const struct config_key *k,
		     void *field)
{
	if (parse_one_word(l, e, k, field))
		return -1;
	l->c->end_set = 1;
	return 0;
}

static int parse_cpu_set(struct loader *l, const struct config_entry *e, const struct config_key *k,
			 void *field)
{
	(void)k;
	return parse_cpus(l, e, (uint64_t *)field);
}

/* Its one word (numa.node's auto, bandwidth.cores' all), or a count in
   range. Which domains and how many CPUs exist is the platform's to check
   (efi/numa.c; the bandwidth probe refuses a count above its CPUs). */
static int parse_word_or_count(struct loader *l, const struct config_entry *e,
			       const struct config_key *k, void *field)
{
	const struct config_word *w = kinds[k->kind].words;

	if (config_span_equals_nocase(e->value, w->name)) {
		*(unsigned *)field = w->value;
		return 0;
	}
	if (e->value.p[0] < '0' || e->value.p[0] > '9')
		return fail(l, e, "unknown value '%.*s' (%s, or a %s from %llu to %llu)",
			    config_echo_len(e->value), e->value.p, w->name, kinds[k->kind].noun,
			    (unsigned long long)k->min, (unsigned long long)k->max);
	return parse_uint(l, e, k, field);
}

static int parse_upload_url(struct loader *l, const struct config_entry *e, const struct config_key *k,
			    void *field)
{
	(void)k;
	return parse_url(l, e, (char *)field);
}

static int apply_value(struct loader *l, const struct config_entry *e, int key)
{
	const struct config_key *k = all_keys[key].def;

	return kinds[k->kind].parse(l, e, k, field_of(l->c, (unsigned)key));
}

/* ---- The two passes --------------------------------------------------- */

/* Pass 1, per source: the syntax, the keys, duplicates; and the profile,
   whose value must be known before any default is applied. */
static int check_entry(void *ctx, const struct config_entry *e)
{
	struct loader *l = ctx;
	int key = find_key(e->key);

	if (key < 0) {
		int exact;
		const char *near = config_key_nearest(e->key.p, e->key.n, &exact);

		if (near)
			return fail(l, e, "unknown key; did you mean '%s'?", near);
		return fail(l, e, "unknown key (docs/CONFIG.md and memprobe keys list every key)");
	}
	if (e->value.n == 0)
		return fail(l, e, "empty value");
	/* Within one source a second value is a mistake (which one was meant?);
	   across sources it is the point: load options override the file. */
	if (l->seen_any[key]) {
		if (l->seen_line[key])
			return fail(l, e, "duplicate key (first given on line %d)", l->seen_line[key]);
		return fail(l, e, "duplicate key (given twice in %s)", l->src->name);
	}
	l->seen_any[key] = 1;
	l->seen_line[key] = e->line;
	if (key == KEY_PROFILE) {
		unsigned u;
		if (parse_word(l, e, e->value, profile_words, "profile", &u))
			return -1;
		l->profile = (enum profile)u;
	}
	return 0;
}

/* Pass 2, per source in order: every other key over the profile's defaults. */
static int apply_entry(void *ctx, const struct config_entry *e)
{
	struct loader *l = ctx;
	int key = find_key(e->key);

	if (key == KEY_PROFILE)
		return 0;
	if (apply_value(l, e, key))
		return -1;
	l->origin[key] = (struct origin){ l->src->name, e->line };
	return 0;
}

static void describe_origin(const struct loader *l, int key, char *buf, size_t size)
{
	const struct origin *o = &l->origin[key];

	if (o->source)
		config_where(buf, size, o->source, o->line);
	else
		mp_snprintf(buf, size, "the %s profile's default",
			    l->profile == PROFILE_FULL ? "full" : "quick");
}

/* "<where a was set>: key '<a>': <what> (<b> from <where b was set>)" */
static int fail_combination(struct loader *l, int a, int b, const char *what)
{
	char where_a[160], where_b[160];

	describe_origin(l, a, where_a, sizeof where_a);
	if (b < 0) {
		mp_snprintf(l->err->text, sizeof l->err->text, "%s: key '%s': %s",
			    where_a, all_keys[a].name, what);
	} else {
		describe_origin(l, b, where_b, sizeof where_b);
		mp_snprintf(l->err->text, sizeof l->err->text, "%s: key '%s': %s (%s from %s)",
			    where_a, all_keys[a].name, what, all_keys[b].name, where_b);
	}
	return -1;
}

/* The index of probe p's key named `name` (its row's short name). */
static int probe_key(unsigned p, const char *name)
{
	for (unsigned k = GENERAL_KEYS; k < key_count; k++)
		if (all_keys[k].probe == (int)p && !mp_strcmp(all_keys[k].def->name, name))
			return (int)k;
	return -1;
}

/* The general keys' combinations, then each probe's through its row's
   check. */
static int check_combinations(struct loader *l)
{
	const struct config *c = l->c;

	if (!c->probes)
		return fail_combination(l, KEY_PROBES, -1, "no probe to run");
	if (!c->pages)
		return fail_combination(l, KEY_PAGES, -1, "no page size to run with");
	if (c->max_size && c->min_size > c->max_size)
		return fail_combination(l, KEY_MIN_SIZE, KEY_MAX_SIZE,
					"is larger than max_size");
	if (c->trials > c->max_trials)
		return fail_combination(l, KEY_TRIALS, KEY_MAX_TRIALS,
					"is larger than max_trials");
	for (unsigned p = 0; p < PROBE_COUNT; p++) {
		const char *a = 0, *b = 0, *what;

		if (!probe_configs[p]->check)
			continue;
		what = probe_configs[p]->check(c->probe_settings[p], &a, &b);
		if (what)
			return fail_combination(l, probe_key(p, a), b ? probe_key(p, b) : -1, what);
	}
	return 0;
}

/* ---- Describing ------------------------------------------------------- */

static void append_words(struct mp_text *t, const struct config_word *words, unsigned bits)
{
	const char *sep = "";

	for (const struct config_word *w = words; w->name; w++)
		if (bits & w->value) {
			mp_append(t, "%s%s", sep, w->name);
			sep = ",";
		}
}

/* The fewest decimals that parse_decimal reads back as exactly v; any value
   it accepted comes back within its 22 decimals. Being the fewest, the text
   never ends in a zero after the point. */
static void append_decimal(struct mp_text *t, double v)
{
	char text[40];
	double back;

	for (int decimals = 0; decimals <= 22; decimals++) {
		mp_snprintf(text, sizeof text, "%.*f", decimals, v);
		if (parse_decimal((struct config_span){ text, mp_strlen(text) }, &back) == 0 && back == v) {
			mp_append(t, "%s", text);
			return;
		}
	}
	mp_append(t, "%.17g", v);
}

/* "all" when every CPU is in the set, else its runs as "0-7,16". */
static void append_cpus(struct mp_text *t, const uint64_t *set)
{
	const char *sep = "";
	unsigned cpu = 0, all = 1;

	for (unsigned w = 0; w < CONFIG_CPU_WORDS; w++)
		all &= set[w] == ~0ull;
	if (all) {
		mp_append(t, "all");
		return;
	}
	while (cpu < CONFIG_CPUS_MAX) {
		unsigned last;

		if (!(set[cpu / 64] >> (cpu % 64) & 1u)) {
			cpu++;
			continue;
		}
		for (last = cpu; last + 1 < CONFIG_CPUS_MAX &&
				 (set[(last + 1) / 64] >> ((last + 1) % 64) & 1u); last++)
			;
		if (last == cpu)
			mp_append(t, "%s%u", sep, cpu);
		else
			mp_append(t, "%s%u-%u", sep, cpu, last);
		sep = ",";
		cpu = last + 1;
	}
}

static void append_size(struct mp_text *t, uint64_t bytes)
{
	static const char *const units[] = { "", "KiB", "MiB", "GiB" };
	unsigned u = 3;

	while (u && bytes % (1ull << (10 * u)))
		u--;
	mp_append(t, "%llu%s", (unsigned long long)(bytes >> (10 * u)), units[u]);
}

/* Byte for byte: every value a kind stores has one representation (parse
   never yields -0.0 or a NaN, and the URL's unused bytes are zero). */
static int same_bytes(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

static void describe_word(struct mp_text *t, const struct config_word *words,
				const void *field)
{
	mp_append(t, "%s", word_name(words, *(const unsigned *)field));
}

static void describe_list(struct mp_text *t, const struct config_word *words,
				const void *field)
{
	append_words(t, words, *(const unsigned *)field);
}

static void describe_bytes(struct mp_text *t, const struct config_word *words,
				const void *field)
{
	(void)words;
	append_size(t, *(const uint64_t *)field);
}

static void describe_bytes_or_auto(struct mp_text *t, const struct config_word *words,
				const void *field)
{
	if (*(const uint64_t *)field)
		describe_bytes(t, words, field);
	else
		mp_append(t, "auto");
}

static void describe_uint(struct mp_text *t, const struct config_word *words,
				const void *field)
{
	(void)words;
	mp_append(t, "%u", *(const unsigned *)field);
}

static void describe_u64(struct mp_text *t, const struct config_word *words,
				const void *field)
{
	(void)words;
	mp_append(t, "%llu", (unsigned long long)*(const uint64_t *)field);
}

static void describe_real(struct mp_text *t, const struct config_word *words,
				const void *field)
{
	(void)words;
	append_decimal(t, *(const double *)field);
}

/* Its word where the value has one, else its number. */
static void describe_word_or_count(struct mp_text *t, const struct config_word *words,
				const void *field)
{
	const char *name = word_name(words, *(const unsigned *)field);

	if (name)
		mp_append(t, "%s", name);
	else
		mp_append(t, "%u", *(const unsigned *)field);
}

static void describe_cpu_set(struct mp_text *t, const struct config_word *words,
				const void *field)
{
	(void)words;
	append_cpus(t, field);
}

static void describe_url(struct mp_text *t, const struct config_word *words,
				const void *field)
{
	(void)words;
	mp_append(t, "%s", *(const char *)field ? (const char *)field : "off");
}

/* Every kind, once: how it parses, prints and compares. A kind left out
   would be a NULL parse: tests/unit/test_config.c loads a value of every
   key. */
static const struct kind_ops kinds[] = {
	[KIND_PROFILE]   = { parse_profile, describe_word, sizeof(enum profile), profile_words,
			     "profile" },
	[KIND_PROBES]    = { parse_probes, describe_list, sizeof(unsigned), probe_words, "probe" },
	[KIND_PAGES]     = { parse_pages, describe_list, sizeof(unsigned), page_words,
			     "page size" },
	[KIND_SIZE]      = { parse_bytes, describe_bytes, sizeof(uint64_t), 0, 0 },
	[KIND_SIZE_AUTO] = { parse_bytes_or_auto, describe_bytes_or_auto, sizeof(uint64_t), 0, 0 },
	[KIND_UINT]      = { parse_uint, describe_uint, sizeof(unsigned), 0, 0 },
	[KIND_U64]       = { parse_u64, describe_u64, sizeof(uint64_t), 0, 0 },
	[KIND_FRACTION]  = { parse_fraction, describe_real, sizeof(double), 0, 0 },
	[KIND_MS]        = { parse_ms, describe_real, sizeof(double), 0, 0 },
	[KIND_END]       = { parse_end, describe_word, sizeof(enum end_action), end_words,
			     "end action" },
	[KIND_CPUS]      = { parse_cpu_set, describe_cpu_set,
			     CONFIG_CPU_WORDS * sizeof(uint64_t), 0, 0 },
	[KIND_NODE]      = { parse_word_or_count, describe_word_or_count, sizeof(unsigned),
			     node_words, "domain number" },
	[KIND_YESNO]     = { parse_one_word, describe_word, sizeof(unsigned), yesno_words,
			     "answer" },
	[KIND_REFERENCE] = { parse_one_word, describe_word, sizeof(unsigned), reference_words,
			     "reference" },
	[KIND_CORES]     = { parse_word_or_count, describe_word_or_count, sizeof(unsigned),
			     cores_words, "count of CPUs" },
	/* Every byte: parse_url and the defaults zero the rest. */
	[KIND_URL]       = { parse_upload_url, describe_url, CONFIG_URL_MAX, 0, 0 },
	/* The words and noun are the key's own. */
	[KIND_WORD]      = { parse_one_word, describe_word, sizeof(unsigned), 0, 0 },
};
_Static_assert(sizeof kinds / sizeof kinds[0] == KIND_COUNT, "every kind has its operations");

/* The PROBE_* bits of the probes a profile runs when the probes key does
   not name them: the rows that say so. */
static unsigned profile_probes(enum profile profile)
{
	unsigned want = profile == PROFILE_FULL ? PROBE_IN_FULL : PROBE_IN_QUICK, set = 0;

	for (unsigned i = 0; i < PROBE_COUNT; i++)
		if (probe_configs[i]->profiles & want)
			set |= 1u << i;
	return set;
}

/* A key only bare metal runs, given a value other than its default on a
   platform that is not: refused with the key's own reason, so a run never
   quietly measures without what was asked (a NUMA domain, a reference
   timer). */
static int check_platform(struct loader *l)
{
	static struct config defaults;

	if (!l->platform || l->platform->bare_metal)
		return 0;
	config_defaults(&defaults, l->c->profile);
	for (unsigned k = 0; k < key_count; k++) {
		const struct config_key *key = all_keys[k].def;

		if (key->bare_metal_only &&
		    !same_bytes(field_of(l->c, k), field_of(&defaults, k), kinds[key->kind].bytes)) {
			mp_snprintf(l->err->text, sizeof l->err->text, "%s", key->bare_metal_only);
			return -1;
		}
	}
	return 0;
}

/* ---- The key list ----------------------------------------------------- */

/* words joined by '|'. */
static void append_choices(struct mp_text *t, const struct config_word *words)
{
	for (const struct config_word *w = words; w->name; w++)
		mp_append(t, "%s%s", w == words ? "" : "|", w->name);
}

/* min..max as the key's kind writes them. */
static void append_range(struct mp_text *t, const struct config_key *key)
{
	if (key->kind == KIND_SIZE || key->kind == KIND_SIZE_AUTO) {
		mp_append(t, "size ");
		append_size(t, key->min);
		mp_append(t, "..");
		append_size(t, key->max);
		if (key->multiple > 1)
			mp_append(t, " multiple of %llu", (unsigned long long)key->multiple);
		return;
	}
	mp_append(t, "%s %llu..%llu", key->kind == KIND_NODE ? "domain" : "number",
		  (unsigned long long)key->min, (unsigned long long)key->max);
}

/* What a key takes, in one column of `memprobe keys`: its words joined by
   '|' (the completion offers them), or its kind and range. */
static void append_values(struct mp_text *t, const struct config_key *key)
{
	const struct config_word *words = key->words ? key->words : kinds[key->kind].words;

	switch (key->kind) {
	case KIND_PROBES:
		mp_append(t, "list of ");
		append_choices(t, words);
		break;
	case KIND_PAGES:
		mp_append(t, "list of ");
		append_choices(t, words);
		mp_append(t, " or sizes like 2MiB");
		break;
	case KIND_SIZE:
	case KIND_UINT:
	case KIND_U64:
		append_range(t, key);
		break;
	case KIND_SIZE_AUTO:
		mp_append(t, "auto|");
		append_range(t, key);
		break;
	case KIND_NODE:
	case KIND_CORES:
		mp_append(t, "%s|", words->name);
		append_range(t, key);
		break;
	case KIND_FRACTION:
		mp_append(t, "fraction above 0 at most 0.5, or percent like 1%%");
		break;
	case KIND_MS:
		mp_append(t, "milliseconds above 0 at most 60000");
		break;
	case KIND_CPUS:
		mp_append(t, "all|CPU list like 0-7,16");
		break;
	case KIND_URL:
		mp_append(t, "off|http://HOST/PATH|tftp://HOST/PATH");
		break;
	default:
		append_choices(t, words);
		break;
	}
	if (key->bare_metal_only)
		mp_append(t, " (bare metal only)");
}

/* Key k's value in c as config_describe writes it; end unset: "-". */
static void append_value_of(struct mp_text *t, const struct config *c, unsigned k)
{
	const struct config_key *key = all_keys[k].def;

	if (key->kind == KIND_END && !c->end_set) {
		mp_append(t, "-");
		return;
	}
	kinds[key->kind].describe(t, key->words ? key->words : kinds[key->kind].words,
				  field_of(c, k));
}

/* One padded column and the two blanks after it (a column's text never
   holds two blanks in a row, so a script splits on them). */
static void append_column(struct mp_text *t, const char *text, int width)
{
	mp_append(t, "%-*s  ", width, text);
}

/* ---- Public Functions ------------------------------------------------- */

void config_defaults(struct config *c, enum profile p)
{
	struct config_error err;
	struct config_source src = { p == PROFILE_FULL ? "the full profile's defaults"
					       : "the quick profile's defaults", "", 0, 1 };
	struct loader l = { .c = c, .src = &src, .err = &err, .profile = p };

	/* Zeroed first so a field no default covers (end_set, the bytes of a
	   settings block no key names) is 0, never the caller's garbage. */
	mp_memset(c, 0, sizeof *c);
	keys_fill();
	c->profile = p;
	c->probes = profile_probes(p);
	for (unsigned k = 0; k < key_count; k++) {
		const char *text = p == PROFILE_FULL ? all_keys[k].def->full : all_keys[k].def->quick;
		struct config_entry e = { { all_keys[k].name, mp_strlen(all_keys[k].name) },
				   { text, text ? mp_strlen(text) : 0 }, 0 };

		if (text)
			apply_value(&l, &e, (int)k);
	}
}

int config_load(struct config *c, const struct config_source *src, int nsrc,
		const struct config_platform *platform, struct config_error *err)
{
	struct loader l = { .c = c, .platform = platform, .err = err, .profile = PROFILE_QUICK };

	err->text[0] = '\0';
	keys_fill();
	for (int i = 0; i < nsrc; i++) {
		l.src = &src[i];
		mp_memset(l.seen_any, 0, sizeof l.seen_any);
		mp_memset(l.seen_line, 0, sizeof l.seen_line);
		if (config_text_read(l.src, check_entry, &l, err))
			return -1;
	}
	config_defaults(c, l.profile);
	for (int i = 0; i < nsrc; i++) {
		l.src = &src[i];
		if (config_text_read(l.src, apply_entry, &l, err))
			return -1;
	}
	if (check_combinations(&l))
		return -1;
	return check_platform(&l);
}

int config_describe(const struct config *c, char *buf, size_t size)
{
	struct mp_text t = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	keys_fill();
	for (unsigned k = 0; k < key_count; k++) {
		const struct config_key *key = all_keys[k].def;
		const void *field = field_of(c, k);

		if (key->kind == KIND_END && !c->end_set) {
			mp_append(&t, "# end: not set, the platform's default applies\n");
			continue;
		}
		mp_append(&t, "%s = ", all_keys[k].name);
		kinds[key->kind].describe(&t, key->words ? key->words : kinds[key->kind].words,
					  field);
		mp_append(&t, "\n");
	}
	return (int)t.len;
}

int config_equal(const struct config *a, const struct config *b)
{
	keys_fill();
	for (unsigned k = 0; k < key_count; k++) {
		const struct config_key *key = all_keys[k].def;

		/* end_set is the key's own: whether it was given at all */
		if (key->kind == KIND_END) {
			if (a->end_set != b->end_set)
				return 0;
			if (!a->end_set)
				continue;
		}
		if (!same_bytes(field_of(a, k), field_of(b, k), kinds[key->kind].bytes))
			return 0;
	}
	return 1;
}

int config_keys_describe(char *buf, size_t size)
{
	static struct config quick, full;
	struct mp_text t = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	config_defaults(&quick, PROFILE_QUICK);
	config_defaults(&full, PROFILE_FULL);
	mp_append(&t, "%-*s  %-*s  %-*s  %s\n", KEYS_NAME_WIDTH, "KEY", KEYS_VALUES_WIDTH, "VALUES",
		  KEYS_DEFAULT_WIDTH, "QUICK", "FULL");
	for (unsigned k = 0; k < key_count; k++) {
		char column[KEYS_COLUMN_MAX];
		struct mp_text c = { column, sizeof column, 0 };

		append_column(&t, all_keys[k].name, KEYS_NAME_WIDTH);
		append_values(&c, all_keys[k].def);
		append_column(&t, column, KEYS_VALUES_WIDTH);
		c.len = 0;
		append_value_of(&c, &quick, k);
		append_column(&t, column, KEYS_DEFAULT_WIDTH);
		append_value_of(&t, &full, k);
		mp_append(&t, "\n");
	}
	return (int)t.len;
}

const char *config_key_nearest(const char *name, size_t len, int *exact)
{
	struct suggest near;
	int key;

	keys_fill();
	key = find_key((struct config_span){ name, len });
	*exact = key >= 0;
	if (key >= 0)
		return all_keys[key].name;
	suggest_begin(&near, name, len);
	for (unsigned k = 0; k < key_count; k++)
		suggest_offer(&near, all_keys[k].name);
	return near.best;
}
