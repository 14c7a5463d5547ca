/* The bus connection on the event loop; see bus.h. */
#define LOG_TAG "dbus"
#include "dbus/bus.h"

#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "dbus/object.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WATCHES_PER_FD 4
#define MAX_NAME_LISTENERS 4
#define DISPATCH_BATCH 64

/* The watches of one file descriptor, behind one loop_io. */
struct fd_watch {
	int fd;
	struct loop_io *io;
	DBusWatch *watches[MAX_WATCHES_PER_FD];
	size_t n;
	struct fd_watch *next;
};

static struct {
	struct loop *loop;
	DBusConnection *conn;
	struct fd_watch *fds;
	struct loop_idle *dispatch;
	wdb_name_gone_fn name_gone[MAX_NAME_LISTENERS];
	size_t n_name_gone;
} bus;

DBusConnection *wdb_bus_connection(void)
{
	return bus.conn;
}

struct loop *wdb_bus_loop(void)
{
	return bus.loop;
}

const char *wdb_bus_unique_name(void)
{
	const char *n = bus.conn ? dbus_bus_get_unique_name(bus.conn) : NULL;
	return n ? n : "";
}

/* ---- watches ---- */

static struct fd_watch *fd_watch_find(int fd)
{
	for (struct fd_watch *f = bus.fds; f; f = f->next)
		if (f->fd == fd)
			return f;
	return NULL;
}

static bool watch_registered(DBusWatch *w)
{
	struct fd_watch *f = fd_watch_find(dbus_watch_get_unix_fd(w));
	for (size_t i = 0; f && i < f->n; i++)
		if (f->watches[i] == w)
			return true;
	return false;
}

static void fd_watch_update(struct fd_watch *f)
{
	uint32_t events = 0;
	for (size_t i = 0; i < f->n; i++) {
		if (!dbus_watch_get_enabled(f->watches[i]))
			continue;
		unsigned flags = dbus_watch_get_flags(f->watches[i]);
		if (flags & DBUS_WATCH_READABLE)
			events |= EPOLLIN;
		if (flags & DBUS_WATCH_WRITABLE)
			events |= EPOLLOUT;
	}
	loop_io_set_events(f->io, events);
}

static unsigned events_to_flags(uint32_t events)
{
	unsigned flags = 0;
	if (events & EPOLLIN)
		flags |= DBUS_WATCH_READABLE;
	if (events & EPOLLOUT)
		flags |= DBUS_WATCH_WRITABLE;
	if (events & EPOLLHUP)
		flags |= DBUS_WATCH_HANGUP;
	if (events & EPOLLERR)
		flags |= DBUS_WATCH_ERROR;
	return flags;
}

static void fd_ready(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct fd_watch *f = data;
	DBusWatch *snap[MAX_WATCHES_PER_FD];
	size_t n = f->n;
	unsigned got = events_to_flags(events);
	memcpy(snap, f->watches, n * sizeof(snap[0]));
	/* Handling one watch may remove (and free) the others, and f too. */
	for (size_t i = 0; i < n; i++) {
		if (!watch_registered(snap[i]) || !dbus_watch_get_enabled(snap[i]))
			continue;
		unsigned want = dbus_watch_get_flags(snap[i]) | DBUS_WATCH_HANGUP | DBUS_WATCH_ERROR;
		if (got & want)
			dbus_watch_handle(snap[i], got & want);
	}
	if (bus.dispatch)
		loop_idle_schedule(bus.dispatch);
}

static dbus_bool_t add_watch(DBusWatch *w, void *data)
{
	int fd = dbus_watch_get_unix_fd(w);
	struct fd_watch *f = fd_watch_find(fd);
	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f)
			return FALSE;
		f->fd = fd;
		f->io = loop_io_new(bus.loop, fd, 0, fd_ready, f);
		if (!f->io) {
			free(f);
			return FALSE;
		}
		f->next = bus.fds;
		bus.fds = f;
	}
	if (f->n == MAX_WATCHES_PER_FD)
		return FALSE;
	f->watches[f->n++] = w;
	fd_watch_update(f);
	return TRUE;
}

static void remove_watch(DBusWatch *w, void *data)
{
	for (struct fd_watch **pp = &bus.fds; *pp; pp = &(*pp)->next) {
		struct fd_watch *f = *pp;
		for (size_t i = 0; i < f->n; i++) {
			if (f->watches[i] != w)
				continue;
			f->watches[i] = f->watches[--f->n];
			if (f->n == 0) {
				*pp = f->next;
				loop_io_free(f->io);
				free(f);
			} else {
				fd_watch_update(f);
			}
			return;
		}
	}
}

static void toggle_watch(DBusWatch *w, void *data)
{
	struct fd_watch *f = fd_watch_find(dbus_watch_get_unix_fd(w));
	if (f)
		fd_watch_update(f);
}

/* ---- timeouts ---- */

