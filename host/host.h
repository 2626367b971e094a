/* What the Linux platform offers beyond probes/platform.h: settings made by
 * the command line before a run, and the small /proc and /sys readers the
 * host files share.
 */
#ifndef MEMPROBE_HOST_H
#define MEMPROBE_HOST_H

#include <stddef.h>
#include <stdint.h>

/* The folder under which each run gets its own run-NNNN folder; the default
   is ./memprobe-results. Call before the first file is opened. */
void host_set_results_root(const char *dir);

/* The whole of a small text file (a /proc or /sys entry), NUL-terminated and
   with a trailing newline dropped; -1 when it cannot be read. */
int host_read_text(const char *path, char *buf, size_t size);
/* A file holding one unsigned number; -1 when absent or not a number. */
int host_read_u64(const char *path, uint64_t *value);
/* A /proc/meminfo field ("MemAvailable") in bytes; 0 when absent. */
uint64_t host_meminfo_bytes(const char *field);
/* The bracketed choice of a /sys policy file ("always [madvise] never"). */
int host_read_policy(const char *path, char *buf, size_t size);

/* p, or for NULL an exit with status 2 and "memprobe: out of memory": for
   the desk commands (compare), where no partial result is worth more than
   a plain stop. */
void *host_must(void *p);

/* A recorded file (results.csv, system.json) read whole and NUL-terminated,
   in one allocation the caller frees; NULL with *why set (errno's words,
   "not a regular file: a FIFO ...", "larger than any results file") on
   failure. Anything but a regular file is refused before it is opened, so
   a FIFO never blocks; a file whose stated size is 0 (procfs) is read to
   its end all the same. errno is ENOENT only for a name that is not there. */
char *host_slurp(const char *path, size_t *len, const char **why);

/* Hugetlb pages of 1 << page_shift bytes: reserved in total and free now;
   both 0 when the kernel has no pool of that size. */
void host_hugetlb_pages(unsigned page_shift, uint64_t *reserved, uint64_t *free_pages);

/* system.json's "cpus": each logical CPU's OS CPU number and the topology
   CPUID gives on it (read by a role pinned there). */
struct json;
void host_cpus_describe(struct json *j);

#endif
