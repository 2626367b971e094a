/* The channel a QEMU harness (scripts/qemu-run.sh) reads beside the
 * firmware console: a clean copy of the app's console text, and the verdict
 * as QEMU's exit status. x86-64: the debugcon port 0x402 and isa-debug-exit
 * at port 0xf4. AArch64: semihosting (SYS_WRITE0 and SYS_EXIT), which QEMU
 * honours only when started with -semihosting. Each architecture implements
 * it in arch/NAME/harness.c; docs/BUILD.md describes both.
 */
#ifndef MEMPROBE_ARCH_HARNESS_H
#define MEMPROBE_ARCH_HARNESS_H

#include "arch/cpu.h"

/* Called once, under QEMU only: 1 when the channel works. Where using it
   without the harness's help would raise an exception (AArch64: the
   semihosting instruction is undefined without -semihosting), it is tried
   once under run, and a fault leaves the channel closed rather than
   crashing the app. Until it returns 1 the two calls below do nothing. */
int harness_channel_open(arch_guarded_fn run);

/* The text, byte for byte, to the harness's log. */
void harness_log(const char *text);

/* Ends QEMU with the verdict as its exit status (33 success, 35 failure on
   both architectures, so the harness reads them alike); returns only when
   the channel is closed. */
void harness_verdict(int ok);

#endif
