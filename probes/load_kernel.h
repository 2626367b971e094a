/* Bandwidth load for the loaded probe: a plain, portable loop that streams
 * one buffer until told to stop, counting the bytes it moved and the time
 * it took. It generates load; it does not try to reach a core's peak (the
 * bandwidth probe's kernels do that), so its GB/s is what this loop drew.
 */
#ifndef MEMPROBE_LOAD_KERNEL_H
#define MEMPROBE_LOAD_KERNEL_H

#include <stdint.h>
#include "core/config.h"
#include "probes/loaded_settings.h"
#include "core/platform.h"

/* One loader's state, a cache line of its own: loaders on other CPUs never
   share a line, so their counters cannot slow each other. */
struct load_kernel {
	uint64_t *base;
	uint64_t words;             /* a multiple of CHUNK_WORDS (load_kernel.c) */
	enum load_mix mix;
	const volatile uint32_t *stop;
	uint64_t give_up_ticks;     /* stops here too, if stop never comes */
	/* Out. */
	uint64_t bytes;             /* read, plus written for LOAD_READ_WRITE */
	uint64_t ticks;
	uint64_t sink;              /* the sums, so no load is dead code */
	int gave_up;                /* stopped at give_up_ticks, not by *stop */
} __attribute__((aligned(64)));

void load_kernel_init(struct load_kernel *k, const struct plat_buffer *buf, enum load_mix mix,
		      const volatile uint32_t *stop, uint64_t give_up_ticks);

/* A CPU role (arg: struct load_kernel *): streams the buffer, wrapping
   round, until *stop or give_up_ticks, then records bytes and ticks. */
void load_kernel_run(void *arg);

/* 10^9 bytes per second over the loader's own time; 0 when it ran none. */
double load_kernel_gb_per_s(const struct load_kernel *k);

#endif
