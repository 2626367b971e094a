/* Whether the wide vector state can be turned on for timed sections
 * (efi/stream.c tries it once, under the fault guard; efi/timed.c asks).
 */
#ifndef MEMPROBE_EFI_STREAM_H
#define MEMPROBE_EFI_STREAM_H

/* 1 when stream_state_enable (arch/stream.h) ran without a fault. */
int stream_state_works(void);

#endif
