/* station DEV scan | networks | connect SSID | connect-hidden SSID |
 * disconnect | show.
 *
 * Network.Connect takes no passphrase: wpad asks an agent when it needs
 * one. So connect registers wpactl's own agent for the call, which gives
 * --passphrase or asks on the terminal, and unregisters it afterwards. */
#include "wpactl/agent.h"
#include "wpactl/bus.h"
#include "wpactl/commands.h"
#include "wpactl/objects.h"
#include "wpactl/output.h"
#include "wpactl/wpactl.h"

#include <string.h>

#define SSID_MAX 32

/* ---- show ---- */

void wc_station_fields(const struct wc_objects *os, const struct wc_object *dev)
{
	const char *state = wc_prop_str(dev, WC_IFACE_STATION, "State");
	const char *path = wc_prop_str(dev, WC_IFACE_STATION, "ConnectedNetwork");
	const struct wc_object *net = strcmp(path, "/") ? wc_object_at(os, path) : NULL;
	wc_field(stdout, "State", "%s", state);
	if (net) {
		int dbm = (int)wc_prop_int(dev, WC_IFACE_STATION, "RSSI");
		char akms[128];
		wc_field(stdout, "Network", "%s (%s)", wc_prop_str(net, WC_IFACE_NETWORK, "Name"),
			 wc_prop_str(net, WC_IFACE_NETWORK, "Security"));
		if (*wc_prop_strv(net, WC_IFACE_NETWORK, "AKMs", akms, sizeof(akms)))
			wc_field(stdout, "Offers", "%s%s", akms, wc_pmf_text(net));
		wc_field(stdout, "Signal", "%d dBm %s", dbm, wc_bars(dbm));
	}
	wc_field(stdout, "Scanning", "%s", wc_prop_bool(dev, WC_IFACE_STATION, "Scanning") ? "yes"
											     : "no");
	DBusMessageIter v;
	if (wc_prop(dev, WC_IFACE_STATION, "AutoConnect", &v))
		wc_field(stdout, "Autoconnect", "%s",
			 wc_prop_bool(dev, WC_IFACE_STATION, "AutoConnect") ? "on" : "off");
}

int cmd_station_show(struct wc_ctx *c, const struct wc_args *a)
{
	return wc_show_device(c, a->pos[0], WC_IFACE_STATION);
}

/* ", PMF required" / ", PMF capable" / "" for a network. */
const char *wc_pmf_text(const struct wc_object *net)
{
	if (wc_prop_bool(net, WC_IFACE_NETWORK, "PMFRequired"))
		return ", PMF required";
	if (wc_prop_bool(net, WC_IFACE_NETWORK, "PMFCapable"))
		return ", PMF capable";
	return "";
}

/* ---- networks ---- */

