/* wpad's objects as one GetManagedObjects reply: every command that reads
 * state loads them once and looks things up by name here.
 *
 * Nothing is copied: each object keeps iterators into the reply, which
 * lives until wc_objects_free(). Strings returned point into it too.
 */
#ifndef WPACTL_OBJECTS_H
#define WPACTL_OBJECTS_H

#include <dbus/dbus.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wpactl/errors.h"
#include "wpactl/json.h"

struct wc_ctx;

#define WC_OBJ_IFACES 6
#define WC_OBJECTS_MAX 4096 /* of one kind: networks, AP stations */

struct wc_iface {
	const char *name;
	DBusMessageIter props; /* the a{sv} */
};

struct wc_object {
	const char *path;
	struct wc_iface ifaces[WC_OBJ_IFACES];
	size_t n_ifaces;
};

struct wc_objects {
	DBusMessage *reply;
	struct wc_object *v;
	size_t n;
};

/* Calls GetManagedObjects. Returns 0 or -1 with *err. */
int wc_objects_load(struct wc_ctx *c, struct wc_objects *os, struct wc_error *err);
void wc_objects_free(struct wc_objects *os);
/* Reads one object ({o a{sa{sv}}} entry's parts): the path and the
 * a{sa{sv}} of its interfaces. Also used for InterfacesAdded. */
void wc_object_read(struct wc_object *o, const char *path, DBusMessageIter *ifaces);

const struct wc_object *wc_object_at(const struct wc_objects *os, const char *path);
bool wc_has(const struct wc_object *o, const char *iface);
/* The value of a property (inside its variant); false when absent. */
bool wc_prop(const struct wc_object *o, const char *iface, const char *name,
	     DBusMessageIter *value);
const char *wc_prop_str(const struct wc_object *o, const char *iface, const char *name);
/* An "as" property joined with single blanks into buf ("" when absent). */
const char *wc_prop_strv(const struct wc_object *o, const char *iface, const char *name, char *buf,
			 size_t cap);
bool wc_prop_bool(const struct wc_object *o, const char *iface, const char *name);
int64_t wc_prop_int(const struct wc_object *o, const char *iface, const char *name);

/* The device whose Name (or path) is name. role is WC_IFACE_STATION,
 * WC_IFACE_AP or NULL for any. NULL with *err: not found (listing the
 * devices there are), or not of that role. */
const struct wc_object *wc_find_device(const struct wc_objects *os, const char *name,
				       const char *role, struct wc_error *err);
/* The objects having iface whose path is under parent ("" for all), in
 * path order; returns how many were put in out (at most cap). */
size_t wc_children(const struct wc_objects *os, const char *parent, const char *iface,
		   const struct wc_object **out, size_t cap);
/* The Name of the object at path with iface, "" when unknown. */
const char *wc_name_at(const struct wc_objects *os, const char *path, const char *iface);

/* {"path": ..., "Iface": {props}, ...} for the given interfaces' short
 * names (the part after "org.wpad1."); flat (props at the top) when
 * flat is true and one interface is named. */
void wc_json_object(struct jw *w, const struct wc_object *o, const char *const *ifaces,
		    bool flat);

#endif
