/* A recorded file read whole (see host.h). */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/host.h"

/* ---- Constants -------------------------------------------------------- */

/* A results.csv of every probe at the full profile is tens of KiB; a file
   far past this is not one, and reading it whole would only waste memory. */
#define MAX_INPUT_BYTES (64u * 1024u * 1024u)

/* The first read's size where the file gives none (procfs and sysfs files
   say 0 bytes and hold more). */
#define UNSIZED_FIRST_READ 4096u

/* ---- Private Functions ------------------------------------------------ */

/* What a file that is not a regular one is, for the message. */
static const char *not_regular(mode_t mode)
{
	if (S_ISDIR(mode))
		return "not a regular file: a folder";
	if (S_ISFIFO(mode))
		return "not a regular file: a FIFO (a named pipe), which could block forever";
	if (S_ISSOCK(mode))
		return "not a regular file: a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "not a regular file: a device";
	return "not a regular file";
}

/* Everything fd holds, up to the cap, into one NUL-terminated buffer sized
   from the first guess and grown as the reads need: a file's stated size
   may be 0 (procfs) or out of date. NULL with *why set. */
static char *read_all(int fd, size_t guess, size_t *len, const char **why)
{
	size_t cap = guess + 1, n = 0;
	char *text = malloc(cap);

	for (;;) {
		ssize_t got;

		if (!text) {
			*why = "out of memory";
			return NULL;
		}
		if (n + 1 == cap) {
			char *more;

			if (cap > MAX_INPUT_BYTES) {
				free(text);
				*why = "larger than 64 MiB, the cap on any file memprobe reads";
				return NULL;
			}
			more = realloc(text, cap * 2);
			if (!more)
				free(text);
			text = more;
			cap *= 2;
			continue;
		}
		got = read(fd, text + n, cap - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			*why = strerror(errno);
			free(text);
			return NULL;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	text[n] = '\0';
	*len = n;
	return text;
}

/* ---- Public Functions ------------------------------------------------- */

char *host_slurp(const char *path, size_t *len, const char **why)
{
	struct stat st;
	char *text;
	int fd;

	*why = NULL;
	/* Asked of the name before anything opens it: opening a FIFO blocks
	   until a writer comes, which may be never. */
	if (stat(path, &st) != 0) {
		*why = strerror(errno);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > MAX_INPUT_BYTES) {
		*why = S_ISREG(st.st_mode) ? "larger than 64 MiB, the cap on any file memprobe reads" : not_regular(st.st_mode);
		errno = EINVAL;
		return NULL;
	}
	/* O_NONBLOCK so a name swapped for a FIFO since cannot block either;
	   it changes nothing for a regular file. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		*why = strerror(errno);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = not_regular(st.st_mode);
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	text = read_all(fd, st.st_size ? (size_t)st.st_size : UNSIZED_FIRST_READ, len, why);
	close(fd);
	if (!text)
		errno = EINVAL;
	return text;
}
