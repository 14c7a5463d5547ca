/* AddNetwork's dictionary; see wpas_netdict.h. */
#include "dbus/wpas_netdict.h"

#include "dbus/wpas_i.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/suites.h"
#include "daemon/crypto/secure.h"
#include "daemon/station/station.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum key_kind {
	KEY_STR,   /* s or ay */
	KEY_INT,   /* i or u */
	KEY_BYTES, /* ay (or s) */
};

/* wpa_supplicant's network keys NetworkManager 1.42 may send. */
static const struct {
	const char *name;
	enum key_kind kind;
} known_keys[] = {
	{ "ssid", KEY_BYTES },
	{ "scan_ssid", KEY_INT },
	{ "bssid", KEY_STR },
	{ "freq_list", KEY_STR },
	{ "frequency", KEY_INT },
	{ "mode", KEY_INT },
	{ "ignore_broadcast_ssid", KEY_INT },
	{ "bgscan", KEY_STR },
	{ "key_mgmt", KEY_STR },
	{ "proto", KEY_STR },
	{ "pairwise", KEY_STR },
	{ "group", KEY_STR },
	{ "ieee80211w", KEY_INT },
	{ "auth_alg", KEY_STR },
	{ "owe_only", KEY_INT },
	{ "psk", KEY_BYTES },
	{ "sae_password", KEY_STR },
	{ "wps_disabled", KEY_INT },
	{ "eap", KEY_STR },
	{ "identity", KEY_STR },
	{ "anonymous_identity", KEY_STR },
	{ "password", KEY_STR },
	{ "pin", KEY_STR },
	{ "pac_file", KEY_STR },
	{ "ca_cert", KEY_STR },
	{ "ca_path", KEY_STR },
	{ "client_cert", KEY_STR },
	{ "private_key", KEY_STR },
	{ "private_key_passwd", KEY_STR },
	{ "phase1", KEY_STR },
	{ "phase2", KEY_STR },
	{ "subject_match", KEY_STR },
	{ "altsubject_match", KEY_STR },
	{ "domain_match", KEY_STR },
	{ "domain_suffix_match", KEY_STR },
	{ "ca_cert2", KEY_STR },
	{ "ca_path2", KEY_STR },
	{ "client_cert2", KEY_STR },
	{ "private_key2", KEY_STR },
	{ "private_key2_passwd", KEY_STR },
	{ "subject_match2", KEY_STR },
	{ "altsubject_match2", KEY_STR },
	{ "domain_match2", KEY_STR },
	{ "domain_suffix_match2", KEY_STR },
	{ "fragment_size", KEY_INT },
	{ "proactive_key_caching", KEY_INT },
	{ "eapol_flags", KEY_INT },
	{ "mesh_fwding", KEY_INT },
};

/* A value as bytes (from s or ay); false for another type or one longer
 * than max. */
static bool read_bytes(DBusMessageIter *v, const uint8_t **out, size_t *len, size_t max)
{
	int t = dbus_message_iter_get_arg_type(v);
	if (t == DBUS_TYPE_STRING) {
		const char *s;
		dbus_message_iter_get_basic(v, &s);
		*out = (const uint8_t *)s;
		*len = strlen(s);
	} else if (t == DBUS_TYPE_ARRAY && dbus_message_iter_get_element_type(v) == DBUS_TYPE_BYTE) {
		DBusMessageIter arr;
		int n = 0;
		dbus_message_iter_recurse(v, &arr);
		dbus_message_iter_get_fixed_array(&arr, out, &n);
		*len = n > 0 ? (size_t)n : 0;
	} else {
		return false;
	}
	return *len <= max;
}

static bool read_int(DBusMessageIter *v, int64_t *out)
{
	int t = dbus_message_iter_get_arg_type(v);
	if (t == DBUS_TYPE_INT32) {
		dbus_int32_t i;
		dbus_message_iter_get_basic(v, &i);
		*out = i;
		return true;
	}
	if (t == DBUS_TYPE_UINT32) {
		dbus_uint32_t u;
		dbus_message_iter_get_basic(v, &u);
		*out = u;
		return true;
	}
	return false;
}

/* Text without NULs into out (cap > len). */
static bool copy_text(char *out, size_t cap, const uint8_t *b, size_t len)
{
	if (len >= cap || memchr(b, 0, len))
		return false;
	memcpy(out, b, len);
	out[len] = '\0';
	return true;
}

