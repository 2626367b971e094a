/* probes/sweep.c's revisits on a synthetic curve: a point a larger size
 * beats by over SWEEP_REVISIT_RISE is measured again while the revisits'
 * cost (size times reading) stays within SWEEP_REVISIT_COST_SHARE of the
 * grid's; past it the point stays as read and is not measured again.
 */

#include <string.h>

#include "check.h"
#include "lib/table.h"
#include "probes/sweep.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)

static const struct table_column columns[] = { { "working set", NULL, 11, 0, 0 } };
static const struct table shape = TABLE_OF(columns, "  ");

/* What each size reads: the grid's reading, then every reading after it. */
struct fake {
	uint64_t x[8];
	double first[8], again[8];
	unsigned measured[8], revisited[8];
	size_t n;
};

static int measure(void *ctx, uint64_t x, const char *point, double *y)
{
	struct fake *f = ctx;

	for (size_t i = 0; i < f->n; i++)
		if (f->x[i] == x) {
			*y = f->measured[i]++ ? f->again[i] : f->first[i];
			f->revisited[i] += !strcmp(point, "revisited");
			return 0;
		}
	return -1;
}

/* Sizes 4 KiB .. 512 MiB by 16x: a cheap disturbed point (64 KiB, 5 ns
   beaten by 1 MiB's 2) is measured again; an expensive one (128 MiB,
   400 ns beaten by 512 MiB's 200) would cost 128 Mi x 400 against a
   grid of about 512 Mi x 200 + 128 Mi x 400: over a quarter. */
static void test_budget(void)
{
	static struct sweep_curve s;
	static struct fake f = {
		.x = { 4 * KIB, 64 * KIB, 1 * MIB, 16 * MIB, 128 * MIB, 512 * MIB },
		.first = { 1, 5, 2, 20, 400, 200 },
		.again = { 1, 1.5, 2, 20, 150, 200 },
		.n = 6,
	};

	memset(&s, 0, sizeof s);
	s.spec = (struct sweep_spec){ .name = "test", .page_name = "4 KiB pages", .unit = 4096,
				      .revisit = 1, .measure = measure, .ctx = &f };
	for (size_t i = 0; i < f.n; i++)
		sweep_grid_add(&s, f.x[i]);
	CHECK(sweep_curve_run(&s, &shape, "test curve") == 0 && s.n == 6, "the curve runs (%zu)",
	      s.n);
	CHECK(f.revisited[1] == 1 && s.pt[1].y == 1.5,
	      "64 KiB, beaten, cheap: measured again once, the least reading kept (%u, %.1f)",
	      f.revisited[1], s.pt[1].y);
	CHECK(f.revisited[4] == 0 && s.pt[4].y == 400,
	      "128 MiB, beaten, over a quarter of the grid's cost: left as read (%u, %.1f)",
	      f.revisited[4], s.pt[4].y);
	CHECK(f.revisited[0] + f.revisited[2] + f.revisited[3] + f.revisited[5] == 0,
	      "no unbeaten point measured again");
}

int main(void)
{
	test_budget();
	return check_summary();
}
