#include "daemon/config/lines.h"

#include <stdint.h>
#include <string.h>

#include "daemon/config/utf8.h"
#include "daemon/crypto/secure.h"

char *cfg_trim(char *s)
{
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = '\0';
	return s;
}

static int check_bytes(const char *s, size_t len, const char *file, unsigned line,
		       struct cfg_error *err)
{
	size_t bad;

	if (len > CFG_LINE_MAX)
		return cfg_fail(err, CFG_E_LINE_TOO_LONG, file, line,
				"line is longer than %d bytes", CFG_LINE_MAX);
	if (memchr(s, '\0', len))
		return cfg_fail(err, CFG_E_NUL, file, line, "NUL byte in line (binary file?)");
	if (!utf8_valid((const uint8_t *)s, len, &bad))
		return cfg_fail(err, CFG_E_UTF8, file, line, "invalid UTF-8 at column %zu",
				bad + 1);
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
			return cfg_fail(err, CFG_E_CONTROL_CHAR, file, line,
					"control character 0x%02x at column %zu",
					(unsigned)(unsigned char)s[i], i + 1);
	return 0;
}

int cfg_for_each_line(const char *buf, size_t len, const char *file, cfg_line_fn fn, void *ctx,
		      struct cfg_error *err)
{
	char line[CFG_LINE_MAX + 1];
	unsigned lineno = 0;
	size_t pos = 0;
	int ret = 0;

	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	while (pos < len && ret == 0) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		const char *raw = buf + pos;

		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n > 0 && raw[n - 1] == '\r')
			n--;
		ret = check_bytes(raw, n, file, lineno, err);
		if (ret < 0)
			break;
		memcpy(line, raw, n);
		line[n] = '\0';
		ret = fn(ctx, line, lineno);
		crypto_zero(line, n);
	}
	return ret;
}
