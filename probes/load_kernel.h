/* Bandwidth load for the loaded probe: a plain, portable loop that streams
 * one buffer line by line until told to stop, waiting a calibrated delay
 * before each line (MLC's injection delay), counting the bytes it moved
 * and the time it took. At no delay it is bound by the memory system, not
 * by its own instructions: eight independent loads per line read, whole
 * lines stored per line written, no call and no chain through memory.
 */
#ifndef MEMPROBE_LOAD_KERNEL_H
#define MEMPROBE_LOAD_KERNEL_H

#include <stdint.h>
#include "core/config.h"
#include "probes/loaded_settings.h"
#include "core/platform.h"
#include "lib/stream.h"

/* What a loader does: its mix, and how long it waits before each step. */
struct load_plan {
	enum load_mix mix;
	uint64_t delay_adds;      /* dependent adds before each step; 0: none */
	/* LOAD_WRITE_NT: the architecture's non-temporal store kernel and
	   its block, one block per step; else NULL. */
	stream_kernel_fn *nt;
	unsigned nt_block_bytes;
};

/* One loader's state, a cache line of its own: loaders on other CPUs never
   share a line, so their counters cannot slow each other. */
struct load_kernel {
	uint8_t *base;
	uint64_t bytes_per_lap;     /* a multiple of LOAD_CHUNK_BYTES */
	struct load_plan plan;
	const volatile uint32_t *stop;
	uint64_t give_up_ticks;     /* stops here too, if stop never comes */
	/* Out. */
	uint32_t running;           /* set once the role has begun */
	uint64_t bytes;             /* read plus written (load_kernel.c) */
	uint64_t steps;             /* lines (blocks for LOAD_WRITE_NT) moved */
	uint64_t ticks;
	uint64_t sink;              /* the sums, so no load is dead code */
	int gave_up;                /* stopped at give_up_ticks, not by *stop */
} __attribute__((aligned(64)));

/* Between looks at the stop flag: 48 KiB, a whole number of every mix's
   pattern (1 to 4 lines) and of any stream block up to 16 KiB. */
#define LOAD_CHUNK_BYTES 49152u

/* The mix's name in rows and keys ("read", "read3_write1", ...). */
const char *load_mix_name(enum load_mix mix);
/* What the mix does and counts, one phrase for the report. */
const char *load_mix_counts(enum load_mix mix);

void load_kernel_init(struct load_kernel *k, const struct plat_buffer *buf,
		      const struct load_plan *plan, const volatile uint32_t *stop,
		      uint64_t give_up_ticks);

/* A CPU role (arg: struct load_kernel *): streams the buffer, wrapping
   round, until *stop or give_up_ticks, then records bytes and ticks. */
void load_kernel_run(void *arg);

/* 10^9 bytes per second over the loader's own time; 0 when it ran none. */
double load_kernel_gb_per_s(const struct load_kernel *k);

/* Ticks that `adds` of the delay's dependent adds take on the calling CPU,
   the least of three runs: the delay's calibration. */
uint64_t load_kernel_delay_ticks(uint64_t adds);

#endif
