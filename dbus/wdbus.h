/* The D-Bus API of the daemon (org.wpad1, docs/dbus-api.md).
 *
 * wdbus_start() connects to the bus, exports an object for everything the
 * daemon has (radios, devices, networks, known networks, AP stations),
 * keeps them in step through a wpad observer and asks for the name
 * org.wpad1 last, so a client that sees the name sees every object.
 * wdbus_stop() must run before wpad_free(): it answers every call still
 * waiting (Aborted), releases the agent and the name, and closes the
 * connection. Calls that arrive while it runs are answered Aborted.
 */
#ifndef WPAD_DBUS_WDBUS_H
#define WPAD_DBUS_WDBUS_H

#include "daemon/core/error.h"
#include "dbus/bus.h"

struct loop;
struct wpad;

/* Returns 0, or a negative errno with *err filled (the bus cannot be
 * reached, the name is taken or refused). */
int wdbus_start(struct loop *loop, struct wpad *w, enum wdb_bus_kind kind, const char *address,
		struct wpad_error *err);
/* wpad is saying goodbye on the air: properties stay readable, configuring
 * calls are answered org.wpad1.Error.Aborted until wdbus_stop(). */
void wdbus_stopping(void);
void wdbus_stop(void);

#endif
