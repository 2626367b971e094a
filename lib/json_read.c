/* Reading JSON back (see json_read.h). */

#include "lib/json_read.h"
#include "lib/fmt.h"

/* ---- Private Types ---------------------------------------------------- */

struct reader {
	const char *t;
	size_t len, pos;
	unsigned depth;
};

/* ---- Private Functions ------------------------------------------------ */

static void skip_blank(struct reader *r)
{
	while (r->pos < r->len && (r->t[r->pos] == ' ' || r->t[r->pos] == '\t' ||
				   r->t[r->pos] == '\n' || r->t[r->pos] == '\r'))
		r->pos++;
}

/* The next byte past blanks, not taken; -1 at the end. */
static int peek(struct reader *r)
{
	skip_blank(r);
	return r->pos < r->len ? (unsigned char)r->t[r->pos] : -1;
}

/* A string at r->pos (its opening quote); into out when out is not NULL.
   0, or -1 for a bad escape, a control character or no closing quote. */
static int read_string(struct reader *r, char *out, size_t size)
{
	size_t used = 0;

	r->pos++;
	while (r->pos < r->len) {
		unsigned char c = (unsigned char)r->t[r->pos++];

		if (c == '"') {
			if (out && size)
				out[used < size ? used : size - 1] = '\0';
			return 0;
		}
		if (c < 0x20)
			return -1;
		if (c == '\\') {
			if (r->pos >= r->len)
				return -1;
			c = (unsigned char)r->t[r->pos++];
			switch (c) {
			case '"': case '\\': case '/': break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				unsigned v = 0;

				if (r->pos + 4 > r->len)
					return -1;
				for (int i = 0; i < 4; i++) {
					int d = mp_hex_value(r->t[r->pos++]);
					if (d < 0)
						return -1;
					v = v * 16 + (unsigned)d;
				}
				c = v < 0x80 && v != 0 ? (unsigned char)v : '?';
				break;
			}
			default:
				return -1;
			}
		}
		if (out && used + 1 < size)
			out[used++] = (char)c;
	}
	return -1;
}

/* true, false or null at r->pos; 0, or -1 when it is not there. */
static int read_literal(struct reader *r, const char *word)
{
	size_t n = mp_strlen(word);

	if (r->len - r->pos < n || mp_strncmp(r->t + r->pos, word, n))
		return -1;
	r->pos += n;
	return 0;
}

/* -? int frac? exp? as RFC 8259 spells a number. */
static int read_number(struct reader *r)
{
	size_t digits;

	if (r->t[r->pos] == '-')
		r->pos++;
	if (r->pos < r->len && r->t[r->pos] == '0') {
		r->pos++;
	} else {
		for (digits = 0; r->pos < r->len && r->t[r->pos] >= '0' && r->t[r->pos] <= '9'; digits++)
			r->pos++;
		if (!digits)
			return -1;
	}
	if (r->pos < r->len && r->t[r->pos] == '.') {
		r->pos++;
		for (digits = 0; r->pos < r->len && r->t[r->pos] >= '0' && r->t[r->pos] <= '9'; digits++)
			r->pos++;
		if (!digits)
			return -1;
	}
	if (r->pos < r->len && (r->t[r->pos] == 'e' || r->t[r->pos] == 'E')) {
		r->pos++;
		if (r->pos < r->len && (r->t[r->pos] == '+' || r->t[r->pos] == '-'))
			r->pos++;
		for (digits = 0; r->pos < r->len && r->t[r->pos] >= '0' && r->t[r->pos] <= '9'; digits++)
			r->pos++;
		if (!digits)
			return -1;
	}
	return 0;
}

static int read_value(struct reader *r);

/* An object or an array at r->pos: members (key, ':', value) or values,
   comma-separated, up to the closing bracket. */
