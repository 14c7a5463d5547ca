/* AddNetwork's 802.1X keys -> wpad's [EAP] profile (daemon/config/
 * eap_conf.h). wpa_supplicant's names are translated into the [EAP] keys
 * of a known network's file and the result is read by the one [EAP]
 * reader, so a profile from NetworkManager is checked exactly as one from
 * a file or Manager.AddKnownNetwork. What wpad cannot honour is refused
 * with the key named (InvalidArgs), never accepted and ignored. */
#include "dbus/wpas_netdict.h"

#include "daemon/config/eap_conf.h"
#include "daemon/config/ini.h"
#include "daemon/crypto/secure.h"
#include "dbus/wpas_i.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keys that are the same setting under another name. */
static const struct {
	const char *wpas, *wpad;
	bool path; /* a file: an absolute path or blob://NAME */
} same[] = {
	{ "identity", "Identity", false },
	{ "anonymous_identity", "AnonymousIdentity", false },
	{ "password", "Password", false },
	{ "ca_cert", "CACert", true },
	{ "ca_path", "CAPath", true },
	{ "client_cert", "ClientCert", true },
	{ "private_key", "PrivateKey", true },
	{ "private_key_passwd", "PrivateKeyPassphrase", false },
	{ "domain_suffix_match", "DomainSuffix", false },
	{ "domain_match", "ServerName", false },
};

/* Keys NetworkManager may send that wpad cannot honour, and why. */
static const struct {
	const char *key, *why;
} refused[] = {
	{ "pin", "smart cards (PKCS#11) are not supported" },
	{ "pac_file", "EAP-FAST is not supported" },
	{ "subject_match", "substring matches of the subject are not supported: use "
			   "domain_match or domain_suffix_match" },
	{ "ca_cert2", "certificates of an inner EAP-TLS are not supported" },
	{ "ca_path2", "certificates of an inner EAP-TLS are not supported" },
	{ "client_cert2", "certificates of an inner EAP-TLS are not supported" },
	{ "private_key2", "certificates of an inner EAP-TLS are not supported" },
	{ "private_key2_passwd", "certificates of an inner EAP-TLS are not supported" },
	{ "subject_match2", "matches of an inner server certificate are not supported" },
	{ "altsubject_match2", "matches of an inner server certificate are not supported" },
	{ "domain_match2", "matches of an inner server certificate are not supported" },
	{ "domain_suffix_match2", "matches of an inner server certificate are not supported" },
};

bool wpas_eap_key(const char *key)
{
	if (strcmp(key, "eap") == 0 || strcmp(key, "phase1") == 0 || strcmp(key, "phase2") == 0 ||
	    strcmp(key, "altsubject_match") == 0)
		return true;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (strcmp(key, same[i].wpas) == 0)
			return true;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strcmp(key, refused[i].key) == 0)
			return true;
	return false;
}

static struct ini_section *section(struct wpas_net *n)
{
	if (!n->eap_ini) {
		n->eap_ini = ini_new("AddNetwork");
		if (n->eap_ini && !ini_add_section(n->eap_ini, "EAP", NULL)) {
			ini_free(n->eap_ini);
			n->eap_ini = NULL;
		}
	}
	return n->eap_ini ? n->eap_ini->sections[0] : NULL;
}

static const char *set(struct wpas_net *n, const char *key, const char *value)
{
	struct ini_section *s = section(n);
	if (!s)
		return "out of memory";
	if (ini_get(s, key) && strcmp(ini_get(s, key), value) != 0)
		return "contradicts another key that sets the same thing";
	return ini_set(s, key, value) == 0 ? NULL : "not a valid value";
}

/* blob://NAME (after AddBlob) or an absolute path. */
static bool path_ok(const char *v)
{
	if (strncmp(v, WPAS_BLOB_PREFIX, strlen(WPAS_BLOB_PREFIX)) == 0)
		return wpas_blob_name_ok(v + strlen(WPAS_BLOB_PREFIX));
	return v[0] == '/';
}

