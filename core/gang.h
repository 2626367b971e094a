/* The shared start line and deadline of one plat_cpus_run, the same on
 * every platform: each CPU arrives, waits for the start flag, plays its role
 * and says it is done; the lead (the CPU that called plat_cpus_run) raises
 * the flag once all have arrived and waits for them, each wait bounded by
 * one deadline so a CPU that never comes cannot hold the others forever.
 *
 * A platform fills a struct gang, starts gang_member on each other CPU (its
 * own way: MP services, pinned threads) and calls gang_lead on the calling
 * CPU, inside its timed state on both sides.
 */
#ifndef MEMPROBE_GANG_H
#define MEMPROBE_GANG_H

#include <stddef.h>
#include <stdint.h>
#include "core/platform.h"

/* A member's state, in gang.state[i]. */
enum gang_state {
	GANG_ABSENT,              /* not at the start line yet */
	GANG_WAITING,             /* at the start line */
	GANG_PLAYING,             /* running its role */
	GANG_DONE,                /* role finished */
	GANG_CALLED_OFF,          /* the start never came: role not run */
	GANG_FAULTED,             /* its role raised an exception, caught on its CPU */
};

/* The start flag's values. */
enum gang_start { GANG_HOLD, GANG_GO, GANG_OFF };

struct gang {
	struct plat_role *roles;
	unsigned n;
	int lead;                         /* index of the caller's own role, or -1 */
	uint64_t deadline_ticks;          /* plat_ticks() value nobody waits past */
	volatile uint32_t start;          /* enum gang_start */
	volatile uint32_t state[PLAT_CPUS_MAX];
};

/* 0 when the roles can run: each CPU below cpu_count, none twice, none
   in lost[] (a CPU that missed an earlier deadline and may still be
   running); else -1 with why[] naming the first bad role. */
int gang_check(const struct plat_role *roles, unsigned n, unsigned cpu_count,
	       const unsigned char lost[PLAT_CPUS_MAX], char *why, size_t why_len);

/* Fills *g for these roles: the caller's own role is the one on logical
   CPU 0 (lead -1 when none is), the deadline deadline_ms from now, nobody
   arrived, the start flag held. */
void gang_init(struct gang *g, struct plat_role *roles, unsigned n, uint64_t deadline_ms);

/* Role `index`, on its own CPU: arrive, wait for the start flag (giving up
   at the deadline, or when the lead calls the start off), play, and mark
   itself done. */
void gang_member(struct gang *g, unsigned index);

/* Role `index` faulted and its CPU's guard caught it (the platform's
   member procedure, after gang_member unwound): the lead stops waiting for
   it, and gang_lead counts it missed and faulted. */
void gang_member_faulted(struct gang *g, unsigned index);

/* On the calling CPU, after the members were started: waits until every
   member has arrived (or the deadline), raises the start flag (or calls it
   off), plays role g->lead if there is one, then waits for every member to
   finish or the deadline. Sets each role's `missed` (a faulted one too);
   returns how many missed. */
unsigned gang_lead(struct gang *g);

#endif
