/* The numbers of each profile (docs/CONFIG.md lists them with the keys).
 *
 * full follows the seeds. quick must run every probe, together, well under
 * 30 s under QEMU's TCG (10-50x slower than hardware: a chase read 4 ns at
 * 4 KiB, 22 ns at 1 MiB, 370 ns at 64 MiB there) in QEMU's default 1 GiB of
 * RAM, so its buffers stay small and its trials few.
 */

#include "lib/fmt.h"
#include "probes/config.h"

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

	/* latency: the seed's sweep, up to 512 MiB (full) or 8 MiB (quick),
	   and in either past four times the largest claimed cache (auto), so
	   the last cache's edge has memory's plateau past it: on a 32 MiB L3,
	   128 MiB. Buffers of at most 1 GiB (quick: QEMU's default memory is
	   smaller, and what the machine lacks caps the sweep there anyway) or
	   8 GiB (full, as tlb's). */
	c->min_size = 4096;
	c->max_size = 0;
	c->latency_max_buffer = full ? 8ull << 30 : 1ull << 30;
	c->trials = 3;
	c->max_trials = full ? 20 : 8;
	c->precision = full ? 0.01 : 0.05;
	c->step_ms = full ? 2 : 1;

	/* tlb: from 8 pages up to the larger of 16384 and 4x the largest
	   claimed TLB (auto, both profiles: a plateau of several points past
	   the last claimed TLB; a CPU that hides its L2 TLB from CPUID still
	   has 16384 pages), in buffers of at most 8 GiB (4096 pages of 2 MiB:
	   past a 2048-entry L2 TLB by a plateau). quick starts at one page, so
	   two 1 GiB pages, all QEMU's -m 4G offers, still make a curve, and
	   its buffers stop at 2 GiB. */
	c->tlb_min_pages = full ? 8 : 1;
	c->tlb_max_pages = 0;
	c->tlb_max_buffer = full ? 8ull << 30 : 2ull << 30;

	/* bandwidth: the latency sweep's grid; quick stops at 8 MiB as latency
	   does, past L2 on every current core. */
	c->bandwidth_min_size = 4096;
	c->bandwidth_max_size = full ? 512ull << 20 : 8ull << 20;
	/* The widest set only: the figure the hardware's limit is about, and a
	   third of the time of all three; `all` compares the widths. */
	c->bandwidth_sets = BANDWIDTH_WIDEST;
	/* One core: what the cores' limits (docs/METHOD.md) are about; `all`
	   or a count gives the CPUs' aggregate. */
	c->bandwidth_cores = 1;

	/* locality: the seed's 13000 x 13000 ints (645 MiB), best of 24; quick
	   keeps a row length that is not a power of two. */
	c->locality_rows = full ? 13000 : 2000;
	c->locality_cols = full ? 13000 : 2001;
	c->locality_reps = full ? 24 : 3;

	/* later: a table past the last-level cache, walked a line at a time,
	   3..100 runs on the shared stop rule (the meter's own comments give
	   10..100; its figure is known once the best three agree or more runs
	   stop moving it, so ten are not needed first). Full: 256 MiB,
	   several times any one core's L3 (32 MiB per Zen 3 CCD, 96 MiB with
	   3D V-Cache), since a cyclic walk only twice a cache's size still hits
	   a cache whose replacement is not strict LRU. Blocks of 128 KiB: 32
	   pages of 4 KiB, inside the L1 DTLB's reach, so the 4 KiB and 2 MiB
	   figures agree; blocks of 4-16 KiB read under half the memory latency
	   on Zen 3 (docs/METHOD.md). */
	c->later_table = full ? 256ull << 20 : 8ull << 20;
	c->later_block = 128u << 10;
	c->later_stride = 64;
	c->later_steps = full ? 1000000 : 100000;
	c->later_precision = full ? 0.01 : 0.05;
	c->later_min_repeat = 3;
	c->later_max_repeat = full ? 100 : 10;

	/* cost: the seed's 5,000,000 calls, best of as many trials as the
	   shared stop rule needs (trials .. max_trials); cost.trials = N, set
	   by the user, is a fixed count instead (the seed's 7). */
	c->cost_reps = full ? 5000000 : 100000;
	c->cost_trials = 0;

	/* c2c: every pair of every CPU. The deadline bounds the longest role,
	   a loaded chase: quick's 32 MiB takes under a second on hardware and
	   a few under TCG; full's 256 MiB is 4 Mi loads a lap, a warm-up lap
	   and three trials of a lap, 2 s at 100 ns a load and 8 s at the
	   500 ns a saturated server's DRAM can read. Only a CPU that is not
	   coming back reaches either. */
	for (unsigned w = 0; w < CONFIG_CPU_WORDS; w++)
		c->c2c_cpus[w] = ~0ull;
	c->c2c_test_late = 0;
	c->cpus_deadline_ms = full ? 60000 : 10000;

	/* loaded: a chase well past any last-level cache (full: 256 MiB, as
	   later's table; quick: 32 MiB, past a Zen 3 CCD's L3 though not a
	   big server's) while each loader streams a buffer past its own
	   core's caches. */
	c->loaded_size = full ? 256ull << 20 : 32ull << 20;
	c->loaded_load_size = full ? 64ull << 20 : 8ull << 20;
	c->loaded_mix = LOAD_READ;
	c->loaded_loaders = 0;

	/* geometry: the sweep's own bound (4 x the claimed ways + 4 lines
	   per set) in both profiles; quick runs it only when asked. */
	c->geometry_max_lines = 0;

	c->fault_vector = 14;
	c->fault_cpu = 0;
	/* Buffers beside the processor that runs the probes, in ordinary
	   memory: another domain or special-purpose memory only when asked. */
	c->numa_node = NUMA_NODE_AUTO;
	c->numa_special = 0;
	c->paging_test_pool = 0;
	c->clock_reference = CLOCK_REF_AUTO;
	mp_memset(c->upload_url, 0, sizeof c->upload_url);
	c->end = END_OFF;
	c->end_set = 0;
}
