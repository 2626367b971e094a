/* Whether two configurations mean the same run: field by field, since the
 * padding bytes of two structs need not agree, and the end action only
 * where it was set. Shared by the unit test and the fuzz target, which both
 * check the config_describe -> config_load round trip.
 */
#ifndef MEMPROBE_CONFIG_EQUAL_H
#define MEMPROBE_CONFIG_EQUAL_H

#include "probes/config.h"

static inline int config_equal(const struct config *a, const struct config *b)
{
	return a->profile == b->profile && a->probes == b->probes && a->pages == b->pages &&
	       a->min_size == b->min_size && a->max_size == b->max_size &&
	       a->trials == b->trials && a->max_trials == b->max_trials &&
	       a->precision == b->precision && a->step_ms == b->step_ms &&
	       a->tlb_min_pages == b->tlb_min_pages && a->tlb_max_pages == b->tlb_max_pages &&
	       a->tlb_max_buffer == b->tlb_max_buffer &&
	       a->locality_rows == b->locality_rows && a->locality_cols == b->locality_cols &&
	       a->locality_reps == b->locality_reps && a->later_table == b->later_table &&
	       a->later_block == b->later_block && a->later_stride == b->later_stride &&
	       a->later_steps == b->later_steps && a->later_precision == b->later_precision &&
	       a->later_min_repeat == b->later_min_repeat &&
	       a->later_max_repeat == b->later_max_repeat && a->cost_reps == b->cost_reps &&
	       a->cost_trials == b->cost_trials && a->fault_vector == b->fault_vector &&
	       a->end_set == b->end_set && (!a->end_set || a->end == b->end);
}

#endif
