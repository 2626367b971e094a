/* libFuzzer target: config_text_read over arbitrary bytes, alone.
 *
 * fuzz-sources: core/config_text.c lib/fmt.c
 *
 * The text layer knows no key, so it is fuzzed apart from config_load:
 * every entry it hands on must lie inside the input, have a key that is
 * not empty and holds no '=', blanks trimmed at both ends of key and
 * value; a file's entries come in line order; a refusal always says why.
 * Each input is read twice, as a file and as load options.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/config_text.h"

struct seen {
	const char *text;
	size_t len;
	int last_line;
};

static void inside(const struct seen *s, struct config_span span)
{
	if (span.n && (span.p < s->text || span.p + span.n > s->text + s->len))
		abort();
}

static int blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

static void trimmed(struct config_span span)
{
	if (span.n && (blank(span.p[0]) || blank(span.p[span.n - 1])))
		abort();
}

static int check_entry(void *ctx, const struct config_entry *e)
{
	struct seen *s = ctx;

	inside(s, e->key);
	inside(s, e->value);
	trimmed(e->key);
	trimmed(e->value);
	if (e->key.n == 0 || memchr(e->key.p, '=', e->key.n) || e->line < s->last_line)
		abort();
	s->last_line = e->line;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int one_line = 0; one_line <= 1; one_line++) {
		struct config_source src = { "fuzz", (const char *)data, size, one_line };
		struct seen s = { (const char *)data, size, 0 };
		struct config_error err = { "" };

		if (config_text_read(&src, check_entry, &s, &err) != 0 && !err.text[0])
			abort();
	}
	return 0;
}
