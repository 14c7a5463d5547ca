#include "daemon/store/ssid_name.h"

#include <errno.h>
#include <string.h>

#include "daemon/config/value.h"

const char *known_security_ext(enum known_security sec)
{
	switch (sec) {
	case KNOWN_SEC_OPEN:
		return ".open";
	case KNOWN_SEC_PSK:
		return ".psk";
	case KNOWN_SEC_8021X:
		return ".8021x";
	}
	return ".unknown";
}

const char *known_security_name(enum known_security sec)
{
	return known_security_ext(sec) + 1;
}

bool known_ssid_is_plain(const uint8_t *ssid, size_t len)
{
	if (len < 1 || len > KNOWN_SSID_MAX)
		return false;
	if (ssid[0] == '.' || ssid[0] == '=' || ssid[0] == '-' || ssid[0] == ' ' ||
	    ssid[len - 1] == ' ')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (ssid[i] < 0x20 || ssid[i] > 0x7e || strchr("/\\:*?\"<>|", ssid[i]))
			return false;
	}
	return true;
}

int known_name_encode(const uint8_t *ssid, size_t len, enum known_security sec,
		      char out[KNOWN_NAME_MAX])
{
	const char *ext = known_security_ext(sec);
	size_t n;

	if (len < 1 || len > KNOWN_SSID_MAX)
		return -EINVAL;
	if (known_ssid_is_plain(ssid, len)) {
		memcpy(out, ssid, len);
		n = len;
	} else {
		out[0] = '=';
		cfg_hex_encode(ssid, len, out + 1);
		n = 1 + 2 * len;
	}
	memcpy(out + n, ext, strlen(ext) + 1);
	return 0;
}

static int split_ext(const char *name, size_t *stem, enum known_security *sec)
{
	static const enum known_security all[] = { KNOWN_SEC_OPEN, KNOWN_SEC_PSK, KNOWN_SEC_8021X };
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		const char *ext = known_security_ext(all[i]);
		size_t le = strlen(ext);
		if (len > le && strcmp(name + len - le, ext) == 0) {
			*stem = len - le;
			*sec = all[i];
			return 0;
		}
	}
	return -EINVAL;
}

bool known_name_has_ext(const char *name)
{
	size_t stem;
	enum known_security sec;

	return split_ext(name, &stem, &sec) == 0;
}

static bool is_lower_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

int known_name_decode(const char *name, uint8_t ssid[KNOWN_SSID_MAX], size_t *len,
		      enum known_security *sec)
{
	char hex[2 * KNOWN_SSID_MAX + 1];
	uint8_t buf[KNOWN_SSID_MAX];
	size_t stem;

	if (split_ext(name, &stem, sec) < 0)
		return -EINVAL;
	if (name[0] != '=') {
		if (!known_ssid_is_plain((const uint8_t *)name, stem))
			return -EINVAL;
		memcpy(ssid, name, stem);
		*len = stem;
		return 0;
	}
	size_t nhex = stem - 1;
	if (nhex < 2 || nhex > 2 * KNOWN_SSID_MAX || nhex % 2)
		return -EINVAL;
	for (size_t i = 0; i < nhex; i++)
		if (!is_lower_hex(name[1 + i]))
			return -EINVAL;
	memcpy(hex, name + 1, nhex);
	hex[nhex] = '\0';
	if (cfg_parse_hex(hex, buf, nhex / 2) < 0 || known_ssid_is_plain(buf, nhex / 2))
		return -EINVAL;
	memcpy(ssid, buf, nhex / 2);
	*len = nhex / 2;
	return 0;
}
