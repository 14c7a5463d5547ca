/* libFuzzer target: AccessPoint.Start's a{sv} from a serialized D-Bus
 * message (dbus_message_demarshal), through the same conversion the daemon
 * runs (dbus/apdict.c); and the UTF-8 sanitiser every outgoing string goes
 * through, whose output libdbus must accept. A crash, a sanitizer report
 * or an invalid string is a bug. Seeds: tests/fuzz/corpus/fuzz_dbus_apdict. */
#include <stdint.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz_dbus_msg.h"
#include "daemon/config/ap_profile.h"
#include "dbus/apdict.h"
#include "dbus/msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sanitiser(const uint8_t *data, size_t size)
{
	char out[96];
	wdb_utf8_copy(out, sizeof(out), (const char *)data, size);
	if (!dbus_validate_utf8(out, NULL))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ap_profile p;
	struct wpad_error err;
	sanitiser(data, size);
	DBusMessage *m = fuzz_dbus_message(data, size);
	if (!m)
		return 0;
	ap_profile_init(&p);
	/* The dispatcher only passes a{sv}; the conversion checks again. */
	int r = wdb_ap_profile_from_message(m, &p, &err);
	if (r < 0 && err.code == WPAD_OK)
		abort(); /* a refusal always says why */
	ap_profile_clear(&p);
	dbus_message_unref(m);
	return 0;
}
