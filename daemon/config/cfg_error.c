#include "daemon/config/cfg_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cfg_error_clear(struct cfg_error *err)
{
	if (!err)
		return;
	err->code = CFG_OK;
	err->line = 0;
	err->msg[0] = '\0';
}

int cfg_fail(struct cfg_error *err, int code, const char *file, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!err)
		return code;
	err->code = code;
	err->line = line;
	if (file && line)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%u: ", file, line);
	else if (file)
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", file);
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return code;
}

static const char *const names[] = {
	[0] = "ok",
	[-CFG_E_IO] = "cannot read file",
	[-CFG_E_TOO_LARGE] = "file too large",
	[-CFG_E_NUL] = "NUL byte",
	[-CFG_E_UTF8] = "invalid UTF-8",
	[-CFG_E_CONTROL_CHAR] = "control character",
	[-CFG_E_LINE_TOO_LONG] = "line too long",
	[-CFG_E_SECTION_SYNTAX] = "malformed section header",
	[-CFG_E_DUPLICATE_SECTION] = "duplicate section",
	[-CFG_E_KEY_OUTSIDE] = "key outside a section",
	[-CFG_E_SYNTAX] = "syntax error",
	[-CFG_E_BAD_KEY] = "malformed key",
	[-CFG_E_DUPLICATE_KEY] = "duplicate key",
	[-CFG_E_BAD_ESCAPE] = "unknown escape",
	[-CFG_E_CONTINUATION] = "line continuation",
	[-CFG_E_UNKNOWN_SECTION] = "unknown section",
	[-CFG_E_UNKNOWN_KEY] = "unknown key",
	[-CFG_E_MISSING_KEY] = "missing key",
	[-CFG_E_BAD_VALUE] = "invalid value",
	[-CFG_E_OUT_OF_RANGE] = "value out of range",
	[-CFG_E_BAD_REFERENCE] = "unknown reference",
	[-CFG_E_NOMEM] = "out of memory",
	[-CFG_E_SECTION_NAME] = "section name",
	[-CFG_E_BAD_MAC] = "invalid MAC address",
	[-CFG_E_BAD_PASSPHRASE] = "invalid passphrase",
	[-CFG_E_BAD_PSK] = "invalid PSK",
	[-CFG_E_TOO_MANY] = "too many entries",
	[-CFG_E_NOT_REGULAR] = "not a regular file",
	[-CFG_E_CONFLICT] = "conflicting settings",
};

const char *cfg_strerror(int code)
{
	const int count = (int)(sizeof(names) / sizeof(names[0]));

	/* Compare before negating: -INT_MIN does not exist. */
	if (code > 0 || code <= -count || !names[-code])
		return "unknown configuration error";
	return names[-code];
}
