/* The settings of the cost probe (cost.c): its keys' values, in its block
 * of struct config (core/config.h), read through COST_SETTINGS(c). Its
 * keys, their ranges and defaults are its registry row's.
 */
#ifndef MEMPROBE_COST_SETTINGS_H
#define MEMPROBE_COST_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

struct cost_settings {
	uint64_t reps;            /* calls per trial */
	unsigned trials;          /* 0: the shared stop rule; else a fixed count */
};
#define COST_SETTINGS(c) PROBE_SETTINGS(struct cost_settings, c, PROBE_ID_COST)

#endif