/* psk: a passphrase (8..63 characters, as s or ay), or the PSK itself (32
 * raw octets as ay, or 64 hex digits), kept as text for station_connect. */
static bool set_psk(struct wpas_net *n, int type, const uint8_t *b, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	if (type == DBUS_TYPE_ARRAY && len == 32) {
		for (size_t i = 0; i < 32; i++) {
			n->psk[2 * i] = hex[b[i] >> 4];
			n->psk[2 * i + 1] = hex[b[i] & 15];
		}
		n->psk[64] = '\0';
	} else if (!copy_text(n->psk, sizeof(n->psk), b, len) ||
		   station_passphrase_check(n->psk) < 0) {
		crypto_zero(n->psk, sizeof(n->psk));
		return false;
	}
	n->have_psk = true;
	return true;
}

/* wpa_supplicant's key_mgmt names (its config parser's), as AKM suites;
 * 0 for the two that name no AKM suite (open, dynamic WEP / wired). */
static const struct {
	const char *name;
	uint32_t akm;
} key_mgmt_names[] = {
	{ "NONE", 0 },
	{ "IEEE8021X", 0 },
	{ "WPA-PSK", RSN_AKM_PSK },
	{ "WPA-EAP", RSN_AKM_8021X },
	{ "FT-PSK", RSN_AKM_FT_PSK },
	{ "FT-EAP", RSN_AKM_FT_8021X },
	{ "FT-EAP-SHA384", RSN_AKM_FT_8021X_SHA384 },
	{ "WPA-PSK-SHA256", RSN_AKM_PSK_SHA256 },
	{ "WPA-EAP-SHA256", RSN_AKM_8021X_SHA256 },
	{ "SAE", RSN_AKM_SAE },
	{ "FT-SAE", RSN_AKM_FT_SAE },
	{ "SAE-EXT-KEY", RSN_AKM_SAE_EXT_KEY },
	{ "FT-SAE-EXT-KEY", RSN_AKM_FT_SAE_EXT_KEY },
	{ "WPA-EAP-SUITE-B", RSN_AKM_8021X_SUITE_B },
	{ "WPA-EAP-SUITE-B-192", RSN_AKM_8021X_SUITE_B_192 },
	{ "OWE", RSN_AKM_OWE },
	{ "FILS-SHA256", RSN_AKM_FILS_SHA256 },
	{ "FILS-SHA384", RSN_AKM_FILS_SHA384 },
	{ "FT-FILS-SHA256", RSN_AKM_FT_FILS_SHA256 },
	{ "FT-FILS-SHA384", RSN_AKM_FT_FILS_SHA384 },
};

/* The text of a key_mgmt error (the daemon has one thread). */
static char key_mgmt_why[64];

/* key_mgmt: names separated by spaces, each one wpa_supplicant knows.
 * Returns NULL, or the problem with the first unknown name in why. */
static const char *parse_key_mgmt(struct wpas_net *n, char *why, size_t cap)
{
	const char *p = n->key_mgmt;
	size_t words = 0;
	n->akms = 0;
	while (*p) {
		size_t len = strcspn(p, " ");
		size_t i, count = sizeof(key_mgmt_names) / sizeof(key_mgmt_names[0]);
		for (i = 0; i < count; i++)
			if (strlen(key_mgmt_names[i].name) == len &&
			    memcmp(key_mgmt_names[i].name, p, len) == 0)
				break;
		if (len > 0 && i == count) {
			char word[32];
			wdb_utf8_copy(word, sizeof(word), p, len < sizeof(word) ? len : sizeof(word) - 1);
			snprintf(why, cap, "unknown key management '%s'", word);
			return why;
		}
		if (len > 0) {
			words++;
			n->akms |= key_mgmt_names[i].akm ? RSN_SUITE_BIT(key_mgmt_names[i].akm) : 0;
		}
		p += len;
		p += strspn(p, " ");
	}
	return words ? NULL : "a list of key management names";
}

static int kind_of(const char *key)
{
	for (size_t i = 0; i < sizeof(known_keys) / sizeof(known_keys[0]); i++)
		if (strcmp(known_keys[i].name, key) == 0)
			return (int)known_keys[i].kind;
	return -1;
}

