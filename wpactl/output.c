/* Output for people and for scripts; see output.h. */
#include "wpactl/output.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- safe text ---- */

/* Length of the control character at s (C0, DEL, or a C1 in UTF-8), or 0. */
static size_t control_len(const unsigned char *s)
{
	if (s[0] < 0x20 || s[0] == 0x7f)
		return 1;
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	return 0;
}

void wc_safe(char *out, size_t cap, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = 0;
	if (cap == 0)
		return;
	while (*p && n + 1 < cap) {
		size_t c = control_len(p);
		if (c) {
			out[n++] = '?';
			p += c;
		} else {
			out[n++] = (char)*p++;
		}
	}
	/* Cut short: do not end inside a UTF-8 sequence. */
	if (*p && n > 0 && (unsigned char)out[n - 1] >= 0x80) {
		size_t start = n - 1;
		while (start > 0 && ((unsigned char)out[start] & 0xc0) == 0x80)
			start--;
		unsigned char lead = (unsigned char)out[start];
		size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
		if (n - start < need)
			n = start;
	}
	out[n] = '\0';
}

void wc_put_safe(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		size_t c = control_len(p);
		if (c) {
			fputc('?', f);
			p += c;
		} else {
			fputc(*p++, f);
		}
	}
}

void wc_shell_quote(char *out, size_t cap, const char *s)
{
	bool plain = *s != '\0';
	for (const char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:@/+=",
			    *p))
			plain = false;
	if (plain && s[0] != '-') {
		wc_safe(out, cap, s);
		return;
	}
	size_t n = 0;
	char safe[256];
	wc_safe(safe, sizeof(safe), s);
	if (cap < 3) {
		if (cap)
			out[0] = '\0';
		return;
	}
	out[n++] = '\'';
	for (const char *p = safe; *p && n + 5 < cap; p++) {
		if (*p == '\'') {
			memcpy(out + n, "'\\''", 4);
			n += 4;
		} else {
			out[n++] = *p;
		}
	}
	out[n++] = '\'';
	out[n] = '\0';
	/* A name starting with '-' must follow "--" on wpactl's command line;
	 * the callers put the "--" in. */
}

/* ---- tables ---- */

/* Columns a UTF-8 string takes: code points, a fair guess for a table. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p & 0xc0) != 0x80)
			w++;
	return w;
}

void wc_table_init(struct wc_table *t, size_t cols, const char *const *head)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols > WC_TABLE_COLS ? WC_TABLE_COLS : cols;
	for (size_t i = 0; i < t->cols; i++)
		t->head[i] = head[i];
}

void wc_table_row(struct wc_table *t, const char *const *cells)
{
	if (t->rows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		char **v = realloc(t->cells, cap * t->cols * sizeof(*v));
		if (!v)
			return;
		t->cells = v;
		t->cap = cap;
	}
	for (size_t i = 0; i < t->cols; i++) {
		char buf[512];
		wc_safe(buf, sizeof(buf), cells[i] ? cells[i] : "");
		t->cells[t->rows * t->cols + i] = strdup(buf);
	}
	t->rows++;
}

void wc_table_print(const struct wc_table *t, FILE *f)
{
	size_t w[WC_TABLE_COLS];
	for (size_t c = 0; c < t->cols; c++) {
		w[c] = width(t->head[c]);
		for (size_t r = 0; r < t->rows; r++) {
			const char *cell = t->cells[r * t->cols + c];
			if (cell && width(cell) > w[c])
				w[c] = width(cell);
		}
	}
	for (size_t r = 0; r <= t->rows; r++) {
		size_t blanks = 0; /* padding is written only before a cell that follows */
		for (size_t c = 0; c < t->cols; c++) {
			const char *cell = r == 0 ? t->head[c] : t->cells[(r - 1) * t->cols + c];
			if (!cell)
				cell = "";
			if (cell[0]) {
				for (; blanks > 0; blanks--)
					fputc(' ', f);
				fputs(cell, f);
			}
			blanks += w[c] + 2 - width(cell);
		}
		fputc('\n', f);
	}
}

