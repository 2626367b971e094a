/* NUMA and special memory: the ACPI SRAT read once, the proximity domain
 * probe buffers come from (the boot processor's by default, numa.node's when
 * set), and whether EFI_MEMORY_SP memory may hold them (numa.special).
 */
#ifndef MEMPROBE_NUMA_H
#define MEMPROBE_NUMA_H

#include <stddef.h>
#include <stdint.h>
#include "lib/efimap.h"
#include "core/config.h"

struct json;

/* Reads the SRAT and settles where buffers go. 0, or -1 with the reason
   printed when numa.node names a domain this machine does not have (or
   the machine describes none): then no probe may run. */
int numa_init(const struct config *c);

/* Where buffers may come from, for efimap_find_free. */
const struct efimap_place *numa_place(void);

/* "proximity domain 1" for the buffer at base, or "proximity domain unknown
   (no SRAT)", for its pages_verified text. */
void numa_buffer_words(uint64_t base, char *buf, size_t size);

/* " in proximity domain 1" while buffers are held to one, else "": for the
   message when none fits. */
const char *numa_where(void);

/* The domain the SRAT gives addr, or -1. */
int64_t numa_domain_of(uint64_t addr);

/* The "numa" member of system.json. */
void numa_json(struct json *j);

#endif
