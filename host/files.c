/* The run folder and its files on Linux.
 *
 * Each run writes into <root>/run-NNNN, NNNN one past the highest number
 * already there. The folder is made with mkdir, which fails if the name
 * exists, so two runs starting together, or a run after a deleted one,
 * can never write into an earlier run's folder.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "host/host.h"
#include "core/platform.h"
#include "results/upload.h"

/* ---- Constants -------------------------------------------------------- */

#define RUN_NUMBER_MAX 9999

/* ---- Private Data ----------------------------------------------------- */

/* Room left in a path for "/run-NNNN/results.csv". */
static char results_root[PATH_MAX - 32] = "memprobe-results";
static char run_folder[PATH_MAX];
static char folder_text[PATH_MAX + 128];
static int folder_state;          /* 0 not tried, 1 made, -1 failed */
static int file_lost;             /* a file of the run could not be made, written or flushed */

/* ---- Private Functions ------------------------------------------------ */

static int highest_run_number(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *entry;
	int highest = 0;

	if (!d)
		return 0;
	while ((entry = readdir(d))) {
		char *end;
		long n;

		if (strncmp(entry->d_name, "run-", 4) != 0)
			continue;
		n = strtol(entry->d_name + 4, &end, 10);
		if (*end == '\0' && n > highest && n <= RUN_NUMBER_MAX)
			highest = (int)n;
	}
	closedir(d);
	return highest;
}

static void make_run_folder(void)
{
	int n;

	folder_state = -1;
	if (host_make_path(results_root) != 0) {
		snprintf(folder_text, sizeof folder_text, "no files: cannot create %s: %s",
			 results_root, strerror(errno));
		return;
	}
	for (n = highest_run_number(results_root) + 1; n <= RUN_NUMBER_MAX; n++) {
		snprintf(run_folder, sizeof run_folder, "%s/run-%04d", results_root, n);
		if (mkdir(run_folder, 0755) == 0) {
			folder_state = 1;
			snprintf(folder_text, sizeof folder_text, "%s", run_folder);
			return;
		}
		if (errno != EEXIST) {
			snprintf(folder_text, sizeof folder_text, "no files: cannot create %s: %s",
				 run_folder, strerror(errno));
			return;
		}
	}
	snprintf(folder_text, sizeof folder_text,
		 "no files: %s already holds run-%04d, the last number memprobe uses",
		 results_root, RUN_NUMBER_MAX);
}

/* The name of each open file of the run folder, for rename, delete and
   upload: one entry per handle, however high the descriptor number (a
   launcher may leave dozens open). */
struct named_handle {
	int fd;
	char name[64];
	struct named_handle *next;
};
static struct named_handle *named_handles;

static struct named_handle *handle_entry(int fd)
{
	struct named_handle *h;

	for (h = named_handles; h; h = h->next)
		if (h->fd == fd)
			return h;
	return NULL;
}

/* 0, or -1 when no entry could be made (out of memory). */
static int handle_name_set(int fd, const char *name)
{
	struct named_handle *h = handle_entry(fd);

	if (!h) {
		h = malloc(sizeof *h);
		if (!h)
			return -1;
		h->fd = fd;
		h->next = named_handles;
		named_handles = h;
	}
	snprintf(h->name, sizeof h->name, "%s", name);
	return 0;
}

static void handle_forget(int fd)
{
	struct named_handle **at, *h;

	for (at = &named_handles; (h = *at); at = &h->next)
		if (h->fd == fd) {
			*at = h->next;
			free(h);
			return;
		}
}

