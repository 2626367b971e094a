/* Configuration text into key = value entries (see config_text.h): the
 * one part of reading a configuration that knows no key, no kind and no
 * platform, so a fuzzer can take it apart alone (tests/fuzz).
 *
 * The text comes from outside the program (a file on a stick, shell load
 * options), so every byte is checked before any is read as a key: a file
 * that is not plain text (a binary, UTF-16 from an editor, a corrupted
 * sector) stops the read at the first bad byte instead of being guessed at.
 * Two marks of a Windows editor are no such damage and are read through:
 * a UTF-8 byte-order mark at the start of a file, and CRLF line ends.
 */
#include "core/config_text.h"
#include "lib/fmt.h"

#include <stdarg.h>

/* ---- Constants -------------------------------------------------------- */

#define LINE_MAX_CHARS 200
#define ECHO_MAX 40                      /* characters of input quoted back */

/* ---- Types ------------------------------------------------------------ */

/* One read: its source, where errors go, and whom each entry is given to. */
struct reader {
	const struct config_source *src;
	struct config_error *err;
	config_entry_fn fn;
	void *ctx;
};

/* ---- Private Functions ------------------------------------------------ */

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

static char lower(char ch)
{
	return (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : ch;
}

/* An error before any key is known: garbage, a line too long, no '='. */
static int fail_at(struct reader *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at(struct reader *r, int line, const char *fmt, ...)
{
	char where[160], what[200];
	va_list ap;

	config_where(where, sizeof where, r->src->name, line);
	va_start(ap, fmt);
	mp_vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	mp_snprintf(r->err->text, sizeof r->err->text, "%s: %s", where, what);
	return -1;
}

/* Bytes a text file may hold: printable ASCII, tab, CR, LF. Anything else
   means the file is not the text it should be (a binary, UTF-16 from an
   editor, a corrupted sector), and guessing at its meaning would be worse. */
static int check_bytes(struct reader *r, struct config_span line, int line_no)
{
	for (size_t i = 0; i < line.n; i++) {
		unsigned char ch = (unsigned char)line.p[i];
		if ((ch < 0x20 || ch > 0x7e) && ch != '\t' && ch != '\r' && ch != '\n')
			return fail_at(r, line_no, "binary garbage: byte 0x%02x at column %u; "
				       "the configuration must be plain ASCII text",
				       ch, (unsigned)i + 1);
	}
	return 0;
}

static int split_pair(struct reader *r, struct config_span text, int line_no, struct config_entry *e)
{
	size_t eq = 0;

	while (eq < text.n && text.p[eq] != '=')
		eq++;
	if (eq == text.n)
		return fail_at(r, line_no, "expected key = value, found '%.*s'",
			       config_echo_len(text), text.p);
	e->key = config_span_trim((struct config_span){ text.p, eq });
	e->value = config_span_trim((struct config_span){ text.p + eq + 1, text.n - eq - 1 });
	e->line = line_no;
	if (e->key.n == 0)
		return fail_at(r, line_no, "a value without a key: '%.*s'", config_echo_len(text), text.p);
	return 0;
}

static int read_lines(struct reader *r)
{
	const char *p = r->src->text, *end = p + r->src->len;
	int line_no = 0;

	/* Windows Notepad's "UTF-8" starts the file with a byte-order mark:
	   skipped, so such a file reads as the ASCII it otherwise is. */
	p += config_text_bom(p, r->src->len);

	while (p < end) {
		const char *eol = p;
		while (eol < end && *eol != '\n')
			eol++;
		struct config_span line = { p, (size_t)(eol - p) };
		p = eol < end ? eol + 1 : eol;
		line_no++;

		if (check_bytes(r, line, line_no))
			return -1;
		size_t visible = line.n;
		if (visible && line.p[visible - 1] == '\r')
			visible--;
		if (visible > LINE_MAX_CHARS)
			return fail_at(r, line_no, "overlong line: %u characters, at most %d",
				       (unsigned)visible, LINE_MAX_CHARS);
		for (size_t i = 0; i < line.n; i++)
			if (line.p[i] == '#')
				line.n = i;
		line = config_span_trim(line);
		if (line.n == 0)
			continue;

		struct config_entry e;
		if (split_pair(r, line, line_no, &e) || r->fn(r->ctx, &e))
			return -1;
	}
	return 0;
}

static struct config_span next_word(const char **p, const char *end)
{
	while (*p < end && (is_blank(**p) || **p == '\n'))
		(*p)++;
	const char *start = *p;
	while (*p < end && !is_blank(**p) && **p != '\n')
		(*p)++;
	return (struct config_span){ start, (size_t)(*p - start) };
}

/* Load options: "key=value" words, or "key = value" with '=' a word of its
   own. A blank right after '=' with no value ("trials= 5") is an empty value:
   taking the next word would silently read another key as this one's value. */
static int read_words(struct reader *r)
{
	const char *p = r->src->text, *end = p + r->src->len;

	if (check_bytes(r, (struct config_span){ p, r->src->len }, 0))
		return -1;
	for (;;) {
		struct config_span word = next_word(&p, end);
		if (word.n == 0)
			return 0;
		if (word.n > LINE_MAX_CHARS)
			return fail_at(r, 0, "overlong option: %u characters, at most %d",
				       (unsigned)word.n, LINE_MAX_CHARS);

		struct config_entry e;
		int has_eq = 0;
		for (size_t i = 0; i < word.n; i++)
			has_eq |= word.p[i] == '=';
		if (!has_eq) {
			const char *after = p;
			struct config_span eq = next_word(&after, end);
			if (eq.n == 1 && eq.p[0] == '=') {
				struct config_span value = next_word(&after, end);
				p = after;
				e = (struct config_entry){ word, value, 0 };
				if (r->fn(r->ctx, &e))
					return -1;
				continue;
			}
		}
		if (split_pair(r, word, 0, &e) || r->fn(r->ctx, &e))
			return -1;
	}
}

/* ---- Public Functions ------------------------------------------------- */

struct config_span config_span_trim(struct config_span s)
{
	while (s.n && is_blank(s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n && is_blank(s.p[s.n - 1]))
		s.n--;
	return s;
}

int config_span_equals_nocase(struct config_span s, const char *word)
{
	size_t i;

	for (i = 0; i < s.n; i++)
		if (!word[i] || lower(s.p[i]) != word[i])
			return 0;
	return word[i] == '\0';
}

int config_echo_len(struct config_span s)
{
	return (int)(s.n < ECHO_MAX ? s.n : ECHO_MAX);
}

void config_where(char *buf, size_t size, const char *source, int line)
{
	if (line)
		mp_snprintf(buf, size, "%s:%d", source, line);
	else
		mp_snprintf(buf, size, "%s", source);
}

size_t config_text_bom(const char *text, size_t len)
{
	return len >= 3 && (unsigned char)text[0] == 0xef && (unsigned char)text[1] == 0xbb &&
	       (unsigned char)text[2] == 0xbf ? 3 : 0;
}

int config_text_read(const struct config_source *src, config_entry_fn fn, void *ctx,
		     struct config_error *err)
{
	struct reader r = { src, err, fn, ctx };

	return src->one_line ? read_words(&r) : read_lines(&r);
}
