/* Manager.AddKnownNetwork(s name, s security, a{sv} settings) -> o: an
 * enterprise (802.1X) known network provisioned over D-Bus.
 *
 * The settings are the [EAP] keys of a known network's file, read and
 * checked by the one [EAP] reader (eapdict.c -> eap_conf_parse), plus
 * three of the network's own: AutoConnect (b), Hidden (b) and StoreSecrets
 * (b). Password and PrivateKeyPassphrase go into the file only with
 * StoreSecrets=true; otherwise the store keeps them in memory until wpad
 * stops, and the agent is asked (RequestSecret) when they are missing. A
 * network known already is replaced (its state, LastConnected and
 * Frequencies, stays). */
#define LOG_TAG "dbus"
#include "daemon/config/eap_conf.h"
#include "daemon/config/ini.h"
#include "daemon/config/value.h"
#include "daemon/core/log.h"
#include "daemon/station/station.h"
#include "daemon/store/known_store.h"
#include "daemon/wpad.h"
#include "dbus/eapdict.h"
#include "dbus/errors.h"
#include "dbus/wdbus_i.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct add_opts {
	bool has_autoconnect, autoconnect;
	bool has_hidden, hidden;
	bool store_secrets;
};

static int bad(struct wpad_error *err, const char *what)
{
	wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, EINVAL, -1, -1, "%s", what);
	return -EINVAL;
}

/* The network's own keys; the rest is the [EAP] profile. */
static int own_key(void *ctx, const char *key, DBusMessageIter *var, struct wpad_error *err)
{
	struct add_opts *o = ctx;
	bool *has = NULL, *val;
	if (strcmp(key, "AutoConnect") == 0)
		has = &o->has_autoconnect, val = &o->autoconnect;
	else if (strcmp(key, "Hidden") == 0)
		has = &o->has_hidden, val = &o->hidden;
	else if (strcmp(key, "StoreSecrets") == 0)
		val = &o->store_secrets;
	else
		return 0;
	dbus_bool_t b;
	const char *s;
	int type = dbus_message_iter_get_arg_type(var);
	if (type == DBUS_TYPE_BOOLEAN) {
		dbus_message_iter_get_basic(var, &b);
		*val = b;
	} else if (type == DBUS_TYPE_STRING) { /* the files' text form */
		dbus_message_iter_get_basic(var, &s);
		if (cfg_parse_bool(s, val) < 0)
			return bad(err, "AutoConnect, Hidden and StoreSecrets are true or false");
	} else {
		return bad(err, "AutoConnect, Hidden and StoreSecrets are booleans (b)");
	}
	if (has)
		*has = true;
	return 1;
}

static bool is_secret(const char *key)
{
	return strcmp(key, "Password") == 0 || strcmp(key, "PrivateKeyPassphrase") == 0;
}

/* net's [EAP] becomes sec: secrets into the file or into memory. */
static int put_profile(struct known_network *net, const struct ini_section *sec, bool store)
{
	known_network_drop_section(net, "EAP"); /* the old profile goes */
	int r = known_network_set_mem_secret(net, "Password", NULL);
	r = r ? r : known_network_set_mem_secret(net, "PrivateKeyPassphrase", NULL);
	for (size_t i = 0; !r && i < sec->n_entries; i++) {
		const struct ini_entry *e = &sec->entries[i];
		if (is_secret(e->key) && !store)
			r = known_network_set_mem_secret(net, e->key, e->value);
		else
			r = known_network_add_extra(net, "EAP", e->key, e->value);
	}
	return r;
}

