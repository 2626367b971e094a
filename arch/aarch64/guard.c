/* arch/guard.h for AArch64: the app's vector table in VBAR_ELx and DAIF
 * masked while guarded; what a caught exception was, from its syndrome.
 */

#include "arch/aarch64/guard.h"
#include "arch/aarch64/sysreg.h"
#include "lib/fmt.h"

void guard_state_words(char *buf, size_t size)
{
	unsigned el = current_el();

	mp_snprintf(buf, size, "DAIF masked, the app's vector table (VBAR_EL%u) and translation "
		    "tables at EL%u", el, el);
}

const char arch_pc_name[] = "ELR";
const char arch_address_name[] = "FAR";

/* ESR_ELx.EC values the names and guard_last use. */
#define EC_UNKNOWN          0x00
#define EC_INSTR_ABORT_LOW  0x20
#define EC_INSTR_ABORT      0x21
#define EC_PC_ALIGNMENT     0x22
#define EC_DATA_ABORT_LOW   0x24
#define EC_DATA_ABORT       0x25
#define EC_SP_ALIGNMENT     0x26
#define ESR_EC(esr) ((unsigned)((esr) >> 26) & 0x3f)
/* ISS.FnV of an abort: FAR does not hold the faulting address. */
#define ESR_FNV (1ull << 10)

/* word[0] the firmware's DAIF, word[1] its VBAR, word[2] its TPIDR.
   Entering: every exception kind masked first (debug, SError, IRQ, FIQ),
   so nothing reaches the firmware's vectors in between, then this CPU's
   guard block in TPIDR_ELx (vectors.S finds it there), then the app's
   vectors, then an ISB so the next instruction already takes exceptions
   there (a pending SError is let in at the end of guard_call, vectors.S).
   Leaving: the firmware's vectors, its TPIDR, then its mask. */
static void enter_with(void *block, struct guard_saved *s)
{
	uint64_t *ctx = block;

	s->word[0] = sysreg_read(daif);
	__asm__ volatile("msr daifset, #0xf" ::: "memory");
	ctx[GUARD_CTX_ACTIVE_WORD] = 0;
	if (current_el() == 2) {
		s->word[2] = sysreg_read(tpidr_el2);
		sysreg_write(tpidr_el2, (uint64_t)(uintptr_t)block);
		s->word[1] = sysreg_read(vbar_el2);
		sysreg_write(vbar_el2, (uint64_t)(uintptr_t)guard_vectors);
	} else {
		s->word[2] = sysreg_read(tpidr_el1);
		sysreg_write(tpidr_el1, (uint64_t)(uintptr_t)block);
		s->word[1] = sysreg_read(vbar_el1);
		sysreg_write(vbar_el1, (uint64_t)(uintptr_t)guard_vectors);
	}
	isb();
}

void guard_enter(struct guard_saved *s)
{
	enter_with(guard_boot_block, s);
}

void guard_leave(const struct guard_saved *s)
{
	if (current_el() == 2) {
		sysreg_write(vbar_el2, s->word[1]);
		sysreg_write(tpidr_el2, s->word[2]);
	} else {
		sysreg_write(vbar_el1, s->word[1]);
		sysreg_write(tpidr_el1, s->word[2]);
	}
	isb();
	sysreg_write(daif, s->word[0]);
}

static int far_valid(uint64_t esr)
{
	switch (ESR_EC(esr)) {
	case EC_INSTR_ABORT_LOW: case EC_INSTR_ABORT:
	case EC_DATA_ABORT_LOW: case EC_DATA_ABORT:
		return !(esr & ESR_FNV);
	case EC_PC_ALIGNMENT:
		return 1;
	}
	return 0;
}

void guard_last(struct arch_fault *f)
{
	guard_last_cpu(guard_boot_block, f);
}

void guard_last_cpu(const void *cpu_tables, struct arch_fault *f)
{
	const struct guard_fault *g = (const struct guard_fault *)((const char *)cpu_tables +
								   GUARD_CTX_FAULT_BYTES);

	f->vector = g->kind ? (unsigned)g->kind : ESR_EC(g->esr);
	f->error_code = g->esr;
	f->pc = g->elr;
	f->has_address = !g->kind && far_valid(g->esr);
	f->address = f->has_address ? g->far : 0;
}

