/* libFuzzer target: fi.w1.wpa_supplicant1 AddNetwork's a{sv} from a
 * serialized D-Bus message (dbus_message_demarshal), through the parser
 * the daemon runs (dbus/wpas_netdict.c). A crash, a sanitizer report, a
 * refusal without a reason or an accepted network that breaks the
 * parser's own bounds is a bug. Seeds: tests/fuzz/corpus/fuzz_dbus_wpas_net. */
#include <dbus/dbus.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dbus/wpas_i.h"
#include "dbus/wpas_netdict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	DBusError e;
	struct wpas_net n;
	char why[WPAS_STR_MAX];
	if (size > (1u << 20))
		return 0;
	dbus_error_init(&e);
	DBusMessage *m = dbus_message_demarshal((const char *)data, (int)size, &e);
	if (!m) {
		dbus_error_free(&e);
		return 0;
	}
	memset(&n, 0, sizeof(n));
	why[0] = '\0';
	int r = wpas_net_parse(m, &n, why, sizeof(why));
	if (r < 0 && !why[0])
		abort(); /* a refusal always says why */
	if (r == 0 && (n.ssid_len > WDB_SSID_MAX || strlen(n.psk) > WPAS_PASS_MAX ||
		       (n.ssid_len == 0 && n.mode == 0)))
		abort();
	dbus_message_unref(m);
	return 0;
}
