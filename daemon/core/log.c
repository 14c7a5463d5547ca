/* Logging backend: formats one line per call and hands it to stderr, syslog
 * or a test sink. Kept deliberately small: no allocation on the hot path. */
#include "daemon/core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

static struct {
	enum log_level level;
	enum log_target target;
	bool timestamps;
	bool show_secrets;
	log_sink_fn sink;
	void *sink_data;
} log_state = { .level = WLOG_INFO, .target = LOG_TO_STDERR };

static const char *const level_names[] = {
	[WLOG_ERROR] = "error", [WLOG_WARN] = "warn", [WLOG_INFO] = "info",
	[WLOG_DEBUG] = "debug", [WLOG_VERBOSE] = "verbose",
};

static int syslog_priority(enum log_level level)
{
	switch (level) {
	case WLOG_ERROR:
		return LOG_ERR;
	case WLOG_WARN:
		return LOG_WARNING;
	case WLOG_INFO:
		return LOG_INFO;
	case WLOG_DEBUG:
	case WLOG_VERBOSE:
		return LOG_DEBUG;
	}
	return LOG_INFO;
}

void log_open(enum log_target target, const char *ident)
{
	log_state.target = target;
	if (target == LOG_TO_SYSLOG)
		openlog(ident ? ident : "wpad", LOG_PID, LOG_DAEMON);
}

void log_close(void)
{
	if (log_state.target == LOG_TO_SYSLOG)
		closelog();
	log_state.target = LOG_TO_STDERR;
}

const char *log_addr_str(const uint8_t addr[6], char buf[LOG_ADDR_STR_LEN])
{
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < 6; i++) {
		buf[3 * i] = hex[addr[i] >> 4];
		buf[3 * i + 1] = hex[addr[i] & 0xf];
		buf[3 * i + 2] = i < 5 ? ':' : '\0';
	}
	return buf;
}

void log_set_level(enum log_level level)
{
	log_state.level = level > WLOG_VERBOSE ? WLOG_VERBOSE : level;
}

enum log_level log_get_level(void)
{
	return log_state.level;
}

void log_set_timestamps(bool on)
{
	log_state.timestamps = on;
}

void log_set_show_secrets(bool on)
{
	log_state.show_secrets = on;
}

bool log_show_secrets(void)
{
	return log_state.show_secrets;
}

void log_set_sink(log_sink_fn fn, void *data)
{
	log_state.sink = fn;
	log_state.sink_data = data;
}

static void emit(enum log_level level, const char *tag, const char *line)
{
	if (log_state.sink) {
		log_state.sink(level, tag, line, log_state.sink_data);
		return;
	}
	if (log_state.target == LOG_TO_SYSLOG) {
		syslog(syslog_priority(level), "%s: %s", tag, line);
		return;
	}
	if (log_state.timestamps) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		fprintf(stderr, "%5lld.%06ld ", (long long)ts.tv_sec, ts.tv_nsec / 1000);
	}
	if (level == WLOG_INFO)
		fprintf(stderr, "%s: %s\n", tag, line);
	else
		fprintf(stderr, "%s: %s: %s\n", tag, level_names[level], line);
}

void log_write(enum log_level level, const char *tag, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!log_enabled(level))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	emit(level, tag, line);
}

/* Dumps as "title (N bytes): 00 11 22 ..." lines of 32 bytes each. */
void log_hexdump(enum log_level level, const char *tag, const char *title, const void *buf,
		 size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *p = buf;
	char line[32 * 3 + 1];

	if (!log_enabled(level))
		return;
	log_write(level, tag, "%s (%zu bytes)%s", title, len, len ? ":" : "");
	for (size_t off = 0; off < len; off += 32) {
		size_t n = len - off < 32 ? len - off : 32;
		char *o = line;
		for (size_t i = 0; i < n; i++) {
			*o++ = hex[p[off + i] >> 4];
			*o++ = hex[p[off + i] & 15];
			*o++ = ' ';
		}
		o[-1] = '\0';
		log_write(level, tag, "  %s", line);
	}
}

void log_secret_hexdump(enum log_level level, const char *tag, const char *title,
			const void *buf, size_t len)
{
	if (!log_enabled(level))
		return;
	if (!log_state.show_secrets) {
		log_write(level, tag, "%s: [secret, %zu bytes]", title, len);
		return;
	}
	log_hexdump(level, tag, title, buf, len);
}
