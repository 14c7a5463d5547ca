/* "Did you mean ...?" for misspelt keys and section types. */
#ifndef WPAD_CONFIG_SUGGEST_H
#define WPAD_CONFIG_SUGGEST_H

/* Returns the entry of the NULL-terminated list `known` closest to `word`
 * (case-insensitive edit distance, a swap of two neighbours counting once),
 * or NULL when nothing is close enough to be a plausible typo. A word that
 * differs only in case is always suggested, and so is the one known word
 * that a word of four or more letters abbreviates. */
const char *cfg_suggest(const char *word, const char *const *known);

#endif
