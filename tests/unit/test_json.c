/* The JSON writer: what it writes must parse, and parse to what was meant.
 * Python's json module is the independent reader: each document is written
 * to a file, loaded there, and re-dumped canonically (sorted keys) so the
 * test compares content, not our own spelling of it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lib/json.h"

/* Loads doc with Python and returns its canonical dump in out ("" and a
   nonzero status when Python rejects it). */
static int python_canonical(const char *doc, char *out, size_t size)
{
	char path[] = "/tmp/memprobe-test-json-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "w");
	fputs(doc, f);
	fclose(f);

	char cmd[512];
	snprintf(cmd, sizeof cmd,
		 "python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1], encoding=\"ascii\")), "
		 "sort_keys=True, separators=(\",\",\":\")))' %s 2>&1", path);
	FILE *p = popen(cmd, "r");
	size_t n = p ? fread(out, 1, size - 1, p) : 0;
	out[n] = '\0';
	if (n && out[n - 1] == '\n')
		out[n - 1] = '\0';
	int status = p ? pclose(p) : -1;
	unlink(path);
	return status;
}

static void test_document(void)
{
	char buf[4096], canon[4096];
	struct json j;

	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, NULL);
	json_string(&j, "vendor", "AuthenticAMD");
	json_string(&j, "quote\"back\\slash", "line\nbreak\ttab\rcr\x01\x1f" "del\x7f" "high\xe9");
	json_u64(&j, "u64_max", UINT64_MAX);
	json_double(&j, "ns", 1.33);
	json_double(&j, "tiny", 5e-324);
	json_double(&j, "big", 1.7976931348623157e308);
	json_double(&j, "nan", NAN);
	json_double(&j, "inf", INFINITY);
	json_double(&j, "minus_inf", -INFINITY);
	json_bool(&j, "yes", 1);
	json_bool(&j, "no", 0);
	json_string(&j, "absent", NULL);
	json_array_begin(&j, "empty");
	json_array_end(&j);
	json_object_begin(&j, "nested");
	json_array_begin(&j, "list");
	json_u64(&j, NULL, 1);
	json_object_begin(&j, NULL);
	json_u64(&j, "a", 2);
	json_object_end(&j);
	json_array_begin(&j, NULL);
	json_array_end(&j);
	json_string(&j, NULL, "x");
	json_array_end(&j);
	json_object_end(&j);
	json_object_end(&j);

	CHECK(!j.overflow, "a document that fits does not overflow");
	CHECK(j.len == strlen(buf), "len counts what is in the buffer");
	int status = python_canonical(buf, canon, sizeof canon);
	CHECK(status == 0, "Python's json module accepts the document (%s)", status ? canon : "parsed");
	const char *want =
		"{\"absent\":null,\"big\":1.7976931348623157e+308,\"empty\":[],"
		"\"inf\":null,\"minus_inf\":null,\"nan\":null,"
		"\"nested\":{\"list\":[1,{\"a\":2},[],\"x\"]},\"no\":false,\"ns\":1.33,"
		"\"quote\\\"back\\\\slash\":\"line\\nbreak\\ttab\\rcr\\u0001\\u001fdel\\u007fhigh\\u00e9\","
		"\"tiny\":5e-324,\"u64_max\":18446744073709551615,\"vendor\":\"AuthenticAMD\",\"yes\":true}";
	CHECK(strcmp(canon, want) == 0, "every member reads back with its value: %s", canon);
}

static void test_doubles_round_trip(void)
{
	static const double values[] = { 0.1, 1.0 / 3.0, 2.95e9, 1e-300, 123456789.125, 4.0 };
	char buf[1024], canon[1024];
	struct json j;

	json_init(&j, buf, sizeof buf);
	json_array_begin(&j, NULL);
	for (size_t i = 0; i < sizeof values / sizeof *values; i++)
		json_double(&j, NULL, values[i]);
	json_array_end(&j);
	CHECK(!j.overflow, "seven doubles fit");
	python_canonical(buf, canon, sizeof canon);
	/* Python prints each float as the shortest text that reads back as the
	   same double: equal texts mean our 17 digits lost nothing. */
	CHECK(strcmp(canon, "[0.1,0.3333333333333333,2950000000,1e-300,123456789.125,4]") == 0,
	      "doubles read back exactly: %s", canon);
}

