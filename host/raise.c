/* The fault probe's trigger on Linux: the same instructions as on bare
   metal; the kernel turns them into SIGFPE, SIGILL or SIGSEGV, which the
   host's plat_timed guard catches. */

#include "arch/guard.h"
#include "core/platform.h"

void plat_raise_fault(unsigned vector)
{
	raise_exception(vector);
}
