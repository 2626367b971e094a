/* How much memory a Linux run may take for its buffers (see host.h).
 *
 * /proc/meminfo's MemAvailable speaks for the whole machine; a process in
 * a memory cgroup (a container, a systemd slice) is killed by the kernel
 * at the cgroup's limit, far below it. So the room is the smaller of the
 * two: MemAvailable, and for the process's own cgroup and each one above
 * it the limit less what the group already uses.
 */

#include <stdio.h>
#include <string.h>

#include "host/host.h"

/* ---- Constants -------------------------------------------------------- */

/* cgroup v1 says "no limit" with the largest page-aligned signed value
   (9223372036854771712); anything this large is no limit. */
#define NO_LIMIT_ABOVE (1ull << 62)

/* ---- Private Functions ------------------------------------------------ */

/* The cgroup path of this process for the memory controller, from
   /proc/self/cgroup's lines "ID:CONTROLLERS:PATH": the v2 line ("0::PATH")
   when v2 is 1, else the v1 line whose controllers include "memory".
   0, or -1 when there is none. */
static int own_cgroup(const char *proc_cgroup, int v2, char *path, size_t size)
{
	FILE *f = fopen(proc_cgroup, "re");
	char line[1024];
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof line, f)) {
		char *controllers = strchr(line, ':'), *rest;

		if (!controllers || !(rest = strchr(++controllers, ':')))
			continue;
		*rest++ = '\0';
		rest[strcspn(rest, "\n")] = '\0';
		if (v2 ? strcmp(line, "0:") == 0 && !*controllers
		       : strstr(controllers, "memory") != NULL) {
			snprintf(path, size, "%s", rest);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* One group's limit less its usage (the files limit_name and usage_name
   in dir) into *room when smaller than it was. 1 when the group has a
   limit ("max", or v1's huge number, is none). */
static int group_room(const char *dir, const char *limit_name, const char *usage_name,
		      uint64_t *room)
{
	char path[4200];
	uint64_t limit, usage = 0;

	snprintf(path, sizeof path, "%s/%s", dir, limit_name);
	if (host_read_u64(path, &limit) != 0 || limit >= NO_LIMIT_ABOVE)
		return 0;
	snprintf(path, sizeof path, "%s/%s", dir, usage_name);
	host_read_u64(path, &usage);
	usage = usage < limit ? usage : limit;
	if (limit - usage < *room)
		*room = limit - usage;
	return 1;
}

/* The tightest room of the group at root + path (path begins with '/')
   and of every group above it, root's own included: a parent's limit
   holds its children too. 1 when one of them has a limit; *where names
   the file of the tightest. */
static int tightest_group(const char *root, const char *path, const char *limit_name,
			  const char *usage_name, uint64_t *room, char *where, size_t size)
{
	char dir[4096];
	size_t root_len = strlen(root), len;
	int limited = 0;

	snprintf(dir, sizeof dir, "%s%s", root, path);
	len = strlen(dir);
	while (len > root_len && dir[len - 1] == '/')
		dir[--len] = '\0';
	for (;;) {
		uint64_t before = *room;

		if (group_room(dir, limit_name, usage_name, room)) {
			limited = 1;
			if (*room < before)
				snprintf(where, size, "%s/%s", dir, limit_name);
		}
		if (strlen(dir) <= root_len)
			break;
		*strrchr(dir, '/') = '\0';
	}
	return limited;
}

/* ---- Public Functions ------------------------------------------------- */

void host_memory_room_at(uint64_t available, const char *proc_cgroup, const char *v2_root, const char *v1_root,
			 struct host_memory_room *r)
{
	char path[2048], where[4300] = "";
	uint64_t room = UINT64_MAX;
	int limited = 0;

	if (own_cgroup(proc_cgroup, 1, path, sizeof path) == 0)
		limited = tightest_group(v2_root, path, "memory.max", "memory.current", &room,
					 where, sizeof where);
	if (!limited && own_cgroup(proc_cgroup, 0, path, sizeof path) == 0)
		limited = tightest_group(v1_root, path, "memory.limit_in_bytes",
					 "memory.usage_in_bytes", &room, where, sizeof where);
	if (limited && room < available) {
		r->bytes = room;
		snprintf(r->how, sizeof r->how, "the memory cgroup's limit less its usage, %llu MiB "
			 "(%s; MemAvailable %llu MiB is more)", (unsigned long long)(room >> 20),
			 where, (unsigned long long)(available >> 20));
	} else {
		r->bytes = available;
		snprintf(r->how, sizeof r->how, "MemAvailable, %llu MiB (/proc/meminfo)%s",
			 (unsigned long long)(available >> 20),
			 limited ? "; the memory cgroup's limit leaves more" : "; no memory cgroup limit");
	}
	/* An eighth left to everything else, so touching a buffer never wakes
	   the OOM killer, in the machine or in the group. */
	r->bytes = r->bytes / 8 * 7;
}

void host_memory_room(struct host_memory_room *r)
{
	host_memory_room_at(host_meminfo_bytes("MemAvailable"), "/proc/self/cgroup", "/sys/fs/cgroup",
			    "/sys/fs/cgroup/memory", r);
}