const char *exception_name(unsigned vector)
{
	switch (vector) {
	case EC_UNKNOWN: return "undefined instruction (EC 0x00)";
	case 0x01: return "trapped WFI/WFE (EC 0x01)";
	case 0x0e: return "illegal execution state (EC 0x0e)";
	case 0x15: return "SVC (EC 0x15)";
	case 0x18: return "trapped system register access (EC 0x18)";
	case EC_INSTR_ABORT_LOW: return "instruction abort from a lower level (EC 0x20)";
	case EC_INSTR_ABORT: return "instruction abort (EC 0x21)";
	case EC_PC_ALIGNMENT: return "PC alignment fault (EC 0x22)";
	case EC_DATA_ABORT_LOW: return "data abort from a lower level (EC 0x24)";
	case EC_DATA_ABORT: return "data abort (EC 0x25)";
	case EC_SP_ALIGNMENT: return "SP alignment fault (EC 0x26)";
	case 0x2c: return "floating-point exception (EC 0x2c)";
	case 0x3c: return "BRK (EC 0x3c)";
	case GUARD_VECTOR_IRQ: return "IRQ while masked";
	case GUARD_VECTOR_FIQ: return "FIQ while masked";
	case GUARD_VECTOR_SERROR: return "SError (fatal: an asynchronous external abort)";
	}
	return "other synchronous exception";
}

/* An address no identity map reaches: beyond the 48-bit space the app's
   tables translate (T0SZ 16), so the walk itself faults at level 0. */
#define RAISE_UNMAPPED_ADDRESS 0x0001000000000000ull

/* Each exception raised by the instruction that architecturally causes it,
   in assembly so no compiler can decide the faulting line is undefined
   behaviour and remove it: EC 0x00 with UDF, EC 0x25 with a load beyond
   the translated range, EC 0x3c with BRK. */
void raise_exception(unsigned vector)
{
	uint64_t scratch = 0;

	switch (vector) {
	case EC_UNKNOWN:
		__asm__ volatile("udf #0");
		break;
	case EC_DATA_ABORT:
		__asm__ volatile("ldr %0, [%1]" : "=r"(scratch) : "r"(RAISE_UNMAPPED_ADDRESS) : "memory");
		break;
	case 0x3c:
		__asm__ volatile("brk #0");
		break;
	}
	(void)scratch;
}

/* The one vector table serves every CPU: AArch64 has no per-CPU
   descriptor tables (no GDT, no TSS). Another CPU's "tables" are its
   guard block alone (vectors.S): its saved context and its last fault. */
size_t guard_cpu_tables_bytes(void)
{
	return GUARD_BLOCK_BYTES;
}

void guard_enter_cpu(void *cpu_tables, struct guard_saved *s)
{
	enter_with(cpu_tables, s);
}

/* The vectors' code (the table, its entry and the recovery follow it in
   vectors.S) and what they write: the saved context and the last fault. */
size_t guard_ranges(struct guard_range *out, size_t max)
{
	const struct guard_range ranges[] = {
		{ "the guard's vector table and code", (uint64_t)(uintptr_t)guard_vectors,
		  (uint64_t)(guard_code_end - guard_vectors) },
		{ "the guard's saved state", (uint64_t)(uintptr_t)guard_data,
		  (uint64_t)(guard_data_end - guard_data) },
	};
	size_t n = 0;

	for (; n < max && n < sizeof ranges / sizeof ranges[0]; n++)
		out[n] = ranges[n];
	return n;
}

const char *guard_tables_summary(void)
{
	return "none on AArch64 (no GDT or TSS; the app's vector table is its whole exception "
	       "state)";
}

/* SError: an asynchronous external abort, the memory system itself
   reporting a failure; no probe may trust memory after it. */
int exception_fatal(unsigned vector)
{
	return vector == GUARD_VECTOR_SERROR;
}

/* The syndrome the CPU recorded: ESR_ELx.IDS (bit 24) says whether the
   rest is implementation defined; otherwise AET (bits 12:10) grades the
   error (0 uncontainable, 1 unrecoverable, 2 restartable, 3 recoverable,
   6 corrected) and DFSC (5:0) 0x11 marks an asynchronous SError. Nothing
   needs clearing afterwards (x86 clears MCG_STATUS.MCIP). */
void fatal_exception_describe(unsigned vector, arch_guarded_fn run, char *text, size_t size)
{
	uint64_t esr = guard_last_fault.esr;

	(void)run;
	if (vector != GUARD_VECTOR_SERROR) {
		mp_snprintf(text, size, "no syndrome recorded for this exception");
		return;
	}
	if (esr & (1ull << 24))
		mp_snprintf(text, size, "ESR 0x%llx: implementation-defined syndrome (IDS set)",
			    (unsigned long long)esr);
	else
		mp_snprintf(text, size, "ESR 0x%llx: AET %u, DFSC 0x%02x",
			    (unsigned long long)esr, (unsigned)(esr >> 10) & 7, (unsigned)esr & 0x3f);
}
