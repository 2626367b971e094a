/* Files read back whole by the tests: one a test wrote (through the code
 * under test) into the caller's buf, and a recorded one (tests/data) into
 * memory of its own.
 */
#ifndef MEMPROBE_TEST_READ_BACK_H
#define MEMPROBE_TEST_READ_BACK_H

#include <stdio.h>
#include <stdlib.h>

/* path into buf, NUL-terminated; what does not fit is left out. An
   unreadable file reads as "". Returns the bytes read. */
static inline size_t read_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return n;
}

/* A recorded file (tests/data) whole, NUL-terminated, in 1 MiB the
   caller frees; NULL when it cannot be opened. */
static inline char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text;

	if (!f)
		return 0;
	text = malloc(1 << 20);
	*len = fread(text, 1, (1 << 20) - 1, f);
	text[*len] = 0;
	fclose(f);
	return text;
}

#endif
