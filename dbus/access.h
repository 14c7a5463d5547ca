/* Who may configure: the daemon's own check behind the bus policy.
 *
 * The policy file (dbus/org.wpad1.conf) already keeps unprivileged callers
 * away from configuring methods on the system bus. Properties.Set cannot be
 * told apart by the bus (it does not know which properties configure), and
 * a bus without our policy file would let anything through, so the daemon
 * checks again: a caller may configure when its uid is 0, equals the
 * daemon's own, or belongs to group netdev (WDB_PRIVILEGED_GROUP). The
 * answer is cached per unique name until that connection leaves the bus.
 */
#ifndef WPAD_DBUS_ACCESS_H
#define WPAD_DBUS_ACCESS_H

#include "dbus/libdbus.h"
#include <stdbool.h>

#include "daemon/core/error.h"

#define WDB_PRIVILEGED_GROUP "netdev"

/* True when the sender of msg may configure; otherwise false with *err
 * filled (PermissionDenied). */
bool wdb_access_check(DBusMessage *msg, struct wpad_error *err);
/* Starts listening for connections leaving the bus (cache eviction). */
void wdb_access_init(void);
void wdb_access_clear(void);

#endif
