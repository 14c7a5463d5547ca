/* monitor: wpad's signals as they happen, one line each (or one JSON
 * object per line with --json):
 *
 *   10:42:01.120 s0 Station.State=connecting
 *   10:42:01.322 + s0 network 'home' (psk)
 *   10:42:03.004 s0 ConnectionFailed InvalidPassphrase: the 4-way handshake ...
 *   10:42:09.000 wpad stopped
 *
 * Objects are named by a label learnt from GetManagedObjects and
 * InterfacesAdded (the device's name, the network's name), not by path. */
#include "wpactl/bus.h"
#include "wpactl/commands.h"
#include "wpactl/objects.h"
#include "wpactl/output.h"
#include "wpactl/wpactl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

struct label {
	char *path;
	char *text;
	bool device;
	struct label *next;
};

static struct {
	struct wc_ctx *c;
	struct label *labels;
	bool owner_changed;
	bool running;
} mon;

/* ---- labels ---- */

static const char *label_of(const char *path)
{
	for (struct label *l = mon.labels; l; l = l->next)
		if (strcmp(l->path, path) == 0)
			return l->text;
	return NULL;
}

/* The label of the device that path belongs to, or "". */
static const char *device_label(const char *path)
{
	const struct label *best = NULL;
	for (struct label *l = mon.labels; l; l = l->next) {
		size_t n = strlen(l->path);
		if (strncmp(path, WC_ROOT "/device/", strlen(WC_ROOT "/device/")) == 0 &&
		    strncmp(l->path, path, n) == 0 && path[n] == '/' &&
		    l->device && (!best || n > strlen(best->path)))
			best = l;
	}
	return best ? best->text : "";
}

static void label_forget(const char *path)
{
	for (struct label **pp = &mon.labels; *pp; pp = &(*pp)->next)
		if (strcmp((*pp)->path, path) == 0) {
			struct label *l = *pp;
			*pp = l->next;
			free(l->path);
			free(l->text);
			free(l);
			return;
		}
}

static void labels_clear(void)
{
	while (mon.labels)
		label_forget(mon.labels->path);
}

static void label_learn(const struct wc_object *o)
{
	char text[256], safe[200];
	if (wc_has(o, WC_IFACE_DEVICE)) {
		snprintf(text, sizeof(text), "%s", wc_prop_str(o, WC_IFACE_DEVICE, "Name"));
	} else if (wc_has(o, WC_IFACE_NETWORK)) {
		wc_safe(safe, sizeof(safe), wc_prop_str(o, WC_IFACE_NETWORK, "Name"));
		snprintf(text, sizeof(text), "%s network '%s' (%s)", device_label(o->path), safe,
			 wc_prop_str(o, WC_IFACE_NETWORK, "Security"));
	} else if (wc_has(o, WC_IFACE_BSS)) {
		snprintf(text, sizeof(text), "%s bss %s", device_label(o->path),
			 wc_prop_str(o, WC_IFACE_BSS, "Address"));
	} else if (wc_has(o, WC_IFACE_AP_STATION)) {
		snprintf(text, sizeof(text), "%s station %s", device_label(o->path),
			 wc_prop_str(o, WC_IFACE_AP_STATION, "Address"));
	} else if (wc_has(o, WC_IFACE_KNOWN)) {
		wc_safe(safe, sizeof(safe), wc_prop_str(o, WC_IFACE_KNOWN, "Name"));
		snprintf(text, sizeof(text), "known '%s' (%s)", safe,
			 wc_prop_str(o, WC_IFACE_KNOWN, "Security"));
	} else if (wc_has(o, WC_IFACE_RADIO)) {
		snprintf(text, sizeof(text), "radio %s", wc_prop_str(o, WC_IFACE_RADIO, "Name"));
	} else if (wc_has(o, WC_IFACE_MANAGER)) {
		snprintf(text, sizeof(text), "wpad");
	} else {
		return;
	}
	label_forget(o->path);
	struct label *l = calloc(1, sizeof(*l));
	if (!l)
		return;
	l->path = strdup(o->path);
	l->text = strdup(text);
	if (!l->path || !l->text) {
		free(l->path);
		free(l->text);
		free(l);
		return;
	}
	l->device = wc_has(o, WC_IFACE_DEVICE);
	l->next = mon.labels;
	mon.labels = l;
}

