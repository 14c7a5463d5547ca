/* The peer method registry: one static table, so a method is registered by
 * adding one line here (and a duplicate type or name is caught by the unit
 * test that walks this table). The server side gets its own registry. */
#include "eap/eap_peer_method.h"

#include <stddef.h>
#include <strings.h>

#include "eap/eap_methods_i.h"

static const struct eap_peer_method *const methods[] = {
	&eap_peer_md5,
	&eap_peer_gtc,
	&eap_peer_mschapv2,
	&eap_peer_tls,
	&eap_peer_peap,
	&eap_peer_ttls,
	NULL,
};

const struct eap_peer_method *eap_peer_method_find(enum eap_type type, uint32_t vendor_id,
						   uint32_t vendor_type)
{
	for (size_t i = 0; methods[i]; i++) {
		const struct eap_peer_method *m = methods[i];
		if (m->type != type)
			continue;
		if (type != EAP_T_EXPANDED ||
		    (m->vendor_id == vendor_id && m->vendor_type == vendor_type))
			return m;
	}
	return NULL;
}

/* Profile names are case-insensitive ("mschapv2" or "MSCHAPV2"). */
const struct eap_peer_method *eap_peer_method_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; methods[i]; i++)
		if (strcasecmp(methods[i]->name, name) == 0)
			return methods[i];
	return NULL;
}

const struct eap_peer_method *const *eap_peer_methods(void)
{
	return methods;
}
