/* CSV text: an RFC 4180 record reader, strict numbers, and a field writer.
 *
 * The input is a file from any run, on any medium: truncated by a run cut
 * short, edited by hand, or not a CSV at all. Nothing here trusts it: every
 * length is bounded, a malformed record is skipped and counted, and the
 * parse never reads outside [text, text + len). Freestanding (no libc).
 */
#ifndef MEMPROBE_CSV_H
#define MEMPROBE_CSV_H

#include <stddef.h>
#include <stdint.h>

#define CSV_MAX_FIELDS 32

struct csv_reader {
	const char *text;
	size_t len, pos;
	unsigned line;            /* physical line where the last record began, from 1 */
	unsigned at_line;         /* physical line of pos */
};

void csv_reader_init(struct csv_reader *r, const char *text, size_t len);

/* The next record: its fields unescaped into store (NUL-terminated, a NUL
   inside a field ends it there), fields[i] pointing into store. Returns the
   field count, 0 at the end of the input, or -1 for a malformed record (an
   unterminated quote, a quote inside an unquoted field, text after a closing
   quote, more than max_fields fields, more than store_size bytes); reading
   then resumes on the next line. A blank line is a record of one empty field. */
int csv_next(struct csv_reader *r, char *store, size_t store_size,
	     const char **fields, int max_fields);

/* Strict numbers, the whole field or nothing: 0 on success, -1 otherwise.
   Decimal digits only for integers; [-+]digits[.digits][e[-+]digits] for
   doubles (also "nan", "inf", as fmt.h may print them). */
int csv_parse_u64(const char *s, uint64_t *out);
int csv_parse_double(const char *s, double *out);

/* text as one RFC 4180 field into out: as it is, or quoted (quotes
   doubled) when it holds a comma, a quote or a line break, so a reader
   never splits it. NUL-terminated and cut to size (size >= 1); returns the
   length the whole field needs, as snprintf does, so a caller can tell a
   cut field. */
size_t csv_field(char *out, size_t size, const char *text);

#endif
