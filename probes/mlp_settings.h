/* The settings of the mlp probe (mlp.c): its keys' values, in its block of
 * struct config (core/config.h), read through MLP_SETTINGS(c). Its keys,
 * their ranges and defaults are its registry row's.
 */
#ifndef MEMPROBE_MLP_SETTINGS_H
#define MEMPROBE_MLP_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

struct mlp_settings {
	unsigned chases;          /* the fewest chases each curve goes to */
	unsigned walks;           /* 1: the page-walk chase runs too */
	uint64_t memory_size;     /* memory's working set; 0 (auto): 4x the largest cache */
};
#define MLP_SETTINGS(c) PROBE_SETTINGS(struct mlp_settings, c, PROBE_ID_MLP)

#endif
