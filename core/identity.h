/* The machine's identity, read from the platform once and kept for the
 * run: system.json's `machine`, the card's machine line and the upload's
 * machine id all read the same tables.
 */
#ifndef MEMPROBE_CORE_IDENTITY_H
#define MEMPROBE_CORE_IDENTITY_H

#include <stdint.h>
#include "lib/smbios.h"

/* The SMBIOS tables as the platform read them at the first call (not
   present says why); never NULL. */
const struct smbios_info *identity_smbios(void);

/* The first NIC's MAC as the platform found it at the first call; NULL
   when none is known. */
const uint8_t *identity_mac(void);

#endif
