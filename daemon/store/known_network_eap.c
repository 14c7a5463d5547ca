/* An .8021x network's [EAP] section, kept by the store as extras, read by
 * the one [EAP] reader (known_network.h: known_network_eap). */
#include "daemon/store/known_network.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/config/eap_conf.h"

/* A secret the file lacks, from memory: the reader checks it like any. */
static int add_mem_secret(struct ini_section *sec, const char *key, const char *value)
{
	if (!value || ini_get(sec, key))
		return 0;
	return ini_set(sec, key, value);
}

int known_network_eap(const struct known_network *net, struct eap_conf *out,
		      struct cfg_error *err)
{
	memset(out, 0, sizeof(*out));
	char name[80];
	snprintf(name, sizeof(name), "the known network '%.*s'", (int)net->ssid_len,
		 (const char *)net->ssid);
	struct ini *ini = ini_new(name);
	struct ini_section *sec = ini ? ini_add_section(ini, "EAP", NULL) : NULL;
	if (!sec) {
		ini_free(ini);
		return cfg_fail(err, CFG_E_NOMEM, NULL, 0, "out of memory");
	}
	bool any = false;
	int r = 0;
	for (size_t i = 0; i < net->n_extras && !r; i++) {
		if (strcmp(net->extras[i].section, "EAP") != 0)
			continue;
		any = true;
		r = ini_set(sec, net->extras[i].key, net->extras[i].value);
	}
	if (!r && any)
		r = add_mem_secret(sec, "Password", net->mem_password);
	if (!r && any)
		r = add_mem_secret(sec, "PrivateKeyPassphrase", net->mem_key_passphrase);
	if (r)
		r = cfg_fail(err, r, name, 0, "its [EAP] section cannot be read back");
	else if (!any)
		r = -ENOENT;
	else
		r = eap_conf_parse(ini, sec, out, err);
	ini_free(ini); /* wipes the values */
	return r;
}
