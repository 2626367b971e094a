/* The settings of the c2c probe (c2c.c, c2c_chart.c): its keys' values, in
 * its block of struct config (core/config.h), read through
 * C2C_SETTINGS(c). Its keys, their ranges and defaults are its registry
 * row's.
 */
#ifndef MEMPROBE_C2C_SETTINGS_H
#define MEMPROBE_C2C_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

struct c2c_settings {
	uint64_t cpus[CONFIG_CPU_WORDS]; /* the CPUs whose pairs are measured */
	unsigned test_late;       /* test-only: this CPU's role overruns the deadline
				     (0: none) */
};
#define C2C_SETTINGS(c) PROBE_SETTINGS(struct c2c_settings, c, PROBE_ID_C2C)

#endif