/* Prints dev's networks in wpad's order (GetOrderedNetworks). */
static int print_networks(struct wc_ctx *c, const char *dev_path, const char *dev_name)
{
	static const char *const head[] = { " ", "NETWORK", "SECURITY", "PMF", "SIGNAL", "", "KNOWN" };
	static const char *const net_iface[] = { WC_IFACE_NETWORK, NULL };
	struct wc_error err;
	struct wc_objects os;
	DBusMessageIter it, arr, st;
	DBusMessage *reply = wc_call(&c->bus, wc_new_call(dev_path, WC_IFACE_STATION,
							  "GetOrderedNetworks"),
				     c->timeout_ms, &err);
	if (!reply)
		return wc_report(&err, NULL);
	/* After the call: every path it returns has its object now. */
	if (wc_objects_load(c, &os, &err) < 0) {
		dbus_message_unref(reply);
		return wc_report(&err, NULL);
	}
	struct jw w;
	struct wc_table t;
	jw_init(&w, stdout);
	wc_table_init(&t, 7, head);
	if (c->json)
		jw_array_begin(&w);
	if (dbus_message_iter_init(reply, &it) && dbus_message_has_signature(reply, "a(on)")) {
		dbus_message_iter_recurse(&it, &arr);
		for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_STRUCT;
		     dbus_message_iter_next(&arr)) {
			const char *path;
			dbus_int16_t mbm;
			dbus_message_iter_recurse(&arr, &st);
			dbus_message_iter_get_basic(&st, &path);
			dbus_message_iter_next(&st);
			dbus_message_iter_get_basic(&st, &mbm);
			const struct wc_object *n = wc_object_at(&os, path);
			if (!n)
				continue;
			if (c->json) {
				wc_json_object(&w, n, net_iface, true);
				continue;
			}
			char sig[32];
			snprintf(sig, sizeof(sig), "%d dBm", mbm / 100);
			const char *row[] = {
				wc_prop_bool(n, WC_IFACE_NETWORK, "Connected") ? ">" : " ",
				wc_prop_str(n, WC_IFACE_NETWORK, "Name"),
				wc_prop_str(n, WC_IFACE_NETWORK, "Security"),
				wc_prop_bool(n, WC_IFACE_NETWORK, "PMFRequired")  ? "required"
				: wc_prop_bool(n, WC_IFACE_NETWORK, "PMFCapable") ? "capable"
										  : "",
				sig,
				wc_bars(mbm / 100),
				wc_prop_bool(n, WC_IFACE_NETWORK, "Known") ? "yes" : "",
			};
			wc_table_row(&t, row);
		}
	}
	if (c->json) {
		jw_array_end(&w);
		jw_finish(&w);
	} else if (t.rows == 0) {
		printf("%s has seen no networks: `wpactl station %s scan` looks for them.\n", dev_name,
		       dev_name);
	} else {
		wc_table_print(&t, stdout);
	}
	wc_table_free(&t);
	wc_objects_free(&os);
	dbus_message_unref(reply);
	return WC_EXIT_OK;
}

static int scan(struct wc_ctx *c, const char *dev_path, const char *dev_name)
{
	struct wc_error err;
	if (wc_call_simple(&c->bus, dev_path, WC_IFACE_STATION, "Scan", c->long_timeout_ms, &err) ==
	    0)
		return 0;
	if (err.code == WPAD_ERR_BUSY)
		return wc_report(&err, "%s is busy connecting: scan again once it is connected or "
				       "idle",
				 dev_name);
	return wc_report(&err, NULL);
}

int cmd_station_scan(struct wc_ctx *c, const struct wc_args *a)
{
	char path[256], name[128];
	int rc = wc_device_path(c, a->pos[0], WC_IFACE_STATION, path, sizeof(path), name,
				sizeof(name));
	if (rc)
		return rc;
	rc = scan(c, path, name);
	return rc ? rc : print_networks(c, path, name);
}

int cmd_station_networks(struct wc_ctx *c, const struct wc_args *a)
{
	char path[256], name[128];
	int rc = wc_device_path(c, a->pos[0], WC_IFACE_STATION, path, sizeof(path), name,
				sizeof(name));
	if (rc)
		return rc;
	return print_networks(c, path, name);
}

/* ---- connect ---- */

struct connect {
	char dev_path[256];
	char dev[128];
	const char *ssid;
	bool hidden;
	const char *passphrase; /* NULL: ask on the terminal */
	char pass_buf[128];
	char net_path[256];
	char security[16];
	bool known;
};

/* `wpactl station DEV VERB SSID`, quoted for the shell. */
static void command_for(char *out, size_t cap, const struct connect *k, const char *tail)
{
	char q[160];
	wc_shell_quote(q, sizeof(q), k->ssid);
	if (snprintf(out, cap, "wpactl station %s %s %s%s%s", k->dev,
		     k->hidden ? "connect-hidden" : "connect", k->ssid[0] == '-' ? "-- " : "", q,
		     tail) >= (int)cap)
		snprintf(out, cap, "wpactl station %s connect ...", k->dev);
}

