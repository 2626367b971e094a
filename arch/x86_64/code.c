/* arch/cpu.h's code-written-at-run-time part for x86-64: the instruction
 * set's name, and nothing to do after writing code, since x86-64's
 * instruction fetch follows stores to code on the same core (the jump
 * into the new code is enough to order them).
 */

#include "arch/cpu.h"

unsigned cpu_isa(void)
{
	return MACHINE_ISA_X86_64;
}

void cpu_code_written(void *base, size_t bytes)
{
	(void)base;
	(void)bytes;
}
