/* upload.url on bare metal: not in this build (docs/BUILD.md, "Results
 * over the network"). Said plainly at start-up; the run goes on with the
 * volume and the console.
 */

#include "lib/fmt.h"
#include "probes/platform.h"

int plat_upload_open(const char *url, char *why, size_t why_size)
{
	mp_snprintf(why, why_size, "upload.url %s: the EFI app has no network upload yet "
		    "(the Linux build has; docs/BUILD.md, \"Results over the network\")", url);
	return -1;
}

void plat_upload_run_name(char *buf, size_t size)
{
	mp_strlcpy(buf, "run", size);
}

int plat_upload_put(const char *file_url, const char *name, char *why, size_t why_size)
{
	(void)file_url;
	(void)name;
	mp_strlcpy(why, "no network upload in the EFI app", why_size);
	return -1;
}
