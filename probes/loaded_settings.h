/* The settings of the loaded probe (loaded.c): its keys' values, in its
 * block of struct config (core/config.h), read through
 * LOADED_SETTINGS(c). Its keys, their ranges and defaults are its registry
 * row's.
 */
#ifndef MEMPROBE_LOADED_SETTINGS_H
#define MEMPROBE_LOADED_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

/* What the loaders do to the lines of their buffers (load_kernel.c says
   what each counts); LOAD_MIX_ALL in loaded.mix runs every one. */
enum load_mix {
	LOAD_READ, LOAD_READ3_WRITE1, LOAD_READ2_WRITE1, LOAD_READ1_WRITE1, LOAD_WRITE,
	LOAD_WRITE_NT, LOAD_MIXES, LOAD_MIX_ALL = LOAD_MIXES
};

struct loaded_settings {
	uint64_t size;            /* the chase's working set, bytes; 0: auto,
				     4 x the largest cache claimed */
	uint64_t load_size;       /* each loader's buffer, bytes */
	enum load_mix mix;        /* one mix, or LOAD_MIX_ALL */
	unsigned loaders;         /* most loaders; 0: every other CPU */
	unsigned batches;         /* timed batches of the chase per point */
};
#define LOADED_SETTINGS(c) PROBE_SETTINGS(struct loaded_settings, c, PROBE_ID_LOADED)

#endif