/* The networks of the device named k->ssid (of security sec if given). */
static size_t named(const struct wc_objects *os, const struct connect *k, const char *sec,
		    const struct wc_object **out, size_t cap)
{
	static const struct wc_object *all[WC_OBJECTS_MAX];
	size_t n = wc_children(os, k->dev_path, WC_IFACE_NETWORK, all, WC_OBJECTS_MAX), m = 0;
	for (size_t i = 0; i < n && m < cap; i++)
		if (strcmp(wc_prop_str(all[i], WC_IFACE_NETWORK, "Name"), k->ssid) == 0 &&
		    (!sec || strcmp(wc_prop_str(all[i], WC_IFACE_NETWORK, "Security"), sec) == 0))
			out[m++] = all[i];
	return m;
}

/* Finds the network object to connect to, scanning once if it is not
 * known yet. Returns 0 or the exit code after reporting. */
/* os: the objects as just loaded (freed here); one more load after a scan.
 * A connect costs one GetManagedObjects, not two. */
static int find_network(struct wc_ctx *c, struct connect *k, const char *sec,
			struct wc_objects *loaded)
{
	const struct wc_object *found[8];
	struct wc_objects os = *loaded;
	struct wc_error err;
	for (int pass = 0;; pass++) {
		if (pass > 0 && wc_objects_load(c, &os, &err) < 0)
			return wc_report(&err, NULL);
		size_t n = named(&os, k, sec, found, 8);
		if (n == 1) {
			snprintf(k->net_path, sizeof(k->net_path), "%s", found[0]->path);
			snprintf(k->security, sizeof(k->security), "%s",
				 wc_prop_str(found[0], WC_IFACE_NETWORK, "Security"));
			k->known = wc_prop_bool(found[0], WC_IFACE_NETWORK, "Known");
			wc_objects_free(&os);
			return 0;
		}
		if (n > 1) {
			char list[128] = "";
			for (size_t i = 0; i < n; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 i ? ", " : "", wc_prop_str(found[i], WC_IFACE_NETWORK, "Security"));
			wc_objects_free(&os);
			return wc_usage_error("several networks are named '%s' (%s): choose one with "
					      "--security",
					      k->ssid, list);
		}
		wc_objects_free(&os);
		if (pass == 1)
			break;
		int rc = scan(c, k->dev_path, k->dev);
		if (rc)
			return rc;
	}
	char cmd[256];
	k->hidden = true;
	command_for(cmd, sizeof(cmd), k, "");
	wc_error_set(&err, WC_EXIT_NOT_FOUND, "not found");
	return wc_report(&err, "%s sees no network '%s'%s%s: check the name with `wpactl station %s "
			       "networks`; if the network hides its name, use `%s`",
			 k->dev, k->ssid, sec ? " of security " : "", sec ? sec : "", k->dev, cmd);
}

