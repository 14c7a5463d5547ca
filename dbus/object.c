/* The object registry and the generic dispatcher; see object.h. */
#define LOG_TAG "dbus"
#include "dbus/object.h"

#include "daemon/core/log.h"
#include "dbus/access.h"
#include "dbus/errors.h"
#include "dbus/msg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct wdb_object {
	char path[WDB_PATH_MAX];
	struct wdb_iface_slot ifaces[WDB_MAX_IFACES];
	size_t n_ifaces;
	struct wdb_object *next; /* sorted by path */
};

static struct {
	struct wdb_object *head;
	bool closing;
	bool stopping; /* saying goodbye on the air: nothing new may start */
} reg;

const char *wdb_object_path(const struct wdb_object *o)
{
	return o->path;
}

struct wdb_object *wdb_object_first(void)
{
	return reg.head;
}

struct wdb_object *wdb_object_next(const struct wdb_object *o)
{
	return o->next;
}

const struct wdb_iface_slot *wdb_object_ifaces(const struct wdb_object *o, size_t *n)
{
	*n = o->n_ifaces;
	return o->ifaces;
}

struct wdb_object *wdb_object_find(const char *path)
{
	for (struct wdb_object *o = reg.head; o; o = o->next)
		if (strcmp(o->path, path) == 0)
			return o;
	return NULL;
}

bool wdb_object_has_iface(const struct wdb_object *o, const struct wdb_interface *iface)
{
	for (size_t i = 0; i < o->n_ifaces; i++)
		if (o->ifaces[i].iface == iface)
			return true;
	return false;
}

void wdb_objects_set_closing(bool closing)
{
	reg.closing = closing;
}

void wdb_objects_set_stopping(bool stopping)
{
	reg.stopping = stopping;
}

bool wdb_may_configure(DBusMessage *msg, struct wpad_error *err)
{
	if (!wdb_access_check(msg, err))
		return false;
	if (reg.stopping) {
		wpad_error_set(err, WPAD_ERR_ABORTED, 0, -1, -1,
			       "wpad is shutting down; try again once it has restarted");
		return false;
	}
	return true;
}

struct wdb_object *wdb_object_new(const char *path)
{
	if (strlen(path) >= WDB_PATH_MAX || !dbus_validate_path(path, NULL) ||
	    wdb_object_find(path))
		return NULL;
	struct wdb_object *o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	strcpy(o->path, path);
	struct wdb_object **pp = &reg.head;
	while (*pp && strcmp((*pp)->path, path) < 0)
		pp = &(*pp)->next;
	o->next = *pp;
	*pp = o;
	return o;
}

/* ---- ObjectManager signals ---- */

static DBusMessage *manager_signal(const char *member, const struct wdb_object *o)
{
	DBusMessage *m = dbus_message_new_signal("/", WDB_IFACE_OBJECT_MANAGER, member);
	DBusMessageIter it;
	if (!m)
		return NULL;
	dbus_message_iter_init_append(m, &it);
	if (!wdb_append_path(&it, o->path)) {
		dbus_message_unref(m);
		return NULL;
	}
	return m;
}

static void emit_added(const struct wdb_object *o, const struct wdb_iface_slot *slot)
{
	DBusMessage *m = manager_signal("InterfacesAdded", o);
	DBusMessageIter it, arr, entry;
	if (!m)
		return;
	dbus_message_iter_init_append(m, &it); /* after the path */
	bool ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sa{sv}}", &arr) &&
		  dbus_message_iter_open_container(&arr, DBUS_TYPE_DICT_ENTRY, NULL, &entry) &&
		  wdb_append_str(&entry, slot->iface->name) && wdb_append_all_props(&entry, slot) &&
		  dbus_message_iter_close_container(&arr, &entry) &&
		  dbus_message_iter_close_container(&it, &arr);
	if (!ok) {
		dbus_message_unref(m);
		return;
	}
	wdb_send(m);
}

static void emit_removed(const struct wdb_object *o, const struct wdb_iface_slot *slots,
			 size_t n)
{
	DBusMessage *m = manager_signal("InterfacesRemoved", o);
	DBusMessageIter it, arr;
	if (!m)
		return;
	dbus_message_iter_init_append(m, &it);
	bool ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &arr);
	for (size_t i = 0; ok && i < n; i++)
		ok = wdb_append_str(&arr, slots[i].iface->name);
	if (!ok || !dbus_message_iter_close_container(&it, &arr)) {
		dbus_message_unref(m);
		return;
	}
	wdb_send(m);
}

int wdb_object_add_iface(struct wdb_object *o, const struct wdb_interface *iface, void *data)
{
	if (wdb_object_has_iface(o, iface))
		return -EEXIST;
	if (o->n_ifaces == WDB_MAX_IFACES)
		return -ENOSPC;
	struct wdb_iface_slot *slot = &o->ifaces[o->n_ifaces++];
	slot->iface = iface;
	slot->data = data;
	emit_added(o, slot);
	return 0;
}

void wdb_object_remove_iface(struct wdb_object *o, const struct wdb_interface *iface)
{
	for (size_t i = 0; i < o->n_ifaces; i++) {
		if (o->ifaces[i].iface != iface)
			continue;
		struct wdb_iface_slot gone = o->ifaces[i];
		memmove(&o->ifaces[i], &o->ifaces[i + 1], (o->n_ifaces - i - 1) * sizeof(gone));
		o->n_ifaces--;
		if (!reg.closing)
			emit_removed(o, &gone, 1);
		return;
	}
}

static void unlink_object(struct wdb_object *o)
{
	for (struct wdb_object **pp = &reg.head; *pp; pp = &(*pp)->next)
		if (*pp == o) {
			*pp = o->next;
			return;
		}
}

