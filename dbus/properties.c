/* org.freedesktop.DBus.Properties and ObjectManager.GetManagedObjects,
 * served from the interface tables; see object.h. */
#include "dbus/access.h"
#include "dbus/errors.h"
#include "dbus/msg.h"
#include "dbus/object.h"

#include <string.h>

static const struct wdb_iface_slot *find_slot(const struct wdb_object *o, const char *name)
{
	size_t n;
	const struct wdb_iface_slot *s = wdb_object_ifaces(o, &n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(s[i].iface->name, name) == 0)
			return &s[i];
	return NULL;
}

static const struct wdb_property *find_prop(const struct wdb_interface *iface, const char *name)
{
	for (const struct wdb_property *p = iface->props; p && p->name; p++)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

static bool append_prop_variant(DBusMessageIter *it, const struct wdb_property *p, void *data)
{
	DBusMessageIter v;
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_VARIANT, p->sig, &v))
		return false;
	if (!p->get(data, &v)) {
		dbus_message_iter_abandon_container(it, &v);
		return false;
	}
	return dbus_message_iter_close_container(it, &v);
}

static bool append_entry(DBusMessageIter *dict, const struct wdb_property *p, void *data)
{
	DBusMessageIter e;
	if (!dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e))
		return false;
	if (!wdb_append_str(&e, p->name) || !append_prop_variant(&e, p, data)) {
		dbus_message_iter_abandon_container(dict, &e);
		return false;
	}
	return dbus_message_iter_close_container(dict, &e);
}

bool wdb_append_all_props(DBusMessageIter *it, const struct wdb_iface_slot *slot)
{
	DBusMessageIter dict;
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict))
		return false;
	for (const struct wdb_property *p = slot->iface->props; p && p->name; p++)
		if (!append_entry(&dict, p, slot->data)) {
			dbus_message_iter_abandon_container(it, &dict);
			return false;
		}
	return dbus_message_iter_close_container(it, &dict);
}

bool wdb_append_ifaces_and_props(DBusMessageIter *it, const struct wdb_object *o)
{
	DBusMessageIter arr, e;
	size_t n;
	const struct wdb_iface_slot *s = wdb_object_ifaces(o, &n);
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sa{sv}}", &arr))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!dbus_message_iter_open_container(&arr, DBUS_TYPE_DICT_ENTRY, NULL, &e))
			goto fail;
		if (!wdb_append_str(&e, s[i].iface->name) || !wdb_append_all_props(&e, &s[i])) {
			dbus_message_iter_abandon_container(&arr, &e);
			goto fail;
		}
		if (!dbus_message_iter_close_container(&arr, &e))
			goto fail;
	}
	return dbus_message_iter_close_container(it, &arr);
fail:
	dbus_message_iter_abandon_container(it, &arr);
	return false;
}

static DBusMessage *no_iface(DBusMessage *msg, const struct wdb_object *o, const char *name)
{
	return wdb_std_error(msg, DBUS_ERROR_UNKNOWN_INTERFACE,
					     "%s has no interface %.128s", wdb_object_path(o), name);
}

static DBusMessage *prop_get(struct wdb_object *o, DBusMessage *msg)
{
	const char *iname, *pname;
	if (!dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &iname, DBUS_TYPE_STRING, &pname,
				   DBUS_TYPE_INVALID))
		return NULL;
	const struct wdb_iface_slot *slot = find_slot(o, iname);
	if (!slot)
		return no_iface(msg, o, iname);
	const struct wdb_property *p = find_prop(slot->iface, pname);
	if (!p)
		return wdb_std_error(msg, DBUS_ERROR_UNKNOWN_PROPERTY,
						     "%s has no property %.128s", iname, pname);
	DBusMessage *r = dbus_message_new_method_return(msg);
	DBusMessageIter it;
	if (!r)
		return NULL;
	dbus_message_iter_init_append(r, &it);
	if (!append_prop_variant(&it, p, slot->data)) {
		dbus_message_unref(r);
		return NULL;
	}
	return r;
}

