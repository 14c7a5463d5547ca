/* The agent and `wpactl agent`; see agent.h. */
#include "wpactl/agent.h"

#include "wpactl/bus.h"
#include "wpactl/commands.h"
#include "wpactl/output.h"
#include "wpactl/wpactl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define QUEUE_MAX 8
#define LINE_MAX_LEN 512
#define TRIES_MAX 3
#define CANCELED "org.wpad1.Agent.Error.Canceled"

enum ask { ASK_PASSPHRASE, ASK_USER_PASSWORD, ASK_KEY_PASSPHRASE };

struct request {
	DBusMessage *msg; /* the call to answer */
	enum ask ask;
	char network[160]; /* the network's name, for the prompt */
	bool ready;        /* the name is known */
	DBusPendingCall *lookup;
};

static struct {
	struct wc_ctx *c;
	bool exported;
	bool registered;
	const char *preset;
	char owner[256]; /* wpad's unique name: the only caller answered */
	struct request *q[QUEUE_MAX];
	size_t n;
	/* The prompt for q[0]. */
	bool prompting;
	int stage; /* ASK_USER_PASSWORD: 0 user name, 1 password */
	int tty;
	struct termios saved;
	bool echo_off;
	char line[LINE_MAX_LEN];
	size_t len;
	bool overflow;
	char user[LINE_MAX_LEN];
	int tries;
	struct wc_agent_stats st;
} ag = { .tty = -1 };

static const char introspection[] =
	"<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
	" \"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"
	"<node><interface name=\"org.wpad1.Agent\">"
	"<method name=\"RequestPassphrase\"><arg name=\"network\" type=\"o\" direction=\"in\"/>"
	"<arg type=\"s\" direction=\"out\"/></method>"
	"<method name=\"RequestPrivateKeyPassphrase\"><arg name=\"network\" type=\"o\" "
	"direction=\"in\"/><arg type=\"s\" direction=\"out\"/></method>"
	"<method name=\"RequestUserNameAndPassword\"><arg name=\"network\" type=\"o\" "
	"direction=\"in\"/><arg type=\"s\" direction=\"out\"/><arg type=\"s\" "
	"direction=\"out\"/></method>"
	"<method name=\"Cancel\"><arg name=\"reason\" type=\"s\" direction=\"in\"/></method>"
	"<method name=\"Release\"/></interface>"
	"<interface name=\"org.freedesktop.DBus.Introspectable\"><method name=\"Introspect\">"
	"<arg type=\"s\" direction=\"out\"/></method></interface></node>\n";

/* ---- small helpers ---- */

bool wc_passphrase_ok(const char *p)
{
	size_t len = strlen(p);
	if (len == 64) {
		for (size_t i = 0; i < len; i++)
			if (!strchr("0123456789abcdefABCDEF", p[i]))
				return false;
		return true;
	}
	if (len < 8 || len > 63)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)p[i] < 32 || (unsigned char)p[i] > 126)
			return false;
	return true;
}

bool wc_have_tty(void)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

bool wc_read_stdin_line(char *out, size_t cap)
{
	if (!fgets(out, (int)cap, stdin))
		return false;
	out[strcspn(out, "\r\n")] = '\0';
	return true;
}

const struct wc_agent_stats *wc_agent_stats(void)
{
	return &ag.st;
}

static void tty_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void tty_say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	if (ag.tty < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ssize_t r = write(ag.tty, buf, strlen(buf));
	(void)r;
}

static void echo(bool on)
{
	struct termios t;
	if (ag.tty < 0)
		return;
	if (!ag.echo_off && !on) {
		if (tcgetattr(ag.tty, &ag.saved) < 0)
			return;
		t = ag.saved;
		t.c_lflag &= ~(tcflag_t)(ECHO | ECHOE | ECHOK);
		t.c_lflag |= ICANON | ECHONL;
		if (tcsetattr(ag.tty, TCSAFLUSH, &t) == 0)
			ag.echo_off = true;
	} else if (ag.echo_off && on) {
		tcsetattr(ag.tty, TCSAFLUSH, &ag.saved);
		ag.echo_off = false;
	}
}

static void wipe(void)
{
	explicit_bzero(ag.line, sizeof(ag.line));
	explicit_bzero(ag.user, sizeof(ag.user));
	ag.len = 0;
	ag.overflow = false;
}

