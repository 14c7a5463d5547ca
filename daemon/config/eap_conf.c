/* The [EAP] section reader (eap_conf.h). One table says which keys exist;
 * the checks after reading say which combinations make sense. */
#include "daemon/config/eap_conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon/config/value.h"
#include "daemon/crypto/cred_blob.h"
#include "daemon/crypto/secure.h"

static const char *const known_keys[] = {
	"Method",	 "Identity",	  "AnonymousIdentity",
	"Password",	 "Phase2",	  "Phase2EAP",
	"CACert",	 "CAPath",	  "CASystem",
	"AllowUnverifiedServer", "ServerName", "DomainSuffix",
	"TLSMinVersion", "TLSMaxVersion", "ClientCert",
	"PrivateKey",	 "PrivateKeyPassphrase", NULL,
};

static const char *const outer_methods[] = { "MD5", "GTC", "MSCHAPV2", "TLS", "PEAP", "TTLS",
					     NULL };
static const char *const peap_inner[] = { "MSCHAPV2", "GTC", "MD5", NULL };
static const char *const ttls_inner[] = { "PAP", "CHAP", "MSCHAPV2", NULL };
static const char *const ttls_eap_inner[] = { "MD5", "GTC", "MSCHAPV2", NULL };

static bool in_list(const char *name, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (strcasecmp(name, list[i]) == 0)
			return true;
	return false;
}

static bool has_method(const struct eap_conf *c, const char *name)
{
	for (size_t i = 0; i < c->n_methods; i++)
		if (strcmp(c->methods[i], name) == 0)
			return true;
	return false;
}

bool eap_conf_uses_tls(const struct eap_conf *c)
{
	return has_method(c, "TLS") || has_method(c, "PEAP") || has_method(c, "TTLS");
}

static void free_secret(char **s)
{
	if (*s) {
		crypto_zero(*s, strlen(*s));
		free(*s);
	}
	*s = NULL;
}

void eap_conf_clear(struct eap_conf *c)
{
	if (!c)
		return;
	free(c->identity);
	free(c->anonymous_identity);
	free_secret(&c->password);
	free(c->ca_file);
	free(c->ca_dir);
	free(c->server_name);
	free(c->domain_suffix);
	free(c->client_cert);
	free(c->private_key);
	free_secret(&c->key_passphrase);
	memset(c, 0, sizeof(*c));
}

int eap_conf_copy(struct eap_conf *dst, const struct eap_conf *src)
{
	*dst = *src;
	char **fields[] = { &dst->identity,    &dst->anonymous_identity, &dst->password,
			    &dst->ca_file,     &dst->ca_dir,		 &dst->server_name,
			    &dst->domain_suffix, &dst->client_cert,	 &dst->private_key,
			    &dst->key_passphrase };
	bool ok = true;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (*fields[i] && !(*fields[i] = strdup(*fields[i])))
			ok = false;
	if (ok)
		return 0;
	eap_conf_clear(dst); /* frees the copies made; NULLs the rest */
	return -ENOMEM;
}

static bool str_same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool secret_same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	size_t n = strlen(a);
	return n == strlen(b) && crypto_memeq(a, b, n);
}

static bool names_blob(const char *v)
{
	const char *name;
	return cred_blob_ref(v, &name);
}

bool eap_conf_same(const struct eap_conf *a, const struct eap_conf *b)
{
	if (names_blob(a->ca_file) || names_blob(a->client_cert) || names_blob(a->private_key) ||
	    names_blob(b->ca_file) || names_blob(b->client_cert) || names_blob(b->private_key))
		return false;
	if (a->n_methods != b->n_methods)
		return false;
	for (size_t i = 0; i < a->n_methods; i++)
		if (strcmp(a->methods[i], b->methods[i]) != 0)
			return false;
	return str_same(a->identity, b->identity) &&
	       str_same(a->anonymous_identity, b->anonymous_identity) &&
	       secret_same(a->password, b->password) && strcmp(a->phase2, b->phase2) == 0 &&
	       a->phase2_eap == b->phase2_eap && str_same(a->ca_file, b->ca_file) &&
	       str_same(a->ca_dir, b->ca_dir) && a->ca_system == b->ca_system &&
	       a->allow_unverified == b->allow_unverified &&
	       str_same(a->server_name, b->server_name) &&
	       str_same(a->domain_suffix, b->domain_suffix) && a->tls_min == b->tls_min &&
	       a->tls_max == b->tls_max && str_same(a->client_cert, b->client_cert) &&
	       str_same(a->private_key, b->private_key) &&
	       secret_same(a->key_passphrase, b->key_passphrase);
}

