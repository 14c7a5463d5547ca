/* The fi.w1.wpa_supplicant1 front (wpas_i.h): what the rest of the D-Bus
 * layer calls. Off unless wpas_enable(true) ran before wdbus_start()
 * (wpad --wpa-supplicant-api). */
#ifndef WPAD_DBUS_WPAS_H
#define WPAD_DBUS_WPAS_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/core/error.h"

struct wdb;
struct wdb_device;
struct wdb_interface;

void wpas_enable(bool on);
/* Exports the manager and asks for the name (after org.wpad1's objects).
 * Returns 0 (also when disabled) or a negative errno with *err set. */
int wpas_start(struct wdb *b, struct wpad_error *err);
void wpas_stop(struct wdb *b);
void wpas_sync(struct wdb *b);
void wpas_station_state(struct wdb_device *d);
void wpas_scan_done(struct wdb_device *d);
void wpas_device_gone(struct wdb_device *d);
/* The access point of d changed state, or one of its stations did
 * (what: "associated", "authorized", "left"): a hotspot's State and
 * StaAuthorized/StaDeauthorized (wpas_ap.c). */
void wpas_ap_state(struct wdb_device *d);
void wpas_ap_station(struct wdb_device *d, const uint8_t addr[6], const char *what);

extern const struct wdb_interface wpas_manager_iface;

#endif
