/* eap_conf -> eap_peer_profile; see wired_profile.h. */
#include "daemon/wired/wired_profile.h"

#include <string.h>

/* TLS protocol version numbers (RFC 5246 A.1, RFC 8446 B.1), as OpenSSL's
 * TLS1_2_VERSION/TLS1_3_VERSION: the role does not include OpenSSL. */
#define WIRED_TLS1_2 0x0303
#define WIRED_TLS1_3 0x0304

void wired_profile_map(const struct eap_conf *c, struct eap_peer_profile *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < c->n_methods && i < EAP_PROFILE_METHODS_MAX; i++)
		out->methods[out->n_methods++] = c->methods[i];
	out->identity = c->identity;
	out->anonymous_identity = c->anonymous_identity;
	out->password = c->password;
	out->password_len = c->password ? strlen(c->password) : 0;
	/* "EAP-MD5": TTLS carries an EAP method inside; PEAP always does. */
	if (c->phase2 && strncmp(c->phase2, "EAP-", 4) == 0) {
		out->phase2 = c->phase2 + 4;
		out->phase2_eap = true;
	} else {
		out->phase2 = c->phase2;
	}
	out->tls.ca_file = c->ca_file;
	out->tls.ca_dir = c->ca_dir;
	out->tls.ca_system = c->ca_system;
	out->tls.allow_unverified = c->no_server_check;
	out->tls.server_name = c->server_name;
	out->tls.domain_suffix = c->domain_suffix;
	out->tls.min_version = c->min_tls == 13 ? WIRED_TLS1_3 : WIRED_TLS1_2;
	out->tls.client_cert = c->client_cert;
	out->tls.private_key = c->private_key;
	out->tls.key_passphrase = c->key_passphrase;
}
