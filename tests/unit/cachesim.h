/* A small cache simulator that makes latency curves the way a machine
 * does: a dependent chase through one random cycle of a working set's
 * lines, one lap to warm up and one timed, through up to three
 * set-associative levels (LRU or random victims) over physical addresses
 * whose frames are placed contiguously or at random, with a TLB penalty by
 * page count and multiplicative noise. The curves it makes are what the
 * analysis must read right: sharp steps from contiguous buffers, smeared
 * ones from random frames. Nothing here shares code with analysis/placement.c,
 * whose model the simulated curves test: this one counts real hits.
 */
#ifndef MEMPROBE_CACHESIM_H
#define MEMPROBE_CACHESIM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIM_LINE 64ull

struct sim_level {
	uint64_t capacity;        /* bytes; 0 ends the list */
	unsigned ways;
	int random_victim;        /* 0: LRU */
	double ns;                /* load-to-use latency of a hit here */
};

struct sim_machine {
	struct sim_level level[3];
	double memory_ns;
	unsigned dtlb_entries;    /* first TLB, entries of the curve's pages (0: none) */
	double dtlb_miss_ns;      /* added to a load that misses it */
	uint64_t frame_bytes;     /* placement granule: 0 contiguous, else random frames */
	double noise;             /* relative, uniform in [0, noise) added per point */
};

struct sim_cache {
	uint64_t *tag;            /* sets * ways, ~0 empty */
	uint64_t *stamp;
	uint64_t sets, ways, clock;
	int random_victim;
};

static uint64_t sim_rng = 0x9e3779b97f4a7c15ull;

/* The frames of the current curve: one buffer whose prefixes every size
   of a sweep uses, as a probe that allocates once does, so the sizes see
   nested placements rather than a fresh draw each. */
static uint64_t sim_frames_seed = 1;

static void sim_new_buffer(void)
{
	sim_frames_seed = sim_frames_seed * 6364136223846793005ull + 1442695040888963407ull;
}

/* Frame f of the current buffer: distinct numbers far apart (an odd
   multiplier is a bijection), at random as far as a cache can tell. */
static uint64_t sim_frame(uint64_t f)
{
	uint64_t z = (f + sim_frames_seed) * 0x9e3779b97f4a7c15ull;
	z ^= z >> 29;
	z *= 0xbf58476d1ce4e5b9ull;
	z ^= z >> 32;
	return z >> 20;
}

static uint64_t sim_next(void)
{
	sim_rng ^= sim_rng << 13;
	sim_rng ^= sim_rng >> 7;
	sim_rng ^= sim_rng << 17;
	return sim_rng;
}

static void sim_cache_init(struct sim_cache *c, const struct sim_level *l)
{
	c->ways = l->ways;
	c->sets = l->capacity / (SIM_LINE * l->ways);
	c->tag = malloc(c->sets * c->ways * sizeof *c->tag);
	c->stamp = calloc(c->sets * c->ways, sizeof *c->stamp);
	memset(c->tag, 0xff, c->sets * c->ways * sizeof *c->tag);
	c->clock = 0;
	c->random_victim = l->random_victim;
}

static void sim_cache_free(struct sim_cache *c)
{
	free(c->tag);
	free(c->stamp);
}

/* 1 on a hit; on a miss the line is filled. Sets by line address modulo
   the set count (a capacity that is not a power of two still indexes). */
static int sim_cache_access(struct sim_cache *c, uint64_t line)
{
	uint64_t set = line % c->sets, *t = c->tag + set * c->ways, *s = c->stamp + set * c->ways;
	uint64_t victim = 0;

	c->clock++;
	for (uint64_t w = 0; w < c->ways; w++)
		if (t[w] == line) {
			s[w] = c->clock;
			return 1;
		}
	if (c->random_victim) {
		victim = sim_next() % c->ways;
		for (uint64_t w = 0; w < c->ways; w++)
			if (t[w] == ~0ull) {
				victim = w;
				break;
			}
	} else {
		for (uint64_t w = 1; w < c->ways; w++)
			if (s[w] < s[victim])
				victim = w;
	}
	t[victim] = line;
	s[victim] = c->clock;
	return 0;
}

/* The physical line of virtual line v: frames of frame_bytes at random
   (distinct, drawn from a space far larger than the buffer), or the same
   line when contiguous. */
static uint64_t sim_physical(const uint64_t *frame_of, uint64_t frame_lines, uint64_t v)
{
	if (!frame_of)
		return v;
	return frame_of[v / frame_lines] * frame_lines + v % frame_lines;
}

/* ns per load of a chase over `bytes` on machine m. */
static double sim_chase_ns(const struct sim_machine *m, uint64_t bytes, uint64_t page_bytes)
{
	uint64_t lines = bytes / SIM_LINE, *next = malloc(lines * sizeof *next);
	uint64_t *order = malloc(lines * sizeof *order), *frame_of = 0, frame_lines = 1;
	struct sim_cache c[3];
	unsigned nlevels = 0;
	double total = 0.0, pages, tlb_extra = 0.0;

	for (uint64_t i = 0; i < lines; i++)
		order[i] = i;
	for (uint64_t i = lines - 1; i > 0; i--) {
		uint64_t j = sim_next() % (i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (uint64_t i = 0; i < lines; i++)
		next[order[i]] = order[(i + 1) % lines];
	if (m->frame_bytes) {
		uint64_t frames = (bytes + m->frame_bytes - 1) / m->frame_bytes;
		frame_lines = m->frame_bytes / SIM_LINE;
		frame_of = malloc(frames * sizeof *frame_of);
		for (uint64_t f = 0; f < frames; f++)
			frame_of[f] = sim_frame(f);
	}
	/* Each level sees the misses of the one above and fills on a miss. */
	while (nlevels < 3 && m->level[nlevels].capacity) {
		sim_cache_init(&c[nlevels], &m->level[nlevels]);
		nlevels++;
	}
	for (int lap = 0; lap < 2; lap++) {
		uint64_t v = order[0];
		for (uint64_t i = 0; i < lines; i++) {
			uint64_t p = sim_physical(frame_of, frame_lines, v);
			double ns = m->memory_ns;
			unsigned k;
			for (k = 0; k < nlevels; k++)
				if (sim_cache_access(&c[k], p)) {
					ns = m->level[k].ns;
					break;
				}
			if (lap)
				total += ns;
			v = next[v];
		}
	}
	pages = (double)bytes / (double)page_bytes;
	if (m->dtlb_entries && pages > m->dtlb_entries)
		tlb_extra = m->dtlb_miss_ns * (1.0 - m->dtlb_entries / pages);
	for (unsigned k = 0; k < nlevels; k++)
		sim_cache_free(&c[k]);
	free(next);
	free(order);
	free(frame_of);
	return (total / (double)lines + tlb_extra) *
	       (1.0 + m->noise * (double)(sim_next() >> 11) / 9007199254740992.0);
}

#endif
