/* memprobe fleet's pure parts: the median and the distance from it
 * (lib/median.c), the CSV field writer (lib/csv.c), and the newest run
 * per machine, the marks against the CPU model's median and the page's
 * order (desk/fleet_mark.c) over made-up fleets. tests/fleet.sh runs the
 * whole command over real run folders.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "desk/fleet.h"
#include "lib/csv.h"
#include "lib/median.h"

/* ---- Median ----------------------------------------------------------- */

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void test_median(void)
{
	double odd[] = { 5, 1, 4, 2, 3 }, even[] = { 8, 2, 6, 4 }, one[] = { 7 };
	double same[] = { 3, 3, 3, 3, 3, 3 }, two[] = { 10, 20 };
	int random_ok = 1;

	CHECK(median_of(odd, 5) == 3, "median of 5 values: the middle one");
	CHECK(median_of(even, 4) == 5, "median of 4 values: the mean of the middle two");
	CHECK(median_of(one, 1) == 7, "median of one value: itself");
	CHECK(median_of(same, 6) == 3, "median of equal values");
	CHECK(median_of(two, 2) == 15, "median of two: their mean");
	srand(25);
	for (int trial = 0; trial < 200; trial++) {
		double v[64], sorted[64], want;
		size_t n = 1 + (size_t)(rand() % 64);

		for (size_t i = 0; i < n; i++)
			v[i] = sorted[i] = (double)(rand() % 20);   /* many repeats */
		qsort(sorted, n, sizeof *sorted, by_value);
		want = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
		random_ok &= median_of(v, n) == want;
	}
	CHECK(random_ok, "median of 200 random sets (repeats included) equals the sorted middle");
}

static void test_off(void)
{
	CHECK(median_off_percent(125, 100) == 25, "25 above a median of 100: +25%%");
	CHECK(median_off_percent(80, 100) == -20, "80 against 100: -20%%");
	CHECK(median_off_percent(0, 0) == 0, "0 against a median of 0: not off");
	CHECK(median_off_percent(1, 0) > 1e8, "anything against a median of 0: far off, no NaN");
	CHECK(!median_differs(105, 100, 5), "exactly the threshold off: not marked");
	CHECK(median_differs(105.01, 100, 5), "just past the threshold: marked");
	CHECK(median_differs(94.9, 100, 5), "below the median by more: marked too");
	CHECK(!median_differs(100, 100, 0), "threshold 0: an equal figure stays unmarked");
}

/* ---- Csv_field -------------------------------------------------------- */

static void test_csv_field(void)
{
	char out[64];
	size_t n;

	csv_field(out, sizeof out, "plain");
	CHECK(!strcmp(out, "plain"), "a plain field as it is");
	csv_field(out, sizeof out, "L1 agrees, L2 differs");
	CHECK(!strcmp(out, "\"L1 agrees, L2 differs\""), "a comma: quoted");
	csv_field(out, sizeof out, "a \"b\"");
	CHECK(!strcmp(out, "\"a \"\"b\"\"\""), "quotes doubled inside quotes");
	csv_field(out, sizeof out, "two\nlines");
	CHECK(!strcmp(out, "\"two\nlines\""), "a line break: quoted");
	n = csv_field(out, 4, "a,bcdef");
	CHECK(n == 9 && strlen(out) == 3, "cut to size, the whole length returned (%zu)", n);
}

/* ---- Fleet_mark ------------------------------------------------------- */

static struct fleet_run run_of(const char *id, const char *cpu, const char *date, const char *name,
			       double l1_ns, double mem_ns)
{
	struct fleet_run r;

	memset(&r, 0, sizeof r);
	snprintf(r.machine_id, sizeof r.machine_id, "%s", id);
	snprintf(r.cpu, sizeof r.cpu, "%s", cpu);
	snprintf(r.date_time, sizeof r.date_time, "%s", date);
	snprintf(r.name, sizeof r.name, "%s", name);
	snprintf(r.fig[0].name, sizeof r.fig[0].name, "L1 ns");
	r.fig[0].value = l1_ns;
	r.nfig = 1;
	if (mem_ns > 0) {
		snprintf(r.fig[1].name, sizeof r.fig[1].name, "memory ns");
		r.fig[1].value = mem_ns;
		r.nfig = 2;
	}
	return r;
}

static void test_newer(void)
{
	struct fleet_run a = run_of("m", "c", "2026-12-03T01:00:00", "run-0001", 1, 0);
	struct fleet_run b = run_of("m", "c", "2026-12-02T01:00:00", "run-0009", 1, 0);
	struct fleet_run c = run_of("m", "c", "firmware clock unreadable", "run-0012", 1, 0);

	CHECK(fleet_run_newer(&a, &b) && !fleet_run_newer(&b, &a),
	      "the later date_time is newer, whatever the folder names say");
	CHECK(fleet_run_newer(&c, &b) && fleet_run_newer(&c, &a),
	      "without a date on one side, the folder name decides (run-0012 after run-0009)");
	CHECK(!fleet_run_newer(&a, &a), "a run is not newer than itself");
}

