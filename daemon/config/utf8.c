#include "daemon/config/utf8.h"

/* Length of the sequence starting at s[0], or 0 when it is malformed. */
static size_t sequence_len(const uint8_t *s, size_t left)
{
	uint8_t c = s[0];
	size_t n;
	uint32_t cp, min;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2, cp = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, cp = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, cp = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool utf8_valid(const uint8_t *s, size_t len, size_t *bad_off)
{
	size_t i = 0;

	while (i < len) {
		size_t n = sequence_len(s + i, len - i);
		if (n == 0) {
			if (bad_off)
				*bad_off = i;
			return false;
		}
		i += n;
	}
	return true;
}