/* ---- answering ---- */

static void send_reply(DBusMessage *reply)
{
	if (reply) {
		dbus_connection_send(ag.c->bus.conn, reply, NULL);
		dbus_message_unref(reply);
	}
}

static void reply_error(DBusMessage *msg, const char *name, const char *text)
{
	if (!dbus_message_get_no_reply(msg))
		send_reply(dbus_message_new_error(msg, name, text));
}

static void request_free(struct request *r)
{
	if (r->lookup) {
		dbus_pending_call_cancel(r->lookup);
		dbus_pending_call_unref(r->lookup);
	}
	dbus_message_unref(r->msg);
	free(r);
}

static void start_prompt(void);

/* Ends the prompt of q[0] (if any), drops q[0], and asks the next. */
static void pop(void)
{
	if (ag.n == 0)
		return;
	if (ag.prompting) {
		echo(true);
		wc_bus_watch(&ag.c->bus, -1, NULL, NULL);
		ag.prompting = false;
	}
	wipe();
	request_free(ag.q[0]);
	memmove(ag.q, ag.q + 1, (ag.n - 1) * sizeof(ag.q[0]));
	ag.n--;
	if (ag.n && ag.q[0]->ready)
		start_prompt();
}

static void cancel_first(const char *why)
{
	if (ag.n == 0)
		return;
	reply_error(ag.q[0]->msg, CANCELED, why);
	pop();
}

static void answer(const char *a, const char *b)
{
	ag.st.answered++;
	DBusMessage *reply = dbus_message_new_method_return(ag.q[0]->msg);
	if (reply &&
	    !dbus_message_append_args(reply, DBUS_TYPE_STRING, &a, b ? DBUS_TYPE_STRING : DBUS_TYPE_INVALID,
				      &b, DBUS_TYPE_INVALID)) {
		dbus_message_unref(reply);
		reply = NULL;
	}
	send_reply(reply);
	pop();
}

/* ---- the prompt ---- */

static void ask_line(void)
{
	struct request *r = ag.q[0];
	bool secret = !(r->ask == ASK_USER_PASSWORD && ag.stage == 0);
	echo(!secret);
	ag.len = 0;
	ag.overflow = false;
	switch (r->ask) {
	case ASK_PASSPHRASE:
		tty_say("Passphrase for '%s': ", r->network);
		break;
	case ASK_KEY_PASSPHRASE:
		tty_say("Private key passphrase for '%s': ", r->network);
		break;
	case ASK_USER_PASSWORD:
		if (ag.stage == 0)
			tty_say("User name for '%s': ", r->network);
		else
			tty_say("Password for '%s': ", r->network);
		break;
	}
}

/* A whole line was typed. */
static void line_done(void)
{
	struct request *r = ag.q[0];
	if (ag.overflow) {
		tty_say("wpactl: that is longer than %zu characters; try again\n",
			sizeof(ag.line) - 1);
	} else if (r->ask == ASK_USER_PASSWORD && ag.stage == 0) {
		snprintf(ag.user, sizeof(ag.user), "%s", ag.line);
		ag.stage = 1;
		ask_line();
		return;
	} else if (r->ask == ASK_USER_PASSWORD) {
		answer(ag.user, ag.line);
		return;
	} else if (r->ask == ASK_KEY_PASSPHRASE || wc_passphrase_ok(ag.line)) {
		answer(ag.line, NULL);
		return;
	} else {
		tty_say("wpactl: a passphrase is 8 to 63 printable ASCII characters, or 64 hex "
			"digits\n");
	}
	if (++ag.tries >= TRIES_MAX) {
		ag.st.user_cancelled = true;
		tty_say("wpactl: giving up after %d tries\n", TRIES_MAX);
		cancel_first("no valid passphrase was typed");
		return;
	}
	explicit_bzero(ag.line, sizeof(ag.line));
	ask_line();
}

static void on_tty(void *data)
{
	char buf[256];
	ssize_t n = read(ag.tty, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) { /* Ctrl-D, or the terminal went away */
		ag.st.user_cancelled = true;
		tty_say("\n");
		cancel_first("the user gave no answer");
		return;
	}
	for (ssize_t i = 0; i < n && ag.prompting; i++) {
		if (buf[i] == '\n' || buf[i] == '\r') {
			ag.line[ag.len] = '\0';
			line_done();
			continue;
		}
		if (ag.len + 1 < sizeof(ag.line))
			ag.line[ag.len++] = buf[i];
		else
			ag.overflow = true;
	}
	explicit_bzero(buf, sizeof(buf));
}

