/* a{sv} -> struct eap_conf through an INI section; see eapdict.h. Every
 * value is untrusted: types are checked before they are read. */
#include "dbus/eapdict.h"

#include "daemon/config/eap_conf.h"
#include "daemon/config/ini.h"
#include "daemon/rsn/pae_supp.h" /* struct eap_peer_tls_info, through the PAE both ports run */
#include "dbus/msg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define EAPDICT_VALUE_MAX 1024

static int bad(struct wpad_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct wpad_error *err, const char *fmt, ...)
{
	char text[WPAD_ERROR_TEXT_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, EINVAL, -1, -1, "%s", text);
	return -EINVAL;
}

static bool is_path_key(const char *k)
{
	return strcmp(k, "CACert") == 0 || strcmp(k, "CAPath") == 0 ||
	       strcmp(k, "ClientCert") == 0 || strcmp(k, "PrivateKey") == 0;
}

/* The variant's value in the files' text form into out. */
static int value_text(const char *key, DBusMessageIter *var, char *out, size_t cap,
		      struct wpad_error *err)
{
	int type = dbus_message_iter_get_arg_type(var);
	if (type == DBUS_TYPE_STRING) {
		const char *s;
		dbus_message_iter_get_basic(var, &s);
		if (strlen(s) >= cap)
			return bad(err, "%s: longer than %zu characters", key, cap - 1);
		snprintf(out, cap, "%s", s);
		return 0;
	}
	if (type == DBUS_TYPE_BOOLEAN) {
		dbus_bool_t b;
		dbus_message_iter_get_basic(var, &b);
		snprintf(out, cap, "%s", b ? "true" : "false");
		return 0;
	}
	if (type == DBUS_TYPE_ARRAY && dbus_message_iter_get_element_type(var) == DBUS_TYPE_STRING &&
	    strcmp(key, "Method") == 0) {
		DBusMessageIter arr;
		size_t off = 0;
		out[0] = '\0';
		dbus_message_iter_recurse(var, &arr);
		for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_STRING;
		     dbus_message_iter_next(&arr)) {
			const char *s;
			dbus_message_iter_get_basic(&arr, &s);
			int n = snprintf(out + off, cap - off, "%s%s", off ? " " : "", s);
			if (n < 0 || (size_t)n >= cap - off)
				return bad(err, "%s: too long", key);
			off += (size_t)n;
		}
		return 0;
	}
	return bad(err, "%s: a value of type %c is not accepted", key, (char)type);
}

static int add_entry(struct ini_section *sec, DBusMessageIter *entry, wdb_eap_own_key_fn own,
		     void *ctx, struct wpad_error *err)
{
	const char *key;
	DBusMessageIter var;
	char value[EAPDICT_VALUE_MAX];
	if (dbus_message_iter_get_arg_type(entry) != DBUS_TYPE_STRING)
		return bad(err, "the profile must be a{sv}");
	dbus_message_iter_get_basic(entry, &key);
	if (!ini_valid_key(key))
		return bad(err, "'%.64s' is not a profile key", key);
	if (ini_get(sec, key))
		return bad(err, "%s given twice", key);
	if (!dbus_message_iter_next(entry) ||
	    dbus_message_iter_get_arg_type(entry) != DBUS_TYPE_VARIANT)
		return bad(err, "the profile must be a{sv}");
	dbus_message_iter_recurse(entry, &var);
	int r = own ? own(ctx, key, &var, err) : 0;
	if (r != 0)
		return r < 0 ? r : 0;
	r = value_text(key, &var, value, sizeof(value), err);
	if (r < 0)
		return r;
	if (is_path_key(key) && value[0] != '/')
		return bad(err, "%s must be an absolute path", key);
	if (ini_set(sec, key, value) < 0)
		return bad(err, "%s: not a valid value", key);
	return 0;
}

int wdb_eap_section_from_iter(DBusMessageIter *arr, struct ini_section *sec,
			      wdb_eap_own_key_fn own, void *ctx, struct wpad_error *err)
{
	DBusMessageIter entry;
	size_t n = 0;
	if (dbus_message_iter_get_arg_type(arr) != DBUS_TYPE_ARRAY ||
	    dbus_message_iter_get_element_type(arr) != DBUS_TYPE_DICT_ENTRY)
		return bad(err, "the profile must be a{sv}");
	DBusMessageIter it;
	dbus_message_iter_recurse(arr, &it);
	for (; dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_DICT_ENTRY;
	     dbus_message_iter_next(&it)) {
		if (++n > WDB_DICT_MAX)
			return bad(err, "more than %d settings", WDB_DICT_MAX);
		dbus_message_iter_recurse(&it, &entry);
		int r = add_entry(sec, &entry, own, ctx, err);
		if (r < 0)
			return r;
	}
	return 0;
}

static int fill_section(DBusMessage *msg, struct ini_section *sec, struct wpad_error *err)
{
	DBusMessageIter it;
	if (!wdb_has_signature(msg, "a{sv}") || !dbus_message_iter_init(msg, &it))
		return bad(err, "the profile must be a{sv}");
	return wdb_eap_section_from_iter(&it, sec, NULL, NULL, err);
}

