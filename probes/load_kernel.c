/* The loaded probe's bandwidth load (see load_kernel.h). */

#include "probes/load_kernel.h"
#include "core/timebase.h"

/* ---- Constants -------------------------------------------------------- */

/* The stop flag and the clock are looked at once per chunk: often enough
   that a loader stops within microseconds, rarely enough to cost nothing. */
#define CHUNK_WORDS 8192u          /* 64 KiB */
/* Words per 64-byte line: one sum per word of a line, eight independent
   chains, so the loop is bound by the memory system, not by adds. */
#define LINE_WORDS 8u

/* ---- Private Functions ------------------------------------------------ */

/* One chunk: every word read; for LOAD_READ_WRITE every other line also
   gets a word written, which dirties the whole line (written back whole). */
static uint64_t chunk(uint64_t *p, enum load_mix mix, uint64_t *bytes)
{
	uint64_t s[LINE_WORDS] = { 0 };

	for (unsigned i = 0; i < CHUNK_WORDS; i += LINE_WORDS) {
		for (unsigned w = 0; w < LINE_WORDS; w++)
			s[w] += ((volatile const uint64_t *)p)[i + w];
		if (mix == LOAD_READ_WRITE && (i / LINE_WORDS) % 2)
			((volatile uint64_t *)p)[i] = s[0];
	}
	*bytes += CHUNK_WORDS * sizeof(uint64_t);
	if (mix == LOAD_READ_WRITE)
		*bytes += CHUNK_WORDS * sizeof(uint64_t) / 2;
	return s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}

/* ---- Public Functions ------------------------------------------------- */

void load_kernel_init(struct load_kernel *k, const struct plat_buffer *buf, enum load_mix mix,
		      const volatile uint32_t *stop, uint64_t give_up_ticks)
{
	k->base = buf->base;
	k->words = buf->bytes / sizeof(uint64_t) / CHUNK_WORDS * CHUNK_WORDS;
	k->mix = mix;
	k->stop = stop;
	k->give_up_ticks = give_up_ticks;
	k->bytes = k->ticks = k->sink = 0;
	k->gave_up = 0;
}

void load_kernel_run(void *arg)
{
	struct load_kernel *k = arg;
	uint64_t bytes = 0, sink = 0, at = 0, t0 = plat_ticks(), now = t0;

	while (k->words && !__atomic_load_n(k->stop, __ATOMIC_RELAXED) && now < k->give_up_ticks) {
		sink += chunk(k->base + at, k->mix, &bytes);
		at += CHUNK_WORDS;
		if (at == k->words)
			at = 0;
		now = plat_ticks();
	}
	k->bytes = bytes;
	k->ticks = now - t0;
	k->sink = sink;
	k->gave_up = !__atomic_load_n(k->stop, __ATOMIC_RELAXED);
}

double load_kernel_gb_per_s(const struct load_kernel *k)
{
	double ns = ticks_to_ns(k->ticks);

	return ns > 0 ? (double)k->bytes / ns : 0;
}
