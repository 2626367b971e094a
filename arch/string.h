/* The C library's memory primitives for the bare-metal build, which links
 * no libc: each architecture provides them in arch/NAME/string.c with its
 * fastest simple form (x86: the string instructions). GCC emits calls to
 * memcpy and memset for large structure copies and clears, so their speed
 * shows in the figures. Not built for Linux, where libc has them.
 */
#ifndef MEMPROBE_ARCH_STRING_H
#define MEMPROBE_ARCH_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#endif
