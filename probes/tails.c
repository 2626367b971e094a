/* The tails probe: the distribution of single loads' latency at each
 * level's working set, not only its best trial. At half of each cache the
 * CPU claims and at memory (four times the largest), a random chase is
 * timed in many short batches of a few loads (batches.h), the counter's
 * own cost subtracted: p50, p90, p99, p99.9 and the maximum, the batches
 * an interrupt, NMI, SMI or preemption hit marked and left out, and a
 * mode that stands apart (on bare metal, DRAM refresh) given its share
 * and size. docs/METHOD.md section 15.
 */

#include "probes/batches.h"
#include "probes/chase.h"
#include "results/emit.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "core/probe.h"
#include "results/report_table.h"
#include "results/results.h"
#include "probes/sweep.h"
#include "probes/tails_chart.h"
#include "probes/tails_settings.h"
#include "core/timebase.h"
#include "lib/fmt.h"
#include "lib/machine.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_tails.config.name)

/* ---- Constants -------------------------------------------------------- */

/* The latency probe's seed: the same cycle as its at each size. */
#define CYCLE_SEED 0x243f6a8885a308d3ull

/* The most levels: L1 .. L4 and memory. */
#define LEVELS_MAX 5u

/* Memory's working set, past the largest cache claimed; without a claim,
   this size. */
#define MEMORY_FACTOR 4u
#define MEMORY_UNCLAIMED (256ull << 20)

/* The warm-up's batches, of BATCH_LOADS_MAX loads (at most tails.batches). */
#define WARM_BATCHES 1024u

static const struct table_column tail_columns[] = {
	{ "level", NULL, 6, 1, 0 },
	{ "working set", NULL, 11, 0, 0 },
	{ "loads", NULL, 5, 0, 0 },
	{ "p50 ns", NULL, 8, 0, 0 },
	{ "p90", NULL, 8, 0, 0 },
	{ "p99", NULL, 8, 0, 0 },
	{ "p99.9", NULL, 8, 0, 0 },
	{ "max", NULL, 8, 0, 0 },
	{ "mean", NULL, 8, 0, 0 },
	{ "over 2x p50", NULL, 16, 0, 0 },
	{ "marked", NULL, 6, 0, 0 },
};
static const struct table tail_table = TABLE_OF(tail_columns, "  ");

/* ---- Private Types ---------------------------------------------------- */

struct tail_level {
	char name[8];             /* "L1", "L2", "memory" */
	uint64_t bytes;           /* the working set */
};

/* ---- Private Data ----------------------------------------------------- */

static struct tail_level level[LEVELS_MAX];
static unsigned levels;

/* ---- Private Functions ------------------------------------------------ */

/* A multiple of the page the buffer is mapped with, at least one page. */
static uint64_t whole_pages(uint64_t bytes, unsigned page_shift)
{
	uint64_t page = 1ull << page_shift;

	return bytes < page ? page : bytes / page * page;
}

/* Memory's working set before tails.max_buffer caps it: MEMORY_FACTOR x
   the largest cache claimed, MEMORY_UNCLAIMED when none is. */
static uint64_t memory_wanted(const struct cache_claims *claims)
{
	uint64_t largest = sweep_largest_cache(claims);

	return largest ? largest * MEMORY_FACTOR : MEMORY_UNCLAIMED;
}

/* The levels from the claims: half of each data or unified cache level (a
   working set the level holds whatever its ways), and memory at
   MEMORY_FACTOR x the largest, within tails.max_buffer. */
static void levels_from_claims(const struct config *c)
{
	static struct cache_claims claims;
	uint64_t memory;

	plat_cache_claims(&claims);
	levels = 0;
	for (unsigned n = 1; n <= 4 && levels < LEVELS_MAX - 1; n++)
		for (unsigned i = 0; i < claims.ncaches; i++) {
			const struct cache_desc *d = &claims.cache[i];

			if (d->level != n || d->kind == CACHE_INSTRUCTION)
				continue;
			mp_snprintf(level[levels].name, sizeof level[levels].name, "L%u", n);
			level[levels++].bytes = d->size_bytes / 2;
			break;
		}
	memory = memory_wanted(&claims);
	if (memory > TAILS_SETTINGS(c)->max_buffer) {
		memory = TAILS_SETTINGS(c)->max_buffer;
		report_printf("tails: memory's working set is tails.max_buffer, below %u x the "
			      "largest cache claimed: it may read a cache\n", MEMORY_FACTOR);
	}
	/* Memory stays the largest working set (the card's tail is of it):
	   a cache level at or past it is left out. */
	while (levels && level[levels - 1].bytes >= memory) {
		report_printf("tails: %s (half of it %llu bytes) is not below memory's working "
			      "set: left out\n", level[levels - 1].name,
			      (unsigned long long)level[levels - 1].bytes);
		levels--;
	}
	mp_snprintf(level[levels].name, sizeof level[levels].name, "memory");
	level[levels++].bytes = memory;
}

/* One stretch of batches in a timed section; 0, or -1 when it faulted
   (reported). *moved: whether an NMI or SMI count moved meanwhile;
   *preempted: the thread's preemptions meanwhile (0 where not counted). */