static int labels_load(struct wc_error *err)
{
	struct wc_objects os;
	if (wc_objects_load(mon.c, &os, err) < 0)
		return -1;
	labels_clear();
	/* Devices first: the others' labels name their device. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < os.n; i++)
			if (wc_has(&os.v[i], WC_IFACE_DEVICE) == (pass == 0))
				label_learn(&os.v[i]);
	wc_objects_free(&os);
	return 0;
}

/* ---- one line ---- */

struct line {
	struct jw w; /* --json */
	FILE *f;
};

static void line_begin(struct line *ln, const char *event, const char *path)
{
	struct timeval tv;
	struct tm tm;
	char t[48];
	gettimeofday(&tv, NULL);
	ln->f = stdout;
	if (mon.c->json) {
		time_t s = tv.tv_sec;
		gmtime_r(&s, &tm);
		strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(t + strlen(t), sizeof(t) - strlen(t), ".%03dZ", (int)(tv.tv_usec / 1000));
		jw_init(&ln->w, stdout);
		jw_object_begin(&ln->w);
		jw_key(&ln->w, "time");
		jw_string(&ln->w, t);
		jw_key(&ln->w, "event");
		jw_string(&ln->w, event);
		if (path) {
			const char *label = label_of(path);
			jw_key(&ln->w, "path");
			jw_string(&ln->w, path);
			jw_key(&ln->w, "object");
			if (label)
				jw_string(&ln->w, label);
			else
				jw_null(&ln->w);
		}
		return;
	}
	time_t s = tv.tv_sec;
	localtime_r(&s, &tm);
	strftime(t, sizeof(t), "%H:%M:%S", &tm);
	printf("%s.%03d ", t, (int)(tv.tv_usec / 1000));
}

static void line_end(struct line *ln)
{
	if (mon.c->json) {
		jw_object_end(&ln->w);
		jw_finish(&ln->w);
	} else {
		fputc('\n', stdout);
	}
	fflush(stdout);
}

static const char *short_iface(const char *iface)
{
	const char *dot = strrchr(iface, '.');
	return dot ? dot + 1 : iface;
}

static void print_label(const char *path)
{
	const char *label = label_of(path);
	wc_put_safe(stdout, label ? label : path);
}

/* ---- the signals ---- */

static void properties_changed(DBusMessage *msg)
{
	DBusMessageIter it, arr, e, v;
	const char *iface, *path = dbus_message_get_path(msg);
	struct line ln;
	if (!dbus_message_has_signature(msg, "sa{sv}as") || !dbus_message_iter_init(msg, &it))
		return;
	dbus_message_iter_get_basic(&it, &iface);
	dbus_message_iter_next(&it);
	line_begin(&ln, "PropertiesChanged", path);
	if (mon.c->json) {
		jw_key(&ln.w, "interface");
		jw_string(&ln.w, iface);
		jw_key(&ln.w, "changed");
		wc_json_value(&ln.w, &it);
		dbus_message_iter_next(&it);
		jw_key(&ln.w, "invalidated");
		wc_json_value(&ln.w, &it);
		line_end(&ln);
		return;
	}
	print_label(path);
	dbus_message_iter_recurse(&it, &arr);
	for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_DICT_ENTRY;
	     dbus_message_iter_next(&arr)) {
		const char *key, *p;
		char value[512];
		dbus_message_iter_recurse(&arr, &e);
		dbus_message_iter_get_basic(&e, &key);
		dbus_message_iter_next(&e);
		dbus_message_iter_recurse(&e, &v);
		if (dbus_message_iter_get_arg_type(&v) == DBUS_TYPE_OBJECT_PATH) {
			dbus_message_iter_get_basic(&v, &p);
			const char *label = label_of(p);
			snprintf(value, sizeof(value), "%s",
				 strcmp(p, "/") == 0 ? "none" : label ? label : p);
		} else {
			wc_text_value(value, sizeof(value), &v);
		}
		printf(" %s.%s=", short_iface(iface), key);
		wc_put_safe(stdout, value);
	}
	dbus_message_iter_next(&it);
	dbus_message_iter_recurse(&it, &arr);
	for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_STRING;
	     dbus_message_iter_next(&arr)) {
		const char *key;
		dbus_message_iter_get_basic(&arr, &key);
		printf(" %s.%s changed", short_iface(iface), key);
	}
	line_end(&ln);
}

