/* eap_conf -> eap_peer_profile; see wired_profile.h. */
#include "daemon/wired/wired_profile.h"

#include <string.h>

void wired_profile_map(const struct eap_conf *c, struct eap_peer_profile *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < c->n_methods && i < EAP_PROFILE_METHODS_MAX; i++)
		out->methods[out->n_methods++] = c->methods[i];
	out->identity = c->identity;
	out->anonymous_identity = c->anonymous_identity;
	out->password = c->password;
	out->password_len = c->password ? strlen(c->password) : 0;
	out->phase2 = c->phase2[0] ? c->phase2 : NULL;
	out->phase2_eap = c->phase2_eap;
	out->tls.ca_file = c->ca_file;
	out->tls.ca_dir = c->ca_dir;
	out->tls.ca_system = c->ca_system;
	out->tls.allow_unverified = c->allow_unverified;
	out->tls.server_name = c->server_name;
	out->tls.domain_suffix = c->domain_suffix;
	out->tls.min_version = c->tls_min ? c->tls_min : EAP_CONF_TLS_1_2;
	out->tls.max_version = c->tls_max;
	out->tls.client_cert = c->client_cert;
	out->tls.private_key = c->private_key;
	out->tls.key_passphrase = c->key_passphrase;
}
