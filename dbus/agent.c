/* The registered agent and its requests; see agent.h. */
#define LOG_TAG "dbus"
#include "dbus/agent.h"

#include "daemon/core/log.h"
#include "daemon/station/station.h"
#include "dbus/bus.h"
#include "dbus/errors.h"
#include "dbus/msg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OWNER_MAX 256

struct wdb_agent_request {
	DBusPendingCall *call;
	wdb_agent_reply_fn fn;
	void *data;
	bool any_secret; /* RequestSecret: no WPA passphrase rule */
	struct wdb_agent_request *next;
};

static struct {
	bool registered;
	char owner[OWNER_MAX];
	char path[WDB_PATH_MAX];
	struct wdb_agent_request *requests;
} agent;

bool wdb_agent_registered(void)
{
	return agent.registered;
}

static void unlink_request(struct wdb_agent_request *r)
{
	for (struct wdb_agent_request **pp = &agent.requests; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			return;
		}
}

static void free_request(struct wdb_agent_request *r)
{
	unlink_request(r);
	if (r->call) {
		dbus_pending_call_cancel(r->call);
		dbus_pending_call_unref(r->call);
	}
	free(r);
}

/* Sends a call the agent need not answer (Cancel, Release). */
static void notify_agent(const char *member, const char *reason)
{
	DBusMessage *m = dbus_message_new_method_call(agent.owner, agent.path, WDB_AGENT_IFACE,
						      member);
	if (!m)
		return;
	dbus_message_set_no_reply(m, TRUE);
	if (reason) {
		DBusMessageIter it;
		dbus_message_iter_init_append(m, &it);
		if (!wdb_append_str(&it, reason)) {
			dbus_message_unref(m);
			return;
		}
	}
	wdb_send(m);
}

/* Every request ends with err; the agent is forgotten first so that a
 * callback retrying sees none. */
static void drop_agent(const struct wpad_error *err)
{
	agent.registered = false;
	while (agent.requests) {
		struct wdb_agent_request *r = agent.requests;
		wdb_agent_reply_fn fn = r->fn;
		void *data = r->data;
		free_request(r);
		fn(data, NULL, err);
	}
}

static void name_gone(const char *name)
{
	if (!agent.registered || strcmp(name, agent.owner) != 0)
		return;
	struct wpad_error e;
	log_info("the agent %s %s left the bus", agent.owner, agent.path);
	wpad_error_set(&e, WPAD_ERR_NO_AGENT, 0, -1, -1,
		       "the agent went away before it answered");
	drop_agent(&e);
}

void wdb_agent_init(void)
{
	memset(&agent, 0, sizeof(agent));
	wdb_bus_on_name_gone(name_gone);
}

void wdb_agent_exit(void)
{
	while (agent.requests) {
		notify_agent("Cancel", "shutdown");
		free_request(agent.requests);
	}
	if (agent.registered)
		notify_agent("Release", NULL);
	agent.registered = false;
}

DBusMessage *wdb_agent_register(DBusMessage *msg)
{
	const char *path;
	const char *sender = dbus_message_get_sender(msg);
	dbus_message_get_args(msg, NULL, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID);
	if (!sender || strlen(sender) >= OWNER_MAX || strlen(path) >= WDB_PATH_MAX)
		return wdb_error_replyf(msg, WPAD_ERR_INVALID_ARGUMENTS,
					"the agent's path or bus name is too long");
	if (agent.registered)
		return wdb_error_replyf(msg, WPAD_ERR_ALREADY_EXISTS,
					"an agent is already registered (%s at %s)", agent.owner,
					agent.path);
	snprintf(agent.owner, sizeof(agent.owner), "%s", sender);
	snprintf(agent.path, sizeof(agent.path), "%s", path);
	agent.registered = true;
	log_info("agent registered: %s at %s", sender, path);
	return dbus_message_new_method_return(msg);
}

DBusMessage *wdb_agent_unregister(DBusMessage *msg)
{
	const char *path;
	const char *sender = dbus_message_get_sender(msg);
	dbus_message_get_args(msg, NULL, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID);
	if (!agent.registered || !sender || strcmp(sender, agent.owner) != 0 ||
	    strcmp(path, agent.path) != 0)
		return wdb_error_replyf(msg, WPAD_ERR_NOT_FOUND,
					"no agent registered at %s by this connection", path);
	struct wpad_error e;
	wpad_error_set(&e, WPAD_ERR_NO_AGENT, 0, -1, -1,
		       "the agent unregistered before it answered");
	log_info("agent unregistered: %s at %s", agent.owner, agent.path);
	drop_agent(&e);
	return dbus_message_new_method_return(msg);
}

/* Errors meaning nobody serves the agent object any more. */
static bool agent_gone(const char *name)
{
	static const char *const gone[] = { DBUS_ERROR_SERVICE_UNKNOWN, DBUS_ERROR_NAME_HAS_NO_OWNER,
					    DBUS_ERROR_UNKNOWN_OBJECT,  DBUS_ERROR_UNKNOWN_METHOD,
					    DBUS_ERROR_UNKNOWN_INTERFACE, DBUS_ERROR_DISCONNECTED };
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		if (strcmp(name, gone[i]) == 0)
			return true;
	return false;
}