void wdb_object_free(struct wdb_object *o)
{
	if (!o)
		return;
	if (o->n_ifaces && !reg.closing) /* at shutdown the name going says it all */
		emit_removed(o, o->ifaces, o->n_ifaces);
	unlink_object(o);
	free(o);
}

void wdb_objects_clear(void)
{
	while (reg.head) {
		struct wdb_object *o = reg.head;
		reg.head = o->next;
		free(o);
	}
}

/* ---- signals ---- */

DBusMessage *wdb_signal_new(struct wdb_object *o, const struct wdb_interface *iface,
			    const char *member)
{
	if (!o || !wdb_object_has_iface(o, iface))
		return NULL;
	return dbus_message_new_signal(o->path, iface->name, member);
}

/* ---- dispatch ---- */

/* Interface data and method for (interface, member); the interface may be
 * NULL in a call, then the first interface with that member is taken. */
static const struct wdb_method *find_method(struct wdb_object *o, const char *iface,
					    const char *member, void **data)
{
	for (size_t i = 0; i < o->n_ifaces; i++) {
		const struct wdb_interface *in = o->ifaces[i].iface;
		if ((iface && strcmp(iface, in->name) != 0) || !in->methods)
			continue;
		for (const struct wdb_method *m = in->methods; m->name; m++)
			if (strcmp(m->name, member) == 0) {
				*data = o->ifaces[i].data;
				return m;
			}
	}
	return NULL;
}

static bool has_children(const char *path)
{
	size_t n = strlen(path);
	for (struct wdb_object *o = reg.head; o; o = o->next)
		if (strncmp(o->path, path, n) == 0 && (n == 1 || o->path[n] == '/'))
			return true;
	return false;
}

static DBusMessage *introspect(DBusMessage *msg, const char *path)
{
	char *xml = wdb_introspect(path);
	if (!xml)
		return wdb_std_error(msg, DBUS_ERROR_UNKNOWN_OBJECT,
						     "no object at %s", path);
	DBusMessage *r = dbus_message_new_method_return(msg);
	if (r && !dbus_message_append_args(r, DBUS_TYPE_STRING, &xml, DBUS_TYPE_INVALID)) {
		dbus_message_unref(r);
		r = NULL;
	}
	free(xml);
	return r;
}

static DBusMessage *call_method(struct wdb_object *o, DBusMessage *msg,
				const struct wdb_method *m, void *data)
{
	char sig[64];
	if (!wdb_args_signature(m->in, sig, sizeof(sig)) || !wdb_has_signature(msg, sig))
		return wdb_error_replyf(msg, WPAD_ERR_INVALID_ARGUMENTS,
					"%s.%s takes (%s), not (%.64s)",
					dbus_message_get_interface(msg) ? dbus_message_get_interface(msg)
									: "",
					m->name, sig, dbus_message_get_signature(msg));
	struct wpad_error err;
	if ((m->flags & WDB_PRIVILEGED) && !wdb_may_configure(msg, &err))
		return wdb_error_reply(msg, &err);
	return m->fn(data, msg);
}

/* Standard interfaces first, then ours. */
static DBusMessage *route(DBusMessage *msg)
{
	const char *path = dbus_message_get_path(msg);
	const char *iface = dbus_message_get_interface(msg);
	const char *member = dbus_message_get_member(msg);
	struct wdb_object *o = path ? wdb_object_find(path) : NULL;
	if (!path || !member)
		return dbus_message_new_error(msg, DBUS_ERROR_UNKNOWN_METHOD, "no member or path");
	if (dbus_message_is_method_call(msg, WDB_IFACE_INTROSPECTABLE, "Introspect"))
		return introspect(msg, path);
	if (strcmp(path, "/") == 0 &&
	    dbus_message_is_method_call(msg, WDB_IFACE_OBJECT_MANAGER, "GetManagedObjects"))
		return wdb_get_managed_objects(msg);
	if (strcmp(path, "/") == 0 && iface && strcmp(iface, WDB_IFACE_PROPERTIES) == 0)
		return wdb_root_properties_call(msg);
	if (!o || o->n_ifaces == 0)
		return wdb_std_error(
			msg, DBUS_ERROR_UNKNOWN_OBJECT, "no object at %s%s", path,
			has_children(path) ? " (only objects below it)" : "");
	if (iface && strcmp(iface, WDB_IFACE_PROPERTIES) == 0)
		return wdb_properties_call(o, msg);
	void *data = NULL;
	const struct wdb_method *m = find_method(o, iface, member, &data);
	if (!m)
		return wdb_std_error(msg, DBUS_ERROR_UNKNOWN_METHOD,
						     "%s has no method %s%s%s", path,
						     iface ? iface : "", iface ? "." : "", member);
	return call_method(o, msg, m, data);
}

DBusHandlerResult wdb_object_handle(DBusConnection *c, DBusMessage *msg, void *data)
{
	if (dbus_message_get_type(msg) != DBUS_MESSAGE_TYPE_METHOD_CALL)
		return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
	DBusMessage *reply;
	if (reg.closing)
		reply = wdb_error_replyf(msg, WPAD_ERR_ABORTED, "wpad is shutting down");
	else
		reply = route(msg);
	if (reply == WDB_REPLY_LATER)
		return DBUS_HANDLER_RESULT_HANDLED;
	if (!reply)
		return DBUS_HANDLER_RESULT_NEED_MEMORY;
	if (dbus_message_get_no_reply(msg))
		dbus_message_unref(reply);
	else
		wdb_send(reply);
	return DBUS_HANDLER_RESULT_HANDLED;
}
