/* libFuzzer target: a mode=2 (hotspot) network block from AddNetwork's
 * a{sv}, through what the daemon runs on it: the dictionary parser
 * (dbus/wpas_netdict.c), then the hotspot check that turns it into an
 * access point profile (wpas_ap_check, dbus/wpas_ap.c: key_mgmt, proto,
 * ciphers, frequency, PMF, passphrase). A crash, a sanitizer report, a
 * refusal without a reason or an accepted network of a mode other than 0
 * or 2 is a bug. Seeds: tests/fuzz/corpus/fuzz_dbus_wpas_hotspot (the
 * AddNetwork seeds, NetworkManager's hotspot among them). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_dbus_msg.h"
#include "dbus/wpas_i.h"
#include "dbus/wpas_netdict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wpas_net n;
	struct wpad_error err;
	char why[WPAS_STR_MAX];
	DBusMessage *m = fuzz_dbus_message(data, size);
	if (!m)
		return 0;
	memset(&n, 0, sizeof(n));
	why[0] = '\0';
	if (wpas_net_parse(m, &n, why, sizeof(why)) == 0) {
		memset(&err, 0, sizeof(err));
		int r = wpas_ap_check(&n, &err);
		if (r < 0 && !err.text[0])
			abort(); /* a refusal always says why */
		if (r == 0 && n.mode != 0 && n.mode != 2)
			abort(); /* only stations and access points are served */
		wpas_eap_release(&n); /* a station block's 802.1X profile */
	}
	dbus_message_unref(m);
	return 0;
}
