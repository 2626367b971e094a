/* Reading and naming the machine-check registers (see mca.h), and
   arch/guard.h's fatal-exception half for x86-64. */

#include "arch/x86_64/mca.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/msr.h"
#include "arch/guard.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

#define VECTOR_DOUBLE_FAULT 8u
#define VECTOR_MACHINE_CHECK 18u
#define CPUID1_EDX_MCE (1u << 7)
#define CPUID1_EDX_MCA (1u << 14)
#define MCG_CAP_COUNT_MASK 0xffu
#define MCI_ERROR_CODE_MASK 0xffffull

/* ---- Private Functions ------------------------------------------------ */

static void format_bank(struct mp_text *t, const struct mca_bank *b)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} bits[] = {
		{ MCI_STATUS_OVER, "overflow: an earlier error was lost" },
		{ MCI_STATUS_UC, "uncorrected" },
		{ MCI_STATUS_EN, "signalling enabled" },
		{ MCI_STATUS_PCC, "processor context corrupt" },
	};

	mp_append(t, "; bank %u: MCi_STATUS 0x%016llx (valid", b->index,
		  (unsigned long long)b->status);
	for (size_t i = 0; i < sizeof bits / sizeof *bits; i++)
		if (b->status & bits[i].bit)
			mp_append(t, ", %s", bits[i].name);
	if (!(b->status & MCI_STATUS_UC))
		mp_append(t, ", corrected");
	mp_append(t, ", MCA error code 0x%04llx)",
		  (unsigned long long)(b->status & MCI_ERROR_CODE_MASK));
	if (b->status & MCI_STATUS_ADDRV)
		mp_append(t, ", MCi_ADDR 0x%llx", (unsigned long long)b->addr);
}

/* ---- Public Functions ------------------------------------------------- */

void mca_read(arch_guarded_fn run, struct mca_record *r)
{
	struct cpuid_regs id = cpuid(1, 0);
	uint64_t cap, status, addr;

	mp_memset(r, 0, sizeof *r);
	r->supported = (id.edx & CPUID1_EDX_MCE) && (id.edx & CPUID1_EDX_MCA);
	if (!r->supported)
		return;
	if (msr_read_guarded(run, MSR_MCG_CAP, &cap) ||
	    msr_read_guarded(run, MSR_MCG_STATUS, &r->mcg_status))
		return;
	r->readable = 1;
	r->banks = (unsigned)(cap & MCG_CAP_COUNT_MASK);
	for (unsigned i = 0; i < r->banks && i < MCA_BANKS_READ; i++) {
		if (msr_read_guarded(run, MSR_MC0_STATUS + 4 * i, &status)) {
			r->banks_unreadable++;
			continue;
		}
		if (!(status & MCI_STATUS_VAL))
			continue;
		if (r->valid < MCA_BANKS_SHOWN) {
			addr = 0;
			if ((status & MCI_STATUS_ADDRV) &&
			    msr_read_guarded(run, MSR_MC0_STATUS + 4 * i + 1, &addr))
				addr = 0;
			r->shown[r->valid] = (struct mca_bank){ i, status, addr };
		}
		r->valid++;
	}
}

void mca_format(const struct mca_record *r, char *text, size_t size)
{
	struct mp_text t = { text, size, 0 };
	uint64_t s = r->mcg_status;

	if (!r->supported) {
		mp_snprintf(text, size, "the CPU has no machine-check architecture (CPUID 1 EDX[7,14]): "
			    "no bank to read");
		return;
	}
	if (!r->readable) {
		mp_snprintf(text, size, "MCG_CAP/MCG_STATUS unreadable (#GP, a hypervisor hides them): "
			    "no bank to read");
		return;
	}
	mp_append(&t, "MCG_STATUS 0x%llx (MCIP %s, RIPV %s, EIPV %s)", (unsigned long long)s,
		  (s & MCG_STATUS_MCIP) ? "set" : "clear: the CPU signalled no machine check, the "
		  "vector was raised by software",
		  (s & MCG_STATUS_RIPV) ? "set" : "clear", (s & MCG_STATUS_EIPV) ? "set" : "clear");
	mp_append(&t, ", %u banks", r->banks);
	if (r->banks_unreadable)
		mp_append(&t, " (%u unreadable)", r->banks_unreadable);
	if (!r->valid) {
		mp_append(&t, ", none holds a valid error");
		return;
	}
	mp_append(&t, ", %u with a valid error", r->valid);
	for (unsigned i = 0; i < r->valid && i < MCA_BANKS_SHOWN; i++)
		format_bank(&t, &r->shown[i]);
	if (r->valid > MCA_BANKS_SHOWN)
		mp_append(&t, "; %u more not shown", r->valid - MCA_BANKS_SHOWN);
}

int exception_fatal(unsigned vector)
{
	return vector == VECTOR_DOUBLE_FAULT || vector == VECTOR_MACHINE_CHECK;
}

/* The banks are left as they are, for the next OS to log; MCIP is cleared
   because while it is set a second #MC shuts the processor down, and the
   run still has its files to flush. */
void fatal_exception_describe(unsigned vector, arch_guarded_fn run, char *text, size_t size)
{
	struct mca_record r;

	if (vector == VECTOR_DOUBLE_FAULT) {
		mp_snprintf(text, size, "a second exception arrived while the CPU delivered one; "
			    "the RIP a #DF saves is undefined (SDM) and the state it left cannot "
			    "be trusted");
		return;
	}
	mca_read(run, &r);
	mca_format(&r, text, size);
	if (r.readable && (r.mcg_status & MCG_STATUS_MCIP))
		(void)msr_write_guarded(run, MSR_MCG_STATUS, 0);
}
