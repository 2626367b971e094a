/* Reading the configuration sources: the file from the boot volume, or
 * from the boot server when there is no volume (a netbooted run), then
 * the load options. */

#include "efi/settings.h"
#include "efi/netboot.h"
#include "efi/volume.h"
#include "lib/fmt.h"
#include "core/platform.h"
#include "results/results.h"

#define CONFIG_NAME "memprobe.cfg"
#define CONFIG_MAX 16384

/* The app to the configuration: bare metal, which runs every key, with
   the architecture's page sizes. */
static const struct config_platform bare_metal = { 1, plat_page_size_architected };

static char file_text[CONFIG_MAX];
static char file_name[300];
/* Where the file was looked for, when it was not found or not read. */
static char file_absent[400];

/* \EFI\BOOT\memprobe.cfg beside the app on the boot volume: 0 read, 1
   absent, -1 failed (said on the console). */
static int from_volume(size_t *len)
{
	size_t dir_len = mp_strlen(volume_app_dir());
	CHAR16 path[300];
	char line[400];
	int rc;

	mp_snprintf(file_name, sizeof file_name, "%s%s%s", volume_app_dir(),
		    dir_len && volume_app_dir()[dir_len - 1] == '\\' ? "" : "\\", CONFIG_NAME);
	volume_wide(path, 300, file_name);
	rc = volume_read(path, file_text, sizeof file_text, len);
	if (rc < 0) {
		mp_snprintf(line, sizeof line, "memprobe: configuration %s: %s\n", file_name,
			    volume_error());
		plat_console(line);
	}
	mp_snprintf(file_absent, sizeof file_absent, "%s absent", file_name);
	return rc;
}

/* memprobe.cfg beside the boot file on the boot server (no volume: a
   netbooted run): 0 read, 1 none found or no server (file_absent says
   which), -1 failed (said on the console). A machine booted with neither
   runs on its defaults, and says so. */
static int from_server(size_t *len)
{
	struct netboot_where w;
	char line[500];

	switch (netboot_read(CONFIG_NAME, file_text, sizeof file_text, len, &w)) {
	case NETBOOT_READ_OK:
		mp_snprintf(file_name, sizeof file_name, "%s (from the boot server, by the PXE "
			    "base code's TFTP)", w.url);
		return 0;
	case NETBOOT_NOT_FOUND:
		mp_snprintf(file_absent, sizeof file_absent, "none found on the boot server: %s: %s",
			    w.url, w.why);
		return 1;
	case NETBOOT_NO_SERVER:
		mp_snprintf(file_absent, sizeof file_absent, "no boot volume, and no boot server "
			    "to ask: %s", w.why);
		return 1;
	default:
		mp_snprintf(line, sizeof line, "memprobe: configuration %s: %s\n", w.url, w.why);
		plat_console(line);
		return -1;
	}
}

int settings_load(struct config *c)
{
	struct config_source src[3];
	struct config_error err;
	size_t len = 0;
	int n = 0, rc;
	char line[400];

	rc = volume_root() ? from_volume(&len) : from_server(&len);
	if (rc < 0)
		return -1;
	/* A stick booted with no configuration measures properly: the full
	   profile unless a source says otherwise (`make run` says quick). */
	src[n++] = (struct config_source){ "built-in default", "profile=full",
					   sizeof "profile=full" - 1, 1 };
	if (rc == 0)
		src[n++] = (struct config_source){ file_name, file_text, len, 0 };
	if (volume_load_options()[0])
		src[n++] = (struct config_source){ "load options", volume_load_options(),
						   mp_strlen(volume_load_options()), 1 };
	report_printf("configuration: %s%s%s%s%s\n", rc == 0 ? file_name : "no file (",
		      rc == 0 ? "" : file_absent, rc == 0 ? "" : ")",
		      volume_load_options()[0] ? ", load options: " : ", no load options",
		      volume_load_options());
	if (rc == 0 && config_text_bom(file_text, len))
		report_printf("configuration: note: %s starts with a UTF-8 byte-order mark "
			      "(a Windows editor's), which is skipped\n", file_name);
	if (config_load(c, src, n, &bare_metal, &err)) {
		mp_snprintf(line, sizeof line, "memprobe: configuration error: %s\n"
			    "memprobe: the run does not start\n", err.text);
		plat_console(line);
		return -1;
	}
	return 0;
}