static void upcase(char *dst, const char *src, size_t n)
{
	size_t i = 0;
	for (; src[i] && i + 1 < n; i++)
		dst[i] = (char)toupper((unsigned char)src[i]);
	dst[i] = '\0';
}

static int parse_methods(struct eap_conf *c, const char *file, const struct ini_entry *e,
			 struct cfg_error *err)
{
	const char *p = e->value;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, " \t");
		if (!n)
			break;
		char name[EAP_CONF_NAME_MAX];
		if (n >= sizeof(name))
			return cfg_fail(err, CFG_E_BAD_VALUE, file, e->line,
					"Method: '%.*s' is not an EAP method", (int)n, p);
		memcpy(name, p, n);
		name[n] = '\0';
		if (!in_list(name, outer_methods))
			return cfg_fail(err, CFG_E_BAD_VALUE, file, e->line,
					"Method: '%s' is not an EAP method wpad runs (MD5 GTC "
					"MSCHAPV2 TLS PEAP TTLS)", name);
		upcase(name, name, sizeof(name));
		if (has_method(c, name))
			return cfg_fail(err, CFG_E_BAD_VALUE, file, e->line,
					"Method: '%s' given twice", name);
		if (c->n_methods == EAP_CONF_METHODS_MAX)
			return cfg_fail(err, CFG_E_TOO_MANY, file, e->line,
					"Method: at most %d methods", EAP_CONF_METHODS_MAX);
		memcpy(c->methods[c->n_methods++], name, sizeof(name));
		p += n;
	}
	if (!c->n_methods)
		return cfg_fail(err, CFG_E_BAD_VALUE, file, e->line, "Method: empty");
	return 0;
}

static int parse_tls_version(const char *file, const struct ini_entry *e, int *out,
			     struct cfg_error *err)
{
	if (strcmp(e->value, "1.2") == 0)
		*out = EAP_CONF_TLS_1_2;
	else if (strcmp(e->value, "1.3") == 0)
		*out = EAP_CONF_TLS_1_3;
	else
		return cfg_fail(err, CFG_E_OUT_OF_RANGE, file, e->line,
				"%s: '%s' is not a TLS version wpad accepts (1.2 or 1.3)", e->key,
				e->value);
	return 0;
}

static int dup_to(char **dst, const char *v)
{
	*dst = strdup(v);
	return *dst ? 0 : CFG_E_NOMEM;
}

static int parse_bool(const char *file, const struct ini_entry *e, bool *out,
		      struct cfg_error *err)
{
	if (cfg_parse_bool(e->value, out) < 0)
		return cfg_fail(err, CFG_E_BAD_VALUE, file, e->line,
				"%s: '%s' is not true or false", e->key, e->value);
	return 0;
}

/* One key into c. */
static int parse_entry(struct eap_conf *c, const char *file, const struct ini_entry *e,
		       struct cfg_error *err)
{
	const char *k = e->key, *v = e->value;
	if (strcmp(k, "Method") == 0)
		return parse_methods(c, file, e, err);
	if (strcmp(k, "Phase2") == 0) {
		if (!*v || strlen(v) >= sizeof(c->phase2))
			return cfg_fail(err, CFG_E_BAD_VALUE, file, e->line,
					"Phase2: '%s' is not an inner method", v);
		upcase(c->phase2, v, sizeof(c->phase2));
		return 0;
	}
	if (strcmp(k, "Phase2EAP") == 0)
		return parse_bool(file, e, &c->phase2_eap, err);
	if (strcmp(k, "CASystem") == 0)
		return parse_bool(file, e, &c->ca_system, err);
	if (strcmp(k, "AllowUnverifiedServer") == 0)
		return parse_bool(file, e, &c->allow_unverified, err);
	if (strcmp(k, "TLSMinVersion") == 0)
		return parse_tls_version(file, e, &c->tls_min, err);
	if (strcmp(k, "TLSMaxVersion") == 0)
		return parse_tls_version(file, e, &c->tls_max, err);
	if (!*v)
		return cfg_fail(err, CFG_E_BAD_VALUE, file, e->line, "%s: empty", k);
	static const struct {
		const char *key;
		size_t off;
	} strs[] = {
		{ "Identity", offsetof(struct eap_conf, identity) },
		{ "AnonymousIdentity", offsetof(struct eap_conf, anonymous_identity) },
		{ "Password", offsetof(struct eap_conf, password) },
		{ "CACert", offsetof(struct eap_conf, ca_file) },
		{ "CAPath", offsetof(struct eap_conf, ca_dir) },
		{ "ServerName", offsetof(struct eap_conf, server_name) },
		{ "DomainSuffix", offsetof(struct eap_conf, domain_suffix) },
		{ "ClientCert", offsetof(struct eap_conf, client_cert) },
		{ "PrivateKey", offsetof(struct eap_conf, private_key) },
		{ "PrivateKeyPassphrase", offsetof(struct eap_conf, key_passphrase) },
	};
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (strcmp(k, strs[i].key) == 0)
			return dup_to((char **)((char *)c + strs[i].off), v);
	return cfg_fail(err, CFG_E_UNKNOWN_KEY, file, e->line, "unknown key '%s' in [EAP]", k);
}

