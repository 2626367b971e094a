/* The run folder and the result files in it (plat_file_* of platform.h). */
#ifndef MEMPROBE_FILES_H
#define MEMPROBE_FILES_H

#include <stdint.h>

/* Creates \memprobe\run-NNNN; on failure says so once and files are off.
   A volume with less free room than run_bytes (RUN_FILES_QUICK_BYTES,
   RUN_FILES_FULL_BYTES) is said before the first probe: the run goes on,
   and each file that does not fit is named when it is cut. */
void files_init(uint64_t run_bytes);

#endif
