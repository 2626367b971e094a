/* The start line and deadline of a plat_cpus_run (see gang.h). */

#include "core/gang.h"
#include "lib/fmt.h"

/* ---- Private Functions ------------------------------------------------ */

/* Sequentially consistent stores and loads: a member's "done" must not be
   seen before its role's last writes, and the start flag must not be seen
   before the roles' shared data the lead wrote. */
static void put(volatile uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

static uint32_t get(const volatile uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

/* 1 once the run's deadline has passed. */
static int past_deadline(const struct gang *g)
{
	return plat_ticks() > g->deadline_ticks;
}

/* 1 when every member (the lead aside) is at least in state `least`. */
static int all_reached(const struct gang *g, uint32_t least)
{
	for (unsigned i = 0; i < g->n; i++)
		if ((int)i != g->lead && get(&g->state[i]) < least)
			return 0;
	return 1;
}

/* ---- Public Functions ------------------------------------------------- */

int gang_check(const struct plat_role *roles, unsigned n, unsigned cpu_count,
	       const unsigned char lost[PLAT_CPUS_MAX], char *why, size_t why_len)
{
	unsigned char seen[PLAT_CPUS_MAX] = { 0 };

	if (n == 0 || n > cpu_count) {
		mp_snprintf(why, why_len, "%u roles for %u CPUs", n, cpu_count);
		return -1;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned cpu = roles[i].cpu;

		if (cpu >= cpu_count) {
			mp_snprintf(why, why_len, "CPU %u does not exist (CPUs 0-%u)", cpu,
				    cpu_count - 1);
			return -1;
		}
		if (seen[cpu]) {
			mp_snprintf(why, why_len, "CPU %u given two roles", cpu);
			return -1;
		}
		if (lost[cpu]) {
			mp_snprintf(why, why_len, "CPU %u missed an earlier deadline and may "
				    "still be running, or faulted: it gets no more roles", cpu);
			return -1;
		}
		seen[cpu] = 1;
	}
	return 0;
}

void gang_init(struct gang *g, struct plat_role *roles, unsigned n, uint64_t deadline_ms)
{
	const struct plat_clock *clk = plat_clock();

	g->roles = roles;
	g->n = n;
	g->lead = -1;
	for (unsigned i = 0; i < n; i++) {
		roles[i].missed = 0;
		g->state[i] = GANG_ABSENT;
		if (roles[i].cpu == 0)
			g->lead = (int)i;
	}
	g->start = GANG_HOLD;
	g->deadline_ticks = plat_ticks() + deadline_ms * (clk->ticks_per_s / 1000u);
}

void gang_member(struct gang *g, unsigned index)
{
	uint32_t start;

	put(&g->state[index], GANG_WAITING);
	while ((start = get(&g->start)) == GANG_HOLD && !past_deadline(g))
		;
	if (start != GANG_GO) {
		put(&g->state[index], GANG_CALLED_OFF);
		return;
	}
	put(&g->state[index], GANG_PLAYING);
	g->roles[index].fn(g->roles[index].arg);
	put(&g->state[index], GANG_DONE);
}

void gang_member_faulted(struct gang *g, unsigned index)
{
	put(&g->state[index], GANG_FAULTED);
}

unsigned gang_lead(struct gang *g)
{
	unsigned missed = 0;

	while (!all_reached(g, GANG_WAITING) && !past_deadline(g))
		;
	if (!all_reached(g, GANG_WAITING)) {
		/* Someone never came: no role starts, so none waits on a
		   partner that is not there. */
		put(&g->start, GANG_OFF);
	} else {
		put(&g->start, GANG_GO);
		if (g->lead >= 0) {
			g->state[g->lead] = GANG_PLAYING;
			g->roles[g->lead].fn(g->roles[g->lead].arg);
			put(&g->state[g->lead], GANG_DONE);
		}
	}
	while (!all_reached(g, GANG_DONE) && !past_deadline(g))
		;
	/* The lead's own role is never missed: it is back, by definition. */
	for (unsigned i = 0; i < g->n; i++) {
		uint32_t state = get(&g->state[i]);
		int faulted = (int)i != g->lead && state == GANG_FAULTED;
		int late = (int)i != g->lead && state < GANG_DONE;

		g->roles[i].missed = late || faulted;
		missed += (unsigned)(late || faulted);
	}
	return missed;
}
