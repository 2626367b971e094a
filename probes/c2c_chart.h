/* The c2c probe's matrix: which CPUs take part, the one-way latency of each
 * measured pair, its text table in the report and c2c.svg, the heatmap.
 */
#ifndef MEMPROBE_C2C_CHART_H
#define MEMPROBE_C2C_CHART_H

#include "core/config.h"
#include "core/platform.h"

struct c2c_matrix {
	unsigned n;                   /* CPUs taking part */
	unsigned cpu[PLAT_CPUS_MAX];  /* their logical numbers, ascending */
	double *ns;                   /* n x n, by position; NaN: not measured.
					 Scratch memory (plat_alloc), NULL when none */
};

/* How many CPUs c2c.cpus names that do not exist (at or above
   cpu_count); 0 for `all`, which names every CPU there is. */
unsigned c2c_cpus_missing(const struct config *c, unsigned cpu_count);
/* The CPUs of c2c.cpus that exist (below cpu_count) and an empty matrix;
   or, when c2c.cpus names CPUs that do not exist, a line in the report
   saying so and c2c_cpus_missing's count (the probe then measures nothing:
   a list that does not fit the machine was meant for another one). */
unsigned c2c_matrix_init(struct c2c_matrix *m, const struct config *c, unsigned cpu_count);
/* Both cells of the pair of logical CPUs (a, b). */
void c2c_matrix_set(struct c2c_matrix *m, unsigned a, unsigned b, double ns);
/* The matrix as a text table in the report, then c2c.svg; frees it. */
void c2c_matrix_finish(struct c2c_matrix *m);

#endif
