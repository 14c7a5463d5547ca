/* Errors of the configuration readers (daemon/config, daemon/store).
 *
 * Every reader reports a failure twice: as a negative code that tests and
 * the D-Bus layer can switch on, and as one human sentence that already
 * names the file and line, ready for the log:
 *     wpad.conf:12: unknown key 'chanel' in [AccessPoint] (did you mean 'Channel'?)
 *
 * The AP profile has its own code range (enum ap_err in ap_profile.h); the
 * codes never overlap, so a struct cfg_error can carry either.
 */
#ifndef WPAD_CONFIG_CFG_ERROR_H
#define WPAD_CONFIG_CFG_ERROR_H

#include <stddef.h>

enum cfg_err {
	CFG_OK = 0,
	CFG_E_IO = -1, /* the file cannot be opened or read */
	CFG_E_TOO_LARGE = -2, /* file above the size limit */
	CFG_E_NUL = -3, /* a NUL byte in a text file */
	CFG_E_UTF8 = -4, /* invalid UTF-8 */
	CFG_E_CONTROL_CHAR = -5, /* a control character other than tab */
	CFG_E_LINE_TOO_LONG = -6, /* line above INI_LINE_MAX */
	CFG_E_SECTION_SYNTAX = -7, /* malformed [Section] header */
	CFG_E_DUPLICATE_SECTION = -8, /* the same [Type name] twice */
	CFG_E_KEY_OUTSIDE = -9, /* key=value before any section */
	CFG_E_SYNTAX = -10, /* not a header, key=value or comment */
	CFG_E_BAD_KEY = -11, /* empty key or a character not allowed */
	CFG_E_DUPLICATE_KEY = -12, /* the same key twice in a section */
	CFG_E_BAD_ESCAPE = -13, /* unknown backslash escape */
	CFG_E_CONTINUATION = -14, /* trailing backslash (not supported) */
	CFG_E_UNKNOWN_SECTION = -15, /* section type the file does not know */
	CFG_E_UNKNOWN_KEY = -16, /* key the section does not know */
	CFG_E_MISSING_KEY = -17, /* a required key is absent */
	CFG_E_BAD_VALUE = -18, /* value not of the key's type */
	CFG_E_OUT_OF_RANGE = -19, /* number outside the key's range */
	CFG_E_BAD_REFERENCE = -20, /* names a section that does not exist */
	CFG_E_NOMEM = -21, /* allocation failed */
	CFG_E_SECTION_NAME = -22, /* section needs a name, or must not have one */
	CFG_E_BAD_MAC = -23, /* not a MAC address aa:bb:cc:dd:ee:ff */
	CFG_E_BAD_PASSPHRASE = -24, /* not 8..63 printable ASCII characters */
	CFG_E_BAD_PSK = -25, /* not 64 hex digits */
	CFG_E_TOO_MANY = -26, /* more sections, keys or lines than allowed */
	CFG_E_NOT_REGULAR = -27, /* a path that is not a regular file */
	CFG_E_CONFLICT = -28, /* two settings that exclude each other */
};

#define CFG_ERROR_MSG_MAX 512

struct cfg_error {
	int code; /* enum cfg_err or enum ap_err; 0 when no error */
	unsigned line; /* 1-based line of the offending text, 0 if none */
	char msg[CFG_ERROR_MSG_MAX];
};

/* Fills err (which may be NULL) and returns code, so a reader can write
 * `return cfg_fail(err, CFG_E_SYNTAX, file, line, "...")`. The message is
 * prefixed "file:line: " (or "file: " when line is 0, nothing when file is
 * NULL). */
int cfg_fail(struct cfg_error *err, int code, const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Clears err to "no error". err may be NULL. */
void cfg_error_clear(struct cfg_error *err);

/* A short fixed name of a code ("unknown key"), for tests and logs. */
const char *cfg_strerror(int code);

#endif
