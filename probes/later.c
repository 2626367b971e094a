/* later: the Aces Hardware latency meter (seeds/later.inc, docs/METHOD.md).
 *
 * Each access is a dependent load from a table randomised within blocks and
 * walked block by block, followed by a chain of dependent divisions long
 * enough that the memory system is idle again before the next access
 * starts: the figure is the latency of one access on a quiet machine, not a
 * throughput. A calibration run (tara) executes the same loop with every
 * load hitting one always-hot word; the measurement run (brutto) loads from
 * the table; netto = brutto - tara is what the table's accesses cost beyond
 * an L1 hit, per access.
 */

#include "probes/later.h"
#include "probes/chase.h"
#include "results/emit.h"
#include "lib/fmt.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "results/progress.h"
#include "core/probe.h"
#include "results/report_table.h"
#include "results/results.h"
#include "core/timebase.h"
#include "core/trials.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_later.config.name)

/* ---- Constants -------------------------------------------------------- */


/* Fixed seeds: the tables, and so the figures, follow from the source. */
#define SEED_RANDOM_TABLE 0x5851f42d4c957f2dull
#define SEED_LINEAR_TABLE 0x14057b7ef767814full


/* The delay's divisor: dividing by 1 leaves the index as it is. */
#define DIVISOR 1u

/* Timed runs of the linear walk and of the division chain, of which the
   best sets the delay factor. */
#define DELAY_FACTOR_RUNS 3u

/* One page size's three figures: tara, brutto, netto. */
static const struct table_column run_columns[] = {
	{ "run", NULL, 7, 1, 0 },
	{ "ns", NULL, 9, 0, 0 },
	{ "cycles", NULL, 9, 0, 0 },
	{ "runs", NULL, 4, 0, 2 },
	{ "spread", NULL, 7, 0, 2 },
	{ "stopped by", NULL, 10, 1, 2 },
};
static const struct table run_table = TABLE_OF(run_columns, "    ");

/* ---- Private Types ---------------------------------------------------- */

typedef uint32_t (*walk_fn)(const uint32_t *table, uint32_t curr,
			    uint64_t steps, uint32_t div);

struct later_run {
	walk_fn walk;
	const uint32_t *table;
	uint32_t curr;
	uint32_t div;
	uint64_t steps;
	uint64_t ticks;
};

struct delay_class {
	unsigned pairs;
	walk_fn walk;
};

/* ---- Private Data ----------------------------------------------------- */

/* The calibrator's table: one word holding 0, so `curr = table[curr]`
   loads the same word every time. It stays in L1, and the calibration run
   executes the very instructions of the measurement run. */
static uint32_t hot_word[1];

/* ---- Private Functions ------------------------------------------------ */

/* Two divisions by DIVISOR, which the walks receive as a noipa parameter,
   so the compiler cannot fold the divisions away (the seed hid the 1 in a
   walk result instead): each needs the one before it and the next load
   needs both, so they delay the next access without overlapping it.
   The dividend is the index with bit 31 set: a divider's latency grows
   with the dividend's size, and the calibration walk's index is always 0
   while the measurement's is not, so dividing the bare index would make
   tara's divisions cheaper than brutto's and bias netto upward. */
#define DIVIDEND_TOP 0x80000000u
#define DIVIDE_PAIR(curr, div) do {                                          \
	uint32_t dividend_ = (curr) | DIVIDEND_TOP;                           \
	dividend_ /= (div);                                                   \
	dividend_ /= (div);                                                   \
	(curr) = dividend_ & ~DIVIDEND_TOP;                                   \
} while (0)

/* The measuring loop of one delay class. always_inline so that each class
   below is its own copy with `pairs` a constant, fully unrolled: no inner
   loop branch sits beside the chain to be mispredicted. */
static inline __attribute__((always_inline)) uint32_t
walk_delayed(const uint32_t *table, uint32_t curr, uint64_t steps, uint32_t div,
	     const unsigned pairs)
{
	for (uint64_t i = 0; i < steps; i++) {
		curr = table[curr];
#pragma GCC unroll 64
		for (unsigned k = 0; k < pairs; k++)
			DIVIDE_PAIR(curr, div);
	}
	return curr;
}

/* noipa: the compiler may neither learn that div is 1 nor that the table
   walk has no side effects, which would let it drop or merge the work. */
