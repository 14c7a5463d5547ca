/* wpad.conf: sections, [General], [Radio], [Station]; the result struct. */
#include "daemon/config/wpad_conf.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/path.h"
#include "daemon/config/suggest.h"
#include "daemon/config/value.h"
#include "daemon/config/wpad_conf_internal.h"

#define FAIL_AT(cl, line, code, ...) cfg_fail((cl)->err, code, (cl)->ini->file, line, __VA_ARGS__)

static const char *const section_types[] = { "General", "Radio", "Station", "AccessPoint", "Wired", NULL };

int conf_require(struct conf_load *cl, const struct ini_section *s, const char *key,
		 const char **out)
{
	char title[2 * INI_NAME_MAX + 8];

	*out = ini_get(s, key);
	if (!*out)
		return FAIL_AT(cl, s->line, CFG_E_MISSING_KEY,
			       "%s needs %s=", ini_section_title(s, title, sizeof(title)), key);
	return 0;
}

int conf_radio_ref(struct conf_load *cl, const struct ini_section *s, const char **out)
{
	const char *names[INI_SECTIONS_MAX + 1];
	const char *radio;
	size_t n = 0;
	int ret;

	if ((ret = conf_require(cl, s, "Radio", &radio)) < 0)
		return ret;
	if (ini_find(cl->ini, "Radio", radio)) {
		*out = radio;
		return 0;
	}
	for (size_t i = 0; i < cl->ini->n_sections && n < INI_SECTIONS_MAX; i++)
		if (strcmp(cl->ini->sections[i]->type, "Radio") == 0 && cl->ini->sections[i]->name)
			names[n++] = cl->ini->sections[i]->name;
	names[n] = NULL;
	const char *hint = cfg_suggest(radio, names);
	unsigned line = ini_get_entry(s, "Radio")->line;
	if (hint)
		return FAIL_AT(cl, line, CFG_E_BAD_REFERENCE,
			       "no [Radio %s] section (did you mean '%s'?)", radio, hint);
	return FAIL_AT(cl, line, CFG_E_BAD_REFERENCE, "no [Radio %s] section", radio);
}

/* The rules of the kernel's dev_valid_name(): 1..IFNAMSIZ-1 bytes, not
 * "." or "..", no '/', ':' or blanks. */
int conf_ifname(struct conf_load *cl, const struct ini_section *s, const char *key, char **out)
{
	const struct ini_entry *e = ini_get_entry(s, key);
	const char *v;
	bool ok;

	*out = NULL;
	if (!e)
		return 0;
	v = e->value;
	ok = v[0] && strlen(v) <= WPAD_CONF_IFNAME_MAX && strcmp(v, ".") != 0 &&
	     strcmp(v, "..") != 0;
	for (const char *c = v; ok && *c; c++)
		ok = *c > ' ' && *c < 0x7f && *c != '/' && *c != ':';
	if (!ok)
		return FAIL_AT(cl, e->line, CFG_E_BAD_VALUE,
			       "%s must be a network interface name: 1..%d "
			       "printable ASCII characters without '/', ':' or blanks",
			       key, WPAD_CONF_IFNAME_MAX);
	if (!(*out = strdup(v)))
		return FAIL_AT(cl, e->line, CFG_E_NOMEM, "out of memory");
	return 0;
}

static int read_dir(struct conf_load *cl, const struct ini_section *s, const char *key, char **out)
{
	const struct ini_entry *e = ini_get_entry(s, key);

	if (!e)
		return 0;
	if (e->value[0] != '/')
		return FAIL_AT(cl, e->line, CFG_E_BAD_VALUE, "%s must be an absolute path", key);
	char *dup = strdup(e->value);
	if (!dup)
		return FAIL_AT(cl, e->line, CFG_E_NOMEM, "out of memory");
	free(*out);
	*out = dup;
	return 0;
}

