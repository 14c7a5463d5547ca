/* The bus connection and its integration with the event loop.
 *
 * libdbus's watches become loop_io sources (one per file descriptor: the
 * read and write watches of a socket share it), its timeouts loop_timer
 * sources, and messages are dispatched from an idle callback, never from
 * inside libdbus's own callbacks. Every object path is served by one
 * fallback handler at "/" (object.c).
 *
 * There is one connection per process (the daemon has one bus); the
 * functions below act on it.
 */
#ifndef WPAD_DBUS_BUS_H
#define WPAD_DBUS_BUS_H

#include "dbus/libdbus.h"
#include <stdbool.h>

#include "daemon/core/error.h"

struct loop;

enum wdb_bus_kind {
	WDB_BUS_SYSTEM,  /* DBUS_SYSTEM_BUS_ADDRESS or the system default */
	WDB_BUS_SESSION, /* DBUS_SESSION_BUS_ADDRESS */
	WDB_BUS_ADDRESS, /* an explicit address */
};

/* Connects and registers with the bus. Returns 0, or a negative errno with
 * *err saying why. */
int wdb_bus_open(struct loop *loop, enum wdb_bus_kind kind, const char *address,
		 struct wpad_error *err);
/* Asks for the well-known name (never queued). Returns 0, -EEXIST when
 * another process owns it, -EACCES when the bus policy refuses it. */
int wdb_bus_request_name(const char *name, struct wpad_error *err);
void wdb_bus_release_name(const char *name);
/* Flushes what is queued, closes and forgets the connection. */
/* Answers (through the handlers) every call already sent to us. */
void wdb_bus_drain(void);
void wdb_bus_close(void);

DBusConnection *wdb_bus_connection(void);
struct loop *wdb_bus_loop(void);
/* Our unique name on the bus, "" before wdb_bus_open(). */
const char *wdb_bus_unique_name(void);

/* Calls fn(name) whenever a connection leaves the bus (its unique name
 * loses its owner). At most 4 listeners. */
typedef void (*wdb_name_gone_fn)(const char *unique_name);
int wdb_bus_on_name_gone(wdb_name_gone_fn fn);

#endif