#define DELAY_CLASS(pairs)                                                   \
	static __attribute__((noinline, noipa)) uint32_t                     \
	walk_delay_##pairs(const uint32_t *table, uint32_t curr,             \
			   uint64_t steps, uint32_t div)                     \
	{                                                                    \
		return walk_delayed(table, curr, steps, div, pairs);         \
	}

DELAY_CLASS(1)
DELAY_CLASS(2)
DELAY_CLASS(4)
DELAY_CLASS(8)
DELAY_CLASS(16)
DELAY_CLASS(64)

static const struct delay_class delay_classes[] = {
	{ 1, walk_delay_1 }, { 2, walk_delay_2 }, { 4, walk_delay_4 },
	{ 8, walk_delay_8 }, { 16, walk_delay_16 }, { 64, walk_delay_64 },
};

#define DELAY_CLASSES (sizeof delay_classes / sizeof delay_classes[0])

static __attribute__((noinline, noipa)) uint32_t
walk_plain(const uint32_t *table, uint32_t curr, uint64_t steps, uint32_t div)
{
	(void)div;   /* one signature for every walk; this one has no delay */
	for (uint64_t i = 0; i < steps; i++)
		curr = table[curr];
	return curr;
}

static __attribute__((noinline, noipa)) uint32_t
divide_only(const uint32_t *table, uint32_t curr, uint64_t steps, uint32_t div)
{
	(void)table; /* one signature for every walk; this one reads no table */
	for (uint64_t i = 0; i < steps; i++)
		DIVIDE_PAIR(curr, div);
	return curr;
}

static void time_run(void *arg)
{
	struct later_run *r = arg;
	uint64_t start = plat_ticks();

	r->curr = r->walk(r->table, r->curr, r->steps, r->div);
	r->ticks = plat_ticks() - start;
}

/* 0, or -1 with the fault reported. */
static int run_timed(struct later_run *r, const char *what)
{
	struct plat_fault fault;

	if (plat_timed(time_run, r, &fault) == 0)
		return 0;
	report_printf("%s: the %s faulted: %s\n", PROBE_NAME, what, fault.text);
	return -1;
}

/* Runs `walk` over `table` until the stop rule every probe shares
   (trials_stop) ends the runs: at least later.min_repeat, then as soon as
   the best three agree within later.precision (settled) or the last runs
   moved the best by less than that (steady), at most later.max_repeat.
   min_repeat = max_repeat is a fixed count, which the row says ("count").
   The position carries from run to run, so each run continues the cycle
   instead of repeating its start. *stopped_by: the limit that ended it. */
static int repeat_runs(const struct config *c, walk_fn walk, const uint32_t *table,
		       const char *what, struct trials *t, const char **stopped_by)
{
	struct later_run run = {
		.walk = walk, .table = table, .curr = 0, .div = DIVISOR,
		.steps = LATER_SETTINGS(c)->steps,
	};
	struct config rule = *c;
	struct plat_disturbances before, after;
	struct progress progress;
	uint64_t spent = 0;

	rule.trials = LATER_SETTINGS(c)->min_repeat;
	rule.max_trials = LATER_SETTINGS(c)->max_repeat;
	rule.precision = LATER_SETTINGS(c)->precision;
	trials_init(t);
	progress_start(&progress);
	for (;;) {
		progress_tick(&progress, what, t->count, LATER_SETTINGS(c)->max_repeat);
		plat_disturbances(&before);
		if (run_timed(&run, what) != 0)
			return -1;
		plat_disturbances(&after);
		spent += run.ticks;
		if (!trials_add_checked(t, (double)run.ticks, &before, &after))
			continue;
		/* No time budget of its own: max_repeat bounds the runs. */
		*stopped_by = trials_stop(t, &rule, spent, UINT64_MAX);
		if (*stopped_by)
			break;
	}
	/* A fixed count ends at the count whatever else holds then. */
	if (LATER_SETTINGS(c)->min_repeat == LATER_SETTINGS(c)->max_repeat &&
	    mp_strcmp(*stopped_by, "signal"))
		*stopped_by = "count";
	return 0;
}

static double ns_per_access(double ticks, uint64_t steps)
{
	return ticks_to_ns((uint64_t)ticks) / (double)steps;
}

