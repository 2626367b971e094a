/* arch/cpu.h's cache-maintenance part for AArch64: the instruction set's
 * name, the maintenance the architecture asks for before freshly written
 * code runs, and data lines flushed from every cache. Its instruction
 * cache does not follow the data cache: skipped, a core runs the bytes
 * that were there before (or garbage) and the probe measures something
 * else silently.
 */

#include "arch/cpu.h"

/* ---- Private Functions ------------------------------------------------ */

/* The smallest data and instruction cache lines, from CTR_EL0's DminLine
   [19:16] and IminLine [3:0] (log2 of the line in 4-byte words). */
static void cache_lines(uint64_t *dline, uint64_t *iline)
{
	uint64_t ctr;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	*dline = 4ull << ((ctr >> 16) & 0xf);
	*iline = 4ull << (ctr & 0xf);
}

/* ---- Public Functions ------------------------------------------------- */

unsigned cpu_isa(void)
{
	return MACHINE_ISA_AARCH64;
}

void cpu_code_written(void *base, size_t bytes)
{
	uint64_t dline, iline, start = (uint64_t)(uintptr_t)base, end = start + bytes, a;

	cache_lines(&dline, &iline);
	for (a = start & ~(dline - 1); a < end; a += dline)
		__asm__ volatile("dc cvau, %0" : : "r"(a) : "memory");
	__asm__ volatile("dsb ish" : : : "memory");
	for (a = start & ~(iline - 1); a < end; a += iline)
		__asm__ volatile("ic ivau, %0" : : "r"(a) : "memory");
	__asm__ volatile("dsb ish\n\tisb" : : : "memory");
}

/* To the point of coherency (CIVAC): past every cache of every core. */
void cpu_data_flush(void *base, size_t bytes)
{
	uint64_t dline, iline, start = (uint64_t)(uintptr_t)base, end = start + bytes, a;

	cache_lines(&dline, &iline);
	for (a = start & ~(dline - 1); a < end; a += dline)
		__asm__ volatile("dc civac, %0" : : "r"(a) : "memory");
	__asm__ volatile("dsb sy" : : : "memory");
}