static void interfaces_added(DBusMessage *msg)
{
	DBusMessageIter it;
	const char *path;
	struct wc_object o;
	struct line ln;
	if (!dbus_message_has_signature(msg, "oa{sa{sv}}") || !dbus_message_iter_init(msg, &it))
		return;
	dbus_message_iter_get_basic(&it, &path);
	dbus_message_iter_next(&it);
	wc_object_read(&o, path, &it);
	label_learn(&o);
	line_begin(&ln, "InterfacesAdded", path);
	if (mon.c->json) {
		jw_key(&ln.w, "interfaces");
		wc_json_value(&ln.w, &it);
	} else {
		printf("+ ");
		print_label(path);
		for (size_t i = 0; i < o.n_ifaces; i++)
			printf("%s%s", i ? ", " : " (", short_iface(o.ifaces[i].name));
		printf("%s", o.n_ifaces ? ")" : "");
	}
	line_end(&ln);
}

static void interfaces_removed(DBusMessage *msg)
{
	DBusMessageIter it, arr;
	const char *path, *iface;
	struct line ln;
	if (!dbus_message_has_signature(msg, "oas") || !dbus_message_iter_init(msg, &it))
		return;
	dbus_message_iter_get_basic(&it, &path);
	dbus_message_iter_next(&it);
	line_begin(&ln, "InterfacesRemoved", path);
	if (mon.c->json) {
		jw_key(&ln.w, "interfaces");
		wc_json_value(&ln.w, &it);
	} else {
		printf("- ");
		print_label(path);
		dbus_message_iter_recurse(&it, &arr);
		for (bool first = true; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_STRING;
		     dbus_message_iter_next(&arr), first = false) {
			dbus_message_iter_get_basic(&arr, &iface);
			printf("%s%s", first ? " (" : ", ", short_iface(iface));
		}
		printf(")");
	}
	line_end(&ln);
	label_forget(path);
}

static void connection_failed(DBusMessage *msg)
{
	const char *name, *text, *path = dbus_message_get_path(msg);
	dbus_int32_t status, reason;
	struct line ln;
	if (!dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &name, DBUS_TYPE_INT32, &status,
				   DBUS_TYPE_INT32, &reason, DBUS_TYPE_STRING, &text,
				   DBUS_TYPE_INVALID))
		return;
	line_begin(&ln, "ConnectionFailed", path);
	if (mon.c->json) {
		jw_key(&ln.w, "error");
		jw_string(&ln.w, name);
		jw_key(&ln.w, "ieee_status");
		jw_int(&ln.w, status);
		jw_key(&ln.w, "ieee_reason");
		jw_int(&ln.w, reason);
		jw_key(&ln.w, "text");
		jw_string(&ln.w, text);
	} else {
		print_label(path);
		printf(" ConnectionFailed %s", short_iface(name));
		if (status >= 0)
			printf(" (IEEE status %d)", status);
		if (reason >= 0)
			printf(" (IEEE reason %d)", reason);
		printf(": ");
		wc_put_safe(stdout, text);
	}
	line_end(&ln);
}

/* Any other signal of wpad's, so that nothing goes unseen. */
static void other_signal(DBusMessage *msg)
{
	DBusMessageIter it;
	struct line ln;
	const char *path = dbus_message_get_path(msg);
	line_begin(&ln, dbus_message_get_member(msg), path);
	if (mon.c->json) {
		jw_key(&ln.w, "interface");
		jw_string(&ln.w, dbus_message_get_interface(msg));
		jw_key(&ln.w, "args");
		jw_array_begin(&ln.w);
		if (dbus_message_iter_init(msg, &it))
			do
				wc_json_value(&ln.w, &it);
			while (dbus_message_iter_next(&it));
		jw_array_end(&ln.w);
	} else {
		print_label(path);
		printf(" %s.%s", short_iface(dbus_message_get_interface(msg)),
		       dbus_message_get_member(msg));
		if (dbus_message_iter_init(msg, &it))
			do {
				char value[512];
				wc_text_value(value, sizeof(value), &it);
				fputc(' ', stdout);
				wc_put_safe(stdout, value);
			} while (dbus_message_iter_next(&it));
	}
	line_end(&ln);
}

