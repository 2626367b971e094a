/* mlp.svg: loads in flight against the chases interleaved, one curve per
 * working set and page size, drawn from the points the mlp probe measured.
 */
#ifndef MEMPROBE_MLP_CHART_H
#define MEMPROBE_MLP_CHART_H

#include "analysis/mlp_read.h"

/* Writes mlp.svg into the run folder from every curve of m; nothing when
   m holds none. */
void mlp_chart_write(const struct mlp_curves *m);

#endif
