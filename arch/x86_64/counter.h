/* x86-64's counter_read (arch/counter.h): the TSC, LFENCE-ordered. */
#ifndef MEMPROBE_X86_64_COUNTER_H
#define MEMPROBE_X86_64_COUNTER_H

#include "arch/x86_64/cpu.h"

static inline uint64_t counter_read(void) { return rdtsc_ordered(); }

#endif
