/* The Linux platform's system.json members (host/describe.c), written as
 * a run writes them: the host's name and the date and time are there, so
 * two runs of one CPU tell apart by more than their path, and no key is
 * written twice in one object (a reader keeps only one of two).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "check.h"
#include "lib/json.h"
#include "lib/json_read.h"
#include "core/platform.h"

static char buf[1 << 18];

/* The system clock now as system.json writes it. */
static void utc_now(char *out, size_t size)
{
	time_t now = time(NULL);
	struct tm t;

	gmtime_r(&now, &t);
	strftime(out, size, "%Y-%m-%dT%H:%M:%S", &t);
}

int main(void)
{
	char value[512], before[32], after[32];
	struct utsname u;
	struct json j;
	FILE *f;

	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, 0);
	utc_now(before, sizeof before);
	plat_describe(&j);
	utc_now(after, sizeof after);
	json_object_end(&j);
	CHECK(!j.overflow && j.depth == 0, "the members are whole (%zu bytes)", j.len);

	CHECK(uname(&u) == 0 &&
	      json_get_scalar(buf, j.len, "platform.host_name", value, sizeof value) == 0 &&
	      !strcmp(value, u.nodename), "platform.host_name: uname's node name (%s)", value);
	CHECK(json_get_scalar(buf, j.len, "date_time", value, sizeof value) == 0 &&
	      strlen(value) == 19 && value[4] == '-' && value[10] == 'T' && value[16] == ':' &&
	      strcmp(value, before) >= 0 && strcmp(value, after) <= 0,
	      "date_time: YYYY-MM-DDThh:mm:ss, the clock while it was written (%s)", value);
	CHECK(json_get_scalar(buf, j.len, "date_time_zone", value, sizeof value) == 0 &&
	      !strcmp(value, "UTC"), "date_time_zone: UTC");
	CHECK(json_get_scalar(buf, j.len, "cpu.hypervisor", value, sizeof value) == 0 &&
	      strcmp(value, "true") && strcmp(value, "false"),
	      "cpu.hypervisor: the signature or none, not a boolean (%s)", value);
	CHECK(json_get_scalar(buf, j.len, "cpu.under_hypervisor", value, sizeof value) == 0 &&
	      (!strcmp(value, "true") || !strcmp(value, "false")), "cpu.under_hypervisor: %s",
	      value);

	f = fopen("/tmp/memprobe-test-describe.json", "w");
	if (f) {
		fwrite(buf, 1, j.len, f);
		fclose(f);
	}
	CHECK(system("python3 -c 'import json\n"
		     "def once(pairs):\n"
		     "    keys = [k for k, v in pairs]\n"
		     "    assert len(keys) == len(set(keys)), keys\n"
		     "    return dict(pairs)\n"
		     "json.load(open(\"/tmp/memprobe-test-describe.json\"), object_pairs_hook=once)'")
	      == 0, "Python reads it with no key repeated in any object");
	remove("/tmp/memprobe-test-describe.json");
	return check_summary();
}
