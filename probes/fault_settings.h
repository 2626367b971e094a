/* The settings of the test-only fault probe (fault.c): its keys' values, in its block
 * of struct config (probes/config.h), read through FAULT_SETTINGS(c). Its keys,
 * their ranges and defaults are its registry row's.
 */
#ifndef MEMPROBE_FAULT_SETTINGS_H
#define MEMPROBE_FAULT_SETTINGS_H

#include <stdint.h>
#include "probes/config.h"

struct fault_settings {
	unsigned vector;          /* which exception to raise */
	unsigned cpu;             /* on which logical CPU (0: in a timed section on the
				     boot CPU; else in that CPU's role) */
};
#define FAULT_SETTINGS(c) PROBE_SETTINGS(struct fault_settings, c, PROBE_ID_FAULT)

#endif
