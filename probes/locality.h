/* The locality probe's pure helper: the matrix shape that fits the memory
 * a page size offers.
 */
#ifndef MEMPROBE_LOCALITY_H
#define MEMPROBE_LOCALITY_H

#include <stdint.h>
#include "core/config.h"

/* The settings of the locality probe: its keys' values, in its block of
   struct config, read through LOCALITY_SETTINGS(c); its keys, ranges and
   defaults are its registry row's (locality.c). */
struct locality_settings {
	unsigned rows, cols, reps;
	unsigned bands;           /* the column walk's bands (locality_band) */
};
#define LOCALITY_SETTINGS(c) PROBE_SETTINGS(struct locality_settings, c, PROBE_ID_LOCALITY)

struct matrix_shape {
	uint32_t rows, cols;      /* of 4-byte ints, row-major */
};

/* The configured rows x cols when it fits in max_bytes (returns 0), else the
   largest shape with about the configured aspect ratio that fits and whose
   row length is not a power of two (returns 1), else -1 (not even a few
   rows fit). A power-of-two row length would put every element of a column
   in the same few cache sets, and the column walk would time set conflicts
   rather than locality. */
int locality_fit_shape(uint32_t rows, uint32_t cols, uint64_t max_bytes,
		       struct matrix_shape *out);

/* The columns [first, end) that repetition rep's column walk sums when the
   walk is cut into `bands` bands of cols / bands columns each (at least
   one), taken in turn; the cols % bands columns past the last band are not
   walked. Every band spans every row, so each column touches the same
   lines and pages as in a whole walk, and a band's time per element is the
   whole walk's; 1 band is the whole matrix. */
void locality_band(const struct matrix_shape *s, unsigned bands, unsigned rep,
		   uint32_t *first, uint32_t *end);

/* The sum of columns [first, end) of the matrix the probe writes (element
   k holds k & 1), modulo 2^32: what a correct walk of that band returns. */
uint32_t locality_band_sum(const struct matrix_shape *s, uint32_t first, uint32_t end);

#endif
