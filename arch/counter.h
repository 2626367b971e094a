/* The cycle counter the timed sections read (x86: the TSC), what the CPU
 * says about its rate, the dependent-add chain that turns counter ticks into
 * core cycles, and the calibration policy both platforms follow (efi/clock.c
 * against the ACPI PM timer or Stall(), host/clock.c against
 * CLOCK_MONOTONIC_RAW). Each architecture implements it in arch/NAME/.
 */
#ifndef MEMPROBE_ARCH_COUNTER_H
#define MEMPROBE_ARCH_COUNTER_H

#include <stdint.h>
#include "arch/cpu.h"

/* ---- Calibration policy ----------------------------------------------- */
/* Each constant is defined here once; the clock files only apply it.
 *
 * COUNTER_CAL_WINDOWS windows of COUNTER_CAL_WINDOW_MS each; the rate is the median
 * window. Seven, not five: on Linux a window can be cut by a preemption and
 * the uncertainty is taken from the middle five (the two extremes dropped),
 * which needs seven; the median of seven also survives three disturbed
 * windows. On bare metal, with interrupts off, the two extra windows cost
 * 40 ms once per run.
 *
 * 20 ms a window: long enough that one PM timer tick (279 ns, 14 ppm) or a
 * reading bracket of a few hundred ns is small against it, short enough that
 * all windows take 140 ms with interrupts off on bare metal.
 */
#define COUNTER_CAL_WINDOWS   7
#define COUNTER_CAL_WINDOW_MS 20

/* The core clock: the best of CORE_CLOCK_RUNS chains of CORE_CLOCK_ADDS
 * dependent adds. A chain can only be slowed (an interrupt, a frequency step
 * in progress), never sped up, so the best run is the truest. 2^22 adds is
 * about 1.4 ms at 3 GHz: shorter than a Linux timer tick at HZ=250 or below,
 * so some of seven runs see no interrupt at all, where a 5.6 ms chain (2^24)
 * always holds one; the rdtsc overhead at either end (under 100 cycles) is
 * still below 25 ppm of it, far under the 1 MHz the figure is printed to.
 * Bare metal runs the same chains with interrupts off. A multiple of 64, as
 * add_chain_ticks counts in blocks of 64. */
#define CORE_CLOCK_RUNS 7
#define CORE_CLOCK_ADDS (1ull << 22)

/* Where the CPU's own cycle count cannot be read, the clock of each timed
 * section: the best of SECTION_CLOCK_RUNS chains of SECTION_CLOCK_ADDS adds
 * just before the section and again just after it, the two averaged. The
 * clock at a probe's start is not the clock of its sections: on the Zen 5
 * VM it moved from 3.44 to 3.60 GHz over 30 s of L1 chasing, so an L1 hit
 * converted with the first read 3.87 to 4.05 cycles, and 4.05 to 4.14 with
 * each section's own. 2^16 adds is about 20 us at 3 GHz, so the six chains
 * add about 0.1 ms to a section; the rdtsc at either end is still under
 * 0.2 % of a chain. */
#define SECTION_CLOCK_RUNS 3
#define SECTION_CLOCK_ADDS (1ull << 16)

/* ---- What the CPU states ---------------------------------------------- */

/* The counter's name for reports and system.json ("TSC" on x86-64), so a
   reader never has to infer which counter the ticks are. */
const char *counter_name(void);

/* The counter ticks at one rate in every P-, C- and T-state (x86: CPUID
   8000_0007h EDX[8]). Without it a figure may be a clock-throttled one. */
int counter_invariant(void);
/* What says so, for the report: "CPUID 8000_0007h EDX[8]" on x86. */
const char *counter_invariant_source(void);

/* How the CPU stated the counter's rate. */
enum counter_rate_source {
	COUNTER_RATE_NONE,        /* not stated: the rate must be calibrated */
	COUNTER_RATE_CRYSTAL,     /* a crystal's rating times a ratio (x86: CPUID 15h) */
	COUNTER_RATE_WHOLE_MHZ,   /* a base frequency in whole MHz (x86: CPUID 16h) */
	COUNTER_RATE_REGISTER,    /* a register the firmware programmed (AArch64: CNTFRQ_EL0) */
};

