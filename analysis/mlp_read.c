/* The mlp probe's curves read (see mlp_read.h): the plateau is the highest
 * loads-in-flight figure rather than a fitted knee, because the curve past
 * its knee is flat within noise and the highest point is the least
 * contaminated reading of it, as the best trial is of a time.
 */

#include "analysis/mlp_read.h"
#include "analysis/bandwidth_levels.h"
#include "core/probe.h"
#include "lib/fmt.h"

/* ---- Public Functions ------------------------------------------------- */

double mlp_in_flight(const struct mlp_curve *c, size_t i)
{
	if (i >= c->n || !c->n || c->k[0] != 1 || !(c->ns[0] > 0) || !(c->ns[i] > 0))
		return 0;
	return c->ns[0] / c->ns[i];
}

void mlp_plateau_find(const struct mlp_curve *c, struct mlp_plateau *p)
{
	double early = 0;

	*p = (struct mlp_plateau){ 0 };
	if (!c->n || c->k[0] != 1 || !(c->ns[0] > 0))
		return;
	p->ns_one = c->ns[0];
	p->k_last = c->k[c->n - 1];
	for (size_t i = 0; i < c->n; i++) {
		double v = mlp_in_flight(c, i);

		if (v > p->in_flight)
			p->in_flight = v;
		if (!p->over_k && v > c->k[i] * (1 + MLP_OVER_MARGIN))
			p->over_k = c->k[i];
		/* Points up to three quarters of the last k: what the curve had
		   reached before its last stretch. */
		if (c->k[i] * 4 <= p->k_last * 3 && v > early)
			early = v;
	}
	for (size_t i = 0; i < c->n; i++)
		if (mlp_in_flight(c, i) >= p->in_flight * MLP_PLATEAU_SHARE) {
			p->k = c->k[i];
			break;
		}
	p->rising = c->n > 1 && mlp_in_flight(c, c->n - 1) > early * (1 + MLP_RISING_MARGIN);
	p->known = 1;
}

double mlp_bandwidth_in_flight(double gb_per_s, double ns_one)
{
	if (!(gb_per_s > 0) || !(ns_one > 0))
		return 0;
	/* lines a second x seconds a load: 10^9 B/s / 64 B x 10^-9 s. */
	return gb_per_s / ROW_CHASE_SLOT_BYTES * ns_one;
}

enum mlp_bound mlp_bound_of(const struct mlp_plateau *p, double gb_per_s)
{
	double allowed = mlp_bandwidth_in_flight(gb_per_s, p->ns_one);

	if (p->known && p->over_k)
		return MLP_BOUND_INCONSISTENT;
	if (p->known && p->rising)
		return MLP_BOUND_NOT_REACHED;
	if (!p->known || !(allowed > 0))
		return MLP_BOUND_UNTOLD;
	if (p->in_flight > allowed / MLP_BANDWIDTH_SHARE)
		return MLP_BOUND_ABOVE;
	return p->in_flight >= allowed * MLP_BANDWIDTH_SHARE ? MLP_BOUND_BANDWIDTH
							      : MLP_BOUND_OUTSTANDING;
}

const char *mlp_bound_name(enum mlp_bound b)
{
	switch (b) {
	case MLP_BOUND_BANDWIDTH: return "bandwidth";
	case MLP_BOUND_OUTSTANDING: return "outstanding";
	case MLP_BOUND_NOT_REACHED: return "rising";
	case MLP_BOUND_INCONSISTENT: return "inconsistent";
	case MLP_BOUND_ABOVE: return "above_bandwidth";
	case MLP_BOUND_UNTOLD: break;
	}
	return "untold";
}

/* mlp_level_bandwidth at page_shift only, or (any_page) at any. */
static double bandwidth_near(const struct bandwidth_curves *bw, unsigned page_shift,
			     uint64_t bytes, int any_page)
{
	double best = 0, best_ratio = 2.0;

	for (size_t s = 0; s < bw->nseries; s++) {
		const struct bandwidth_series *b = &bw->series[s];

		if (mp_strcmp(b->variant, bw->levels_from) || (!any_page && b->page_shift != page_shift))
			continue;
		for (size_t i = 0; i < b->n; i++) {
			double r = b->bytes[i] > (double)bytes ? b->bytes[i] / (double)bytes
							       : (double)bytes / b->bytes[i];

			/* Within 2x; of equally near points, the first. */
			if (r <= 2.0 && (!(best > 0) || r < best_ratio)) {
				best = b->gb_per_s[i];
				best_ratio = r;
			}
		}
	}
	return best;
}

double mlp_level_bandwidth(const struct bandwidth_curves *bw, unsigned page_shift,
			   uint64_t bytes)
{
	double gb;

	if (!bw || !bw->nseries || !bytes)
		return 0;
	gb = bandwidth_near(bw, page_shift, bytes, 0);
	return gb > 0 ? gb : bandwidth_near(bw, page_shift, bytes, 1);
}

void mlp_walks_find(const struct mlp_plateau *small, const struct mlp_plateau *large,
		    struct mlp_walks *w)
{
	*w = (struct mlp_walks){ 0 };
	if (!small->known || !large->known || small->over_k || large->over_k)
		return;
	w->walk_share = (small->ns_one - large->ns_one) / small->ns_one;
	if (w->walk_share < MLP_WALK_SEEN_SHARE)
		return;
	/* Little's law on the walks alone: loads in flight times the share
	   of each load's time that is its walk. */
	w->at_once = small->in_flight * w->walk_share;
	w->at_most = small->in_flight;
	w->limited = small->in_flight < large->in_flight * MLP_WALK_LIMIT_SHARE;
	w->known = 1;
}

int mlp_curves_add_row(struct mlp_curves *m, const struct result_row *row)
{
	struct mlp_curve *c = NULL;
	size_t i;

	if (probe_rows_read(row->probe) != ROWS_MLP || !row->chases.given || !row->variant ||
	    !(row->ns > 0))
		return -1;
	for (i = 0; i < m->n && !c; i++)
		if (m->curve[i].page_shift == row->page_shift &&
		    !mp_strcmp(m->curve[i].level, row->variant))
			c = &m->curve[i];
	if (!c) {
		if (m->n == MLP_CURVES_MAX)
			return -1;
		c = &m->curve[m->n++];
		*c = (struct mlp_curve){ .page_shift = row->page_shift,
					 .bytes = row->working_set_bytes };
		mp_strlcpy(c->level, row->variant, sizeof c->level);
	}
	if (c->n == MLP_POINTS_MAX)
		return -1;
	for (i = c->n; i > 0 && c->k[i - 1] > row->chases.value; i--) {
		c->k[i] = c->k[i - 1];
		c->ns[i] = c->ns[i - 1];
	}
	c->k[i] = row->chases.value;
	c->ns[i] = row->ns;
	c->n++;
	return 0;
}

const struct mlp_curve *mlp_curves_find(const struct mlp_curves *m, const char *level,
					unsigned page_shift)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->curve[i].page_shift == page_shift && !mp_strcmp(m->curve[i].level, level))
			return &m->curve[i];
	return NULL;
}
