/* For the D-Bus fuzz targets: the input as a serialized D-Bus message
 * (dbus_message_demarshal), or NULL when it is not one or is larger than
 * libdbus's 1 MiB cap would make worth trying. The caller unrefs it. */
#ifndef WPAD_FUZZ_DBUS_MSG_H
#define WPAD_FUZZ_DBUS_MSG_H

#include <dbus/dbus.h>
#include <stddef.h>
#include <stdint.h>

static inline DBusMessage *fuzz_dbus_message(const uint8_t *data, size_t size)
{
	DBusError e;
	if (size > (1u << 20))
		return NULL;
	dbus_error_init(&e);
	DBusMessage *m = dbus_message_demarshal((const char *)data, (int)size, &e);
	if (!m)
		dbus_error_free(&e);
	return m;
}

#endif
