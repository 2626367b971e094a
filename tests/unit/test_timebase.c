/* The integer a * b / c that efi/'s core clock uses (core/timebase.c):
   exact for small divisors, within its stated error for large ones, and
   no overflow at the sizes a section's counts reach; and the repetitions
   that size a trial from a warm-up. */

#include "check.h"
#include "core/timebase.h"

static double relative_error(uint64_t got, double want)
{
	double d = ((double)got - want) / want;

	return d < 0 ? -d : d;
}

static void test_reps_for_ticks(void)
{
	CHECK(reps_for_ticks(1000, 300, 3) == 10, "100 ticks each: 10 fill 1000");
	CHECK(reps_for_ticks(1000, 250, 1) == 4 && reps_for_ticks(1001, 250, 1) == 5,
	      "rounded up: a trial lasts at least the target");
	CHECK(reps_for_ticks(1000, 0, 5) == 1000,
	      "a warm-up too fast to tick counts each as one tick, never a division by zero");
	CHECK(reps_for_ticks(0, 100, 1) == 1 && reps_for_ticks(10, 5000, 1) == 1,
	      "at least one, however short the target or slow the pass");
}

int main(void)
{
	test_reps_for_ticks();
	/* A 10 ms section at 3 GHz with a 2.5 GHz counter. */
	CHECK(mul_div_u64(30000000, 2500000000ull, 25000000) == 3000000000ull,
	      "30 M cycles over 25 M ticks of a 2.5 GHz counter: 3 GHz exactly");
	CHECK(mul_div_u64(7, 3, 2) == 10, "small values round down (21 / 2)");
	CHECK(mul_div_u64(1001, 1000, 1000) == 1001, "a permille ratio");
	/* A 60 s section: 2.4e11 cycles over 1.5e11 ticks at 2.5 GHz, where
	   a * b alone would need 2^89. */
	CHECK(relative_error(mul_div_u64(240000000000ull, 2500000000ull, 150000000000ull), 4e9) <
	      1.0 / (1u << 29), "a minute-long section: 4 GHz within 2^-29 (%llu)",
	      (unsigned long long)mul_div_u64(240000000000ull, 2500000000ull, 150000000000ull));
	CHECK(relative_error(mul_div_u64(~0ull >> 1, (1ull << 34) - 1, ~0ull >> 2), 2.0 * ((1ull << 34) - 1)) <
	      1.0 / (1u << 28), "at the stated limits the result stays finite and close");
	return check_summary();
}
