/* The loaded probe's bandwidth load (see load_kernel.h).
 *
 * The delay is a chain of dependent adds of a zero the compiler cannot see
 * through, and the chain's result is added to the next line's address: the
 * line's accesses cannot issue before the chain ends, so the chain paces
 * the loop, while the accesses of earlier lines proceed under it. Without
 * that link an out-of-order core would run the adds beside the accesses
 * and the delay would throttle nothing.
 */

#include "probes/load_kernel.h"
#include "core/timebase.h"

/* ---- Constants -------------------------------------------------------- */

#define LINE_BYTES 64u

/* Each mix as a repeating pattern of lines: the first `reads` of every
   `period` lines are read, the rest written whole. */
static const struct {
	const char *name;
	unsigned period, reads;
	const char *counts;
} mix_shape[LOAD_MIXES] = {
	[LOAD_READ] = { "read", 1, 1, "every line read (one load: the memory moves it whole); "
			"64 bytes counted a line" },
	[LOAD_READ3_WRITE1] = { "read3_write1", 4, 3, "of every 4 lines 3 read, 1 written "
				"whole; 64 bytes counted a line, the written line's write-allocate "
				"read not counted" },
	[LOAD_READ2_WRITE1] = { "read2_write1", 3, 2, "of every 3 lines 2 read, 1 written "
				"whole; 64 bytes counted a line, the written line's write-allocate "
				"read not counted" },
	[LOAD_READ1_WRITE1] = { "read1_write1", 2, 1, "every other line read, the others "
				"written whole; 64 bytes counted a line, the written lines' "
				"write-allocate reads not counted" },
	[LOAD_WRITE] = { "write", 1, 0, "every line written whole by plain stores; 64 bytes "
			 "counted a line, not the write-allocate read each one also costs (the "
			 "memory moves about twice the figure)" },
	[LOAD_WRITE_NT] = { "write_nt", 1, 0, "every line written by non-temporal stores "
			    "(no write-allocate read): the figure is what the memory took" },
};

/* ---- Private Functions ------------------------------------------------ */

/* The delay: `adds` dependent adds of zero to z, each kept by an empty asm
   so the compiler can neither fold the chain nor drop it. Never inlined:
   the calibration and the loaders then run the same instructions (inlined
   copies were compiled apart, and one ran 3x the other's time an add). */
static __attribute__((noinline)) uint64_t pause_adds(uint64_t z, uint64_t adds, uint64_t zero)
{
	for (uint64_t i = 0; i < adds; i++) {
		z += zero;
		__asm__ volatile("" : "+r"(z));
	}
	return z;
}

/* `lines` lines from at, the mix's pattern going on from *phase: per line
   the delay, then one load or 8 stores at the delayed address. Returns
   the loads' sum. One load a line: the memory moves a line whole for any
   load of it, and eight, one a word, filled the core's load queue with a
   few dozen lines: on an Emerald Rapids VM (4 KiB pages, 64 MiB .. 1 GiB)
   they drew 6.4 to 8 GB/s where one load a line drew 12 to 20 and the
   bandwidth probe's vector reads 12 to 15 (docs/METHOD.md section 10).
   The sum in a register, the loop not inlined so that it has the
   registers to itself. */
static __attribute__((noinline)) uint64_t lines_run(const struct load_kernel *k, uint8_t *at, uint64_t lines,
			  unsigned *phase, uint64_t *zp, uint64_t zero)
{
	unsigned period = mix_shape[k->plan.mix].period, reads = mix_shape[k->plan.mix].reads;
	unsigned j = *phase;
	uint64_t sum = 0;
	uint64_t adds = k->plan.delay_adds, z = *zp, end = lines * LINE_BYTES;

	for (uint64_t off = 0; off < end; off += LINE_BYTES) {
		if (adds)
			z = pause_adds(z, adds, zero);
		if (j < reads) {
			sum += *(volatile const uint64_t *)(at + off + z);
		} else {
			volatile uint64_t *line = (uint64_t *)(at + off + z);
			line[0] = off; line[1] = off; line[2] = off; line[3] = off;
			line[4] = off; line[5] = off; line[6] = off; line[7] = off;
		}
		j = j + 1 == period ? 0 : j + 1;
	}
	*phase = j;
	*zp = z;
	return sum;
}

