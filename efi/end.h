/* How a run ends: power off (QEMU's default), reboot, return to the firmware,
 * or wait for a key and then return (hardware's default). The verdict goes
 * to QEMU's isa-debug-exit port first, so a harness reads it as QEMU's exit
 * status; on hardware that port is never written.
 */
#ifndef MEMPROBE_END_H
#define MEMPROBE_END_H

#include <efi.h>
#include "core/config.h"

/* "No end key was given": off under QEMU, wait on hardware. */
#define END_DEFAULT ((enum end_action)-1)

EFI_STATUS end_run(enum end_action action, int ok);

/* 1 when this boot follows memprobe's own end=reboot: the mark is cleared
   and the caller must return to the firmware without running. */
int end_after_own_reboot(void);

#endif