static void timeout_fired(struct loop_timer *t, void *data)
{
	DBusTimeout *to = data;
	/* libdbus timeouts repeat until removed or disabled: re-arm first,
	 * since handling may remove (and free) this one. */
	loop_timer_arm_ms(t, (uint64_t)dbus_timeout_get_interval(to));
	dbus_timeout_handle(to);
	if (bus.dispatch)
		loop_idle_schedule(bus.dispatch);
}

static void timeout_arm(DBusTimeout *to)
{
	struct loop_timer *t = dbus_timeout_get_data(to);
	if (!t)
		return;
	if (dbus_timeout_get_enabled(to))
		loop_timer_arm_ms(t, (uint64_t)dbus_timeout_get_interval(to));
	else
		loop_timer_disarm(t);
}

static dbus_bool_t add_timeout(DBusTimeout *to, void *data)
{
	struct loop_timer *t = loop_timer_new(bus.loop, timeout_fired, to);
	if (!t)
		return FALSE;
	dbus_timeout_set_data(to, t, NULL);
	timeout_arm(to);
	return TRUE;
}

static void remove_timeout(DBusTimeout *to, void *data)
{
	struct loop_timer *t = dbus_timeout_get_data(to);
	dbus_timeout_set_data(to, NULL, NULL);
	loop_timer_free(t);
}

static void toggle_timeout(DBusTimeout *to, void *data)
{
	timeout_arm(to);
}

/* ---- dispatch ---- */

static void dispatch_idle(struct loop_idle *idle, void *data)
{
	for (int i = 0; i < DISPATCH_BATCH; i++)
		if (!bus.conn || dbus_connection_dispatch(bus.conn) != DBUS_DISPATCH_DATA_REMAINS)
			return;
	loop_idle_schedule(idle); /* let the rest of the daemon run too */
}

/* At shutdown: every call already on its way to us is read and dispatched
 * now, so its caller gets an answer (the closing handler's Aborted) rather
 * than NoReply when the connection goes. Bounded: what arrives meanwhile
 * waits for the next round at most DRAIN_ROUNDS times. */
#define DRAIN_ROUNDS 8
void wdb_bus_drain(void)
{
	for (int r = 0; r < DRAIN_ROUNDS && bus.conn && dbus_connection_get_is_connected(bus.conn);
	     r++) {
		if (!dbus_connection_read_write(bus.conn, 0))
			return;
		if (dbus_connection_get_dispatch_status(bus.conn) != DBUS_DISPATCH_DATA_REMAINS)
			return;
		while (bus.conn && dbus_connection_dispatch(bus.conn) == DBUS_DISPATCH_DATA_REMAINS)
			;
	}
}

static void dispatch_status(DBusConnection *c, DBusDispatchStatus status, void *data)
{
	if (status == DBUS_DISPATCH_DATA_REMAINS && bus.dispatch)
		loop_idle_schedule(bus.dispatch);
}

static void wakeup_main(void *data)
{
	if (bus.dispatch)
		loop_idle_schedule(bus.dispatch);
}

/* ---- bus signals ---- */

static void name_owner_changed(DBusMessage *m)
{
	const char *name, *old_owner, *new_owner;
	if (!dbus_message_get_args(m, NULL, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &old_owner,
				   DBUS_TYPE_STRING, &new_owner, DBUS_TYPE_INVALID))
		return;
	if (name[0] != ':' || new_owner[0] != '\0')
		return;
	for (size_t i = 0; i < bus.n_name_gone; i++)
		bus.name_gone[i](name);
}

