/* arch/cpu.h's cache-maintenance part for x86-64: the instruction set's
 * name; nothing to do after writing code, since x86-64's instruction fetch
 * follows stores to code on the same core (the jump into the new code is
 * enough to order them); and data lines flushed from every cache.
 */

#include "arch/cpu.h"
#include "arch/x86_64/cpu.h"

unsigned cpu_isa(void)
{
	return MACHINE_ISA_X86_64;
}

void cpu_code_written(void *base, size_t bytes)
{
	(void)base;
	(void)bytes;
}

/* CLFLUSH, not CLFLUSHOPT: every x86-64 CPU has it, and MFENCE orders it
   (the SDM: CLFLUSH is ordered by MFENCE, and by later loads only after
   it). A zero line size in CPUID (an emulator's) is read as 64 bytes. */
void cpu_data_flush(void *base, size_t bytes)
{
	uint64_t line = ((cpuid(1, 0).ebx >> 8) & 0xff) * 8;
	uintptr_t a = (uintptr_t)base, end = a + bytes;

	if (!line)
		line = 64;
	for (a &= ~(uintptr_t)(line - 1); a < end; a += line)
		__asm__ volatile("clflush (%0)" : : "r"(a) : "memory");
	__asm__ volatile("mfence" : : : "memory");
}
