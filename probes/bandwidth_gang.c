/* All-core bandwidth (see bandwidth_gang.h, docs/METHOD.md section 11).
 *
 * One plat_cpus_run_wide per variant and working set. Inside it CPU 0
 * leads a series of batches: for each it reads its clock, raises the batch
 * number (the workers' own start line, which they only see after that
 * read), streams its own part, waits until every worker has finished the
 * batch and reads its clock again. A batch's window therefore holds every
 * byte of it, whatever the other CPUs' clocks say: the figure can come out
 * low (a slow CPU, CPU 0's last look at the flags), never high.
 */

#include "probes/bandwidth_gang.h"
#include "lib/fmt.h"
#include "lib/stream.h"
#include "core/platform.h"
#include "results/results.h"
#include "core/timebase.h"
#include "probes/bandwidth_settings.h"

/* ---- Constants -------------------------------------------------------- */

#define LINE_BYTES 64u

/* A worker's word in worker.ready. */
enum { WORKER_ABSENT, WORKER_READY, WORKER_REFUSED };

/* The trials stop this many trials' time before the workers give up, so
   a worker never gives up in the middle of one. */
#define DEADLINE_TRIALS 4u

/* A stretch warm-up's bytes per part (less where the part is smaller). */
#define STRETCH_WARM_BYTES (8u << 20)

/* ---- Private Types ---------------------------------------------------- */

/* One CPU's part, on a cache line of its own: flags the others spin on
   never share a line with one that is written. */
struct worker {
	void *dst;
	const void *src;
	size_t bytes;                 /* per kernel call: the part, or half of it for copy */
	volatile uint32_t ready;      /* WORKER_* */
	volatile uint32_t done;       /* the last batch it finished */
} __attribute__((aligned(64)));

/* What CPU 0 tells the others, on a line of its own. */
struct command {
	volatile uint64_t passes;     /* of the next batch */
	volatile uint64_t offset;     /* a stretch's start in each part's call, and */
	volatile uint64_t length;     /* its bytes; 0: whole passes */
	volatile uint32_t batch;      /* raised to start one */
	volatile uint32_t quit;
} __attribute__((aligned(64)));

/* ---- Private Data ----------------------------------------------------- */

/* Static, never on a stack: a worker that missed its deadline may still
   read and write them after plat_cpus_run_wide returned. */
static struct gang_stream *run;
static struct command command;
static struct worker worker[PLAT_CPUS_MAX];
static uint64_t give_up_ticks;
static int cpu_lost;         /* a CPU missed a deadline: see bandwidth_gang_buffer_held */
static unsigned sets_here[PLAT_CPUS_MAX];

/* ---- Private Functions ------------------------------------------------ */

/* Sequentially consistent, as in core/gang.c: a worker must not see the
   batch before its pass count, nor CPU 0 a "done" before the worker's
   stores. */
