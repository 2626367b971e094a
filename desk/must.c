/* Allocation for the desk commands: a NULL stops the command with exit
 * status 2 rather than a crash further on (contract in desk.h).
 */

#include <stdio.h>
#include <stdlib.h>

#include "desk/desk.h"

void *desk_must(void *p)
{
	if (!p) {
		fprintf(stderr, "memprobe: out of memory\n");
		exit(2);
	}
	return p;
}
