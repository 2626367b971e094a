/* The architecture's memory-streaming kernels (lib/stream.h) and the CPU
 * state they need. A kernel is a memory primitive, like arch/string.h's
 * memcpy: it knows no probe, only how to move bytes as fast as the core
 * allows with one vector width. Each architecture supplies its own sets in
 * arch/NAME/ (x86-64: SSE2, AVX2, AVX-512; an AArch64 port: NEON, SVE),
 * because only it knows the instructions and the state that enables them.
 */
#ifndef MEMPROBE_ARCH_STREAM_H
#define MEMPROBE_ARCH_STREAM_H

#include <stdint.h>
#include "lib/stream.h"

/* Every set this architecture has, narrowest first; the bits of the masks
   below are indices into it. */
extern const struct stream_kernels stream_sets[];
extern const unsigned stream_set_count;

/* The sets whose instructions the CPU has (x86: CPUID). */
unsigned stream_sets_offered(void);
/* The offered sets that can run now, with the register state as the OS or
   firmware left it enabled (x86: CR4.OSXSAVE and XCR0, read unprivileged
   through CPUID and XGETBV). */
unsigned stream_sets_enabled(void);

/* What the state's enabling changes, in words for a report: x86 "CR4.OSXSAVE
   and XCR0". */
extern const char stream_state_name[];

/* The state stream_state_enable found, for stream_state_restore. */
struct stream_state_saved {
	uint64_t word[2];
};

/* Privileged (bare metal only): turns on the register state of every
   offered set (x86: CR4.OSXSAVE, then the XCR0 bits of SSE, AVX and
   AVX-512 that CPUID leaf 0Dh allows). *s is filled before anything
   changes, so stream_state_restore undoes a partial enable too. */
void stream_state_enable(struct stream_state_saved *s);
/* Puts the state back as *s found it; the wide registers' upper parts are
   cleared first, so nothing the kernels left there outlives the section. */
void stream_state_restore(const struct stream_state_saved *s);

#endif
