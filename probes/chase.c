/* The random cycle and the dependent-load loop. */

#include "probes/chase.h"
#include "lib/fmt.h"

/* ---- Private Functions ------------------------------------------------ */

static void **slot_at(void *base, size_t i, size_t page_bytes)
{
	return (void **)chase_slot(base, i, page_bytes);
}

/* ---- Public Functions ------------------------------------------------- */

size_t chase_page_line(size_t i, size_t page_bytes)
{
	/* page_bytes is a power of two: a shift and a mask, not two
	   divisions, since the builds call this for every slot they touch. */
	size_t lines = page_bytes / CHASE_SLOT;

	return (i + (i >> __builtin_ctzll((unsigned long long)lines))) & (lines - 1);
}

void *chase_slot(void *base, size_t i, size_t page_bytes)
{
	return (char *)base + i * page_bytes + chase_page_line(i, page_bytes) * CHASE_SLOT;
}

void chase_rng_seed(struct chase_rng *r, uint64_t seed)
{
	/* xorshift has one fixed point, zero, which it never leaves. */
	r->state = seed ? seed : 0x6a09e667f3bcc909ull;
}

uint64_t chase_rng_next(struct chase_rng *r)
{
	uint64_t x = r->state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->state = x;
	return x * 0x2545f4914f6cdd1dull;
}

uint64_t chase_rng_below(struct chase_rng *r, uint64_t bound)
{
	/* The high half of a 64x64 product maps the generator's range onto
	   [0, bound) without a division, and with a bias of at most
	   bound / 2^64: nothing at a few million slots. */
	return (uint64_t)(((unsigned __int128)chase_rng_next(r) * bound) >> 64);
}

/* Sattolo's algorithm, run in place on the slots themselves: every slot
   starts pointing at itself, then slot i swaps its link with a slot j < i
   for i from the top down. Restricting j below i (never j == i) is what
   makes the result a single cycle through all slots rather than any
   permutation, and every such cycle is equally likely. Working in the
   buffer needs no order array, so building a 512 MiB cycle costs one pass
   of random swaps (chase_shuffle) and no scratch memory. */
void chase_build(void *base, size_t slots, size_t page_bytes, uint64_t seed)
{
	for (size_t i = 0; i < slots; i++) {
		/* Each slot asked for, for writing, CHASE_PREFETCH_AHEAD slots
		   before its store: 2 GiB of packed slots on 4 KiB pages took
		   0.25 to 0.30 s on an Emerald Rapids VM, 0.16 to 0.20 so. */
		if (i + CHASE_PREFETCH_AHEAD < slots)
			__builtin_prefetch(slot_at(base, i + CHASE_PREFETCH_AHEAD, page_bytes), 1);
		*slot_at(base, i, page_bytes) = slot_at(base, i, page_bytes);
	}
	chase_shuffle(base, slots, page_bytes, 0, 1, seed);
}

/* Word `word` of slot i. */
static void **word_at(void *base, size_t i, size_t page_bytes, unsigned word)
{
	return slot_at(base, i, page_bytes) + word;
}

void chase_shuffle(void *base, size_t slots, size_t page_bytes, unsigned word,
		   int single_cycle, uint64_t seed)
{
	struct chase_rng rng;
	size_t ahead[CHASE_PREFETCH_AHEAD], next_draw = slots ? slots - 1 : 0;

	chase_rng_seed(&rng, seed);
	for (size_t i = slots; i-- > 1;) {
		void **a, **b, *t;

		/* The draws for i down to i - CHASE_PREFETCH_AHEAD + 1, in
		   the order the swaps use them, each slot prefetched for
		   writing. */
		while (next_draw >= 1 && next_draw + CHASE_PREFETCH_AHEAD > i) {
			size_t j = (size_t)chase_rng_below(&rng, next_draw + (single_cycle ? 0 : 1));

			ahead[next_draw % CHASE_PREFETCH_AHEAD] = j;
			__builtin_prefetch(word_at(base, j, page_bytes, word), 1);
			next_draw--;
		}
		a = word_at(base, i, page_bytes, word);
		b = word_at(base, ahead[i % CHASE_PREFETCH_AHEAD], page_bytes, word);
		t = *a;
		*a = *b;
		*b = t;
	}
}

/* A 64-bit mixer (the finaliser of splitmix64): a link's index hashed, so
   a lost and a repeated index rarely cancel in the third sum. */
static uint64_t mix(uint64_t v)
{
	v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
	v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
	return v ^ (v >> 31);
}