static int save(const uint8_t *ssid, size_t len, const struct ini_section *sec,
		const struct add_opts *o, struct wpad_error *err)
{
	struct known_store *store = wpad_known_store(wdb_get()->w);
	if (!store)
		return wpad_error_set(err, WPAD_ERR_FAILED, ENOENT, -1, -1,
				      "wpad runs without a state directory: it cannot remember "
				      "networks"),
		       -ENOENT;
	struct known_network net;
	struct known_network *old = known_store_get(store, ssid, len, KNOWN_SEC_8021X);
	int r = old ? known_network_copy(&net, old) : 0;
	if (!old)
		known_network_init(&net, ssid, len, KNOWN_SEC_8021X);
	if (o->has_autoconnect)
		net.autoconnect = o->autoconnect;
	if (o->has_hidden)
		net.hidden = o->hidden;
	r = r ? r : put_profile(&net, sec, o->store_secrets);
	r = r ? r : known_store_save(store, &net, NULL);
	known_network_clear(&net);
	if (r < 0)
		wpad_error_set(err, wpad_error_code_from_errno(r), r, -1, -1,
			       "the network's file in %s could not be written: %s",
			       known_store_dir(store), strerror(-r));
	return r;
}

/* name, security and the settings' array iterator, checked. */
static int read_args(DBusMessage *msg, const char **name, DBusMessageIter *settings,
		     struct wpad_error *err)
{
	DBusMessageIter it;
	const char *sec;
	if (!wdb_has_signature(msg, "ssa{sv}") || !dbus_message_iter_init(msg, &it))
		return bad(err, "AddKnownNetwork takes (s name, s security, a{sv} settings)");
	dbus_message_iter_get_basic(&it, name);
	dbus_message_iter_next(&it);
	dbus_message_iter_get_basic(&it, &sec);
	dbus_message_iter_next(&it);
	*settings = it;
	size_t len = strlen(*name);
	if (len == 0 || len > WDB_SSID_MAX)
		return bad(err, "a network name is 1 to 32 bytes");
	if (strcmp(sec, "8021x") == 0)
		return 0;
	if (strcmp(sec, "psk") == 0 || strcmp(sec, "open") == 0)
		return wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, EOPNOTSUPP, -1, -1,
				      "only 802.1X networks (\"8021x\") are provisioned this way: "
				      "a %s network is remembered when Network.Connect succeeds",
				      sec),
		       -EOPNOTSUPP;
	return bad(err, "security is \"8021x\"");
}

DBusMessage *wdb_known_add(void *data, DBusMessage *msg)
{
	struct wpad_error err;
	struct add_opts o = { 0 };
	struct eap_conf conf = { 0 };
	DBusMessageIter settings;
	const char *name;
	if (read_args(msg, &name, &settings, &err) < 0)
		return wdb_error_reply(msg, &err);
	struct ini *ini = ini_new("profile");
	struct ini_section *sec = ini ? ini_add_section(ini, "EAP", NULL) : NULL;
	int r = sec ? 0 : -ENOMEM;
	if (r)
		wpad_error_set(&err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory");
	r = r ? r : wdb_eap_section_from_iter(&settings, sec, own_key, &o, &err);
	r = r ? r : wdb_eap_conf_check(ini, sec, &conf, &err);
	eap_conf_clear(&conf); /* checked: the file's text is what is kept */
	size_t len = strlen(name);
	r = r ? r : save((const uint8_t *)name, len, sec, &o, &err);
	ini_free(ini); /* wipes the values */
	if (r < 0)
		return wdb_error_reply(msg, &err);
	log_info("802.1X network '%s' provisioned over D-Bus (secrets %s)", name,
		 o.store_secrets ? "stored" : "kept in memory");
	struct wdb *b = wdb_get();
	for (size_t i = 0; i < b->n_devices; i++)
		if (b->devices[i] && b->devices[i]->dev && b->devices[i]->dev->station)
			station_eap_profile_replaced(b->devices[i]->dev->station,
						     (const uint8_t *)name, strlen(name));
	wpad_known_changed(wdb_get()->w);
	wdb_known_sync(wdb_get());
	wdb_known_profile_changed((const uint8_t *)name, len);
	char path[WDB_PATH_MAX];
	DBusMessage *reply = NULL;
	if (wdb_known_path((const uint8_t *)name, len, "8021x", path, sizeof(path)) &&
	    (reply = dbus_message_new_method_return(msg))) {
		DBusMessageIter it;
		dbus_message_iter_init_append(reply, &it);
		wdb_append_path(&it, path);
	}
	return reply;
}
