/* The connection to wpad: calls with timeouts, properties, and the one
 * wait loop.
 *
 * Every call goes out asynchronously and wc_bus_run() waits for its reply
 * while it dispatches what else comes in: the agent's requests, the
 * signals `monitor` prints, and the terminal the agent prompts on. So a
 * prompt can be answered in the middle of a Connect, and Ctrl-C (SIGINT,
 * SIGTERM) ends any wait at once instead of killing the process with the
 * terminal's echo still off.
 */
#ifndef WPACTL_BUS_H
#define WPACTL_BUS_H

#include <dbus/dbus.h>
#include <stdbool.h>

#include "wpactl/errors.h"

#define WC_DEFAULT_TIMEOUT_MS 25000 /* calls that answer at once */
#define WC_LONG_TIMEOUT_MS 180000   /* scan, connect, stop: --timeout */

#define WC_NAME "org.wpad1"
#define WC_ROOT "/org/wpad1"
#define WC_IFACE_MANAGER "org.wpad1.Manager"
#define WC_IFACE_RADIO "org.wpad1.Radio"
#define WC_IFACE_DEVICE "org.wpad1.Device"
#define WC_IFACE_STATION "org.wpad1.Station"
#define WC_IFACE_AP "org.wpad1.AccessPoint"
#define WC_IFACE_NETWORK "org.wpad1.Network"
#define WC_IFACE_BSS "org.wpad1.BSS"
#define WC_IFACE_KNOWN "org.wpad1.KnownNetwork"
#define WC_IFACE_AP_STATION "org.wpad1.ApStation"
#define WC_IFACE_AGENT "org.wpad1.Agent"
#define WC_IFACE_PROPERTIES "org.freedesktop.DBus.Properties"
#define WC_IFACE_OBJECT_MANAGER "org.freedesktop.DBus.ObjectManager"

struct wc_bus {
	DBusConnection *conn; /* NULL until the first call needs it */
	const char *address;  /* NULL: the system bus */
	char where[160]; /* "the system bus" or the address, for messages */
	/* Times the owner of org.wpad1 left the bus (NameOwnerChanged with an
	 * old owner): a call in flight then has nobody left to answer it. */
	unsigned wpad_left;
	/* One more descriptor the loop watches (the agent's terminal). */
	int watch_fd;
	void (*watch_ready)(void *data);
	void *watch_data;
};

/* Names the bus: address, or the system bus (DBUS_SYSTEM_BUS_ADDRESS or
 * the default socket) when NULL. Nothing connects yet, so that a command
 * checks its arguments before it needs the bus. */
void wc_bus_init(struct wc_bus *b, const char *address);
/* Connects unless connected. Every call does it; code that touches
 * b->conn itself calls it first. Returns 0 or -1 with *err (exit 9). */
int wc_bus_connect(struct wc_bus *b, struct wc_error *err);
void wc_bus_close(struct wc_bus *b);

/* A method call to wpad; NULL only when memory is short. */
DBusMessage *wc_new_call(const char *path, const char *iface, const char *member);

/* Sends call (and drops the caller's reference) and waits for the reply
 * for at most timeout_ms. Returns the reply, or NULL with *err: wpad's
 * error reply, a timeout (7: wpad is there but silent, maybe stuck),
 * Ctrl-C (130), wpad leaving the bus before it answered (9: it stopped
 * or died) or the connection gone. */
DBusMessage *wc_call(struct wc_bus *b, DBusMessage *call, int timeout_ms, struct wc_error *err);
/* The same, for a call without arguments whose reply is not needed.
 * Returns 0 or -1 with *err. */
int wc_call_simple(struct wc_bus *b, const char *path, const char *iface, const char *member,
		   int timeout_ms, struct wc_error *err);

/* Properties.Get: returns the reply with *value pointing at the value
 * (inside the variant), or NULL with *err. */
DBusMessage *wc_get_property(struct wc_bus *b, const char *path, const char *iface,
			     const char *name, DBusMessageIter *value, struct wc_error *err);
int wc_set_property_bool(struct wc_bus *b, const char *path, const char *iface,
			 const char *name, bool on, struct wc_error *err);
int wc_set_property_str(struct wc_bus *b, const char *path, const char *iface,
			const char *name, const char *value, struct wc_error *err);

/* Runs the loop until done(data) is true (checked after each dispatch),
 * timeout_ms passes (-1: never), Ctrl-C or the connection closes.
 * Returns 0, or -1 with *err (7 timeout, 130 interrupted, 9 gone). */
int wc_bus_run(struct wc_bus *b, bool (*done)(void *data), void *data, int timeout_ms,
	       struct wc_error *err);

/* Watches fd (one at a time; -1 stops watching): ready(data) runs from
 * the loop when it is readable. */
void wc_bus_watch(struct wc_bus *b, int fd, void (*ready)(void *data), void *data);

/* Catches SIGINT and SIGTERM for the loop (call once). */
void wc_signals_init(void);
bool wc_interrupted(void);
void wc_interrupt_clear(void);

/* Whether s may go into a message (valid UTF-8), and an object path. */
bool wc_valid_utf8(const char *s);

#endif
