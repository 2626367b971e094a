/* The one way a probe turns a measured figure into a results row: the
 * cycles always come from the same ns through the core clock, and the
 * timer column always names the platform's clock source.
 */
#ifndef MEMPROBE_EMIT_H
#define MEMPROBE_EMIT_H

#include <stdint.h>

struct figure {
	const char *probe, *variant;
	unsigned page_shift;          /* 0 where no buffer is involved */
	uint64_t working_set_bytes;
	double ns;
	unsigned trials;
	double spread;
	const char *pages_verified;   /* "" where no buffer is involved */
};

/* Writes the row; returns f->ns in core cycles, for the report text. */
double emit_figure(const struct figure *f);

#endif