static void start_prompt(void)
{
	if (ag.prompting || ag.n == 0)
		return;
	if (ag.tty < 0)
		ag.tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (ag.tty < 0) {
		ag.st.no_tty = true;
		cancel_first("wpactl has no terminal to ask on");
		return;
	}
	ag.prompting = true;
	ag.stage = 0;
	ag.tries = 0;
	wc_bus_watch(&ag.c->bus, ag.tty, on_tty, NULL);
	ask_line();
}

/* ---- requests ---- */

/* The network's name from its path's last element (HEXSSID_SEC), when
 * Get(Name) failed. */
static void name_from_path(struct request *r, const char *path)
{
	const char *el = strrchr(path, '/');
	size_t n = 0;
	el = el ? el + 1 : path;
	for (; el[0] && el[1] && el[0] != '_' && n + 1 < sizeof(r->network); el += 2) {
		unsigned v;
		if (sscanf(el, "%2x", &v) != 1)
			break;
		r->network[n++] = (char)v;
	}
	r->network[n] = '\0';
	if (n == 0)
		snprintf(r->network, sizeof(r->network), "%s", path);
	char safe[sizeof(r->network)];
	wc_safe(safe, sizeof(safe), r->network);
	snprintf(r->network, sizeof(r->network), "%s", safe);
}

static void on_name(DBusPendingCall *p, void *data)
{
	struct request *r = data;
	DBusMessage *reply = dbus_pending_call_steal_reply(p);
	DBusMessageIter it, v;
	const char *name = NULL, *path = NULL;
	dbus_message_get_args(r->msg, NULL, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID);
	if (reply && dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_METHOD_RETURN &&
	    dbus_message_iter_init(reply, &it) &&
	    dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_VARIANT) {
		dbus_message_iter_recurse(&it, &v);
		if (dbus_message_iter_get_arg_type(&v) == DBUS_TYPE_STRING)
			dbus_message_iter_get_basic(&v, &name);
	}
	if (name)
		wc_safe(r->network, sizeof(r->network), name);
	else
		name_from_path(r, path ? path : "?");
	if (reply)
		dbus_message_unref(reply);
	dbus_pending_call_unref(r->lookup);
	r->lookup = NULL;
	r->ready = true;
	if (ag.n && ag.q[0] == r)
		start_prompt();
}

static void lookup_name(struct request *r, const char *path)
{
	static const char *iface = WC_IFACE_NETWORK, *prop = "Name";
	DBusMessage *m = wc_new_call(path, WC_IFACE_PROPERTIES, "Get");
	if (m && dbus_message_append_args(m, DBUS_TYPE_STRING, &iface, DBUS_TYPE_STRING, &prop,
					  DBUS_TYPE_INVALID) &&
	    dbus_connection_send_with_reply(ag.c->bus.conn, m, &r->lookup, 5000) && r->lookup &&
	    dbus_pending_call_set_notify(r->lookup, on_name, r, NULL)) {
		dbus_message_unref(m);
		return;
	}
	if (m)
		dbus_message_unref(m);
	if (r->lookup)
		dbus_pending_call_unref(r->lookup);
	r->lookup = NULL;
	name_from_path(r, path);
	r->ready = true;
}

static void on_request(DBusMessage *msg, enum ask ask)
{
	const char *path;
	if (!dbus_message_get_args(msg, NULL, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID)) {
		reply_error(msg, DBUS_ERROR_INVALID_ARGS, "expected (o network)");
		return;
	}
	ag.st.asked++;
	if (ag.preset) {
		if (ask != ASK_PASSPHRASE) {
			reply_error(msg, CANCELED, "wpactl was given a passphrase, not a user name");
			return;
		}
		const char *p = ag.preset;
		DBusMessage *reply = dbus_message_new_method_return(msg);
		if (reply && !dbus_message_append_args(reply, DBUS_TYPE_STRING, &p, DBUS_TYPE_INVALID)) {
			dbus_message_unref(reply);
			reply = NULL;
		}
		send_reply(reply);
		ag.st.answered++;
		return;
	}
	struct request *r = ag.n < QUEUE_MAX ? calloc(1, sizeof(*r)) : NULL;
	if (!r) {
		reply_error(msg, CANCELED, "too many requests at once");
		return;
	}
	r->msg = dbus_message_ref(msg);
	r->ask = ask;
	ag.q[ag.n++] = r;
	lookup_name(r, path);
	if (r->ready && ag.q[0] == r)
		start_prompt();
}

