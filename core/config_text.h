/* Configuration text into key = value entries: a file's lines ('#'
 * comments, one pair a line) or load options' words ("key=value", or
 * "key = value" with '=' a word of its own). Pure: it knows no key, no
 * kind of value and no platform, so a fuzzer takes it alone
 * (tests/fuzz/fuzz_config_text.c); config.c gives each entry its meaning.
 */
#ifndef MEMPROBE_CORE_CONFIG_TEXT_H
#define MEMPROBE_CORE_CONFIG_TEXT_H

#include <stddef.h>

/* One source of settings, with a name for messages. */
struct config_source {
	const char *name;         /* "\\EFI\\BOOT\\memprobe.cfg", "load options" */
	const char *text;
	size_t len;
	int one_line;             /* 1: pairs separated by blanks, not lines */
};

struct config_error {
	char text[256];           /* "memprobe.cfg:3: key 'trials': not a number" */
};

/* A piece of the source text; never NUL-terminated. */
struct config_span {
	const char *p;
	size_t n;
};

/* One pair as written, blanks trimmed; the key is never empty. */
struct config_entry {
	struct config_span key, value;
	int line;                 /* 0 for one-line sources */
};

/* Given each entry in order: 0 goes on; anything else stops the read and
   is its result (the function has written its own message). */
typedef int (*config_entry_fn)(void *ctx, const struct config_entry *e);

/* Reads src's text, giving fn each entry. A file's text (not one_line)
   may open with a UTF-8 byte-order mark, which is skipped, and its lines
   may end in CRLF. Returns 0 at the end, fn's
   status when it stopped the read, or -1 with err naming the source and
   line of the first problem of the text itself: a byte that is not
   printable ASCII, tab, CR or LF (the mark aside); a line or option over 200 characters; a
   pair with no '=' or no key. Never reads past src->len. */
int config_text_read(const struct config_source *src, config_entry_fn fn, void *ctx,
		     struct config_error *err);

/* The bytes of a UTF-8 byte-order mark (EF BB BF) text[0..len) opens with:
   3, or 0 when it has none. The platform says so in a note. */
size_t config_text_bom(const char *text, size_t len);

/* s without blanks (space, tab, CR) at either end. */
struct config_span config_span_trim(struct config_span s);

/* 1 when s, read case-insensitively, is word (lower-case). */
int config_span_equals_nocase(struct config_span s, const char *word);

/* How many of s's characters a message quotes back: at most 40. */
int config_echo_len(struct config_span s);

/* "source:line", or "source" alone for line 0 (a one-line source). */
void config_where(char *buf, size_t size, const char *source, int line);

#endif