static int read_container(struct reader *r, char close)
{
	if (++r->depth > JSON_READ_MAX_DEPTH)
		return -1;
	r->pos++;
	if (peek(r) == close) {
		r->pos++;
		r->depth--;
		return 0;
	}
	for (;;) {
		if (close == '}') {
			if (peek(r) != '"' || read_string(r, NULL, 0) || peek(r) != ':')
				return -1;
			r->pos++;
		}
		if (read_value(r))
			return -1;
		int c = peek(r);
		r->pos++;
		if (c == close)
			break;
		if (c != ',')
			return -1;
	}
	r->depth--;
	return 0;
}

/* Any value at r->pos, skipped; 0, or -1 when it is not well-formed. */
static int read_value(struct reader *r)
{
	switch (peek(r)) {
	case '{': return read_container(r, '}');
	case '[': return read_container(r, ']');
	case '"': return read_string(r, NULL, 0);
	case 't': return read_literal(r, "true");
	case 'f': return read_literal(r, "false");
	case 'n': return read_literal(r, "null");
	case -1: return -1;
	default: return read_number(r);
	}
}

/* Is the key at r->pos (its opening quote) the path segment key[0..n)? */
static int key_is(struct reader *r, const char *key, size_t n)
{
	char name[128];

	if (read_string(r, name, sizeof name))
		return -1;
	return mp_strlen(name) == n && !mp_strncmp(name, key, n);
}

/* ---- Public Functions ------------------------------------------------- */

int json_check(const char *text, size_t len, size_t *at)
{
	struct reader r = { text, len, 0, 0 };
	int rc = read_value(&r);

	if (rc == 0 && peek(&r) != -1)
		rc = -1;
	*at = r.pos < len ? r.pos : len;
	return rc;
}

/* Is path[0..n) an array index, and which? */
static int index_of(const char *path, size_t n, size_t *index)
{
	*index = 0;
	if (n == 0 || n > 9)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (path[i] < '0' || path[i] > '9')
			return 0;
		*index = *index * 10 + (size_t)(path[i] - '0');
	}
	return 1;
}

/* Moves r to the value that path names, from the document's top; 0, or
   -1 when the text is not well-formed or the path leads nowhere. A key
   segment reads an object's member, a number segment an array's element. */
static int find(struct reader *r, const char *path)
{
	size_t at, index;

	if (json_check(r->t, r->len, &at))
		return -1;
	for (;;) {
		const char *dot = path;
		int found = 0;

		while (*dot && *dot != '.')
			dot++;
		/* Well-formed (checked above): values can be walked plainly. */
		if (peek(r) == '[' && index_of(path, (size_t)(dot - path), &index)) {
			r->pos++;
			for (size_t i = 0; i < index && peek(r) != ']'; i++) {
				read_value(r);
				if (peek(r) == ',')
					r->pos++;
			}
			found = peek(r) != ']';
		} else if (peek(r) == '{') {
			r->pos++;
			while (peek(r) == '"') {
				int match = key_is(r, path, (size_t)(dot - path));

				peek(r);
				r->pos++;  /* ':' */
				if (match == 1) {
					found = 1;
					break;
				}
				read_value(r);
				if (peek(r) == ',')
					r->pos++;
			}
		}
		if (!found)
			return -1;
		if (!*dot)
			return 0;
		path = dot + 1;
	}
}

int json_get_string(const char *text, size_t len, const char *path, char *out, size_t size)
{
	struct reader r = { text, len, 0, 0 };

	if (find(&r, path))
		return -1;
	return peek(&r) == '"' ? read_string(&r, out, size) : -1;
}

int json_get_scalar(const char *text, size_t len, const char *path, char *out, size_t size)
{
	struct reader r = { text, len, 0, 0 };
	size_t start;

	if (find(&r, path) || peek(&r) == '{' || peek(&r) == '[')
		return -1;
	if (peek(&r) == '"')
		return read_string(&r, out, size);
	start = r.pos;
	if (read_value(&r))
		return -1;
	if (size)
		mp_strlcpy(out, text + start,
			   r.pos - start + 1 < size ? r.pos - start + 1 : size);
	return 0;
}
