/* libFuzzer target: reading a system.json back over arbitrary bytes.
 *
 * fuzz-sources: lib/json_read.c lib/fmt.c
 *
 * Beyond "no crash": json_check's failure offset lies inside the input, a
 * string found is terminated inside its (small, so the cut path runs)
 * buffer, and json_get_string never finds anything in text json_check
 * refuses. Deep nesting must be refused, not recursed into a stack
 * overflow.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/json_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "platform.name", "cpu.brand", "app.version", "a" };
	const char *text = (const char *)data;
	char out[8];
	size_t at;
	int ok = json_check(text, size, &at) == 0;

	if (at > size)
		__builtin_trap();
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
		memset(out, 'x', sizeof out);
		if (json_get_string(text, size, paths[i], out, sizeof out) != 0)
			continue;
		if (!ok || memchr(out, '\0', sizeof out) == NULL)
			__builtin_trap();
	}
	return 0;
}
