/* The EAP settings of a profile (a [Wired NAME] section of wpad.conf, an
 * enterprise known network, a D-Bus provisioning call): what wpad is told,
 * checked once here, before anything is tried. The role maps it to the EAP
 * peer's profile (eap/eap_peer.h).
 *
 *   EAPMethods=TLS,PEAP        outer methods allowed, in preference order:
 *                              MD5 GTC MSCHAPV2 TLS PEAP TTLS
 *   Identity=, AnonymousIdentity=
 *   Password=                  absent: asked from the agent each time
 *   Phase2=                    PEAP: MSCHAPV2 GTC MD5; TTLS: PAP CHAP
 *                              MSCHAP MSCHAPV2 and EAP-MD5 EAP-GTC
 *                              EAP-MSCHAPV2 (an EAP method inside)
 *   CACertificate=, CADirectory=, CASystem=true
 *   InsecureNoServerCheck=true the only way to skip the server check
 *   ServerName=, ServerDomainSuffix=
 *   MinTLSVersion=1.2|1.3      default 1.2
 *   ClientCertificate=, PrivateKey=, PrivateKeyPassphrase=
 *
 * A TLS-based method (TLS, PEAP, TTLS) without a CA and without
 * InsecureNoServerCheck=true is refused: no connection to an unverified
 * server unless the profile says so in as many words. Paths are resolved
 * against the file's directory.
 *
 * Ownership: eap_conf_read() fills a zeroed struct eap_conf that the caller
 * frees with eap_conf_clear(), which wipes the secrets.
 */
#ifndef WPAD_CONFIG_EAP_CONF_H
#define WPAD_CONFIG_EAP_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/config/cfg_error.h"
#include "daemon/config/ini.h"

#define EAP_CONF_METHODS_MAX 8

struct eap_conf {
	char *methods[EAP_CONF_METHODS_MAX]; /* canonical upper-case names */
	size_t n_methods;
	char *identity, *anonymous_identity;
	char *password; /* NULL: ask the agent */
	char *phase2;	/* canonical ("MSCHAPV2", "EAP-MD5"), or NULL */
	char *ca_file, *ca_dir;
	bool ca_system;
	bool no_server_check;
	char *server_name, *domain_suffix;
	unsigned min_tls; /* 12 or 13 */
	char *client_cert, *private_key, *key_passphrase;
};

/* The keys above, NULL-terminated, for a section's schema check. */
extern const char *const eap_conf_keys[];

/* Reads the EAP keys of s (other keys are the caller's). Returns 0, or a
 * negative enum cfg_err with err naming the file, line and key. */
int eap_conf_read(const struct ini *ini, const struct ini_section *s, const char *base_dir,
		  struct eap_conf *out, struct cfg_error *err);
/* Checks a filled struct (from a file or D-Bus) for consistency: a method
 * list, an identity, a known Phase2 for the tunnel, a CA for TLS-based
 * methods. Returns 0 or CFG_E_BAD_VALUE with a message in msg. */
int eap_conf_validate(const struct eap_conf *c, char *msg, size_t msg_len);
/* Canonical name of a method ("tls" -> "TLS") or NULL when unknown. */
const char *eap_conf_method_name(const char *name);
/* Canonical name of a Phase2 value, or NULL when unknown. */
const char *eap_conf_phase2_name(const char *name);
bool eap_conf_tls_based(const char *method);
void eap_conf_clear(struct eap_conf *c);

#endif
