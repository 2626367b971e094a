/* The fault guard: running a function so that a CPU exception inside it
 * returns here instead of into the firmware's handler (which prints a dump
 * and hangs), and raising one on purpose for the fault probe.
 *
 * guard_enter/guard_leave bracket the guarded state (interrupts off, the
 * app's own exception vectors); guard_call runs fn inside it and returns 1
 * when fn faulted, with guard_last saying what happened. Nothing the
 * faulting code held is cleaned up, which is why only self-contained timed
 * sections run under a guard.
 */
#ifndef MEMPROBE_ARCH_GUARD_H
#define MEMPROBE_ARCH_GUARD_H

#include <stddef.h>
#include <stdint.h>

/* A caught exception in terms any architecture can fill in. */
struct arch_fault {
	unsigned vector;      /* the architecture's exception number */
	uint64_t error_code;  /* what the CPU pushed or syndromed with it, or 0 */
	uint64_t pc;          /* the faulting instruction */
	uint64_t address;     /* the data address the CPU reported, when has_address */
	int has_address;
};

/* The architecture's names for pc and address in report text: x86 "RIP"
   and "CR2". */
extern const char arch_pc_name[];
extern const char arch_address_name[];

/* What guard_enter changed, for guard_leave to give back. */
struct guard_saved {
	uint64_t word[2];
};

/* Interrupts off, the firmware's exception vectors kept in *s and the
   app's loaded (built the first time). No firmware service may be called
   until guard_leave. Interrupts come back on with whatever the platform
   restores after guard_leave (efi: RestoreTPL). */
void guard_enter(struct guard_saved *s);
void guard_leave(const struct guard_saved *s);

/* fn(arg) between guard_enter and guard_leave: 0, or 1 when it faulted. */
int guard_call(void (*fn)(void *), void *arg);
/* What the last caught exception was; valid after guard_call returned 1. */
void guard_last(struct arch_fault *f);

/* The app's state inside a timed section, in the words the report's
   "timed sections" line uses: x86 "the app's IDT and page tables";
   AArch64 names DAIF, the vector base register and the exception level. */
void guard_state_words(char *buf, size_t size);

/* "#PF page fault" for x86 vector 14, and so on. */
const char *exception_name(unsigned vector);

/* Test-only: raises exception `vector` with the instruction that
   architecturally causes it (x86: 0 #DE, 6 #UD, 13 #GP, 14 #PF); returns
   only for vectors it cannot raise. */
void raise_exception(unsigned vector);

#endif
