/* A file a test wrote (through the code under test) read back whole into
 * buf, NUL-terminated; what does not fit is left out. An unreadable file
 * reads as "". Returns the bytes read.
 */
#ifndef MEMPROBE_TEST_READ_BACK_H
#define MEMPROBE_TEST_READ_BACK_H

#include <stdio.h>

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

#endif