static DBusMessage *prop_get_all(struct wdb_object *o, DBusMessage *msg)
{
	const char *iname;
	if (!dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &iname, DBUS_TYPE_INVALID))
		return NULL;
	const struct wdb_iface_slot *slot = find_slot(o, iname);
	if (!slot)
		return no_iface(msg, o, iname);
	DBusMessage *r = dbus_message_new_method_return(msg);
	DBusMessageIter it;
	if (!r)
		return NULL;
	dbus_message_iter_init_append(r, &it);
	if (!wdb_append_all_props(&it, slot)) {
		dbus_message_unref(r);
		return NULL;
	}
	return r;
}

static DBusMessage *prop_set(struct wdb_object *o, DBusMessage *msg)
{
	const char *iname, *pname;
	DBusMessageIter it, v;
	dbus_message_iter_init(msg, &it);
	dbus_message_iter_get_basic(&it, &iname);
	dbus_message_iter_next(&it);
	dbus_message_iter_get_basic(&it, &pname);
	dbus_message_iter_next(&it);
	const struct wdb_iface_slot *slot = find_slot(o, iname);
	if (!slot)
		return no_iface(msg, o, iname);
	const struct wdb_property *p = find_prop(slot->iface, pname);
	if (!p)
		return wdb_std_error(msg, DBUS_ERROR_UNKNOWN_PROPERTY,
						     "%s has no property %.128s", iname, pname);
	if (!p->set)
		return wdb_std_error(msg, DBUS_ERROR_PROPERTY_READ_ONLY,
						     "%s.%s is read-only", iname, pname);
	dbus_message_iter_recurse(&it, &v);
	char *vsig = dbus_message_iter_get_signature(&v);
	bool same = vsig && strcmp(vsig, p->sig) == 0;
	dbus_free(vsig);
	if (!same)
		return wdb_error_replyf(msg, WPAD_ERR_INVALID_ARGUMENTS, "%s.%s is of type %s",
					iname, pname, p->sig);
	struct wpad_error err;
	wpad_error_clear(&err);
	if (!wdb_may_configure(msg, &err) || p->set(slot->data, &v, &err) < 0)
		return wdb_error_reply(msg, &err);
	return dbus_message_new_method_return(msg);
}

DBusMessage *wdb_properties_call(struct wdb_object *o, DBusMessage *msg)
{
	const char *member = dbus_message_get_member(msg);
	static const struct {
		const char *name, *sig;
		DBusMessage *(*fn)(struct wdb_object *, DBusMessage *);
	} methods[] = { { "Get", "ss", prop_get }, { "GetAll", "s", prop_get_all },
			{ "Set", "ssv", prop_set } };
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		if (strcmp(member, methods[i].name) != 0)
			continue;
		if (!wdb_has_signature(msg, methods[i].sig))
			return wdb_error_replyf(msg, WPAD_ERR_INVALID_ARGUMENTS,
						WDB_IFACE_PROPERTIES ".%s takes (%s), not (%.64s)",
						member, methods[i].sig,
						dbus_message_get_signature(msg));
		return methods[i].fn(o, msg);
	}
	return wdb_std_error(msg, DBUS_ERROR_UNKNOWN_METHOD,
					     WDB_IFACE_PROPERTIES " has no method %.64s", member);
}

/* "/" is the ObjectManager and has no properties of its own, but answers
 * Properties like every object: GetAll of its interfaces (or of "", all of
 * them) is an empty dict, and no property exists to Get or Set. */
