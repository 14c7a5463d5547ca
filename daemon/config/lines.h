/* Line splitting with the byte-level checks every text file reader wants. */
#ifndef WPAD_CONFIG_LINES_H
#define WPAD_CONFIG_LINES_H

#include <stddef.h>

#include "daemon/config/cfg_error.h"

/* Longest line of any configuration text, without the line end. */
#define CFG_LINE_MAX 1024

/* Called with one line: NUL-terminated, its LF or CRLF removed, already
 * checked (no NUL, valid UTF-8, no control character but tab, at most
 * CFG_LINE_MAX bytes). The callback may modify the line; it is wiped after
 * the call. Return 0 to go on, or a negative code to stop. */
typedef int (*cfg_line_fn)(void *ctx, char *line, unsigned lineno);

/* Feeds each line of buf[0..len) to fn, skipping a leading UTF-8 byte
 * order mark. file names the text in messages. Returns 0, fn's first
 * negative return, or a check failure (CFG_E_LINE_TOO_LONG, CFG_E_NUL,
 * CFG_E_UTF8, CFG_E_CONTROL_CHAR) with err filled. */
int cfg_for_each_line(const char *buf, size_t len, const char *file, cfg_line_fn fn, void *ctx,
		      struct cfg_error *err);

/* Skips leading blanks and cuts trailing blanks in place; returns the start. */
char *cfg_trim(char *s);

#endif
