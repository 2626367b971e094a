/* The run folder and the result files in it (plat_file_* of platform.h). */
#ifndef MEMPROBE_FILES_H
#define MEMPROBE_FILES_H

#include <stdint.h>

/* The run folder in memory (no volume, upload.url set): the most one file
   may hold, the most all may, and how many files. A write past a bound is
   refused and the file said cut, by name; the run's files then count as
   incomplete. The per-file bound is also the most an upload sends
   (efi/upload.c), so no file is held that could never go. */
#define FILES_MEMORY_FILE_MAX (16u << 20)
#define FILES_MEMORY_TOTAL_MAX (64u << 20)
#define FILES_MEMORY_COUNT 48

/* Creates \memprobe\run-NNNN; on failure says so once and files are off.
   A volume with less free room than run_bytes (RUN_FILES_QUICK_BYTES,
   RUN_FILES_FULL_BYTES) is said before the first probe: the run goes on,
   and each file that does not fit is named when it is cut. With no boot
   volume and for_upload set (upload.url is), the run folder is kept in
   memory (the bounds above), said on the console with its bounds. */
void files_init(uint64_t run_bytes, int for_upload);

/* 1 when the run folder is open on the volume or kept in memory. */
int files_held(void);

/* 0 only when the run folder is kept in memory and not every file of it
   reached upload.url: those files were all the run kept, so its results
   are lost. 1 otherwise (a volume's files are counted by the run itself). */
int files_kept(void);

/* The run folder's file `name` read whole into buf (at most max bytes):
   its length, -2 when there is no such file, -1 on a failed read or a
   file of max bytes or more. For efi/upload.c, once the file is closed. */
long files_read_named(const char *name, char *buf, unsigned long max);

#endif
