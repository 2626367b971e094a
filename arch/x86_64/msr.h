/* MSR reads and writes under a platform's guard (arch/cpu.h's
 * arch_guarded_fn): an MSR may be absent on a CPU or under a hypervisor,
 * and the #GP that raises would hang the firmware's own handler. */
#ifndef MEMPROBE_X86_64_MSR_H
#define MEMPROBE_X86_64_MSR_H

#include <stdint.h>
#include "arch/cpu.h"

/* 0 and *value, or -1 when reading the MSR raised #GP. */
int msr_read_guarded(arch_guarded_fn run, uint32_t msr, uint64_t *value);
/* 0, or -1 when writing the MSR raised #GP. */
int msr_write_guarded(arch_guarded_fn run, uint32_t msr, uint64_t value);

#endif
