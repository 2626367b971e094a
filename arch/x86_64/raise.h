/* Raising a chosen exception on purpose, for the test-only fault probe. */
#ifndef MEMPROBE_RAISE_H
#define MEMPROBE_RAISE_H

/* A canonical address no identity map of RAM reaches (top of the lower
   half), so loading it raises #PF under the app's tables. */
#define RAISE_UNMAPPED_ADDRESS 0x00007ffffffff000ull
/* Where the #DF raiser points the stack: inside that page, 16-byte aligned. */
#define RAISE_STACK_OFFSET 0x800ull

/* raise_exception (arch/guard.h): 0 (#DE), 6 (#UD), 8 (#DF, a #PF whose
   delivery faults: it resets a machine whose #DF has no IST stack), 13
   (#GP), 14 (#PF) or 18 (#MC, by INT 18); returns only for other vectors. */
#include "arch/guard.h"

#endif
