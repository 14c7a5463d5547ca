/* Shared between the wpad.conf readers; not for other modules. */
#ifndef WPAD_CONFIG_WPAD_CONF_INTERNAL_H
#define WPAD_CONFIG_WPAD_CONF_INTERNAL_H

#include "daemon/config/ini.h"
#include "daemon/config/wpad_conf.h"

/* Context of one load: the document, its directory, the result so far. */
struct conf_load {
	const struct ini *ini;
	const char *base_dir;
	struct wpad_conf *conf;
	struct cfg_error *err;
};

/* *out = the value of a required key of s; CFG_E_MISSING_KEY if absent. */
int conf_require(struct conf_load *cl, const struct ini_section *s, const char *key,
		 const char **out);
/* *out = Radio= of s, which must name a [Radio NAME] (CFG_E_BAD_REFERENCE). */
int conf_radio_ref(struct conf_load *cl, const struct ini_section *s, const char **out);
/* *out = a copy of key (DataInterface=, Interface=) of s (an interface name), or
 * NULL when s has none; CFG_E_BAD_VALUE for a name Linux would refuse. */
int conf_ifname(struct conf_load *cl, const struct ini_section *s, const char *key, char **out);
/* Reads [AccessPoint NAME] into ap (already zeroed). */
int conf_read_ap(struct conf_load *cl, const struct ini_section *s, struct wpad_conf_ap *ap);

#endif
