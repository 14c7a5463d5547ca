/* The agent: a client object (org.wpad1.Agent) that supplies secrets.
 *
 * One agent at a time, registered with Manager.RegisterAgent(o) by the
 * connection that serves it; it is forgotten when that connection leaves
 * the bus or calls UnregisterAgent. A request is one method call to the
 * agent (RequestPassphrase(o network) -> s); cancelling it sends
 * Cancel(s reason). At shutdown the agent gets Release().
 */
#ifndef WPAD_DBUS_AGENT_H
#define WPAD_DBUS_AGENT_H

#include "dbus/libdbus.h"
#include <stdbool.h>

#include "daemon/core/error.h"

#define WDB_AGENT_IFACE "org.wpad1.Agent"
#define WDB_AGENT_TIMEOUT_MS 120000

struct wdb_agent_request;

/* passphrase is NULL when err is set (Aborted: the user cancelled; Timeout:
 * no answer; InvalidFormat: not a valid passphrase; NoAgent: the agent went
 * away). The request is freed after the call. */
typedef void (*wdb_agent_reply_fn)(void *data, const char *passphrase,
				   const struct wpad_error *err);

void wdb_agent_init(void);
/* Cancels every request (their callbacks are not called) and releases the
 * agent. */
void wdb_agent_exit(void);
bool wdb_agent_registered(void);

/* Manager.RegisterAgent / UnregisterAgent. */
DBusMessage *wdb_agent_register(DBusMessage *msg);
DBusMessage *wdb_agent_unregister(DBusMessage *msg);

/* Asks the agent for the passphrase of the network object network_path.
 * NULL (with *err: NoAgent or no memory) when it cannot be asked. */
struct wdb_agent_request *wdb_agent_request_passphrase(const char *network_path,
							wdb_agent_reply_fn fn, void *data,
							struct wpad_error *err);
/* Asks the agent for a secret of a wired/enterprise profile:
 * RequestSecret(o device, s kind) -> s, kind "password" or
 * "key-passphrase"; any non-empty string is accepted. */
struct wdb_agent_request *wdb_agent_request_secret(const char *device_path, const char *kind,
						    wdb_agent_reply_fn fn, void *data,
						    struct wpad_error *err);
/* Withdraws a request: the agent gets Cancel(reason), fn is not called. */
void wdb_agent_cancel(struct wdb_agent_request *req, const char *reason);

#endif
