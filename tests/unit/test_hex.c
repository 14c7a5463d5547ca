/* Hex decoding shared by the test-vector suites; see test_hex.h. */
#include "tests/unit/test_hex.h"

#include <check.h>

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t unhex(const char *hex, uint8_t *out, size_t max)
{
	size_t n = 0;

	while (*hex) {
		if (*hex == ' ') {
			hex++;
			continue;
		}
		ck_assert_msg(nibble(hex[0]) >= 0 && hex[1] && nibble(hex[1]) >= 0,
			      "bad hex near '%s'", hex);
		ck_assert_msg(n < max, "hex longer than %zu bytes", max);
		out[n++] = (uint8_t)(nibble(hex[0]) << 4 | nibble(hex[1]));
		hex += 2;
	}
	return n;
}
