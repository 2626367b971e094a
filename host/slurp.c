/* A recorded file read whole (see host.h). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/host.h"

// ---- Constants --------------------------------------------------------------

/* A results.csv of every probe at the full profile is tens of KiB; a file
   far past this is not one, and reading it whole would only waste memory. */
#define MAX_INPUT_BYTES (64u * 1024u * 1024u)

// ---- Public Functions -------------------------------------------------------

char *host_slurp(const char *path, size_t *len, const char **why)
{
	struct stat st;
	FILE *f = fopen(path, "rb");
	char *text;

	*why = NULL;
	if (!f || fstat(fileno(f), &st) != 0) {
		*why = strerror(errno);
		if (f)
			fclose(f);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > MAX_INPUT_BYTES) {
		*why = S_ISREG(st.st_mode) ? "larger than any results file" : "not a regular file";
		fclose(f);
		return NULL;
	}
	text = malloc((size_t)st.st_size + 1);
	*len = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
	if (!text || ferror(f)) {
		*why = text ? "read error" : "out of memory";
		free(text);
		fclose(f);
		return NULL;
	}
	fclose(f);
	text[*len] = '\0';
	return text;
}
