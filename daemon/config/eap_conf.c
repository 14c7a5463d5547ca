/* EAP profile settings; see eap_conf.h. */
#include "daemon/config/eap_conf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon/config/path.h"
#include "daemon/config/value.h"
#include "daemon/crypto/secure.h"

#define FAIL(err, ini, line, code, ...) cfg_fail(err, code, (ini)->file, line, __VA_ARGS__)

const char *const eap_conf_keys[] = {
	"EAPMethods",	     "Identity",	  "AnonymousIdentity",	   "Password",
	"Phase2",	     "CACertificate",	  "CADirectory",	   "CASystem",
	"InsecureNoServerCheck", "ServerName",	  "ServerDomainSuffix",	   "MinTLSVersion",
	"ClientCertificate", "PrivateKey",	  "PrivateKeyPassphrase",  NULL,
};

static const char *const methods[] = { "MD5", "GTC", "MSCHAPV2", "TLS", "PEAP", "TTLS", NULL };
static const char *const phase2s[] = { "MSCHAPV2", "GTC", "MD5", "PAP", "CHAP", "MSCHAP",
				       "EAP-MD5", "EAP-GTC", "EAP-MSCHAPV2", NULL };

static const char *canon(const char *name, const char *const *table)
{
	for (size_t i = 0; name && table[i]; i++)
		if (strcasecmp(name, table[i]) == 0)
			return table[i];
	return NULL;
}

const char *eap_conf_method_name(const char *name)
{
	return canon(name, methods);
}

const char *eap_conf_phase2_name(const char *name)
{
	return canon(name, phase2s);
}

bool eap_conf_tls_based(const char *m)
{
	return m && (strcmp(m, "TLS") == 0 || strcmp(m, "PEAP") == 0 || strcmp(m, "TTLS") == 0);
}

static bool has_method(const struct eap_conf *c, const char *m)
{
	for (size_t i = 0; i < c->n_methods; i++)
		if (strcmp(c->methods[i], m) == 0)
			return true;
	return false;
}

/* Which Phase2 values each tunnel carries (RFC 5281 11, PEAPv0 as
 * deployed: EAP methods only). */
static bool phase2_fits(const char *tunnel, const char *p2)
{
	if (strcmp(tunnel, "PEAP") == 0)
		return strcmp(p2, "MSCHAPV2") == 0 || strcmp(p2, "GTC") == 0 ||
		       strcmp(p2, "MD5") == 0 || strncmp(p2, "EAP-", 4) == 0;
	return strcmp(p2, "GTC") != 0 && strcmp(p2, "MD5") != 0; /* TTLS: AVP or EAP- */
}

int eap_conf_validate(const struct eap_conf *c, char *msg, size_t msg_len)
{
	if (c->n_methods == 0) {
		snprintf(msg, msg_len, "EAPMethods= is required (MD5, GTC, MSCHAPV2, TLS, PEAP, TTLS)");
		return CFG_E_MISSING_KEY;
	}
	if (!c->identity) {
		snprintf(msg, msg_len, "Identity= is required with EAP");
		return CFG_E_MISSING_KEY;
	}
	for (size_t i = 0; i < c->n_methods; i++) {
		const char *m = c->methods[i];
		if ((strcmp(m, "PEAP") == 0 || strcmp(m, "TTLS") == 0) &&
		    (!c->phase2 || !phase2_fits(m, c->phase2))) {
			snprintf(msg, msg_len, "EAP method %s needs Phase2= %s", m,
				 strcmp(m, "PEAP") == 0 ? "MSCHAPV2, GTC or MD5"
							: "PAP, CHAP, MSCHAP, MSCHAPV2 or EAP-MD5, "
							  "EAP-GTC, EAP-MSCHAPV2");
			return CFG_E_BAD_VALUE;
		}
		if (eap_conf_tls_based(m) && !c->ca_file && !c->ca_dir && !c->ca_system &&
		    !c->no_server_check) {
			snprintf(msg, msg_len,
				 "EAP method %s checks the server: set CACertificate=, CADirectory= "
				 "or CASystem=true (InsecureNoServerCheck=true skips the check)",
				 m);
			return CFG_E_MISSING_KEY;
		}
	}
	if (c->no_server_check && (c->ca_file || c->ca_dir || c->ca_system)) {
		snprintf(msg, msg_len, "InsecureNoServerCheck=true contradicts a CA setting");
		return CFG_E_CONFLICT;
	}
	if (has_method(c, "TLS") && !c->client_cert) {
		snprintf(msg, msg_len, "EAP method TLS needs ClientCertificate=");
		return CFG_E_MISSING_KEY;
	}
	if (c->private_key && !c->client_cert) {
		snprintf(msg, msg_len, "PrivateKey= needs ClientCertificate=");
		return CFG_E_CONFLICT;
	}
	return 0;
}

static int dup_value(const struct ini *ini, const struct ini_section *s, const char *key,
		     char **out, struct cfg_error *err)
{
	const struct ini_entry *e = ini_get_entry(s, key);
	if (!e)
		return 0;
	if (!e->value[0])
		return FAIL(err, ini, e->line, CFG_E_BAD_VALUE, "%s= is empty", key);
	if (!(*out = strdup(e->value)))
		return FAIL(err, ini, e->line, CFG_E_NOMEM, "out of memory");
	return 0;
}