DBusMessage *wdb_root_properties_call(DBusMessage *msg)
{
	const char *member = dbus_message_get_member(msg), *iname = "", *pname = "";
	bool get_all = strcmp(member, "GetAll") == 0;
	bool get = strcmp(member, "Get") == 0, set = strcmp(member, "Set") == 0;
	if (!get_all && !get && !set)
		return wdb_std_error(msg, DBUS_ERROR_UNKNOWN_METHOD,
				     WDB_IFACE_PROPERTIES " has no method %.64s", member);
	const char *sig = get_all ? "s" : get ? "ss" : "ssv";
	if (!wdb_has_signature(msg, sig))
		return wdb_error_replyf(msg, WPAD_ERR_INVALID_ARGUMENTS,
					WDB_IFACE_PROPERTIES ".%s takes (%s), not (%.64s)", member,
					sig, dbus_message_get_signature(msg));
	DBusMessageIter it, dict;
	dbus_message_iter_init(msg, &it);
	dbus_message_iter_get_basic(&it, &iname);
	if (!get_all && dbus_message_iter_next(&it))
		dbus_message_iter_get_basic(&it, &pname);
	bool ours = strcmp(iname, WDB_IFACE_OBJECT_MANAGER) == 0 ||
		    strcmp(iname, WDB_IFACE_PROPERTIES) == 0 ||
		    strcmp(iname, WDB_IFACE_INTROSPECTABLE) == 0 ||
		    strcmp(iname, "org.freedesktop.DBus.Peer") == 0;
	if (!ours && !(get_all && iname[0] == '\0'))
		return wdb_std_error(msg, DBUS_ERROR_UNKNOWN_INTERFACE,
				     "/ has no interface %.128s", iname);
	if (!get_all)
		return wdb_std_error(msg, DBUS_ERROR_UNKNOWN_PROPERTY,
				     "%s has no property %.128s (/ has no properties)", iname,
				     pname);
	DBusMessage *r = dbus_message_new_method_return(msg);
	if (!r)
		return NULL;
	dbus_message_iter_init_append(r, &it);
	if (!dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict) ||
	    !dbus_message_iter_close_container(&it, &dict)) {
		dbus_message_unref(r);
		return NULL;
	}
	return r;
}

void wdb_emit_properties(struct wdb_object *o, const struct wdb_interface *iface,
			 const char *const *names)
{
	DBusMessage *m = dbus_message_new_signal(wdb_object_path(o), WDB_IFACE_PROPERTIES,
						 "PropertiesChanged");
	DBusMessageIter it, dict, inval;
	void *data = NULL;
	size_t n;
	const struct wdb_iface_slot *s = wdb_object_ifaces(o, &n);
	for (size_t i = 0; i < n; i++)
		if (s[i].iface == iface)
			data = s[i].data;
	if (!m)
		return;
	dbus_message_iter_init_append(m, &it);
	bool ok = data && wdb_append_str(&it, iface->name) &&
		  dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
	for (size_t i = 0; ok && names[i]; i++) {
		const struct wdb_property *p = find_prop(iface, names[i]);
		ok = p && append_entry(&dict, p, data);
	}
	ok = ok && dbus_message_iter_close_container(&it, &dict) &&
	     dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &inval) &&
	     dbus_message_iter_close_container(&it, &inval);
	if (!ok) {
		dbus_message_unref(m);
		return;
	}
	wdb_send(m);
}

DBusMessage *wdb_get_managed_objects(DBusMessage *msg)
{
	DBusMessage *r = dbus_message_new_method_return(msg);
	DBusMessageIter it, arr, e;
	if (!r)
		return NULL;
	dbus_message_iter_init_append(r, &it);
	if (!dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{oa{sa{sv}}}", &arr))
		goto fail;
	for (struct wdb_object *o = wdb_object_first(); o; o = wdb_object_next(o)) {
		size_t n;
		wdb_object_ifaces(o, &n);
		if (n == 0)
			continue;
		if (!dbus_message_iter_open_container(&arr, DBUS_TYPE_DICT_ENTRY, NULL, &e))
			goto fail_arr;
		if (!wdb_append_path(&e, wdb_object_path(o)) ||
		    !wdb_append_ifaces_and_props(&e, o)) {
			dbus_message_iter_abandon_container(&arr, &e);
			goto fail_arr;
		}
		if (!dbus_message_iter_close_container(&arr, &e))
			goto fail_arr;
	}
	if (dbus_message_iter_close_container(&it, &arr))
		return r;
	goto fail;
fail_arr:
	dbus_message_iter_abandon_container(&it, &arr);
fail:
	dbus_message_unref(r);
	return NULL;
}
