/* arch/harness.h for AArch64: semihosting, as QEMU implements it with
 * -semihosting (the Arm "Semihosting for AArch32 and AArch64" spec). The
 * virt machine has no isa-debug-exit and no debugcon; semihosting gives
 * both a log (SYS_WRITE0, to the chardev the harness names) and an exit
 * status (SYS_EXIT with ADP_Stopped_ApplicationExit and a code). The call
 * is HLT #0xF000; without -semihosting that instruction is undefined, so
 * the channel is tried once under the guard before it is used.
 */

#include "arch/harness.h"

#define SYS_WRITE0 0x04
#define SYS_EXIT   0x18
#define SYS_ERRNO  0x13
#define ADP_STOPPED_APPLICATION_EXIT 0x20026
/* The x86 harness's statuses, (0x10 << 1) | 1 and (0x11 << 1) | 1, so
   scripts/qemu-run.sh reads both architectures' verdicts alike. */
#define EXIT_SUCCESS_STATUS 33
#define EXIT_FAILURE_STATUS 35

static int channel_open;

static uint64_t semihost(uint64_t op, uint64_t arg)
{
	register uint64_t x0 __asm__("x0") = op;
	register uint64_t x1 __asm__("x1") = arg;

	__asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
	return x0;
}

/* A call with no effect: SYS_ERRNO returns the host's last errno. */
static void try_semihosting(void *arg)
{
	(void)arg;
	semihost(SYS_ERRNO, 0);
}

int harness_channel_open(arch_guarded_fn run)
{
	channel_open = run(try_semihosting, 0) == 0;
	return channel_open;
}

void harness_log(const char *text)
{
	if (channel_open)
		semihost(SYS_WRITE0, (uint64_t)(uintptr_t)text);
}

void harness_verdict(int ok)
{
	uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT,
			      ok ? EXIT_SUCCESS_STATUS : EXIT_FAILURE_STATUS };

	if (channel_open)
		semihost(SYS_EXIT, (uint64_t)(uintptr_t)block);
}