int wdb_eap_conf_check(const struct ini *ini, const struct ini_section *sec, struct eap_conf *c,
		       struct wpad_error *err)
{
	struct cfg_error cerr = { 0 };
	if (eap_conf_parse(ini, sec, c, &cerr) == 0)
		return 0;
	eap_conf_clear(c);
	/* "profile:0: " is noise for a D-Bus caller. */
	const char *m = strstr(cerr.msg, ": ");
	return bad(err, "%s", m ? m + 2 : cerr.msg);
}

int wdb_eap_conf_from_message(DBusMessage *msg, struct eap_conf *c, struct wpad_error *err)
{
	struct ini *ini = ini_new("profile");
	struct ini_section *sec = ini ? ini_add_section(ini, "EAP", NULL) : NULL;
	if (!sec) {
		ini_free(ini);
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory");
		return -ENOMEM;
	}
	int r = fill_section(msg, sec, err);
	if (r == 0)
		r = wdb_eap_conf_check(ini, sec, c, err);
	ini_free(ini); /* wipes the values, passwords included */
	return r;
}

static bool dict_str(DBusMessageIter *dict, const char *key, const char *v)
{
	return !v || wdb_append_dict_basic(dict, key, DBUS_TYPE_STRING, &v);
}

static bool dict_bool(DBusMessageIter *dict, const char *key, bool v)
{
	dbus_bool_t b = v;
	return wdb_append_dict_basic(dict, key, DBUS_TYPE_BOOLEAN, &b);
}

static bool append_methods(DBusMessageIter *dict, const struct eap_conf *c)
{
	DBusMessageIter entry, var, arr;
	const char *k = "Method";
	bool ok = dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry) &&
		  wdb_append_str(&entry, k) &&
		  dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "as", &var) &&
		  dbus_message_iter_open_container(&var, DBUS_TYPE_ARRAY, "s", &arr);
	for (size_t i = 0; ok && i < c->n_methods; i++)
		ok = wdb_append_str(&arr, c->methods[i]);
	return ok && dbus_message_iter_close_container(&var, &arr) &&
	       dbus_message_iter_close_container(&entry, &var) &&
	       dbus_message_iter_close_container(dict, &entry);
}

bool wdb_append_eap_profile(DBusMessageIter *it, const struct eap_conf *c)
{
	DBusMessageIter dict;
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict))
		return false;
	const char *tls = c->tls_min == EAP_CONF_TLS_1_3 ? "1.3" : "1.2";
	const char *tls_max = c->tls_max == EAP_CONF_TLS_1_2   ? "1.2"
			      : c->tls_max == EAP_CONF_TLS_1_3 ? "1.3"
							       : NULL;
	bool ok = append_methods(&dict, c) && dict_str(&dict, "Identity", c->identity) &&
		  dict_str(&dict, "AnonymousIdentity", c->anonymous_identity) &&
		  dict_str(&dict, "Phase2", c->phase2[0] ? c->phase2 : NULL) &&
		  dict_bool(&dict, "Phase2EAP", c->phase2_eap) &&
		  dict_str(&dict, "CACert", c->ca_file) && dict_str(&dict, "CAPath", c->ca_dir) &&
		  dict_str(&dict, "ServerName", c->server_name) &&
		  dict_str(&dict, "DomainSuffix", c->domain_suffix) &&
		  dict_str(&dict, "ClientCert", c->client_cert) &&
		  dict_str(&dict, "PrivateKey", c->private_key) &&
		  dict_str(&dict, "TLSMinVersion", tls) && dict_str(&dict, "TLSMaxVersion", tls_max) &&
		  dict_bool(&dict, "CASystem", c->ca_system) &&
		  dict_bool(&dict, "AllowUnverifiedServer", c->allow_unverified) &&
		  dict_bool(&dict, "HasPassword", c->password != NULL) &&
		  dict_bool(&dict, "HasKeyPassphrase", c->key_passphrase != NULL);
	return ok && dbus_message_iter_close_container(it, &dict);
}

bool wdb_append_tls_info(DBusMessageIter *it, const struct eap_peer_tls_info *t)
{
	DBusMessageIter dict;
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict))
		return false;
	bool ok = true;
	if (t) {
		const char *v = t->version, *s = t->server_subject, *f = t->server_sha256;
		dbus_bool_t r = t->resumed;
		ok = wdb_append_dict_basic(&dict, "TLSVersion", DBUS_TYPE_STRING, &v) &&
		     wdb_append_dict_basic(&dict, "ServerSubject", DBUS_TYPE_STRING, &s) &&
		     wdb_append_dict_basic(&dict, "ServerSHA256", DBUS_TYPE_STRING, &f) &&
		     wdb_append_dict_basic(&dict, "Resumed", DBUS_TYPE_BOOLEAN, &r);
	}
	return ok && dbus_message_iter_close_container(it, &dict);
}
