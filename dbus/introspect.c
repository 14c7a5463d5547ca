/* Introspection XML generated from the interface tables; see object.h. */
#include "daemon/config/strbuf.h"
#include "dbus/msg.h"
#include "dbus/object.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 16

struct arg {
	char type[32];
	char name[32];
};

/* Splits "o network, n signal" into its arguments. Returns the count, or
 * -1 when the list is malformed (a table bug, caught by the tests). */
static int parse_args(const char *args, struct arg *out, int max)
{
	int n = 0;
	const char *p = args ? args : "";
	while (*p) {
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		if (n == max)
			return -1;
		size_t t = strcspn(p, " ,");
		if (t == 0 || t >= sizeof(out[n].type))
			return -1;
		memcpy(out[n].type, p, t);
		out[n].type[t] = '\0';
		p += t;
		while (*p == ' ')
			p++;
		size_t l = strcspn(p, " ,");
		if (l == 0 || l >= sizeof(out[n].name))
			return -1;
		memcpy(out[n].name, p, l);
		out[n].name[l] = '\0';
		p += l;
		n++;
	}
	return n;
}

bool wdb_args_signature(const char *args, char *out, size_t cap)
{
	struct arg a[MAX_ARGS];
	int n = parse_args(args, a, MAX_ARGS);
	size_t o = 0;
	if (n < 0)
		return false;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(a[i].type);
		if (o + l + 1 > cap)
			return false;
		memcpy(out + o, a[i].type, l);
		o += l;
	}
	out[o] = '\0';
	return true;
}

static void put_args(struct strbuf *sb, const char *args, const char *dir)
{
	struct arg a[MAX_ARGS];
	int n = parse_args(args, a, MAX_ARGS);
	for (int i = 0; i < n; i++) {
		strbuf_printf(sb, "      <arg name=\"%s\" type=\"%s\"", a[i].name, a[i].type);
		if (dir)
			strbuf_printf(sb, " direction=\"%s\"", dir);
		strbuf_puts(sb, "/>\n");
	}
}

static void put_annotation(struct strbuf *sb, const char *name, const char *value)
{
	strbuf_printf(sb, "      <annotation name=\"%s\" value=\"%s\"/>\n", name, value);
}

static void put_property(struct strbuf *sb, const struct wdb_property *p)
{
	strbuf_printf(sb, "    <property name=\"%s\" type=\"%s\" access=\"%s\"", p->name, p->sig,
		      p->set ? "readwrite" : "read");
	if (!(p->flags & (WDB_PROP_CONST | WDB_PROP_NO_EMIT))) {
		strbuf_puts(sb, "/>\n");
		return;
	}
	strbuf_puts(sb, ">\n");
	put_annotation(sb, "org.freedesktop.DBus.Property.EmitsChangedSignal",
		       p->flags & WDB_PROP_CONST ? "const" : "false");
	strbuf_puts(sb, "    </property>\n");
}

static void put_interface(struct strbuf *sb, const struct wdb_interface *in)
{
	strbuf_printf(sb, "  <interface name=\"%s\">\n", in->name);
	for (const struct wdb_method *m = in->methods; m && m->name; m++) {
		strbuf_printf(sb, "    <method name=\"%s\">\n", m->name);
		put_args(sb, m->in, "in");
		put_args(sb, m->out, "out");
		if (m->flags & WDB_PRIVILEGED)
			put_annotation(sb, "org.wpad1.Privileged", "true");
		strbuf_puts(sb, "    </method>\n");
	}
	for (const struct wdb_signal *s = in->signals; s && s->name; s++) {
		strbuf_printf(sb, "    <signal name=\"%s\">\n", s->name);
		put_args(sb, s->args, NULL);
		strbuf_puts(sb, "    </signal>\n");
	}
	for (const struct wdb_property *p = in->props; p && p->name; p++)
		put_property(sb, p);
	strbuf_puts(sb, "  </interface>\n");
}

