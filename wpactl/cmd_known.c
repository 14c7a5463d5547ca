/* known list | forget NAME | autoconnect NAME on|off: the networks wpad
 * remembers (org.wpad1.KnownNetwork). */
#include "wpactl/bus.h"
#include "wpactl/commands.h"
#include "wpactl/objects.h"
#include "wpactl/output.h"
#include "wpactl/wpactl.h"

#include <string.h>

int cmd_known_list(struct wc_ctx *c, const struct wc_args *a)
{
	static const char *const head[] = { "NETWORK", "SECURITY", "AUTOCONNECT", "HIDDEN",
					    "LAST CONNECTED" };
	static const char *const iface[] = { WC_IFACE_KNOWN, NULL };
	static const struct wc_object *v[WC_OBJECTS_MAX];
	struct wc_objects os;
	struct wc_error err;
	if (wc_objects_load(c, &os, &err) < 0)
		return wc_report(&err, NULL);
	size_t n = wc_children(&os, "", WC_IFACE_KNOWN, v, WC_OBJECTS_MAX);
	if (c->json) {
		struct jw w;
		jw_init(&w, stdout);
		jw_array_begin(&w);
		for (size_t i = 0; i < n; i++)
			wc_json_object(&w, v[i], iface, true);
		jw_array_end(&w);
		jw_finish(&w);
	} else if (n == 0) {
		printf("wpad knows no networks yet: it remembers each one it connects to.\n");
	} else {
		struct wc_table t;
		wc_table_init(&t, 5, head);
		for (size_t i = 0; i < n; i++) {
			char when[32];
			wc_fmt_time(when, sizeof(when),
				    (uint64_t)wc_prop_int(v[i], WC_IFACE_KNOWN, "LastConnected"));
			const char *row[] = {
				wc_prop_str(v[i], WC_IFACE_KNOWN, "Name"),
				wc_prop_str(v[i], WC_IFACE_KNOWN, "Security"),
				wc_prop_bool(v[i], WC_IFACE_KNOWN, "AutoConnect") ? "yes" : "no",
				wc_prop_bool(v[i], WC_IFACE_KNOWN, "Hidden") ? "yes" : "",
				when,
			};
			wc_table_row(&t, row);
		}
		wc_table_print(&t, stdout);
		wc_table_free(&t);
	}
	wc_objects_free(&os);
	return WC_EXIT_OK;
}

/* The known network named name (of security sec when given). Returns 0
 * with its path, or the exit code after reporting. */
static int find_known(struct wc_ctx *c, const char *name, const char *sec, char *path,
		      size_t cap)
{
	static const struct wc_object *v[WC_OBJECTS_MAX];
	const struct wc_object *hit = NULL;
	struct wc_objects os;
	struct wc_error err;
	char secs[128] = "";
	size_t hits = 0;
	if (wc_objects_load(c, &os, &err) < 0)
		return wc_report(&err, NULL);
	size_t n = wc_children(&os, "", WC_IFACE_KNOWN, v, WC_OBJECTS_MAX);
	for (size_t i = 0; i < n; i++) {
		const char *s = wc_prop_str(v[i], WC_IFACE_KNOWN, "Security");
		if (strcmp(wc_prop_str(v[i], WC_IFACE_KNOWN, "Name"), name) != 0 ||
		    (sec && strcmp(s, sec) != 0))
			continue;
		hit = v[i];
		hits++;
		snprintf(secs + strlen(secs), sizeof(secs) - strlen(secs), "%s%s",
			 hits > 1 ? ", " : "", s);
	}
	int rc = WC_EXIT_OK;
	if (hits == 1) {
		snprintf(path, cap, "%s", hit->path);
	} else if (hits > 1) {
		rc = wc_usage_error("wpad knows several networks named '%s' (%s): choose one with "
				    "--security",
				    name, secs);
	} else {
		wc_error_set(&err, WC_EXIT_NOT_FOUND, "not known");
		rc = wc_report(&err, "wpad knows no network '%s'%s%s: `wpactl known list` shows those "
				     "it knows",
			       name, sec ? " of security " : "", sec ? sec : "");
	}
	wc_objects_free(&os);
	return rc;
}

int cmd_known_forget(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_error err;
	char path[256];
	const char *name = a->pos[0];
	int rc = find_known(c, name, a->has[WC_OPT_SECURITY] ? a->val[WC_OPT_SECURITY] : NULL, path,
			    sizeof(path));
	if (rc)
		return rc;
	if (wc_call_simple(&c->bus, path, WC_IFACE_KNOWN, "Forget", c->timeout_ms, &err) < 0)
		return wc_report(&err, NULL);
	if (c->json) {
		printf("{\"forgotten\":");
		jw_write_string(stdout, name, strlen(name));
		printf(",\"path\":");
		jw_write_string(stdout, path, strlen(path));
		printf("}\n");
	} else {
		printf("wpad forgot '");
		wc_put_safe(stdout, name);
		printf("'.\n");
	}
	return WC_EXIT_OK;
}

int cmd_known_autoconnect(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_error err;
	char path[256];
	const char *name = a->pos[0];
	bool on = strcmp(a->pos[1], "on") == 0;
	int rc = find_known(c, name, a->has[WC_OPT_SECURITY] ? a->val[WC_OPT_SECURITY] : NULL, path,
			    sizeof(path));
	if (rc)
		return rc;
	if (wc_set_property_bool(&c->bus, path, WC_IFACE_KNOWN, "AutoConnect", on, &err) < 0)
		return wc_report(&err, NULL);
	if (c->json) {
		printf("{\"network\":");
		jw_write_string(stdout, name, strlen(name));
		printf(",\"AutoConnect\":%s}\n", on ? "true" : "false");
	} else {
		printf("AutoConnect is %s for '", a->pos[1]);
		wc_put_safe(stdout, name);
		printf("'.\n");
	}
	return WC_EXIT_OK;
}