static void emit_run(const char *variant, unsigned shift, uint64_t table_bytes,
		     double ns, unsigned trials, double spread, const char *verified,
		     const char *stopped_by)
{
	struct result_row f = {
		.probe = PROBE_NAME, .variant = variant, .page_shift = shift,
		.working_set_bytes = table_bytes, .ns = ns, .trials = trials,
		.spread = spread, .pages_verified = verified, .stopped_by = stopped_by,
	};
	double cycles = emit_result_row(&f);

	report_table_cell("%s", variant);
	report_table_cell("%.2f", ns);
	report_table_cell("%.1f", cycles);
	report_table_cell("%u", trials);
	report_table_cell("%.1f%%", 100.0 * spread);
	report_table_cell("%s", stopped_by);
	report_table_row(0);
}

/* The best of a few timed runs of `walk`, in ticks; 0 means a fault
   (reported). One run, as the seed takes, lets a single interruption skew
   the delay factor. */
static uint64_t best_ticks(struct later_run *r, const char *what)
{
	uint64_t best = UINT64_MAX;

	for (unsigned i = 0; i < DELAY_FACTOR_RUNS; i++) {
		r->curr = 0;
		if (run_timed(r, what) != 0)
			return 0;
		if (r->ticks < best)
			best = r->ticks;
	}
	return best ? best : 1;
}

/* The seed's delay factor: how many division pairs last as long as one
   step of the linear walk, plus one. Returns the class, NULL reported. */
static const struct delay_class *choose_delay(const struct config *c,
					      const uint32_t *lintab)
{
	struct later_run linear = {
		.walk = walk_plain, .table = lintab, .div = DIVISOR,
		.steps = LATER_SETTINGS(c)->steps,
	};
	struct later_run divisions = linear;
	uint64_t linear_ticks, division_ticks, factor;
	unsigned pairs;

	divisions.walk = divide_only;
	linear_ticks = best_ticks(&linear, "linear walk");
	division_ticks = linear_ticks ? best_ticks(&divisions, "division chain") : 0;
	if (division_ticks == 0)
		return NULL;
	factor = linear_ticks / division_ticks + 1;
	pairs = later_delay_pairs(factor);
	report_printf("    linear walk %.2f ns/step, division pair %.2f ns (best of "
		      "%u): delay factor %llu, %u division pair%s per access\n",
		      ns_per_access((double)linear_ticks, LATER_SETTINGS(c)->steps),
		      ns_per_access((double)division_ticks, LATER_SETTINGS(c)->steps),
		      DELAY_FACTOR_RUNS, (unsigned long long)factor, pairs,
		      pairs == 1 ? "" : "s");
	if (pairs == 0) {
		report_printf("%s: delay factor %llu is above 64, the largest delay "
			      "class: an access could start while the memory system "
			      "is still busy with the last, so nothing is "
			      "measured\n", PROBE_NAME, (unsigned long long)factor);
		return NULL;
	}
	for (unsigned i = 0; i < DELAY_CLASSES; i++)
		if (delay_classes[i].pairs == pairs)
			return &delay_classes[i];
	return NULL;
}

/* Builds both tables in the buffer (random first, linear after it) and
   walks the linear one once around, which evicts what building left in the
   caches. A whole lap ends where it began, at word 0; anywhere else means
   the table does not read back as built. 0, or -1 reported. */
static int build_tables(const struct config *c, uint32_t *memtab, uint32_t *lintab)
{
	const struct later_settings *s = LATER_SETTINGS(c);
	uint64_t per_block = s->block / s->stride;
	uint32_t *order = plat_alloc(per_block * sizeof(uint32_t));
	struct later_run lap = {
		.walk = walk_plain, .table = lintab, .curr = 0, .div = DIVISOR,
		.steps = s->table / s->stride,
	};

	if (!order) {
		report_printf("%s: no scratch memory for a block's order (%llu "
			      "entries)\n", PROBE_NAME, (unsigned long long)per_block);
		return -1;
	}
	later_buildtab(memtab, s->table, s->block, s->stride, order, SEED_RANDOM_TABLE);
	later_buildtab(lintab, s->table, s->stride, s->stride, order, SEED_LINEAR_TABLE);
	plat_free(order, per_block * sizeof(uint32_t));
	if (run_timed(&lap, "warm-up lap") != 0)
		return -1;
	if (lap.curr != 0) {
		report_printf("%s: a lap of the linear table ended at word %u, not "
			      "0: the table does not read back as built\n",
			      PROBE_NAME, (unsigned)lap.curr);
		return -1;
	}
	return 0;
}

static int measure_tables(const struct config *c, unsigned shift);

