/* The c2c probe: one cache line bounced between two CPUs, for every pair of
 * the configured CPUs. docs/METHOD.md explains the method.
 *
 * The ping CPU writes an odd number into the line and waits for the pong
 * CPU to answer with the next even one: each round trip moves the line's
 * ownership to the other core and back, so half a round trip is the time
 * one write takes to become visible to the other core's read. Each value
 * is new, so no read can be served by a stale copy.
 */

#include "probes/c2c_chart.h"
#include "results/emit.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "core/probe.h"
#include "probes/c2c_settings.h"
#include "results/report_table.h"
#include "results/results.h"
#include "core/timebase.h"
#include "results/trial_row.h"
#include "core/trials.h"
#include "lib/fmt.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_c2c.config.name)

/* ---- Constants -------------------------------------------------------- */

_Static_assert(CONFIG_CPUS_MAX == PLAT_CPUS_MAX, "c2c.cpus covers every logical CPU");

/* Untimed round trips before the trials: the line is in both caches' paths
   and the first trial's size comes from their time. */
#define WARM_ROUND_TRIPS 256u
/* Each trial holds at least this many round trips, so the two timestamps'
   own cost stays small beside them. */
#define TRIAL_ROUND_TRIPS_MIN 64u
/* Waiting loops look at the clock once per this many spins: a clock read
   per spin would slow the very reaction being timed. */
#define SPINS_PER_CLOCK_CHECK 4096u
/* The value that sends pong home. Even, so it never reads as a ping. */
#define STOP_VALUE 0xfffffffffffffffeull
/* The line the pair shares: one cache line, alone in its page. */
#define LINE_BYTES 64u

/* A row per pair of CPUs. */
static const struct table_column pair_columns[] = {
	{ "cpu", NULL, 3, 0, 0 },
	{ "peer", NULL, 4, 0, 0 },
	TRIAL_COLUMNS("ns 1-way", 10, 9),
	{ "rt/trial", NULL, 8, 0, 0 },
};
static const struct table pair_table = TABLE_OF(pair_columns, "  ");

/* ---- Private Types ---------------------------------------------------- */

/* One pair's shared state: the line lives in its own page, this does not. */
struct pingpong {
	volatile uint64_t *line;
	const struct config *c;
	uint64_t give_up_ticks;      /* plat_ticks() past which nobody waits */
	/* Out, from ping. */
	struct trials trials;        /* ns one way */
	uint64_t round_trips;        /* per trial */
	const char *stopped_by;
	int partner_silent;          /* pong stopped answering: not measured */
};

/* ---- Private Functions ------------------------------------------------ */

/* n round trips from *value (odd) on: 0, or -1 when the partner did not
   answer before give_up_ticks. */
static int bounce(struct pingpong *pp, uint64_t n, uint64_t *value)
{
	volatile uint64_t *line = pp->line;
	uint64_t v = *value;

	for (uint64_t i = 0; i < n; i++, v += 2) {
		unsigned spins = 0;

		*line = v;
		while (*line != v + 1)
			if (++spins % SPINS_PER_CLOCK_CHECK == 0 && plat_ticks() > pp->give_up_ticks)
				return -1;
	}
	*value = v;
	return 0;
}

/* The ping role: warm-up, then trials under the stop rule, then STOP. */
static void ping(void *arg)
{
	struct pingpong *pp = arg;
	const struct config *c = pp->c;
	uint64_t v = 1, t0, t1, rt_ticks, target = ms_to_ticks(c->step_ms), spent = 0;
	struct plat_disturbances before, after;

	trials_init(&pp->trials);
	pp->stopped_by = 0;
	t0 = plat_ticks();
	if (bounce(pp, WARM_ROUND_TRIPS, &v) != 0)
		goto silent;
	t1 = plat_ticks();
	rt_ticks = (t1 - t0) / WARM_ROUND_TRIPS;
	pp->round_trips = rt_ticks ? target / rt_ticks : target;
	if (pp->round_trips < TRIAL_ROUND_TRIPS_MIN)
		pp->round_trips = TRIAL_ROUND_TRIPS_MIN;
	do {
		plat_disturbances(&before);
		t0 = plat_ticks();
		if (bounce(pp, pp->round_trips, &v) != 0)
			goto silent;
		t1 = plat_ticks();
		plat_disturbances(&after);
		spent += t1 - t0;
		/* A disturbed trial is dropped: the loop measures again. */
		if (trials_add_checked(&pp->trials,
				       ticks_to_ns(t1 - t0) / (double)pp->round_trips / 2.0,
				       &before, &after))
			pp->stopped_by = trials_stop(&pp->trials, c, spent,
						     target * c->max_trials);
	} while (!pp->stopped_by);
	*pp->line = STOP_VALUE;
	return;
silent:
	pp->stopped_by = "-";
	pp->partner_silent = 1;
	*pp->line = STOP_VALUE;
}

