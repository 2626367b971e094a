/* The card's loads-in-flight figures: each level's plateau of loads in
 * flight at the largest page size the mlp probe measured, and the page
 * walks in flight, read from the probe's rows by analysis/mlp_read.h, so a
 * run, `memprobe compare` and `memprobe fleet` (which rebuild the card
 * from results.csv) show the same figures. card.c holds one and shows it.
 */
#ifndef MEMPROBE_CARD_MLP_H
#define MEMPROBE_CARD_MLP_H

#include <stddef.h>
#include "analysis/mlp_read.h"

#define CARD_MLP_LEVELS 6

struct card_mlp_level {
	char name[16];            /* the probe's ("memory"), or the working set's
				     size where memory's lies under the floor */
	uint64_t bytes;           /* the working set */
	int cached;               /* the probe's memory, under the memory floor */
	struct mlp_plateau plateau;
	double gb_per_s;          /* the level's read bandwidth; 0: not measured */
	enum mlp_bound bound;
};

struct card_mlp {
	unsigned page_shift;      /* the page size the levels' figures are from */
	unsigned nlevels;         /* 0: the mlp probe did not run */
	struct card_mlp_level level[CARD_MLP_LEVELS];
	struct mlp_walks walks;   /* known: both page-walk curves ran and differ */
	int walks_measured;       /* both page-walk curves ran */
};

/* The figures of the mlp rows gathered in m (empty: nlevels 0), each
   level's bound from bw's read bandwidth at its working set (NULL: none). */
struct bandwidth_curves;
void card_mlp_build(struct card_mlp *out, const struct mlp_curves *m,
		    const struct bandwidth_curves *bw);
/* The memory level, where its working set lies under `floor` (4 x the
   largest cache; 0: unknown), as an mlp.memory_size under it leaves: no
   memory's, so named by its size ("256M") and marked cached. */
void card_mlp_mark_floor(struct card_mlp *c, uint64_t floor);
/* The card's lines, each at most `columns` characters: "in flight" per
   level, then the page walks when measured ("; no walk cost" on the
   first line where no walk cost was seen and it fits); returns how many
   of the two it wrote into line[0], line[1]. */
unsigned card_mlp_lines(const struct card_mlp *c, char line[2][96], size_t columns);
/* The summary's "mlp" object (nothing when nlevels is 0). */
struct json;
void card_mlp_json(struct json *j, const struct card_mlp *c);
/* Calls add(ctx, name, value) for each figure compare and fleet carry:
   "NAME loads in flight" per level, "page walks in flight". */
void card_mlp_figures(const struct card_mlp *c, void (*add)(void *ctx, const char *name,
							      double value), void *ctx);

#endif
