/* AP profile: setting keys from their text form. */
#include "daemon/config/ap_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/kde.h"
#include "daemon/config/path.h"
#include "daemon/config/suggest.h"
#include "daemon/config/value.h"
#include "daemon/crypto/secure.h"

struct setctx {
	struct ap_profile *p;
	const struct ap_source *src;
	struct cfg_error *err;
};

#define SET_FAIL(c, code, ...)                                                                     \
	cfg_fail((c)->err, code, (c)->src ? (c)->src->file : NULL, (c)->src ? (c)->src->line : 0,  \
		 __VA_ARGS__)

static int set_bool(struct setctx *c, const char *key, const char *v, bool *out)
{
	if (cfg_parse_bool(v, out) < 0)
		return SET_FAIL(c, AP_E_BOOL, "%s must be true or false", key);
	return 0;
}

static int set_uint(struct setctx *c, int code, const char *v, uint32_t min, uint32_t max,
		    uint32_t *out, const char *what)
{
	int ret = cfg_parse_uint(v, min, max, out);

	if (ret == CFG_E_BAD_VALUE)
		return SET_FAIL(c, code, "%s must be a whole number, got '%.32s'", what, v);
	if (ret < 0)
		return SET_FAIL(c, code, "%s %s is out of range (%u..%u)", what, v, min, max);
	return 0;
}

/* 0 (off) or min..max. */
static int set_off_or_range(struct setctx *c, int code, const char *v, uint32_t min, uint32_t max,
			    uint32_t *out, const char *what)
{
	uint32_t x;
	int ret = set_uint(c, code, v, 0, max, &x, what);

	if (ret < 0)
		return ret;
	if (x != 0 && x < min)
		return SET_FAIL(c, code, "%s must be 0 (off) or %u..%u, got %u", what, min, max, x);
	*out = x;
	return 0;
}

static int set_path(struct setctx *c, int code, const char *key, const char *v, char **out)
{
	const char *base = c->src ? c->src->base_dir : NULL;
	char *path;

	if (!*v)
		return SET_FAIL(c, code, "%s is empty", key);
	if (v[0] != '/' && !base)
		return SET_FAIL(c, code, "%s must be an absolute path", key);
	path = cfg_path_resolve(base, v);
	if (!path)
		return SET_FAIL(c, AP_E_NOMEM, "out of memory");
	free(*out);
	*out = path;
	return 0;
}

static int set_passphrase(struct setctx *c, const char *v)
{
	struct ap_profile *p = c->p;

	if (!cfg_passphrase_valid(v))
		return SET_FAIL(c, AP_E_PASSPHRASE,
				"Passphrase must be 8..63 printable ASCII characters, got %zu",
				strnlen(v, 1000));
	crypto_zero(p->passphrase, sizeof(p->passphrase));
	memcpy(p->passphrase, v, strlen(v) + 1);
	p->has_passphrase = true;
	crypto_zero(p->psk, sizeof(p->psk));
	p->has_psk = false;
	return 0;
}

static int set_psk(struct setctx *c, const char *v)
{
	struct ap_profile *p = c->p;
	uint8_t psk[32];

	if (cfg_parse_hex(v, psk, sizeof(psk)) < 0)
		return SET_FAIL(c, AP_E_PSK,
				"PSK must be exactly 64 hex digits, got %zu characters",
				strnlen(v, 1000));
	memcpy(p->psk, psk, sizeof(psk));
	crypto_zero(psk, sizeof(psk));
	p->has_psk = true;
	crypto_zero(p->passphrase, sizeof(p->passphrase));
	p->has_passphrase = false;
	return 0;
}

static int set_enum(struct setctx *c, enum ap_key k, const char *v)
{
	struct ap_profile *p = c->p;

	if (k == AP_KEY_BAND) {
		if (strcmp(v, "2.4") == 0)
			p->band = AP_BAND_2GHZ;
		else if (strcmp(v, "5") == 0)
			p->band = AP_BAND_5GHZ;
		else
			return SET_FAIL(c, AP_E_BAND, "Band must be 2.4 or 5");
		return 0;
	}
	if (strcmp(v, "open") == 0)
		p->security = AP_SECURITY_OPEN;
	else if (strcmp(v, "wpa2-psk") == 0)
		p->security = AP_SECURITY_WPA2_PSK;
	else
		return SET_FAIL(c, AP_E_SECURITY,
				"Security '%.32s' is not supported (open or wpa2-psk)", v);
	return 0;
}

static int set_width(struct setctx *c, const char *v)
{
	static const char *const names[] = { "auto", "20", "40", "80", "160" };
	static const uint16_t widths[] = { 0, 20, 40, 80, 160 };
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (strcmp(v, names[i]) == 0) {
			c->p->width_mhz = widths[i];
			return 0;
		}
	return SET_FAIL(c, AP_E_WIDTH, "Width must be 20, 40, 80, 160 or auto (MHz)");
}

