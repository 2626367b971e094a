/* x86-64's streaming kernel sets and the state they need (arch/stream.h,
 * arch/x86_64/stream.h). The kernels are in stream_kernels.S.
 */

#include "arch/stream.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/stream.h"

/* ---- Constants -------------------------------------------------------- */

#define LEAF1_ECX_XSAVE   (1u << 26)
#define LEAF1_ECX_OSXSAVE (1u << 27)
#define LEAF1_ECX_AVX     (1u << 28)
#define LEAF1_EDX_SSE2    (1u << 26)
#define LEAF7_EBX_AVX2    (1u << 5)
#define LEAF7_EBX_AVX512F (1u << 16)
#define LEAF_XSAVE        0xdu

#define CR4_OSXSAVE (1ull << 18)

#define XCR0_AVX_STATE    (XCR0_SSE | XCR0_AVX)
#define XCR0_AVX512_STATE (XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)

/* stream_state_saved.word[0]'s bit for "OSXSAVE was set": XCR0 is only
   readable, and so only worth restoring, when it was. */
#define SAVED_OSXSAVE 1ull

/* ---- The kernels (stream_kernels.S) ----------------------------------- */

#define KERNELS(set) \
	stream_kernel_fn stream_read_##set, stream_write_##set, stream_copy_##set, \
		stream_write_nt_##set;
KERNELS(sse2)
KERNELS(avx2)
KERNELS(avx512)
#undef KERNELS

#define SET(name, vbytes) \
	{ #name, vbytes, 8 * vbytes, { stream_read_##name, stream_write_##name, \
				       stream_copy_##name, stream_write_nt_##name } }

const struct stream_kernels stream_sets[] = {
	[X86_SET_SSE2]   = SET(sse2, 16),
	[X86_SET_AVX2]   = SET(avx2, 32),
	[X86_SET_AVX512] = SET(avx512, 64),
};
const unsigned stream_set_count = X86_SET_COUNT;
_Static_assert(sizeof stream_sets / sizeof *stream_sets == X86_SET_COUNT,
	       "one kernel set per enum x86_stream_set");

const char stream_state_name[] = "CR4.OSXSAVE and XCR0";

/* ---- Private Functions ------------------------------------------------ */

/* Only with CR4.OSXSAVE set: XGETBV is #UD without it. */
static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

/* Writes XCR0: #GP for a value CPUID leaf 0Dh does not allow, or while
   CR4.OSXSAVE is clear. */
static void xsetbv0(uint64_t v)
{
	__asm__ volatile("xsetbv" :: "c"(0), "a"((uint32_t)v), "d"((uint32_t)(v >> 32))
			 : "memory");
}

/* CPUID leaf 7 subleaf 0, or zeroes where the CPU has no leaf 7. */
static struct cpuid_regs leaf7(void)
{
	struct cpuid_regs none = { 0, 0, 0, 0 };
	return cpuid_max_leaf() >= 7 ? cpuid(7, 0) : none;
}

/* ---- Public Functions ------------------------------------------------- */

unsigned x86_stream_sets_offered(uint32_t leaf1_ecx, uint32_t leaf1_edx, uint32_t leaf7_ebx)
{
	unsigned sets = 0;
	int xsave = (leaf1_ecx & LEAF1_ECX_XSAVE) != 0;

	if (leaf1_edx & LEAF1_EDX_SSE2)
		sets |= 1u << X86_SET_SSE2;
	/* AVX2's instructions need AVX's state, which only XSAVE manages. */
	if (xsave && (leaf1_ecx & LEAF1_ECX_AVX) && (leaf7_ebx & LEAF7_EBX_AVX2))
		sets |= 1u << X86_SET_AVX2;
	if (xsave && (leaf1_ecx & LEAF1_ECX_AVX) && (leaf7_ebx & LEAF7_EBX_AVX512F))
		sets |= 1u << X86_SET_AVX512;
	return sets;
}

unsigned x86_stream_sets_enabled(unsigned offered, int os_xsave, uint64_t xcr0)
{
	unsigned sets = offered & (1u << X86_SET_SSE2);

	if (!os_xsave)
		return sets;
	if ((xcr0 & XCR0_AVX_STATE) == XCR0_AVX_STATE)
		sets |= offered & (1u << X86_SET_AVX2);
	if ((xcr0 & (XCR0_AVX_STATE | XCR0_AVX512_STATE)) == (XCR0_AVX_STATE | XCR0_AVX512_STATE))
		sets |= offered & (1u << X86_SET_AVX512);
	return sets;
}

uint64_t x86_stream_xcr0_wanted(uint64_t present, uint32_t supported)
{
	uint64_t want = present | XCR0_X87;

	if ((supported & XCR0_AVX_STATE) == XCR0_AVX_STATE) {
		want |= XCR0_AVX_STATE;
		if ((supported & XCR0_AVX512_STATE) == XCR0_AVX512_STATE)
			want |= XCR0_AVX512_STATE;
	}
	return want;
}

unsigned stream_sets_offered(void)
{
	struct cpuid_regs l1 = cpuid(1, 0);

	return x86_stream_sets_offered(l1.ecx, l1.edx, leaf7().ebx);
}

unsigned stream_sets_enabled(void)
{
	int os_xsave = (cpuid(1, 0).ecx & LEAF1_ECX_OSXSAVE) != 0;

	return x86_stream_sets_enabled(stream_sets_offered(), os_xsave,
				       os_xsave ? xgetbv0() : 0);
}

void stream_state_enable(struct stream_state_saved *s)
{
	uint64_t cr4 = read_cr4();

	s->word[0] = cr4 & CR4_OSXSAVE ? SAVED_OSXSAVE : 0;
	s->word[1] = cr4 & CR4_OSXSAVE ? xgetbv0() : 0;
	if (!(cpuid(1, 0).ecx & LEAF1_ECX_XSAVE))
		return;
	if (!(cr4 & CR4_OSXSAVE)) {
		write_cr4(cr4 | CR4_OSXSAVE);
		/* XCR0 keeps its value while OSXSAVE is clear (OVMF leaves
		   x87|SSE there): this is what to give back. */
		s->word[1] = xgetbv0();
	}
	xsetbv0(x86_stream_xcr0_wanted(s->word[1], cpuid(LEAF_XSAVE, 0).eax));
}

void stream_state_restore(const struct stream_state_saved *s)
{
	uint64_t cr4 = read_cr4();

	if (!(cr4 & CR4_OSXSAVE))
		return;
	/* The kernels end in vzeroupper already; this covers a kernel that
	   faulted before it. With AVX off in XCR0 VZEROUPPER is #UD, so only
	   while AVX is still on. */
	if (xgetbv0() & XCR0_AVX)
		__asm__ volatile("vzeroupper" ::: "memory");
	if (s->word[1] && xgetbv0() != s->word[1])
		xsetbv0(s->word[1]);
	if (!(s->word[0] & SAVED_OSXSAVE))
		write_cr4(cr4 & ~CR4_OSXSAVE);
}
