/* wpad.conf: [AccessPoint NAME] sections, with or without a profile file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/path.h"
#include "daemon/config/wpad_conf_internal.h"

#define FAIL_AT(cl, line, code, ...) cfg_fail((cl)->err, code, (cl)->ini->file, line, __VA_ARGS__)

/* Profile=NAME means <config dir>/ap/NAME.conf; anything with a '/' is a
 * path, relative to the config directory. */
static int resolve_profile(struct conf_load *cl, const struct ini_entry *e, char **out)
{
	char *rel = NULL;

	if (!e->value[0])
		return FAIL_AT(cl, e->line, CFG_E_BAD_VALUE, "Profile is empty");
	if (!strchr(e->value, '/')) {
		if (!ini_valid_section_name(e->value))
			return FAIL_AT(cl, e->line, CFG_E_BAD_VALUE,
				       "Profile '%s' is neither a path nor a profile name "
				       "(letters, digits, '_-.:@')",
				       e->value);
		size_t n = strlen(e->value) + sizeof("ap/.conf");
		rel = malloc(n);
		if (rel)
			snprintf(rel, n, "ap/%s.conf", e->value);
	} else {
		rel = strdup(e->value);
	}
	if (!rel)
		return FAIL_AT(cl, e->line, CFG_E_NOMEM, "out of memory");
	*out = cfg_path_resolve(cl->base_dir, rel);
	free(rel);
	if (!*out)
		return FAIL_AT(cl, e->line, CFG_E_BAD_VALUE,
			       "Profile must be an absolute path when the configuration has no "
			       "directory");
	return 0;
}

static int read_profile_file(struct conf_load *cl, const struct ini_entry *e,
			     struct wpad_conf_ap *ap)
{
	struct cfg_error inner;
	int ret = resolve_profile(cl, e, &ap->profile_path);

	if (ret < 0)
		return ret;
	ret = ap_profile_read_file(&ap->profile, ap->profile_path, &inner);
	if (ret < 0)
		/* Point at our Profile= line, then at the profile's own error. */
		return FAIL_AT(cl, e->line, ret, "Profile: %s", inner.msg);
	return 0;
}

int conf_read_ap(struct conf_load *cl, const struct ini_section *s, struct wpad_conf_ap *ap)
{
	static const char *const own_keys[] = { "Radio", "Profile", "DataInterface", NULL };
	const struct ini_entry *e;
	const char *radio;
	int ret;

	ap_profile_init(&ap->profile);
	ap->line = s->line;
	ap->name = strdup(s->name);
	if (!ap->name)
		return FAIL_AT(cl, s->line, CFG_E_NOMEM, "out of memory");
	if ((e = ini_get_entry(s, "Profile")) && (ret = read_profile_file(cl, e, ap)) < 0)
		return ret;
	if ((ret = ap_profile_apply_section(&ap->profile, cl->ini, s, cl->base_dir, own_keys,
					    cl->err)) < 0)
		return ret;
	if ((ret = conf_radio_ref(cl, s, &radio)) < 0 ||
	    (ret = conf_ifname(cl, s, "DataInterface", &ap->data_interface)) < 0)
		return ret;
	if (!(ap->radio = strdup(radio)))
		return FAIL_AT(cl, s->line, CFG_E_NOMEM, "out of memory");
	if (!ap->profile.country[0])
		memcpy(ap->profile.country, cl->conf->country, sizeof(ap->profile.country));
	if ((ret = ap_profile_validate(&ap->profile, cl->ini->file, s->line, cl->err)) < 0)
		return ret;
	return ap_profile_load_files(&ap->profile, cl->err);
}
