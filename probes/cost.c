/* cost: what passing an aggregate by value costs against passing a pointer
 * to it (seeds/cost.c, docs/METHOD.md), in both calling conventions this
 * program lives between:
 *
 *  - sysv, the System V AMD64 ABI: Linux's, and this program's own calls on
 *    both platforms (gnu-efi code is System V inside). An aggregate of up
 *    to 16 bytes of doubles travels in SSE registers; a larger one is
 *    copied by the caller onto the stack, into the outgoing argument area.
 *  - ms, the Microsoft x64 convention: the UEFI firmware's. Any aggregate
 *    that is not 1, 2, 4 or 8 bytes is copied by the caller into a
 *    temporary and passed as a hidden pointer to that copy in RCX.
 *
 * On AArch64 there is one convention, for the firmware and this program
 * alike:
 *
 *  - aapcs64, the Arm 64-bit procedure call standard: an aggregate of up to
 *    16 bytes travels in registers (two doubles in d0-d1, as a homogeneous
 *    floating-point aggregate of up to four); a larger one is copied by the
 *    caller into memory and passed as a pointer to that copy in x0, so "by
 *    value" there is a copy plus the pointer "by pointer" passes alone.
 *
 * Every callee reads one field and returns it, so whatever a by-value call
 * costs beyond its by-pointer twin is the passing itself. The unit is a
 * bare call with no arguments, timed the same way.
 */

#include "results/chart_file.h"
#include "core/config.h"
#include "lib/fmt.h"
#include "results/emit.h"
#include "core/platform.h"
#include "core/probe.h"
#include "probes/cost_settings.h"
#include "results/report_table.h"
#include "results/results.h"
#include "core/timebase.h"
#include "core/trials.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_cost.config.name)

/* ---- Constants -------------------------------------------------------- */


/* The aggregate sizes, in bytes, as the seed chose them. */
#define COST_SIZES(X) X(16) X(32) X(64) X(128) X(192) X(256) X(384) X(512) \
	X(768) X(1024)

/* noinline keeps the call; noipa also stops GCC from learning that a callee
   is pure, which would let it hoist the call (and the copy) out of a loop. */
#define CALLEE static __attribute__((noinline, noipa))

/* The conventions this build can call with: the compiler's target decides,
   and a convention the target lacks (ms_abi on AArch64, where GCC ignores
   the attribute) would give rows that only repeat the native one under
   another name. IF_MS keeps the Microsoft x64 variants to x86-64. */
#if defined(__x86_64__)
#define MS_ABI __attribute__((ms_abi))
#define COST_CONVENTIONS 2
#define IF_MS(...) __VA_ARGS__
#else
#define COST_CONVENTIONS 1
#define IF_MS(...)
#endif

/* A row per aggregate size and convention; the second header line gives
   the units. */
static const struct table_column cases_columns[] = {
	{ "bytes", "", 6, 0, 0 },
	{ "abi", "", 4, 1, 0 },
	{ "by value", "ns/call", 9, 0, 0 },
	{ "by pointer", "ns/call", 10, 0, 0 },
	{ "delta", "ns/call", 9, 0, 0 },
	{ "ratio", "", 7, 0, 0 },
	{ "delta in", "bare calls", 10, 0, 0 },
};
static const struct table cases_table = TABLE_OF(cases_columns, "  ");

/* ---- Private Types ---------------------------------------------------- */

/* One timed pass: two loops of `reps` calls, one after the other. */
struct cost_pass {
	int64_t reps;
	uint64_t ticks[2];
};

struct cost_case {
	unsigned bytes;
	void (*time[COST_CONVENTIONS])(void *pass);
};

/* One convention's names: in the report, in results.csv, in cost.svg. */
struct convention {
	const char *abi, *bare, *by_value, *by_pointer, *value_label, *pointer_label;
};

/* ---- Private Data ----------------------------------------------------- */

/* Keeps each result live without an accumulator: a sum would put its own
   floating-point add latency into every call's dependency chain, and a plain
   variable could shrink to one store after the loop. */
static volatile double cost_sink;

/* ---- Private Functions ------------------------------------------------ */

#if defined(__x86_64__)
static const struct convention conventions[COST_CONVENTIONS] = {
	{ "sysv", "bare_call_sysv", "by_value_sysv", "by_pointer_sysv",
	  "by value, System V", "by pointer, System V" },
	{ "ms", "bare_call_ms", "by_value_ms", "by_pointer_ms",
	  "by value, Microsoft x64", "by pointer, Microsoft x64" },
};
#define CONVENTIONS_TEXT "sysv = System V AMD64 (Linux, and this program's own calls), ms = " \
	"Microsoft x64 (the UEFI firmware's)"
