/* A small JSON writer over a caller's buffer. Keys and strings are escaped;
 * non-finite numbers become null, since JSON has no NaN. Nesting is tracked so
 * commas are placed right; overflow sets j->overflow instead of writing past
 * the buffer.
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
	int need_comma[JSON_MAX_DEPTH];
};

void json_init(struct json *j, char *buf, size_t size);
/* key is NULL inside arrays and for the outermost value. */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *value);
void json_u64(struct json *j, const char *key, uint64_t value);
void json_double(struct json *j, const char *key, double value);
void json_bool(struct json *j, const char *key, int value);

#endif
