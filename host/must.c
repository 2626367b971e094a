/* Allocation for the desk commands (see host.h). */

#include <stdio.h>
#include <stdlib.h>

#include "host/host.h"

void *host_must(void *p)
{
	if (!p) {
		fprintf(stderr, "memprobe: out of memory\n");
		exit(2);
	}
	return p;
}
