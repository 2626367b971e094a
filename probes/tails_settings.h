/* The settings of the tails probe (tails.c): its keys' values, in its
 * block of struct config (core/config.h), read through TAILS_SETTINGS(c).
 * Its keys, their ranges and defaults are its registry row's.
 */
#ifndef MEMPROBE_TAILS_SETTINGS_H
#define MEMPROBE_TAILS_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

struct tails_settings {
	unsigned batches;         /* timed batches of BATCH_LOADS loads per level */
	uint64_t max_buffer;      /* the memory level's working set at most, bytes */
};
#define TAILS_SETTINGS(c) PROBE_SETTINGS(struct tails_settings, c, PROBE_ID_TAILS)

#endif
