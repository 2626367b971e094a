/* The settings of the bandwidth probe (bandwidth.c, bandwidth_gang.c): its
 * keys' values, in its block of struct config (core/config.h), read
 * through BANDWIDTH_SETTINGS(c). Its keys, their ranges and defaults are
 * its registry row's.
 */
#ifndef MEMPROBE_BANDWIDTH_SETTINGS_H
#define MEMPROBE_BANDWIDTH_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

/* bandwidth.sets: which of the kernel sets the platform can run
   the bandwidth probe runs. */
enum bandwidth_sets { BANDWIDTH_WIDEST, BANDWIDTH_ALL };
/* bandwidth.cores = all: every CPU the platform can give a role. */
#define BANDWIDTH_CORES_ALL CONFIG_CPUS_ALL

/* bandwidth.max_size = auto: the grid's top per profile (as latency's
   LATENCY_TOP_*), and past it, where that is short of four times the
   largest cache the CPU claims, one point at the first grid size there, so
   memory's bandwidth is measured in every profile; in the quick profile
   only up to BANDWIDTH_MEMORY_CAP_QUICK (a buffer's faulting, checking
   and filling cost grows with it): 2 GiB, four times a 512 MiB claim. At
   1 GiB an Emerald Rapids VM's quick card (a 300 MiB L3 claimed) read no
   memory bandwidth. */
#define BANDWIDTH_TOP_QUICK (8ull << 20)
#define BANDWIDTH_TOP_FULL (512ull << 20)
#define BANDWIDTH_MEMORY_CAP_QUICK (2ull << 30)

struct bandwidth_settings {
	uint64_t min_size;        /* the sweep's smallest working set, bytes */
	uint64_t max_size;        /* the sweep's largest working set, bytes; 0: auto */
	unsigned sets;            /* enum bandwidth_sets */
	unsigned cores;           /* CPUs streaming together, or BANDWIDTH_CORES_ALL */
	unsigned one_core;        /* 1: with cores other than one, one core runs too, first */
};
#define BANDWIDTH_SETTINGS(c) PROBE_SETTINGS(struct bandwidth_settings, c, PROBE_ID_BANDWIDTH)

/* The sweep's sizes: grid indices [first, last] (sweep.h's sweep_bytes)
   and, with max_size = auto, memory's point past them (its grid index; 0:
   none). capped: the point the quick profile's cap left out, bytes (0:
   none). */
struct bandwidth_grid {
	unsigned first, last, memory;
	uint64_t capped;
};

/* The grid of settings s in a profile, with largest the largest data or
   unified cache claimed (bytes; 0: none): the grid from min_size to
   max_size, or with max_size = auto to the profile's BANDWIDTH_TOP_* (at
   least min_size), then memory's point at the first grid size at or past
   4 x largest where the grid stops short of it (BANDWIDTH_MEMORY_CAP_QUICK
   in the quick profile). 0 when no grid size lies in the range. */
int bandwidth_grid_plan(const struct bandwidth_settings *s, enum profile profile,
			uint64_t largest, struct bandwidth_grid *g);

#endif