static int timed_stretch(struct batch_run *r, const char *what, int *moved,
			 uint64_t *preempted)
{
	struct plat_disturbances before, after;
	struct plat_fault fault;

	plat_disturbances(&before);
	if (plat_timed(batch_run_stretch, r, &fault) != 0) {
		report_printf("%s: FAULT: %s\n", what, fault.text);
		return -1;
	}
	plat_disturbances(&after);
	*moved = after.nmi != before.nmi || after.smi != before.smi;
	*preempted = after.preemptions_counted ? after.preemptions - before.preemptions : 0;
	return 0;
}

/* One statistic of a level as a row. */
static void emit_statistic(const struct plat_buffer *buf, uint64_t bytes, const char *variant,
			   double ns)
{
	struct result_row row = { 0 };

	row.probe = PROBE_NAME;
	row.variant = variant;
	row.page_shift = buf->page_shift;
	row.working_set_bytes = bytes;
	row.ns = ns;
	row.cycles = ns_to_cycles(ns);
	row.trials = 1;
	row.stopped_by = "count";
	row.trial_form = "batches";
	row.pages_verified = buf->verified;
	emit_result_row(&row);
}

/* A level's figures: its rows, its line of the table, its histogram. */
static void report_level(const struct tail_level *l, const struct plat_buffer *buf,
			 const char *page_name, const struct batch_run *r,
			 const struct batch_summary *s)
{
	char size_text[24], name[48], slow[32] = "none";

	emit_statistic(buf, l->bytes, "p50", s->p50_ns);
	emit_statistic(buf, l->bytes, "p90", s->p90_ns);
	emit_statistic(buf, l->bytes, "p99", s->p99_ns);
	emit_statistic(buf, l->bytes, "p99.9", s->p999_ns);
	emit_statistic(buf, l->bytes, "max", s->max_ns);
	emit_statistic(buf, l->bytes, "mean", s->mean_ns);
	mp_format_bytes(size_text, sizeof size_text, l->bytes);
	if (s->slow_share > 0)
		mp_snprintf(slow, sizeof slow, "%.2f%% at %.0f", s->slow_share * 100, s->slow_ns);
	report_table_cell("%s", l->name);
	report_table_cell("%s", size_text);
	report_table_cell("%u", s->loads);
	report_table_cell("%.2f", s->p50_ns);
	report_table_cell("%.2f", s->p90_ns);
	report_table_cell("%.2f", s->p99_ns);
	report_table_cell("%.2f", s->p999_ns);
	report_table_cell("%.1f", s->max_ns);
	report_table_cell("%.2f", s->mean_ns);
	report_table_cell("%s", slow);
	report_table_cell("%llu", (unsigned long long)s->marked);
	report_table_row(0);
	mp_snprintf(name, sizeof name, "%s, %s", l->name, page_name);
	tails_chart_add(name, r->ticks, s->batches - s->marked, r->counter_ticks,
			batch_quantile(r->ticks, s->batches - s->marked, 0.5));
}

/* One level at one page size: 0 measured, 1 skipped (said), -1 failed. */
static int measure_level(const struct config *c, const struct tail_level *l, unsigned shift,
			 const char *page_name, uint32_t *ticks)
{
	struct plat_buffer buf;
	struct batch_run r = { 0 };
	struct batch_summary s;
	struct tail_level at;
	uint64_t bytes = whole_pages(l->bytes, shift);
	char what[96];
	int moved_warm, moved;
	uint64_t preempted;
	double ns_per_tick = ticks_to_ns(1000000) / 1e6;

	mp_snprintf(what, sizeof what, "tails, %s, %s", page_name, l->name);
	if (bytes > page_buffer_max(PROBE_NAME, shift)) {
		report_printf("%s: no buffer of that size fits now: skipped\n", what);
		return 1;
	}
	if (page_buffer_get(PROBE_NAME, &buf, bytes, shift) != 0)
		return -1;
	chase_build(buf.base, bytes / CHASE_SLOT, CHASE_SLOT, CYCLE_SEED);
	/* The first stretch warms the level (caches, TLB) and is dropped; its
	   mean sizes the batches of the second. */
	r = (struct batch_run){ buf.base, WARM_BATCHES, BATCH_LOADS_MAX, ticks, 0, 0 };
	if (timed_stretch(&r, what, &moved_warm, &preempted) != 0) {
		plat_buffer_put(&buf);
		return -1;
	}
	batch_summarize(ticks, r.batches, r.loads, r.counter_ticks, ns_per_tick, &s);
	r.loads = batch_loads_for(s.p50_ns);
	r.batches = TAILS_SETTINGS(c)->batches;
	if (timed_stretch(&r, what, &moved, &preempted) != 0) {
		plat_buffer_put(&buf);
		return -1;
	}
	batch_summarize(ticks, r.batches, r.loads, r.counter_ticks, ns_per_tick, &s);
	at = *l;
	at.bytes = bytes;
	report_level(&at, &buf, page_name, &r, &s);
	if (moved)
		report_printf("%s: an NMI or SMI came during the batches: the marked batches "
			      "(over %.0f us) hold it\n", what, BATCH_MARK_NS / 1000);
	if (preempted)
		report_printf("%s: the thread was preempted %llu times during the batches: the "
			      "marked batches (%llu) hold those that stopped a batch\n", what,
			      (unsigned long long)preempted, (unsigned long long)s.marked);
	plat_buffer_put(&buf);
	return 0;
}

