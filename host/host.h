/* What the Linux platform offers beyond core/platform.h: settings made by
 * the command line before a run, and the small /proc and /sys readers the
 * host files share.
 */
#ifndef MEMPROBE_HOST_H
#define MEMPROBE_HOST_H

#include <stddef.h>
#include <stdint.h>

/* The exit status of a run that a signal stopped (host_stop_on_signals):
   its files closed and whole, system.json saying stopped_by. */
#define HOST_EXIT_STOPPED 3

/* The folder under which each run gets its own run-NNNN folder; the default
   is ./memprobe-results. Call before the first file is opened. A dir that
   host_results_root_refusal refuses is never shortened into another
   folder: the run then has no files, and says why. */
void host_set_results_root(const char *dir);

/* A whole run from its command line (argv[0] the program): configure,
   check the results folder, run every probe asked for, and return the
   exit status docs/BUILD.md names (0, 1, 2 or 3). --help prints the
   run's usage with more_usage (the other commands' lines, or "") after
   its first line. */
int host_main(int argc, char **argv, const char *more_usage);

/* NULL when dir can name a results root, else why not, naming it: empty,
   or too long for a run's file paths on this system (PATH_MAX). */
const char *host_results_root_refusal(const char *dir, char *why, size_t why_len);
/* Before the first probe: whether the results root can take a run of
   about run_bytes (results/results.h's RUN_FILES_QUICK_BYTES, _FULL_). 0 when it can be
   created, is a folder, takes a file and has that much room; 1 when all
   but the room hold, why[] warning of it (the files may be cut, each one
   named when it is); -1 with why[] naming the path and the reason when it
   is unusable, or has less than HOST_ROOM_MIN bytes free. */
int host_check_results_root(uint64_t run_bytes, char *why, size_t why_len);
/* Less free room than this in the results root refuses the run: not even
   report.txt, results.csv's header and system.json would fit. */
#define HOST_ROOM_MIN (64u * 1024)

/* First thing in main: SIGPIPE ignored, so a closed pipe on the console
   fails a write (plat_console then stops writing there) instead of ending
   the run before its files are closed; and each of descriptors 0, 1 and 2
   that is closed opened on /dev/null, so no result file is given a
   standard number and then written into by printf. -1 when that failed
   (the caller exits: files could be corrupted), else 0. */
int host_standard_streams(void);

/* SIGINT, SIGTERM and SIGHUP from here on ask the run to stop after its
   current trial (plat_stop_signal, plat_fatal); a second one ends the
   process at once (host/signals.c). */
void host_stop_on_signals(void);

/* Around each timed section (plat_timed): the add-chain clock measured just
   before it and just after it, whose average plat_core_hz gives the rows
   written after the section (arch/counter.h's SECTION_CLOCK_RUNS). */
void host_clock_section_begin(void);
void host_clock_section_end(void);

/* mkdir -p: path and every folder above it that is not there yet,
   mode 0755; 0, or -1 with errno set (ENOTDIR under a file). An --out
   folder of any depth is made with it, for a run and the desk commands
   alike. */
int host_make_path(const char *path);

/* The whole of a small text file (a /proc or /sys entry), NUL-terminated and
   with a trailing newline dropped; -1 when it cannot be read. */
int host_read_text(const char *path, char *buf, size_t size);
/* A file holding one unsigned number; -1 when absent or not a number. */
int host_read_u64(const char *path, uint64_t *value);
/* A /proc/meminfo field ("MemAvailable") in bytes; 0 when absent. */
uint64_t host_meminfo_bytes(const char *field);
/* The memory a run's buffers may take now (host/memlimit.c): the smaller
   of /proc/meminfo's MemAvailable and, for this process's memory cgroup
   and each group above it, the limit less the group's usage (v2:
   memory.max and memory.current under the unified root; v1:
   memory.limit_in_bytes and memory.usage_in_bytes under the memory
   controller's root), less an eighth for everything else; how says which
   limit applied, with its figure and file. */
struct host_memory_room {
	uint64_t bytes;
	char how[4600];
};
void host_memory_room(struct host_memory_room *r);
/* The same from the given MemAvailable and files (a test's fake cgroup
   tree): proc_cgroup in /proc/self/cgroup's format, the v2 and v1 roots. */
void host_memory_room_at(uint64_t available, const char *proc_cgroup, const char *v2_root,
			 const char *v1_root, struct host_memory_room *r);

/* The bracketed choice of a /sys policy file ("always [madvise] never"). */
int host_read_policy(const char *path, char *buf, size_t size);

/* p, or for NULL an exit with status 2 and "memprobe: out of memory": for
   the desk commands (compare), where no partial result is worth more than
   a plain stop. */
void *host_must(void *p);

/* A recorded file (results.csv, system.json) read whole and NUL-terminated,
   in one allocation the caller frees; NULL with *why set (errno's words,
   "not a regular file: a FIFO ...", "larger than 64 MiB, ...") on
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

/* The run folder's path while it exists and holds the run's files; NULL
   before it is made or when there is none. */
const char *host_run_folder_path(void);

/* An HTTP/1.1 PUT of len bytes to http://host:port/path over a plain TCP
   socket (host/http_put.c): 0 on a 2xx answer, else -1 with why (the
   status line, or the socket's error). A PUT under a collection that is
   not there answers 409 (Apache mod_dav) or 500 (nginx without
   create_full_put_path; 404 on some others): then each collection of the
   path is made with MKCOL, and the PUT is tried once more.
   All of it, connects, sends and answers, ends by deadline_ms (on
   plat_elapsed_ms's clock), however slowly a server trickles; and within
   a tenth of a second of give_up() (may be NULL) saying nonzero. */
int host_http_put(const char *host, unsigned port, const char *path, const void *data,
		  size_t len, uint64_t deadline_ms, int (*give_up)(void), char *why,
		  size_t why_size);

#endif
