/* arch/string.h for AArch64: the C library's memory primitives for the EFI
 * build. GCC emits calls to memcpy and memset for large structure copies
 * and clears even in freestanding code, and libefi's versions are byte
 * loops, which would make a by-value aggregate look many times dearer than
 * on any real system. So the bulk moves 16 bytes a step with LDP/STP pairs
 * of general registers (the app's firmware-facing code keeps off the
 * SIMD registers), the tail byte by byte. The loops are written in
 * assembly because GCC turns a C copy loop back into a call to memcpy.
 */

#include "arch/string.h"
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t pairs = n / 16;

	if (pairs) {
		uint64_t a, b;
		__asm__ volatile(
			"1:\n\t"
			"ldp %3, %4, [%1], #16\n\t"
			"stp %3, %4, [%0], #16\n\t"
			"subs %2, %2, #1\n\t"
			"b.ne 1b"
			: "+r"(d), "+r"(s), "+r"(pairs), "=&r"(a), "=&r"(b)
			:: "memory", "cc");
	}
	for (n %= 16; n; n--)
		__asm__ volatile("ldrb w9, [%1], #1\n\tstrb w9, [%0], #1"
				 : "+r"(d), "+r"(s) :: "w9", "memory");
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint64_t v = (uint8_t)c * 0x0101010101010101ull;
	size_t pairs = n / 16;

	if (pairs)
		__asm__ volatile(
			"1:\n\t"
			"stp %2, %2, [%0], #16\n\t"
			"subs %1, %1, #1\n\t"
			"b.ne 1b"
			: "+r"(d), "+r"(pairs) : "r"(v) : "memory", "cc");
	for (n %= 16; n; n--)
		__asm__ volatile("strb %w1, [%0], #1" : "+r"(d) : "r"(v) : "memory");
	return dst;
}

/* Copies backwards when the destination overlaps the source from above. */
void *memmove(void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d <= (uintptr_t)s || (uintptr_t)d >= (uintptr_t)(s + n))
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const volatile unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}