/* Every level at one page size. */
static int sweep_page_size(const struct config *c, unsigned shift)
{
	uint64_t room = (uint64_t)TAILS_SETTINGS(c)->batches * sizeof(uint32_t);
	uint32_t *ticks = plat_alloc(room);
	char page_name[48];
	int status = 0;

	if (!ticks) {
		report_printf("tails: no room for the batches' times\n");
		return -1;
	}
	page_size_name(page_name, sizeof page_name, shift);
	report_table_begin(&tail_table, page_name, NULL);
	for (unsigned i = 0; i < levels && status >= 0; i++) {
		int rc = measure_level(c, &level[i], shift, page_name, ticks);
		status = rc < 0 ? -1 : status;
	}
	report_table_end();
	plat_free(ticks, room);
	return status;
}

/* ---- Public Functions ------------------------------------------------- */

int probe_tails(const struct config *c)
{
	int status;

	levels_from_claims(c);
	report_printf("tails: at each level's working set (half of each cache level claimed, "
		      "memory at %u x the largest within tails.max_buffer), one random cycle of "
		      "%u-byte slots timed in %u batches of dependent loads (a column says how many: "
		      "enough for %.0f ns, %u to %u) after a first stretch of %u batches of %u that "
		      "warms it and sizes them; each batch's time less the counter's own "
		      "(the median of 257 empty brackets, measured in the same timed section), "
		      "over its loads; batches over %.0f us are marked (an interrupt, NMI, SMI or "
		      "preemption: no few loads take that long) and left out of the figures; "
		      "'over 2x p50' is the share of batches past twice the median and their "
		      "median, a mode apart where there is one\n",
		      MEMORY_FACTOR, CHASE_SLOT, TAILS_SETTINGS(c)->batches, BATCH_MIN_NS,
		      BATCH_LOADS, BATCH_LOADS_MAX, WARM_BATCHES, BATCH_LOADS_MAX, BATCH_MARK_NS / 1000);
	report_printf("tails: %s\n", plat_timed_conditions());
	tails_chart_begin();
	status = page_sizes_each(PROBE_NAME, c, sweep_page_size);
	tails_chart_finish();
	return status;
}

/* One buffer at a time, memory's the largest. */
static unsigned tails_holds(const struct config *c, unsigned page_shift,
			    struct probe_hold out[PROBE_HOLDS_MAX])
{
	out[0] = (struct probe_hold){ TAILS_SETTINGS(c)->max_buffer, page_shift, 1 };
	return 1;
}

/* 16384 batches of 4 loads put 16 batches past p99.9 (quick); 131072, 131
   (full). Memory at most 256 MiB (quick) or 1 GiB (full): building a
   cycle of 2 GiB takes seconds a page size. */
static const struct config_key tails_keys[] = {
	{ "batches", KIND_UINT, SETTING(struct tails_settings, batches), WARM_BATCHES, 16777216, 0,
	  "16384", "131072", 0, 0, NULL },
	{ "max_buffer", KIND_SIZE, SETTING(struct tails_settings, max_buffer), 4096,
	  PROBE_BUFFER_MAX, 4096, "256MiB", "1GiB", 0, 0, NULL },
};

/* Per page size the platform can give: memory's buffer filled and its
   cycle built, its batches of BATCH_LOADS loads as loads, and each cache
   level's batches, sized to BATCH_MIN_NS, as time; the warm-up stretches
   counted with them. */
static void tails_cost(const struct config *c, struct probe_cost *cost)
{
	static struct cache_claims claims;
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	double batches = (double)TAILS_SETTINGS(c)->batches + WARM_BATCHES;
	uint64_t memory;
	unsigned caches = 0;

	plat_cache_claims(&claims);
	memory = memory_wanted(&claims);
	if (memory > TAILS_SETTINGS(c)->max_buffer)
		memory = TAILS_SETTINGS(c)->max_buffer;
	for (unsigned i = 0; i < claims.ncaches; i++)
		caches += claims.cache[i].kind != CACHE_INSTRUCTION;
	for (unsigned p = 0; p < nshifts; p++) {
		cost->bytes += (double)memory;
		cost->loads += (double)(memory / CHASE_SLOT) + batches * BATCH_LOADS;
		cost->ms += caches * batches * BATCH_MIN_NS / 1e6;
	}
}

PROBE_DEFINE(tails, 25) = {
	.config = { .name = "tails", .profiles = PROBE_IN_FULL,
		    PROBE_KEYS(tails_keys, struct tails_settings, 0) },
	.run = probe_tails,
	.holds = tails_holds,
	.rows_read = ROWS_TAILS,
	.cost = tails_cost,
};
