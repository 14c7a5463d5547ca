/* Fuzz the [EAP] profile reader (daemon/config/eap_conf.h) behind the INI
 * parser: profiles come from files and, through D-Bus provisioning, from
 * clients. Oracles: an accepted profile has a method and an identity, a
 * TLS-based one a CA decision and never a CA with AllowUnverifiedServer, a
 * TLS one a client certificate; a refused one leaves the struct clear. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/eap_conf.h"
#include "daemon/config/ini.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ini *ini = NULL;
	struct cfg_error err;
	if (ini_parse((const char *)data, size, "fuzz", &ini, &err) != 0)
		return 0;
	struct eap_conf c;
	int r = eap_conf_parse(ini, ini_find(ini, "EAP", NULL), &c, &err);
	if (r == 0) {
		bool ca = c.ca_file || c.ca_dir || c.ca_system;
		if (!c.n_methods || !c.identity)
			abort();
		if (eap_conf_uses_tls(&c) && !ca && !c.allow_unverified)
			abort();
		if (ca && c.allow_unverified)
			abort();
		for (size_t i = 0; i < c.n_methods; i++)
			if (strcmp(c.methods[i], "TLS") == 0 && !c.client_cert)
				abort();
		if (c.tls_min != EAP_CONF_TLS_1_2 && c.tls_min != EAP_CONF_TLS_1_3)
			abort();
	} else if (c.identity || c.n_methods || c.password) {
		abort();
	}
	eap_conf_clear(&c);
	ini_free(ini);
	return 0;
}
