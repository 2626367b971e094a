/* The desk commands' tests: a subcommand's main (compare_main,
 * analyze_main) run with its stdout and stderr caught, and the folders and
 * files the tests lay out for it.
 */
#ifndef MEMPROBE_TEST_CAPTURE_H
#define MEMPROBE_TEST_CAPTURE_H

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read_back.h"

/* root/name, made; one of 8 buffers used in turn. */
static inline char *folder_in(const char *root, const char *name)
{
	static char paths[8][256];
	static int next;
	char *p = paths[next++ % 8];

	snprintf(p, 256, "%s/%s", root, name);
	mkdir(p, 0755);
	return p;
}

/* dir/name holding text. */
static inline void write_text(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* main_fn(argv) with its stdout and stderr caught in files under dir, then
   read back into out and err. Returns its exit status. */
static inline int capture_main(int (*main_fn)(int, char **), char **argv, const char *dir,
			       char *out, size_t out_size, char *err, size_t err_size)
{
	char out_path[300], err_path[300];
	int argc = 0, rc, saved_out, saved_err, fd;

	while (argv[argc])
		argc++;
	snprintf(out_path, sizeof out_path, "%s/stdout.txt", dir);
	snprintf(err_path, sizeof err_path, "%s/stderr.txt", dir);
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	close(fd);
	fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	close(fd);
	rc = main_fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	read_file(out_path, out, out_size);
	read_file(err_path, err, err_size);
	return rc;
}

#endif
