/* What the desk commands (memprobe analyze, compare and fleet) share that
 * no platform has: the entry that picks a command, and allocation that
 * stops the command plainly. They read run folders back on a desk; they
 * never measure, so they link the Linux platform only for its file
 * reading (host_slurp) and nothing of it links them.
 */
#ifndef MEMPROBE_DESK_DESK_H
#define MEMPROBE_DESK_DESK_H

/* p, or for NULL an exit with status 2 and "memprobe: out of memory": no
   partial desk result is worth more than a plain stop. */
void *desk_must(void *p);

#endif
