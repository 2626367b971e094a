/* Where the unit tests catch output: text handed over a piece at a time
 * (to_text, the shape of an analysis or pagewalk print function) or a
 * document written in chunks (to_sink, an svg_write_fn), gathered in one
 * buffer that stays NUL-terminated; a piece that does not fit sets overflow
 * instead of being written past the end. count_text() counts the occurrences of
 * a needle, for "one polyline per curve" and the like.
 */
#ifndef MEMPROBE_TEST_SINK_H
#define MEMPROBE_TEST_SINK_H

#include <string.h>

struct sink {
	char buf[256 * 1024];
	size_t len;
	int overflow;
};

static inline void to_sink(void *ctx, const char *data, size_t len)
{
	struct sink *s = ctx;

	if (s->len + len >= sizeof s->buf) {
		s->overflow = 1;
		return;
	}
	memcpy(s->buf + s->len, data, len);
	s->len += len;
	s->buf[s->len] = 0;
}

static inline void to_text(void *ctx, const char *text)
{
	to_sink(ctx, text, strlen(text));
}

static inline int count_text(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != 0; p += strlen(needle))
		n++;
	return n;
}

#endif