static int dup_path(const struct ini *ini, const struct ini_section *s, const char *base_dir,
		    const char *key, char **out, struct cfg_error *err)
{
	const struct ini_entry *e = ini_get_entry(s, key);
	if (!e)
		return 0;
	if (!e->value[0])
		return FAIL(err, ini, e->line, CFG_E_BAD_VALUE, "%s= is empty", key);
	if (!(*out = cfg_path_resolve(base_dir, e->value)))
		return FAIL(err, ini, e->line, CFG_E_NOMEM, "out of memory");
	return 0;
}

static int read_bool(const struct ini *ini, const struct ini_section *s, const char *key,
		     bool *out, struct cfg_error *err)
{
	const struct ini_entry *e = ini_get_entry(s, key);
	if (e && cfg_parse_bool(e->value, out) < 0)
		return FAIL(err, ini, e->line, CFG_E_BAD_VALUE, "%s must be true or false", key);
	return 0;
}

static int read_methods(const struct ini *ini, const struct ini_section *s, struct eap_conf *c,
			struct cfg_error *err)
{
	const struct ini_entry *e = ini_get_entry(s, "EAPMethods");
	if (!e)
		return 0;
	char buf[INI_LINE_MAX + 1];
	snprintf(buf, sizeof(buf), "%s", e->value);
	char *save = NULL;
	for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		const char *m = eap_conf_method_name(t);
		if (!m)
			return FAIL(err, ini, e->line, CFG_E_BAD_VALUE,
				    "EAPMethods: unknown method '%s' (MD5, GTC, MSCHAPV2, TLS, PEAP, "
				    "TTLS)", t);
		if (has_method(c, m))
			return FAIL(err, ini, e->line, CFG_E_BAD_VALUE,
				    "EAPMethods: %s named twice", m);
		if (c->n_methods == EAP_CONF_METHODS_MAX)
			return FAIL(err, ini, e->line, CFG_E_TOO_MANY, "EAPMethods: too many");
		if (!(c->methods[c->n_methods] = strdup(m)))
			return FAIL(err, ini, e->line, CFG_E_NOMEM, "out of memory");
		c->n_methods++;
	}
	return 0;
}

static int read_scalars(const struct ini *ini, const struct ini_section *s, struct eap_conf *c,
			struct cfg_error *err)
{
	const struct ini_entry *e;
	int ret;
	if ((e = ini_get_entry(s, "Phase2"))) {
		const char *p2 = eap_conf_phase2_name(e->value);
		if (!p2)
			return FAIL(err, ini, e->line, CFG_E_BAD_VALUE,
				    "Phase2: unknown inner method '%s'", e->value);
		if (!(c->phase2 = strdup(p2)))
			return FAIL(err, ini, e->line, CFG_E_NOMEM, "out of memory");
	}
	c->min_tls = 12;
	if ((e = ini_get_entry(s, "MinTLSVersion"))) {
		if (strcmp(e->value, "1.2") == 0)
			c->min_tls = 12;
		else if (strcmp(e->value, "1.3") == 0)
			c->min_tls = 13;
		else
			return FAIL(err, ini, e->line, CFG_E_BAD_VALUE,
				    "MinTLSVersion must be 1.2 or 1.3");
	}
	if ((ret = read_bool(ini, s, "CASystem", &c->ca_system, err)) < 0 ||
	    (ret = read_bool(ini, s, "InsecureNoServerCheck", &c->no_server_check, err)) < 0)
		return ret;
	return 0;
}

int eap_conf_read(const struct ini *ini, const struct ini_section *s, const char *base_dir,
		  struct eap_conf *c, struct cfg_error *err)
{
	int ret;
	if ((ret = read_methods(ini, s, c, err)) < 0 || (ret = read_scalars(ini, s, c, err)) < 0 ||
	    (ret = dup_value(ini, s, "Identity", &c->identity, err)) < 0 ||
	    (ret = dup_value(ini, s, "AnonymousIdentity", &c->anonymous_identity, err)) < 0 ||
	    (ret = dup_value(ini, s, "Password", &c->password, err)) < 0 ||
	    (ret = dup_value(ini, s, "ServerName", &c->server_name, err)) < 0 ||
	    (ret = dup_value(ini, s, "ServerDomainSuffix", &c->domain_suffix, err)) < 0 ||
	    (ret = dup_value(ini, s, "PrivateKeyPassphrase", &c->key_passphrase, err)) < 0 ||
	    (ret = dup_path(ini, s, base_dir, "CACertificate", &c->ca_file, err)) < 0 ||
	    (ret = dup_path(ini, s, base_dir, "CADirectory", &c->ca_dir, err)) < 0 ||
	    (ret = dup_path(ini, s, base_dir, "ClientCertificate", &c->client_cert, err)) < 0 ||
	    (ret = dup_path(ini, s, base_dir, "PrivateKey", &c->private_key, err)) < 0)
		return ret;
	char msg[256];
	if ((ret = eap_conf_validate(c, msg, sizeof(msg))) < 0)
		return FAIL(err, ini, s->line, ret, "%s", msg);
	return 0;
}

static void free_secret(char **p)
{
	if (*p)
		crypto_zero(*p, strlen(*p));
	free(*p);
	*p = NULL;
}

void eap_conf_clear(struct eap_conf *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_methods; i++)
		free(c->methods[i]);
	free_secret(&c->password);
	free_secret(&c->key_passphrase);
	free(c->identity);
	free(c->anonymous_identity);
	free(c->phase2);
	free(c->ca_file);
	free(c->ca_dir);
	free(c->server_name);
	free(c->domain_suffix);
	free(c->client_cert);
	free(c->private_key);
	memset(c, 0, sizeof(*c));
}