void wc_table_free(struct wc_table *t)
{
	for (size_t i = 0; i < t->rows * t->cols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

void wc_field(FILE *f, const char *key, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "  %-16s ", key);
	wc_put_safe(f, buf);
	fputc('\n', f);
}

/* ---- D-Bus values ---- */

/* A basic value as a signed or unsigned integer; false for other types. */
static bool basic_int(DBusMessageIter *v, int64_t *s, uint64_t *u, bool *is_signed)
{
	DBusBasicValue b;
	int type = dbus_message_iter_get_arg_type(v);
	*is_signed = true;
	switch (type) {
	case DBUS_TYPE_BYTE:
	case DBUS_TYPE_UINT16:
	case DBUS_TYPE_UINT32:
	case DBUS_TYPE_UINT64:
	case DBUS_TYPE_INT16:
	case DBUS_TYPE_INT32:
	case DBUS_TYPE_INT64:
		break;
	default:
		return false;
	}
	dbus_message_iter_get_basic(v, &b);
	switch (type) {
	case DBUS_TYPE_BYTE:
		*s = b.byt;
		break;
	case DBUS_TYPE_UINT16:
		*s = b.u16;
		break;
	case DBUS_TYPE_UINT32:
		*s = b.u32;
		break;
	case DBUS_TYPE_UINT64:
		*u = b.u64;
		*is_signed = false;
		break;
	case DBUS_TYPE_INT16:
		*s = b.i16;
		break;
	case DBUS_TYPE_INT32:
		*s = b.i32;
		break;
	default:
		*s = b.i64;
		break;
	}
	return true;
}

/* A dictionary key as text. */
static void key_text(DBusMessageIter *k, char *out, size_t cap)
{
	int64_t s;
	uint64_t u;
	bool is_signed;
	DBusBasicValue b;
	if (basic_int(k, &s, &u, &is_signed)) {
		if (is_signed)
			snprintf(out, cap, "%" PRId64, s);
		else
			snprintf(out, cap, "%" PRIu64, u);
		return;
	}
	switch (dbus_message_iter_get_arg_type(k)) {
	case DBUS_TYPE_STRING:
	case DBUS_TYPE_OBJECT_PATH:
	case DBUS_TYPE_SIGNATURE:
		dbus_message_iter_get_basic(k, &b);
		snprintf(out, cap, "%s", b.str);
		return;
	case DBUS_TYPE_BOOLEAN:
		dbus_message_iter_get_basic(k, &b);
		snprintf(out, cap, "%s", b.bool_val ? "true" : "false");
		return;
	default:
		snprintf(out, cap, "?");
	}
}

void wc_json_value(struct jw *w, DBusMessageIter *v)
{
	DBusBasicValue b;
	DBusMessageIter sub;
	int64_t s;
	uint64_t u;
	bool is_signed;
	if (basic_int(v, &s, &u, &is_signed)) {
		if (is_signed)
			jw_int(w, s);
		else
			jw_uint(w, u);
		return;
	}
	switch (dbus_message_iter_get_arg_type(v)) {
	case DBUS_TYPE_BOOLEAN:
		dbus_message_iter_get_basic(v, &b);
		jw_bool(w, b.bool_val);
		return;
	case DBUS_TYPE_DOUBLE:
		dbus_message_iter_get_basic(v, &b);
		jw_double(w, b.dbl);
		return;
	case DBUS_TYPE_STRING:
	case DBUS_TYPE_OBJECT_PATH:
	case DBUS_TYPE_SIGNATURE:
		dbus_message_iter_get_basic(v, &b);
		jw_string(w, b.str);
		return;
	case DBUS_TYPE_VARIANT:
		dbus_message_iter_recurse(v, &sub);
		wc_json_value(w, &sub);
		return;
	case DBUS_TYPE_ARRAY:
		dbus_message_iter_recurse(v, &sub);
		if (dbus_message_iter_get_element_type(v) == DBUS_TYPE_DICT_ENTRY) {
			jw_object_begin(w);
			for (; dbus_message_iter_get_arg_type(&sub) == DBUS_TYPE_DICT_ENTRY;
			     dbus_message_iter_next(&sub)) {
				DBusMessageIter e;
				char key[256];
				dbus_message_iter_recurse(&sub, &e);
				key_text(&e, key, sizeof(key));
				jw_key(w, key);
				dbus_message_iter_next(&e);
				wc_json_value(w, &e);
			}
			jw_object_end(w);
			return;
		}
		jw_array_begin(w);
		for (; dbus_message_iter_get_arg_type(&sub) != DBUS_TYPE_INVALID;
		     dbus_message_iter_next(&sub))
			wc_json_value(w, &sub);
		jw_array_end(w);
		return;
	case DBUS_TYPE_STRUCT:
		dbus_message_iter_recurse(v, &sub);
		jw_array_begin(w);
		for (; dbus_message_iter_get_arg_type(&sub) != DBUS_TYPE_INVALID;
		     dbus_message_iter_next(&sub))
			wc_json_value(w, &sub);
		jw_array_end(w);
		return;
	default:
		jw_null(w);
	}
}

void wc_json_members(struct jw *w, DBusMessageIter *dict)
{
	DBusMessageIter sub = *dict;
	if (dbus_message_iter_get_arg_type(&sub) == DBUS_TYPE_ARRAY)
		dbus_message_iter_recurse(dict, &sub);
	for (; dbus_message_iter_get_arg_type(&sub) == DBUS_TYPE_DICT_ENTRY;
	     dbus_message_iter_next(&sub)) {
		DBusMessageIter e;
		char key[256];
		dbus_message_iter_recurse(&sub, &e);
		key_text(&e, key, sizeof(key));
		jw_key(w, key);
		dbus_message_iter_next(&e);
		wc_json_value(w, &e);
	}
}

void wc_text_value(char *out, size_t cap, DBusMessageIter *v)
{
	/* The JSON form is unambiguous and escapes control characters; a
	 * lone string or path is shown bare unless it needs quotes. */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		snprintf(out, cap, "?");
		return;
	}
	struct jw w;
	jw_init(&w, f);
	wc_json_value(&w, v);
	fclose(f);
	int type = dbus_message_iter_get_arg_type(v);
	bool bare = false;
	if ((type == DBUS_TYPE_STRING || type == DBUS_TYPE_OBJECT_PATH) && len >= 2) {
		bare = len > 2;
		for (size_t i = 1; i + 1 < len; i++)
			if (buf[i] == ' ' || buf[i] == '\\' || buf[i] == '"')
				bare = false;
	}
	if (bare)
		snprintf(out, cap, "%.*s", (int)(len - 2), buf + 1);
	else
		snprintf(out, cap, "%s", buf ? buf : "");
	free(buf);
}

