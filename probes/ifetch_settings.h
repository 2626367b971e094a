/* The settings of the ifetch probe (ifetch.c): its keys' values, in its
 * block of struct config (core/config.h), read through IFETCH_SETTINGS(c).
 * Its keys, their ranges and defaults are its registry row's.
 */
#ifndef MEMPROBE_IFETCH_SETTINGS_H
#define MEMPROBE_IFETCH_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

struct ifetch_settings {
	unsigned nop_bytes;       /* a sled's instruction length */
	uint64_t max_footprint;   /* the sled's and the line chain's top */
	uint64_t max_buffer;      /* the page chain's buffer, at most */
};
#define IFETCH_SETTINGS(c) PROBE_SETTINGS(struct ifetch_settings, c, PROBE_ID_IFETCH)

#endif
