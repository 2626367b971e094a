/* The run folder and the result files in it (plat_file_* of platform.h). */
#ifndef MEMPROBE_FILES_H
#define MEMPROBE_FILES_H

/* Creates \memprobe\run-NNNN; on failure says so once and files are off. */
void files_init(void);

#endif
