/* Cache levels from the bandwidth curves, and bandwidth.svg (see
 * bandwidth_levels.h, docs/METHOD.md).
 */

#include "analysis/bandwidth_levels.h"
#include "lib/json.h"
#include "results/report_table.h"
#include "core/probe.h"

/* ---- Constants -------------------------------------------------------- */

#define LINE_BYTES 64.0
/* Nearest edges further apart than this are different levels, not one
   level the two methods place differently. */
#define SAME_LEVEL_FACTOR 4.0
#define MAX_PAIRS (2 * EDGES_MAX_LEVELS)
#define MAX_MARKERS 16

/* The panels of bandwidth.svg, by the variant's first word. */
static const char *const panel_ops[] = { "read", "write", "copy", "ntwrite" };
#define PANELS (sizeof panel_ops / sizeof *panel_ops)

/* A row per edge, the latency curves' beside bandwidth's. */
static const struct table_column edge_columns[] = {
	{ "latency edge", NULL, 14, 0, 0 },
	{ "bandwidth edge", NULL, 16, 0, 0 },
	{ "GB/s below", NULL, 12, 0, 0 },
	{ "verdict", NULL, 0, 1, 3 },
};
static const struct table edge_table = TABLE_OF(edge_columns, "  ");

/* ---- Private Types ---------------------------------------------------- */

/* A latency edge and the bandwidth edge nearest it, or either alone. */
struct edge_pair {
	const struct level *latency, *bandwidth;
	const char *verdict;      /* "agrees", "differs", "latency only", "bandwidth only" */
};

/* ---- Private Functions ------------------------------------------------ */

/* Equal strings (no libc in the EFI build). */
static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* 1 when s begins with prefix: "read_avx2" with "read_". */
static int starts_with(const char *s, const char *prefix)
{
	while (*prefix && *s == *prefix)
		s++, prefix++;
	return !*prefix;
}

/* 1 for an all-core variant (bandwidth.cores > 1): a name ending in _x
   and a CPU count, "read_avx2_x4". */
