/* The connection and the wait loop; see bus.h. */
#define _GNU_SOURCE /* pipe2 */
#include "wpactl/bus.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- signals: a flag and a self-pipe the loop polls ---- */

static volatile sig_atomic_t interrupted;
static int sig_pipe[2] = { -1, -1 };

static void on_signal(int signo)
{
	int saved = errno;
	interrupted = signo;
	if (sig_pipe[1] >= 0) {
		ssize_t r = write(sig_pipe[1], "x", 1);
		(void)r;
	}
	errno = saved;
}

void wc_signals_init(void)
{
	struct sigaction sa;
	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		sig_pipe[0] = sig_pipe[1] = -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

bool wc_interrupted(void)
{
	return interrupted != 0;
}

void wc_interrupt_clear(void)
{
	char buf[16];
	interrupted = 0;
	while (sig_pipe[0] >= 0 && read(sig_pipe[0], buf, sizeof(buf)) > 0)
		;
}

/* ---- connection ---- */

bool wc_valid_utf8(const char *s)
{
	return dbus_validate_utf8(s, NULL);
}

void wc_bus_init(struct wc_bus *b, const char *address)
{
	memset(b, 0, sizeof(*b));
	b->watch_fd = -1;
	b->address = address;
}

/* Counts wpad's departures from the bus (its name losing its owner). */
static DBusHandlerResult on_name_owner(DBusConnection *conn, DBusMessage *msg, void *data)
{
	struct wc_bus *b = data;
	const char *name, *old, *new;
	(void)conn;
	if (dbus_message_is_signal(msg, DBUS_INTERFACE_DBUS, "NameOwnerChanged") &&
	    dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &old,
				  DBUS_TYPE_STRING, &new, DBUS_TYPE_INVALID) &&
	    strcmp(name, WC_NAME) == 0 && old[0] != '\0')
		b->wpad_left++;
	return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

static void watch_wpad_owner(struct wc_bus *b)
{
	dbus_bus_add_match(b->conn,
			   "type='signal',sender='" DBUS_SERVICE_DBUS "',member='NameOwnerChanged',"
			   "arg0='" WC_NAME "'",
			   NULL);
	dbus_connection_add_filter(b->conn, on_name_owner, b, NULL);
}

int wc_bus_connect(struct wc_bus *b, struct wc_error *err)
{
	DBusError de;
	const char *address = b->address;
	if (b->conn)
		return 0;
	dbus_error_init(&de);
	if (address) {
		snprintf(b->where, sizeof(b->where), "the bus at %.120s", address);
		b->conn = dbus_connection_open_private(address, &de);
		if (b->conn && !dbus_bus_register(b->conn, &de)) {
			dbus_connection_close(b->conn);
			dbus_connection_unref(b->conn);
			b->conn = NULL;
		}
	} else {
		const char *env = getenv("DBUS_SYSTEM_BUS_ADDRESS");
		snprintf(b->where, sizeof(b->where), "the system bus (%.120s)",
			 env && *env ? env : "unix:path=/run/dbus/system_bus_socket");
		b->conn = dbus_bus_get_private(DBUS_BUS_SYSTEM, &de);
	}
	if (!b->conn) {
		wc_error_from_dbus(err, de.name, de.message);
		err->exit = WC_EXIT_NOT_RUNNING;
		snprintf(err->text, sizeof(err->text),
			 "cannot connect to %s: %.300s; is dbus running? (--bus ADDRESS names another "
			 "bus)",
			 b->where, de.message ? de.message : "no reason given");
		err->name[0] = '\0'; /* our sentence is the headline */
		dbus_error_free(&de);
		return -1;
	}
	dbus_connection_set_exit_on_disconnect(b->conn, FALSE);
	watch_wpad_owner(b);
	return 0;
}

void wc_bus_close(struct wc_bus *b)
{
	if (!b->conn)
		return;
	dbus_connection_flush(b->conn);
	dbus_connection_close(b->conn);
	dbus_connection_unref(b->conn);
	b->conn = NULL;
}

void wc_bus_watch(struct wc_bus *b, int fd, void (*ready)(void *data), void *data)
{
	b->watch_fd = fd;
	b->watch_ready = ready;
	b->watch_data = data;
}

/* ---- the loop ---- */

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void dispatch_all(struct wc_bus *b)
{
	while (dbus_connection_dispatch(b->conn) == DBUS_DISPATCH_DATA_REMAINS)
		;
}

/* Waits up to wait_ms for the bus, the signal pipe or the watched fd. */
static void wait_once(struct wc_bus *b, int wait_ms)
{
	struct pollfd p[3];
	nfds_t n = 0;
	int fd = -1;
	dbus_connection_get_socket(b->conn, &fd);
	if (fd >= 0)
		p[n++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	if (sig_pipe[0] >= 0)
		p[n++] = (struct pollfd){ .fd = sig_pipe[0], .events = POLLIN };
	int watch = b->watch_fd;
	if (watch >= 0)
		p[n++] = (struct pollfd){ .fd = watch, .events = POLLIN };
	if (fd < 0) /* no socket to poll (cannot happen on unix or tcp): read with a wait */
		wait_ms = wait_ms < 0 || wait_ms > 100 ? 100 : wait_ms;
	int r = poll(p, n, wait_ms);
	if (r <= 0)
		return;
	for (nfds_t i = 0; i < n; i++) {
		if (!p[i].revents)
			continue;
		if (p[i].fd == fd)
			dbus_connection_read_write(b->conn, 0);
		else if (p[i].fd == watch && b->watch_fd == watch && b->watch_ready)
			b->watch_ready(b->watch_data);
	}
	if (fd < 0)
		dbus_connection_read_write(b->conn, 0);
}

int wc_bus_run(struct wc_bus *b, bool (*done)(void *data), void *data, int timeout_ms,
	       struct wc_error *err)
{
	long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	if (wc_bus_connect(b, err) < 0)
		return -1;
	for (;;) {
		dispatch_all(b);
		if (done && done(data))
			return 0;
		if (interrupted) {
			wc_error_set(err, WC_EXIT_INTERRUPTED, "interrupted");
			return -1;
		}
		if (!dbus_connection_get_is_connected(b->conn)) {
			wc_error_from_dbus(err, DBUS_ERROR_DISCONNECTED, "the bus closed the connection");
			return -1;
		}
		int wait = -1;
		if (deadline >= 0) {
			long long left = deadline - now_ms();
			if (left <= 0) {
				char text[96];
				snprintf(text, sizeof(text), "no answer within %d s", timeout_ms / 1000);
				wc_error_from_dbus(err, DBUS_ERROR_NO_REPLY, text);
				return -1;
			}
			wait = left > 1000000 ? 1000000 : (int)left;
		}
		dbus_connection_flush(b->conn);
		wait_once(b, wait);
	}
}

struct in_flight {
	DBusPendingCall *p;
	const struct wc_bus *b;
	unsigned wpad_left; /* b->wpad_left when the call went out */
};

static bool wpad_left_since(const struct in_flight *f)
{
	return f->b->wpad_left != f->wpad_left;
}

/* Answered, or nobody is left to answer. */
static bool pending_done(void *data)
{
	const struct in_flight *f = data;
	return dbus_pending_call_get_completed(f->p) || wpad_left_since(f);
}

/* A NoReply may be the bus saying that wpad went away (it answers for a
 * recipient that disconnected). The bus announces the name's loss before
 * that, or at the latest before it answers a call made after it; one
 * round trip therefore brings in any NameOwnerChanged still on the way. */
static bool wpad_gone_before_reply(struct wc_bus *b, struct in_flight *f)
{
	if (wpad_left_since(f))
		return true;
	DBusMessage *ping = dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS,
							 DBUS_INTERFACE_DBUS, "GetId");
	if (ping) {
		DBusMessage *r = dbus_connection_send_with_reply_and_block(b->conn, ping, 5000,
									   NULL);
		dbus_message_unref(ping);
		if (r)
			dbus_message_unref(r);
		dispatch_all(b);
	}
	return wpad_left_since(f);
}

static void wpad_gone_error(struct wc_error *err)
{
	wc_error_set(err, WC_EXIT_NOT_RUNNING,
		     "wpad stopped before it answered (it left the bus while the call was in "
		     "flight): see its log (`journalctl -u wpad`); start it again with "
		     "`systemctl start wpad`");
}

/* The error of an error reply. */
static void error_of_reply(DBusMessage *reply, struct wc_error *err)
{
	DBusError de;
	dbus_error_init(&de);
	dbus_set_error_from_message(&de, reply);
	wc_error_from_dbus(err, de.name, de.message);
	dbus_error_free(&de);
}

DBusMessage *wc_call(struct wc_bus *b, DBusMessage *call, int timeout_ms, struct wc_error *err)
{
	DBusPendingCall *p = NULL;
	if (!call) {
		wc_error_set(err, WC_EXIT_FAILED, "out of memory");
		return NULL;
	}
	if (wc_bus_connect(b, err) < 0) {
		dbus_message_unref(call);
		return NULL;
	}
	bool sent = dbus_connection_send_with_reply(b->conn, call, &p,
						    timeout_ms < 0 ? DBUS_TIMEOUT_INFINITE
								   : timeout_ms);
	dbus_message_unref(call);
	if (!sent || !p) {
		wc_error_from_dbus(err, DBUS_ERROR_DISCONNECTED, "the bus connection is closed");
		return NULL;
	}
	struct in_flight f = { .p = p, .b = b, .wpad_left = b->wpad_left };
	int ran = wc_bus_run(b, pending_done, &f, timeout_ms, err);
	DBusMessage *reply = ran == 0 && dbus_pending_call_get_completed(p)
				     ? dbus_pending_call_steal_reply(p)
				     : NULL;
	if (!reply)
		dbus_pending_call_cancel(p);
	dbus_pending_call_unref(p);
	bool no_reply = !reply ? ran == 0 || err->exit == WC_EXIT_TIMEOUT
			       : dbus_message_is_error(reply, DBUS_ERROR_NO_REPLY);
	/* No answer: a dead wpad (9) is not a stuck one (7). */
	if (no_reply && wpad_gone_before_reply(b, &f)) {
		if (reply)
			dbus_message_unref(reply);
		wpad_gone_error(err);
		return NULL;
	}
	if (ran < 0)
		return NULL;
	if (!reply) {
		wc_error_set(err, WC_EXIT_FAILED, "no reply");
		return NULL;
	}
	if (dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR) {
		error_of_reply(reply, err);
		dbus_message_unref(reply);
		return NULL;
	}
	return reply;
}

DBusMessage *wc_new_call(const char *path, const char *iface, const char *member)
{
	return dbus_message_new_method_call(WC_NAME, path, iface, member);
}

int wc_call_simple(struct wc_bus *b, const char *path, const char *iface, const char *member,
		   int timeout_ms, struct wc_error *err)
{
	DBusMessage *reply = wc_call(b, wc_new_call(path, iface, member), timeout_ms, err);
	if (!reply)
		return -1;
	dbus_message_unref(reply);
	return 0;
}

DBusMessage *wc_get_property(struct wc_bus *b, const char *path, const char *iface,
			     const char *name, DBusMessageIter *value, struct wc_error *err)
{
	DBusMessage *m = wc_new_call(path, WC_IFACE_PROPERTIES, "Get");
	if (m && !dbus_message_append_args(m, DBUS_TYPE_STRING, &iface, DBUS_TYPE_STRING, &name,
					   DBUS_TYPE_INVALID)) {
		dbus_message_unref(m);
		m = NULL;
	}
	DBusMessage *reply = wc_call(b, m, WC_DEFAULT_TIMEOUT_MS, err);
	DBusMessageIter it;
	if (!reply)
		return NULL;
	if (!dbus_message_iter_init(reply, &it) ||
	    dbus_message_iter_get_arg_type(&it) != DBUS_TYPE_VARIANT) {
		wc_error_set(err, WC_EXIT_FAILED, "wpad answered Get(%s.%s) with %s", iface, name,
			     dbus_message_get_signature(reply));
		dbus_message_unref(reply);
		return NULL;
	}
	dbus_message_iter_recurse(&it, value);
	return reply;
}

/* Properties.Set of one basic value. */
static int set_property(struct wc_bus *b, const char *path, const char *iface, const char *name,
			int type, const void *value, struct wc_error *err)
{
	DBusMessage *m = wc_new_call(path, WC_IFACE_PROPERTIES, "Set");
	DBusMessageIter it, v;
	char sig[2] = { (char)type, '\0' };
	bool ok = m != NULL;
	if (ok) {
		dbus_message_iter_init_append(m, &it);
		ok = dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &iface) &&
		     dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &name) &&
		     dbus_message_iter_open_container(&it, DBUS_TYPE_VARIANT, sig, &v) &&
		     dbus_message_iter_append_basic(&v, type, value) &&
		     dbus_message_iter_close_container(&it, &v);
	}
	if (!ok && m) {
		dbus_message_unref(m);
		m = NULL;
	}
	DBusMessage *reply = wc_call(b, m, WC_DEFAULT_TIMEOUT_MS, err);
	if (!reply)
		return -1;
	dbus_message_unref(reply);
	return 0;
}

int wc_set_property_bool(struct wc_bus *b, const char *path, const char *iface,
			 const char *name, bool on, struct wc_error *err)
{
	dbus_bool_t val = on;
	return set_property(b, path, iface, name, DBUS_TYPE_BOOLEAN, &val, err);
}

int wc_set_property_str(struct wc_bus *b, const char *path, const char *iface,
			const char *name, const char *value, struct wc_error *err)
{
	return set_property(b, path, iface, name, DBUS_TYPE_STRING, &value, err);
}
