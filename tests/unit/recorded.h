/* A recorded run (tests/data) read back for the tests that read it again:
 * its results.csv rows through a callback, and its CPU claims from a
 * system.json-shaped file.
 */
#ifndef MEMPROBE_TEST_RECORDED_H
#define MEMPROBE_TEST_RECORDED_H

#include "read_back.h"
#include "desk/analyze.h"
#include "lib/machine.h"
#include "results/csvread.h"

/* path's rows, each to take(row, ctx): 0 when the file read back. */
static inline int read_rows(const char *path, void (*take)(const struct result_row *, void *),
			    void *ctx)
{
	struct csv_summary sum;
	size_t len;
	char *text = read_all(path, &len);
	int rc = text && results_csv_read(text, len, take, ctx, &sum) == 0 ? 0 : -1;

	free(text);
	return rc;
}

/* path's claims into *c: 0 when they read back, -1 otherwise. */
static inline int read_claims(const char *path, struct cache_claims *c)
{
	size_t len;
	char *text = read_all(path, &len);
	int rc = text && claims_from_system_json(text, len, c) == 0 ? 0 : -1;

	free(text);
	return rc;
}

#endif
