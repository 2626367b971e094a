/* Each exception raised by the instruction that architecturally causes it,
 * in assembly so no compiler can decide the faulting line is undefined
 * behaviour and remove it.
 */

#include "arch/x86_64/raise.h"
#include <stdint.h>

void raise_exception(unsigned vector)
{
	uint64_t scratch = 0;

	switch (vector) {
	case 0:
		__asm__ volatile("xor %%edx, %%edx\n\txor %%ecx, %%ecx\n\tmov $1, %%eax\n\tdiv %%ecx"
				 ::: "rax", "rcx", "rdx");
		break;
	case 6:
		__asm__ volatile("ud2");
		break;
	case 13:
		/* A non-canonical address faults with #GP, never #PF. */
		__asm__ volatile("movabs $0x8000000000000000, %%rax\n\tmov (%%rax), %0"
				 : "=r"(scratch) :: "rax");
		break;
	case 14:
		__asm__ volatile("mov (%1), %0" : "=r"(scratch) : "r"(RAISE_UNMAPPED_ADDRESS));
		break;
	case 8:
		/* A push onto an unmapped stack raises #PF, whose delivery pushes
		   onto the same stack and faults again: a real double fault,
		   which reaches its handler only on an IST stack of its own. */
		__asm__ volatile("mov %%rsp, %%rbx\n\t"
				 "mov %0, %%rsp\n\t"
				 "push %%rax\n\t"
				 "mov %%rbx, %%rsp"
				 :: "r"(RAISE_UNMAPPED_ADDRESS + RAISE_STACK_OFFSET) : "rbx", "memory");
		break;
	case 18:
		/* No instruction causes a machine check; INT 18 enters its gate
		   (#MC pushes no error code, so the frame is a real one's). */
		__asm__ volatile("int $18");
		break;
	}
	(void)scratch;
}
