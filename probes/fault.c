/* The test-only fault probe: raises a chosen exception inside a timed
 * section, to prove the run survives it, or, for a machine check, that the
 * run stops with its files kept. Never part of a default run; a run that
 * includes it fails by design, since a fault inside a probe always makes
 * the verdict a failure.
 */

#include "probes/platform.h"
#include "probes/probe.h"
#include "probes/results.h"

static void raise_it(void *arg)
{
	plat_raise_fault(*(const unsigned *)arg);
}

int probe_fault(const struct config *c)
{
	struct plat_fault fault;
	unsigned vector = c->fault_vector;

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
