/* Probe buffers (plat_buffer_* of platform.h) and their record. */
#ifndef MEMPROBE_BUFFERS_H
#define MEMPROBE_BUFFERS_H

struct json;

/* The "buffers" member of system.json: every buffer the run took, where it
   was, its page size and how its mapping and memory type were verified. */
void buffers_json(struct json *j);

#endif