/* The pong role: answer every odd value with the next, until STOP. */
static void pong(void *arg)
{
	struct pingpong *pp = arg;
	volatile uint64_t *line = pp->line;
	unsigned spins = 0;

	for (;;) {
		uint64_t v = *line;

		if (v == STOP_VALUE)
			return;
		if (v & 1) {
			*line = v + 1;
			continue;
		}
		if (++spins % SPINS_PER_CLOCK_CHECK == 0 && plat_ticks() > pp->give_up_ticks)
			return;
	}
}

/* Test-only (c2c.test_late): the role that comes back late, spinning until
   twice the deadline without touching the line, so its CPU misses the
   deadline and the run must report it and go on without it. */
static void late(void *arg)
{
	const struct pingpong *pp = arg;
	uint64_t until = pp->give_up_ticks + ms_to_ticks(pp->c->cpus_deadline_ms);

	while (plat_ticks() < until)
		;
}

/* The pair (a, b), a < b: ping on a, pong on b. Fills the matrix cell;
   0 measured, -1 failed (reported); *missed set when a CPU missed the
   deadline (the platform refuses it from then on). */
static int measure_pair(const struct config *c, struct plat_buffer *buf, unsigned a,
			unsigned b, struct c2c_matrix *m, int *missed)
{
	static struct pingpong pp;
	struct plat_role roles[2];
	struct result_row row = { 0 };
	char why[160];
	int rc;

	pp = (struct pingpong){ .line = buf->base, .c = c };
	*pp.line = 0;
	pp.give_up_ticks = plat_ticks() + ms_to_ticks(c->cpus_deadline_ms);
	roles[0] = (struct plat_role){ a, ping, &pp, 0 };
	roles[1] = (struct plat_role){ b, C2C_SETTINGS(c)->test_late == b ? late : pong, &pp, 0 };
	rc = plat_cpus_run(roles, 2, (uint64_t)c->cpus_deadline_ms, why, sizeof why);
	if (rc < 0) {
		report_printf("  %3u %4u  not measured: %s\n", a, b, why);
		return -1;
	}
	for (unsigned i = 0; i < 2; i++)
		if (roles[i].missed) {
			*missed = 1;
			report_printf("  %3u %4u  CPU %u MISSED ITS DEADLINE of %.0f ms: the run goes "
				      "on without it\n", a, b, roles[i].cpu, c->cpus_deadline_ms);
		}
	if (rc != 0 || pp.partner_silent || pp.trials.count == 0) {
		if (rc == 0)
			report_printf("  %3u %4u  not measured: CPU %u stopped answering\n", a, b, b);
		return -1;
	}
	row.probe = PROBE_NAME;
	row.variant = "pingpong";
	row.page_shift = buf->page_shift;
	row.working_set_bytes = LINE_BYTES;
	trial_row_fill(&row, &pp.trials, pp.stopped_by, NULL);
	row.pages_verified = buf->verified;
	row.cpu = (struct optional_count){ 1, a };
	row.peer_cpu = (struct optional_count){ 1, b };
	emit_result_row(&row);
	c2c_matrix_set(m, a, b, row.ns);
	report_table_cell("%u", a);
	report_table_cell("%u", b);
	trial_row_cells(&row);
	report_table_cell("%llu", (unsigned long long)pp.round_trips);
	report_table_row(0);
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

int probe_c2c(const struct config *c)
{
	static struct c2c_matrix m;
	struct plat_buffer buf;
	unsigned count = plat_cpu_count(), pairs = 0, measured = 0;
	int status = 0, missed = 0;

	report_printf("c2c: one 64-byte line bounced between two CPUs (ping writes an odd "
		      "value, pong answers with the next); figure = half the mean round trip "
		      "of the best trial; trials of >= %.0f ms (at least %u round trips), stop "
		      "when the best three agree within %.1f%%, at most %u trials; deadline "
		      "%.0f ms per pair\n", c->step_ms, TRIAL_ROUND_TRIPS_MIN, c->precision * 100,
		      c->max_trials, c->cpus_deadline_ms);
	report_printf("c2c: %s\n", plat_cpus_conditions());
	if (c2c_matrix_init(&m, c, count)) {
		probe_failed_because("c2c.cpus names CPUs that do not exist here");
		return -1;
	}
	if (m.n < 2) {
		report_printf("c2c: skipped: %s among c2c.cpus; a pair needs two\n",
			      m.n ? "one CPU" : "no CPU");
		return 0;
	}
	if (page_buffer_get(PROBE_NAME, &buf, 4096, PAGE_SHIFT_4K) != 0) {
		c2c_matrix_finish(&m);
		return -1;
	}
	page_buffer_report(PROBE_NAME, "4 KiB pages", &buf);
	report_table_begin(&pair_table, "c2c: every pair of CPUs", NULL);
	for (unsigned i = 0; i < m.n; i++)
		for (unsigned j = i + 1; j < m.n; j++) {
			unsigned a = m.cpu[i], b = m.cpu[j];

			pairs++;
			if (measure_pair(c, &buf, a, b, &m, &missed) != 0)
				status = -1;
			else
				measured++;
		}
	report_table_end();
	/* A CPU that missed may still be spinning on the line. */
	if (missed)
		report_printf("c2c: the line's page is kept: a CPU that missed its deadline may "
			      "still read it\n");
	else
		plat_buffer_put(&buf);
	report_printf("c2c: %u of %u pairs measured\n", measured, pairs);
	c2c_matrix_finish(&m);
	return status;
}

/* One page of 4 KiB, whatever the pages asked: the line the pair
   bounces lies in it. */
static unsigned c2c_holds(const struct config *c, unsigned page_shift,
			  struct probe_hold out[PROBE_HOLDS_MAX])
{
	(void)c;
	(void)page_shift;
	out[0] = (struct probe_hold){ 4096, PAGE_SHIFT_4K, 1 };
	return 1;
}

/* Every pair of every CPU. */
static const struct config_key c2c_keys[] = {
	{ "cpus", KIND_CPUS, SETTING(struct c2c_settings, cpus), 0, 0, 0, "all", "all", 0, 0, NULL },
	{ "test_late", KIND_UINT, SETTING(struct c2c_settings, test_late), 0, CONFIG_CPUS_MAX - 1,
	  0, "0", "0", 0, 0, NULL },
};

/* Every pair of the CPUs of c2c.cpus that exist here: trials midway
   between c->trials and c->max_trials of c->step_ms each, and a
   millisecond to start the pair's roles. */
static void c2c_cost(const struct config *c, struct probe_cost *cost)
{
	unsigned count = plat_cpu_count(), n = 0;
	double trials = (c->trials + (c->max_trials > c->trials ? c->max_trials : c->trials)) / 2.0;

	for (unsigned cpu = 0; cpu < count && cpu < CONFIG_CPUS_MAX; cpu++)
		n += (unsigned)(C2C_SETTINGS(c)->cpus[cpu / 64] >> (cpu % 64)) & 1u;
	cost->ms += n * (n - (n > 0)) / 2.0 * (trials * c->step_ms + 1);
}

PROBE_DEFINE(c2c, 80) = {
	.config = { .name = "c2c", .profiles = PROBE_IN_FULL,
		    PROBE_KEYS(c2c_keys, struct c2c_settings, 0) },
	.run = probe_c2c,
	.holds = c2c_holds,
	.rows_read = ROWS_C2C,
	.cost = c2c_cost,
};
