/* The Linux platform's members of system.json: the host's name, the
 * kernel, its page policies, the hugetlb pools, the CPU, and the date and
 * time.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "arch/cpu.h"
#include "host/host.h"
#include "lib/json.h"
#include "lib/machine.h"
#include "core/platform.h"

/* ---- Private Functions ------------------------------------------------ */

static void describe_policy(struct json *j, const char *key, const char *path)
{
	char policy[64];

	json_string(j, key, host_read_policy(path, policy, sizeof policy) == 0 ? policy : "unknown");
}

static void describe_hugetlb(struct json *j, const char *key, unsigned page_shift)
{
	uint64_t reserved, free_pages;

	host_hugetlb_pages(page_shift, &reserved, &free_pages);
	json_object_begin(j, key);
	json_u64(j, "reserved", reserved);
	json_u64(j, "free", free_pages);
	json_object_end(j);
}

/* The kernel reads the microcode revision for us; unprivileged code cannot
   read the MSR. */
static uint64_t microcode_revision(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[256];
	uint64_t revision = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "microcode", 9) == 0) {
			char *colon = strchr(line, ':');
			if (colon)
				revision = strtoull(colon + 1, NULL, 0);
			break;
		}
	fclose(f);
	return revision;
}

/* The system clock when system.json is written (the end of the run), in
   UTC, as the bare-metal file gives the firmware clock's. */
static void describe_time(struct json *j)
{
	time_t now = time(NULL);
	struct tm t;
	char text[32];

	if (now == (time_t)-1 || !gmtime_r(&now, &t) ||
	    !strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &t)) {
		json_string(j, "date_time", "system clock unreadable");
		return;
	}
	json_string(j, "date_time", text);
	json_string(j, "date_time_zone", "UTC");
}

/* ---- Public Functions ------------------------------------------------- */

void plat_cache_claims(struct cache_claims *out)
{
	cpu_caches_read(out);
}

void plat_describe(struct json *j)
{
	static struct cache_claims claims;
	struct utsname u;
	struct host_memory_room room;
	struct cpuinfo ci;
	char text[4 * sizeof u.release];

	json_object_begin(j, "platform");
	json_string(j, "name", "linux");
	if (uname(&u) == 0) {
		json_string(j, "host_name", u.nodename);
		snprintf(text, sizeof text, "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
		json_string(j, "kernel", text);
	} else {
		json_string(j, "host_name", "unknown (uname failed)");
	}
	describe_policy(j, "thp_enabled", "/sys/kernel/mm/transparent_hugepage/enabled");
	describe_policy(j, "thp_defrag", "/sys/kernel/mm/transparent_hugepage/defrag");
	json_object_begin(j, "hugetlb_pages");
	describe_hugetlb(j, "2MiB", PAGE_SHIFT_2M);
	describe_hugetlb(j, "1GiB", PAGE_SHIFT_1G);
	json_object_end(j);
	json_u64(j, "mem_available_bytes", host_meminfo_bytes("MemAvailable"));
	host_memory_room(&room);
	json_u64(j, "buffer_room_bytes", room.bytes);
	json_string(j, "buffer_room_from", room.how);
	if (host_read_text("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			   text, sizeof text) == 0)
		json_string(j, "clocksource", text);
	json_string(j, "timed_sections", plat_timed_conditions());
	json_string(j, "other_cpus", plat_cpus_conditions());
	json_object_end(j);
	host_cpus_describe(j);

	cpuinfo_read(&ci);
	plat_cache_claims(&claims);
	machine_describe_cpu(j, &ci, microcode_revision(), &claims);
	describe_time(j);
}