/* `blocks` blocks of non-temporal stores from at: one call for them all
   with no delay (a call per block would pace it), else a block per delay. */
static void blocks_run(const struct load_kernel *k, uint8_t *at, uint64_t blocks, uint64_t *zp,
		       uint64_t zero)
{
	uint64_t block = k->plan.nt_block_bytes, z = *zp;

	if (!k->plan.delay_adds) {
		k->plan.nt(at, at, blocks * block, 1);
		return;
	}
	for (uint64_t off = 0; off < blocks * block; off += block) {
		z = pause_adds(z, k->plan.delay_adds, zero);
		k->plan.nt(at + off + z, at, block, 1);
	}
	*zp = z;
}

/* Steps between looks at the stop flag and the clock: a chunk's worth at
   no delay, fewer as the delay grows, so a paced loader still looks about
   every few tens of microseconds (one chunk of 16 us delays would be 12 ms
   past its stop, and its bytes counted whole or not at all). */
static uint64_t steps_per_look(const struct load_kernel *k, uint64_t step_bytes)
{
	uint64_t n = LOAD_CHUNK_BYTES / step_bytes / (1 + k->plan.delay_adds / 64);

	return n ? n : 1;
}

/* ---- Public Functions ------------------------------------------------- */

const char *load_mix_name(enum load_mix mix)
{
	return mix < LOAD_MIXES ? mix_shape[mix].name : "all";
}

const char *load_mix_counts(enum load_mix mix)
{
	return mix < LOAD_MIXES ? mix_shape[mix].counts : "";
}

void load_kernel_init(struct load_kernel *k, const struct plat_buffer *buf,
		      const struct load_plan *plan, const volatile uint32_t *stop,
		      uint64_t give_up_ticks)
{
	k->base = buf->base;
	k->bytes_per_lap = buf->bytes / LOAD_CHUNK_BYTES * LOAD_CHUNK_BYTES;
	k->plan = *plan;
	k->stop = stop;
	k->give_up_ticks = give_up_ticks;
	k->bytes = k->steps = k->ticks = k->sink = 0;
	k->gave_up = 0;
	k->running = 0;
}

void load_kernel_run(void *arg)
{
	struct load_kernel *k = arg;
	int nt = k->plan.mix == LOAD_WRITE_NT;
	uint64_t step_bytes = nt ? k->plan.nt_block_bytes : LINE_BYTES;
	uint64_t lap = step_bytes ? k->bytes_per_lap / step_bytes : 0, look = 0, at = 0;
	uint64_t steps = 0, sink = 0, z = 0, zero = 0, t0 = plat_ticks(), now = t0;
	unsigned phase = 0;

	/* A zero the compiler cannot see: the delay's adds stay real adds. */
	__asm__ volatile("" : "+r"(zero));
	__atomic_store_n(&k->running, 1, __ATOMIC_RELEASE);
	if (nt && !k->plan.nt)
		lap = 0;
	if (lap)
		look = steps_per_look(k, step_bytes);
	while (lap && !__atomic_load_n(k->stop, __ATOMIC_RELAXED) && now < k->give_up_ticks) {
		uint64_t n = look < lap - at ? look : lap - at;

		if (nt)
			blocks_run(k, k->base + at * step_bytes, n, &z, zero);
		else
			sink += lines_run(k, k->base + at * step_bytes, n, &phase, &z, zero);
		steps += n;
		at += n;
		if (at == lap)
			at = 0;
		now = plat_ticks();
	}
	k->steps = steps;
	k->bytes = steps * step_bytes;
	k->ticks = now - t0;
	k->sink = sink + z;
	k->gave_up = !__atomic_load_n(k->stop, __ATOMIC_RELAXED);
}

double load_kernel_gb_per_s(const struct load_kernel *k)
{
	double ns = ticks_to_ns(k->ticks);

	return ns > 0 ? (double)k->bytes / ns : 0;
}

uint64_t load_kernel_delay_ticks(uint64_t adds)
{
	uint64_t best = UINT64_MAX, zero = 0;

	__asm__ volatile("" : "+r"(zero));
	for (unsigned run = 0; run < 3; run++) {
		uint64_t t0 = plat_ticks(), z = pause_adds(0, adds, zero), t = plat_ticks() - t0;
		__asm__ volatile("" : : "r"(z));
		best = t < best ? t : best;
	}
	return best;
}