/* phase1: space-separated name=value words. */
static const char *phase1(struct wpas_net *n, char *v)
{
	char *save = NULL;
	for (char *w = strtok_r(v, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *p = NULL;
		if (strcmp(w, "peapver=0") == 0 || strcmp(w, "peaplabel=0") == 0 ||
		    strcmp(w, "tls_disable_tlsv1_0=1") == 0 || strcmp(w, "tls_disable_tlsv1_1=1") == 0 ||
		    strcmp(w, "tls_disable_tlsv1_2=0") == 0 || strcmp(w, "tls_disable_tlsv1_3=0") == 0 ||
		    strcmp(w, "tls_disable_time_checks=0") == 0 || strcmp(w, "crypto_binding=1") == 0)
			continue; /* what wpad does anyway */
		if (strcmp(w, "tls_disable_tlsv1_2=1") == 0)
			p = set(n, "TLSMinVersion", "1.3");
		else if (strcmp(w, "tls_disable_tlsv1_3=1") == 0)
			p = set(n, "TLSMaxVersion", "1.2");
		else if (strcmp(w, "peapver=1") == 0 || strcmp(w, "peaplabel=1") == 0)
			p = "PEAPv1 is not supported (peapver=0)";
		else if (strcmp(w, "tls_disable_tlsv1_0=0") == 0 ||
			 strcmp(w, "tls_disable_tlsv1_1=0") == 0)
			p = "TLS 1.0 and 1.1 are never used (wpad runs TLS 1.2 and 1.3)";
		else if (strcmp(w, "tls_disable_time_checks=1") == 0)
			p = "certificate validity dates are always checked";
		else
			p = "a phase1 word wpad does not honour";
		if (p)
			return p;
	}
	return NULL;
}

/* phase2: "auth=NAME" (a TTLS AVP method, or PEAP's inner) or
 * "autheap=NAME" (an EAP method inside TTLS). */
static const char *phase2(struct wpas_net *n, char *v)
{
	char *save = NULL;
	for (char *w = strtok_r(v, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *p;
		if (strncmp(w, "auth=", 5) == 0 && w[5]) {
			p = set(n, "Phase2", w + 5);
		} else if (strncmp(w, "autheap=", 8) == 0 && w[8]) {
			p = set(n, "Phase2", w + 8);
			if (!p)
				p = set(n, "Phase2EAP", "true");
		} else {
			p = "not auth=METHOD or autheap=METHOD";
		}
		if (p)
			return p;
	}
	return NULL;
}

/* altsubject_match: one "DNS:name", which is an exact server name. */
static const char *altsubject(struct wpas_net *n, const char *v)
{
	if (strncmp(v, "DNS:", 4) != 0 || !v[4] || strchr(v, ';'))
		return "only one DNS:name entry is supported";
	return set(n, "ServerName", v + 4);
}

const char *wpas_eap_take(struct wpas_net *n, const char *key, const uint8_t *b, size_t len)
{
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strcmp(key, refused[i].key) == 0)
			return refused[i].why;
	char v[WDB_STRING_MAX + 1];
	if (len >= sizeof(v) || memchr(b, 0, len))
		return "must be text without NUL";
	memcpy(v, b, len);
	v[len] = '\0';
	const char *p = NULL;
	if (strcmp(key, "eap") == 0)
		p = set(n, "Method", v);
	else if (strcmp(key, "phase1") == 0)
		p = phase1(n, v);
	else if (strcmp(key, "phase2") == 0)
		p = phase2(n, v);
	else if (strcmp(key, "altsubject_match") == 0)
		p = altsubject(n, v);
	else if (strcmp(key, "password") == 0 && strncmp(v, "hash:", 5) == 0)
		p = "an NT password hash is not supported: give the password";
	else if ((strcmp(key, "domain_match") == 0 || strcmp(key, "domain_suffix_match") == 0) &&
		 strchr(v, ';'))
		p = "one name only (no ';' list)";
	for (size_t i = 0; !p && i < sizeof(same) / sizeof(same[0]); i++) {
		if (strcmp(key, same[i].wpas) != 0)
			continue;
		p = same[i].path && !path_ok(v) ? "an absolute path or blob://NAME"
						: set(n, same[i].wpad, v);
		break;
	}
	crypto_zero(v, sizeof(v)); /* may be a password */
	return p;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

bool wpas_net_is_8021x(const struct wpas_net *n)
{
	return has_word(n->key_mgmt, "WPA-EAP") || has_word(n->key_mgmt, "WPA-EAP-SHA256") ||
	       has_word(n->key_mgmt, "FT-EAP") || has_word(n->key_mgmt, "FT-EAP-SHA384") ||
	       has_word(n->key_mgmt, "IEEE8021X");
}

static int finish(struct wpas_net *n, char *why, size_t cap)
{
	if (has_word(n->key_mgmt, "WPA-EAP-SUITE-B") ||
	    has_word(n->key_mgmt, "WPA-EAP-SUITE-B-192")) {
		snprintf(why, cap, "key_mgmt: Suite B (WPA-EAP-SUITE-B*) is not supported");
		return -EINVAL;
	}
	bool wpa_eap = has_word(n->key_mgmt, "WPA-EAP") || has_word(n->key_mgmt, "WPA-EAP-SHA256");
	if (has_word(n->key_mgmt, "IEEE8021X") && !wpa_eap) {
		snprintf(why, cap, "key_mgmt: IEEE8021X alone (dynamic WEP) is not supported");
		return -EINVAL;
	}
	if (!wpas_net_is_8021x(n)) {
		if (n->eap_ini) /* 802.1X keys on a network that does not use them */
			snprintf(why, cap, "eap: 802.1X keys need key_mgmt WPA-EAP or WPA-EAP-SHA256");
		return n->eap_ini ? -EINVAL : 0;
	}
	if (!n->eap_ini || !ini_get(n->eap_ini->sections[0], "Method")) {
		snprintf(why, cap, "eap is missing: an 802.1X network needs its EAP method");
		return -EINVAL;
	}
	struct cfg_error ce = { 0 };
	n->eap_conf = calloc(1, sizeof(*n->eap_conf));
	int r = n->eap_conf ? eap_conf_parse(n->eap_ini, n->eap_ini->sections[0], n->eap_conf, &ce)
		       : CFG_E_NOMEM;
	ini_free(n->eap_ini); /* wipes the values */
	n->eap_ini = NULL;
	if (r == 0)
		return 0;
	const char *m = strstr(ce.msg, ": ");
	snprintf(why, cap, "802.1X profile: %s", r == CFG_E_NOMEM ? "out of memory"
						 : m		  ? m + 2
								  : ce.msg);
	return -EINVAL;
}

int wpas_eap_finish(struct wpas_net *n, char *why, size_t cap)
{
	int r = finish(n, why, cap);
	if (r < 0)
		wpas_eap_release(n);
	return r;
}

void wpas_eap_release(struct wpas_net *n)
{
	ini_free(n->eap_ini);
	n->eap_ini = NULL;
	if (n->eap_conf) {
		eap_conf_clear(n->eap_conf);
		free(n->eap_conf);
		n->eap_conf = NULL;
	}
}

static bool prop(DBusMessageIter *dict, const char *key, const char *value)
{
	return !value || wdb_append_dict_basic(dict, key, DBUS_TYPE_STRING, &value);
}

bool wpas_eap_append_props(DBusMessageIter *dict, const struct wpas_net *n)
{
	const struct eap_conf *c = n->eap_conf;
	if (!c)
		return true;
	char methods[EAP_CONF_METHODS_MAX * EAP_CONF_NAME_MAX] = "";
	char phase2[EAP_CONF_NAME_MAX + 16] = "";
	for (size_t i = 0; i < c->n_methods; i++)
		snprintf(methods + strlen(methods), sizeof(methods) - strlen(methods), "%s%s",
			 i ? " " : "", c->methods[i]);
	if (c->phase2[0])
		snprintf(phase2, sizeof(phase2), "%s=%s", c->phase2_eap ? "autheap" : "auth",
			 c->phase2);
	return prop(dict, "eap", methods) && prop(dict, "identity", c->identity) &&
	       prop(dict, "anonymous_identity", c->anonymous_identity) &&
	       prop(dict, "password", c->password ? "*" : NULL) &&
	       prop(dict, "phase2", phase2[0] ? phase2 : NULL) &&
	       prop(dict, "ca_cert", c->ca_file) && prop(dict, "ca_path", c->ca_dir) &&
	       prop(dict, "client_cert", c->client_cert) &&
	       prop(dict, "private_key", c->private_key) &&
	       prop(dict, "private_key_passwd", c->key_passphrase ? "*" : NULL) &&
	       prop(dict, "domain_match", c->server_name) &&
	       prop(dict, "domain_suffix_match", c->domain_suffix);
}
