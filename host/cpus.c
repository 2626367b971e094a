/* The Linux platform's other CPUs (core/platform.h, "Other CPUs").
 *
 * Logical CPU k is the k-th CPU of the affinity mask memprobe started with,
 * so `taskset -c 2,5 memprobe` measures between OS CPUs 2 and 5. Each role
 * runs in a thread created already pinned there (pthread_attr_setaffinity_np,
 * i.e. sched_setaffinity), the caller's own role on the calling thread,
 * pinned to CPU 0's OS CPU for the run's length. Pinning is a request the
 * kernel keeps, but the kernel still schedules and interrupts: the report
 * says so rather than implying bare-metal conditions.
 */

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/cpu.h"
#include "lib/json.h"
#include "lib/machine.h"
#include "core/gang.h"
#include "core/platform.h"
#include "host/host.h"

/* ---- Private Data ----------------------------------------------------- */

static cpu_set_t start_mask;
static unsigned cpu_count;                  /* 0: not read yet */
static unsigned os_cpu[PLAT_CPUS_MAX];
static unsigned char lost[PLAT_CPUS_MAX];   /* missed a deadline, thread left running */
static char conditions[320];

/* What one member thread is told. */
struct host_member {
	struct gang *g;
	unsigned index;
};

/* One plat_cpus_run's shared state; heap-held, and freed only when no
   member was left behind (a late thread may still touch it). */
struct host_run {
	struct gang g;
	pthread_t thread[PLAT_CPUS_MAX];
	int started[PLAT_CPUS_MAX];
	struct host_member member[PLAT_CPUS_MAX];
};

/* ---- Private Functions ------------------------------------------------ */

/* The start mask, read once, before any thread of ours is pinned. */
static void read_cpus(void)
{
	if (cpu_count)
		return;
	CPU_ZERO(&start_mask);
	if (sched_getaffinity(0, sizeof start_mask, &start_mask) != 0)
		CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &start_mask);
	for (unsigned c = 0; c < CPU_SETSIZE && cpu_count < PLAT_CPUS_MAX; c++)
		if (CPU_ISSET(c, &start_mask))
			os_cpu[cpu_count++] = c;
	if (!cpu_count)
		os_cpu[cpu_count++] = 0;
}

/* *set holds logical CPU `logical`'s OS CPU alone. */
static void one_cpu(cpu_set_t *set, unsigned logical)
{
	CPU_ZERO(set);
	CPU_SET(os_cpu[logical], set);
}

/* A member thread: its part at the start line, then its role. */
static void *member_thread(void *arg)
{
	struct host_member *m = arg;

	gang_member(m->g, m->index);
	return NULL;
}

/* A role: the topology of the CPU it runs on, into *arg. */
static void read_topology(void *arg)
{
	cpu_topology_read(arg);
}

/* ---- Public Functions ------------------------------------------------- */

unsigned plat_cpu_count(void)
{
	read_cpus();
	return cpu_count;
}

const char *plat_cpus_conditions(void)
{
	read_cpus();
	if (cpu_count == 1) {
		snprintf(conditions, sizeof conditions,
			 "other CPUs: none: this process may run on OS CPU %u alone (its affinity "
			 "mask): c2c has no pair to measure, loaded no CPU to load with", os_cpu[0]);
		return conditions;
	}
	snprintf(conditions, sizeof conditions,
		 "other CPUs: %u, the OS CPUs of this process's affinity mask in order (logical "
		 "0 = OS CPU %u); each role runs in a thread pinned with sched_setaffinity, but "
		 "pinning and interrupts are the OS's: a pinned thread can still be preempted "
		 "or interrupted, and two CPUs may share a core or be vCPUs a hypervisor moves",
		 cpu_count, os_cpu[0]);
	return conditions;
}

/* A fault in a role thread is the kernel's signal to the whole process:
   no role here ever returns from one (fault.cpu is refused on Linux). */
int plat_cpu_fault(unsigned cpu, struct plat_fault *fault)
{
	(void)cpu;
	(void)fault;
	return 0;
}

int plat_cpus_run(struct plat_role *roles, unsigned n, uint64_t deadline_ms,
		  char *why, size_t why_len)
{
	struct host_run *run;
	pthread_attr_t attr;
	cpu_set_t own, previous;
	unsigned missed, i;
	int refused = 0;

	read_cpus();
	/* A run asked to stop (host/signals.c) starts no further roles. */
	if (plat_stop_signal()) {
		snprintf(why, why_len, "not run: %s asked the run to stop", plat_stop_signal());
		return -1;
	}
	if (gang_check(roles, n, cpu_count, lost, why, why_len))
		return -1;
	run = calloc(1, sizeof *run);
	if (!run) {
		snprintf(why, why_len, "no memory for the run's threads");
		return -1;
	}
	gang_init(&run->g, roles, n, deadline_ms);
	sched_getaffinity(0, sizeof previous, &previous);
	one_cpu(&own, 0);
	sched_setaffinity(0, sizeof own, &own);

	for (i = 0; i < n && !refused; i++) {
		cpu_set_t set;
		int rc;

		if ((int)i == run->g.lead)
			continue;
		run->member[i] = (struct host_member){ &run->g, i };
		one_cpu(&set, roles[i].cpu);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof set, &set);
		rc = pthread_create(&run->thread[i], &attr, member_thread, &run->member[i]);
		pthread_attr_destroy(&attr);
		if (rc != 0) {
			snprintf(why, why_len, "no thread pinned to OS CPU %u: %s",
				 os_cpu[roles[i].cpu], strerror(rc));
			refused = 1;
		} else {
			run->started[i] = 1;
		}
	}
	if (refused) {
		/* Those already at the start line are sent home. */
		__atomic_store_n(&run->g.start, GANG_OFF, __ATOMIC_SEQ_CST);
		missed = 0;
	} else {
		missed = gang_lead(&run->g);
	}

	for (i = 0; i < n; i++) {
		if (!run->started[i])
			continue;
		if (roles[i].missed) {
			pthread_detach(run->thread[i]);
			lost[roles[i].cpu] = 1;
		} else {
			pthread_join(run->thread[i], NULL);
		}
	}
	sched_setaffinity(0, sizeof previous, &previous);
	if (!missed)
		free(run);
	if (refused)
		return -1;
	return missed ? 1 : 0;
}

void host_cpus_describe(struct json *j)
{
	static struct cpu_topology topology[PLAT_CPUS_MAX];
	static struct plat_role roles[PLAT_CPUS_MAX];
	uint64_t ids[PLAT_CPUS_MAX];
	char why[160];
	unsigned usable = 0;

	read_cpus();
	for (unsigned k = 0; k < cpu_count; k++) {
		ids[k] = os_cpu[k];
		topology[k].source = 0;
		if (lost[k])
			continue;
		roles[usable++] = (struct plat_role){ k, read_topology, &topology[k], 0 };
	}
	if (plat_cpus_run(roles, usable, 2000, why, sizeof why) < 0)
		for (unsigned k = 0; k < cpu_count; k++)
			topology[k].source = 0;
	machine_describe_topology(j, topology, ids, "os_cpu", cpu_count);
}
