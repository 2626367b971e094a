/* All-core bandwidth (bandwidth.cores > 1): the bandwidth probe's kernels
 * on CPUs 0 .. cpus-1 at once, each streaming its own contiguous part of
 * the working set, all released by CPU 0 from one start line, and the
 * aggregate figure over CPU 0's clock alone: every byte the CPUs moved over
 * the time from the release to the last CPU's finish. docs/METHOD.md,
 * section 11, says why that definition, which never overstates.
 */
#ifndef MEMPROBE_BANDWIDTH_GANG_H
#define MEMPROBE_BANDWIDTH_GANG_H

#include <stddef.h>
#include <stdint.h>
#include "lib/stream.h"
#include "core/config.h"
#include "core/platform.h"
#include "core/trials.h"

/* One variant at one working set, on `cpus` CPUs. */
struct gang_stream {
	/* In. */
	stream_kernel_fn *kernel;
	unsigned set;             /* the kernel's set: its bit is checked on each CPU */
	char *base;               /* CPU k's part starts at base + k * part */
	uint64_t part;            /* bytes per CPU per pass, bandwidth_gang_part's */
	int copy;                 /* the part is read in its first half, written in its second */
	unsigned cpus;
	uint64_t warm_passes;     /* untimed passes on every CPU before the trials */
	/* Nonzero: the working set lies past every cache, and each batch
	   streams a stretch of `block`-byte blocks of each part, going on
	   round it (bandwidth_stretch_bytes), not whole passes. */
	int stretch;
	unsigned block;
	const struct config *c;
	/* Out. */
	struct trials trials;     /* ns per 64-byte line moved, all CPUs together */
	uint64_t passes;          /* per CPU per trial */
	const char *stopped_by;
	char why[192];            /* why nothing was measured */
};

/* The bytes each of `cpus` CPUs streams per pass of a working set of ws
   bytes: ws / cpus rounded down to a whole number of `unit` bytes (the
   kernel set's block; two blocks for copy, whose part is halved); 0 when a
   CPU would not get one unit. */
uint64_t bandwidth_gang_part(uint64_t ws, unsigned cpus, unsigned unit);

/* A stretch's bytes per kernel call: at the rate measured (ticks for
   `done` bytes), what takes target ticks, in whole blocks, at least one
   block and at most `bytes`. */
uint64_t bandwidth_stretch_bytes(uint64_t target, uint64_t ticks, uint64_t done, uint64_t bytes,
				 unsigned block);

/* One trial's figure: ns per 64-byte line, the window (CPU 0's ns from the
   release to the last CPU's finish) over every line the CPUs moved in it. */
double bandwidth_gang_ns_per_line(double window_ns, unsigned cpus, uint64_t part,
				  uint64_t passes);

/* bandwidth.cores resolved and said in the report: *cpus, the CPUs that
   stream together (every one the platform has for `all`; 1 is the
   single-core probe), and *sets, the sets of sets->usable (CPU 0's) whose
   register state is on on every one of them in plat_cpus_run_wide, each
   set some CPU cannot run reported with that CPU. 0, or -1 when nothing
   can be measured (said): a count above the CPUs there are is refused,
   not run with fewer, since its rows would carry a count nobody asked
   for. */
int bandwidth_gang_begin(const struct config *c, const struct plat_stream_sets *sets,
			 unsigned *cpus, unsigned *common_sets);

/* Warm-up and trials, as the single-core probe's, with every CPU streaming:
   0, or -1 with g->why saying why nothing was measured (a CPU that cannot
   run the set, missed its deadline now or earlier, or could not be
   started). */
int bandwidth_gang_measure(struct gang_stream *g);

/* 1 once a CPU missed a deadline: it may still be streaming its part, so
   the probe's buffer is never given back. */
int bandwidth_gang_buffer_held(void);

#endif
