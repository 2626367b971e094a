/* The test-only fault probe: raises a chosen exception inside a timed
 * section, to prove the run survives it, or, for a machine check, that the
 * run stops with its files kept. With fault.cpu it is raised in a role on
 * that CPU instead (plat_cpus_run), to prove that CPU's own guard catches
 * it, the CPU comes back and the run goes on with the others. Never part
 * of a default run; a run that includes it fails by design, since a fault
 * inside a probe always makes the verdict a failure.
 */

#include "core/platform.h"
#include "core/probe.h"
#include "probes/fault_settings.h"
#include "results/results.h"

static void raise_it(void *arg)
{
	plat_raise_fault(*(const unsigned *)arg);
}

/* fault.cpu: the exception in CPU k's role, beside an idle role on the
   boot CPU; then the others (CPU 0 and one more, where there is one) run a
   role again, to show the run goes on without k. */
static void idle_role(void *arg)
{
	(void)arg;
}

static int fault_on_cpu(const struct config *c, unsigned vector)
{
	struct plat_role roles[2];
	struct plat_fault fault;
	unsigned k = FAULT_SETTINGS(c)->cpu, other;
	char why[160];
	int rc;

	if (k >= plat_cpu_count()) {
		report_printf("fault: fault.cpu=%u, but the run has CPUs 0-%u only: nothing "
			      "raised\n", k, plat_cpu_count() - 1);
		return -1;
	}
	report_printf("fault: raising vector %u in CPU %u's role on purpose\n", vector, k);
	roles[0] = (struct plat_role){ .cpu = 0, .fn = idle_role };
	roles[1] = (struct plat_role){ .cpu = k, .fn = raise_it, .arg = &vector };
	rc = plat_cpus_run(roles, 2, (uint64_t)c->cpus_deadline_ms, why, sizeof why);
	if (rc < 0) {
		report_printf("fault: the roles did not run: %s\n", why);
		return -1;
	}
	if (!plat_cpu_fault(k, &fault)) {
		report_printf("fault: vector %u was raised on CPU %u but no fault was caught "
			      "there%s\n", vector, k, roles[1].missed ? " (the CPU missed its "
			      "deadline)" : "");
		return -1;
	}
	if (fault.fatal)
		report_printf("fault: caught %s; fatal: the run stops after this probe\n",
			      fault.text);
	else
		report_printf("fault: caught %s; CPU %u is back with the firmware, the run goes "
			      "on without it\n", fault.text, k);
	if (fault.vector != vector)
		report_printf("fault: expected vector %u, the guard saw %u\n", vector, fault.vector);
	for (other = 1; other < plat_cpu_count() && other == k; other++)
		;
	if (other < plat_cpu_count() && !plat_fatal()) {
		roles[1] = (struct plat_role){ .cpu = other, .fn = idle_role };
		rc = plat_cpus_run(roles, 2, (uint64_t)c->cpus_deadline_ms, why, sizeof why);
		report_printf("fault: CPUs 0 and %u %s\n", other, rc == 0 ? "ran a role again "
			      "after the fault" : "did not run a role again");
	}
	return -1;
}

int probe_fault(const struct config *c)
{
	struct plat_fault fault;
	unsigned vector = FAULT_VECTOR_NUMBER(FAULT_SETTINGS(c)->vector);

	if (FAULT_SETTINGS(c)->cpu)
		return fault_on_cpu(c, vector);

	report_printf("fault: raising vector %u inside a timed section on purpose\n", vector);
	if (plat_timed(raise_it, &vector, &fault) == 0) {
		report_printf("fault: vector %u was raised but no fault arrived: the guard "
			      "did not see it\n", vector);
		return -1;
	}
	if (fault.fatal)
		report_printf("fault: caught %s; fatal: the run stops after this probe\n", fault.text);
	else
		report_printf("fault: caught %s; machine state restored, the run goes on\n",
			      fault.text);
	if (fault.vector != vector)
		report_printf("fault: expected vector %u, the guard saw %u\n", vector, fault.vector);
	return -1;
}

/* x86 vectors, then AArch64 exception classes (ESR_ELx.EC: an undefined
   instruction (UDF), a data abort, a BRK) FAULT_VECTOR_AARCH64 above their
   number, so that each word has a value of its own and describes back as
   itself ("undef" is not "de"). Each machine raises its own and reports
   the others as raised with no fault arriving. Only these: any other
   vector would raise nothing, and the probe would wrongly blame the guard. */
static const struct config_word vector_words[] = {
	{ "de", 0 }, { "ud", 6 }, { "gp", 13 }, { "pf", 14 }, { "mc", 18 }, { "df", 8 },
	{ "undef", FAULT_VECTOR_AARCH64 | 0x00 }, { "dabort", FAULT_VECTOR_AARCH64 | 0x25 },
	{ "brk", FAULT_VECTOR_AARCH64 | 0x3c }, { 0, 0 } };

static const struct config_key fault_keys[] = {
	{ "vector", KIND_WORD, SETTING(struct fault_settings, vector), 0, 0, 0, "pf", "pf",
	  vector_words, "vector", NULL },
	{ "cpu", KIND_UINT, SETTING(struct fault_settings, cpu), 0, CONFIG_CPUS_MAX - 1, 0, "0",
	  "0", 0, 0, "fault.cpu raises a fault in another CPU's role on bare metal only; on "
	  "Linux a role's fault is the kernel's signal to the whole process" },
};

/* One fault raised and caught: nothing beyond the probe's own overhead. */
static void fault_cost(const struct config *c, struct probe_cost *cost)
{
	(void)c;
	(void)cost;
}

PROBE_DEFINE(fault, 20) = {
	.config = { .name = "fault", .profiles = 0,
		    PROBE_KEYS(fault_keys, struct fault_settings, 0) },
	.run = probe_fault,
	.holds = 0,
	.rows_read = ROWS_UNREAD,
	.cost = fault_cost,
};
