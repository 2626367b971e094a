/* The numbers of each profile for the general keys (docs/CONFIG.md lists
 * them with the keys); each probe's own keys take theirs from its registry
 * row (core/probe.h).
 *
 * full follows the seeds. quick must run every probe, together, well under
 * 30 s under QEMU's TCG (10-50x slower than hardware: a chase read 4 ns at
 * 4 KiB, 22 ns at 1 MiB, 370 ns at 64 MiB there) in QEMU's default 1 GiB of
 * RAM, so its buffers stay small and its trials few.
 */

#include "lib/fmt.h"
#include "core/config.h"

/* The PROBE_* bits of the probes a profile runs when the probes key does
   not name them: the rows that say so. */
static unsigned profile_probes(enum profile profile)
{
	unsigned want = profile == PROFILE_FULL ? PROBE_IN_FULL : PROBE_IN_QUICK, set = 0;

	for (unsigned i = 0; i < PROBE_COUNT; i++)
		if (probe_configs[i]->profiles & want)
			set |= 1u << i;
	return set;
}

void config_defaults(struct config *c, enum profile p)
{
	int full = p == PROFILE_FULL;

	c->profile = p;
	/* Each probe's row says which profiles run it (probe.h). */
	c->probes = profile_probes(p);
	/* 1 GiB pages where available: a size the machine cannot give (no
	   pdpe1gb, no aligned free GiB, no hugetlb pool on Linux) is reported
	   and skipped, and the run goes on with the others. */
	c->pages = PAGES_4K | PAGES_2M | PAGES_1G;

	/* The latency sweep's grid (and the stop rule every probe shares):
	   from 4 KiB up to past four times the largest claimed cache (auto;
	   the floor per profile is LATENCY_TOP_*), so the last cache's edge
	   has memory's plateau past it: on a 32 MiB L3, 128 MiB. */
	c->min_size = 4096;
	c->max_size = 0;
	c->trials = 3;
	c->max_trials = full ? 20 : 8;
	c->precision = full ? 0.01 : 0.05;
	c->step_ms = full ? 2 : 1;
	/* c2c and loaded: the deadline bounds the longest role, a loaded
	   chase: quick's 32 MiB takes under a second on hardware and a few
	   under TCG; full's 256 MiB is 4 Mi loads a lap, a warm-up lap and
	   three trials of a lap, 2 s at 100 ns a load and 8 s at the 500 ns a
	   saturated server's DRAM can read. Only a CPU that is not coming
	   back reaches either. */
	c->cpus_deadline_ms = full ? 60000 : 10000;

	/* Buffers beside the processor that runs the probes, in ordinary
	   memory: another domain or special-purpose memory only when asked. */
	c->numa_node = NUMA_NODE_AUTO;
	c->numa_special = 0;
	c->paging_test_pool = 0;
	c->clock_reference = CLOCK_REF_AUTO;
	mp_memset(c->upload_url, 0, sizeof c->upload_url);
	c->end = END_OFF;
	c->end_set = 0;
	/* Each probe's keys from its row; bytes of a block no key covers stay
	   zero. */
	mp_memset(c->probe_settings, 0, sizeof c->probe_settings);
	config_probe_defaults(c, p);
}
