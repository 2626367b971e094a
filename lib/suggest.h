/* Did-you-mean: the nearest of a set of words to one that was not found,
 * by edit distance, so a message can say "did you mean 'profile'?" for
 * `profle`. Freestanding; it knows no key and no command, the caller
 * offers each candidate in turn.
 */
#ifndef MEMPROBE_LIB_SUGGEST_H
#define MEMPROBE_LIB_SUGGEST_H

#include <stddef.h>

/* The longest word compared; a longer one is never suggested for. */
#define SUGGEST_WORD_MAX 48

/* The best candidate offered so far for one word. */
struct suggest {
	const char *word;         /* the word not found; not NUL-terminated */
	size_t word_len;
	const char *best;         /* NULL until a candidate is near enough */
	unsigned distance;
};

/* The edit distance between a[0..a_len) and b (insertions, deletions,
   substitutions and swaps of two neighbours, each 1; letters compared
   case-insensitively). Either word over SUGGEST_WORD_MAX characters:
   SUGGEST_WORD_MAX + 1, never near. */
unsigned suggest_distance(const char *a, size_t a_len, const char *b);

/* Starts a search for word[0..len). */
void suggest_begin(struct suggest *s, const char *word, size_t len);

/* Offers candidate: kept when it is nearer than any before and near
   enough to be what was meant (at most a third of its length away, at
   least 1, at most 3; 0 when only the letters' case differs). The first
   of equally near candidates stays. */
void suggest_offer(struct suggest *s, const char *candidate);

#endif
