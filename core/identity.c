/* The machine's identity, read once (contract in identity.h): each
 * platform only reads (plat_smbios_read, plat_mac_read); keeping what it
 * read is done here once for both.
 */

#include "core/identity.h"
#include "core/platform.h"

/* ---- Private Data ----------------------------------------------------- */

/* Static: the EFI app has no heap to spare, and the tables are read once. */
static struct smbios_info info;
static int info_read;
static uint8_t mac[6];
static int mac_state;            /* 0: not read, 1: found, -1: none */

/* ---- Public Functions ------------------------------------------------- */

const struct smbios_info *identity_smbios(void)
{
	if (!info_read) {
		plat_smbios_read(&info);
		info_read = 1;
	}
	return &info;
}

const uint8_t *identity_mac(void)
{
	if (!mac_state)
		mac_state = plat_mac_read(mac) ? 1 : -1;
	return mac_state > 0 ? mac : 0;
}
