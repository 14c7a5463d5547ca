/* The error catalogue; see errors.h. The suffixes are wpad_error_name()'s,
 * so the daemon's codes and the D-Bus names cannot drift apart. */
#include "dbus/errors.h"

#include "daemon/codec/ieee80211.h"
#include "dbus/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const hints[WPAD_ERR_COUNT] = {
	[WPAD_OK] = "nothing to do",
	[WPAD_ERR_INVALID_ARGUMENTS] = "correct the argument this message names",
	[WPAD_ERR_INVALID_FORMAT] = "correct the value's format and try again",
	[WPAD_ERR_NOT_FOUND] = "scan again or check the name; the object may have gone",
	[WPAD_ERR_NOT_SUPPORTED] = "this hardware or this build of wpad cannot do it",
	[WPAD_ERR_BUSY] = "wait until the device is idle, then retry",
	[WPAD_ERR_IN_PROGRESS] = "wait for the running operation's answer",
	[WPAD_ERR_ALREADY_EXISTS] = "nothing to do, or remove the existing one first",
	[WPAD_ERR_NOT_CONNECTED] = "connect (or start) first",
	[WPAD_ERR_ABORTED] = "start it again if it is still wanted",
	[WPAD_ERR_TIMEOUT] = "move closer to the access point or retry later",
	[WPAD_ERR_AUTHENTICATION_FAILED] =
		"the network refused this device; check its access list and security settings",
	[WPAD_ERR_INVALID_PASSPHRASE] = "check the passphrase and connect again",
	[WPAD_ERR_ASSOCIATION_REJECTED] = "retry later or try another access point",
	[WPAD_ERR_FIRMWARE_MISSING] =
		"install the adapter's firmware package, then power the device on again",
	[WPAD_ERR_REGULATORY_FORBIDDEN] =
		"choose a channel this country allows, or set the right country",
	[WPAD_ERR_NO_AGENT] = ("register an agent (Manager.RegisterAgent) or store the "
			       "network's passphrase first"),
	[WPAD_ERR_PERMISSION_DENIED] = "ask as root or as a member of group netdev",
	[WPAD_ERR_DRIVER_ERROR] = "the kernel log may say more; power the device off and on",
	[WPAD_ERR_FAILED] = "the daemon's log says more",
	[WPAD_ERR_POSSIBLE_DOWNGRADE] =
		("wpad left the network; retry once, and if it repeats suspect an impostor "
		 "access point, or ask its administrator whether its security settings changed"),
	[WPAD_ERR_EAP_NO_RESPONSE] = "check the cable and that the switch port runs 802.1X",
	[WPAD_ERR_EAP_METHOD_REFUSED] =
		"allow one of the offered methods in the profile (EAPMethods), or ask the network's administrator",
	[WPAD_ERR_EAP_SERVER_UNTRUSTED] =
		"set the CA the network's administrator publishes (CACertificate); do not skip the check",
	[WPAD_ERR_EAP_SERVER_NAME_MISMATCH] =
		"check ServerName/ServerDomainSuffix against the name shown; a different name may be an impostor",
	[WPAD_ERR_EAP_TLS_ALERT] = "check the TLS settings (MinTLSVersion, client certificate)",
	[WPAD_ERR_EAP_INNER_REJECTED] = "check the identity and password, then reconnect",
	[WPAD_ERR_EAP_FAILURE] = "check the profile's identity and method; the server's log says why",
	[WPAD_ERR_EAP_CREDENTIALS] =
		"give the missing password or passphrase (agent), or fix the key/certificate files",
	[WPAD_ERR_EAP_METHOD_UNAVAILABLE] =
		"use another method, or a build/OpenSSL that provides it (legacy provider for MD4)",
	[WPAD_ERR_EAP_PROTOCOL] = "the authentication server misbehaved; its log may say more",
};

/* Full names, built once from the catalogue's suffixes. */
static char names[WPAD_ERR_COUNT][64];

static void build_names(void)
{
	if (names[WPAD_ERR_FAILED][0])
		return;
	for (int c = 0; c < WPAD_ERR_COUNT; c++)
		snprintf(names[c], sizeof(names[c]), WDB_ERROR_PREFIX "%s",
			 wpad_error_name((enum wpad_error_code)c));
}

const char *wdb_error_name(enum wpad_error_code code)
{
	build_names();
	if ((unsigned)code >= WPAD_ERR_COUNT || code == WPAD_OK)
		code = WPAD_ERR_FAILED;
	return names[code];
}

const char *wdb_error_hint(enum wpad_error_code code)
{
	return (unsigned)code < WPAD_ERR_COUNT ? hints[code] : hints[WPAD_ERR_FAILED];
}

enum wpad_error_code wdb_error_code_from_name(const char *name)
{
	if (!name || !*name)
		return WPAD_OK;
	build_names();
	for (int c = 1; c < WPAD_ERR_COUNT; c++)
		if (strcmp(names[c], name) == 0)
			return (enum wpad_error_code)c;
	return WPAD_ERR_FAILED;
}

void wdb_error_format(const struct wpad_error *e, char *buf, size_t cap)
{
	char raw[WDB_ERROR_TEXT_MAX];
	char codes[160] = "";
	size_t n = 0;
	if (e->ieee_status >= 0 && e->ieee_status <= 0xffff)
		n += (size_t)snprintf(codes + n, sizeof(codes) - n, " [IEEE status %d: %s]",
				      e->ieee_status,
				      ieee80211_status_name((uint16_t)e->ieee_status));
	if (e->ieee_reason >= 0 && e->ieee_reason <= 0xffff && n < sizeof(codes))
		n += (size_t)snprintf(codes + n, sizeof(codes) - n, " [IEEE reason %d: %s]",
				      e->ieee_reason,
				      ieee80211_reason_name((uint16_t)e->ieee_reason));
	if (e->err_no > 0 && n < sizeof(codes))
		snprintf(codes + n, sizeof(codes) - n, " [errno %d: %s]", e->err_no,
			 strerror(e->err_no));
	const char *text = e->text[0] ? e->text : wpad_error_meaning(e->code);
	snprintf(raw, sizeof(raw), "%.256s%s -- %s", text, codes, wdb_error_hint(e->code));
	wdb_utf8_copy(buf, cap, raw, strlen(raw));
}

DBusMessage *wdb_error_reply(DBusMessage *call, const struct wpad_error *e)
{
	char text[WDB_ERROR_TEXT_MAX];
	wdb_error_format(e, text, sizeof(text));
	return dbus_message_new_error(call, wdb_error_name(e->code), text);
}

DBusMessage *wdb_error_replyf(DBusMessage *call, enum wpad_error_code code, const char *fmt, ...)
{
	struct wpad_error e;
	va_list ap;
	wpad_error_clear(&e);
	e.code = code;
	va_start(ap, fmt);
	vsnprintf(e.text, sizeof(e.text), fmt, ap);
	va_end(ap);
	return wdb_error_reply(call, &e);
}