#define COPYING_CALLS "ms at 16 B, both from 32 B"
#else
static const struct convention conventions[COST_CONVENTIONS] = {
	{ "aapcs64", "bare_call_aapcs64", "by_value_aapcs64", "by_pointer_aapcs64",
	  "by value, AAPCS64", "by pointer, AAPCS64" },
};
#define CONVENTIONS_TEXT "aapcs64 = the Arm 64-bit procedure call standard (the firmware's " \
	"and this program's own): above 16 bytes, by value is a caller-made copy passed by pointer"
#define COPYING_CALLS "from 32 B"
#endif

CALLEE double bare_sysv(void) { return 1.0; }
IF_MS(CALLEE MS_ABI double bare_ms(void) { return 1.0; })

/* Both loops write the first field before each call: a loop-invariant
   argument is a copy the compiler may make once, outside the loop. */
#define TIME_BY_VALUE_AND_POINTER(SZ, CONV, pass)                             \
	do {                                                                  \
		aggregate_##SZ a;                                             \
		const int64_t reps = (pass)->reps;                            \
		uint64_t t0, t1, t2;                                          \
		for (unsigned k = 0; k < SZ / 8; k++)                         \
			a.v[k] = (double)k;                                   \
		t0 = plat_ticks();                                            \
		for (int64_t i = 0; i < reps; i++) {                          \
			a.v[0] = (double)i;                                   \
			cost_sink = by_value_##CONV##_##SZ(a);                \
		}                                                             \
		t1 = plat_ticks();                                            \
		for (int64_t i = 0; i < reps; i++) {                          \
			a.v[0] = (double)i;                                   \
			cost_sink = by_pointer_##CONV##_##SZ(&a);             \
		}                                                             \
		t2 = plat_ticks();                                            \
		(pass)->ticks[0] = t1 - t0;                                   \
		(pass)->ticks[1] = t2 - t1;                                   \
	} while (0)

#define DEFINE_CASE(SZ)                                                       \
	typedef struct { double v[SZ / 8]; } aggregate_##SZ;                  \
	CALLEE double by_value_sysv_##SZ(aggregate_##SZ a) { return a.v[0]; } \
	CALLEE double by_pointer_sysv_##SZ(const aggregate_##SZ *a)           \
	{ return a->v[0]; }                                                   \
	static void time_sysv_##SZ(void *arg)                                 \
	{ TIME_BY_VALUE_AND_POINTER(SZ, sysv, (struct cost_pass *)arg); }     \
	IF_MS(                                                                \
	CALLEE MS_ABI double by_value_ms_##SZ(aggregate_##SZ a)               \
	{ return a.v[0]; }                                                    \
	CALLEE MS_ABI double by_pointer_ms_##SZ(const aggregate_##SZ *a)      \
	{ return a->v[0]; }                                                   \
	static void time_ms_##SZ(void *arg)                                   \
	{ TIME_BY_VALUE_AND_POINTER(SZ, ms, (struct cost_pass *)arg); })

COST_SIZES(DEFINE_CASE)

#define CASE_ENTRY(SZ) { SZ, { time_sysv_##SZ IF_MS(, time_ms_##SZ) } },
static const struct cost_case cost_cases[] = { COST_SIZES(CASE_ENTRY) };
#define COST_CASES (sizeof cost_cases / sizeof cost_cases[0])

/* cost.svg: ns per call against the aggregate size, one curve per variant:
   by value then by pointer, for each convention in turn. */
#define CHART_SERIES (2 * COST_CONVENTIONS)
static double chart_bytes[COST_CASES], chart_ns[CHART_SERIES][COST_CASES];

/* The unit: ticks[k] for convention k's bare calls. */
static void time_bare(void *arg)
{
	struct cost_pass *pass = arg;
	const int64_t reps = pass->reps;
	uint64_t t0, t1, t2;

	t0 = plat_ticks();
	for (int64_t i = 0; i < reps; i++)
		cost_sink = bare_sysv();
	t1 = plat_ticks();
	IF_MS(for (int64_t i = 0; i < reps; i++)
		cost_sink = bare_ms();)
	t2 = plat_ticks();
	pass->ticks[0] = t1 - t0;
	pass->ticks[1] = t2 - t1;
}

