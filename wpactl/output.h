/* Output: tables and key/value lines for people, D-Bus values as JSON for
 * scripts, and the small formats both share.
 *
 * Text for people goes through wc_put_safe()/wc_safe(): a network name is
 * whatever bytes an access point sent, and must not reach the terminal as
 * escape sequences. JSON escapes them itself (json.c).
 */
#ifndef WPACTL_OUTPUT_H
#define WPACTL_OUTPUT_H

#include <dbus/dbus.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wpactl/json.h"

/* s with control characters (C0, DEL, C1) as '?'. */
void wc_put_safe(FILE *f, const char *s);
void wc_safe(char *out, size_t cap, const char *s);
/* s quoted for a shell command line when it needs it: 'it''s' style. */
void wc_shell_quote(char *out, size_t cap, const char *s);

#define WC_TABLE_COLS 8

struct wc_table {
	size_t cols;
	const char *head[WC_TABLE_COLS];
	char **cells; /* rows * cols, owned */
	size_t rows;
	size_t cap;
};

void wc_table_init(struct wc_table *t, size_t cols, const char *const *head);
/* One row of t->cols strings (copied, made safe; NULL counts as ""). */
void wc_table_row(struct wc_table *t, const char *const *cells);
void wc_table_print(const struct wc_table *t, FILE *f);
void wc_table_free(struct wc_table *t);

/* "  Key          value" lines of `show`. */
void wc_field(FILE *f, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Any D-Bus value as JSON: a{..} as an object, structs as arrays, paths
 * and strings as strings. */
void wc_json_value(struct jw *w, DBusMessageIter *v);
/* The members of an a{sv} into the object open in w. */
void wc_json_members(struct jw *w, DBusMessageIter *dict);
/* A value as one short line for people (strings quoted and escaped). */
void wc_text_value(char *out, size_t cap, DBusMessageIter *v);

/* The channel of a frequency in MHz (0 when none). */
int wc_channel(uint32_t mhz);
/* "2025-12-03 09:06" in local time; "never" for 0. */
void wc_fmt_time(char *out, size_t cap, uint64_t unix_s);
/* "45s", "12m05s", "3h02m", "2d04h". */
void wc_fmt_duration(char *out, size_t cap, uint64_t s);
/* Signal bars for people: "****" strongest. */
const char *wc_bars(int dbm);

#endif
