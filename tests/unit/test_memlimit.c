/* The room for a Linux run's buffers (host/memlimit.c) over fake cgroup
 * trees: v2's memory.max and v1's memory.limit_in_bytes, a parent's limit
 * tighter than the child's, "max" and v1's huge number as no limit, and
 * MemAvailable when it is the smaller. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "host/host.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[512], dir[600];

	snprintf(path, sizeof path, "%s/%s", root, rel);
	snprintf(dir, sizeof dir, "mkdir -p \"$(dirname '%s')\"", path);
	if (system(dir) != 0)
		return;
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void room(uint64_t available, struct host_memory_room *r)
{
	char cgroup[300], v2[300], v1[300];

	snprintf(cgroup, sizeof cgroup, "%s/proc-cgroup", root);
	snprintf(v2, sizeof v2, "%s/v2", root);
	snprintf(v1, sizeof v1, "%s/v1/memory", root);
	host_memory_room_at(available, cgroup, v2, v1, r);
}

int main(void)
{
	struct host_memory_room r;
	char cmd[300];

	snprintf(root, sizeof root, "/tmp/memprobe-memlimit-%d", (int)getpid());

	/* cgroup v2: 2 GiB limit, 512 MiB used, in a parent without a limit. */
	put("proc-cgroup", "0::/box/run\n");
	put("v2/box/memory.max", "max\n");
	put("v2/box/run/memory.max", "2147483648\n");
	put("v2/box/run/memory.current", "536870912\n");
	room(16 * GIB, &r);
	CHECK(r.bytes == (1536 * MIB) / 8 * 7, "v2: the limit less the usage, less an eighth "
	      "(%llu MiB)", (unsigned long long)(r.bytes / MIB));
	CHECK(strstr(r.how, "cgroup") && strstr(r.how, "/v2/box/run/memory.max") &&
	      strstr(r.how, "1536 MiB"), "v2: says the cgroup's limit applied, and its file: %s", r.how);

	/* A parent's limit tighter than the group's own holds it too. */
	put("v2/box/memory.max", "1073741824\n");
	put("v2/box/memory.current", "805306368\n");
	room(16 * GIB, &r);
	CHECK(r.bytes == (256 * MIB) / 8 * 7 && strstr(r.how, "/v2/box/memory.max"),
	      "v2: the parent's tighter room applies (%llu MiB): %s",
	      (unsigned long long)(r.bytes / MIB), r.how);

	/* MemAvailable smaller than any group's room: it applies. */
	room(128 * MIB, &r);
	CHECK(r.bytes == (128 * MIB) / 8 * 7 && strstr(r.how, "MemAvailable, 128 MiB") &&
	      strstr(r.how, "limit leaves more"), "MemAvailable when smaller: %s", r.how);

	/* cgroup v1 (no v2 line): memory.limit_in_bytes under the controller. */
	put("proc-cgroup", "12:pids:/x\n4:memory:/lxc/c1\n0::/\n");
	put("v1/memory/lxc/c1/memory.limit_in_bytes", "2147483648\n");
	put("v1/memory/lxc/c1/memory.usage_in_bytes", "0\n");
	put("v1/memory/memory.limit_in_bytes", "9223372036854771712\n");
	room(16 * GIB, &r);
	CHECK(r.bytes == (2 * GIB) / 8 * 7 && strstr(r.how, "lxc/c1/memory.limit_in_bytes"),
	      "v1: memory.limit_in_bytes applies (%llu MiB): %s",
	      (unsigned long long)(r.bytes / MIB), r.how);

	/* v1's "no limit" number, and usage over the limit. */
	put("v1/memory/lxc/c1/memory.limit_in_bytes", "9223372036854771712\n");
	room(16 * GIB, &r);
	CHECK(r.bytes == (16 * GIB) / 8 * 7 && strstr(r.how, "no memory cgroup limit"),
	      "v1: the huge number is no limit: %s", r.how);
	put("v1/memory/lxc/c1/memory.limit_in_bytes", "1048576\n");
	put("v1/memory/lxc/c1/memory.usage_in_bytes", "2097152\n");
	room(16 * GIB, &r);
	CHECK(r.bytes == 0, "usage past the limit leaves no room (%llu bytes)",
	      (unsigned long long)r.bytes);

	/* No /proc/self/cgroup at all: MemAvailable. */
	snprintf(cmd, sizeof cmd, "rm -f %s/proc-cgroup", root);
	CHECK(system(cmd) == 0, "the fake /proc/self/cgroup removed");
	room(4 * GIB, &r);
	CHECK(r.bytes == (4 * GIB) / 8 * 7 && strstr(r.how, "no memory cgroup limit"),
	      "no cgroup file: MemAvailable: %s", r.how);

	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	if (system(cmd) != 0)
		return 1;
	return check_summary();
}
