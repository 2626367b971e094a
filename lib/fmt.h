/* Formatting and string helpers, freestanding, shared by both platforms so
 * the EFI app and the Linux build print byte-identical text.
 *
 * mp_vsnprintf understands: %d %i %u %x %X %c %s %% %p, the length modifiers
 * l, ll, z, width, '-' and '0' flags, and %f / %e / %g with a precision.
 * It always NUL-terminates (when size > 0) and returns the length the full
 * text would have had, as C99 snprintf does, so truncation is detectable.
 */
#ifndef MEMPROBE_FMT_H
#define MEMPROBE_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

int mp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int mp_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

size_t mp_strlen(const char *s);
int mp_strcmp(const char *a, const char *b);
int mp_strncmp(const char *a, const char *b, size_t n);
/* Copies at most size-1 bytes and terminates; returns mp_strlen(src). */
size_t mp_strlcpy(char *dst, const char *src, size_t size);
void *mp_memset(void *dst, int c, size_t n);
void *mp_memcpy(void *dst, const void *src, size_t n);
/* A hex digit's value (0-9, a-f, A-F), or -1 for any other character. */
int mp_hex_value(char c);

/* "4 KiB", "2 MiB", "1.5 GiB": a byte count in the largest binary unit that
   keeps it readable. */
void mp_format_bytes(char *buf, size_t size, uint64_t bytes);
/* The same without the blank and the "iB": "4K", "2M", "1.5G", for a
   narrow column or a crowded line. */
void mp_format_bytes_short(char *buf, size_t size, uint64_t bytes);

/* Text built piece by piece in a caller's buffer. len counts what was
   asked for, as mp_snprintf's return does, so len >= size means it was
   cut; the buffer stays terminated. */
struct mp_text {
	char *buf;
	size_t size, len;
};
void mp_append(struct mp_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Text handed on a piece at a time (the report, a file, a test's buffer).
   mp_print formats one piece of at most MP_PRINT_MAX - 1 characters. */
#define MP_PRINT_MAX 512
struct mp_printer {
	void (*print)(void *ctx, const char *text);
	void *ctx;
};
void mp_print(const struct mp_printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