/* ---- formats ---- */

int wc_channel(uint32_t mhz)
{
	if (mhz == 2484)
		return 14;
	if (mhz >= 2412 && mhz <= 2472)
		return (int)(mhz - 2407) / 5;
	if (mhz >= 5955 && mhz <= 7115)
		return (int)(mhz - 5950) / 5;
	if (mhz >= 5000 && mhz < 5950)
		return (int)(mhz - 5000) / 5;
	return 0;
}

void wc_fmt_time(char *out, size_t cap, uint64_t unix_s)
{
	time_t t = (time_t)unix_s;
	struct tm tm;
	if (unix_s == 0 || !localtime_r(&t, &tm) || strftime(out, cap, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(out, cap, "%s", unix_s ? "?" : "never");
}

void wc_fmt_duration(char *out, size_t cap, uint64_t s)
{
	if (s < 60)
		snprintf(out, cap, "%" PRIu64 "s", s);
	else if (s < 3600)
		snprintf(out, cap, "%" PRIu64 "m%02" PRIu64 "s", s / 60, s % 60);
	else if (s < 86400)
		snprintf(out, cap, "%" PRIu64 "h%02" PRIu64 "m", s / 3600, s % 3600 / 60);
	else
		snprintf(out, cap, "%" PRIu64 "d%02" PRIu64 "h", s / 86400, s % 86400 / 3600);
}

const char *wc_bars(int dbm)
{
	if (dbm >= -60)
		return "****";
	if (dbm >= -67)
		return "***";
	if (dbm >= -75)
		return "**";
	return "*";
}
