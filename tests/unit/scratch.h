/* A test's scratch folder under /tmp removed with everything in it when the
 * test ends. Removing only the files a test reads leaves the rest (an
 * analyze run's report.html and charts, a run folder's files) and the folder
 * with them: one more folder in /tmp at every `make test`.
 */
#ifndef MEMPROBE_TEST_SCRATCH_H
#define MEMPROBE_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* dir and all it holds, checked: a path outside /tmp/memprobe-test- or
   /tmp/memprobe-analyze- is refused, so a bad argument removes nothing. */
static inline void scratch_remove(const char *dir)
{
	char cmd[600];

	if ((strncmp(dir, "/tmp/memprobe-test-", 19) && strncmp(dir, "/tmp/memprobe-analyze-", 22)) ||
	    strchr(dir, '\'')) {
		CHECK(0, "scratch folder %s refused: not a test's own", dir);
		return;
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0, "%s removed with all it held", dir);
}

#endif
