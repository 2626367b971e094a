/* Roles on other CPUs through the real host platform (host/cpus.c) and the
 * start line they share (core/gang.c): each role runs on its own pinned
 * CPU, all at once; bad role lists are refused by name; a CPU that misses
 * its deadline is reported, the run returns, and that CPU gets no role
 * again. Also the APIC ID split behind system.json's topology.
 */

#include <sched.h>
#include <string.h>

#include "check.h"
#include "arch/x86_64/topology.h"
#include "core/gang.h"
#include "core/platform.h"

struct seen {
	int os_cpu;
	volatile int *arrived;    /* shared by the pair */
	int saw_partner;
};

/* Says it is here, then waits (bounded) for the partner: both can only see
   each other if the roles really run at the same time. */
static void meet(void *arg)
{
	struct seen *s = arg;

	s->os_cpu = sched_getcpu();
	__atomic_add_fetch(s->arrived, 1, __ATOMIC_SEQ_CST);
	for (long spins = 0; spins < 2000000000L; spins++)
		if (__atomic_load_n(s->arrived, __ATOMIC_SEQ_CST) >= 2) {
			s->saw_partner = 1;
			return;
		}
}

static void late(void *arg)
{
	uint64_t until = plat_ticks() + *(const uint64_t *)arg;

	while (plat_ticks() < until)
		;
}

static void note(void *arg)
{
	*(int *)arg = 1;
}

/* The OS CPU number of logical CPU k: the k-th of the affinity mask. */
static int os_cpu_of(unsigned k)
{
	cpu_set_t set;
	unsigned n = 0;

	sched_getaffinity(0, sizeof set, &set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set) && n++ == k)
			return c;
	return -1;
}

static void test_refusals(unsigned count)
{
	struct plat_role roles[2] = { { 0, note, NULL, 0 }, { count, note, NULL, 0 } };
	char why[160];

	CHECK(plat_cpus_run(roles, 2, 1000, why, sizeof why) == -1 &&
	      strstr(why, "does not exist") != NULL,
	      "a role on CPU %u of %u is refused (%s)", count, count, why);
	roles[1].cpu = 0;
	CHECK(plat_cpus_run(roles, 2, 1000, why, sizeof why) == -1 &&
	      !strcmp(why, "CPU 0 given two roles"), "two roles on one CPU are refused (%s)", why);
}

static void test_pair(void)
{
	static volatile int arrived;
	struct seen a = { -1, &arrived, 0 }, b = { -1, &arrived, 0 };
	struct plat_role roles[2] = { { 0, meet, &a, 0 }, { 1, meet, &b, 0 } };
	char why[160] = "";
	int rc = plat_cpus_run(roles, 2, 5000, why, sizeof why);

	CHECK(rc == 0 && !roles[0].missed && !roles[1].missed,
	      "two roles on CPUs 0 and 1 both finish in time (rc %d %s)", rc, why);
	CHECK(a.saw_partner && b.saw_partner, "they run at the same time: each saw the other");
	CHECK(a.os_cpu == os_cpu_of(0) && b.os_cpu == os_cpu_of(1),
	      "each on its own pinned OS CPU (%d and %d)", a.os_cpu, b.os_cpu);
}

static void read_topology(void *arg)
{
	cpu_topology_read(arg);
}

/* Each CPU reads its own place: two CPUs, two APIC IDs. */
static void test_topology_on_each_cpu(void)
{
	struct cpu_topology t[2] = { { 0 }, { 0 } };
	struct plat_role roles[2] = { { 0, read_topology, &t[0], 0 },
				      { 1, read_topology, &t[1], 0 } };
	char why[160] = "";

	CHECK(plat_cpus_run(roles, 2, 5000, why, sizeof why) == 0 && t[0].source && t[1].source,
	      "each CPU reads its topology on itself (%s, %s)", t[0].source ? t[0].source : "-",
	      t[1].source ? t[1].source : "-");
	CHECK(t[0].cpu_id != t[1].cpu_id, "two CPUs, two APIC IDs (%u, %u)", t[0].cpu_id,
	      t[1].cpu_id);
}

