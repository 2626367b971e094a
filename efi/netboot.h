/* The boot server of a netbooted run: files beside the boot file, read
 * with TFTP through the PXE base code of the NIC that booted the app (the
 * firmware's own stack, as it loaded the app).
 */
#ifndef MEMPROBE_NETBOOT_H
#define MEMPROBE_NETBOOT_H

#include <stddef.h>

enum netboot_read_result {
	NETBOOT_READ_OK,          /* *len bytes in buf */
	NETBOOT_NOT_FOUND,        /* the server has no such file */
	NETBOOT_NO_SERVER,        /* not netbooted, or no boot server known */
	NETBOOT_READ_FAILED,      /* the server has it, and it could not be read */
};

/* Where the file went, for the console, which names where the
   configuration came from or that none was found. */
struct netboot_where {
	char url[200];            /* the tftp:// URL asked; "" with no server */
	char why[160];            /* for every result but NETBOOT_READ_OK */
};

/* The file `name` in the boot file's folder on the boot server, at most
   max bytes (a longer file fails). */
enum netboot_read_result netboot_read(const char *name, char *buf, size_t max, size_t *len,
				      struct netboot_where *w);

#endif