static void test_keep(void)
{
	struct fleet_run r[5];

	r[0] = run_of("m1", "c", "2026-12-01T00:00:00", "run-a", 1, 0);
	r[1] = run_of("m1", "c", "2026-12-03T00:00:00", "run-b", 1, 0);
	r[2] = run_of("m2", "c", "2026-12-02T00:00:00", "run-c", 1, 0);
	r[3] = run_of("m1", "c", "2026-12-02T00:00:00", "run-d", 1, 0);
	r[4] = run_of("m2", "c", "2026-12-02T00:00:00", "run-c", 1, 0);   /* the same run twice */
	CHECK(fleet_keep(r, 5, 0) == 2, "one run kept per machine (2 machines)");
	CHECK(!r[0].kept && r[1].kept && !r[3].kept, "m1: its newest run kept");
	CHECK(r[2].kept && !r[4].kept, "m2: of two equal runs, the first found kept");
	CHECK(fleet_keep(r, 5, 1) == 5, "--all keeps every run");
}

static void test_mark(void)
{
	struct fleet_run r[6];

	r[0] = run_of("a", "X", "", "r", 1.00, 100);
	r[1] = run_of("b", "X", "", "r", 1.02, 101);
	r[2] = run_of("c", "X", "", "r", 0.99, 140);   /* memory 40% slow */
	r[3] = run_of("d", "X", "", "r", 1.01, 0);     /* no memory figure */
	r[4] = run_of("e", "Y", "", "r", 3.00, 300);   /* alone in its model */
	r[5] = run_of("f", "X", "", "r", 9.00, 900);   /* not kept: left out of medians */
	fleet_keep(r, 5, 1);
	r[5].kept = 0;
	fleet_mark(r, 6, 5);
	CHECK(r[2].nmarked == 1 && r[2].marked[1] && !r[2].marked[0],
	      "the slow machine marked on its memory figure only");
	CHECK(fabs(r[2].median[1] - 101) < 1e-9 && fabs(r[2].off[1] - 100.0 * 39 / 101) < 1e-9,
	      "against the median of its model's three memory figures (101): +%.1f%%",
	      r[2].off[1]);
	CHECK(r[0].nmarked == 0 && r[1].nmarked == 0 && r[3].nmarked == 0,
	      "the others within 5%% are not marked");
	CHECK(r[0].median[0] == 1.005, "L1 over the model's four machines: median 1.005");
	CHECK(r[0].peers == 4 && r[4].peers == 1, "CPU models grouped: 4 of X, 1 of Y");
	CHECK(isnan(r[4].median[0]) && r[4].nmarked == 0,
	      "the only machine of its model: not compared, not marked");
	fleet_mark(r, 6, 50);
	CHECK(r[2].nmarked == 0, "a wider threshold (50%%): nothing marked");
}

/* A figure its card starred (it could move between runs: a VM's memory
   read 371 to 478 ns in quiet runs of one machine) is shown off the
   median but never marked; the same figure unstarred is. */
static void test_mark_starred(void)
{
	struct fleet_run r[3];

	r[0] = run_of("a", "X", "", "r", 1.00, 400);
	r[1] = run_of("b", "X", "", "r", 1.00, 410);
	r[2] = run_of("c", "X", "", "r", 1.00, 480);
	r[2].fig[1].starred = 1;
	fleet_keep(r, 3, 1);
	fleet_mark(r, 3, 5);
	CHECK(r[2].nmarked == 0 && !r[2].marked[1] && r[2].doubtful[1],
	      "memory 17%% over the median but starred on its card: doubtful, not marked");
	r[2].fig[1].starred = 0;
	fleet_mark(r, 3, 5);
	CHECK(r[2].nmarked == 1 && r[2].marked[1] && !r[2].doubtful[1],
	      "the same figure unstarred: marked");
}

static void test_mark_two(void)
{
	struct fleet_run r[2];

	r[0] = run_of("a", "X", "", "r", 1.0, 100);
	r[1] = run_of("b", "X", "", "r", 1.0, 130);
	fleet_keep(r, 2, 0);
	fleet_mark(r, 2, 5);
	CHECK(!r[0].marked[1] && !r[1].marked[1] && isnan(r[0].median[1]) && isnan(r[1].median[1]),
	      "two machines that differ: no median to hold either against, neither marked");
}

static void test_order(void)
{
	struct fleet_run r[3];
	struct fleet_run *p[3] = { &r[0], &r[1], &r[2] };

	r[0] = run_of("b", "X", "", "r", 1, 0);
	r[1] = run_of("a", "X", "", "r", 1, 0);
	r[2] = run_of("c", "X", "", "r", 1, 0);
	r[2].nmarked = 1;
	qsort(p, 3, sizeof *p, fleet_order);
	CHECK(p[0] == &r[2] && p[1] == &r[1] && p[2] == &r[0],
	      "marked machines first, then by machine id");
}

int main(void)
{
	test_median();
	test_off();
	test_csv_field();
	test_newer();
	test_keep();
	test_mark();
	test_mark_two();
	test_mark_starred();
	test_order();
	return check_summary();
}
