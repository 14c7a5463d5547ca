#include "daemon/config/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto/secure.h"

/* Grows to hold n more bytes plus the NUL. A move through realloc could
 * leave secrets behind in the freed block, so grow by copy and wipe. */
static bool reserve(struct strbuf *sb, size_t n)
{
	if (sb->bad)
		return false;
	if (n < sb->cap - sb->len && sb->data)
		return true;
	if (n > ((size_t)-1) / 4 - sb->len) {
		sb->bad = true;
		return false;
	}
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap <= sb->len + n)
		cap *= 2;
	char *p = malloc(cap);
	if (!p) {
		sb->bad = true;
		return false;
	}
	if (sb->data) {
		memcpy(p, sb->data, sb->len + 1);
		crypto_zero(sb->data, sb->cap);
		free(sb->data);
	} else {
		p[0] = '\0';
	}
	sb->data = p;
	sb->cap = cap;
	return true;
}

void strbuf_append(struct strbuf *sb, const char *s, size_t n)
{
	if (!reserve(sb, n))
		return;
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_append(sb, s, strlen(s));
}

void strbuf_putc(struct strbuf *sb, char c)
{
	strbuf_append(sb, &c, 1);
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	char small[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->bad = true;
		return;
	}
	if ((size_t)n < sizeof(small)) {
		strbuf_append(sb, small, (size_t)n);
		crypto_zero(small, sizeof(small));
		return;
	}
	if (!reserve(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->data);
	sb->data = NULL;
	sb->len = sb->cap = 0;
	sb->bad = false;
}

void strbuf_free_secret(struct strbuf *sb)
{
	if (sb->data)
		crypto_zero(sb->data, sb->cap);
	strbuf_free(sb);
}