/* The message for a connect that failed. */
static int connect_failed(const struct connect *k, const struct wc_error *err)
{
	const struct wc_agent_stats *st = wc_agent_stats();
	char cmd[256];
	switch (err->code) {
	case WPAD_ERR_INVALID_PASSPHRASE:
		if (st->asked == 0 && k->known) /* nobody was asked: the stored one is wrong */
			return wc_report(err, "'%s' refused the passphrase wpad has stored: run "
					      "`wpactl known forget %s`, then connect again",
					 k->ssid, k->ssid);
		command_for(cmd, sizeof(cmd), k, " --passphrase ...");
		return wc_report(err, "wrong passphrase for '%s': check it and run `%s`", k->ssid, cmd);
	case WPAD_ERR_NO_AGENT:
		command_for(cmd, sizeof(cmd), k, " --passphrase ...");
		return wc_report(err, "'%s' needs a passphrase: give it with `%s`, or run wpactl on a "
				      "terminal to be asked",
				 k->ssid, cmd);
	case WPAD_ERR_AUTHENTICATION_FAILED:
		return wc_report(err, "'%s' refused %s: it may admit only some devices, or need a "
				      "security wpad cannot do",
				 k->ssid, k->dev);
	case WPAD_ERR_ASSOCIATION_REJECTED:
		return wc_report(err, "the access point of '%s' rejected %s: retry later, or try "
				      "another access point",
				 k->ssid, k->dev);
	case WPAD_ERR_POSSIBLE_DOWNGRADE:
		return wc_report(err, "the access point of '%s' changed its security elements "
				      "during the handshake -- possible downgrade attack; %s left "
				      "it. Retry once; if it repeats, suspect an impostor access "
				      "point",
				 k->ssid, k->dev);
	case WPAD_ERR_TIMEOUT:
		if (st->asked > st->answered)
			return wc_report(err, "no passphrase for '%s' was typed in time: connect again "
					      "when you have it at hand",
					 k->ssid);
		return wc_report(err, "'%s' did not answer %s in time: move closer to it, or retry "
				      "later",
				 k->ssid, k->dev);
	case WPAD_ERR_NOT_FOUND:
		if (k->hidden)
			return wc_report(err, "no network '%s' answered %s: check the name, or move "
					      "closer",
					 k->ssid, k->dev);
		return wc_report(err, "'%s' is out of range of %s now: `wpactl station %s scan`, "
				      "then try again",
				 k->ssid, k->dev, k->dev);
	case WPAD_ERR_ABORTED:
		if (st->user_cancelled)
			return wc_report(err, "cancelled: no passphrase was given for '%s'", k->ssid);
		if (st->no_tty)
			return wc_report(err, "'%s' needs a passphrase and there is no terminal to ask "
					      "on: give it with --passphrase",
					 k->ssid);
		return wc_report(err, "the connect to '%s' was cancelled: %s", k->ssid, err->text);
	case WPAD_ERR_BUSY:
	case WPAD_ERR_IN_PROGRESS:
		return wc_report(err, "%s is busy: %s", k->dev, err->text);
	default:
		return wc_report(err, NULL);
	}
}

/* Our agent for the call: gives --passphrase, or asks on the terminal.
 * Returns 1 when registered, 0 when not (none needed or another agent
 * will ask), or the exit code after reporting. */
static int start_agent(struct wc_ctx *c, const struct connect *k, bool *registered)
{
	struct wc_error err;
	*registered = false;
	if (!k->hidden && k->known) {
		if (k->passphrase)
			fprintf(stderr, "wpactl: wpad knows '%s' and uses its stored passphrase, not "
					"--passphrase; to change it, `wpactl known forget %s` first\n",
				k->ssid, k->ssid);
		return 0; /* wpad asks no one */
	}
	if (!k->hidden && (strcmp(k->security, "open") == 0 || strcmp(k->security, "owe") == 0))
		return 0; /* no passphrase to ask for */
	if (!k->passphrase && !wc_have_tty())
		return 0; /* wpad says NoAgent if it needs a passphrase */
	if (wc_agent_start(c, k->passphrase, &err) == 0) {
		*registered = true;
		return 0;
	}
	if (err.code != WPAD_ERR_ALREADY_EXISTS)
		return wc_report(&err, NULL);
	if (k->passphrase) {
		err.exit = WC_EXIT_BUSY;
		return wc_report(&err, "another agent is registered with wpad, so wpactl cannot hand "
				       "it --passphrase: enter the passphrase in that agent, or stop "
				       "it and run this again");
	}
	fprintf(stderr, "wpactl: another agent is registered with wpad; it will be asked for the "
			"passphrase if one is needed\n");
	return 0;
}

