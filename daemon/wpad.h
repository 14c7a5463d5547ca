/* The daemon: turns a configuration into open drivers, interfaces and roles,
 * and routes every driver event to the role that owns its interface.
 *
 * One struct wpad owns everything it creates: the driver instances (one per
 * [Radio NAME]), the interfaces it added, the station and AP roles, and the
 * known-network store. The D-Bus layer reaches the roles through it.
 */
#ifndef WPAD_WPAD_H
#define WPAD_WPAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/error.h"

struct loop;
struct wpad;
struct wpad_conf;
struct station;
struct ap;
struct driver;
struct known_store;
struct wpad_radio;

enum wpad_device_kind {
	WPAD_DEVICE_STATION,
	WPAD_DEVICE_AP,
};

struct wpad_device {
	enum wpad_device_kind kind;
	char name[32];
	struct wpad_radio *radio;
	uint32_t ifindex;
	struct station *station; /* kind STATION */
	struct ap *ap;           /* kind AP */
	struct wpad *owner;
};

/* Observers the daemon notifies (the demo prints, D-Bus will emit). */
struct wpad_observer {
	void (*station_state)(void *ctx, struct wpad_device *dev, const char *old_state,
			      const char *new_state);
	void (*station_connect_done)(void *ctx, struct wpad_device *dev,
				     const struct wpad_error *err);
	void (*ap_state)(void *ctx, struct wpad_device *dev, const char *new_state);
	void (*ap_station)(void *ctx, struct wpad_device *dev, const uint8_t addr[6],
			   const char *what);
	void *ctx;
};

/* Builds everything conf describes and starts the access points. conf must
 * outlive the daemon. Returns NULL with *err saying what failed. */
struct wpad *wpad_new(struct loop *loop, const struct wpad_conf *conf,
		      const struct wpad_observer *obs, struct wpad_error *err);
void wpad_free(struct wpad *w);

size_t wpad_device_count(const struct wpad *w);
struct wpad_device *wpad_device_at(struct wpad *w, size_t i);
struct wpad_device *wpad_device_find(struct wpad *w, const char *name);
struct known_store *wpad_known_store(struct wpad *w);

#endif
