/* A small streaming JSON writer for --json output.
 *
 * The writer keeps the commas: call jw_key() before each member of an
 * object, then one value function. Strings are escaped so that any input
 * gives valid JSON: quote, backslash and control characters are escaped
 * (\n, \t, ..., or \u00XX), and bytes that are not valid UTF-8 become
 * U+FFFD. Nesting deeper than JW_DEPTH_MAX is refused (the writer stops
 * writing and jw_ok() turns false), as is a value where a key is due.
 *
 * Pure: no D-Bus, so the unit tests compile it as it is.
 */
#ifndef WPACTL_JSON_H
#define WPACTL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JW_DEPTH_MAX 32

struct jw {
	FILE *f;
	int depth;
	bool ok;
	/* Per level: 'o' object, 'a' array; whether a member was written;
	 * in objects whether a key is waiting for its value. */
	char kind[JW_DEPTH_MAX];
	bool used[JW_DEPTH_MAX];
	bool keyed[JW_DEPTH_MAX];
};

void jw_init(struct jw *w, FILE *f);
void jw_object_begin(struct jw *w);
void jw_object_end(struct jw *w);
void jw_array_begin(struct jw *w);
void jw_array_end(struct jw *w);
void jw_key(struct jw *w, const char *key);
void jw_string(struct jw *w, const char *s);
void jw_string_len(struct jw *w, const char *s, size_t len);
void jw_int(struct jw *w, int64_t v);
void jw_uint(struct jw *w, uint64_t v);
void jw_double(struct jw *w, double v); /* NaN and infinities as null */
void jw_bool(struct jw *w, bool v);
void jw_null(struct jw *w);
/* Ends a top-level value with a newline (one value per line). false when
 * something was refused or left open. */
bool jw_finish(struct jw *w);
bool jw_ok(const struct jw *w);

/* Writes s as a JSON string literal (with quotes) to f. */
void jw_write_string(FILE *f, const char *s, size_t len);

#endif
