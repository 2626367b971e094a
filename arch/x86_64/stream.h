/* x86-64's side of arch/stream.h that the unit tests reach: which kernel
 * sets CPUID and XCR0 allow, as pure functions of register values, so the
 * choice is tested for CPUs and firmware states this machine is not.
 */
#ifndef MEMPROBE_X86_STREAM_H
#define MEMPROBE_X86_STREAM_H

#include <stdint.h>

/* XCR0's state components (SDM vol. 1, 13.1). */
#define XCR0_X87       (1ull << 0)
#define XCR0_SSE       (1ull << 1)
#define XCR0_AVX       (1ull << 2)
#define XCR0_OPMASK    (1ull << 5)
#define XCR0_ZMM_HI256 (1ull << 6)
#define XCR0_HI16_ZMM  (1ull << 7)

/* The indices of stream_sets[]. */
enum x86_stream_set { X86_SET_SSE2, X86_SET_AVX2, X86_SET_AVX512, X86_SET_COUNT };

/* The sets whose instructions the CPU has, from CPUID leaf 1's ECX and EDX
   and leaf 7 subleaf 0's EBX (0 when leaf 7 is absent). */
unsigned x86_stream_sets_offered(uint32_t leaf1_ecx, uint32_t leaf1_edx, uint32_t leaf7_ebx);
/* Of `offered`, the sets that can run with this state: SSE2 needs nothing
   beyond the FXSR state every x86-64 firmware and OS enables; a VEX or
   EVEX set needs CR4.OSXSAVE (os_xsave) and its components in XCR0. */
unsigned x86_stream_sets_enabled(unsigned offered, int os_xsave, uint64_t xcr0);
/* The XCR0 to write for the wide sets: the present value with the SSE,
   AVX and AVX-512 components that CPUID leaf 0Dh subleaf 0 (its EAX,
   `supported`) allows. AVX-512's three components go together or not at
   all (XSETBV refuses a part of them with #GP), and so do SSE and AVX. */
uint64_t x86_stream_xcr0_wanted(uint64_t present, uint32_t supported);

#endif
