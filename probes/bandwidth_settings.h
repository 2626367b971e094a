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

struct bandwidth_settings {
	uint64_t min_size;        /* the sweep's smallest working set, bytes */
	uint64_t max_size;        /* the sweep's largest working set, bytes */
	unsigned sets;            /* enum bandwidth_sets */
	unsigned cores;           /* CPUs streaming together, or BANDWIDTH_CORES_ALL */
};
#define BANDWIDTH_SETTINGS(c) PROBE_SETTINGS(struct bandwidth_settings, c, PROBE_ID_BANDWIDTH)

#endif
