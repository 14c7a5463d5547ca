/* A growable text buffer for writing configuration files.
 *
 * Ownership: the caller owns the struct (usually on the stack) and must
 * call strbuf_free() or strbuf_free_secret() once. An allocation failure
 * latches `bad`; later appends do nothing, so a writer checks once at the
 * end. data is always NUL-terminated once anything was appended.
 */
#ifndef WPAD_CONFIG_STRBUF_H
#define WPAD_CONFIG_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *data;
	size_t len;
	size_t cap;
	bool bad;
};

#define STRBUF_INIT                                                                                \
	{                                                                                          \
		.data = NULL, .len = 0, .cap = 0, .bad = false                                     \
	}

void strbuf_append(struct strbuf *sb, const char *s, size_t n);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_putc(struct strbuf *sb, char c);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_free(struct strbuf *sb);
/* Zeroes the whole allocation first: for text that held secrets. */
void strbuf_free_secret(struct strbuf *sb);

#endif