static int connected(struct wc_ctx *c, const struct connect *k, bool already)
{
	if (!c->json) {
		printf("%s to '", already ? "Already connected" : "Connected");
		wc_put_safe(stdout, k->ssid);
		printf("' on %s.\n", k->dev);
		return WC_EXIT_OK;
	}
	struct wc_objects os;
	struct wc_error err;
	if (wc_objects_load(c, &os, &err) < 0)
		return wc_report(&err, NULL);
	const struct wc_object *dev = wc_object_at(&os, k->dev_path);
	struct jw w;
	jw_init(&w, stdout);
	if (dev)
		wc_device_json(&w, &os, dev);
	else
		jw_null(&w);
	jw_finish(&w);
	wc_objects_free(&os);
	return WC_EXIT_OK;
}

static int connect_call(struct wc_ctx *c, struct connect *k)
{
	struct wc_error err;
	bool agent;
	int rc = start_agent(c, k, &agent);
	if (rc)
		return rc;
	DBusMessage *m;
	if (k->hidden) {
		m = wc_new_call(k->dev_path, WC_IFACE_STATION, "ConnectHiddenNetwork");
		if (m && !dbus_message_append_args(m, DBUS_TYPE_STRING, &k->ssid, DBUS_TYPE_INVALID)) {
			dbus_message_unref(m);
			m = NULL;
		}
	} else {
		m = wc_new_call(k->net_path, WC_IFACE_NETWORK, "Connect");
	}
	DBusMessage *reply = wc_call(&c->bus, m, c->long_timeout_ms, &err);
	if (agent)
		wc_agent_stop(c);
	if (!reply && err.exit == WC_EXIT_INTERRUPTED) {
		struct wc_error ignored;
		wc_interrupt_clear();
		wc_call_simple(&c->bus, k->dev_path, WC_IFACE_STATION, "Disconnect", 5000, &ignored);
		return wc_report(&err, "interrupted: the connect to '%s' is cancelled", k->ssid);
	}
	if (reply) {
		dbus_message_unref(reply);
		return connected(c, k, false);
	}
	if (err.code == WPAD_ERR_ALREADY_EXISTS)
		return connected(c, k, true);
	if (strncmp(err.name, "org.freedesktop.DBus.Error.", 27) == 0)
		return wc_report(&err, NULL);
	return connect_failed(k, &err);
}

static int connect_common(struct wc_ctx *c, const struct wc_args *a, bool hidden)
{
	struct connect k = { .ssid = a->pos[1], .hidden = hidden };
	struct wc_objects os;
	const struct wc_object *dev;
	size_t len = strlen(k.ssid);
	if (len == 0 || len > SSID_MAX)
		return wc_usage_error("a network name is 1 to %d bytes; '%s' has %zu", SSID_MAX,
				      k.ssid, len);
	if (a->has[WC_OPT_PASSPHRASE]) {
		k.passphrase = a->val[WC_OPT_PASSPHRASE];
		if (strcmp(k.passphrase, "-") == 0) {
			if (!wc_read_stdin_line(k.pass_buf, sizeof(k.pass_buf)))
				return wc_usage_error("--passphrase -: no line on standard input");
			k.passphrase = k.pass_buf;
		}
		if (!wc_passphrase_ok(k.passphrase))
			return wc_usage_error("a passphrase is 8 to 63 printable ASCII characters, or 64 "
					      "hex digits");
	}
	int rc = wc_load_device(c, a->pos[0], WC_IFACE_STATION, &os, &dev);
	if (rc)
		return rc;
	snprintf(k.dev_path, sizeof(k.dev_path), "%s", dev->path);
	snprintf(k.dev, sizeof(k.dev), "%s", wc_prop_str(dev, WC_IFACE_DEVICE, "Name"));
	if (hidden) {
		wc_objects_free(&os);
	} else {
		rc = find_network(c, &k, a->has[WC_OPT_SECURITY] ? a->val[WC_OPT_SECURITY] : NULL,
				  &os);
		if (rc)
			return rc;
	}
	rc = connect_call(c, &k);
	explicit_bzero(k.pass_buf, sizeof(k.pass_buf));
	return rc;
}

