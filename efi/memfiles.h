/* The run folder kept in memory, for a run with no volume to write to
 * (a netbooted machine) that sends its files with upload.url: each file
 * is held whole, bounded, until the end of the run, so it can be sent as
 * it closes and again at the end (docs/OUTPUT.md, "Upload").
 */
#ifndef MEMPROBE_MEMFILES_H
#define MEMPROBE_MEMFILES_H

#include <stddef.h>
#include <stdint.h>

/* The most one file may hold, and the most the whole run's files may:
   a write past either is refused, the file is said cut, by name, and the
   run's files count as incomplete. The per-file bound is also the most
   an upload sends (efi/upload.c), so no file is held that could never
   go. */
#define MEMFILES_FILE_MAX (16u << 20)
#define MEMFILES_TOTAL_MAX (64u << 20)
/* Files one run may hold: the run folder's files, charts included. */
#define MEMFILES_COUNT_MAX 48

/* A new, empty file `name`: its handle (>= 0), or -1 when the run holds
   MEMFILES_COUNT_MAX files already or the name is too long. An existing
   file of that name is emptied, as a volume's CREATE of it would not be;
   the results code never opens a name twice. */
int memfiles_open(const char *name);

/* Appends: 0, or -1 when the bound is reached or the firmware has no
   memory left; *why then names which (the file keeps what it had), or
   is NULL when an earlier write to it was refused already (every later
   write is, so a cut file never has a hole in it). */
int memfiles_write(int h, const char *data, size_t len, const char **why);

/* Up to len bytes from offset: the count (0 at the end), or -1. */
long memfiles_read(int h, uint64_t offset, char *buf, size_t len);

/* The file's name while it is held (NULL for a bad handle). */
const char *memfiles_name(int h);

/* Renames, never over another file: 0 or -1. */
int memfiles_rename(int h, const char *new_name);

/* Frees the file: 0, or -1 for a bad handle. */
int memfiles_delete(int h);

/* The file `name` whole: its bytes and length, or NULL when not held. */
const char *memfiles_find(const char *name, size_t *len);

#endif
