/* A plain 8-accumulator AVX2 read loop, the yardstick bench/bandwidth-check.sh
 * holds the bandwidth probe's read figures against: what an ordinary
 * program compiled with -O2 -mavx2 reaches on the same buffer sizes.
 *
 * Usage: bandwidth-reference BYTES... ; prints "BYTES GB/S" per size: the
 * best of trials of about 20 ms each (the best of 3 once a size takes longer)
 * over a 2 MiB-aligned buffer with transparent huge pages advised, as the
 * probe's Linux build gets with pages=2m.
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define HUGE_ALIGN (2u << 20)
#define TRIALS 15
#define TRIAL_NS 20e6

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Eight accumulators so no load waits on another's add. */
static __attribute__((noinline)) __m256i read_pass(const __m256i *p, size_t n)
{
	__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0,
		a6 = a0, a7 = a0;
	for (size_t i = 0; i < n; i += 8) {
		a0 = _mm256_add_epi64(a0, _mm256_load_si256(p + i));
		a1 = _mm256_add_epi64(a1, _mm256_load_si256(p + i + 1));
		a2 = _mm256_add_epi64(a2, _mm256_load_si256(p + i + 2));
		a3 = _mm256_add_epi64(a3, _mm256_load_si256(p + i + 3));
		a4 = _mm256_add_epi64(a4, _mm256_load_si256(p + i + 4));
		a5 = _mm256_add_epi64(a5, _mm256_load_si256(p + i + 5));
		a6 = _mm256_add_epi64(a6, _mm256_load_si256(p + i + 6));
		a7 = _mm256_add_epi64(a7, _mm256_load_si256(p + i + 7));
	}
	a0 = _mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3));
	a4 = _mm256_add_epi64(_mm256_add_epi64(a4, a5), _mm256_add_epi64(a6, a7));
	return _mm256_add_epi64(a0, a4);
}

int main(int argc, char **argv)
{
	volatile long long sink = 0;

	for (int a = 1; a < argc; a++) {
		size_t bytes = strtoull(argv[a], 0, 0), alloc, passes;
		double best = 0, t0, pass_ns;
		char *raw;
		__m256i *p;

		if (bytes < 256 || bytes % 256) {
			fprintf(stderr, "bandwidth-reference: %s: a size of at least 256 bytes, "
				"a multiple of 256\n", argv[a]);
			return 2;
		}
		alloc = (bytes + HUGE_ALIGN - 1) / HUGE_ALIGN * HUGE_ALIGN;
		raw = mmap(0, alloc + HUGE_ALIGN, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (raw == MAP_FAILED) {
			perror("bandwidth-reference: mmap");
			return 1;
		}
		p = (__m256i *)(((uintptr_t)raw + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
		madvise(p, alloc, MADV_HUGEPAGE);
		for (size_t i = 0; i < bytes; i++)
			((char *)p)[i] = (char)i;
		t0 = now_ns();
		sink += _mm256_extract_epi64(read_pass(p, bytes / 32), 0);
		pass_ns = now_ns() - t0;
		passes = pass_ns > 0 && pass_ns < TRIAL_NS ? (size_t)(TRIAL_NS / pass_ns) + 1 : 1;
		for (int t = 0; t < TRIALS; t++) {
			double gbps;
			t0 = now_ns();
			for (size_t k = 0; k < passes; k++)
				sink += _mm256_extract_epi64(read_pass(p, bytes / 32), 0);
			gbps = (double)bytes * passes / (now_ns() - t0);
			if (gbps > best)
				best = gbps;
			if (passes == 1 && t >= 2)
				break;
		}
		printf("%zu %.2f\n", bytes, best);
		munmap(raw, alloc + HUGE_ALIGN);
	}
	return sink == 42 ? 3 : 0;
}
