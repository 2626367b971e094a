/* NMIs and SMIs on bare metal (core/platform.h's plat_disturbances).
 * Inside timed sections the guard's own NMI vector counts them; outside,
 * the firmware's exception handler would print a register dump and stop
 * the machine on the first NMI, so the app registers an NMI handler of its
 * own with the firmware's CPU architectural protocol for as long as it
 * runs. SMIs are counted where the CPU counts them (arch/disturb.h).
 */
#ifndef MEMPROBE_EFI_DISTURB_H
#define MEMPROBE_EFI_DISTURB_H

/* Registers the NMI handler (when the firmware has the protocol) and asks
   the CPU whether it counts SMIs. Needs fw_init. */
void disturb_init(void);
/* Unregisters the NMI handler: the app's code must not stay behind as a
   handler once control returns to the firmware. */
void disturb_release(void);

#endif
