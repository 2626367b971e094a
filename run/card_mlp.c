/* The card's loads-in-flight figures (see card_mlp.h). */

#include "run/card_mlp.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "core/platform.h"

/* ---- Public Functions ------------------------------------------------- */

void card_mlp_build(struct card_mlp *out, const struct mlp_curves *m,
		    const struct bandwidth_curves *bw)
{
	const struct mlp_curve *small, *large;
	unsigned shift = 0;

	mp_memset(out, 0, sizeof *out);
	/* The largest pages, as the memory line's latency: a 4 KiB chase at
	   memory's working set walks on every load, and its walks, not
	   memory, bound what it keeps in flight (the page-walk line says so). */
	for (size_t i = 0; i < m->n; i++)
		if (mp_strcmp(m->curve[i].level, "page_walks") &&
		    m->curve[i].page_shift > shift)
			shift = m->curve[i].page_shift;
	out->page_shift = shift;
	for (size_t i = 0; i < m->n && out->nlevels < CARD_MLP_LEVELS; i++) {
		if (m->curve[i].page_shift != shift || !mp_strcmp(m->curve[i].level, "page_walks"))
			continue;
		struct card_mlp_level *l = &out->level[out->nlevels++];

		mp_strlcpy(l->name, m->curve[i].level, sizeof l->name);
		l->bytes = m->curve[i].bytes;
		mlp_plateau_find(&m->curve[i], &l->plateau);
		l->gb_per_s = mlp_level_bandwidth(bw, shift, l->bytes);
		l->bound = mlp_bound_of(&l->plateau, l->gb_per_s);
	}
	small = mlp_curves_find(m, "page_walks", PAGE_SHIFT_4K);
	large = mlp_curves_find(m, "page_walks", PAGE_SHIFT_2M);
	if (small && large) {
		struct mlp_plateau ps, pl;

		mlp_plateau_find(small, &ps);
		mlp_plateau_find(large, &pl);
		mlp_walks_find(&ps, &pl, &out->walks);
		out->walks_measured = 1;
	}
}

void card_mlp_mark_floor(struct card_mlp *c, uint64_t floor)
{
	for (unsigned i = 0; i < c->nlevels; i++) {
		struct card_mlp_level *l = &c->level[i];

		if (floor && l->bytes < floor && !mp_strcmp(l->name, "memory")) {
			mp_format_bytes_short(l->name, sizeof l->name, l->bytes);
			l->cached = 1;
		}
	}
}

unsigned card_mlp_lines(const struct card_mlp *c, char line[2][96], size_t columns)
{
	struct mp_text t = { line[0], columns + 1 < 96 ? columns + 1 : 96, 0 };
	char page[24];
	unsigned n = 0;

	if (c->nlevels) {
		mp_format_bytes_short(page, sizeof page, 1ull << c->page_shift);
		mp_append(&t, "mlp      in flight");
		for (unsigned i = 0; i < c->nlevels; i++)
			mp_append(&t, "%s %s %.1f%s", i ? "," : "", c->level[i].name,
				  c->level[i].plateau.in_flight,
				  c->level[i].plateau.over_k ? "?" :
				  c->level[i].plateau.rising ? "+" : "");
		mp_append(&t, " (%s)", page);
		n++;
	}
	if (c->walks_measured) {
		/* No walk cost seen: said on the levels' line where it fits. */
		if (n && !c->walks.known && t.len + sizeof "; no walk cost" - 1 <= columns) {
			mp_append(&t, "; no walk cost");
			return n;
		}
		t = (struct mp_text){ line[n], columns + 1 < 96 ? columns + 1 : 96, 0 };
		if (c->walks.known)
			mp_append(&t, "mlp      page walks in flight about %.1f (at most %.1f)%s",
				  c->walks.at_once, c->walks.at_most,
				  c->walks.limited ? ", the 4 KiB limit" : ", not the limit");
		else
			mp_append(&t, "mlp      page walks in flight: no walk cost seen");
		n++;
	}
	return n;
}

void card_mlp_json(struct json *j, const struct card_mlp *c)
{
	if (!c->nlevels)
		return;
	json_object_begin(j, "mlp");
	json_u64(j, "page_size", 1ull << c->page_shift);
	json_array_begin(j, "levels");
	for (unsigned i = 0; i < c->nlevels; i++) {
		const struct mlp_plateau *p = &c->level[i].plateau;

		json_object_begin(j, 0);
		json_string(j, "name", c->level[i].name);
		json_u64(j, "working_set_bytes", c->level[i].bytes);
		json_bool(j, "cached", c->level[i].cached);
		json_double(j, "in_flight", p->in_flight);
		json_u64(j, "from_chases", p->k);
		json_u64(j, "measured_to_chases", p->k_last);
		json_bool(j, "rising", p->rising);
		json_bool(j, "inconsistent", p->over_k != 0);
		json_double(j, "one_chase_ns", p->ns_one);
		if (c->level[i].gb_per_s > 0)
			json_double(j, "read_gb_per_s", c->level[i].gb_per_s);
		json_string(j, "bound", mlp_bound_name(c->level[i].bound));
		json_object_end(j);
	}
	json_array_end(j);
	if (c->walks_measured) {
		json_object_begin(j, "page_walks");
		json_bool(j, "seen", c->walks.known);
		json_double(j, "in_flight", c->walks.at_once);
		json_double(j, "at_most", c->walks.at_most);
		json_double(j, "walk_share", c->walks.walk_share);
		json_bool(j, "limit", c->walks.limited);
		json_object_end(j);
	}
	json_object_end(j);
}

void card_mlp_figures(const struct card_mlp *c, void (*add)(void *ctx, const char *name,
							      double value), void *ctx)
{
	char name[40];

	for (unsigned i = 0; i < c->nlevels; i++) {
		if (c->level[i].plateau.over_k)
			continue;
		mp_snprintf(name, sizeof name, "%s loads in flight", c->level[i].name);
		add(ctx, name, c->level[i].plateau.in_flight);
	}
	if (c->walks.known)
		add(ctx, "page walks in flight", c->walks.at_once);
}
