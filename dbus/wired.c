/* org.wpad1.Wired8021X: the 802.1X supplicant of a wired device. */
#define LOG_TAG "dbus"
#include "daemon/config/eap_conf.h"
#include "daemon/core/log.h"
#include "daemon/wired/wired_port.h"
#include "daemon/wpad.h"
#include "dbus/agent.h"
#include "dbus/eapdict.h"
#include "dbus/errors.h"
#include "dbus/wdbus_i.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct wired_port *port_of(struct wdb_device *d)
{
	return d->dev->wired;
}

/* ---- methods ---- */

static DBusMessage *reconnect(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	if (wired_port_state(port_of(d)) == WIRED_S_DISABLED)
		return wdb_error_replyf(msg, WPAD_ERR_NOT_CONNECTED,
					"%s has no link: plug the cable in first", d->dev->name);
	wired_port_reconnect(port_of(d));
	return dbus_message_new_method_return(msg);
}

/* The profile is checked as a file's would be; the new one replaces the
 * running attempt. Secrets given here stay in memory only. */
static DBusMessage *set_profile(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	struct wpad_error err;
	struct eap_conf *c = calloc(1, sizeof(*c));
	if (!c)
		return wdb_error_replyf(msg, WPAD_ERR_FAILED, "out of memory");
	if (wdb_eap_conf_from_message(msg, c, &err) < 0) {
		free(c);
		return wdb_error_reply(msg, &err);
	}
	int r = wpad_wired_set_profile(d->dev, c); /* takes c */
	if (r < 0) {
		eap_conf_clear(c);
		free(c);
		return wdb_error_replyf(msg, wpad_error_code_from_errno(r), "%s: %s", d->dev->name,
					strerror(-r));
	}
	log_info("%s: 802.1X profile set over D-Bus", d->dev->name);
	wdb_wired_sync(d);
	return dbus_message_new_method_return(msg);
}

static DBusMessage *reset_profile(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	int r = wpad_wired_set_profile(d->dev, NULL);
	if (r < 0)
		return wdb_error_replyf(msg, wpad_error_code_from_errno(r),
					"%s: no profile in the configuration file", d->dev->name);
	wdb_wired_sync(d);
	return dbus_message_new_method_return(msg);
}

/* ---- properties ---- */

static bool get_state(void *data, DBusMessageIter *it)
{
	return wdb_append_str(it, wired_state_to_string(wired_port_state(port_of(data))));
}

static bool get_authorized(void *data, DBusMessageIter *it)
{
	dbus_bool_t b = wired_port_authorized(port_of(data));
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static bool get_method(void *data, DBusMessageIter *it)
{
	return wdb_append_str(it, wired_port_method(port_of(data)));
}

/* (s name, s detail): the catalogue name of the failed stage ("" after a
 * success or before any attempt) and its detail (offered methods, the
 * server name seen, the alert). */
static bool get_last_error(void *data, DBusMessageIter *it)
{
	const char *detail = "";
	(void)wired_port_last_error(port_of(data), &detail);
	enum wpad_error_code code = wired_port_last_error_code(port_of(data));
	DBusMessageIter st;
	return dbus_message_iter_open_container(it, DBUS_TYPE_STRUCT, NULL, &st) &&
	       wdb_append_str(&st, code == WPAD_OK ? "" : wdb_error_name(code)) &&
	       wdb_append_str(&st, detail) && dbus_message_iter_close_container(it, &st);
}

/* a{sv}: TLSVersion, ServerSubject, ServerSHA256, Resumed of the last
 * TLS-based attempt; empty before one. */
static bool get_tls(void *data, DBusMessageIter *it)
{
	return wdb_append_tls_info(it, wired_port_tls_info(port_of(data)));
}

/* a{sv}: the profile in use, secrets left out (HasPassword says whether
 * one is set). */
static bool get_profile(void *data, DBusMessageIter *it)
{
	return wdb_append_eap_profile(it, wired_port_profile(port_of(data)));
}

static const struct wdb_method methods[] = {
	{ "Reconnect", "", "", reconnect, WDB_PRIVILEGED },
	{ "SetProfile", "a{sv} profile", "", set_profile, WDB_PRIVILEGED },
	{ "ResetProfile", "", "", reset_profile, WDB_PRIVILEGED },
	{ .name = NULL },
};

static const struct wdb_property props[] = {
	{ "State", "s", get_state, NULL, 0 },
	{ "Authorized", "b", get_authorized, NULL, 0 },
	{ "Method", "s", get_method, NULL, 0 },
	{ "LastError", "(ss)", get_last_error, NULL, 0 },
	{ "TLS", "a{sv}", get_tls, NULL, 0 },
	{ "Profile", "a{sv}", get_profile, NULL, 0 },
	{ .name = NULL },
};

const struct wdb_interface wdb_wired_iface = {
	.name = "org.wpad1.Wired8021X",
	.methods = methods,
	.props = props,
};

/* ---- keeping in step ---- */

void wdb_wired_init(struct wdb_device *d)
{
	memset(&d->wired, 0, sizeof(d->wired));
	d->wired.state = wired_state_to_string(wired_port_state(port_of(d)));
	d->wired.authorized = wired_port_authorized(port_of(d));
}

void wdb_wired_exit(struct wdb_device *d)
{
	wdb_agent_cancel(d->wired.agent_req, "wpad is shutting down");
	d->wired.agent_req = NULL;
}

void wdb_wired_sync(struct wdb_device *d)
{
	const char *state = wired_state_to_string(wired_port_state(port_of(d)));
	bool auth = wired_port_authorized(port_of(d));
	const char *method = wired_port_method(port_of(d));
	if (state != d->wired.state) {
		d->wired.state = state;
		/* A finished attempt changes its error, method and TLS too. */
		wdb_emit_changed(d->obj, &wdb_wired_iface, "State", "LastError", "TLS");
	}
	if (auth != d->wired.authorized) {
		d->wired.authorized = auth;
		wdb_emit_changed(d->obj, &wdb_wired_iface, "Authorized");
	}
	if (strcmp(method, d->wired.method) != 0) {
		snprintf(d->wired.method, sizeof(d->wired.method), "%s", method);
		wdb_emit_changed(d->obj, &wdb_wired_iface, "Method");
	}
	/* A new attempt drops an agent request of the one before. */
	if (state == wired_state_to_string(WIRED_S_DISABLED) && d->wired.agent_req) {
		wdb_agent_cancel(d->wired.agent_req, "the link went down");
		d->wired.agent_req = NULL;
	}
}

static void on_secret(void *data, const char *secret, const struct wpad_error *err)
{
	struct wdb_device *d = data;
	d->wired.agent_req = NULL;
	if (err)
		log_warn("%s: no secret from the agent: %s", d->dev->name, err->text);
	wpad_wired_set_secret(d->dev, d->wired.agent_which, secret);
}

void wdb_wired_need_secret(struct wdb_device *d, int which)
{
	struct wpad_error err;
	const char *kind = which == EAP_SECRET_PASSWORD ? "password" : "key-passphrase";
	wdb_agent_cancel(d->wired.agent_req, "a new request replaces it");
	d->wired.agent_which = which;
	d->wired.agent_req = wdb_agent_request_secret(wdb_object_path(d->obj), kind, on_secret, d,
						      &err);
	if (!d->wired.agent_req) {
		log_warn("%s: %s", d->dev->name, err.text);
		wpad_wired_set_secret(d->dev, which, NULL);
	}
}
