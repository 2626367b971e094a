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
#include "arch/cpu.h"

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
	uint64_t word[4];
};

/* Interrupts off, the firmware's exception vectors and descriptor tables
   kept in *s and the app's loaded (built the first time; x86: the IDT, a
   GDT of the app's and, where the firmware has no TSS, the app's TSS with
   stacks of their own for #DF and #MC). No firmware service may be called
   until guard_leave. Interrupts come back on with whatever the platform
   restores after guard_leave (efi: RestoreTPL). guard_enter is
   guard_enter_cpu with the boot processor's tables. */
void guard_enter(struct guard_saved *s);
void guard_leave(const struct guard_saved *s);

/* For another processor (an AP's procedure): the bytes of one CPU's own
   tables, and guard_enter with them. cpu_tables is zeroed, 16-byte aligned,
   identity-mapped memory that this CPU alone uses and that outlives its
   guarded state; it is filled on its first use, on that CPU. The exception
   vectors are the boot processor's, shared, but each CPU's guard_call and
   last fault are its own, in its tables: a fault on an AP returns into
   that AP's guard_call. guard_leave undoes either. */
size_t guard_cpu_tables_bytes(void);
void guard_enter_cpu(void *cpu_tables, struct guard_saved *s);
/* guard_last for the CPU whose tables these are (an AP's, read by the
   boot processor once that AP's guard_call returned 1). */
void guard_last_cpu(const void *cpu_tables, struct arch_fault *f);

/* The memory the boot processor's guarded state relies on: its exception
   vectors' code and data, its IDT and descriptor tables and their stacks.
   A platform that loads page tables of its own inside the guarded state
   checks that they map all of it, since an exception that finds any of it
   unmapped resets the machine. Valid after the first guard_enter. */
struct guard_range {
	const char *what;
	uint64_t base, length;
};
size_t guard_ranges(struct guard_range *out, size_t max);
/* One line for the report: which tables the guarded state uses, and what
   the firmware's configuration left out (x86: "the app's GDT (code
   selector 0x38), the app's TSS: #DF and #MC on stacks of their own"). */
const char *guard_tables_summary(void);

/* fn(arg) between guard_enter and guard_leave: 0, or 1 when it faulted. */
int guard_call(void (*fn)(void *), void *arg);
/* What the last caught exception was; valid after guard_call returned 1. */
void guard_last(struct arch_fault *f);

/* The app's state inside a timed section, in the words the report's
   "timed sections" line uses: x86 "the app's IDT and page tables";
   AArch64 names DAIF, the vector base register and the exception level. */
void guard_state_words(char *buf, size_t size);
/* 1 for an exception after which no probe may run (x86: #DF 8, #MC 18):
   the hardware itself failed, or the CPU could not deliver an exception;
   the run stops with its files flushed. */
int exception_fatal(unsigned vector);
/* What the CPU recorded about a fatal exception, one line (x86 #MC: the
   machine-check registers, read through run), after which the state that
   would turn a second one into a shutdown is cleared (x86: MCG_STATUS.MCIP). */
void fatal_exception_describe(unsigned vector, arch_guarded_fn run, char *text, size_t size);

/* "#PF page fault" for x86 vector 14, and so on. */
const char *exception_name(unsigned vector);

/* Test-only: raises exception `vector` with the instruction that
   architecturally causes it (x86: 0 #DE, 6 #UD, 13 #GP, 14 #PF, 8 #DF by
   a push onto an unmapped stack, which needs the TSS's IST stack to be
   survived: without it the machine resets), or
   through its gate where no instruction can (18 #MC, by INT 18: the
   handler runs as for a real one, and MCG_STATUS.MCIP stays clear);
   returns only for vectors it cannot raise. */
void raise_exception(unsigned vector);

#endif
