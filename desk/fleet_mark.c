/* memprobe fleet: the newest run per machine, and each figure held against
 * the median of its CPU model (see fleet.h). Pure: plain data in, plain
 * data out, so the unit tests drive it with made-up fleets.
 */

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "desk/fleet.h"
#include "lib/median.h"
#include "desk/desk.h"

/* ---- Private Functions ------------------------------------------------ */

/* 1 when text begins as a date ("2026-..."): "firmware clock unreadable"
   and "" do not, and are then no ground to order runs by. */
static int is_date(const char *text)
{
	return isdigit((unsigned char)text[0]) && isdigit((unsigned char)text[3]) &&
	       text[4] == '-';
}

/* One figure name over a group: its median over the members that have
   it, and each member's distance from it. */
static void mark_figure(struct fleet_run **member, size_t g, const char *name,
			double threshold, double *scratch)
{
	size_t have = 0;
	double m;
	int off;

	for (size_t i = 0; i < g; i++) {
		int k = fleet_figure(member[i], name);
		if (k >= 0)
			scratch[have++] = member[i]->fig[k].value;
	}
	if (have < FLEET_MEDIAN_MIN)
		return;   /* no median to hold it against: it stays NAN */
	m = median_of(scratch, have);
	for (size_t i = 0; i < g; i++) {
		struct fleet_run *r = member[i];
		int k = fleet_figure(r, name);

		if (k < 0 || !isnan(r->median[k]))
			continue;
		r->median[k] = m;
		r->off[k] = median_off_percent(r->fig[k].value, m);
		/* A starred figure could move by itself from run to run: off
		   the median it is shown as doubtful, never marked, so a
		   VM's moving L3 raises no alarm. */
		off = median_differs(r->fig[k].value, m, threshold);
		r->marked[k] = (unsigned char)(off && !r->fig[k].starred);
		r->doubtful[k] = (unsigned char)(off && r->fig[k].starred);
		r->nmarked += r->marked[k];
	}
}

/* Every figure of the group (the kept runs of one CPU model). */
static void mark_group(struct fleet_run **member, size_t g, double threshold)
{
	double *scratch = desk_must(malloc(g * sizeof *scratch));

	for (size_t i = 0; i < g; i++)
		member[i]->peers = (unsigned)g;
	/* Each name once: the first member holding it marks it for all. */
	for (size_t i = 0; i < g; i++)
		for (size_t k = 0; k < member[i]->nfig; k++)
			if (isnan(member[i]->median[k]))
				mark_figure(member, g, member[i]->fig[k].name, threshold, scratch);
	free(scratch);
}

/* ---- Public Functions ------------------------------------------------- */

int fleet_figure(const struct fleet_run *r, const char *name)
{
	for (size_t k = 0; k < r->nfig; k++)
		if (!strcmp(r->fig[k].name, name))
			return (int)k;
	return -1;
}

int fleet_run_newer(const struct fleet_run *a, const struct fleet_run *b)
{
	if (is_date(a->date_time) && is_date(b->date_time)) {
		int c = strcmp(a->date_time, b->date_time);
		if (c)
			return c > 0;
	}
	return strcmp(a->name, b->name) > 0;
}

size_t fleet_keep(struct fleet_run *runs, size_t n, int all)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		runs[i].kept = 1;
		/* Of two equally new runs of a machine (the same run uploaded and
		   copied off a stick) the first found stays. */
		for (size_t j = 0; j < n && !all && runs[i].kept; j++)
			if (j != i && !strcmp(runs[j].machine_id, runs[i].machine_id) &&
			    (fleet_run_newer(&runs[j], &runs[i]) ||
			     (j < i && !fleet_run_newer(&runs[i], &runs[j]))))
				runs[i].kept = 0;
		kept += (size_t)runs[i].kept;
	}
	return kept;
}

void fleet_mark(struct fleet_run *runs, size_t n, double threshold)
{
	struct fleet_run **member = desk_must(malloc((n ? n : 1) * sizeof *member));
	unsigned char *done = desk_must(calloc(n ? n : 1, 1));

	for (size_t i = 0; i < n; i++) {
		runs[i].nmarked = runs[i].peers = 0;
		for (size_t k = 0; k < CARD_MAX_FIGURES; k++) {
			runs[i].median[k] = NAN;
			runs[i].off[k] = 0;
			runs[i].marked[k] = 0;
			runs[i].doubtful[k] = 0;
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t g = 0;

		if (!runs[i].kept || done[i])
			continue;
		for (size_t j = i; j < n; j++)
			if (runs[j].kept && !strcmp(runs[j].cpu, runs[i].cpu)) {
				member[g++] = &runs[j];
				done[j] = 1;
			}
		mark_group(member, g, threshold);
	}
	free(done);
	free(member);
}

int fleet_order(const void *pa, const void *pb)
{
	const struct fleet_run *a = *(const struct fleet_run *const *)pa;
	const struct fleet_run *b = *(const struct fleet_run *const *)pb;
	int c;

	if (!a->nmarked != !b->nmarked)
		return a->nmarked ? -1 : 1;
	if ((c = strcmp(a->cpu, b->cpu)) || (c = strcmp(a->machine_id, b->machine_id)))
		return c;
	return fleet_run_newer(a, b) ? -1 : fleet_run_newer(b, a);
}