/* One key: checked, and kept where wpad uses it. Returns NULL or the
 * error text. */
static const char *take(void *ctx, const char *key, DBusMessageIter *v)
{
	struct wpas_net *n = ctx;
	int kind = kind_of(key);
	if (kind < 0)
		return "unknown network property";
	if (kind == KEY_INT) {
		int64_t i;
		if (!read_int(v, &i))
			return "must be an integer";
		if (strcmp(key, "scan_ssid") == 0)
			n->scan_ssid = i != 0;
		else if (strcmp(key, "mode") == 0)
			n->mode = (int)i;
		else if (strcmp(key, "frequency") == 0)
			n->frequency = i > 0 && i < 100000 ? (uint32_t)i : 0;
		else if (strcmp(key, "ieee80211w") == 0) {
			/* wpa_supplicant: 0 disabled, 1 optional, 2 required */
			if (i < 0 || i > 2)
				return "0 (no PMF), 1 (optional) or 2 (required)";
			n->ieee80211w = (int)i;
		} else if (strcmp(key, "ignore_broadcast_ssid") == 0)
			n->hidden = i != 0;
		return NULL;
	}
	const uint8_t *b;
	size_t len;
	if (!read_bytes(v, &b, &len, WDB_STRING_MAX))
		return "must be a string or bytes, at most 1024 long";
	if (strcmp(key, "ssid") == 0) {
		if (len == 0 || len > WDB_SSID_MAX)
			return "an SSID is 1 to 32 octets";
		memcpy(n->ssid, b, len);
		n->ssid_len = len;
	} else if (strcmp(key, "psk") == 0) {
		if (!set_psk(n, dbus_message_iter_get_arg_type(v), b, len))
			return "a passphrase of 8..63 characters or a 32-octet PSK";
	} else if (strcmp(key, "sae_password") == 0) {
		/* Outside 8..63 characters NetworkManager sends the password
		 * here; wpad's SAE takes it like a passphrase. */
		if (!copy_text(n->psk, sizeof(n->psk), b, len))
			return "a password without NUL, at most 64 characters";
		n->have_psk = true;
	} else if (strcmp(key, "key_mgmt") == 0) {
		if (!copy_text(n->key_mgmt, sizeof(n->key_mgmt), b, len))
			return "a list of key management names";
		return parse_key_mgmt(n, key_mgmt_why, sizeof(key_mgmt_why));
	} else if (strcmp(key, "eap") == 0) {
		if (!copy_text(n->eap, sizeof(n->eap), b, len))
			return "a list of EAP method names";
	} else if (strcmp(key, "proto") == 0) { /* kept for mode 2 (wpas_ap.c) */
		if (!copy_text(n->proto, sizeof(n->proto), b, len))
			return "a list of protocol names";
	} else if (strcmp(key, "pairwise") == 0) {
		if (!copy_text(n->pairwise, sizeof(n->pairwise), b, len))
			return "a list of cipher names";
	} else if (strcmp(key, "group") == 0) {
		if (!copy_text(n->group, sizeof(n->group), b, len))
			return "a list of cipher names";
	}
	if (wpas_eap_key(key))
		return wpas_eap_take(n, key, b, len);
	return NULL;
}

int wpas_net_parse(DBusMessage *msg, struct wpas_net *n, char *why, size_t cap)
{
	n->enabled = true;
	n->ieee80211w = -1;
	if (wdb_dict_walk(msg, "AddNetwork", take, n, why, cap) < 0) {
		wpas_eap_release(n);
		return -EINVAL;
	}
	if (n->ssid_len == 0 && n->mode == 0) {
		snprintf(why, cap, "ssid is missing");
		wpas_eap_release(n);
		return -EINVAL;
	}
	if (n->mode != 0) { /* a hotspot (or IBSS, mesh): wpas_ap_check() decides and names the key */
		if (!n->eap_ini)
			return 0;
		/* wpad's access point has no EAP server: refused here, not
		 * kept half-read for a network that cannot use it. */
		snprintf(why, cap, "eap: 802.1X keys are for station networks (mode 0), not mode %d",
			 n->mode);
		wpas_eap_release(n);
		return -EINVAL;
	}
	return wpas_eap_finish(n, why, cap);
}