/* 1 skipped (page size unavailable), 0 measured, -1 failed (reported).
   When the two tables do not fit, the table shrinks to the largest whole
   number of blocks that does, and the report says so: a smaller table is
   still a measurement, a refusal is none. */
static int measure_page_size(const struct config *c, unsigned shift)
{
	struct config fitted = *c;
	char page_name[48], need[32], have[32], got[32];
	uint64_t max = page_buffer_max(PROBE_NAME, shift);

	if (max == 0)
		return 1;
	if (max >= 2 * LATER_SETTINGS(c)->table)
		return measure_tables(c, shift);
	page_size_name(page_name, sizeof page_name, shift);
	mp_format_bytes(need, sizeof need, 2 * LATER_SETTINGS(c)->table);
	mp_format_bytes(have, sizeof have, max);
	LATER_SETTINGS(&fitted)->table = max / 2 / LATER_SETTINGS(c)->block * LATER_SETTINGS(c)->block;
	if (LATER_SETTINGS(&fitted)->table == 0) {
		report_printf("%s: %s: the two tables need %s, only %s is available, "
			      "too little for two tables of one block each: not measured\n", PROBE_NAME, page_name,
			      need, have);
		return -1;
	}
	mp_format_bytes(got, sizeof got, LATER_SETTINGS(&fitted)->table);
	report_printf("%s: %s: the two tables need %s, only %s is available: "
		      "measuring a %s table instead\n", PROBE_NAME, page_name, need, have, got);
	return measure_tables(&fitted, shift);
}

static int measure_tables(const struct config *c, unsigned shift)
{
	const struct delay_class *delay;
	struct plat_buffer buf;
	struct trials tara, brutto;
	const char *tara_stop = "-", *brutto_stop = "-";
	char page_name[48], caption[64];
	uint64_t bytes = 2 * LATER_SETTINGS(c)->table;
	double tara_ns, brutto_ns, netto_ticks;
	uint32_t *memtab, *lintab;
	int rc = -1;

	page_size_name(page_name, sizeof page_name, shift);
	if (page_buffer_get(PROBE_NAME, &buf, bytes, shift) != 0)
		return -1;
	report_printf("  %s (%s)\n", page_name, buf.verified);
	memtab = buf.base;
	lintab = memtab + LATER_SETTINGS(c)->table / sizeof(uint32_t);

	delay = build_tables(c, memtab, lintab) == 0 ? choose_delay(c, lintab) : NULL;
	if (delay &&
	    repeat_runs(c, delay->walk, hot_word, "calibration run", &tara, &tara_stop) == 0 &&
	    repeat_runs(c, delay->walk, memtab, "measurement run", &brutto,
			&brutto_stop) == 0) {
		tara_ns = ns_per_access(trials_best(&tara), LATER_SETTINGS(c)->steps);
		brutto_ns = ns_per_access(trials_best(&brutto), LATER_SETTINGS(c)->steps);
		netto_ticks = trials_best(&brutto) - trials_best(&tara);
		mp_snprintf(caption, sizeof caption, "later, %s", page_name);
		report_table_begin(&run_table, caption, NULL);
		emit_run("tara", shift, LATER_SETTINGS(c)->table, tara_ns, tara.count,
			 trials_spread(&tara), buf.verified, tara_stop);
		emit_run("brutto", shift, LATER_SETTINGS(c)->table, brutto_ns, brutto.count,
			 trials_spread(&brutto), buf.verified, brutto_stop);
		/* netto's spread: the brutto runs' third-best-minus-best as a
		   fraction of netto, i.e. how far the runs that decide it would
		   move it (trials_spread's measure, against netto). */
		emit_run("netto", shift, LATER_SETTINGS(c)->table, brutto_ns - tara_ns,
			 brutto.count, netto_ticks > 0 ?
			 (trials_third(&brutto) - trials_best(&brutto)) / netto_ticks : 0,
			 buf.verified, brutto_stop);
		report_table_end();
		rc = 0;
	}
	plat_buffer_put(&buf);
	return rc;
}

/* -1 with why[] = "<key>: <a> <rule> <b>", sizes in readable units. */
static int refuse(char *why, size_t len, const char *key, uint64_t a,
		  const char *rule, uint64_t b)
{
	char sa[32], sb[32];

	mp_format_bytes(sa, sizeof sa, a);
	mp_format_bytes(sb, sizeof sb, b);
	mp_snprintf(why, len, "%s: %s %s %s", key, sa, rule, sb);
	return -1;
}

