/* AP profile: reading sections and profile files, loading the list files. */
#include "daemon/config/ap_profile.h"

#include <stdlib.h>
#include <string.h>

#include "daemon/config/macfile.h"
#include "daemon/config/path.h"
#include "daemon/config/pskfile.h"
#include "daemon/config/suggest.h"

static bool listed(const char *const *list, const char *key)
{
	for (; list && *list; list++)
		if (strcmp(*list, key) == 0)
			return true;
	return false;
}

/* Unknown keys are checked first so a typo is reported even when an
 * earlier value is also wrong further down. */
static int check_section_keys(const struct ini *ini, const struct ini_section *s,
			      const char *const *also, struct cfg_error *err)
{
	char title[2 * INI_NAME_MAX + 8];
	const char *all[AP_KEY_COUNT + 8 + 1];
	size_t n = 0;

	for (size_t k = 0; k < AP_KEY_COUNT; k++)
		all[n++] = ap_profile_keys[k];
	for (const char *const *a = also; a && *a && n < AP_KEY_COUNT + 8; a++)
		all[n++] = *a;
	all[n] = NULL;
	for (size_t i = 0; i < s->n_entries; i++) {
		const struct ini_entry *e = &s->entries[i];
		if (listed(all, e->key))
			continue;
		const char *hint = cfg_suggest(e->key, all);
		ini_section_title(s, title, sizeof(title));
		if (hint)
			return cfg_fail(err, AP_E_UNKNOWN_KEY, ini->file, e->line,
					"unknown key '%s' in %s (did you mean '%s'?)", e->key,
					title, hint);
		return cfg_fail(err, AP_E_UNKNOWN_KEY, ini->file, e->line, "unknown key '%s' in %s",
				e->key, title);
	}
	return 0;
}

int ap_profile_apply_section(struct ap_profile *p, const struct ini *ini,
			     const struct ini_section *s, const char *base_dir,
			     const char *const *also, struct cfg_error *err)
{
	int ret = check_section_keys(ini, s, also, err);

	if (ret < 0)
		return ret;
	const struct ini_entry *pass = ini_get_entry(s, "Passphrase");
	const struct ini_entry *psk = ini_get_entry(s, "PSK");
	if (pass && psk)
		return cfg_fail(err, AP_E_KEY_CONFLICT, ini->file, psk->line,
				"PSK and Passphrase are both set (line %u); keep one", pass->line);
	for (size_t i = 0; i < s->n_entries; i++) {
		const struct ini_entry *e = &s->entries[i];
		struct ap_source src = { .file = ini->file, .line = e->line, .base_dir = base_dir };
		if (listed(also, e->key))
			continue;
		ret = ap_profile_set(p, e->key, e->value, &src, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int apply_profile_doc(struct ap_profile *p, const struct ini *ini, const char *base_dir,
			     struct cfg_error *err)
{
	const struct ini_section *ap = NULL;

	for (size_t i = 0; i < ini->n_sections; i++) {
		const struct ini_section *s = ini->sections[i];
		if (strcmp(s->type, "AccessPoint") != 0 || s->name) {
			static const char *const types[] = { "AccessPoint", NULL };
			const char *hint = cfg_suggest(s->type, types);
			return cfg_fail(
				err, AP_E_PROFILE_FILE, ini->file, s->line,
				"a profile file has one [AccessPoint] section, no [%s%s%s]%s",
				s->type, s->name ? " " : "", s->name ? s->name : "",
				hint && !s->name ? " (did you mean [AccessPoint]?)" : "");
		}
		ap = s;
	}
	if (!ap)
		return cfg_fail(err, AP_E_PROFILE_FILE, ini->file, 0,
				"no [AccessPoint] section in the profile file");
	return ap_profile_apply_section(p, ini, ap, base_dir, NULL, err);
}

int ap_profile_read_buffer(struct ap_profile *p, const char *buf, size_t len, const char *file,
			   const char *base_dir, struct cfg_error *err)
{
	struct ini *ini;
	int ret = ini_parse(buf, len, file, &ini, err);

	if (ret < 0) {
		if (err)
			err->code = AP_E_PROFILE_FILE;
		return AP_E_PROFILE_FILE;
	}
	ret = apply_profile_doc(p, ini, base_dir, err);
	ini_free(ini);
	return ret;
}

int ap_profile_read_file(struct ap_profile *p, const char *path, struct cfg_error *err)
{
	struct ini *ini;
	char *dir;
	int ret = ini_parse_file(path, &ini, err);

	if (ret < 0) {
		if (err)
			err->code = AP_E_PROFILE_FILE;
		return AP_E_PROFILE_FILE;
	}
	dir = cfg_path_dir(path);
	if (!dir)
		ret = cfg_fail(err, AP_E_NOMEM, path, 0, "out of memory");
	else
		ret = apply_profile_doc(p, ini, dir, err);
	free(dir);
	ini_free(ini);
	return ret;
}

/* The list files keep their own "file:line:" messages; only the code is
 * the profile's. */
static int relabel(struct cfg_error *err, int code)
{
	if (err)
		err->code = code;
	return code;
}

int ap_profile_load_files(struct ap_profile *p, struct cfg_error *err)
{
	int ret;

	if (p->mac_allow_file && !p->allow) {
		ret = macfile_load(p->mac_allow_file, &p->allow, err);
		if (ret < 0)
			return relabel(err, ret == CFG_E_NOMEM ? AP_E_NOMEM : AP_E_MAC_FILE);
	}
	if (p->mac_deny_file && !p->deny) {
		ret = macfile_load(p->mac_deny_file, &p->deny, err);
		if (ret < 0)
			return relabel(err, ret == CFG_E_NOMEM ? AP_E_NOMEM : AP_E_MAC_FILE);
	}
	if (p->psk_file && !p->psks) {
		ret = pskfile_load(p->psk_file, &p->psks, err);
		if (ret < 0)
			return relabel(err, ret == CFG_E_NOMEM ? AP_E_NOMEM : AP_E_PSK_FILE);
		ret = pskfile_derive(p->psks, p->ssid, p->ssid_len);
		if (ret < 0)
			return cfg_fail(err, AP_E_PSK_FILE, p->psk_file, 0,
					"cannot derive the PSKs (error %d)", ret);
	}
	return 0;
}