static void test_late(void)
{
	const struct plat_clock *clk = plat_clock();
	static uint64_t late_ticks;
	int ran = 0;
	struct plat_role roles[2] = { { 0, note, &ran, 0 }, { 1, late, &late_ticks, 0 } };
	char why[160] = "";
	uint64_t t0;
	int rc;

	late_ticks = clk->ticks_per_s / 2;           /* 500 ms, past a 100 ms deadline */
	t0 = plat_ticks();
	rc = plat_cpus_run(roles, 2, 100, why, sizeof why);
	CHECK(rc == 1 && roles[1].missed && !roles[0].missed && ran,
	      "a role that overruns its 100 ms deadline is reported missed; the caller's ran "
	      "(rc %d)", rc);
	CHECK(plat_ticks() - t0 < late_ticks, "and the run returns without waiting for it");
	roles[1] = (struct plat_role){ 1, note, &ran, 0 };
	CHECK(plat_cpus_run(roles, 2, 1000, why, sizeof why) == -1 &&
	      strstr(why, "CPU 1 missed an earlier deadline") != NULL,
	      "that CPU gets no role again (%s)", why);
}

/* The start line alone: a member that never arrives calls the start off,
   so no role runs, and it counts as missed. */
static void test_gang_call_off(void)
{
	static struct gang g;
	int ran_lead = 0, ran_member = 0;
	struct plat_role roles[2] = { { 0, note, &ran_lead, 0 }, { 1, note, &ran_member, 0 } };

	gang_init(&g, roles, 2, 20);
	CHECK(g.lead == 0, "the role on CPU 0 is the lead's");
	CHECK(gang_lead(&g) == 1 && roles[1].missed && !roles[0].missed && !ran_lead &&
	      g.start == GANG_OFF, "a member that never arrives: start called off, no role run, "
	      "it is missed");
	gang_member(&g, 1);
	CHECK(!ran_member && g.state[1] == GANG_CALLED_OFF,
	      "a member arriving after the call-off goes home without playing");
}

/* A member whose role faulted (the platform's guard caught it on its CPU
   and said so): the lead neither waits for it until the deadline nor
   counts it finished. The deadline is an hour, so a lead that waited for
   it would hang the test rather than pass. */
static void test_gang_faulted(void)
{
	static struct gang g;
	int ran_lead = 0, ran_member = 0;
	struct plat_role roles[2] = { { 0, note, &ran_lead, 0 }, { 1, note, &ran_member, 0 } };

	gang_init(&g, roles, 2, 3600u * 1000u);
	gang_member_faulted(&g, 1);
	CHECK(gang_lead(&g) == 1 && roles[1].missed && !roles[0].missed && ran_lead &&
	      !ran_member, "a faulted member: the lead plays and returns at once, the faulted "
	      "role counted missed");
	CHECK(plat_cpu_fault(1, &(struct plat_fault){ 0 }) == 0,
	      "Linux roles never come back from a fault: plat_cpu_fault says none");
}

static void test_topology_split(void)
{
	struct cpu_topology t;

	topology_split(&t, 0x1d, 1, 4, "test");
	CHECK(t.cpu_id == 0x1d && t.thread == 1 && t.core == 6 && t.package == 1,
	      "APIC ID 0x1d, SMT width 1, package shift 4: thread 1, core 6, package 1");
	topology_split(&t, 7, 0, 0, "test");
	CHECK(t.thread == 0 && t.core == 0 && t.package == 7,
	      "no level widths: the whole ID numbers the package");
	topology_split(&t, 0xffffffffu, 32, 32, "test");
	CHECK(t.thread == 0xffffffffu && t.core == 0 && t.package == 0,
	      "a width of 32 bits is no undefined shift");
}

int main(void)
{
	unsigned count = plat_cpu_count();

	CHECK(count >= 1 && count <= PLAT_CPUS_MAX, "%u logical CPUs", count);
	CHECK(strstr(plat_cpus_conditions(), "other CPUs: ") != NULL,
	      "the conditions line says how other CPUs are used: %s", plat_cpus_conditions());
	test_refusals(count);
	test_gang_call_off();
	test_gang_faulted();
	test_topology_split();
	if (count >= 2) {
		test_pair();
		test_topology_on_each_cpu();
		test_late();
	} else {
		printf("# one CPU in this process's mask: the pair and deadline tests need two\n");
	}
	return check_summary();
}
