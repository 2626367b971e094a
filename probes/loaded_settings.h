/* The settings of the loaded probe (loaded.c): its keys' values, in its
 * block of struct config (core/config.h), read through
 * LOADED_SETTINGS(c). Its keys, their ranges and defaults are its registry
 * row's.
 */
#ifndef MEMPROBE_LOADED_SETTINGS_H
#define MEMPROBE_LOADED_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

/* loaded.mix: what the loaders do to each line of their buffers. */
enum load_mix { LOAD_READ, LOAD_READ_WRITE };

struct loaded_settings {
	uint64_t size;            /* the chase's working set, bytes */
	uint64_t load_size;       /* each loader's buffer, bytes */
	enum load_mix mix;
	unsigned loaders;         /* most loaders; 0: every other CPU */
};
#define LOADED_SETTINGS(c) PROBE_SETTINGS(struct loaded_settings, c, PROBE_ID_LOADED)

#endif