static void owner_changed(DBusMessage *msg)
{
	const char *name, *old, *new;
	struct line ln;
	if (!dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &old,
				   DBUS_TYPE_STRING, &new, DBUS_TYPE_INVALID) ||
	    strcmp(name, WC_NAME) != 0)
		return;
	mon.running = new[0] != '\0';
	mon.owner_changed = true;
	line_begin(&ln, mon.running ? "DaemonStarted" : "DaemonStopped", NULL);
	if (!mon.c->json)
		printf("wpad %s", mon.running ? "started" : "stopped");
	line_end(&ln);
}

static DBusHandlerResult on_signal(DBusConnection *conn, DBusMessage *msg, void *data)
{
	if (dbus_message_get_type(msg) != DBUS_MESSAGE_TYPE_SIGNAL)
		return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
	const char *iface = dbus_message_get_interface(msg);
	const char *member = dbus_message_get_member(msg);
	if (!iface || !member || !dbus_message_get_path(msg))
		return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
	if (strcmp(iface, DBUS_INTERFACE_DBUS) == 0) {
		if (strcmp(member, "NameOwnerChanged") == 0)
			owner_changed(msg);
	} else if (!mon.running) {
		/* nothing from wpad while it is away */
	} else if (strcmp(iface, WC_IFACE_PROPERTIES) == 0 &&
		   strcmp(member, "PropertiesChanged") == 0) {
		properties_changed(msg);
	} else if (strcmp(iface, WC_IFACE_OBJECT_MANAGER) == 0 &&
		   strcmp(member, "InterfacesAdded") == 0) {
		interfaces_added(msg);
	} else if (strcmp(iface, WC_IFACE_OBJECT_MANAGER) == 0 &&
		   strcmp(member, "InterfacesRemoved") == 0) {
		interfaces_removed(msg);
	} else if (strcmp(iface, WC_IFACE_DEVICE) == 0 && strcmp(member, "ConnectionFailed") == 0) {
		connection_failed(msg);
	} else if (strncmp(iface, "org.wpad1.", 10) == 0) {
		other_signal(msg);
	}
	return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

static int add_match(const char *rule, struct wc_error *err)
{
	DBusMessage *m = dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS,
						      DBUS_INTERFACE_DBUS, "AddMatch");
	if (m && !dbus_message_append_args(m, DBUS_TYPE_STRING, &rule, DBUS_TYPE_INVALID)) {
		dbus_message_unref(m);
		m = NULL;
	}
	DBusMessage *reply = wc_call(&mon.c->bus, m, mon.c->timeout_ms, err);
	if (!reply)
		return -1;
	dbus_message_unref(reply);
	return 0;
}

static bool wake(void *data)
{
	return mon.owner_changed;
}

int cmd_monitor(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_error err;
	mon.c = c;
	mon.running = true;
	if (wc_bus_connect(&c->bus, &err) < 0)
		return wc_report(&err, NULL);
	dbus_connection_add_filter(c->bus.conn, on_signal, NULL, NULL);
	if (add_match("type='signal',sender='" WC_NAME "'", &err) < 0 ||
	    add_match("type='signal',sender='" DBUS_SERVICE_DBUS "',member='NameOwnerChanged',"
		      "arg0='" WC_NAME "'",
		      &err) < 0 ||
	    labels_load(&err) < 0)
		return wc_report(&err, NULL);
	fprintf(stderr, "wpactl: monitoring wpad on %s; Ctrl-C ends\n", c->bus.where);
	for (;;) {
		if (wc_bus_run(&c->bus, wake, NULL, -1, &err) < 0)
			break;
		mon.owner_changed = false;
		if (mon.running && labels_load(&err) < 0 && err.exit != WC_EXIT_NOT_RUNNING)
			break;
	}
	labels_clear();
	if (err.exit == WC_EXIT_INTERRUPTED)
		return WC_EXIT_OK;
	return wc_report(&err, NULL);
}
