/* Progress lines for long work: a probe calls progress_tick at each step and
 * a line appears only when a few seconds have passed since the last one, so
 * a long repetition loop shows it is alive without flooding a quick one.
 */
#ifndef MEMPROBE_PROGRESS_H
#define MEMPROBE_PROGRESS_H

#include <stdint.h>

#define PROGRESS_EVERY_MS 3000

struct progress {
	uint64_t started_ms, last_ms;
};

void progress_start(struct progress *p);
/* "<what>: step <done> of <total>, <elapsed> s so far", when due. */
void progress_tick(struct progress *p, const char *what, unsigned done, unsigned total);

#endif
