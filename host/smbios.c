/* The machine's identity on Linux: the SMBIOS tables the kernel exports
 * (/sys/firmware/dmi/tables, readable by root only) and the first
 * network interface's MAC (/sys/class/net).
 */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/host.h"
#include "lib/smbios.h"
#include "core/platform.h"

/* ---- Constants -------------------------------------------------------- */

#define DMI_DIR "/sys/firmware/dmi/tables"
#define DMI_TABLE DMI_DIR "/DMI"
#define DMI_ENTRY DMI_DIR "/smbios_entry_point"
#define NET_DIR "/sys/class/net"
/* A structure table is at most 64 KiB in 2.x; 3.x allows 4 GiB, which no
   machine comes near. */
#define TABLE_MAX (1u << 20)

/* ---- Private Data ----------------------------------------------------- */

static uint8_t mac[6];
static int mac_state;            /* 1: found, -1: none */

/* ---- Private Functions ------------------------------------------------ */

/* Reads path whole, at most max bytes: the length, or -1 with errno. */
static long read_all(const char *path, uint8_t *buf, size_t max)
{
	FILE *f = fopen(path, "rbe");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, max, f);
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		errno = e ? e : EIO;
		return -1;
	}
	fclose(f);
	return (long)n;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The MAC of one interface; 0 when it has a non-zero one. */
static int interface_mac(const char *name, uint8_t out[6])
{
	char path[300], text[64];
	unsigned v[6];
	int zero = 1;

	snprintf(path, sizeof path, NET_DIR "/%s/address", name);
	if (host_read_text(path, text, sizeof text) != 0 ||
	    sscanf(text, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6)
		return -1;
	for (int i = 0; i < 6; i++) {
		out[i] = (uint8_t)v[i];
		zero &= out[i] == 0;
	}
	return zero ? -1 : 0;
}

/* The first interface in name order that is a device (has a device link:
   not lo, a bridge or a tunnel), else the first with any non-zero MAC. */
static void read_mac(void)
{
	DIR *d = opendir(NET_DIR);
	struct dirent *de;
	char *names[256];
	size_t n = 0;

	mac_state = -1;
	if (!d)
		return;
	while ((de = readdir(d)) && n < sizeof names / sizeof *names)
		if (de->d_name[0] != '.' && strcmp(de->d_name, "lo") != 0)
			names[n++] = strdup(de->d_name);
	closedir(d);
	qsort(names, n, sizeof *names, cmp_names);
	for (int pass = 0; pass < 2 && mac_state < 0; pass++)
		for (size_t i = 0; i < n && mac_state < 0; i++) {
			char path[300];
			if (!names[i])
				continue;
			snprintf(path, sizeof path, NET_DIR "/%s/device", names[i]);
			if (pass == 0 && access(path, F_OK) != 0)
				continue;
			if (interface_mac(names[i], mac) == 0)
				mac_state = 1;
		}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
}

/* ---- Public Functions ------------------------------------------------- */

void plat_smbios_read(struct smbios_info *info)
{
	static uint8_t table[TABLE_MAX];
	uint8_t ep[64];
	struct smbios_entry e;
	char why[160];
	long n, en;

	n = read_all(DMI_TABLE, table, sizeof table);
	if (n < 0) {
		int e = errno;
		snprintf(why, sizeof why, "%s (%s: %s)",
			 e == EACCES || e == EPERM ? "readable by root only: run as root for the "
			 "machine's identity" : e == ENOENT ? "this kernel exports none"
			 : "unreadable", DMI_TABLE, strerror(e));
		smbios_absent(info, DMI_TABLE, why);
		return;
	}
	/* The entry point gives the version (the UUID's byte order depends
	   on it); without it assume 3.0, what every current machine has. */
	en = read_all(DMI_ENTRY, ep, sizeof ep);
	if (en > 0 && smbios_entry_parse(ep, (size_t)en, &e, why, sizeof why) == 0) {
		if (e.table_bytes < n && !e.v3)
			n = e.table_bytes;
		smbios_parse(table, (size_t)n, e.major, e.minor, DMI_TABLE, info);
	} else {
		smbios_parse(table, (size_t)n, 3, 0, DMI_TABLE " (no entry point: read as 3.0)",
			     info);
	}
}

int plat_mac_read(uint8_t out[6])
{
	read_mac();
	if (mac_state > 0)
		memcpy(out, mac, sizeof mac);
	return mac_state > 0;
}