static DBusHandlerResult bus_filter(DBusConnection *c, DBusMessage *m, void *data)
{
	if (dbus_message_is_signal(m, DBUS_INTERFACE_LOCAL, "Disconnected")) {
		log_error("the D-Bus connection was closed by the bus; stopping");
		loop_quit(bus.loop, 1);
		return DBUS_HANDLER_RESULT_HANDLED;
	}
	if (dbus_message_is_signal(m, DBUS_INTERFACE_DBUS, "NameOwnerChanged") &&
	    dbus_message_has_sender(m, DBUS_SERVICE_DBUS))
		name_owner_changed(m);
	return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

int wdb_bus_on_name_gone(wdb_name_gone_fn fn)
{
	if (bus.n_name_gone == MAX_NAME_LISTENERS)
		return -ENOSPC;
	bus.name_gone[bus.n_name_gone++] = fn;
	return 0;
}

/* ---- connecting ---- */

static DBusConnection *connect_bus(enum wdb_bus_kind kind, const char *address, DBusError *e)
{
	if (kind != WDB_BUS_ADDRESS)
		return dbus_bus_get_private(kind == WDB_BUS_SESSION ? DBUS_BUS_SESSION
								    : DBUS_BUS_SYSTEM,
					    e);
	DBusConnection *c = dbus_connection_open_private(address, e);
	if (c && !dbus_bus_register(c, e)) {
		dbus_connection_close(c);
		dbus_connection_unref(c);
		return NULL;
	}
	return c;
}

static bool install_hooks(DBusConnection *c)
{
	static const DBusObjectPathVTable vtable = { .message_function = wdb_object_handle };
	dbus_connection_set_exit_on_disconnect(c, FALSE);
	dbus_connection_set_dispatch_status_function(c, dispatch_status, NULL, NULL);
	dbus_connection_set_wakeup_main_function(c, wakeup_main, NULL, NULL);
	if (!dbus_connection_set_watch_functions(c, add_watch, remove_watch, toggle_watch, NULL,
						 NULL) ||
	    !dbus_connection_set_timeout_functions(c, add_timeout, remove_timeout, toggle_timeout,
						   NULL, NULL) ||
	    !dbus_connection_add_filter(c, bus_filter, NULL, NULL) ||
	    !dbus_connection_register_fallback(c, "/", &vtable, NULL))
		return false;
	/* Connections leaving the bus: agents and cached credentials. */
	dbus_bus_add_match(c,
			   "type='signal',sender='" DBUS_SERVICE_DBUS "',interface='" DBUS_INTERFACE_DBUS
			   "',member='NameOwnerChanged',arg2=''",
			   NULL);
	return true;
}

int wdb_bus_open(struct loop *loop, enum wdb_bus_kind kind, const char *address,
		 struct wpad_error *err)
{
	DBusError e;
	dbus_error_init(&e);
	bus.loop = loop;
	bus.dispatch = loop_idle_new(loop, dispatch_idle, NULL);
	if (!bus.dispatch) {
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory");
		return -ENOMEM;
	}
	bus.conn = connect_bus(kind, address, &e);
	if (!bus.conn) {
		wpad_error_set(err, WPAD_ERR_NOT_CONNECTED, ENOTCONN, -1, -1,
			       "cannot connect to the %s bus: %s",
			       kind == WDB_BUS_SYSTEM ? "system" : kind == WDB_BUS_SESSION ? "session"
											 : "given",
			       e.message ? e.message : "unknown error");
		dbus_error_free(&e);
		wdb_bus_close();
		return -ENOTCONN;
	}
	if (!install_hooks(bus.conn)) {
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory");
		wdb_bus_close();
		return -ENOMEM;
	}
	log_info("connected to D-Bus as %s", wdb_bus_unique_name());
	loop_idle_schedule(bus.dispatch);
	return 0;
}

int wdb_bus_request_name(const char *name, struct wpad_error *err)
{
	DBusError e;
	dbus_error_init(&e);
	int r = dbus_bus_request_name(bus.conn, name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &e);
	if (r == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || r == DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER)
		return 0;
	if (r == DBUS_REQUEST_NAME_REPLY_EXISTS) {
		wpad_error_set(err, WPAD_ERR_ALREADY_EXISTS, EEXIST, -1, -1,
			       "another process owns %s on the bus: is wpad already running?",
			       name);
		return -EEXIST;
	}
	wpad_error_set(err, WPAD_ERR_PERMISSION_DENIED, EACCES, -1, -1,
		       "the bus refused the name %s: %s (is the policy file "
		       "org.wpad1.conf installed, and are we root?)",
		       name, e.message ? e.message : "no reason given");
	dbus_error_free(&e);
	return -EACCES;
}

void wdb_bus_release_name(const char *name)
{
	if (bus.conn && dbus_connection_get_is_connected(bus.conn))
		dbus_bus_release_name(bus.conn, name, NULL);
}

void wdb_bus_close(void)
{
	if (bus.conn) {
		if (dbus_connection_get_is_connected(bus.conn))
			dbus_connection_flush(bus.conn);
		dbus_connection_unregister_object_path(bus.conn, "/");
		dbus_connection_remove_filter(bus.conn, bus_filter, NULL);
		dbus_connection_close(bus.conn);
		/* Drops every watch and timeout now, through the remove hooks,
		 * even if a pending call still holds the connection. */
		dbus_connection_set_watch_functions(bus.conn, NULL, NULL, NULL, NULL, NULL);
		dbus_connection_set_timeout_functions(bus.conn, NULL, NULL, NULL, NULL, NULL);
		dbus_connection_set_dispatch_status_function(bus.conn, NULL, NULL, NULL);
		dbus_connection_set_wakeup_main_function(bus.conn, NULL, NULL, NULL);
		dbus_connection_unref(bus.conn);
	}
	bus.conn = NULL;
	loop_idle_free(bus.dispatch);
	while (bus.fds) { /* only if libdbus kept a reference somewhere */
		struct fd_watch *f = bus.fds;
		bus.fds = f->next;
		loop_io_free(f->io);
		free(f);
	}
	bus.dispatch = NULL;
	bus.loop = NULL;
	bus.n_name_gone = 0;
}
