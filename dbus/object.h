/* Objects, static interface tables and the one generic dispatcher.
 *
 * An interface is a static const table of methods, signals and properties
 * (the sd-bus shape on libdbus). An object is a path with up to
 * WDB_MAX_IFACES interfaces, each with its own data pointer. The dispatcher
 * serves every path (bus.c registers it as the fallback at "/"):
 *
 *   - org.freedesktop.DBus.Introspectable.Introspect, generated from the
 *     tables (introspect.c), children listed for every prefix node;
 *   - org.freedesktop.DBus.Properties Get, GetAll, Set, and
 *     PropertiesChanged through wdb_emit_changed();
 *   - org.freedesktop.DBus.ObjectManager at "/": GetManagedObjects, and
 *     InterfacesAdded/InterfacesRemoved whenever an interface comes or goes;
 *   - our methods: the input signature is checked against the table before
 *     the handler runs (InvalidArguments otherwise), and WDB_PRIVILEGED
 *     methods and every Set are refused with PermissionDenied unless the
 *     caller is root, the daemon's own user, or in group netdev (access.c).
 *
 * A method handler returns its reply, or WDB_REPLY_LATER after taking a
 * reference on the call (dbus_message_ref) to answer with
 * wdb_reply_later() when the operation finishes.
 */
#ifndef WPAD_DBUS_OBJECT_H
#define WPAD_DBUS_OBJECT_H

#include "dbus/libdbus.h"
#include <stdbool.h>
#include <stddef.h>

#include "daemon/core/error.h"

#define WDB_MAX_IFACES 4
#define WDB_REPLY_LATER ((DBusMessage *)(uintptr_t)1)

#define WDB_IFACE_OBJECT_MANAGER "org.freedesktop.DBus.ObjectManager"
#define WDB_IFACE_PROPERTIES "org.freedesktop.DBus.Properties"
#define WDB_IFACE_INTROSPECTABLE "org.freedesktop.DBus.Introspectable"

enum wdb_method_flags {
	WDB_PRIVILEGED = 1u << 0, /* configuring: root or netdev only */
	WDB_ASYNC = 1u << 1,      /* replies when the operation finishes */
};

enum wdb_prop_flags {
	WDB_PROP_CONST = 1u << 0,   /* never changes while the object exists */
	WDB_PROP_NO_EMIT = 1u << 1, /* changes without PropertiesChanged */
};

/* in/out: the arguments as "TYPE name" separated by commas, e.g.
 * "o network, n signal"; "" for none. */
struct wdb_method {
	const char *name;
	const char *in;
	const char *out;
	DBusMessage *(*fn)(void *data, DBusMessage *msg);
	unsigned flags;
};

struct wdb_signal {
	const char *name;
	const char *args;
};

struct wdb_property {
	const char *name;
	const char *sig;
	/* Appends the value (of type sig). false: out of memory. */
	bool (*get)(void *data, DBusMessageIter *it);
	/* NULL: read-only. it points into the variant; the type is already
	 * checked against sig. Returns 0 or a negative errno with *err set. */
	int (*set)(void *data, DBusMessageIter *it, struct wpad_error *err);
	unsigned flags;
};

struct wdb_interface {
	const char *name;
	const struct wdb_method *methods;    /* {NULL}-terminated, may be NULL */
	const struct wdb_signal *signals;    /* {NULL}-terminated, may be NULL */
	const struct wdb_property *props;    /* {NULL}-terminated, may be NULL */
};

struct wdb_object;

/* A new object at path (valid, not yet registered). No interfaces yet:
 * it appears on the bus with its first interface. NULL on bad path,
 * duplicate or no memory. */
struct wdb_object *wdb_object_new(const char *path);
/* Adds an interface and emits InterfacesAdded. Returns 0, -EEXIST, -ENOSPC
 * or -ENOMEM. */
int wdb_object_add_iface(struct wdb_object *o, const struct wdb_interface *iface, void *data);
/* Removes an interface (InterfacesRemoved); no-op if absent. */
void wdb_object_remove_iface(struct wdb_object *o, const struct wdb_interface *iface);
/* Removes every interface (one InterfacesRemoved) and frees the object. */
void wdb_object_free(struct wdb_object *o);
/* Frees every object without signals (shutdown). */
void wdb_objects_clear(void);

const char *wdb_object_path(const struct wdb_object *o);
struct wdb_object *wdb_object_find(const char *path);
bool wdb_object_has_iface(const struct wdb_object *o, const struct wdb_interface *iface);

/* PropertiesChanged for the named properties (NULL-terminated list). */
void wdb_emit_properties(struct wdb_object *o, const struct wdb_interface *iface,
			 const char *const *names);
#define wdb_emit_changed(o, iface, ...)                                                            \
	wdb_emit_properties((o), (iface), (const char *const[]){ __VA_ARGS__, NULL })
/* A new signal message from o, member of iface; append the arguments and
 * send it with wdb_send(). NULL when o is not on the bus or memory is short. */
DBusMessage *wdb_signal_new(struct wdb_object *o, const struct wdb_interface *iface,
			    const char *member);

/* While true, every method call is answered Aborted (shutdown). */
void wdb_objects_set_closing(bool closing);
/* While wpad says goodbye (before wdbus_stop), reads go on and configuring
 * calls are answered Aborted. */
void wdb_objects_set_stopping(bool stopping);
/* A configuring call (method or Properties.Set) may go ahead: the caller is
 * allowed (PermissionDenied otherwise) and wpad is not stopping (Aborted). */
bool wdb_may_configure(DBusMessage *msg, struct wpad_error *err);

/* The libdbus message function of the fallback handler (bus.c). */
DBusHandlerResult wdb_object_handle(DBusConnection *c, DBusMessage *msg, void *data);

/* ---- internal: introspect.c, properties.c ---- */

struct wdb_iface_slot {
	const struct wdb_interface *iface;
	void *data;
};

/* The object's interfaces; n set to their count. */
const struct wdb_iface_slot *wdb_object_ifaces(const struct wdb_object *o, size_t *n);
/* The first object in path order, and the next one. */
struct wdb_object *wdb_object_first(void);
struct wdb_object *wdb_object_next(const struct wdb_object *o);

/* The signature of an argument list ("o network, n signal" -> "on"). */
bool wdb_args_signature(const char *args, char *out, size_t cap);
/* The Introspect XML of path (NULL when nothing lives at or under it);
 * free() it. */
char *wdb_introspect(const char *path);

/* Appends a{sv} of every property of the slot. */
bool wdb_append_all_props(DBusMessageIter *it, const struct wdb_iface_slot *slot);
/* Appends a{sa{sv}} of every interface of o. */
bool wdb_append_ifaces_and_props(DBusMessageIter *it, const struct wdb_object *o);
/* org.freedesktop.DBus.Properties methods. */
DBusMessage *wdb_properties_call(struct wdb_object *o, DBusMessage *msg);
/* org.freedesktop.DBus.Properties on "/", which has no properties:
 * GetAll of its interfaces is an empty dict. */
DBusMessage *wdb_root_properties_call(DBusMessage *msg);
DBusMessage *wdb_get_managed_objects(DBusMessage *msg);

#endif