/* TransitionDisable: the modes named (hostapd's transition_disable
 * bitmap, by name), space- or comma-separated; "" or "none": none. */
static int set_transition_disable(struct setctx *c, const char *v)
{
	static const struct {
		const char *name;
		uint8_t bit;
	} modes[] = {
		{ "wpa3-personal", KDE_TD_WPA3_PERSONAL },
		{ "sae-pk", KDE_TD_SAE_PK },
		{ "wpa3-enterprise", KDE_TD_WPA3_ENTERPRISE },
		{ "enhanced-open", KDE_TD_ENHANCED_OPEN },
	};
	char buf[128], *save = NULL;
	uint8_t bits = 0;
	if (strlen(v) >= sizeof(buf))
		return SET_FAIL(c, AP_E_TRANSITION_DISABLE, "TransitionDisable is too long");
	memcpy(buf, v, strlen(v) + 1);
	for (char *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
		size_t i = 0;
		while (i < sizeof(modes) / sizeof(modes[0]) && strcmp(t, modes[i].name) != 0)
			i++;
		if (i < sizeof(modes) / sizeof(modes[0]))
			bits |= modes[i].bit;
		else if (strcmp(t, "none") != 0)
			return SET_FAIL(c, AP_E_TRANSITION_DISABLE,
					"TransitionDisable: unknown mode '%.32s' (wpa3-personal, "
					"sae-pk, wpa3-enterprise, enhanced-open or none)",
					t);
	}
	c->p->transition_disable = bits;
	return 0;
}

/* A Linux interface name: 1..15 bytes, no '/', ':' or white space (the
 * kernel's dev_valid_name), not "." or "..". */
static int set_bridge(struct setctx *c, const char *v)
{
	size_t n = strlen(v);
	bool ok = n >= 1 && n < sizeof(c->p->bridge) && strcmp(v, ".") != 0 && strcmp(v, "..") != 0;
	for (size_t i = 0; ok && i < n; i++)
		ok = v[i] > ' ' && v[i] < 127 && v[i] != '/' && v[i] != ':';
	if (!ok)
		return SET_FAIL(c, AP_E_BRIDGE,
				"Bridge '%.32s' is not an interface name (1..15 characters, no "
				"'/', ':' or spaces)",
				v);
	memcpy(c->p->bridge, v, n + 1);
	return 0;
}

static int set_number(struct setctx *c, enum ap_key k, const char *v)
{
	struct ap_profile *p = c->p;
	uint32_t x;
	int ret;

	switch (k) {
	case AP_KEY_CHANNEL:
		p->channel_auto = strcmp(v, "auto") == 0;
		if (p->channel_auto) {
			p->channel = 0;
			return 0;
		}
		ret = set_uint(c, AP_E_CHANNEL, v, 1, 196, &x, "Channel");
		if (ret == 0)
			p->channel = (uint8_t)x;
		return ret;
	case AP_KEY_BEACON_INTERVAL:
		ret = set_uint(c, AP_E_BEACON_INTERVAL, v, 15, 65535, &x, "BeaconInterval");
		if (ret == 0)
			p->beacon_interval = (uint16_t)x;
		return ret;
	case AP_KEY_DTIM_PERIOD:
		ret = set_uint(c, AP_E_DTIM_PERIOD, v, 1, 255, &x, "DTIMPeriod");
		if (ret == 0)
			p->dtim_period = (uint8_t)x;
		return ret;
	case AP_KEY_MAX_STATIONS:
		return set_uint(c, AP_E_MAX_STATIONS, v, 1, 2007, &p->max_stations, "MaxStations");
	case AP_KEY_GROUP_REKEY:
		return set_off_or_range(c, AP_E_GROUP_REKEY, v, 30, 31536000, &p->group_rekey_s,
					"GroupRekeySeconds");
	case AP_KEY_INACTIVITY:
		return set_off_or_range(c, AP_E_INACTIVITY, v, 10, 31536000, &p->inactivity_s,
					"InactivityTimeout");
	default:
		return SET_FAIL(c, AP_E_UNKNOWN_KEY, "internal: %s is not a number key",
				ap_profile_keys[k]);
	}
}

