/* Scan's a{sv} (wpa_supplicant's scan arguments, as NetworkManager sends
 * them) into what the station's scan takes. Apart from the objects so
 * that the fuzz target reaches it with any message.
 *
 * NetworkManager 1.42 sends Type "active", AllowRoam false and, once the
 * interface's Capabilities list "ssid" under Scan and a MaxScanSSID,
 * SSIDs: an empty one (the wildcard) first, then the SSIDs of its hidden
 * profiles. Empty and repeated SSIDs are dropped (the station always sends
 * a wildcard probe too); more names than the station probes for in one
 * scan, a passive scan naming SSIDs (wpa_supplicant refuses it too), and
 * Channels or IEs (not run here) are refused, naming the key.
 */
#ifndef WPAD_DBUS_WPAS_SCANARGS_H
#define WPAD_DBUS_WPAS_SCANARGS_H

#include "dbus/libdbus.h"
#include <stdbool.h>
#include <stddef.h>

#include "daemon/station/station.h"
#include "drivers/driver.h"

/* SSIDs NetworkManager may send: the wildcard and the named ones. */
#define WPAS_SCAN_MAX_SSIDS (STATION_SCAN_MAX_SSIDS + 1)

struct wpas_scan_args {
	bool passive;
	size_t n_ssids; /* named, distinct, non-empty */
	struct driver_ssid ssids[STATION_SCAN_MAX_SSIDS];
};

/* Fills a (zeroed here) from msg's a{sv}. Returns 0, or -EINVAL with why
 * naming the key and the problem. */
int wpas_scan_args_parse(DBusMessage *msg, struct wpas_scan_args *a, char *why, size_t cap);

#endif
