/* upload.url on Linux: the platform's side of results/upload.c, over
 * host_http_put. Only http:// here: the TFTP write is the firmware's
 * (a site with only TFTP gets its files from the EFI app, or copies the
 * run folder itself).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "host/host.h"
#include "lib/url.h"
#include "core/platform.h"
#include "results/upload.h"

/* ---- Constants -------------------------------------------------------- */

/* A whole request (connect, send, answer, and the MKCOLs and second PUT
   of a missing collection) ends within this, however slow the server. */
#define REQUEST_MS 10000u
/* All of a run's requests together wait at most this long: a server that
   stalls delays the run's end by no more (docs/OUTPUT.md, "Upload"). */
#define UPLOAD_BUDGET_MS 20000u

/* ---- Private Data ----------------------------------------------------- */

static uint64_t budget_spent_ms;   /* this run's requests so far */

/* ---- Public Functions ------------------------------------------------- */

int plat_upload_open(const char *url, char *why, size_t why_size)
{
	(void)url;
	if (!host_run_folder_path()) {
		snprintf(why, why_size, "no run folder to send from (%s)", plat_run_folder());
		return -1;
	}
	budget_spent_ms = 0;
	return 0;
}

/* run-<UTC stamp>-<run folder's number>-<8 random hex digits>: the stamp
   has one-second resolution, and two runs of one machine in the same
   second, into two --out folders or one, must not share a server folder;
   the random part tells them apart where the number may not. */
void plat_upload_run_name(char *buf, size_t size)
{
	time_t now = time(NULL);
	const char *folder = host_run_folder_path(), *slash;
	char stamp[32] = "run";
	uint32_t random = 0;
	struct tm t;

	if (getrandom(&random, sizeof random, GRND_NONBLOCK) != (ssize_t)sizeof random)
		random = (uint32_t)getpid() * 2654435761u ^ (uint32_t)plat_elapsed_ms();
	if (now != (time_t)-1 && gmtime_r(&now, &t))
		strftime(stamp, sizeof stamp, "run-%Y%m%dT%H%M%SZ", &t);
	slash = folder ? strrchr(folder, '/') : NULL;
	snprintf(buf, size, "%s-%s-%08x", stamp, slash && !strncmp(slash + 1, "run-", 4) ?
		 slash + 5 : "0", (unsigned)random);
}

int plat_upload_put(const char *file_url, const char *name, char *why, size_t why_size)
{
	const char *folder = host_run_folder_path(), *err;
	char path[4096];
	uint64_t start, left;
	struct url u;
	size_t len;
	char *data;
	int rc;

	if (url_parse(file_url, &u, why, why_size) != 0)
		return -1;
	if (!folder) {
		snprintf(why, why_size, "no run folder");
		return -1;
	}
	snprintf(path, sizeof path, "%s/%s", folder, name);
	data = host_slurp(path, &len, &err);
	if (!data) {
		if (errno == ENOENT)
			return 1;
		snprintf(why, why_size, "reading %s: %s", path, err);
		return -1;
	}
	start = plat_elapsed_ms();
	left = UPLOAD_BUDGET_MS - budget_spent_ms;
	if (!left) {
		snprintf(why, why_size, "not tried: the upload's %u s for the whole run are spent",
			 UPLOAD_BUDGET_MS / 1000);
		free(data);
		return -1;
	}
	rc = host_http_put(u.host, u.port, u.path, data, len,
			   start + (left < REQUEST_MS ? left : REQUEST_MS), upload_cut_short, why,
			   why_size);
	free(data);
	budget_spent_ms += plat_elapsed_ms() - start;
	if (budget_spent_ms > UPLOAD_BUDGET_MS)
		budget_spent_ms = UPLOAD_BUDGET_MS;
	return rc;
}