static void test_overflow(void)
{
	char buf[32];
	struct json j;

	memset(buf, 'x', sizeof buf);
	json_init(&j, buf, 16);
	json_object_begin(&j, NULL);
	json_string(&j, "key", "a value that does not fit");
	json_object_end(&j);
	CHECK(j.overflow, "a string past the end sets overflow");
	CHECK(j.len < 16 && buf[j.len] == '\0', "the buffer stays terminated inside its size");
	int untouched = 1;
	for (size_t i = 16; i < sizeof buf; i++)
		untouched &= buf[i] == 'x';
	CHECK(untouched, "nothing is written past size");

	json_init(&j, buf, sizeof buf);
	json_array_begin(&j, NULL);
	for (int i = 0; i < JSON_MAX_DEPTH + 2; i++)
		json_array_begin(&j, NULL);
	CHECK(j.overflow, "nesting deeper than JSON_MAX_DEPTH sets overflow");

	json_init(&j, buf, sizeof buf);
	json_object_end(&j);
	CHECK(j.overflow, "an end without a begin sets overflow");

	/* Exactly full: "[1]" plus the NUL in 4 bytes fits, in 3 does not. */
	json_init(&j, buf, 4);
	json_array_begin(&j, NULL);
	json_u64(&j, NULL, 1);
	json_array_end(&j);
	CHECK(!j.overflow && strcmp(buf, "[1]") == 0, "a document exactly filling the buffer fits");
	json_init(&j, buf, 3);
	json_array_begin(&j, NULL);
	json_u64(&j, NULL, 1);
	json_array_end(&j);
	CHECK(j.overflow, "one byte short overflows");
}

/* json_indent: one member a line, two spaces a level, empty containers
   kept short; the same content as the compact form. */
static void test_indent(void)
{
	char buf[1024], canon[1024];
	struct json j;

	json_init(&j, buf, sizeof buf);
	json_indent(&j, 2);
	json_object_begin(&j, NULL);
	json_u64(&j, "schema_version", 2);
	json_object_begin(&j, "cpu");
	json_string(&j, "vendor", "AuthenticAMD");
	json_array_begin(&j, "caches");
	json_object_begin(&j, NULL);
	json_u64(&j, "level", 1);
	json_object_end(&j);
	json_array_end(&j);
	json_array_begin(&j, "tlbs");
	json_array_end(&j);
	json_object_end(&j);
	json_object_begin(&j, "empty");
	json_object_end(&j);
	json_object_end(&j);

	const char *want =
		"{\n"
		"  \"schema_version\": 2,\n"
		"  \"cpu\": {\n"
		"    \"vendor\": \"AuthenticAMD\",\n"
		"    \"caches\": [\n"
		"      {\n"
		"        \"level\": 1\n"
		"      }\n"
		"    ],\n"
		"    \"tlbs\": []\n"
		"  },\n"
		"  \"empty\": {}\n"
		"}";
	if (strcmp(buf, want) != 0)
		printf("# written:\n%s\n", buf);
	CHECK(!j.overflow && j.depth == 0 && strcmp(buf, want) == 0,
	      "an indented document, member by member");
	CHECK(python_canonical(buf, canon, sizeof canon) == 0 &&
	      strcmp(canon, "{\"cpu\":{\"caches\":[{\"level\":1}],\"tlbs\":[],"
		     "\"vendor\":\"AuthenticAMD\"},\"empty\":{},\"schema_version\":2}") == 0,
	      "and Python reads the same content from it: %s", canon);
}

/* json_compact: the indented document as the compact writer would have
   made it; spaces, quotes and backslashes inside strings kept. */
static void test_compact(void)
{
	char indented[512], compact[512];
	struct json a, b;

	for (int pass = 0; pass < 2; pass++) {
		struct json *j = pass ? &b : &a;

		json_init(j, pass ? compact : indented, sizeof indented);
		if (!pass)
			json_indent(j, 2);
		json_object_begin(j, NULL);
		json_string(j, "says", "a \"quoted\" word, a \\ and  two spaces\n");
		json_array_begin(j, "list");
		json_u64(j, NULL, 1);
		json_string(j, NULL, " { } ");
		json_array_end(j);
		json_object_end(j);
	}
	size_t len = json_compact(indented, a.len);
	CHECK(len == b.len && memcmp(indented, compact, len) == 0,
	      "the indented document made compact is the compact one (%zu bytes, want %zu)", len,
	      b.len);
}

int main(void)
{
	test_document();
	test_indent();
	test_compact();
	test_doubles_round_trip();
	test_overflow();
	return check_summary();
}
