/* GetManagedObjects and look-ups by name; see objects.h. */
#include "wpactl/objects.h"

#include "wpactl/bus.h"
#include "wpactl/output.h"
#include "wpactl/parse.h"
#include "wpactl/wpactl.h"

#include <stdlib.h>
#include <string.h>

void wc_object_read(struct wc_object *o, const char *path, DBusMessageIter *ifaces)
{
	DBusMessageIter arr, entry;
	memset(o, 0, sizeof(*o));
	o->path = path;
	if (dbus_message_iter_get_arg_type(ifaces) != DBUS_TYPE_ARRAY)
		return;
	dbus_message_iter_recurse(ifaces, &arr);
	for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_DICT_ENTRY;
	     dbus_message_iter_next(&arr)) {
		const char *name;
		dbus_message_iter_recurse(&arr, &entry);
		if (dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_STRING ||
		    o->n_ifaces >= WC_OBJ_IFACES)
			continue;
		dbus_message_iter_get_basic(&entry, &name);
		dbus_message_iter_next(&entry);
		if (dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_ARRAY)
			continue;
		o->ifaces[o->n_ifaces].name = name;
		o->ifaces[o->n_ifaces].props = entry;
		o->n_ifaces++;
	}
}

static int by_path(const void *a, const void *b)
{
	const struct wc_object *x = a, *y = b;
	return strcmp(x->path, y->path);
}

int wc_objects_load(struct wc_ctx *c, struct wc_objects *os, struct wc_error *err)
{
	DBusMessageIter it, arr, entry;
	memset(os, 0, sizeof(*os));
	os->reply = wc_call(&c->bus, dbus_message_new_method_call(WC_NAME, "/",
								  WC_IFACE_OBJECT_MANAGER,
								  "GetManagedObjects"),
			    c->timeout_ms, err);
	if (!os->reply)
		return -1;
	if (!dbus_message_iter_init(os->reply, &it) ||
	    strcmp(dbus_message_get_signature(os->reply), "a{oa{sa{sv}}}") != 0) {
		wc_error_set(err, WC_EXIT_FAILED, "GetManagedObjects answered (%s)",
			     dbus_message_get_signature(os->reply));
		wc_objects_free(os);
		return -1;
	}
	dbus_message_iter_recurse(&it, &arr);
	size_t cap = 0;
	for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_DICT_ENTRY;
	     dbus_message_iter_next(&arr)) {
		const char *path;
		if (os->n == cap) {
			cap = cap ? 2 * cap : 32;
			struct wc_object *v = realloc(os->v, cap * sizeof(*v));
			if (!v) {
				wc_error_set(err, WC_EXIT_FAILED, "out of memory");
				wc_objects_free(os);
				return -1;
			}
			os->v = v;
		}
		dbus_message_iter_recurse(&arr, &entry);
		dbus_message_iter_get_basic(&entry, &path);
		dbus_message_iter_next(&entry);
		wc_object_read(&os->v[os->n++], path, &entry);
	}
	if (os->n)
		qsort(os->v, os->n, sizeof(*os->v), by_path);
	return 0;
}

void wc_objects_free(struct wc_objects *os)
{
	if (os->reply)
		dbus_message_unref(os->reply);
	free(os->v);
	memset(os, 0, sizeof(*os));
}

const struct wc_object *wc_object_at(const struct wc_objects *os, const char *path)
{
	for (size_t i = 0; i < os->n; i++)
		if (strcmp(os->v[i].path, path) == 0)
			return &os->v[i];
	return NULL;
}

static const struct wc_iface *iface_of(const struct wc_object *o, const char *iface)
{
	for (size_t i = 0; o && i < o->n_ifaces; i++)
		if (strcmp(o->ifaces[i].name, iface) == 0)
			return &o->ifaces[i];
	return NULL;
}

bool wc_has(const struct wc_object *o, const char *iface)
{
	return iface_of(o, iface) != NULL;
}

bool wc_prop(const struct wc_object *o, const char *iface, const char *name,
	     DBusMessageIter *value)
{
	const struct wc_iface *i = iface_of(o, iface);
	DBusMessageIter arr, entry;
	if (!i)
		return false;
	DBusMessageIter props = i->props;
	dbus_message_iter_recurse(&props, &arr);
	for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_DICT_ENTRY;
	     dbus_message_iter_next(&arr)) {
		const char *key;
		dbus_message_iter_recurse(&arr, &entry);
		if (dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_STRING)
			continue;
		dbus_message_iter_get_basic(&entry, &key);
		if (strcmp(key, name) != 0)
			continue;
		dbus_message_iter_next(&entry);
		if (dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_VARIANT)
			return false;
		dbus_message_iter_recurse(&entry, value);
		return true;
	}
	return false;
}

const char *wc_prop_strv(const struct wc_object *o, const char *iface, const char *name, char *buf,
			 size_t cap)
{
	DBusMessageIter v, arr;
	size_t used = 0;
	if (!cap)
		return buf;
	buf[0] = '\0';
	if (!wc_prop(o, iface, name, &v) || dbus_message_iter_get_arg_type(&v) != DBUS_TYPE_ARRAY ||
	    dbus_message_iter_get_element_type(&v) != DBUS_TYPE_STRING)
		return buf;
	dbus_message_iter_recurse(&v, &arr);
	for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_STRING; dbus_message_iter_next(&arr)) {
		const char *s;
		dbus_message_iter_get_basic(&arr, &s);
		int n = snprintf(buf + used, cap - used, "%s%s", used ? " " : "", s);
		if (n < 0 || (size_t)n >= cap - used)
			break;
		used += (size_t)n;
	}
	return buf;
}