static int set_key(struct setctx *c, enum ap_key k, const char *v)
{
	struct ap_profile *p = c->p;
	const char *name = ap_profile_keys[k];

	switch (k) {
	case AP_KEY_SSID:
		if (strlen(v) < 1 || strlen(v) > sizeof(p->ssid))
			return SET_FAIL(c, AP_E_SSID, "SSID must be 1..32 bytes, got %zu",
					strlen(v));
		return ap_profile_set_ssid(p, (const uint8_t *)v, strlen(v), c->err);
	case AP_KEY_HIDDEN:
		return set_bool(c, name, v, &p->hidden);
	case AP_KEY_CLIENT_ISOLATION:
		return set_bool(c, name, v, &p->client_isolation);
	case AP_KEY_REKEY_ON_LEAVE:
		return set_bool(c, name, v, &p->rekey_on_sta_leave);
	case AP_KEY_BRIDGE_CREATE:
		return set_bool(c, name, v, &p->bridge_create);
	case AP_KEY_BRIDGE:
		return set_bridge(c, v);
	case AP_KEY_BAND:
	case AP_KEY_SECURITY:
		return set_enum(c, k, v);
	case AP_KEY_PASSPHRASE:
		return set_passphrase(c, v);
	case AP_KEY_PSK:
		return set_psk(c, v);
	case AP_KEY_PSK_FILE:
		return set_path(c, AP_E_PSK_FILE, name, v, &p->psk_file);
	case AP_KEY_MAC_ALLOW_FILE:
		return set_path(c, AP_E_MAC_FILE, name, v, &p->mac_allow_file);
	case AP_KEY_MAC_DENY_FILE:
		return set_path(c, AP_E_MAC_FILE, name, v, &p->mac_deny_file);
	case AP_KEY_PMF:
		if (strcmp(v, "optional") == 0)
			p->pmf = AP_PMF_OPTIONAL;
		else if (strcmp(v, "disabled") == 0)
			p->pmf = AP_PMF_DISABLED;
		else if (strcmp(v, "required") == 0)
			p->pmf = AP_PMF_REQUIRED;
		else
			return SET_FAIL(c, AP_E_PMF,
					"ManagementFrameProtection must be disabled, optional or "
					"required");
		return 0;
	case AP_KEY_OWE_TRANS_BSSID:
		if (cfg_parse_mac(v, p->owe_trans_bssid) < 0)
			return SET_FAIL(c, AP_E_OWE_TRANSITION,
					"OWETransitionBSSID must be a MAC address (aa:bb:cc:dd:ee:ff)");
		return 0;
	case AP_KEY_OWE_TRANS_SSID:
		if (strlen(v) < 1 || strlen(v) > sizeof(p->owe_trans_ssid))
			return SET_FAIL(c, AP_E_OWE_TRANSITION,
					"OWETransitionSSID must be 1..32 bytes, got %zu", strlen(v));
		memcpy(p->owe_trans_ssid, v, strlen(v));
		p->owe_trans_ssid_len = strlen(v);
		return 0;
	case AP_KEY_AKMS:
	case AP_KEY_CIPHERS: {
		char *dst = k == AP_KEY_AKMS ? p->akms : p->ciphers;
		if (strlen(v) >= sizeof(p->akms))
			return SET_FAIL(c, AP_E_SUITES, "%s is longer than %zu characters", name,
					sizeof(p->akms) - 1);
		memcpy(dst, v, strlen(v) + 1);
		return 0;
	}
	case AP_KEY_SAE_PWE:
		if (strcmp(v, "hunt-and-peck") && strcmp(v, "h2e") && strcmp(v, "both"))
			return SET_FAIL(c, AP_E_SAE_PWE,
					"SAEPWE must be hunt-and-peck, h2e or both");
		snprintf(p->sae_pwe, sizeof(p->sae_pwe), "%s", v);
		return 0;
	case AP_KEY_WIDTH:
		return set_width(c, v);
	case AP_KEY_TRANSITION_DISABLE:
		return set_transition_disable(c, v);
	case AP_KEY_COUNTRY:
		if (!cfg_country_valid(v))
			return SET_FAIL(c, AP_E_COUNTRY,
					"Country must be two capital letters (ISO 3166-1) or 00");
		memcpy(p->country, v, 3);
		return 0;
	default:
		return set_number(c, k, v);
	}
}

int ap_profile_set(struct ap_profile *p, const char *key, const char *value,
		   const struct ap_source *src, struct cfg_error *err)
{
	struct setctx c = { .p = p, .src = src, .err = err };
	int ret;

	for (size_t k = 0; k < AP_KEY_COUNT; k++) {
		if (strcmp(key, ap_profile_keys[k]) != 0)
			continue;
		ret = set_key(&c, (enum ap_key)k, value);
		if (ret < 0)
			return ret;
		free(p->key_file[k]);
		p->key_file[k] = src && src->file ? strdup(src->file) : NULL;
		p->key_line[k] = src && p->key_file[k] ? src->line : 0;
		return 0;
	}
	const char *hint = cfg_suggest(key, ap_profile_keys);
	if (hint)
		return SET_FAIL(&c, AP_E_UNKNOWN_KEY, "unknown key '%s' (did you mean '%s'?)", key,
				hint);
	return SET_FAIL(&c, AP_E_UNKNOWN_KEY, "unknown key '%s'", key);
}

int ap_profile_set_ssid(struct ap_profile *p, const uint8_t *ssid, size_t len,
			struct cfg_error *err)
{
	if (len < 1 || len > sizeof(p->ssid))
		return cfg_fail(err, AP_E_SSID, NULL, 0, "SSID must be 1..32 bytes, got %zu", len);
	memcpy(p->ssid, ssid, len);
	p->ssid_len = len;
	return 0;
}
