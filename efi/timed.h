/* Timed sections on bare metal (core/platform.h's plat_timed): the
 * guarded state plus the app's page tables. docs/PAGING.md, "Entering and
 * leaving", explains the steps.
 */
#ifndef MEMPROBE_EFI_TIMED_H
#define MEMPROBE_EFI_TIMED_H

/* 0 when timed sections can run: the CPU allows the switch to the app's
   tables, and those map every page exception delivery needs (the guard's
   code, data and tables, the stack). Else -1 with the reason on the
   console, and plat_timed refuses every section with it. Needs paging_init. */
int timed_init(void);

/* A fatal exception (exception_fatal: x86 #MC, #DF) caught on another CPU,
   in its role: from now on no timed section runs, and plat_fatal says
   text, as after one in a timed section. */
void timed_fatal_elsewhere(const char *text);

#endif