/* ---- Public Functions ------------------------------------------------- */

int later_check_params(const struct config *c, char *why, size_t why_len)
{
	uint64_t stride = LATER_SETTINGS(c)->stride, block = LATER_SETTINGS(c)->block;
	uint64_t table = LATER_SETTINGS(c)->table;

	/* A slot is one 4-byte word, and slots must not overlap. */
	if (stride < 4 || stride % 4 != 0)
		return refuse(why, why_len, "later.stride", stride,
			      "is not a multiple of", 4);
	if (block < stride || block % stride != 0)
		return refuse(why, why_len, "later.block", block,
			      "is not a multiple of later.stride,", stride);
	if (table < block || table % block != 0)
		return refuse(why, why_len, "later.table", table,
			      "is not a multiple of later.block,", block);
	if (table > LATER_TABLE_BYTES_MAX)
		return refuse(why, why_len, "later.table", table,
			      "is above the reach of 32-bit word indices,",
			      LATER_TABLE_BYTES_MAX);
	if (LATER_SETTINGS(c)->steps == 0) {
		mp_snprintf(why, why_len, "later.steps: must be at least 1");
		return -1;
	}
	if (!(LATER_SETTINGS(c)->precision > 0)) {
		mp_snprintf(why, why_len, "later.precision: must be above 0");
		return -1;
	}
	if (LATER_SETTINGS(c)->min_repeat == 0 ||
	    LATER_SETTINGS(c)->max_repeat < LATER_SETTINGS(c)->min_repeat) {
		mp_snprintf(why, why_len, "later.min_repeat (%u) must be at least 1 "
			    "and at most later.max_repeat (%u)",
			    LATER_SETTINGS(c)->min_repeat, LATER_SETTINGS(c)->max_repeat);
		return -1;
	}
	return 0;
}

