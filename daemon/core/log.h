/* Logging with levels and per-module tags, to stderr or syslog.
 *
 * A source file sets its tag once, before including this header:
 *     #define LOG_TAG "loop"
 * and then calls log_info("..."), log_debug("..."), and so on.
 *
 * Secrets (passphrases, PSK/PMK/PTK/GTK, EAP credentials) go only through
 * log_secret_hexdump(), which prints "[secret, N bytes]" unless the test-only
 * flag log_set_show_secrets(true) was set (wpad --log-secrets).
 */
#ifndef WPAD_CORE_LOG_H
#define WPAD_CORE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum log_level {
	WLOG_ERROR = 0,
	WLOG_WARN,
	WLOG_INFO,
	WLOG_DEBUG,   /* -d: state changes, frame hex dumps */
	WLOG_VERBOSE, /* -dd: everything, including per-frame traces */
};

enum log_target {
	LOG_TO_STDERR,
	LOG_TO_SYSLOG,
};

void log_open(enum log_target target, const char *ident);
void log_close(void);
void log_set_level(enum log_level level);
enum log_level log_get_level(void);
/* Print wall-clock timestamps on stderr lines (the demo wants them). */
void log_set_timestamps(bool on);
/* Test-only: reveal secret hex dumps. Never set in production. */
void log_set_show_secrets(bool on);
bool log_show_secrets(void);
/* Capture every formatted line (tests assert on log output). NULL restores. */
typedef void (*log_sink_fn)(enum log_level level, const char *tag, const char *line,
			    void *data);
void log_set_sink(log_sink_fn fn, void *data);

static inline bool log_enabled(enum log_level level)
{
	return level <= log_get_level();
}

void log_write(enum log_level level, const char *tag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void log_hexdump(enum log_level level, const char *tag, const char *title, const void *buf,
		 size_t len);
void log_secret_hexdump(enum log_level level, const char *tag, const char *title,
			const void *buf, size_t len);

/* addr as "xx:xx:xx:xx:xx:xx" (lowercase) into buf[18]; returns buf. By hand,
 * not snprintf: several run per connect, mostly for lines that are not
 * emitted, and snprintf cost ~3k instructions each (docs/performance.md). */
#define LOG_ADDR_STR_LEN 18
const char *log_addr_str(const uint8_t addr[6], char buf[LOG_ADDR_STR_LEN]);

#ifndef LOG_TAG
#define LOG_TAG "wpad"
#endif

#define log_error(...) log_write(WLOG_ERROR, LOG_TAG, __VA_ARGS__)
#define log_warn(...) log_write(WLOG_WARN, LOG_TAG, __VA_ARGS__)
#define log_info(...) log_write(WLOG_INFO, LOG_TAG, __VA_ARGS__)
#define log_debug(...)                                                                            \
	do {                                                                                      \
		if (log_enabled(WLOG_DEBUG))                                                      \
			log_write(WLOG_DEBUG, LOG_TAG, __VA_ARGS__);                              \
	} while (0)
#define log_verbose(...)                                                                          \
	do {                                                                                      \
		if (log_enabled(WLOG_VERBOSE))                                                    \
			log_write(WLOG_VERBOSE, LOG_TAG, __VA_ARGS__);                            \
	} while (0)
#define log_hex(title, buf, len) log_hexdump(WLOG_DEBUG, LOG_TAG, title, buf, len)
#define log_secret_hex(title, buf, len) log_secret_hexdump(WLOG_DEBUG, LOG_TAG, title, buf, len)

#endif
