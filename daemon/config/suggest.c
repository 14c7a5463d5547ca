#include "daemon/config/suggest.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Words longer than this are never typos of our short key names. */
#define SUGGEST_MAX_LEN 64

static int lower(char c)
{
	return tolower((unsigned char)c);
}

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* Optimal-string-alignment distance, three rolling rows. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t rows[3][SUGGEST_MAX_LEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = lower(a[i - 1]) != lower(b[j - 1]);
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
			    lower(a[i - 2]) == lower(b[j - 1]) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

/* An abbreviation ("StateDir" for "StateDirectory") is too far by edit
 * distance; accept it when it starts exactly one known word. */
static const char *unique_prefix(const char *word, size_t lw, const char *const *known)
{
	const char *found = NULL;

	if (lw < 4)
		return NULL;
	for (; *known; known++) {
		if (strncasecmp(*known, word, lw) != 0)
			continue;
		if (found)
			return NULL;
		found = *known;
	}
	return found;
}

const char *cfg_suggest(const char *word, const char *const *known)
{
	size_t lw = strlen(word);
	const char *best = NULL;
	size_t best_d = (size_t)-1;

	if (lw == 0 || lw > SUGGEST_MAX_LEN)
		return NULL;
	for (const char *const *k = known; *k; k++) {
		size_t lk = strlen(*k);
		if (lk > SUGGEST_MAX_LEN)
			continue;
		size_t d = edit_distance(word, lw, *k, lk);
		if (d < best_d) {
			best_d = d;
			best = *k;
		}
	}
	/* One edit per three letters, at least one, at most three. */
	size_t allowed = lw / 3;
	if (allowed < 1)
		allowed = 1;
	if (allowed > 3)
		allowed = 3;
	if (best_d <= allowed)
		return best;
	return unique_prefix(word, lw, known);
}
