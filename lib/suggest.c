/* Did-you-mean by edit distance (see suggest.h): the optimal string
 * alignment distance over two rows, so a swapped pair of letters
 * ("porfile") costs one, as a typing slip does.
 */
#include "lib/suggest.h"
#include "lib/fmt.h"

/* ---- Private Functions ------------------------------------------------ */

static char lower(char ch)
{
	return (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : ch;
}

static unsigned least(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/* ---- Public Functions ------------------------------------------------- */

unsigned suggest_distance(const char *a, size_t a_len, const char *b)
{
	unsigned rows[3][SUGGEST_WORD_MAX + 1];
	size_t b_len = mp_strlen(b);

	if (a_len > SUGGEST_WORD_MAX || b_len > SUGGEST_WORD_MAX)
		return SUGGEST_WORD_MAX + 1;
	for (size_t j = 0; j <= b_len; j++)
		rows[1][j] = (unsigned)j;
	for (size_t i = 1; i <= a_len; i++) {
		/* row i, and rows i - 1 and i - 2 before it */
		unsigned *row = rows[(i + 1) % 3], *prev = rows[i % 3], *before = rows[(i + 2) % 3];

		row[0] = (unsigned)i;
		for (size_t j = 1; j <= b_len; j++) {
			unsigned same = lower(a[i - 1]) == lower(b[j - 1]);
			unsigned d = least(least(prev[j] + 1, row[j - 1] + 1), prev[j - 1] + !same);

			if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
			    lower(a[i - 2]) == lower(b[j - 1]))
				d = least(d, before[j - 2] + 1);
			row[j] = d;
		}
	}
	return rows[(a_len + 1) % 3][b_len];
}

void suggest_begin(struct suggest *s, const char *word, size_t len)
{
	*s = (struct suggest){ word, len, 0, 0 };
}

void suggest_offer(struct suggest *s, const char *candidate)
{
	size_t n = mp_strlen(candidate);
	unsigned limit = (unsigned)(n / 3), d;

	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	d = suggest_distance(s->word, s->word_len, candidate);
	if (d > limit || (s->best && d >= s->distance))
		return;
	s->best = candidate;
	s->distance = d;
}
