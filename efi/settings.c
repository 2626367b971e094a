/* Reading the configuration sources on the boot volume. */

#include "efi/settings.h"
#include "efi/volume.h"
#include "lib/fmt.h"
#include "probes/platform.h"
#include "probes/results.h"

#define CONFIG_NAME "memprobe.cfg"
#define CONFIG_MAX 16384

static char file_text[CONFIG_MAX];
static char file_name[300];

int settings_load(struct config *c)
{
	struct config_source src[3];
	struct config_error err;
	CHAR16 path[300];
	size_t len = 0;
	int n = 0, rc;
	char line[400];

	size_t dir_len = mp_strlen(volume_app_dir());

	mp_snprintf(file_name, sizeof file_name, "%s%s%s", volume_app_dir(),
		    dir_len && volume_app_dir()[dir_len - 1] == '\\' ? "" : "\\", CONFIG_NAME);
	volume_wide(path, 300, file_name);
	rc = volume_root() ? volume_read(path, file_text, sizeof file_text, &len) : 1;
	if (rc < 0) {
		mp_snprintf(line, sizeof line, "memprobe: configuration %s: %s\n", file_name,
			    volume_error());
		plat_console(line);
		return -1;
	}
	/* A stick booted with no configuration measures properly: the full
	   profile unless a source says otherwise (`make run` says quick). */
	src[n++] = (struct config_source){ "built-in default", "profile=full",
					   sizeof "profile=full" - 1, 1 };
	if (rc == 0)
		src[n++] = (struct config_source){ file_name, file_text, len, 0 };
	if (volume_load_options()[0])
		src[n++] = (struct config_source){ "load options", volume_load_options(),
						   mp_strlen(volume_load_options()), 1 };
	report_printf("configuration: %s%s%s\n",
		    rc == 0 ? file_name : "no file (" CONFIG_NAME " absent)",
		    volume_load_options()[0] ? ", load options: " : ", no load options",
		    volume_load_options());
	if (config_load(c, src, n, &err)) {
		mp_snprintf(line, sizeof line, "memprobe: configuration error: %s\n"
			    "memprobe: the run does not start\n", err.text);
		plat_console(line);
		return -1;
	}
	return 0;
}