/* The counter's rate as the CPU states it (x86: CPUID 15h, or failing
   that 16h); 0 when it does not. *source says how. */
uint64_t counter_hz_stated(enum counter_rate_source *source);
/* "CPUID 15h crystal ratio", "CPUID 16h base frequency", "not described by
   CPUID": the words the clock's source line uses for each. */
const char *counter_rate_source_name(enum counter_rate_source source);

/* Whether the CPU itself emulates the platform's I/O-port timer at a port
   from the counter's own crystal (x86: Intel's PM timer emulation MSR 0x121,
   enabled for that port), which makes a calibration against that timer no
   independent check of the crystal. */
enum counter_emulation {
	COUNTER_EMULATION_NO,          /* the register says: not emulated */
	COUNTER_EMULATION_YES,         /* emulated from the counter's crystal */
	COUNTER_EMULATION_NO_REGISTER, /* this CPU's vendor has no such register */
	COUNTER_EMULATION_UNREADABLE,  /* reading it faulted under run */
};
enum counter_emulation counter_timer_emulated(const struct cpuinfo *ci, arch_guarded_fn run,
					      uint16_t port);

/* ---- The add chain ---------------------------------------------------- */

/* TSC ticks taken by `adds` dependent register additions (rounded down to a
   multiple of 64). Each add waits for the one before it, one core cycle
   apiece on every x86 core of the last two decades, so adds / seconds is the
   core clock whatever the TSC's own rate. */
uint64_t add_chain_ticks(uint64_t adds);
/* The fewest ticks of `runs` such chains (a chain can only be slowed, never
   sped up); 0 when none could be timed. arch/generic/add_chain.c. */
uint64_t add_chain_best_ticks(uint64_t adds, unsigned runs);
/* adds chained in `ticks` ticks of a counter that runs ticks_per_s: the
   core clock in Hz; 0 when ticks is 0. */
uint64_t add_chain_hz(uint64_t adds, uint64_t ticks, uint64_t ticks_per_s);
/* The clock one side of a timed section: the best of SECTION_CLOCK_RUNS
   chains of SECTION_CLOCK_ADDS, in Hz; 0 when none could be timed. */
uint64_t add_chain_section_hz(uint64_t ticks_per_s);
/* The section's clock from the two sides: their mean, or the one side
   measured; 0 when neither was. */
uint64_t add_chain_section_mean(uint64_t before_hz, uint64_t after_hz);

/* ---- The core's own cycle count --------------------------------------- */
/* Where the CPU counts its core cycles (x86: APERF, beside MPERF at a fixed
 * reference rate; CPUID 6 ECX[0]), the cycles of a timed section are
 * measured rather than converted through a clock measured once: a core
 * whose clock moves (turbo, thermal limits) is followed. */

struct core_cycles {
	uint64_t actual;      /* x86: APERF, core cycles in C0 */
	uint64_t reference;   /* x86: MPERF, at the fixed reference rate in C0 */
};

/* 1 when the counts are readable here (x86: CPUID 6 ECX[0], and one read
   of each through run raised no #GP). */
int core_cycles_available(arch_guarded_fn run);
/* Both counts; only after core_cycles_available said 1. */
void core_cycles_read(struct core_cycles *c);
/* The report's words when they are not available: x86 "no APERF/MPERF
   (CPUID 6 ECX[0] clear or refused)". */
extern const char core_cycles_missing[];

/* ---- Reading it ------------------------------------------------------- */
/* uint64_t counter_read(void): the counter, ordered after earlier loads.
 * Inline, so a timestamp costs no call: each architecture's definition. */
#if defined(__x86_64__)
#include "arch/x86_64/counter.h"
#elif defined(__aarch64__)
#include "arch/aarch64/counter.h"
#else
#error "arch/counter.h: no cycle counter for this architecture"
#endif

#endif
