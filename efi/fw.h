/* The firmware as the app found it: system table, boot services, the image,
 * and facts about where we run (QEMU or hardware) that decide the end action
 * and whether the QEMU-only debug ports may be touched.
 */
#ifndef MEMPROBE_FW_H
#define MEMPROBE_FW_H

#include <stddef.h>
#include <efi.h>
#include "arch/cpu.h"

extern EFI_SYSTEM_TABLE *fw_st;
extern EFI_BOOT_SERVICES *fw_bs;
extern EFI_RUNTIME_SERVICES *fw_rt;
extern EFI_HANDLE fw_image;

/* 1 under QEMU with OVMF: CPUID names QEMU's TCG or KVM and the firmware
   vendor is EDK II. Only then are the debugcon (0x402) and isa-debug-exit
   (0xf4) ports written: on hardware those ports may belong to a device. */
extern int fw_under_qemu;

/* What CPUID says of this CPU, read once by fw_init: it cannot change. */
extern struct cpuinfo fw_cpu;

void fw_init(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

/* "EFI_WRITE_PROTECTED" and friends, for messages a person reads. */
const char *fw_status_text(EFI_STATUS s);

/* CHAR16 firmware strings as ASCII ('?' for the rest). */
void fw_ascii(char *dst, size_t size, const CHAR16 *src);

#endif
