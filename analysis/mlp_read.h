/* Reading the mlp probe's curves: loads in flight against the number of
 * chases interleaved, the plateau each working set reaches, what bounds
 * it where the figures can tell, and the page walks the core runs at once.
 *
 * Pure: figures in, figures and words out. The probe reads its own points
 * as it measures them; the card (and through it `memprobe compare` and
 * `memprobe fleet`) reads the same points back from the rows, so both say
 * the same. docs/METHOD.md, "The mlp probe", gives the method and its
 * limits.
 */
#ifndef MEMPROBE_MLP_READ_H
#define MEMPROBE_MLP_READ_H

#include <stddef.h>
#include <stdint.h>
#include "results/columns.h"

/* The most chases one loop interleaves, and so the most points a curve
   holds (k = 1 .. 16 one by one, then by twos and eights: well under). */
#define MLP_CHASES_MAX 64u
#define MLP_POINTS_MAX 48u
/* The plateau is the highest figure; its k the first whose figure reaches
   this fraction of it. */
#define MLP_PLATEAU_SHARE 0.90
/* Still rising: the last point stands this far above every point at up to
   three quarters of the last k (more chases would have found more). */
#define MLP_RISING_MARGIN 0.05
/* The plateau is the level's bandwidth's when it reaches this share of the
   loads in flight that bandwidth allows at the level's own latency. */
#define MLP_BANDWIDTH_SHARE 0.80
/* Page walks limit the 4 KiB chase when its plateau is below this share of
   the 2 MiB chase's at the same working set. */
#define MLP_WALK_LIMIT_SHARE 0.90
/* k chases keep at most k loads in flight: a point above k by this margin
   says the one-chase time is not this working set's (mlp_plateau.over_k). */
#define MLP_OVER_MARGIN 0.50
/* The walk is seen when it adds at least this share to a load at k = 1. */
#define MLP_WALK_SEEN_SHARE 0.05

/* One working set at one page size: ns per load for k chases. */
struct mlp_curve {
	char level[16];           /* "L1", "L2", "L3", "memory", "page_walks" */
	unsigned page_shift;
	uint64_t bytes;           /* the working set */
	size_t n;
	unsigned k[MLP_POINTS_MAX];     /* ascending, k[0] == 1 for a usable curve */
	double ns[MLP_POINTS_MAX];      /* per load, over every chase */
};

struct mlp_plateau {
	int known;                /* 0: no point at k = 1, or no figure */
	double in_flight;         /* the highest ns(1) / ns(k) */
	unsigned k;               /* the first k within MLP_PLATEAU_SHARE of it */
	unsigned k_last;          /* the most chases measured */
	int rising;               /* the curve had not flattened by k_last */
	double ns_one;            /* ns per load at k = 1 */
	unsigned over_k;          /* the first k whose figure exceeds k by
				     MLP_OVER_MARGIN (0: none): the one-chase
				     point read another level, or was disturbed,
				     and the curve's figures do not hold */
};

/* Loads in flight at point i: ns at k = 1 over ns at k; 0 when either is
   missing. */
double mlp_in_flight(const struct mlp_curve *c, size_t i);
/* The curve's plateau (see struct mlp_plateau). */
void mlp_plateau_find(const struct mlp_curve *c, struct mlp_plateau *p);

/* What bounds a level's plateau, as far as the figures can tell. */
enum mlp_bound {
	MLP_BOUND_UNTOLD,         /* no bandwidth figure at this working set */
	MLP_BOUND_NOT_REACHED,    /* still rising at the most chases measured */
	MLP_BOUND_BANDWIDTH,      /* the level's line bandwidth x its latency */
	MLP_BOUND_OUTSTANDING,    /* below what bandwidth allows: the misses (or
				     loads) the core keeps outstanding */
	MLP_BOUND_INCONSISTENT,   /* the curve has an over_k: no figure holds */
	MLP_BOUND_ABOVE,          /* above what the read bandwidth allows by more
				     than 1 / MLP_BANDWIDTH_SHARE: the streaming
				     read's figure is not this level's limit for
				     single loads, and no other figure tells */
};
/* The loads in flight that a bandwidth of gb_per_s (10^9 bytes a second,
   64-byte lines) allows at ns_one per load (Little's law); 0 when either
   is not given. */
double mlp_bandwidth_in_flight(double gb_per_s, double ns_one);
/* The bound of plateau p given the level's read bandwidth (0: none measured
   in this run). */
enum mlp_bound mlp_bound_of(const struct mlp_plateau *p, double gb_per_s);
/* "bandwidth", "outstanding", "rising", "untold": the word of rows, JSON
   and the card. */
const char *mlp_bound_name(enum mlp_bound b);

/* The read bandwidth at a level's working set: of bw's read variant its
   levels come from (bandwidth_levels_find), the point nearest bytes within
   2x, at page_shift where that variant ran there, else at any page size.
   GB/s; 0 when none. */
struct bandwidth_curves;
double mlp_level_bandwidth(const struct bandwidth_curves *bw, unsigned page_shift,
			   uint64_t bytes);

/* Page walks in flight, from the page-walk chase at 4 KiB and at 2 MiB
   pages over the same working set. */
struct mlp_walks {
	int known;                /* both plateaus known and a walk seen */
	int limited;              /* the 4 KiB plateau is below the 2 MiB one */
	double walk_share;        /* (ns one 4 KiB - ns one 2 MiB) / ns one 4 KiB */
	double at_once;           /* walks in flight: 4 KiB plateau x walk_share */
	double at_most;           /* the 4 KiB plateau: no more walks than loads */
};
void mlp_walks_find(const struct mlp_plateau *small, const struct mlp_plateau *large,
		    struct mlp_walks *w);

/* ---- Curves from rows ------------------------------------------------- */

#define MLP_CURVES_MAX 24
struct mlp_curves {
	struct mlp_curve curve[MLP_CURVES_MAX];
	size_t n;
};
/* Takes an mlp row with its chases given (others ignored, -1): its point
   joins the curve of its variant and page size, k kept ascending. */
int mlp_curves_add_row(struct mlp_curves *m, const struct result_row *row);
/* The curve of level at page_shift; NULL when none. */
const struct mlp_curve *mlp_curves_find(const struct mlp_curves *m, const char *level,
					unsigned page_shift);

#endif