int chase_scan_links(const void *base, size_t slots, char *why, size_t why_len)
{
	const char *lo = base;
	uint64_t sum = 0, squares = 0, hashed = 0;

	for (size_t i = 0; i < slots; i++) {
		const char *next = *(const char *const *)(lo + i * CHASE_SLOT);
		uint64_t off, j;

		/* One load a line leaves the hardware's streaming to find the
		   next lines: 2 GiB of 4 KiB pages took 0.34 s on an Emerald
		   Rapids VM, and 0.19 s with each line asked for this far
		   ahead. */
		if (i + CHASE_PREFETCH_AHEAD < slots)
			__builtin_prefetch(lo + (i + CHASE_PREFETCH_AHEAD) * CHASE_SLOT);
		off = (uint64_t)(uintptr_t)next - (uint64_t)(uintptr_t)lo;
		j = off / CHASE_SLOT;

		if (next < lo || j >= slots || off % CHASE_SLOT || (j == i && slots > 1)) {
			mp_snprintf(why, why_len, "the link of slot %zu points %s (%p)", i,
				    j == i && slots > 1 && next >= lo ? "at itself" : "outside the slots",
				    (const void *)next);
			return -1;
		}
		sum += j - i;
		squares += j * j - (uint64_t)i * i;
		hashed += mix(j) - mix(i);
	}
	if (sum || squares || hashed) {
		mp_snprintf(why, why_len, "the links of %zu slots are not a permutation of them: "
			    "some slot is pointed at twice and another never", slots);
		return -1;
	}
	return 0;
}

/* Copied, not loaded through a pointer type: the same one load (x86-64:
   mov; AArch64: ldr), and a slot may be unaligned on purpose (geometry's
   line-size slots straddle a boundary), which a typed load may not be. */
#define HOP __builtin_memcpy(&p, p, sizeof p)
#define HOP4 HOP; HOP; HOP; HOP

/* noinline: the timed caller brackets exactly this loop, and the chain's
   end leaves through the return value, so the compiler can neither drop
   loads nor interleave the caller's timestamp work with them. */
__attribute__((noinline)) void *chase_follow(void *start, uint64_t blocks)
{
	void *p = start;

	while (blocks--) {
		HOP4; HOP4; HOP4; HOP4;
	}
	return p;
}

int chase_check(const void *base, size_t slots, size_t page_bytes, char *why, size_t why_len)
{
	const char *lo = base, *hi = lo + slots * page_bytes;
	const char *p = base;
	size_t step;

	if ((uintptr_t)base % CHASE_SLOT) {
		mp_snprintf(why, why_len, "base %p is not line-aligned", base);
		return -1;
	}
	/* If the walk from slot 0 first returns to slot 0 after exactly `slots`
	   valid links, the cycle through slot 0 has `slots` distinct members:
	   every slot, each once. No visited-set is needed. */
	for (step = 1; step <= slots; step++) {
		const char *next = *(const char *const *)p;
		size_t page = next >= lo && next < hi ? (size_t)(next - lo) / page_bytes : 0;

		if (next < lo || next >= hi ||
		    next != (const char *)chase_slot((void *)lo, page, page_bytes)) {
			mp_snprintf(why, why_len, "link %zu from slot %zu points outside the slots (%p)",
				    step, (size_t)(p - lo) / page_bytes, (const void *)next);
			return -1;
		}
		if (next == lo && step != slots) {
			mp_snprintf(why, why_len, "cycle closes after %zu of %zu slots", step, slots);
			return -1;
		}
		p = next;
	}
	if (p != lo) {
		mp_snprintf(why, why_len, "walk of %zu links does not return to slot 0", slots);
		return -1;
	}
	return 0;
}

void *chase_follow_marking(void *start, const void *base, uint64_t loads, uint64_t *marks)
{
	const char *lo = base;
	void *p = start;

	while (loads--) {
		uint64_t i = (uint64_t)((const char *)p - lo) / CHASE_SLOT;

		marks[i / 64] |= 1ull << (i % 64);
		HOP;
	}
	return p;
}

/* Position i of a bijection of [0, mask + 1), mask + 1 a power of two: an
   odd multiplier and a right shift, each a bijection modulo 2^bits, so
   consecutive positions are neither adjacent nor a constant stride apart. */
static uint64_t scramble(uint64_t i, uint64_t mask, unsigned half_bits)
{
	uint64_t x = (i * 0x9e3779b97f4a7c15ull) & mask;

	x ^= x >> half_bits;
	return (x * 0xbf58476d1ce4e5b9ull) & mask;
}

uint64_t chase_touch_unmarked(const void *base, size_t slots, const uint64_t *marks,
			      uint64_t *touched)
{
	const char *lo = base;
	uint64_t mask = 1, sum = 0, count = 0;
	unsigned bits = 0;

	while (mask < slots) {
		mask <<= 1;
		bits++;
	}
	mask--;
	for (uint64_t i = 0; i <= mask; i++) {
		uint64_t j = scramble(i, mask, (bits + 1) / 2);

		if (j >= slots || (marks[j / 64] >> (j % 64)) & 1)
			continue;
		sum += (uint64_t)(uintptr_t) * (const void *const *)(lo + j * CHASE_SLOT);
		count++;
	}
	*touched = count;
	return sum;
}