static void put(volatile uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

static uint32_t get(const volatile uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static int past_give_up(void)
{
	return plat_ticks() > give_up_ticks;
}

/* 1 when this CPU may run the set; the kernel's instructions would fault
   here otherwise, and on another CPU nothing catches that. */
static int set_runs_here(void)
{
	return (plat_stream_sets_here() >> run->set) & 1u;
}

/* Worker w's share of the batch the command describes: whole passes over
   its part, or the stretch at the command's offset. */
static void stream_part(const struct worker *w)
{
	uint64_t length = __atomic_load_n(&command.length, __ATOMIC_SEQ_CST);
	uint64_t offset = __atomic_load_n(&command.offset, __ATOMIC_SEQ_CST);

	if (length)
		run->kernel((char *)w->dst + offset, (const char *)w->src + offset, length, 1);
	else
		run->kernel(w->dst, w->src, w->bytes,
			    __atomic_load_n(&command.passes, __ATOMIC_SEQ_CST));
}

/* A worker's role (CPU k > 0): say whether it can run the set, then run
   each batch CPU 0 raises until told to quit, giving up at give_up_ticks
   if CPU 0 never says. */
static void worker_role(void *arg)
{
	struct worker *w = arg;
	uint32_t seen = 0, batch;

	if (!set_runs_here()) {
		put(&w->ready, WORKER_REFUSED);
		return;
	}
	put(&w->ready, WORKER_READY);
	for (;;) {
		while ((batch = get(&command.batch)) == seen && !get(&command.quit) &&
		       !past_give_up())
			;
		if (batch == seen)
			return;
		stream_part(w);
		seen = batch;
		put(&w->done, batch);
	}
}

/* One batch of `passes` on every CPU: CPU 0's ticks from just before the
   release to the last CPU's finish, or 0 when some CPU had not finished
   by give_up_ticks. */
static uint64_t batch(uint64_t passes, uint64_t offset, uint64_t length)
{
	uint32_t number = get(&command.batch) + 1;
	uint64_t t0, t1;

	t0 = plat_ticks();
	__atomic_store_n(&command.passes, passes, __ATOMIC_SEQ_CST);
	__atomic_store_n(&command.offset, offset, __ATOMIC_SEQ_CST);
	__atomic_store_n(&command.length, length, __ATOMIC_SEQ_CST);
	put(&command.batch, number);
	stream_part(&worker[0]);
	for (unsigned k = 1; k < run->cpus; k++)
		while (get(&worker[k].done) != number)
			if (past_give_up())
				return 0;
	t1 = plat_ticks();
	return t1 > t0 ? t1 - t0 : 1;
}

/* 1 when every worker said it can run the set; else why[] names the first
   that cannot, or that never said. */
static int workers_ready(void)
{
	uint32_t r;

	for (unsigned k = 1; k < run->cpus; k++) {
		while ((r = get(&worker[k].ready)) == WORKER_ABSENT && !past_give_up())
			;
		if (r != WORKER_READY) {
			mp_snprintf(run->why, sizeof run->why, "CPU %u %s", k,
				    r == WORKER_REFUSED ? "cannot run the set: its register "
				    "state is not on" : "never began its role");
			return 0;
		}
	}
	return 1;
}

/* The warm-up and the trials, as the single-core probe's stream_trials
   but over every CPU; NULL, or why the measurement stopped short. */
static const char *lead_trials(void)
{
	uint64_t ticks, target = ms_to_ticks(run->c->step_ms), spent = 0;
	uint64_t bytes = worker[0].bytes, offset = 0, length = 0, moved = run->part;
	struct plat_disturbances before, after;

	if (run->stretch) {
		/* Past every cache: a warm-up stretch, then stretches going on
		   round each part (docs/METHOD.md section 11). */
		length = bandwidth_stretch_bytes(1, 1, STRETCH_WARM_BYTES, bytes, run->block);
		ticks = batch(0, 0, length);
		offset = length;
		length = bandwidth_stretch_bytes(target, ticks, length, bytes, run->block);
		moved = run->part / bytes * length;
		run->passes = 0;
	} else {
		ticks = batch(run->warm_passes, 0, 0);
		run->passes = reps_for_ticks(target, ticks, run->warm_passes);
	}
	if (!ticks)
		return "a CPU did not finish the warm-up before cpus.deadline";
	trials_init(&run->trials);
	do {
		if (length && offset + length > bytes)
			offset = 0;
		plat_disturbances(&before);
		ticks = batch(run->passes, offset, length);
		plat_disturbances(&after);
		offset += length;
		if (!ticks)
			return "a CPU did not finish a trial before cpus.deadline";
		spent += ticks;
		/* A disturbed trial is dropped: the loop measures again. */
		if (trials_add_checked(&run->trials,
				       bandwidth_gang_ns_per_line(ticks_to_ns(ticks), run->cpus,
								  moved, length ? 1 : run->passes),
				       &before, &after))
			run->stopped_by = trials_stop(&run->trials, run->c, spent,
						      target * run->c->max_trials);
		if (!run->stopped_by && plat_ticks() + DEADLINE_TRIALS * ticks > give_up_ticks)
			run->stopped_by = "deadline";
	} while (!run->stopped_by);
	return NULL;
}

/* CPU 0's role: its own check, the workers', the trials, then the
   workers sent home. */
static void lead_role(void *arg)
{
	const char *short_by = NULL;

	(void)arg;   /* the run is the file's: the workers read it too */
	if (!set_runs_here())
		mp_snprintf(run->why, sizeof run->why, "CPU 0 cannot run the set: its register "
			    "state is not on");
	else if (workers_ready() && (short_by = lead_trials()) != NULL)
		mp_snprintf(run->why, sizeof run->why, "%s", short_by);
	put(&command.quit, 1);
}

/* A role: the sets this CPU can run, into *arg. */
static void read_sets(void *arg)
{
	*(unsigned *)arg = plat_stream_sets_here();
}

/* Reports each CPU that missed; 1 when any did. */
static int report_missed(const struct plat_role *roles, unsigned n, double deadline_ms)
{
	int any = 0;

	for (unsigned k = 0; k < n; k++)
		if (roles[k].missed) {
			any = cpu_lost = 1;
			report_printf("bandwidth: CPU %u MISSED ITS DEADLINE of %.0f ms: the run "
				      "goes on without it\n", roles[k].cpu, deadline_ms);
		}
	return any;
}

/* Of sets->usable (CPU 0's), the sets whose register state is on on
   every one of CPUs 0 .. cpus-1 in plat_cpus_run_wide; each set some CPU
   cannot run is reported with that CPU. 0 when the CPUs could not be asked
   (reported). */
static unsigned common_sets_of(const struct config *c, unsigned cpus,
			       const struct plat_stream_sets *sets)
{
	static struct plat_role roles[PLAT_CPUS_MAX];
	unsigned common = sets->usable;
	char why[160];
	int rc;

	for (unsigned k = 0; k < cpus; k++) {
		sets_here[k] = 0;
		roles[k] = (struct plat_role){ k, read_sets, &sets_here[k], 0 };
	}
	rc = plat_cpus_run_wide(roles, cpus, (uint64_t)c->cpus_deadline_ms, why, sizeof why);
	if (rc < 0) {
		report_printf("bandwidth: the CPUs' register state could not be asked: %s\n", why);
		return 0;
	}
	if (report_missed(roles, cpus, c->cpus_deadline_ms))
		return 0;
	for (unsigned k = 0; k < cpus; k++) {
		unsigned lacking = common & ~sets_here[k];

		for (unsigned s = 0; lacking >> s; s++)
			if ((lacking >> s) & 1u)
				report_printf("bandwidth: %s not run with %u CPUs: CPU %u's register "
					      "state for it is not on\n", sets->sets[s].name, cpus, k);
		common &= sets_here[k];
	}
	return common;
}

/* ---- Public Functions ------------------------------------------------- */

uint64_t bandwidth_stretch_bytes(uint64_t target, uint64_t ticks, uint64_t done, uint64_t bytes,
				 unsigned block)
{
	double want = ticks ? (double)done * (double)target / (double)ticks : (double)bytes;
	uint64_t b = want >= (double)bytes ? bytes : (uint64_t)want;

	b -= b % block;
	return b < block ? block : b;
}

uint64_t bandwidth_gang_part(uint64_t ws, unsigned cpus, unsigned unit)
{
	if (!cpus || !unit)
		return 0;
	return ws / cpus / unit * unit;
}

double bandwidth_gang_ns_per_line(double window_ns, unsigned cpus, uint64_t part,
				  uint64_t passes)
{
	double lines = (double)cpus * (double)(part / LINE_BYTES) * (double)passes;

	return lines > 0 ? window_ns / lines : 0;
}

int bandwidth_gang_begin(const struct config *c, const struct plat_stream_sets *sets,
			 unsigned *cpus, unsigned *common_sets)
{
	unsigned have = plat_cpu_count();

	*cpus = BANDWIDTH_SETTINGS(c)->cores == BANDWIDTH_CORES_ALL ? have : BANDWIDTH_SETTINGS(c)->cores;
	*common_sets = sets->usable;
	if (*cpus > have) {
		report_printf("bandwidth: not measured: bandwidth.cores = %u, but this run can "
			      "give roles to %u CPU%s (%s); bandwidth.cores = all runs on every "
			      "CPU there is\n", *cpus, have, have == 1 ? "" : "s",
			      plat_cpus_conditions());
		*cpus = 1;
		return -1;
	}
	if (*cpus == 1) {
		if (BANDWIDTH_SETTINGS(c)->cores == BANDWIDTH_CORES_ALL)
			report_printf("bandwidth: bandwidth.cores = all, and one CPU alone can "
				      "take a role (%s): one CPU's figures\n", plat_cpus_conditions());
		return 0;
	}
	report_printf("bandwidth: %u CPUs (0-%u) stream together, each its own contiguous "
		      "part of the working set (1/%u of it, in whole kernel blocks) with the "
		      "same kernel, released by CPU 0 at once; GB/s = every byte they moved / "
		      "CPU 0's time from the release to the last CPU's finish; the working set "
		      "is the parts together; variants end in _x%u\n", *cpus, *cpus - 1, *cpus,
		      *cpus);
	report_printf("bandwidth: %s\n", plat_cpus_conditions());
	*common_sets = common_sets_of(c, *cpus, sets);
	if (*common_sets)
		return 0;
	report_printf("bandwidth: no kernel set runs on every one of the %u CPUs: nothing "
		      "measured\n", *cpus);
	return -1;
}

int bandwidth_gang_measure(struct gang_stream *g)
{
	static struct plat_role roles[PLAT_CPUS_MAX];
	char why[160];
	int rc;

	/* A CPU that missed may still be reading command and worker[]:
	   rewriting them could send it streaming over a new part. */
	if (cpu_lost) {
		mp_snprintf(g->why, sizeof g->why, "not run: a CPU missed an earlier deadline "
			    "and may still be streaming");
		return -1;
	}
	run = g;
	g->why[0] = '\0';
	g->stopped_by = NULL;
	g->passes = 0;
	trials_init(&g->trials);
	command = (struct command){ 0, 0, 0, 0, 0 };
	for (unsigned k = 0; k < g->cpus; k++) {
		char *part = g->base + k * g->part;

		worker[k].src = part;
		worker[k].dst = g->copy ? part + g->part / 2 : part;
		worker[k].bytes = g->copy ? g->part / 2 : g->part;
		worker[k].ready = WORKER_ABSENT;
		worker[k].done = 0;
		roles[k] = k ? (struct plat_role){ k, worker_role, &worker[k], 0 }
			     : (struct plat_role){ 0, lead_role, g, 0 };
	}
	give_up_ticks = plat_ticks() + ms_to_ticks(g->c->cpus_deadline_ms);
	rc = plat_cpus_run_wide(roles, g->cpus, (uint64_t)g->c->cpus_deadline_ms, why,
				sizeof why);
	if (rc < 0) {
		mp_snprintf(g->why, sizeof g->why, "not run: %s", why);
		return -1;
	}
	if (report_missed(roles, g->cpus, g->c->cpus_deadline_ms)) {
		mp_snprintf(g->why, sizeof g->why, "a CPU missed its deadline");
		return -1;
	}
	return g->why[0] ? -1 : 0;
}

int bandwidth_gang_buffer_held(void)
{
	return cpu_lost;
}