static void on_cancel(DBusMessage *msg)
{
	const char *reason = "";
	dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &reason, DBUS_TYPE_INVALID);
	if (ag.n) {
		if (ag.prompting) {
			char safe[128];
			wc_safe(safe, sizeof(safe), reason);
			tty_say("\nwpactl: wpad withdrew the request (%s)\n", safe);
		}
		cancel_first("withdrawn by wpad");
	}
	if (!dbus_message_get_no_reply(msg))
		send_reply(dbus_message_new_method_return(msg));
}

static DBusHandlerResult on_message(DBusConnection *conn, DBusMessage *msg, void *data)
{
	if (dbus_message_is_method_call(msg, DBUS_INTERFACE_INTROSPECTABLE, "Introspect")) {
		const char *xml = introspection;
		DBusMessage *reply = dbus_message_new_method_return(msg);
		if (reply)
			dbus_message_append_args(reply, DBUS_TYPE_STRING, &xml, DBUS_TYPE_INVALID);
		send_reply(reply);
		return DBUS_HANDLER_RESULT_HANDLED;
	}
	if (dbus_message_get_type(msg) != DBUS_MESSAGE_TYPE_METHOD_CALL ||
	    !dbus_message_has_interface(msg, WC_IFACE_AGENT))
		return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
	const char *sender = dbus_message_get_sender(msg);
	if (!sender || !ag.owner[0] || strcmp(sender, ag.owner) != 0) {
		reply_error(msg, DBUS_ERROR_ACCESS_DENIED, "only wpad may use this agent");
		return DBUS_HANDLER_RESULT_HANDLED;
	}
	const char *m = dbus_message_get_member(msg);
	bool o = dbus_message_has_signature(msg, "o");
	if (o && strcmp(m, "RequestPassphrase") == 0)
		on_request(msg, ASK_PASSPHRASE);
	else if (o && strcmp(m, "RequestPrivateKeyPassphrase") == 0)
		on_request(msg, ASK_KEY_PASSPHRASE);
	else if (o && strcmp(m, "RequestUserNameAndPassword") == 0)
		on_request(msg, ASK_USER_PASSWORD);
	else if (strcmp(m, "Cancel") == 0)
		on_cancel(msg);
	else if (strcmp(m, "Release") == 0) {
		ag.st.released = true;
		ag.registered = false;
		while (ag.n)
			cancel_first("the agent was released");
		if (!dbus_message_get_no_reply(msg))
			send_reply(dbus_message_new_method_return(msg));
	} else {
		reply_error(msg, DBUS_ERROR_UNKNOWN_METHOD, "no such method on org.wpad1.Agent");
	}
	return DBUS_HANDLER_RESULT_HANDLED;
}

/* ---- registration ---- */

static int wpad_owner(struct wc_ctx *c, struct wc_error *err)
{
	const char *name = WC_NAME, *owner;
	DBusMessage *m = dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS,
						      DBUS_INTERFACE_DBUS, "GetNameOwner");
	if (m && !dbus_message_append_args(m, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID)) {
		dbus_message_unref(m);
		m = NULL;
	}
	DBusMessage *reply = wc_call(&c->bus, m, c->timeout_ms, err);
	if (!reply)
		return -1;
	if (!dbus_message_get_args(reply, NULL, DBUS_TYPE_STRING, &owner, DBUS_TYPE_INVALID))
		owner = "";
	snprintf(ag.owner, sizeof(ag.owner), "%s", owner);
	dbus_message_unref(reply);
	return 0;
}

static int register_agent(struct wc_ctx *c, const char *member, struct wc_error *err)
{
	const char *path = WC_AGENT_PATH;
	DBusMessage *m = wc_new_call(WC_ROOT, WC_IFACE_MANAGER, member);
	if (m && !dbus_message_append_args(m, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID)) {
		dbus_message_unref(m);
		m = NULL;
	}
	DBusMessage *reply = wc_call(&c->bus, m, c->timeout_ms, err);
	if (!reply)
		return -1;
	dbus_message_unref(reply);
	return 0;
}