/* The agent's answer: a passphrase, or an error we name for the caller. */
static void parse_reply(DBusMessage *reply, const char **pass, struct wpad_error *e,
			bool any_secret)
{
	const char *name = dbus_message_get_error_name(reply);
	*pass = NULL;
	if (dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR) {
		if (name && strcmp(name, DBUS_ERROR_NO_REPLY) == 0)
			wpad_error_set(e, WPAD_ERR_TIMEOUT, 0, -1, -1,
				       "the agent did not answer within %d s",
				       WDB_AGENT_TIMEOUT_MS / 1000);
		else if (name && strstr(name, "Canceled"))
			wpad_error_set(e, WPAD_ERR_ABORTED, 0, -1, -1,
				       "the agent cancelled the request");
		else if (name && agent_gone(name))
			wpad_error_set(e, WPAD_ERR_NO_AGENT, 0, -1, -1,
				       "the agent is gone or does not answer RequestPassphrase (%.96s)",
				       name);
		else
			wpad_error_set(e, WPAD_ERR_FAILED, 0, -1, -1, "the agent failed: %.128s",
				       name ? name : "no error name");
		return;
	}
	if (!wdb_has_signature(reply, "s") ||
	    !dbus_message_get_args(reply, NULL, DBUS_TYPE_STRING, pass, DBUS_TYPE_INVALID)) {
		wpad_error_set(e, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1,
			       "the agent answered with (%.32s), not (s)",
			       dbus_message_get_signature(reply));
		return;
	}
	if (any_secret) {
		if (!**pass) {
			*pass = NULL;
			wpad_error_set(e, WPAD_ERR_INVALID_FORMAT, 0, -1, -1,
				       "the agent answered with an empty secret");
		}
	} else if (station_passphrase_check(*pass) < 0) {
		*pass = NULL;
		wpad_error_set(e, WPAD_ERR_INVALID_FORMAT, 0, -1, -1,
			       "the agent's passphrase is not 8 to 63 printable ASCII characters "
			       "or 64 hexadecimal digits");
	}
}

static void request_done(DBusPendingCall *call, void *data)
{
	struct wdb_agent_request *r = data;
	DBusMessage *reply = dbus_pending_call_steal_reply(call);
	struct wpad_error e;
	const char *pass = NULL;
	wpad_error_clear(&e);
	if (reply)
		parse_reply(reply, &pass, &e, r->any_secret);
	else
		wpad_error_set(&e, WPAD_ERR_FAILED, 0, -1, -1, "no answer from the agent");
	wdb_agent_reply_fn fn = r->fn;
	void *fn_data = r->data;
	free_request(r);
	fn(fn_data, pass, pass ? NULL : &e);
	if (reply)
		dbus_message_unref(reply);
}

static struct wdb_agent_request *send_request(const char *member, const char *path,
					       const char *kind, wdb_agent_reply_fn fn, void *data,
					       struct wpad_error *err);

struct wdb_agent_request *wdb_agent_request_passphrase(const char *network_path,
							wdb_agent_reply_fn fn, void *data,
							struct wpad_error *err)
{
	return send_request("RequestPassphrase", network_path, NULL, fn, data, err);
}

struct wdb_agent_request *wdb_agent_request_secret(const char *device_path, const char *kind,
						    wdb_agent_reply_fn fn, void *data,
						    struct wpad_error *err)
{
	return send_request("RequestSecret", device_path, kind, fn, data, err);
}

static struct wdb_agent_request *send_request(const char *member, const char *path,
					       const char *kind, wdb_agent_reply_fn fn, void *data,
					       struct wpad_error *err)
{
	if (!agent.registered) {
		wpad_error_set(err, WPAD_ERR_NO_AGENT, 0, -1, -1,
			       kind ? "a %s is needed: the profile has none and no agent is "
				      "registered to ask"
				    : "the network needs a passphrase: none is stored and no agent is "
				      "registered to ask",
			       kind ? kind : "");
		return NULL;
	}
	struct wdb_agent_request *r = calloc(1, sizeof(*r));
	DBusMessage *m = dbus_message_new_method_call(agent.owner, agent.path, WDB_AGENT_IFACE,
						      member);
	DBusMessageIter it;
	bool ok = r && m;
	if (ok) {
		dbus_message_iter_init_append(m, &it);
		ok = wdb_append_path(&it, path) && (!kind || wdb_append_str(&it, kind)) &&
		     dbus_connection_send_with_reply(wdb_bus_connection(), m, &r->call,
						     WDB_AGENT_TIMEOUT_MS) &&
		     r->call &&
		     dbus_pending_call_set_notify(r->call, request_done, r, NULL);
	}
	if (m)
		dbus_message_unref(m);
	if (!ok) {
		if (r && r->call)
			dbus_pending_call_unref(r->call);
		free(r);
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "cannot ask the agent");
		return NULL;
	}
	r->fn = fn;
	r->data = data;
	r->any_secret = kind != NULL;
	r->next = agent.requests;
	agent.requests = r;
	return r;
}

void wdb_agent_cancel(struct wdb_agent_request *req, const char *reason)
{
	if (!req)
		return;
	if (agent.registered)
		notify_agent("Cancel", reason);
	free_request(req);
}