const char *wc_prop_str(const struct wc_object *o, const char *iface, const char *name)
{
	DBusMessageIter v;
	const char *s;
	if (!wc_prop(o, iface, name, &v))
		return "";
	int t = dbus_message_iter_get_arg_type(&v);
	if (t != DBUS_TYPE_STRING && t != DBUS_TYPE_OBJECT_PATH)
		return "";
	dbus_message_iter_get_basic(&v, &s);
	return s;
}

bool wc_prop_bool(const struct wc_object *o, const char *iface, const char *name)
{
	DBusMessageIter v;
	dbus_bool_t b;
	if (!wc_prop(o, iface, name, &v) || dbus_message_iter_get_arg_type(&v) != DBUS_TYPE_BOOLEAN)
		return false;
	dbus_message_iter_get_basic(&v, &b);
	return b;
}

int64_t wc_prop_int(const struct wc_object *o, const char *iface, const char *name)
{
	DBusMessageIter v;
	DBusBasicValue b;
	if (!wc_prop(o, iface, name, &v))
		return 0;
	switch (dbus_message_iter_get_arg_type(&v)) {
	case DBUS_TYPE_BYTE:
		dbus_message_iter_get_basic(&v, &b);
		return b.byt;
	case DBUS_TYPE_INT16:
		dbus_message_iter_get_basic(&v, &b);
		return b.i16;
	case DBUS_TYPE_UINT16:
		dbus_message_iter_get_basic(&v, &b);
		return b.u16;
	case DBUS_TYPE_INT32:
		dbus_message_iter_get_basic(&v, &b);
		return b.i32;
	case DBUS_TYPE_UINT32:
		dbus_message_iter_get_basic(&v, &b);
		return b.u32;
	case DBUS_TYPE_INT64:
		dbus_message_iter_get_basic(&v, &b);
		return b.i64;
	case DBUS_TYPE_UINT64:
		dbus_message_iter_get_basic(&v, &b);
		return b.u64 > INT64_MAX ? INT64_MAX : (int64_t)b.u64;
	default:
		return 0;
	}
}

size_t wc_children(const struct wc_objects *os, const char *parent, const char *iface,
		   const struct wc_object **out, size_t cap)
{
	size_t n = 0, plen = strlen(parent);
	for (size_t i = 0; i < os->n && n < cap; i++) {
		const struct wc_object *o = &os->v[i];
		if (plen && (strncmp(o->path, parent, plen) != 0 || o->path[plen] != '/'))
			continue;
		if (wc_has(o, iface))
			out[n++] = o;
	}
	return n;
}

const char *wc_name_at(const struct wc_objects *os, const char *path, const char *iface)
{
	return wc_prop_str(wc_object_at(os, path), iface, "Name");
}

static const char *role_word(const struct wc_object *o)
{
	return wc_has(o, WC_IFACE_AP) ? "an access point" : wc_has(o, WC_IFACE_STATION) ? "a station"
											: "a device";
}

const struct wc_object *wc_find_device(const struct wc_objects *os, const char *name,
				       const char *role, struct wc_error *err)
{
	const struct wc_object *found = NULL;
	char list[256] = "";
	const char *near = NULL;
	for (size_t i = 0; i < os->n; i++) {
		const struct wc_object *o = &os->v[i];
		if (!wc_has(o, WC_IFACE_DEVICE))
			continue;
		const char *n = wc_prop_str(o, WC_IFACE_DEVICE, "Name");
		if (strcmp(n, name) == 0 || strcmp(o->path, name) == 0)
			found = o;
		if (!near && wc_distance(n, name) <= 2)
			near = n;
		size_t len = strlen(list);
		if ((!role || wc_has(o, role)) && len + strlen(n) + 3 < sizeof(list))
			snprintf(list + len, sizeof(list) - len, "%s%s", len ? ", " : "", n);
	}
	const char *want = !role ? "device" : strcmp(role, WC_IFACE_AP) == 0 ? "access point"
									   : "station";
	if (!found) {
		char hint[128] = "";
		if (near)
			snprintf(hint, sizeof(hint), " (did you mean '%s'?)", near);
		wc_error_set(err, WC_EXIT_NOT_FOUND, "wpad has no %s named '%s'%s; %s%s", want, name,
			     hint, list[0] ? "there are: " : "it has none",
			     list[0] ? list : " (see `wpactl device list`)");
		return NULL;
	}
	if (role && !wc_has(found, role)) {
		const char *n = wc_prop_str(found, WC_IFACE_DEVICE, "Name");
		wc_error_set(err, WC_EXIT_NOT_FOUND,
			     "%s is %s, not %s %s: try `wpactl %s %s show`, or change its role with "
			     "`wpactl device mode %s %s`",
			     n, role_word(found), strcmp(want, "access point") == 0 ? "an" : "a", want,
			     wc_has(found, WC_IFACE_AP) ? "ap" : "station", n, n,
			     strcmp(role, WC_IFACE_AP) == 0 ? "ap" : "station");
		return NULL;
	}
	return found;
}

void wc_json_object(struct jw *w, const struct wc_object *o, const char *const *ifaces, bool flat)
{
	jw_object_begin(w);
	jw_key(w, "path");
	jw_string(w, o->path);
	for (size_t i = 0; ifaces[i]; i++) {
		const struct wc_iface *f = iface_of(o, ifaces[i]);
		if (!f)
			continue;
		if (!flat) {
			const char *dot = strrchr(f->name, '.');
			jw_key(w, dot ? dot + 1 : f->name);
			jw_object_begin(w);
		}
		DBusMessageIter props = f->props;
		wc_json_members(w, &props);
		if (!flat)
			jw_object_end(w);
	}
	jw_object_end(w);
}