/* Runs `time` until the stop rule every probe shares (trials_stop) ends
   both loops: at least c->trials passes, then each loop stops when its best
   three agree within c->precision (settled) or the last passes moved its
   best by less (steady), at most c->max_trials; or, when the user set
   cost.trials, exactly that many undisturbed passes (stopped by "count").
   Disturbed passes are discarded (trials.h). The minimum of each loop is
   its figure: noise on a machine only ever adds time. stop[k]: what ended
   loop k. 0, or -1 with the fault reported. */
static int time_trials(const struct config *c, void (*time)(void *),
		       struct trials t[2], const char *stop[2])
{
	struct cost_pass pass = { .reps = (int64_t)COST_SETTINGS(c)->reps };
	struct plat_disturbances before, after;
	struct plat_fault fault;
	struct config rule = *c;
	uint64_t spent[2] = { 0, 0 };

	if (COST_SETTINGS(c)->trials)
		rule.trials = rule.max_trials = COST_SETTINGS(c)->trials;
	trials_init(&t[0]);
	trials_init(&t[1]);
	stop[0] = stop[1] = 0;
	while (!(stop[0] && stop[1])) {
		plat_disturbances(&before);
		if (plat_timed(time, &pass, &fault) != 0) {
			report_printf("%s: a timed loop faulted: %s\n", PROBE_NAME,
				      fault.text);
			return -1;
		}
		plat_disturbances(&after);
		/* One pass times both loops: both keep it or both drop it. */
		if (!trials_add_checked(&t[0], (double)pass.ticks[0], &before, &after))
			continue;
		trials_add_checked(&t[1], (double)pass.ticks[1], &before, &after);
		for (unsigned k = 0; k < 2; k++) {
			spent[k] += pass.ticks[k];
			/* A loop that has stopped keeps its limit; its twin goes
			   on until it stops too. No time budget: max_trials
			   bounds the passes. */
			if (!stop[k])
				stop[k] = trials_stop(&t[k], &rule, spent[k], UINT64_MAX);
		}
	}
	for (unsigned k = 0; k < 2; k++)
		/* A fixed count ends at the count whatever else holds then. */
		if (COST_SETTINGS(c)->trials && mp_strcmp(stop[k], "signal"))
			stop[k] = "count";
	return 0;
}

static double ns_per_call(const struct config *c, const struct trials *t)
{
	return ticks_to_ns((uint64_t)trials_best(t)) / (double)COST_SETTINGS(c)->reps;
}

static double emit_row(const struct config *c, const char *variant,
		       unsigned bytes, const struct trials *t, const char *stopped_by)
{
	struct result_row f = {
		.probe = PROBE_NAME, .variant = variant, .page_shift = 0,
		.working_set_bytes = bytes, .ns = ns_per_call(c, t),
		.trials = t->count, .spread = trials_spread(t),
		.pages_verified = "", .stopped_by = stopped_by,
	};

	emit_result_row(&f);
	return f.ns;
}

static void emit_pair(const struct config *c, unsigned bytes, const struct convention *conv,
		      const struct trials t[2], const char *const stop[2], double unit,
		      unsigned point, int series)
{
	double value = emit_row(c, conv->by_value, bytes, &t[0], stop[0]);
	double pointer = emit_row(c, conv->by_pointer, bytes, &t[1], stop[1]);

	chart_bytes[point] = bytes;
	chart_ns[series][point] = value;
	chart_ns[series + 1][point] = pointer;

	report_table_cell("%u", bytes);
	report_table_cell("%s", conv->abi);
	report_table_cell("%.2f", value);
	report_table_cell("%.2f", pointer);
	report_table_cell("%.2f", value - pointer);
	report_table_cell("%.2f", value / pointer);
	report_table_cell("%.2f", (value - pointer) / unit);
	report_table_row(0);
}

/* Every case, every convention, a table row each; 0, or -1 when a timed
   loop faulted (reported). */
static int measure_cases(const struct config *c, const double *unit)
{
	struct trials t[2];
	const char *stop[2];

	for (unsigned i = 0; i < COST_CASES; i++) {
		const struct cost_case *k = &cost_cases[i];

		for (unsigned conv = 0; conv < COST_CONVENTIONS; conv++) {
			if (time_trials(c, k->time[conv], t, stop) != 0)
				return -1;
			emit_pair(c, k->bytes, &conventions[conv], t, stop, unit[conv], i,
				  2 * (int)conv);
		}
	}
	return 0;
}

