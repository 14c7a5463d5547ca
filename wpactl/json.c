/* The JSON writer; see json.h. */
#include "wpactl/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void jw_init(struct jw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->ok = true;
	w->kind[0] = 0;
	w->used[0] = false;
	w->keyed[0] = false;
}

bool jw_ok(const struct jw *w)
{
	return w->ok;
}

/* The length of the valid UTF-8 sequence at s (at most n bytes), 0 when
 * it is not one: no overlong forms, no surrogates, nothing past U+10FFFF. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void jw_write_string(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	fputc('"', f);
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
				break;
			}
			size_t len = utf8_len(s + i, n - i);
			if (len == 0) {
				fputs("\\ufffd", f); /* one replacement per bad byte */
				i++;
				continue;
			}
			fwrite(s + i, 1, len, f);
			i += len;
			continue;
		}
		i++;
	}
	fputc('"', f);
}

/* Before any value: the comma, and the check that a value may come here. */
static bool value_slot(struct jw *w)
{
	if (!w->ok)
		return false;
	int d = w->depth;
	if (d == 0) {
		if (w->used[0]) { /* one top-level value per jw_finish() */
			w->ok = false;
			return false;
		}
		w->used[0] = true;
		return true;
	}
	if (w->kind[d] == 'o') {
		if (!w->keyed[d]) {
			w->ok = false;
			return false;
		}
		w->keyed[d] = false;
		return true;
	}
	if (w->used[d])
		fputc(',', w->f);
	w->used[d] = true;
	return true;
}

static void open_level(struct jw *w, char kind)
{
	if (!value_slot(w))
		return;
	if (w->depth + 1 >= JW_DEPTH_MAX) {
		w->ok = false;
		return;
	}
	fputc(kind == 'o' ? '{' : '[', w->f);
	w->depth++;
	w->kind[w->depth] = kind;
	w->used[w->depth] = false;
	w->keyed[w->depth] = false;
}

static void close_level(struct jw *w, char kind)
{
	if (!w->ok || w->depth == 0 || w->kind[w->depth] != kind || w->keyed[w->depth]) {
		w->ok = false;
		return;
	}
	fputc(kind == 'o' ? '}' : ']', w->f);
	w->depth--;
}

void jw_object_begin(struct jw *w)
{
	open_level(w, 'o');
}

void jw_object_end(struct jw *w)
{
	close_level(w, 'o');
}

void jw_array_begin(struct jw *w)
{
	open_level(w, 'a');
}

void jw_array_end(struct jw *w)
{
	close_level(w, 'a');
}

void jw_key(struct jw *w, const char *key)
{
	int d = w->depth;
	if (!w->ok || d == 0 || w->kind[d] != 'o' || w->keyed[d]) {
		w->ok = false;
		return;
	}
	if (w->used[d])
		fputc(',', w->f);
	w->used[d] = true;
	w->keyed[d] = true;
	jw_write_string(w->f, key, strlen(key));
	fputc(':', w->f);
}

void jw_string_len(struct jw *w, const char *s, size_t len)
{
	if (value_slot(w))
		jw_write_string(w->f, s ? s : "", s ? len : 0);
}

void jw_string(struct jw *w, const char *s)
{
	jw_string_len(w, s, s ? strlen(s) : 0);
}

void jw_int(struct jw *w, int64_t v)
{
	if (value_slot(w))
		fprintf(w->f, "%" PRId64, v);
}

void jw_uint(struct jw *w, uint64_t v)
{
	if (value_slot(w))
		fprintf(w->f, "%" PRIu64, v);
}

void jw_double(struct jw *w, double v)
{
	if (!value_slot(w))
		return;
	if (isfinite(v))
		fprintf(w->f, "%.17g", v);
	else
		fputs("null", w->f);
}

void jw_bool(struct jw *w, bool v)
{
	if (value_slot(w))
		fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w)
{
	if (value_slot(w))
		fputs("null", w->f);
}

bool jw_finish(struct jw *w)
{
	bool ok = w->ok && w->depth == 0 && w->used[0];
	if (ok)
		fputc('\n', w->f);
	fflush(w->f);
	w->used[0] = false;
	w->ok = true;
	w->depth = 0;
	return ok;
}
