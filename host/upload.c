/* upload.url on Linux: the platform's side of results/upload.c, over
 * host_http_put. Only http:// here: the TFTP write is the firmware's
 * (a site with only TFTP gets its files from the EFI app, or copies the
 * run folder itself).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/host.h"
#include "lib/url.h"
#include "core/platform.h"

/* ---- Constants -------------------------------------------------------- */

#define STEP_TIMEOUT_MS 10000

/* ---- Public Functions ------------------------------------------------- */

int plat_upload_open(const char *url, char *why, size_t why_size)
{
	struct url u;
	char text[160];

	if (url_parse(url, &u, text, sizeof text) != 0) {
		snprintf(why, why_size, "upload.url %s: %s", url, text);
		return -1;
	}
	if (strcmp(u.scheme, "http") != 0) {
		snprintf(why, why_size, "upload.url %s: the Linux build sends with HTTP PUT only "
			 "(tftp:// is for the EFI app)", url);
		return -1;
	}
	if (!host_run_folder_path()) {
		snprintf(why, why_size, "no run folder to send from (%s)", plat_run_folder());
		return -1;
	}
	return 0;
}

void plat_upload_run_name(char *buf, size_t size)
{
	time_t now = time(NULL);
	const char *folder = host_run_folder_path(), *slash;
	struct tm t;

	if (now != (time_t)-1 && gmtime_r(&now, &t) &&
	    strftime(buf, size, "run-%Y%m%dT%H%M%SZ", &t))
		return;
	slash = folder ? strrchr(folder, '/') : NULL;
	snprintf(buf, size, "%s", slash ? slash + 1 : "run");
}

int plat_upload_put(const char *file_url, const char *name, char *why, size_t why_size)
{
	const char *folder = host_run_folder_path(), *err;
	char path[4096];
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
	rc = host_http_put(u.host, u.port, u.path, data, len, STEP_TIMEOUT_MS, why, why_size);
	free(data);
	return rc;
}
