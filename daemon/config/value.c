#include "daemon/config/value.h"

#include <string.h>

#include "daemon/config/cfg_error.h"

int cfg_parse_bool(const char *s, bool *out)
{
	if (strcmp(s, "true") == 0) {
		*out = true;
		return 0;
	}
	if (strcmp(s, "false") == 0) {
		*out = false;
		return 0;
	}
	return CFG_E_BAD_VALUE;
}

int cfg_parse_uint(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;
	bool overflow = false;

	if (!*s)
		return CFG_E_BAD_VALUE;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return CFG_E_BAD_VALUE;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX) {
			overflow = true;
			v = UINT32_MAX + (uint64_t)1; /* keep scanning for non-digits */
		}
	}
	if (overflow || v < min || v > max)
		return CFG_E_OUT_OF_RANGE;
	*out = (uint32_t)v;
	return 0;
}

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

int cfg_parse_mac(const char *s, uint8_t mac[CFG_MAC_LEN])
{
	uint8_t tmp[CFG_MAC_LEN];

	if (strlen(s) != CFG_MAC_STR_LEN)
		return CFG_E_BAD_MAC;
	for (size_t i = 0; i < CFG_MAC_LEN; i++) {
		const char *p = s + i * 3;
		int hi = nibble(p[0]), lo = nibble(p[1]);
		if (hi < 0 || lo < 0 || (i < CFG_MAC_LEN - 1 && p[2] != ':'))
			return CFG_E_BAD_MAC;
		tmp[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(mac, tmp, sizeof(tmp));
	return 0;
}

int cfg_parse_hex(const char *s, uint8_t *out, size_t len)
{
	if (strlen(s) != 2 * len)
		return CFG_E_BAD_VALUE;
	for (size_t i = 0; i < len; i++)
		if (nibble(s[2 * i]) < 0 || nibble(s[2 * i + 1]) < 0)
			return CFG_E_BAD_VALUE;
	for (size_t i = 0; i < len; i++)
		out[i] = (uint8_t)(nibble(s[2 * i]) << 4 | nibble(s[2 * i + 1]));
	return 0;
}

void cfg_hex_encode(const uint8_t *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 0x0f];
	}
	out[2 * len] = '\0';
}

bool cfg_passphrase_valid(const char *s)
{
	size_t len = strnlen(s, 64);

	if (len < 8 || len > 63)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 32 || (unsigned char)s[i] > 126)
			return false;
	return true;
}

bool cfg_country_valid(const char *s)
{
	if (strcmp(s, "00") == 0)
		return true;
	return strlen(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z';
}
