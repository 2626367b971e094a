/* AArch64's counter_read (arch/counter.h): the generic timer's virtual
 * count, CNTVCT_EL0. The ISB before it keeps the read from being taken
 * early, ahead of the loads it is meant to close: the counter read is not
 * ordered against them otherwise (ARM ARM, "Reading the generic timer").
 */
#ifndef MEMPROBE_AARCH64_COUNTER_H
#define MEMPROBE_AARCH64_COUNTER_H

#include <stdint.h>

static inline uint64_t counter_read(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

#endif
