/* A small JSON writer over a caller's buffer. Keys and strings are escaped;
 * non-finite numbers become null, since JSON has no NaN. Nesting is tracked so
 * commas are placed right; overflow sets j->overflow instead of writing past
 * the buffer. Compact by default; json_indent makes it a document for people
 * too, one member per line.
 */
#ifndef MEMPROBE_JSON_H
#define MEMPROBE_JSON_H

#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 16

struct json {
	char *buf;
	size_t size, len;
	int overflow;
	int depth;
	unsigned indent;          /* spaces per level; 0: compact, on one line */
	int need_comma[JSON_MAX_DEPTH];
};

void json_init(struct json *j, char *buf, size_t size);
/* From now on each member on a line of its own, indented by spaces per
   level of nesting, and a space after each key's colon; an empty object
   or array stays "{}" or "[]". Call it before the first value. */
void json_indent(struct json *j, unsigned spaces);
/* key is NULL inside arrays and for the outermost value. */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *value);
void json_u64(struct json *j, const char *key, uint64_t value);
void json_double(struct json *j, const char *key, double value);
void json_bool(struct json *j, const char *key, int value);
/* An indented document made compact in place: the whitespace between
   tokens removed, strings (escapes and all) kept byte for byte. Its new
   length; the buffer is not terminated. */
size_t json_compact(char *doc, size_t len);

#endif