static void write_chart(void)
{
	struct svg_series series[CHART_SERIES];
	struct svg_chart chart = {
		.title = "memprobe: the cost of a call, by value and by pointer",
		.x_label = "aggregate size (log2 scale)",
		.y_label = "ns per call (log scale)",
		.x_is_bytes = 1, .series = series, .nseries = CHART_SERIES,
	};

	for (unsigned s = 0; s < CHART_SERIES; s++)
		series[s] = (struct svg_series){ s % 2 ? conventions[s / 2].pointer_label
						       : conventions[s / 2].value_label,
						 COST_CASES, chart_bytes, chart_ns[s] };
	chart_file("cost.svg", chart_produce_plain, &chart);
}

/* ---- Public Functions ------------------------------------------------- */

int probe_cost(const struct config *c)
{
	struct trials bare[2];
	const char *bare_stop[2];
	double unit[COST_CONVENTIONS];
	int rc;

	if (COST_SETTINGS(c)->reps == 0 || COST_SETTINGS(c)->reps > INT64_MAX) {
		report_printf("%s: cost.reps must be at least 1\n", PROBE_NAME);
		return -1;
	}
	if (COST_SETTINGS(c)->trials)
		report_printf("%s: by-value vs by-pointer calls, %llu calls per trial, best "
			      "of %u (cost.trials: a fixed count); " CONVENTIONS_TEXT "\n",
			      PROBE_NAME, (unsigned long long)COST_SETTINGS(c)->reps, COST_SETTINGS(c)->trials);
	else
		report_printf("%s: by-value vs by-pointer calls, %llu calls per trial, best "
			      "of %u .. %u trials: each loop stops when its best three agree "
			      "within %.1f%% or %u more trials moved its best by less; "
			      CONVENTIONS_TEXT "\n", PROBE_NAME, (unsigned long long)COST_SETTINGS(c)->reps,
			      c->trials, c->max_trials, c->precision * 100,
			      trials_steady_span(c->trials));
	if (time_trials(c, time_bare, bare, bare_stop) != 0)
		return -1;
	report_printf("  bare call:");
	for (unsigned k = 0; k < COST_CONVENTIONS; k++) {
		unit[k] = emit_row(c, conventions[k].bare, 0, &bare[k], bare_stop[k]);
		report_printf("%s %s %.2f ns (%.1f cycles)", k ? "," : "", conventions[k].abi,
			      unit[k], ns_to_cycles(unit[k]));
	}
	report_printf(": the unit of the last column\n");
	report_printf("  note: before each call the loop writes an 8-byte field and the copy "
		      "reloads it 16 bytes at a time; that store cannot be forwarded, so every copying "
		      "call (" COPYING_CALLS ") also waits for it: small-size deltas "
		      "are mostly this wait, not the convention (docs/METHOD.md)\n");
	report_table_begin(&cases_table, "cost: by value against by pointer", NULL);
	rc = measure_cases(c, unit);
	report_table_end();
	if (rc != 0)
		return -1;
	write_chart();
	return 0;
}

/* 1,000,000 calls a trial (the seed's 5,000,000 bought no better a best,
   at five times the time), best of as many trials as the shared stop
   rule needs (trials .. max_trials); cost.trials = N, set by the user, is a
   fixed count instead (the seed's 7). */
static const struct config_key cost_keys[] = {
	{ "reps", KIND_U64, SETTING(struct cost_settings, reps), 1, 1000000000000ull, 0, "100000",
	  "1000000", 0, 0, NULL },
	{ "trials", KIND_UINT, SETTING(struct cost_settings, trials), 0, 1000, 0, "0", "0", 0, 0, NULL },
};

/* Every case and the bare call, in every convention: trials midway
   between c->trials and c->max_trials (or cost.trials), each two loops of
   cost.reps calls, a call counted as a tenth of a load from memory. */
static void cost_cost(const struct config *c, struct probe_cost *cost)
{
	double trials = COST_SETTINGS(c)->trials ? COST_SETTINGS(c)->trials :
			(c->trials + (c->max_trials > c->trials ? c->max_trials : c->trials)) / 2.0;

	probe_cost_loads(cost, (COST_CASES + 1.0) * COST_CONVENTIONS * trials * 2 *
			 (double)COST_SETTINGS(c)->reps / 10, PROBE_COST_MEMORY);
}

PROBE_DEFINE(cost, 70) = {
	.config = { .name = "cost", .profiles = PROBE_IN_QUICK | PROBE_IN_FULL,
		    PROBE_KEYS(cost_keys, struct cost_settings, 0) },
	.run = probe_cost,
	.holds = 0,
	.rows_read = ROWS_UNREAD,
	.cost = cost_cost,
};
