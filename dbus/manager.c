/* /org/wpad1: org.wpad1.Manager. */
#include "daemon/version.h"
#include "dbus/agent.h"
#include "dbus/wdbus_i.h"

#include <errno.h>

static DBusMessage *register_agent(void *data, DBusMessage *msg)
{
	return wdb_agent_register(msg);
}

static DBusMessage *unregister_agent(void *data, DBusMessage *msg)
{
	return wdb_agent_unregister(msg);
}

static bool get_version(void *data, DBusMessageIter *it)
{
	return wdb_append_str(it, WPAD_VERSION);
}

static const struct wdb_method methods[] = {
	{ "RegisterAgent", "o agent", "", register_agent, WDB_PRIVILEGED },
	{ "UnregisterAgent", "o agent", "", unregister_agent, WDB_PRIVILEGED },
	{ "AddKnownNetwork", "s name, s security, a{sv} settings", "o path", wdb_known_add,
	  WDB_PRIVILEGED },
	{ .name = NULL },
};

static const struct wdb_property props[] = {
	{ "Version", "s", get_version, NULL, WDB_PROP_CONST },
	{ .name = NULL },
};

const struct wdb_interface wdb_manager_iface = {
	.name = "org.wpad1.Manager",
	.methods = methods,
	.props = props,
};

int wdb_manager_init(struct wdb *b)
{
	b->manager = wdb_object_new(WDB_ROOT);
	if (!b->manager)
		return -ENOMEM;
	return wdb_object_add_iface(b->manager, &wdb_manager_iface, b);
}

void wdb_manager_exit(struct wdb *b)
{
	wdb_object_free(b->manager);
	b->manager = NULL;
}