void later_buildtab(uint32_t *table, uint64_t table_bytes, uint64_t block_bytes,
		    uint64_t stride, uint32_t *order, uint64_t seed)
{
	uint64_t per_block = block_bytes / stride, blocks = table_bytes / block_bytes;
	uint64_t words_per_slot = stride / sizeof(uint32_t);
	uint64_t words_per_block = block_bytes / sizeof(uint32_t);
	uint32_t first = 0, *tail = NULL;
	struct chase_rng rng;

	chase_rng_seed(&rng, seed);
	for (uint64_t b = 0; b < blocks; b++) {
		uint32_t block_word = (uint32_t)(b * words_per_block);

		/* Fisher-Yates: a uniformly random order of the block's slots. */
		for (uint64_t i = 0; i < per_block; i++)
			order[i] = (uint32_t)i;
		for (uint64_t i = per_block; i-- > 1;) {
			uint64_t j = chase_rng_below(&rng, i + 1);
			uint32_t t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		for (uint64_t i = 0; i < per_block; i++) {
			uint32_t word = block_word + (uint32_t)(order[i] * words_per_slot);
			if (tail)
				*tail = word;
			else
				first = word;
			tail = &table[word];
		}
	}
	*tail = first;
}

unsigned later_delay_pairs(uint64_t factor)
{
	for (unsigned i = 0; i < DELAY_CLASSES; i++)
		if (factor <= delay_classes[i].pairs)
			return delay_classes[i].pairs;
	return 0;
}

int probe_later(const struct config *c)
{
	char why[200], table[32], block[32];

	if (later_check_params(c, why, sizeof why) != 0) {
		report_printf("%s: %s\n", PROBE_NAME, why);
		return -1;
	}
	mp_format_bytes(table, sizeof table, LATER_SETTINGS(c)->table);
	mp_format_bytes(block, sizeof block, LATER_SETTINGS(c)->block);
	report_printf("%s: table %s randomised in blocks of %s, stride %llu B, %llu "
		      "accesses per run, %u..%u runs until the best three agree "
		      "within %.2f%% or the last runs move the best by less (the shared "
		      "stop rule; min_repeat = max_repeat: a fixed count); netto is per "
		      "access, beyond an L1 hit\n",
		      PROBE_NAME, table, block, (unsigned long long)LATER_SETTINGS(c)->stride,
		      (unsigned long long)LATER_SETTINGS(c)->steps, LATER_SETTINGS(c)->min_repeat,
		      LATER_SETTINGS(c)->max_repeat, 100.0 * LATER_SETTINGS(c)->precision);
	return page_sizes_each(PROBE_NAME, c, measure_page_size);
}

/* One buffer: the two tables (the walked one and the linear one). */
static unsigned later_holds(const struct config *c, unsigned page_shift,
			    struct probe_hold out[PROBE_HOLDS_MAX])
{
	out[0] = (struct probe_hold){ 2 * LATER_SETTINGS(c)->table, page_shift, 1 };
	return 1;
}

/* A table past the last-level cache, walked a line at a time, 3..100 runs
   on the shared stop rule (the meter's own comments give 10..100; its
   figure is known once the best three agree or more runs stop moving it,
   so ten are not needed first). Full: 256 MiB, several times any one
   core's L3 (32 MiB per Zen 3 CCD, 96 MiB with 3D V-Cache), since a cyclic
   walk only twice a cache's size still hits a cache whose replacement is
   not strict LRU. Blocks of 128 KiB: 32 pages of 4 KiB, inside the L1
   DTLB's reach, so the 4 KiB and 2 MiB figures agree; blocks of 4-16 KiB
   read under half the memory latency on Zen 3 (docs/METHOD.md). */
static const struct config_key later_keys[] = {
	{ "table", KIND_SIZE, SETTING(struct later_settings, table), 64, LATER_TABLE_BYTES_MAX, 64,
	  "8MiB", "256MiB", 0, 0, NULL },
	{ "block", KIND_SIZE, SETTING(struct later_settings, block), 64, LATER_TABLE_BYTES_MAX, 64,
	  "128KiB", "128KiB", 0, 0, NULL },
	{ "stride", KIND_SIZE, SETTING(struct later_settings, stride), 4, LATER_TABLE_BYTES_MAX, 4,
	  "64", "64", 0, 0, NULL },
	{ "steps", KIND_U64, SETTING(struct later_settings, steps), 1, 1000000000000ull, 0,
	  "100000", "1000000", 0, 0, NULL },
	{ "precision", KIND_FRACTION, SETTING(struct later_settings, precision), 0, 0, 0, "0.05",
	  "0.01", 0, 0, NULL },
	{ "min_repeat", KIND_UINT, SETTING(struct later_settings, min_repeat), 1, 10000, 0, "3",
	  "3", 0, 0, NULL },
	{ "max_repeat", KIND_UINT, SETTING(struct later_settings, max_repeat), 1, 10000, 0, "10",
	  "100", 0, 0, NULL },
};

/* The tables are whole blocks of whole strides, and the repeats a range. */
static const char *later_check(const void *settings, const char **a, const char **b)
{
	const struct later_settings *s = settings;

	*a = "block";
	*b = "table";
	if (s->block > s->table)
		return "is larger than later.table";
	*a = "table";
	*b = "block";
	if (s->table % s->block)
		return "is not a multiple of later.block";
	*a = "block";
	*b = "stride";
	if (s->block % s->stride)
		return "is not a multiple of later.stride";
	*a = "min_repeat";
	*b = "max_repeat";
	return s->min_repeat > s->max_repeat ? "is larger than later.max_repeat" : 0;
}

/* Per page size the platform can give: the two tables written; the delay's calibration
   (DELAY_FACTOR_RUNS runs each of the linear walk and the divisions), then
   tara's and brutto's runs, midway between later.min_repeat and
   later.max_repeat each; a step (an access inside a block, then divisions
   as long as a linear step) counted as a quarter of a load from memory. */
static void later_cost(const struct config *c, struct probe_cost *cost)
{
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	const struct later_settings *s = LATER_SETTINGS(c);
	double repeats = (s->min_repeat + (s->max_repeat > s->min_repeat ? s->max_repeat
									: s->min_repeat)) / 2.0;

	cost->bytes += nshifts * 2.0 * (double)s->table;
	probe_cost_loads(cost, nshifts * (2.0 * DELAY_FACTOR_RUNS + 2.0 * repeats) *
			 (double)s->steps / 4, PROBE_COST_MEMORY);
}

PROBE_DEFINE(later, 50) = {
	.config = { .name = "later", .profiles = PROBE_IN_QUICK | PROBE_IN_FULL,
		    PROBE_KEYS(later_keys, struct later_settings, later_check) },
	.run = probe_later,
	.holds = later_holds,
	.rows_read = ROWS_UNREAD,
	.cost = later_cost,
};