static int read_log_level(struct conf_load *cl, const struct ini_entry *e)
{
	static const char *const names[] = { "error", "warn", "info", "debug", "verbose", NULL };

	for (size_t i = 0; names[i]; i++) {
		if (strcmp(e->value, names[i]) == 0) {
			cl->conf->log_level = (enum log_level)i;
			cl->conf->log_level_set = true;
			return 0;
		}
	}
	const char *hint = cfg_suggest(e->value, names);
	return FAIL_AT(cl, e->line, CFG_E_BAD_VALUE,
		       "LogLevel must be error, warn, info, debug or verbose%s%s%s",
		       hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
}

static int read_general(struct conf_load *cl, const struct ini_section *s)
{
	static const char *const keys[] = { "StateDirectory", "RuntimeDirectory", "Country",
					    "LogLevel", NULL };
	const struct ini_entry *e;
	int ret;

	if ((ret = ini_check_keys(cl->ini, s, keys, cl->err)) < 0 ||
	    (ret = read_dir(cl, s, "StateDirectory", &cl->conf->state_dir)) < 0 ||
	    (ret = read_dir(cl, s, "RuntimeDirectory", &cl->conf->runtime_dir)) < 0)
		return ret;
	if ((e = ini_get_entry(s, "Country"))) {
		if (!cfg_country_valid(e->value))
			return FAIL_AT(cl, e->line, CFG_E_BAD_VALUE,
				       "Country must be two capital letters (ISO 3166-1) or 00");
		memcpy(cl->conf->country, e->value, 3);
	}
	if ((e = ini_get_entry(s, "LogLevel")))
		return read_log_level(cl, e);
	return 0;
}

static int read_radio(struct conf_load *cl, const struct ini_section *s, struct wpad_conf_radio *r)
{
	static const char *const keys[] = { "Driver", "Options", NULL };
	static const char *const drivers[] = { "sim", "nl80211", "wired", NULL };
	const char *driver, *options;
	int ret;

	if ((ret = ini_check_keys(cl->ini, s, keys, cl->err)) < 0)
		return ret;
	if ((ret = conf_require(cl, s, "Driver", &driver)) < 0)
		return ret;
	size_t i = 0;
	while (drivers[i] && strcmp(drivers[i], driver) != 0)
		i++;
	if (!drivers[i]) {
		const char *hint = cfg_suggest(driver, drivers);
		return FAIL_AT(cl, ini_get_entry(s, "Driver")->line, CFG_E_BAD_VALUE,
			       "Driver must be sim, nl80211 or wired%s%s%s",
			       hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
	}
	options = ini_get(s, "Options");
	r->driver = (enum wpad_driver_kind)i;
	r->line = s->line;
	r->name = strdup(s->name);
	r->options = strdup(options ? options : "");
	if (!r->name || !r->options)
		return FAIL_AT(cl, s->line, CFG_E_NOMEM, "out of memory");
	return 0;
}

static int read_station(struct conf_load *cl, const struct ini_section *s,
			struct wpad_conf_station *st)
{
	static const char *const keys[] = { "Radio", "AutoConnect", "DataInterface", "Interface",
					    NULL };
	const struct ini_entry *e;
	const char *radio;
	int ret;

	if ((ret = ini_check_keys(cl->ini, s, keys, cl->err)) < 0)
		return ret;
	if ((ret = conf_radio_ref(cl, s, &radio)) < 0 ||
	    (ret = conf_ifname(cl, s, "DataInterface", &st->data_interface)) < 0 ||
	    (ret = conf_ifname(cl, s, "Interface", &st->adopt_ifname)) < 0)
		return ret;
	/* DataInterface= renames wpad's own netdev; the system's is not
	 * wpad's to rename, and carries the data itself. */
	if (st->adopt_ifname && st->data_interface)
		return FAIL_AT(cl, ini_get_entry(s, "DataInterface")->line, CFG_E_BAD_VALUE,
			       "DataInterface= and Interface= exclude each other: the existing "
			       "interface %s carries the data itself",
			       st->adopt_ifname);
	st->autoconnect = true;
	if ((e = ini_get_entry(s, "AutoConnect")) && cfg_parse_bool(e->value, &st->autoconnect) < 0)
		return FAIL_AT(cl, e->line, CFG_E_BAD_VALUE, "AutoConnect must be true or false");
	st->line = s->line;
	st->name = strdup(s->name);
	st->radio = strdup(radio);
	if (!st->name || !st->radio)
		return FAIL_AT(cl, s->line, CFG_E_NOMEM, "out of memory");
	return 0;
}

/* The [EAP] keys of a known-network file (eap_conf.h) are the EAP keys of
 * a [Wired] section too: everything but Radio= and the timers goes to the
 * one EAP reader, with its line numbers, so both are checked alike. */
static int wired_eap_keys(struct conf_load *cl, const struct ini_section *s, struct eap_conf *out)
{
	static const char *const own[] = { "Radio", "StartPeriod", "MaxStart", "AuthPeriod",
					   "HeldPeriod", NULL };
	struct ini *tmp = ini_new(cl->ini->file);
	struct ini_section *eap = tmp ? ini_add_section(tmp, "EAP", NULL) : NULL;
	int ret = eap ? 0 : FAIL_AT(cl, s->line, CFG_E_NOMEM, "out of memory");
	for (size_t i = 0; ret == 0 && i < s->n_entries; i++) {
		const struct ini_entry *e = &s->entries[i];
		bool mine = false;
		for (size_t k = 0; own[k]; k++)
			mine |= strcmp(own[k], e->key) == 0;
		if (mine)
			continue;
		if (ini_set(eap, e->key, e->value) < 0)
			ret = FAIL_AT(cl, e->line, CFG_E_BAD_VALUE, "%s: cannot be read", e->key);
		else
			eap->entries[eap->n_entries - 1].line = e->line;
	}
	if (ret == 0) {
		eap->line = s->line;
		ret = eap_conf_parse(tmp, eap, out, cl->err);
	}
	ini_free(tmp);
	return ret;
}

/* [Wired NAME]: Radio= must name a Driver=wired radio, read before. */
static int read_wired(struct conf_load *cl, const struct ini_section *s,
		      struct wpad_conf_wired *wd)
{
	const char *radio;
	int ret;

	static const struct {
		const char *key;
		uint32_t min, max;
		size_t off;
	} timers[] = {
		{ "StartPeriod", 1, 3600, offsetof(struct wpad_conf_wired, start_period_s) },
		{ "MaxStart", 1, 100, offsetof(struct wpad_conf_wired, max_start) },
		{ "AuthPeriod", 1, 3600, offsetof(struct wpad_conf_wired, auth_period_s) },
		{ "HeldPeriod", 1, 3600, offsetof(struct wpad_conf_wired, held_period_s) },
	};
	if ((ret = conf_radio_ref(cl, s, &radio)) < 0)
		return ret;
	const struct wpad_conf_radio *r = wpad_conf_find_radio(cl->conf, radio);
	if (r && r->driver != WPAD_DRIVER_WIRED)
		return FAIL_AT(cl, ini_get_entry(s, "Radio")->line, CFG_E_BAD_REFERENCE,
			       "[Wired %s] needs a radio with Driver=wired; [Radio %s] is %s", s->name,
			       radio, wpad_driver_kind_name(r->driver));
	for (size_t i = 0; i < sizeof(timers) / sizeof(timers[0]); i++) {
		const struct ini_entry *e = ini_get_entry(s, timers[i].key);
		uint32_t *v = (uint32_t *)((char *)wd + timers[i].off);
		if (e && cfg_parse_uint(e->value, timers[i].min, timers[i].max, v) < 0)
			return FAIL_AT(cl, e->line, CFG_E_OUT_OF_RANGE, "%s must be %u..%u",
				       timers[i].key, timers[i].min, timers[i].max);
	}
	wd->line = s->line;
	wd->name = strdup(s->name);
	wd->radio = strdup(radio);
	if (!wd->name || !wd->radio)
		return FAIL_AT(cl, s->line, CFG_E_NOMEM, "out of memory");
	return wired_eap_keys(cl, s, &wd->eap);
}

/* Pass one: every section is of a known type, named where it must be. */
static int check_sections(struct conf_load *cl, size_t count[5])
{
	char title[2 * INI_NAME_MAX + 8];

	for (size_t i = 0; i < cl->ini->n_sections; i++) {
		const struct ini_section *s = cl->ini->sections[i];
		size_t t = 0;
		while (section_types[t] && strcmp(section_types[t], s->type) != 0)
			t++;
		ini_section_title(s, title, sizeof(title));
		if (!section_types[t]) {
			const char *hint = cfg_suggest(s->type, section_types);
			return FAIL_AT(cl, s->line, CFG_E_UNKNOWN_SECTION,
				       "unknown section %s%s%s%s", title,
				       hint ? " (did you mean [" : "", hint ? hint : "",
				       hint ? "]?)" : "");
		}
		if (t == 0 && s->name)
			return FAIL_AT(cl, s->line, CFG_E_SECTION_NAME,
				       "[General] takes no name, found %s", title);
		if (t != 0 && !s->name)
			return FAIL_AT(cl, s->line, CFG_E_SECTION_NAME,
				       "%s needs a name, as in [%s wlan0]", title, s->type);
		count[t]++;
	}
	return 0;
}

static int alloc_arrays(struct wpad_conf *c, const size_t count[5])
{
	c->radios = calloc(count[1] + 1, sizeof(*c->radios));
	c->stations = calloc(count[2] + 1, sizeof(*c->stations));
	c->aps = calloc(count[3] + 1, sizeof(*c->aps));
	c->wireds = calloc(count[4] + 1, sizeof(*c->wireds));
	return c->radios && c->stations && c->aps && c->wireds ? 0 : CFG_E_NOMEM;
}

static int read_sections(struct conf_load *cl)
{
	struct wpad_conf *c = cl->conf;
	int ret = 0;

	for (size_t i = 0; i < cl->ini->n_sections && ret == 0; i++) {
		const struct ini_section *s = cl->ini->sections[i];
		if (strcmp(s->type, "General") == 0)
			ret = read_general(cl, s);
		else if (strcmp(s->type, "Radio") == 0)
			ret = read_radio(cl, s, &c->radios[c->n_radios++]);
		else if (strcmp(s->type, "Station") == 0)
			ret = read_station(cl, s, &c->stations[c->n_stations++]);
	}
	/* Access points last: they inherit [General] Country. */
	for (size_t i = 0; i < cl->ini->n_sections && ret == 0; i++) {
		const struct ini_section *s = cl->ini->sections[i];
		if (strcmp(s->type, "AccessPoint") == 0)
			ret = conf_read_ap(cl, s, &c->aps[c->n_aps++]);
		else if (strcmp(s->type, "Wired") == 0) /* after every [Radio] */
			ret = read_wired(cl, s, &c->wireds[c->n_wireds++]);
	}
	return ret;
}

static struct wpad_conf *conf_new(const char *file)
{
	struct wpad_conf *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->log_level = WLOG_INFO;
	c->path = strdup(file);
	c->state_dir = strdup(WPAD_CONF_DEFAULT_STATE_DIR);
	c->runtime_dir = strdup(WPAD_CONF_DEFAULT_RUNTIME_DIR);
	if (!c->path || !c->state_dir || !c->runtime_dir) {
		wpad_conf_free(c);
		return NULL;
	}
	return c;
}

static int load_doc(const struct ini *ini, const char *base_dir, struct wpad_conf **out,
		    struct cfg_error *err)
{
	struct conf_load cl = { .ini = ini, .base_dir = base_dir, .err = err };
	size_t count[5] = { 0 };
	int ret;

	if ((ret = check_sections(&cl, count)) < 0)
		return ret;
	cl.conf = conf_new(ini->file);
	if (!cl.conf || alloc_arrays(cl.conf, count) < 0) {
		wpad_conf_free(cl.conf);
		return cfg_fail(err, CFG_E_NOMEM, ini->file, 0, "out of memory");
	}
	if ((ret = read_sections(&cl)) < 0) {
		wpad_conf_free(cl.conf);
		return ret;
	}
	*out = cl.conf;
	return 0;
}

int wpad_conf_load_buffer(const char *buf, size_t len, const char *file, const char *base_dir,
			  struct wpad_conf **out, struct cfg_error *err)
{
	struct ini *ini;
	int ret = ini_parse(buf, len, file, &ini, err);

	if (ret < 0)
		return ret;
	ret = load_doc(ini, base_dir, out, err);
	ini_free(ini);
	return ret;
}

int wpad_conf_load(const char *path, struct wpad_conf **out, struct cfg_error *err)
{
	struct ini *ini;
	char *dir;
	int ret = ini_parse_file(path, &ini, err);

	if (ret < 0)
		return ret;
	dir = cfg_path_dir(path);
	if (!dir)
		ret = cfg_fail(err, CFG_E_NOMEM, path, 0, "out of memory");
	else
		ret = load_doc(ini, dir, out, err);
	free(dir);
	ini_free(ini);
	return ret;
}

void wpad_conf_free(struct wpad_conf *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_radios; i++) {
		free(c->radios[i].name);
		free(c->radios[i].options);
	}
	for (size_t i = 0; i < c->n_wireds; i++) {
		free(c->wireds[i].name);
		free(c->wireds[i].radio);
		eap_conf_clear(&c->wireds[i].eap);
	}
	free(c->wireds);
	for (size_t i = 0; i < c->n_stations; i++) {
		free(c->stations[i].name);
		free(c->stations[i].radio);
		free(c->stations[i].data_interface);
		free(c->stations[i].adopt_ifname);
	}
	for (size_t i = 0; i < c->n_aps; i++) {
		free(c->aps[i].name);
		free(c->aps[i].radio);
		free(c->aps[i].profile_path);
		free(c->aps[i].data_interface);
		ap_profile_clear(&c->aps[i].profile);
	}
	free(c->radios);
	free(c->stations);
	free(c->aps);
	free(c->path);
	free(c->state_dir);
	free(c->runtime_dir);
	free(c);
}

const struct wpad_conf_radio *wpad_conf_find_radio(const struct wpad_conf *c, const char *name)
{
	for (size_t i = 0; i < c->n_radios; i++)
		if (strcmp(c->radios[i].name, name) == 0)
			return &c->radios[i];
	return NULL;
}

const char *wpad_driver_kind_name(enum wpad_driver_kind kind)
{
	switch (kind) {
	case WPAD_DRIVER_SIM:
		return "sim";
	case WPAD_DRIVER_NL80211:
		return "nl80211";
	case WPAD_DRIVER_WIRED:
		return "wired";
	}
	return "unknown";
}
