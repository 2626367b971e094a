/* A small JSON writer over a caller's buffer (see json.h).
 *
 * The output is always valid JSON or flagged: once anything does not fit, or
 * the nesting goes deeper than JSON_MAX_DEPTH, j->overflow is set and nothing
 * more is written, so a caller checks one flag instead of shipping a file cut
 * off in the middle of a string.
 */
#include "lib/json.h"
#include "lib/fmt.h"

/* ---- Private Functions ------------------------------------------------ */

static void emit(struct json *j, const char *s, size_t n)
{
	if (j->overflow)
		return;
	/* One byte stays free for the terminating NUL. */
	if (n >= j->size - j->len) {
		j->overflow = 1;
		return;
	}
	mp_memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void emit_text(struct json *j, const char *s)
{
	emit(j, s, mp_strlen(s));
}

/* Bytes outside printable ASCII are written as \u00XX (read as Latin-1), so
   a firmware string with stray high bytes still gives a file every JSON
   parser accepts instead of invalid UTF-8. */
static void emit_string(struct json *j, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	emit(j, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char esc[6] = { '\\', 0, '0', '0', 0, 0 };
		switch (*p) {
		case '"':  esc[1] = '"';  emit(j, esc, 2); continue;
		case '\\': esc[1] = '\\'; emit(j, esc, 2); continue;
		case '\n': esc[1] = 'n';  emit(j, esc, 2); continue;
		case '\r': esc[1] = 'r';  emit(j, esc, 2); continue;
		case '\t': esc[1] = 't';  emit(j, esc, 2); continue;
		default:
			break;
		}
		if (*p < 0x20 || *p >= 0x7f) {
			esc[1] = 'u';
			esc[4] = hex[*p >> 4];
			esc[5] = hex[*p & 15];
			emit(j, esc, 6);
		} else {
			emit(j, (const char *)p, 1);
		}
	}
	emit(j, "\"", 1);
}

/* In an indented document, a line break and the indent of `depth` levels. */
static void new_line(struct json *j, int depth)
{
	if (!j->indent)
		return;
	emit(j, "\n", 1);
	for (unsigned i = 0; i < (unsigned)depth * j->indent; i++)
		emit(j, " ", 1);
}

/* The comma before a member, its line when indented, and its key where the
   container is an object. */
static void begin_value(struct json *j, const char *key)
{
	if (j->need_comma[j->depth])
		emit(j, ",", 1);
	j->need_comma[j->depth] = 1;
	if (j->depth > 0)
		new_line(j, j->depth);
	if (key) {
		emit_string(j, key);
		emit(j, j->indent ? ": " : ":", j->indent ? 2 : 1);
	}
}

static void open_container(struct json *j, const char *key, const char *bracket)
{
	begin_value(j, key);
	if (j->depth + 1 >= JSON_MAX_DEPTH) {
		j->overflow = 1;
		return;
	}
	emit(j, bracket, 1);
	j->depth++;
	j->need_comma[j->depth] = 0;
}

static void close_container(struct json *j, const char *bracket)
{
	if (j->depth == 0) {
		j->overflow = 1;          /* more ends than begins */
		return;
	}
	/* A container with members closes on a line of its own. */
	if (j->need_comma[j->depth])
		new_line(j, j->depth - 1);
	j->depth--;
	emit(j, bracket, 1);
}

/* ---- Public Functions ------------------------------------------------- */

void json_init(struct json *j, char *buf, size_t size)
{
	mp_memset(j, 0, sizeof *j);
	j->buf = buf;
	j->size = size;
	if (size)
		buf[0] = '\0';
	else
		j->overflow = 1;
}

void json_indent(struct json *j, unsigned spaces)
{
	j->indent = spaces;
}

void json_object_begin(struct json *j, const char *key)
{
	open_container(j, key, "{");
}

void json_object_end(struct json *j)
{
	close_container(j, "}");
}

void json_array_begin(struct json *j, const char *key)
{
	open_container(j, key, "[");
}

void json_array_end(struct json *j)
{
	close_container(j, "]");
}

void json_string(struct json *j, const char *key, const char *value)
{
	begin_value(j, key);
	if (value)
		emit_string(j, value);
	else
		emit_text(j, "null");
}

void json_u64(struct json *j, const char *key, uint64_t value)
{
	char text[24];

	begin_value(j, key);
	mp_snprintf(text, sizeof text, "%llu", (unsigned long long)value);
	emit_text(j, text);
}

/* 17 significant digits: enough that every double reads back exactly. */
void json_double(struct json *j, const char *key, double value)
{
	char text[32];

	begin_value(j, key);
	if (value != value || value - value != 0.0) {
		emit_text(j, "null");     /* NaN or an infinity: JSON has neither */
		return;
	}
	mp_snprintf(text, sizeof text, "%.17g", value);
	emit_text(j, text);
}

void json_bool(struct json *j, const char *key, int value)
{
	begin_value(j, key);
	emit_text(j, value ? "true" : "false");
}

size_t json_compact(char *doc, size_t len)
{
	size_t out = 0;
	int in_string = 0;

	for (size_t i = 0; i < len; i++) {
		char c = doc[i];

		if (in_string) {
			doc[out++] = c;
			if (c == '\\' && i + 1 < len)
				doc[out++] = doc[++i];
			else if (c == '"')
				in_string = 0;
			continue;
		}
		if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
			continue;
		in_string = c == '"';
		doc[out++] = c;
	}
	return out;
}