int wc_agent_start(struct wc_ctx *c, const char *preset, struct wc_error *err)
{
	static const DBusObjectPathVTable vtable = { .message_function = on_message };
	ag.c = c;
	ag.preset = preset;
	ag.st.released = false;
	if (wpad_owner(c, err) < 0)
		return -1;
	if (!ag.exported) {
		if (!dbus_connection_register_object_path(c->bus.conn, WC_AGENT_PATH, &vtable, NULL)) {
			wc_error_set(err, WC_EXIT_FAILED, "cannot export the agent at %s",
				     WC_AGENT_PATH);
			return -1;
		}
		ag.exported = true;
	}
	if (register_agent(c, "RegisterAgent", err) < 0)
		return -1;
	ag.registered = true;
	return 0;
}

void wc_agent_stop(struct wc_ctx *c)
{
	struct wc_error err;
	if (ag.prompting)
		tty_say("\n"); /* the typed line never ended */
	while (ag.n)
		cancel_first("wpactl is ending");
	echo(true);
	if (ag.registered && c->bus.conn && dbus_connection_get_is_connected(c->bus.conn)) {
		wc_interrupt_clear(); /* let the last call through after Ctrl-C */
		register_agent(c, "UnregisterAgent", &err);
	}
	ag.registered = false;
	if (ag.tty >= 0)
		close(ag.tty);
	ag.tty = -1;
	ag.preset = NULL;
}

/* ---- wpactl agent ---- */

static struct {
	bool owner_changed;
	bool running;
} watch;

static DBusHandlerResult on_owner_changed(DBusConnection *conn, DBusMessage *msg, void *data)
{
	const char *name, *old, *new;
	if (dbus_message_is_signal(msg, DBUS_INTERFACE_DBUS, "NameOwnerChanged") &&
	    dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &old,
				  DBUS_TYPE_STRING, &new, DBUS_TYPE_INVALID) &&
	    strcmp(name, WC_NAME) == 0) {
		watch.owner_changed = true;
		watch.running = new[0] != '\0';
	}
	return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

static bool agent_wake(void *data)
{
	return watch.owner_changed || ag.st.released;
}

int cmd_agent(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_error err;
	if (!wc_have_tty()) {
		wc_error_set(&err, WC_EXIT_FAILED, "no terminal");
		return wc_report(&err, "wpactl agent asks for passphrases on a terminal, and it has "
				       "none: run it in one");
	}
	if (wc_bus_connect(&c->bus, &err) < 0)
		return wc_report(&err, NULL);
	dbus_bus_add_match(c->bus.conn,
			   "type='signal',sender='" DBUS_SERVICE_DBUS "',member='NameOwnerChanged',"
			   "arg0='" WC_NAME "'",
			   NULL);
	dbus_connection_add_filter(c->bus.conn, on_owner_changed, NULL, NULL);
	if (wc_agent_start(c, NULL, &err) < 0) {
		if (err.code == WPAD_ERR_ALREADY_EXISTS) {
			err.exit = WC_EXIT_BUSY;
			return wc_report(&err, "another agent is registered with wpad and only one "
					       "can be: stop it first");
		}
		return wc_report(&err, NULL);
	}
	printf("Agent registered with wpad: passphrase requests are asked here. Ctrl-C ends.\n");
	fflush(stdout);
	for (;;) {
		if (wc_bus_run(&c->bus, agent_wake, NULL, -1, &err) < 0)
			break;
		if (ag.st.released && !watch.owner_changed) {
			printf("wpad released the agent (it is stopping); waiting for it to start "
			       "again.\n");
			ag.st.released = false;
		}
		if (!watch.owner_changed)
			continue;
		watch.owner_changed = false;
		ag.registered = false;
		if (!watch.running) {
			printf("wpad stopped; waiting for it to start again.\n");
		} else if (wc_agent_start(c, NULL, &err) == 0) {
			printf("wpad started; agent registered again.\n");
		} else {
			wc_report(&err, "wpad started again, but the agent could not register");
		}
		fflush(stdout);
	}
	wc_agent_stop(c);
	if (err.exit == WC_EXIT_INTERRUPTED)
		return WC_EXIT_OK; /* Ctrl-C is how it ends */
	return wc_report(&err, NULL);
}
