/* The run folder and the result files in it (plat_file_* of platform.h). */
#ifndef MEMPROBE_FILES_H
#define MEMPROBE_FILES_H

#include <stdint.h>

/* Creates \memprobe\run-NNNN; on failure says so once and files are off.
   A volume with less free room than run_bytes (RUN_FILES_QUICK_BYTES,
   RUN_FILES_FULL_BYTES) is said before the first probe: the run goes on,
   and each file that does not fit is named when it is cut. */
void files_init(uint64_t run_bytes);

/* 1 when the run folder is open on the volume. */
int files_run_dir_open(void);

/* The run folder's file `name` read whole into buf (at most max bytes):
   its length, -2 when there is no such file, -1 on a failed read or a
   file larger than max. For efi/upload.c, once the file is closed. */
long files_read_named(const char *name, char *buf, unsigned long max);

#endif
