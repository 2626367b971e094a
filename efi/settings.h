/* The configuration of this run: \EFI\BOOT\memprobe.cfg beside the app,
 * then the load options, which override it (docs/CONFIG.md). */
#ifndef MEMPROBE_SETTINGS_H
#define MEMPROBE_SETTINGS_H

#include "core/config.h"

/* 0, or -1 with the error printed: the run must not start. */
int settings_load(struct config *c);

#endif
