/* known add-8021x NAME --method ... : an enterprise network provisioned
 * with Manager.AddKnownNetwork. wpactl only turns options into the
 * [EAP] keys (files made absolute: wpad has no working directory of
 * ours); wpad checks the profile, once, as it checks a file. */
#include "wpactl/agent.h"
#include "wpactl/bus.h"
#include "wpactl/commands.h"
#include "wpactl/output.h"
#include "wpactl/wpactl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	enum wc_opt opt;
	const char *key;
	bool path;
} str_keys[] = {
	{ WC_OPT_METHOD, "Method", false },
	{ WC_OPT_IDENTITY, "Identity", false },
	{ WC_OPT_ANON_IDENTITY, "AnonymousIdentity", false },
	{ WC_OPT_PHASE2, "Phase2", false },
	{ WC_OPT_CA_CERT, "CACert", true },
	{ WC_OPT_CA_PATH, "CAPath", true },
	{ WC_OPT_SERVER_NAME, "ServerName", false },
	{ WC_OPT_DOMAIN_SUFFIX, "DomainSuffix", false },
	{ WC_OPT_TLS_MIN, "TLSMinVersion", false },
	{ WC_OPT_CLIENT_CERT, "ClientCert", true },
	{ WC_OPT_PRIVATE_KEY, "PrivateKey", true },
	{ WC_OPT_PASSWORD, "Password", false },
	{ WC_OPT_KEY_PASSPHRASE, "PrivateKeyPassphrase", false },
};

static const struct {
	enum wc_opt opt;
	const char *key;
} bool_keys[] = {
	{ WC_OPT_CA_SYSTEM, "CASystem" },
	{ WC_OPT_STORE_SECRETS, "StoreSecrets" },
	{ WC_OPT_UNVERIFIED, "AllowUnverifiedServer" },
	{ WC_OPT_HIDDEN, "Hidden" },
};

static bool put(DBusMessageIter *dict, const char *key, int type, const void *value)
{
	DBusMessageIter e, v;
	char sig[2] = { (char)type, 0 };
	return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
	       dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) &&
	       dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, sig, &v) &&
	       dbus_message_iter_append_basic(&v, type, value) &&
	       dbus_message_iter_close_container(&e, &v) &&
	       dbus_message_iter_close_container(dict, &e);
}

/* The value of a string option: '-' reads a secret from standard input, a
 * relative path is made absolute. Returns false after saying why. */
static bool value_of(const struct wc_args *a, size_t i, char *buf, size_t cap, const char **out)
{
	const char *v = a->val[str_keys[i].opt];
	bool secret = str_keys[i].opt == WC_OPT_PASSWORD || str_keys[i].opt == WC_OPT_KEY_PASSPHRASE;
	*out = v;
	if (secret && strcmp(v, "-") == 0) {
		if (!wc_read_stdin_line(buf, cap)) {
			fprintf(stderr, "wpactl: no %s on standard input\n", str_keys[i].key);
			return false;
		}
		*out = buf;
	} else if (str_keys[i].path && v[0] != '/') {
		if (!realpath(v, buf)) {
			fprintf(stderr, "wpactl: --%s %s: no such file\n",
				wc_options[str_keys[i].opt].name, v);
			return false;
		}
		*out = buf;
	}
	return true;
}

static int fill(DBusMessageIter *dict, const struct wc_args *a)
{
	char buf[PATH_MAX > 1024 ? PATH_MAX : 1024];
	for (size_t i = 0; i < sizeof(str_keys) / sizeof(str_keys[0]); i++) {
		const char *v;
		if (!a->has[str_keys[i].opt])
			continue;
		if (!value_of(a, i, buf, sizeof(buf), &v))
			return WC_EXIT_USAGE;
		bool ok = put(dict, str_keys[i].key, DBUS_TYPE_STRING, &v);
		memset(buf, 0, sizeof(buf)); /* may have held a secret */
		if (!ok)
			return WC_EXIT_FAILED;
	}
	for (size_t i = 0; i < sizeof(bool_keys) / sizeof(bool_keys[0]); i++) {
		dbus_bool_t on = TRUE;
		if (a->has[bool_keys[i].opt] && !put(dict, bool_keys[i].key, DBUS_TYPE_BOOLEAN, &on))
			return WC_EXIT_FAILED;
	}
	char key[64];
	for (size_t i = 0; i < a->n_sets; i++) {
		const char *eq = strchr(a->sets[i], '=');
		if (!eq || eq == a->sets[i] || (size_t)(eq - a->sets[i]) >= sizeof(key)) {
			fprintf(stderr, "wpactl: --set %s: not KEY=VALUE\n", a->sets[i]);
			return WC_EXIT_USAGE;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - a->sets[i]), a->sets[i]);
		const char *val = eq + 1;
		if (!put(dict, key, DBUS_TYPE_STRING, &val))
			return WC_EXIT_FAILED;
	}
	return WC_EXIT_OK;
}

int cmd_known_add_8021x(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_error err;
	const char *name = a->pos[0], *sec = "8021x";
	DBusMessage *m = dbus_message_new_method_call(WC_NAME, "/org/wpad1", "org.wpad1.Manager",
						      "AddKnownNetwork");
	DBusMessageIter it, dict;
	if (!m)
		return WC_EXIT_FAILED;
	dbus_message_iter_init_append(m, &it);
	int rc = dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &name) &&
			 dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &sec) &&
			 dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict)
		 ? fill(&dict, a)
		 : WC_EXIT_FAILED;
	if (rc == WC_EXIT_OK && !dbus_message_iter_close_container(&it, &dict))
		rc = WC_EXIT_FAILED;
	if (rc != WC_EXIT_OK) {
		if (rc == WC_EXIT_FAILED)
			fprintf(stderr, "wpactl: out of memory\n");
		dbus_message_unref(m);
		return rc;
	}
	DBusMessage *reply = wc_call(&c->bus, m, c->timeout_ms, &err); /* takes m */
	if (!reply)
		return wc_report(&err, NULL);
	const char *path = "";
	dbus_message_get_args(reply, NULL, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID);
	if (c->json) {
		printf("{\"network\":");
		jw_write_string(stdout, name, strlen(name));
		printf(",\"path\":");
		jw_write_string(stdout, path, strlen(path));
		printf("}\n");
	} else {
		printf("wpad knows the 802.1X network '");
		wc_put_safe(stdout, name);
		printf("'%s.\n", a->has[WC_OPT_PASSWORD] || a->has[WC_OPT_STORE_SECRETS]
					 ? ""
					 : " (the agent is asked for the password when needed)");
	}
	dbus_message_unref(reply);
	return WC_EXIT_OK;
}