/* The path of an open file of the run folder; -1 for a handle not known. */
static int handle_path(int fd, char *path, size_t size)
{
	const struct named_handle *h = handle_entry(fd);

	if (!h || folder_state != 1)
		return -1;
	snprintf(path, size, "%s/%s", run_folder, h->name);
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

int host_make_path(const char *path)
{
	char partial[PATH_MAX];
	size_t i, len = strlen(path);

	if (len >= sizeof partial)
		return -1;
	for (i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		memcpy(partial, path, i);
		partial[i] = '\0';
		if (mkdir(partial, 0755) != 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}


const char *host_results_root_refusal(const char *dir, char *why, size_t why_len)
{
	size_t len = strlen(dir);

	if (len == 0)
		snprintf(why, why_len, "--out \"\": an empty path names no folder");
	else if (len >= sizeof results_root)
		snprintf(why, why_len, "--out: a path of %zu bytes is too long: with /run-NNNN/"
			 "results.csv a run's paths must stay under PATH_MAX (%d bytes), so the "
			 "folder may have at most %zu", len, PATH_MAX, sizeof results_root - 1);
	else
		return NULL;
	return why;
}

void host_set_results_root(const char *dir)
{
	char why[256];

	file_lost = 0;
	if (host_results_root_refusal(dir, why, sizeof why)) {
		/* Never a shortened path: that folder was not asked for. */
		results_root[0] = '\0';
		folder_state = -1;
		snprintf(folder_text, sizeof folder_text, "no files: %s", why);
		return;
	}
	snprintf(results_root, sizeof results_root, "%s", dir);
	folder_state = 0;
}

int host_check_results_root(uint64_t run_bytes, char *why, size_t why_len)
{
	char probe[PATH_MAX + 64];
	struct statvfs fs;
	struct stat st;
	uint64_t room;
	int fd;

	if (folder_state < 0) {
		snprintf(why, why_len, "%s", folder_text);
		return -1;
	}
	if (host_make_path(results_root) != 0) {
		snprintf(why, why_len, "--out %s: cannot create it: %s", results_root,
			 strerror(errno));
		return -1;
	}
	if (stat(results_root, &st) != 0) {
		/* A symbolic link to nowhere, or a loop of them (ELOOP). */
		snprintf(why, why_len, "--out %s: %s", results_root, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, why_len, "--out %s: not a folder", results_root);
		return -1;
	}
	/* Numbers below the highest are never reused (a deleted run's number
	   stays its own), so run-9999 there leaves this run no folder. */
	if (highest_run_number(results_root) == RUN_NUMBER_MAX) {
		snprintf(why, why_len, "--out %s: already holds run-%04d, the last number memprobe "
			 "uses: move its run folders away, or give another --out", results_root,
			 RUN_NUMBER_MAX);
		return -1;
	}
	/* Only a file actually made proves the folder takes one (/proc and
	   /sys folders look writable to root, and refuse every new name). */
	snprintf(probe, sizeof probe, "%s/.memprobe-check-XXXXXX", results_root);
	fd = mkstemp(probe);
	if (fd < 0 || write(fd, "\n", 1) != 1) {
		snprintf(why, why_len, "--out %s: cannot write a file there: %s", results_root,
			 strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(probe);
		}
		return -1;
	}
	close(fd);
	unlink(probe);
	if (statvfs(results_root, &fs) != 0)
		return 0;
	room = (uint64_t)fs.f_bavail * fs.f_frsize;
	if (room < HOST_ROOM_MIN) {
		snprintf(why, why_len, "--out %s: only %llu KiB free, and a run's files need at "
			 "least %u KiB", results_root, (unsigned long long)(room / 1024),
			 HOST_ROOM_MIN / 1024);
		return -1;
	}
	if (room < run_bytes) {
		snprintf(why, why_len, "--out %s: only %llu KiB free, and this run's files take "
			 "about %llu KiB: a file that does not fit is named when it is cut",
			 results_root, (unsigned long long)(room / 1024),
			 (unsigned long long)(run_bytes / 1024));
		return 1;
	}
	return 0;
}

const char *host_run_folder_path(void)
{
	return folder_state == 1 ? run_folder : NULL;
}

const char *plat_run_folder(void)
{
	if (folder_state == 0)
		make_run_folder();
	return folder_text;
}

int plat_file_open(const char *name)
{
	static int folder_reported;
	char path[PATH_MAX + 64];
	int fd;

	plat_run_folder();
	if (folder_state != 1) {
		if (!folder_reported) {
			folder_reported = 1;
			fprintf(stderr, "memprobe: %s\n", folder_text);
		}
		file_lost = 1;
		return -1;
	}
	snprintf(path, sizeof path, "%s/%s", run_folder, name);
	/* O_EXCL: a file of this run is written once, never over another. */
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0 && handle_name_set(fd, name) != 0) {
		close(fd);
		unlink(path);
		errno = ENOMEM;
		fd = -1;
	}
	if (fd < 0) {
		fprintf(stderr, "memprobe: cannot create %s: %s\n", path, strerror(errno));
		file_lost = 1;
	}
	return fd;
}

/* Removes the file open as handle, found by its /proc/self/fd link. */
static void remove_open_file(int handle)
{
	char path[PATH_MAX + 64];

	if (handle_path(handle, path, sizeof path) == 0)
		unlink(path);
}

/* A write that did not go through whole is taken back, so a file on a
   full volume holds whole writes only (whole rows, whole lines); a file
   that had none is removed, as the console's "no results file written"
   says. */
static void take_back(int handle, off_t start)
{
	if (start >= 0 && ftruncate(handle, start) == 0 && start == 0)
		remove_open_file(handle);
}

int plat_file_write(int handle, const char *data, size_t len)
{
	off_t start = lseek(handle, 0, SEEK_CUR);

	while (len) {
		ssize_t n = write(handle, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			take_back(handle, start);
			file_lost = 1;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int plat_file_flush(int handle)
{
	if (fsync(handle) == 0)
		return 0;
	file_lost = 1;
	return -1;
}

int plat_files_complete(void)
{
	return folder_state == 1 && !file_lost;
}

uint64_t plat_files_room(void)
{
	struct statvfs fs;

	if (folder_state != 1 || statvfs(run_folder, &fs) != 0)
		return UINT64_MAX;
	return (uint64_t)fs.f_bavail * fs.f_frsize;
}

static void close_handle(int handle)
{
	if (handle >= 0) {
		handle_forget(handle);
		close(handle);
	}
}

/* A file closed whole is sent on where upload.url asks (results/upload.c). */
void plat_file_close(int handle)
{
	const struct named_handle *h = handle_entry(handle);
	char name[64] = "";

	if (h)
		snprintf(name, sizeof name, "%s", h->name);
	close_handle(handle);
	upload_file_closed(name);
}

long plat_file_read(int handle, uint64_t offset, char *buf, size_t len)
{
	for (;;) {
		ssize_t n = pread(handle, buf, len, (off_t)offset);

		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -1 : (long)n;
	}
}

/* link then unlink: link refuses a name that exists, so nothing is
   written over. */
int plat_file_rename(int handle, const char *new_name)
{
	char from[PATH_MAX + 64], to[PATH_MAX + 64];

	if (handle_path(handle, from, sizeof from) != 0)
		return -1;
	snprintf(to, sizeof to, "%s/%s", run_folder, new_name);
	if (link(from, to) != 0)
		return -1;
	if (unlink(from) != 0) {
		unlink(to);
		return -1;
	}
	return handle_name_set(handle, new_name);
}

int plat_file_cut(int handle, uint64_t size)
{
	if (ftruncate(handle, (off_t)size) != 0 || lseek(handle, (off_t)size, SEEK_SET) < 0)
		return -1;
	return 0;
}

int plat_file_delete(int handle)
{
	char path[PATH_MAX + 64];
	int rc = handle_path(handle, path, sizeof path) == 0 && unlink(path) == 0 ? 0 : -1;

	close_handle(handle);
	return rc;
}
