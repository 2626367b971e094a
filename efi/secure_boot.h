/* Secure Boot as the firmware reports it, for the banner and system.json:
 * the UEFI global variables SecureBoot (1: every image the firmware loads
 * is verified against db/dbx) and SetupMode (1: no platform key is
 * enrolled, so nothing is enforced whatever SecureBoot says).
 */
#ifndef MEMPROBE_SECURE_BOOT_H
#define MEMPROBE_SECURE_BOOT_H

#include <stddef.h>

struct secure_boot {
	int enforced;             /* SecureBoot == 1 and SetupMode == 0 */
	int secure_boot;          /* the SecureBoot variable's value; 0 when absent */
	int setup_mode;           /* the SetupMode variable's value; 0 when absent */
	int variable_present;     /* 0: firmware without Secure Boot support */
};

/* Both variables, read on the first call (the banner's) and kept: the
   state cannot change while the app runs. */
const struct secure_boot *secure_boot_state(void);

/* "on", "off", "off (setup mode: no platform key enrolled)" or "not
   supported by this firmware (no SecureBoot variable)". */
const char *secure_boot_words(const struct secure_boot *sb);

#endif
