/* The settings of the test-only fault probe (fault.c): its keys' values,
 * in its block of struct config (core/config.h), read through
 * FAULT_SETTINGS(c). Its keys, their ranges and defaults are its registry
 * row's.
 */
#ifndef MEMPROBE_FAULT_SETTINGS_H
#define MEMPROBE_FAULT_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

/* fault.vector's AArch64 exception classes are stored this far above their
   number, so that x86's #DE (0) and AArch64's undef (EC 0) are two values
   that each describe back as their own word; FAULT_VECTOR_NUMBER is the
   number the machine raises. */
#define FAULT_VECTOR_AARCH64 0x100u
#define FAULT_VECTOR_NUMBER(v) ((v) & 0xffu)

struct fault_settings {
	unsigned vector;          /* which exception to raise */
	unsigned cpu;             /* on which logical CPU (0: in a timed section on the
				     boot CPU; else in that CPU's role) */
};
#define FAULT_SETTINGS(c) PROBE_SETTINGS(struct fault_settings, c, PROBE_ID_FAULT)

#endif
