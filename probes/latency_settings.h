/* The settings of the latency probe (latency.c): its keys' values, in its
 * block of struct config (core/config.h), read through
 * LATENCY_SETTINGS(c). Its keys, their ranges and defaults are its
 * registry row's.
 */
#ifndef MEMPROBE_LATENCY_SETTINGS_H
#define MEMPROBE_LATENCY_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

/* max_size = auto: the latency sweep's top is the larger of this (per
   profile) and four times the largest cache the CPU claims, so the last
   cache's edge has a plateau of memory past it; capped by
   latency.max_buffer and by memory. Without a claim it is this. */
#define LATENCY_TOP_QUICK (8ull << 20)
#define LATENCY_TOP_FULL (512ull << 20)

struct latency_settings {
	uint64_t max_buffer;      /* the largest buffer of any page size, bytes: the
				     sweep stops within it */
};
#define LATENCY_SETTINGS(c) PROBE_SETTINGS(struct latency_settings, c, PROBE_ID_LATENCY)

#endif
