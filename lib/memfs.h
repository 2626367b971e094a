/* A small set of named files held whole in memory, bounded: each file at
 * most file_max bytes and all of them at most total_max. Memory comes
 * from the caller's allocator, so the same code serves firmware pools and
 * malloc (and runs in host tests). A write past a bound is refused, and
 * every later write to that file too: a cut file keeps what it had,
 * never a hole.
 */
#ifndef MEMPROBE_LIB_MEMFS_H
#define MEMPROBE_LIB_MEMFS_H

#include <stddef.h>
#include <stdint.h>

#define MEMFS_NAME_MAX 64

struct memfs_file {
	char name[MEMFS_NAME_MAX];    /* "" for a free slot */
	char *data;
	size_t len, cap;
	int cut;                      /* a write was refused: every later one is */
};

struct memfs {
	struct memfs_file *slots;     /* the caller's array of `count` slots */
	unsigned count;
	size_t file_max, total_max;
	size_t total;                 /* capacity held, over every file */
	/* NULL when there is no memory; free takes what alloc gave. */
	void *(*alloc)(size_t bytes);
	void (*release)(void *p);
};

/* A new, empty file `name`: its handle (>= 0), or -1 when every slot is
   taken or the name is empty or MEMFS_NAME_MAX long or more. A file of
   that name already held is emptied and its handle returned. */
int memfs_open(struct memfs *fs, const char *name);

/* Appends len bytes: 0, or -1 with *why naming the bound reached or the
   allocator's failure, or NULL when an earlier write to the file was
   refused already (said once). The first buffer is 16 KiB, then it
   doubles, within file_max. */
int memfs_write(struct memfs *fs, int h, const void *data, size_t len, const char **why);

/* Up to len bytes from offset: the count (0 at the end), or -1 for a bad
   handle. */
long memfs_read(const struct memfs *fs, int h, uint64_t offset, void *buf, size_t len);

/* The file's name (NULL for a bad handle). */
const char *memfs_name(const struct memfs *fs, int h);

/* Renames, never over another file: 0 or -1. */
int memfs_rename(struct memfs *fs, int h, const char *new_name);

/* Frees the file and its slot: 0, or -1 for a bad handle. */
int memfs_delete(struct memfs *fs, int h);
/* Cuts file h back to its first len bytes (no more than it holds; a cut
   file stays refused): 0, or -1 for a handle not held. */
int memfs_cut(struct memfs *fs, int h, size_t len);

/* The file `name`'s handle, or -1 when it is not held. */
int memfs_find(const struct memfs *fs, const char *name);

/* The file's bytes (its length in *len), or NULL for a bad handle; an
   empty file gives "" and 0. */
const char *memfs_data(const struct memfs *fs, int h, size_t *len);

#endif
