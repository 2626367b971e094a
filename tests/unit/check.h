/* A minimal test harness for the host unit tests.
 *
 * Each CHECK prints "ok - <what>" or "FAIL - <what> (file:line)" and counts;
 * check_summary() prints "N passed, N failed" and gives main's exit status.
 * tests/run adds the counts of every binary into the closing line.
 */
#ifndef MEMPROBE_CHECK_H
#define MEMPROBE_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...) do {                                           \
	if (cond) {                                                     \
		check_passed++;                                         \
		printf("ok - ");                                        \
	} else {                                                        \
		check_failed++;                                         \
		printf("FAIL - (%s:%d: %s) ", __FILE__, __LINE__, #cond); \
	}                                                               \
	printf(__VA_ARGS__);                                            \
	printf("\n");                                                   \
} while (0)

static inline int check_summary(void)
{
	printf("%d passed, %d failed\n", check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
