/* AArch64's streaming kernel sets and the state they need (arch/stream.h).
 * One set today, NEON (Advanced SIMD, 16-byte vectors), in
 * stream_kernels.S; SVE kernels are not written yet, so an SVE machine is
 * measured with NEON and says so through the set's name.
 *
 * The UEFI specification requires the firmware to run AArch64 boot
 * applications with FP and Advanced SIMD enabled; the state is still read
 * (CPACR_EL1.FPEN at EL1, CPTR_EL2 at EL2) rather than assumed, and turned
 * on for the section if a firmware left it off.
 */

#include "arch/stream.h"
#include "arch/aarch64/sysreg.h"

/* ---- Constants -------------------------------------------------------- */

/* ID_AA64PFR0_EL1.AdvSIMD, bits 23:20: 0xf means no Advanced SIMD. */
#define PFR0_ADVSIMD(r) ((unsigned)((r) >> 20) & 0xf)
/* CPACR_EL1.FPEN (bits 21:20), and CPTR_EL2's under VHE: 0b11 traps
   nothing. Without VHE CPTR_EL2.TFP (bit 10) traps FP/SIMD when set. */
#define FPEN_ALL (3ull << 20)
#define CPTR_EL2_TFP (1ull << 10)

#define SET_NEON 0

/* ---- The kernels (stream_kernels.S) ----------------------------------- */

stream_kernel_fn stream_read_neon, stream_write_neon, stream_copy_neon, stream_write_nt_neon;

const struct stream_kernels stream_sets[] = {
	[SET_NEON] = { "neon", 16, 8 * 16, { stream_read_neon, stream_write_neon,
					     stream_copy_neon, stream_write_nt_neon } },
};
const unsigned stream_set_count = 1;

const char stream_state_name[] = "CPACR_EL1.FPEN (CPTR_EL2 at EL2)";

/* ---- Private Functions ------------------------------------------------ */

/* Whether the state register, as given, lets FP/SIMD run at this level. */
static int fp_on(unsigned el, int vhe, uint64_t reg)
{
	if (el == 2 && !vhe)
		return !(reg & CPTR_EL2_TFP);
	return (reg & FPEN_ALL) == FPEN_ALL;
}

static int vhe(unsigned el)
{
	return el == 2 && (sysreg_read(hcr_el2) & HCR_E2H);
}

static uint64_t state_read(unsigned el)
{
	return el == 2 ? sysreg_read(cptr_el2) : sysreg_read(cpacr_el1);
}

static void state_write(unsigned el, uint64_t v)
{
	if (el == 2)
		sysreg_write(cptr_el2, v);
	else
		sysreg_write(cpacr_el1, v);
	isb();
}

/* ---- Public Functions ------------------------------------------------- */

unsigned stream_sets_offered(void)
{
	return PFR0_ADVSIMD(sysreg_read(id_aa64pfr0_el1)) != 0xf ? 1u << SET_NEON : 0;
}

/* Under Linux (the host build never compiles this file) EL0 cannot read
   these registers; on bare metal the app runs at EL1 or EL2 and can. */
unsigned stream_sets_enabled(void)
{
	unsigned el = current_el();

	return fp_on(el, vhe(el), state_read(el)) ? stream_sets_offered() : 0;
}

/* word[0] the register as found, word[1] 1 when it was changed. */
void stream_state_enable(struct stream_state_saved *s)
{
	unsigned el = current_el();
	uint64_t v = state_read(el);

	s->word[0] = v;
	s->word[1] = 0;
	if (fp_on(el, vhe(el), v))
		return;
	s->word[1] = 1;
	state_write(el, el == 2 && !vhe(el) ? v & ~CPTR_EL2_TFP : v | FPEN_ALL);
}

/* The vector registers need no clearing: nothing of them outlives the
   section in a way that costs later code (no x86-style upper-state
   penalty), and the firmware saves what it uses. */
void stream_state_restore(const struct stream_state_saved *s)
{
	if (s->word[1])
		state_write(current_el(), s->word[0]);
}
