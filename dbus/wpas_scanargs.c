/* Scan's dictionary; see wpas_scanargs.h. */
#include "dbus/wpas_scanargs.h"

#include "dbus/wpas_i.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *take_type(struct wpas_scan_args *a, DBusMessageIter *v)
{
	const char *s;
	if (dbus_message_iter_get_arg_type(v) != DBUS_TYPE_STRING)
		return "must be a string";
	dbus_message_iter_get_basic(v, &s);
	if (strcmp(s, "active") == 0)
		a->passive = false;
	else if (strcmp(s, "passive") == 0)
		a->passive = true;
	else
		return "must be \"active\" or \"passive\"";
	return NULL;
}

static bool known(const struct wpas_scan_args *a, const uint8_t *b, int len)
{
	for (size_t i = 0; i < a->n_ssids; i++)
		if (a->ssids[i].len == len && memcmp(a->ssids[i].ssid, b, (size_t)len) == 0)
			return true;
	return false;
}

static const char *take_ssids(struct wpas_scan_args *a, DBusMessageIter *v)
{
	DBusMessageIter arr, one;
	size_t total = 0;
	if (dbus_message_iter_get_arg_type(v) != DBUS_TYPE_ARRAY ||
	    dbus_message_iter_get_element_type(v) != DBUS_TYPE_ARRAY)
		return "must be an array of byte arrays";
	dbus_message_iter_recurse(v, &arr);
	while (dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_ARRAY) {
		const uint8_t *b;
		int len;
		if (dbus_message_iter_get_element_type(&arr) != DBUS_TYPE_BYTE)
			return "must be an array of byte arrays";
		if (++total > WPAS_SCAN_MAX_SSIDS)
			return "more SSIDs than MaxScanSSID";
		dbus_message_iter_recurse(&arr, &one);
		dbus_message_iter_get_fixed_array(&one, &b, &len);
		if (len < 0 || len > (int)sizeof(a->ssids[0].ssid))
			return "an SSID longer than 32 octets";
		if (len > 0 && !known(a, b, len)) {
			if (a->n_ssids == STATION_SCAN_MAX_SSIDS)
				return "more SSIDs than MaxScanSSID";
			a->ssids[a->n_ssids].len = (uint8_t)len;
			memcpy(a->ssids[a->n_ssids].ssid, b, (size_t)len);
			a->n_ssids++;
		}
		dbus_message_iter_next(&arr);
	}
	return NULL;
}

static const char *take(void *ctx, const char *key, DBusMessageIter *v)
{
	struct wpas_scan_args *a = ctx;
	if (strcmp(key, "Type") == 0)
		return take_type(a, v);
	if (strcmp(key, "SSIDs") == 0)
		return take_ssids(a, v);
	if (strcmp(key, "AllowRoam") == 0) /* wpad roams only when its link is lost */
		return dbus_message_iter_get_arg_type(v) == DBUS_TYPE_BOOLEAN ? NULL
									     : "must be a boolean";
	if (strcmp(key, "Channels") == 0 || strcmp(key, "IEs") == 0)
		return "not supported: wpad scans every allowed channel with its own elements";
	return "unknown argument";
}

int wpas_scan_args_parse(DBusMessage *msg, struct wpas_scan_args *a, char *why, size_t cap)
{
	memset(a, 0, sizeof(*a));
	if (wdb_dict_walk(msg, "Scan", take, a, why, cap) < 0)
		return -EINVAL;
	if (a->passive && a->n_ssids) {
		snprintf(why, cap, "SSIDs: a passive scan sends no probe");
		return -EINVAL;
	}
	return 0;
}