/* What makes sense together, once every key is read. */
static int check(const struct eap_conf *c, const char *file, unsigned line,
		 struct cfg_error *err)
{
	if (!c->n_methods)
		return cfg_fail(err, CFG_E_MISSING_KEY, file, line, "[EAP] needs Method=");
	if (!c->identity)
		return cfg_fail(err, CFG_E_MISSING_KEY, file, line, "[EAP] needs Identity=");
	bool tunnel = has_method(c, "PEAP") || has_method(c, "TTLS");
	if (tunnel && !c->phase2[0])
		return cfg_fail(err, CFG_E_MISSING_KEY, file, line,
				"[EAP] Method %s needs Phase2= (the inner method)",
				has_method(c, "PEAP") ? "PEAP" : "TTLS");
	if (c->phase2[0] && !tunnel)
		return cfg_fail(err, CFG_E_CONFLICT, file, line,
				"[EAP] Phase2= only goes with PEAP or TTLS");
	if (has_method(c, "PEAP") && !in_list(c->phase2, peap_inner))
		return cfg_fail(err, CFG_E_BAD_VALUE, file, line,
				"[EAP] Phase2=%s cannot run inside PEAP (MSCHAPV2 GTC MD5)",
				c->phase2);
	if (has_method(c, "TTLS") &&
	    !in_list(c->phase2, c->phase2_eap ? ttls_eap_inner : ttls_inner))
		return cfg_fail(err, CFG_E_BAD_VALUE, file, line,
				"[EAP] Phase2=%s cannot run inside TTLS (%s)", c->phase2,
				c->phase2_eap ? "Phase2EAP: MD5 GTC MSCHAPV2"
					      : "PAP CHAP MSCHAPV2, or Phase2EAP=true");
	if (has_method(c, "TLS") && !c->client_cert)
		return cfg_fail(err, CFG_E_MISSING_KEY, file, line,
				"[EAP] Method TLS needs ClientCert=");
	if (c->private_key && !c->client_cert)
		return cfg_fail(err, CFG_E_CONFLICT, file, line,
				"[EAP] PrivateKey= without ClientCert=");
	bool ca = c->ca_file || c->ca_dir || c->ca_system;
	if (eap_conf_uses_tls(c) && !ca && !c->allow_unverified)
		return cfg_fail(err, CFG_E_MISSING_KEY, file, line,
				"[EAP] a TLS-based method needs the server checked: CACert=, "
				"CAPath=, CASystem=true, or AllowUnverifiedServer=true to "
				"accept any server");
	if (ca && c->allow_unverified)
		return cfg_fail(err, CFG_E_CONFLICT, file, line,
				"[EAP] AllowUnverifiedServer=true contradicts the CA given");
	if (c->tls_max && c->tls_min > c->tls_max)
		return cfg_fail(err, CFG_E_CONFLICT, file, line,
				"[EAP] TLSMinVersion is above TLSMaxVersion");
	return 0;
}

int eap_conf_parse(const struct ini *ini, const struct ini_section *s, struct eap_conf *out,
		   struct cfg_error *err)
{
	const char *file = ini && ini->file ? ini->file : NULL;
	memset(out, 0, sizeof(*out));
	if (!s)
		return cfg_fail(err, CFG_E_MISSING_KEY, file, 0, "no [EAP] section");
	int r = ini_check_keys(ini, s, known_keys, err);
	for (size_t i = 0; !r && i < s->n_entries; i++)
		r = parse_entry(out, file, &s->entries[i], err);
	if (r == CFG_E_NOMEM)
		cfg_fail(err, r, file, 0, "out of memory");
	if (!r)
		r = check(out, file, s->line, err);
	if (r)
		eap_conf_clear(out);
	else if (!out->tls_min)
		out->tls_min = EAP_CONF_TLS_1_2;
	return r;
}