static int is_all_core(const char *variant)
{
	const char *end = variant + mp_strlen(variant), *p = end;

	while (p > variant && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return p < end && p - variant >= 2 && p[-1] == 'x' && p[-2] == '_';
}

/* The series of this variant and page size, made empty when new; NULL when
   BANDWIDTH_MAX_SERIES are taken. */
static struct bandwidth_series *series_for(struct bandwidth_curves *b, const char *variant,
					   unsigned page_shift)
{
	struct bandwidth_series *s;

	for (size_t i = 0; i < b->nseries; i++)
		if (b->series[i].page_shift == page_shift && same(b->series[i].variant, variant))
			return &b->series[i];
	if (b->nseries >= BANDWIDTH_MAX_SERIES)
		return 0;
	s = &b->series[b->nseries++];
	mp_strlcpy(s->variant, variant, sizeof s->variant);
	s->page_shift = page_shift;
	s->n = 0;
	return s;
}

/* A cache edge of a hierarchy: an edge seen in every page size's curve,
   or, with one page size, any edge (it cannot be told from a TLB's there). */
static int is_cache_edge(const struct hierarchy *h, const struct level *l)
{
	return l->kind == LEVEL_CACHE || (!h->attributed && l->kind == LEVEL_EDGE);
}

/* How far apart two capacities are, as a factor >= 1. */
static double ratio(uint64_t a, uint64_t b)
{
	return a > b ? (double)a / (double)b : (double)b / (double)a;
}

/* Pairs each latency cache edge with the nearest unpaired bandwidth one;
   the rest stand alone. Ascending by capacity. Returns the count. */
static size_t pair_edges(const struct bandwidth_curves *b, const struct hierarchy *latency,
			 struct edge_pair *out)
{
	int used[EDGES_MAX_LEVELS] = { 0 };
	size_t n = 0;

	for (size_t i = 0; latency && i < latency->nlevels; i++) {
		const struct level *l = &latency->level[i];
		size_t best = EDGES_MAX_LEVELS;

		if (!is_cache_edge(latency, l))
			continue;
		for (size_t j = 0; j < b->h.nlevels; j++)
			if (is_cache_edge(&b->h, &b->h.level[j]) && !used[j] &&
			    (best == EDGES_MAX_LEVELS ||
			     ratio(l->size_bytes, b->h.level[j].size_bytes) <
			     ratio(l->size_bytes, b->h.level[best].size_bytes)))
				best = j;
		out[n].latency = l;
		out[n].bandwidth = 0;
		out[n].verdict = "latency only";
		if (best < EDGES_MAX_LEVELS &&
		    ratio(l->size_bytes, b->h.level[best].size_bytes) <= SAME_LEVEL_FACTOR) {
			used[best] = 1;
			out[n].bandwidth = &b->h.level[best];
			out[n].verdict = ratio(l->size_bytes, b->h.level[best].size_bytes) <=
				BANDWIDTH_AGREE_FACTOR ? "agrees" : "differs";
		}
		n++;
	}
	for (size_t j = 0; j < b->h.nlevels; j++) {
		size_t k = n;

		if (!is_cache_edge(&b->h, &b->h.level[j]) || used[j])
			continue;
		/* Into capacity order among the pairs. */
		while (k > 0 && (out[k - 1].latency ? out[k - 1].latency : out[k - 1].bandwidth)
				->size_bytes > b->h.level[j].size_bytes) {
			out[k] = out[k - 1];
			k--;
		}
		out[k].latency = 0;
		out[k].bandwidth = &b->h.level[j];
		out[k].verdict = "bandwidth only";
		n++;
	}
	return n;
}

/* The level past the last edge (memory, usually), or NULL. */
static const struct level *top_level(const struct hierarchy *h)
{
	for (size_t i = 0; i < h->nlevels; i++)
		if (h->level[i].kind == LEVEL_TOP)
			return &h->level[i];
	return 0;
}

/* "48 KiB" for a level's capacity, "-" for no level. */
static void size_or_dash(char *buf, size_t size, const struct level *l)
{
	if (l)
		mp_format_bytes(buf, size, l->size_bytes);
	else
		mp_strlcpy(buf, "-", size);
}

/* ---- Public Functions ------------------------------------------------- */

int bandwidth_curves_add_row(struct bandwidth_curves *b, const struct result_row *row)
{
	struct bandwidth_series *s;
	size_t k;

	if (probe_rows_read(row->probe) != ROWS_BANDWIDTH)
		return -1;
	s = row->variant ? series_for(b, row->variant, row->page_shift) : 0;
	if (!s || s->n >= BANDWIDTH_MAX_POINTS || !row->working_set_bytes ||
	    !row->gb_per_s.given || !(row->gb_per_s.value > 0) || !(row->ns > 0) ||
	    row->gb_per_s.value > 1e300) {
		b->ignored_rows++;
		return -1;
	}
	/* Kept ascending by size. */
	k = s->n++;
	while (k > 0 && s->bytes[k - 1] > (double)row->working_set_bytes) {
		s->bytes[k] = s->bytes[k - 1];
		s->gb_per_s[k] = s->gb_per_s[k - 1];
		s->ns[k] = s->ns[k - 1];
		s->cycles[k] = s->cycles[k - 1];
		k--;
	}
	s->bytes[k] = (double)row->working_set_bytes;
	s->gb_per_s[k] = row->gb_per_s.value;
	s->ns[k] = row->ns;
	s->cycles[k] = row->cycles;
	b->rows++;
	return 0;
}

void bandwidth_levels_find(struct bandwidth_curves *b)
{
	double fastest = 0;

	b->levels_from[0] = '\0';
	b->ncurves = 0;
	for (size_t i = 0; i < b->nseries; i++)
		for (size_t k = 0; k < b->series[i].n; k++)
			if (starts_with(b->series[i].variant, "read_") &&
			    !is_all_core(b->series[i].variant) &&
			    b->series[i].gb_per_s[k] > fastest) {
				fastest = b->series[i].gb_per_s[k];
				mp_strlcpy(b->levels_from, b->series[i].variant,
					   sizeof b->levels_from);
			}
	for (size_t i = 0; i < b->nseries && b->ncurves < EDGES_MAX_CURVES; i++) {
		const struct bandwidth_series *s = &b->series[i];
		struct curve *c;
		size_t at = b->ncurves;

		if (!b->levels_from[0] || !same(s->variant, b->levels_from))
			continue;
		/* Ascending page size, as hierarchy_find's attribution reads them. */
		while (at > 0 && b->curve[at - 1].page_shift > s->page_shift) {
			b->curve[at] = b->curve[at - 1];
			at--;
		}
		c = &b->curve[at];
		curve_init(c, s->page_shift);
		for (size_t k = 0; k < s->n; k++)
			curve_add(c, (uint64_t)s->bytes[k], s->ns[k], s->cycles[k]);
		b->ncurves++;
	}
	hierarchy_find(b->curve, b->ncurves, NULL, &b->h);
}

const struct level *bandwidth_edge_of(const struct bandwidth_curves *b,
				      const struct hierarchy *latency, const struct level *l)
{
	static struct edge_pair pairs[MAX_PAIRS];
	size_t n = pair_edges(b, latency, pairs);

	for (size_t i = 0; i < n; i++)
		if (pairs[i].latency == l)
			return pairs[i].bandwidth;
	return 0;
}

void bandwidth_levels_print(const struct bandwidth_curves *b, const struct hierarchy *latency,
			    const struct mp_printer *p)
{
	struct edge_pair pairs[MAX_PAIRS];
	const struct level *top = top_level(&b->h);
	size_t n;
	int all_core = 0;

	for (size_t i = 0; i < b->nseries; i++)
		all_core |= is_all_core(b->series[i].variant);
	if (!b->ncurves && all_core)
		mp_print(p, "\n  cache levels from bandwidth: not read: no one-CPU read rows; the "
			 "all-core rows (_xN) share each working set out over N CPUs, so a "
			 "per-core cache's edge stands at N times its size there\n");
	if (!b->ncurves)
		return;
	mp_print(p, "\n  cache levels from bandwidth (where %s, the fastest read, steps down), "
		 "beside the latency curves' edges:\n", b->levels_from);
	if (!b->h.attributed)
		mp_print(p, "  one page size only: its edges are taken as cache edges\n");
	n = pair_edges(b, latency, pairs);
	report_table_begin(&edge_table, "cache levels from bandwidth, beside latency's edges", p);
	for (size_t i = 0; i < n; i++) {
		char lat[24], bw[24], gbps[24];

		size_or_dash(lat, sizeof lat, pairs[i].latency);
		size_or_dash(bw, sizeof bw, pairs[i].bandwidth);
		if (pairs[i].bandwidth)
			mp_snprintf(gbps, sizeof gbps, "%.1f", LINE_BYTES / pairs[i].bandwidth->ns);
		else
			mp_strlcpy(gbps, "-", sizeof gbps);
		report_table_cell("%s", lat);
		report_table_cell("%s", bw);
		report_table_cell("%s", gbps);
		report_table_cell("%s", pairs[i].verdict);
		report_table_row(0);
	}
	report_table_end();
	if (!n)
		mp_print(p, "  no cache edge in either: the sweeps show one level only\n");
	if (!latency || !latency->nlevels)
		mp_print(p, "  no latency rows: bandwidth edges shown alone\n");
	if (top) {
		char from[24];

		mp_format_bytes(from, sizeof from, top->below_bytes);
		mp_print(p, "  past the last edge (from %s): %.1f GB/s\n", from,
			 LINE_BYTES / top->ns);
	}
}

void bandwidth_levels_json(struct json *j, const struct bandwidth_curves *b,
			   const struct hierarchy *latency)
{
	struct edge_pair pairs[MAX_PAIRS];
	size_t n = pair_edges(b, latency, pairs);

	json_string(j, "levels_from", b->levels_from);
	json_array_begin(j, "edges");
	for (size_t i = 0; i < n; i++) {
		json_object_begin(j, 0);
		if (pairs[i].bandwidth) {
			json_u64(j, "size_bytes", pairs[i].bandwidth->size_bytes);
			json_double(j, "gb_per_s_below", LINE_BYTES / pairs[i].bandwidth->ns);
		}
		if (pairs[i].latency)
			json_u64(j, "latency_size_bytes", pairs[i].latency->size_bytes);
		json_string(j, "verdict", pairs[i].verdict);
		json_object_end(j);
	}
	json_array_end(j);
}

int bandwidth_write_svg(const struct bandwidth_curves *b, svg_write_fn write, void *ctx)
{
	static char titles[PANELS][96], labels[BANDWIDTH_MAX_SERIES][48];
	static char mark_text[MAX_MARKERS][48];
	static struct svg_series series[BANDWIDTH_MAX_SERIES];
	struct svg_chart panels[PANELS];
	struct svg_marker marks[MAX_MARKERS];
	size_t used = 0, nmarks = 0;

	for (size_t i = 0; i < b->h.nlevels && nmarks < MAX_MARKERS; i++) {
		const struct level *l = &b->h.level[i];
		char size[24];

		if (!is_cache_edge(&b->h, l))
			continue;
		mp_format_bytes(size, sizeof size, l->size_bytes);
		mp_snprintf(mark_text[nmarks], sizeof mark_text[nmarks], "edge %s", size);
		marks[nmarks] = (struct svg_marker){ (double)l->size_bytes, mark_text[nmarks], -1, 0 };
		nmarks++;
	}
	for (size_t op = 0; op < PANELS; op++) {
		size_t first = used;
		char prefix[16];

		mp_snprintf(prefix, sizeof prefix, "%s_", panel_ops[op]);
		for (size_t i = 0; i < b->nseries; i++) {
			const struct bandwidth_series *s = &b->series[i];
			char page[24];

			if (!starts_with(s->variant, prefix))
				continue;
			mp_format_bytes(page, sizeof page, 1ull << s->page_shift);
			mp_snprintf(labels[used], sizeof labels[used], "%s, %s pages",
				    s->variant + mp_strlen(prefix), page);
			series[used] = (struct svg_series){ labels[used], s->n, s->bytes, s->gb_per_s };
			used++;
		}
		mp_snprintf(titles[op], sizeof titles[op],
			    "memprobe: %s bandwidth by working set, per vector set and page size",
			    panel_ops[op]);
		panels[op] = (struct svg_chart){
			.title = titles[op], .x_label = "working set (log2 scale)",
			.y_label = "GB/s, 10^9 bytes per second (log scale)", .x_is_bytes = 1,
			.series = &series[first], .nseries = used - first,
			.markers = marks, .nmarkers = nmarks,
		};
	}
	return svg_write_panels(panels, PANELS, write, ctx);
}