int cmd_station_connect(struct wc_ctx *c, const struct wc_args *a)
{
	return connect_common(c, a, false);
}

int cmd_station_connect_hidden(struct wc_ctx *c, const struct wc_args *a)
{
	return connect_common(c, a, true);
}

/* ---- autoconnect ---- */

int cmd_station_autoconnect(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_error err;
	bool on = strcmp(a->pos[1], "on") == 0;
	char path[256], name[128];
	int rc = wc_device_path(c, a->pos[0], WC_IFACE_STATION, path, sizeof(path), name,
				sizeof(name));
	if (rc)
		return rc;
	if (wc_set_property_bool(&c->bus, path, WC_IFACE_STATION, "AutoConnect", on, &err) < 0)
		return wc_report(&err, NULL);
	if (c->json)
		return wc_show_device(c, name, WC_IFACE_STATION);
	printf("%s %s.\n", name,
	       on ? "joins known networks on its own" : "joins networks only when asked");
	return WC_EXIT_OK;
}

/* ---- disconnect ---- */

int cmd_station_disconnect(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_error err;
	char path[256], name[128];
	int rc = wc_device_path(c, a->pos[0], WC_IFACE_STATION, path, sizeof(path), name,
				sizeof(name));
	if (rc)
		return rc;
	bool was = true;
	if (wc_call_simple(&c->bus, path, WC_IFACE_STATION, "Disconnect", c->long_timeout_ms,
			   &err) < 0) {
		if (err.code != WPAD_ERR_NOT_CONNECTED)
			return wc_report(&err, NULL);
		was = false; /* the state wanted is the state there is */
	}
	if (c->json)
		return wc_show_device(c, name, WC_IFACE_STATION);
	printf("%s %s.\n", name, was ? "is disconnected" : "was not connected");
	return WC_EXIT_OK;
}

/* ---- flush-pmksa ---- */

int cmd_station_flush_pmksa(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_error err;
	char path[256], name[128];
	const char *ssid = a->has[WC_OPT_SSID] ? a->val[WC_OPT_SSID] : "";
	const char *bssid = a->has[WC_OPT_BSSID] ? a->val[WC_OPT_BSSID] : "";
	if (!wc_valid_utf8(ssid)) {
		wc_error_set(&err, WC_EXIT_USAGE, "bad network name");
		return wc_report(&err, "the network name is not valid UTF-8");
	}
	int rc = wc_device_path(c, a->pos[0], WC_IFACE_STATION, path, sizeof(path), name,
				sizeof(name));
	if (rc)
		return rc;
	DBusMessage *m = wc_new_call(path, WC_IFACE_STATION, "FlushPMKSA");
	if (m && !dbus_message_append_args(m, DBUS_TYPE_STRING, &ssid, DBUS_TYPE_STRING, &bssid,
					   DBUS_TYPE_INVALID)) {
		dbus_message_unref(m);
		m = NULL;
	}
	DBusMessage *reply = wc_call(&c->bus, m, c->timeout_ms, &err);
	if (!reply)
		return wc_report(&err, NULL);
	dbus_uint32_t n = 0;
	bool ok = dbus_message_get_args(reply, NULL, DBUS_TYPE_UINT32, &n, DBUS_TYPE_INVALID);
	dbus_message_unref(reply);
	if (!ok) {
		wc_error_set(&err, WC_EXIT_FAILED, "unexpected reply");
		return wc_report(&err, "wpad answered FlushPMKSA with something other than a count");
	}
	if (c->json)
		printf("{\"removed\":%u}\n", (unsigned)n);
	else
		printf("%s: %u cached PMKSA%s removed.\n", name, (unsigned)n, n == 1 ? "" : "s");
	return WC_EXIT_OK;
}