static const char standard_ifaces[] =
	"  <interface name=\"org.freedesktop.DBus.Properties\">\n"
	"    <method name=\"Get\">\n"
	"      <arg name=\"interface\" type=\"s\" direction=\"in\"/>\n"
	"      <arg name=\"name\" type=\"s\" direction=\"in\"/>\n"
	"      <arg name=\"value\" type=\"v\" direction=\"out\"/>\n"
	"    </method>\n"
	"    <method name=\"GetAll\">\n"
	"      <arg name=\"interface\" type=\"s\" direction=\"in\"/>\n"
	"      <arg name=\"properties\" type=\"a{sv}\" direction=\"out\"/>\n"
	"    </method>\n"
	"    <method name=\"Set\">\n"
	"      <arg name=\"interface\" type=\"s\" direction=\"in\"/>\n"
	"      <arg name=\"name\" type=\"s\" direction=\"in\"/>\n"
	"      <arg name=\"value\" type=\"v\" direction=\"in\"/>\n"
	"    </method>\n"
	"    <signal name=\"PropertiesChanged\">\n"
	"      <arg name=\"interface\" type=\"s\"/>\n"
	"      <arg name=\"changed\" type=\"a{sv}\"/>\n"
	"      <arg name=\"invalidated\" type=\"as\"/>\n"
	"    </signal>\n"
	"  </interface>\n"
	"  <interface name=\"org.freedesktop.DBus.Peer\">\n"
	"    <method name=\"Ping\"/>\n"
	"    <method name=\"GetMachineId\">\n"
	"      <arg name=\"machine_uuid\" type=\"s\" direction=\"out\"/>\n"
	"    </method>\n"
	"  </interface>\n";

static const char object_manager[] =
	"  <interface name=\"org.freedesktop.DBus.ObjectManager\">\n"
	"    <method name=\"GetManagedObjects\">\n"
	"      <arg name=\"objects\" type=\"a{oa{sa{sv}}}\" direction=\"out\"/>\n"
	"    </method>\n"
	"    <signal name=\"InterfacesAdded\">\n"
	"      <arg name=\"object\" type=\"o\"/>\n"
	"      <arg name=\"interfaces\" type=\"a{sa{sv}}\"/>\n"
	"    </signal>\n"
	"    <signal name=\"InterfacesRemoved\">\n"
	"      <arg name=\"object\" type=\"o\"/>\n"
	"      <arg name=\"interfaces\" type=\"as\"/>\n"
	"    </signal>\n"
	"  </interface>\n";

/* Direct children of path: the next element of every object below it,
 * each once (the registry is sorted, so duplicates are adjacent). */
static bool put_children(struct strbuf *sb, const char *path)
{
	size_t n = strlen(path);
	char last[WDB_PATH_MAX] = "";
	bool any = false;
	for (struct wdb_object *o = wdb_object_first(); o; o = wdb_object_next(o)) {
		const char *p = wdb_object_path(o);
		if (strncmp(p, path, n) != 0)
			continue;
		const char *rest = p + n;
		if (n > 1) {
			if (*rest != '/')
				continue;
			rest++;
		}
		size_t l = strcspn(rest, "/");
		if (l == 0 || l >= sizeof(last))
			continue;
		any = true;
		if (strncmp(last, rest, l) == 0 && last[l] == '\0')
			continue;
		memcpy(last, rest, l);
		last[l] = '\0';
		strbuf_printf(sb, "  <node name=\"%s\"/>\n", last);
	}
	return any;
}

char *wdb_introspect(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct wdb_object *o = wdb_object_find(path);
	size_t n = 0;
	const struct wdb_iface_slot *s = o ? wdb_object_ifaces(o, &n) : NULL;
	bool root = strcmp(path, "/") == 0;
	strbuf_puts(&sb, DBUS_INTROSPECT_1_0_XML_DOCTYPE_DECL_NODE "<node>\n"
			 "  <interface name=\"org.freedesktop.DBus.Introspectable\">\n"
			 "    <method name=\"Introspect\">\n"
			 "      <arg name=\"xml\" type=\"s\" direction=\"out\"/>\n"
			 "    </method>\n"
			 "  </interface>\n");
	if (n || root)
		strbuf_puts(&sb, standard_ifaces);
	if (root)
		strbuf_puts(&sb, object_manager);
	for (size_t i = 0; i < n; i++)
		put_interface(&sb, s[i].iface);
	bool children = put_children(&sb, path);
	strbuf_puts(&sb, "</node>\n");
	if (sb.bad || (!n && !root && !children)) {
		strbuf_free(&sb);
		return NULL;
	}
	return sb.data;
}
