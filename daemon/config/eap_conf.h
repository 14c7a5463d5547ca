/* An EAP profile as a configuration file says it: the [EAP] section of a
 * known-network file (and what D-Bus provisioning stores there).
 *
 *   [EAP]
 *   Method=PEAP                      one or more of MD5 GTC MSCHAPV2 TLS PEAP
 *                                    TTLS, space-separated, in preference order
 *   Identity=alice@example.org       required
 *   AnonymousIdentity=anonymous@example.org   outer identity of PEAP/TTLS
 *   Password=...                     optional: asked through the agent if absent
 *   Phase2=MSCHAPV2                  PEAP: MSCHAPV2 GTC MD5; TTLS: PAP CHAP
 *                                    MSCHAPV2, or with Phase2EAP=true MD5 GTC
 *                                    MSCHAPV2
 *   Phase2EAP=false                  TTLS: the inner method is an EAP method
 *   CACert=/etc/ssl/radius-ca.pem    one of CACert, CAPath, CASystem=true or
 *   CAPath=/etc/ssl/radius-cas/      AllowUnverifiedServer=true is required
 *   CASystem=false                   by TLS, PEAP and TTLS (no silent "trust
 *   AllowUnverifiedServer=false      anything")
 *   ServerName=radius.example.org    exact SAN DNS (or CN) match
 *   DomainSuffix=example.org         SAN DNS equal to it or ending ".suffix"
 *   TLSMinVersion=1.2                1.2 or 1.3
 *   TLSMaxVersion=1.3                (absent: the highest)
 *   ClientCert=/path/cert.pem        TLS: required (PEM, or PKCS#12 with the key)
 *   PrivateKey=/path/key.pem
 *   PrivateKeyPassphrase=...         optional: asked through the agent
 *
 * The method names are checked here against that fixed list; the station
 * checks them again against the EAP registry of the build.
 *
 * Ownership: eap_conf_parse() fills a caller-owned struct;
 * eap_conf_clear() frees its strings and wipes the secrets.
 */
#ifndef WPAD_CONFIG_EAP_CONF_H
#define WPAD_CONFIG_EAP_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/config/cfg_error.h"
#include "daemon/config/ini.h"

#define EAP_CONF_METHODS_MAX 8
#define EAP_CONF_NAME_MAX 16
/* OpenSSL's TLS1_2_VERSION and TLS1_3_VERSION (the wire values). */
#define EAP_CONF_TLS_1_2 0x0303
#define EAP_CONF_TLS_1_3 0x0304

struct eap_conf {
	char methods[EAP_CONF_METHODS_MAX][EAP_CONF_NAME_MAX]; /* upper case */
	size_t n_methods;
	char *identity;
	char *anonymous_identity;
	char *password; /* secret */
	char phase2[EAP_CONF_NAME_MAX];
	bool phase2_eap;
	char *ca_file, *ca_dir;
	bool ca_system, allow_unverified;
	char *server_name, *domain_suffix;
	int tls_min, tls_max; /* EAP_CONF_TLS_*; tls_max 0: the highest */
	char *client_cert, *private_key;
	char *key_passphrase; /* secret */
};

/* Reads one [EAP] section of ini (for the file name in messages). Returns 0,
 * or a negative enum cfg_err with err naming the line: an unknown key or
 * method, a missing Identity/Method/Phase2/ClientCert, no CA choice for a
 * TLS-based method, AllowUnverifiedServer with a CA (CFG_E_CONFLICT), a
 * TLS version other than 1.2/1.3. out is cleared first and left clear on
 * failure. */
int eap_conf_parse(const struct ini *ini, const struct ini_section *s, struct eap_conf *out,
		   struct cfg_error *err);
void eap_conf_clear(struct eap_conf *c);
/* A deep copy of src into dst (uninitialised). Returns 0 or -ENOMEM (dst
 * left clear). */
int eap_conf_copy(struct eap_conf *dst, const struct eap_conf *src);
/* Whether a and b would authenticate alike: every setting and secret
 * equal. A blob:// credential is never the same, since its bytes can be
 * replaced under one name. */
bool eap_conf_same(const struct eap_conf *a, const struct eap_conf *b);
/* Whether a method of the profile runs TLS (TLS, PEAP, TTLS). */
bool eap_conf_uses_tls(const struct eap_conf *c);

#endif
