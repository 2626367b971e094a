/* arch/string.h for x86-64: the C library's memory primitives for the EFI
 * build (never built for Linux, where libc has them).
 *
 * GCC emits calls to memcpy and memset for large structure copies and
 * clears even in freestanding code. libefi's versions are byte loops, which
 * would make a by-value aggregate look many times dearer than it is on any
 * real system, so the app provides its own with the string instructions
 * (fast on every x86-64 core with ERMSB, and never slower than a byte loop).
 * The app does not call InitializeLib, so libefi's copy (in init.o) is never
 * linked in beside these.
 */

#include "arch/string.h"

void *memcpy(void *dst, const void *src, size_t n)
{
	void *ret = dst;

	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) :: "memory");
	return ret;
}

void *memset(void *dst, int c, size_t n)
{
	void *ret = dst;

	__asm__ volatile("rep stosb" : "+D"(dst), "+c"(n) : "a"(c) : "memory");
	return ret;
}

/* Copies backwards when the destination overlaps the source from above. */
void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}
