/* Reading JSON back (RFC 8259): a whole-document check, and a string member
 * looked up by its path of object keys. Enough for memprobe to read a
 * run's system.json on another desk (memprobe compare), where nothing in
 * the file is trusted: every read is bounded by len, nesting by
 * JSON_READ_MAX_DEPTH. Freestanding.
 */
#ifndef MEMPROBE_JSON_READ_H
#define MEMPROBE_JSON_READ_H

#include <stddef.h>

#define JSON_READ_MAX_DEPTH 64

/* 0 when text[0..len) is exactly one JSON value with blanks around it; -1
   otherwise, with *at the byte offset where reading failed. */
int json_check(const char *text, size_t len, size_t *at);

/* The string found by path, keys joined by '.' ("cpu.brand": member
   "brand" of the top object's member "cpu"), unescaped into out
   (NUL-terminated; \uXXXX past ASCII becomes '?', and text that does not
   fit is cut). 0, or -1 when the text is not well-formed, a key is
   missing, or the value is not a string. */
int json_get_string(const char *text, size_t len, const char *path, char *out, size_t size);

/* The same for any value but an object or an array, and with a path whose
   segments may also be array indexes ("cpu.caches.0.size_bytes"): a
   string unescaped, a number, true, false or null as its text. -1 when
   the text is not well-formed, the path leads nowhere, or the value is an
   object or an array. */
int json_get_scalar(const char *text, size_t len, const char *path, char *out, size_t size);

#endif
