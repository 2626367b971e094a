/* The call-cost probe through the host platform: every row present and
 * finite in both conventions, and at 1024 bytes a by-value call is never
 * cheaper than its by-pointer twin.
 */

#include <string.h>

#include "check.h"
#include "probe_rows.h"
#include "core/probe.h"
#include "probes/cost_settings.h"

static const unsigned sizes[] = { 16, 32, 64, 128, 192, 256, 384, 512, 768, 1024 };
static const char *const variants[] = {
	"by_value_sysv", "by_pointer_sysv", "by_value_ms", "by_pointer_ms",
};

static struct config small_config(void)
{
	struct config c;

	memset(&c, 0, sizeof c);
	COST_SETTINGS(&c)->reps = 100000;
	COST_SETTINGS(&c)->trials = 5;
	return c;
}

static void test_probe(void)
{
	static struct probe_rows rows;
	struct config c = small_config();
	const struct csv_row *r;
	int all = 1;

	rows.chart = "cost.svg";
	CHECK(probe_rows_run(probe_cost, &c, &rows) == 0, "results.csv read back");
	CHECK(rows.rc == 0, "the probe succeeded");
	CHECK(rows.chart_well_formed && rows.chart_curves == 4,
	      "cost.svg is well-formed with a curve per variant (%d)", rows.chart_curves);
	CHECK(rows.count == 2 + 4 * 10, "2 bare-call rows and 4 rows per size (%d)",
	      rows.count);
	r = probe_rows_find(&rows, "bare_call_sysv", 0, 0);
	CHECK(probe_row_sane(r) && r->trials == 5 && !strcmp(r->stopped_by, "count"),
	      "bare_call_sysv present, finite, 5 trials (cost.trials: a fixed count)");
	r = probe_rows_find(&rows, "bare_call_ms", 0, 0);
	CHECK(probe_row_sane(r) && r->trials == 5, "bare_call_ms present, finite, "
	      "5 trials");
	for (unsigned s = 0; s < 10; s++)
		for (unsigned v = 0; v < 4; v++) {
			r = probe_rows_find(&rows, variants[v], 0, sizes[s]);
			if (!probe_row_sane(r) || r->trials != 5) {
				all = 0;
				printf("# missing or insane: %s at %u bytes\n",
				       variants[v], sizes[s]);
			}
		}
	CHECK(all, "every size has all four variants, finite, page size empty");
	for (unsigned v = 0; v < 4; v += 2) {
		const struct csv_row *value = probe_rows_find(&rows, variants[v], 0, 1024);
		const struct csv_row *pointer = probe_rows_find(&rows, variants[v + 1], 0, 1024);

		CHECK(value && pointer && value->ns >= pointer->ns,
		      "1024 bytes: %s (%.2f ns) is not cheaper than %s (%.2f ns)",
		      variants[v], value ? value->ns : 0, variants[v + 1],
		      pointer ? pointer->ns : 0);
	}
}

/* cost.trials = 0: the shared stop rule, trials .. max_trials per loop,
   and each row says which limit ended it; cost.trials set: exactly that
   many, stopped by "count" (test_probe above). */
static void test_stop_rule(void)
{
	static struct probe_rows rows;
	struct config c = small_config();
	int in_rule = 1, limits = 1;

	COST_SETTINGS(&c)->trials = 0;
	c.trials = 3;
	c.max_trials = 6;
	c.precision = 0.5;
	CHECK(probe_rows_run(probe_cost, &c, &rows) == 0 && rows.rc == 0 &&
	      rows.count == 2 + 4 * 10, "cost.trials = 0: the probe runs on the stop rule (%d rows)",
	      rows.count);
	for (int i = 0; i < rows.count; i++) {
		const struct csv_row *r = &rows.row[i];

		if (r->trials < 3 || r->trials > 6)
			in_rule = 0;
		if (strcmp(r->stopped_by, "settled") && strcmp(r->stopped_by, "steady") &&
		    strcmp(r->stopped_by, "max_trials"))
			limits = 0;
	}
	CHECK(in_rule, "every row the best of 3 .. 6 trials");
	CHECK(limits, "every row names the rule's limit that ended it (%s)",
	      rows.count ? rows.row[0].stopped_by : "");
	COST_SETTINGS(&c)->trials = 4;
	CHECK(probe_rows_run(probe_cost, &c, &rows) == 0 && rows.rc == 0 &&
	      rows.count > 0 && rows.row[0].trials == 4 && !strcmp(rows.row[0].stopped_by, "count"),
	      "cost.trials = 4, set: a fixed count of 4, stopped by count (%u, %s)",
	      rows.count ? rows.row[0].trials : 0, rows.count ? rows.row[0].stopped_by : "");
}

int main(void)
{
	test_stop_rule();
	test_probe();
	return check_summary();
}
