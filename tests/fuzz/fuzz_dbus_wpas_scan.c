/* libFuzzer target: Scan's a{sv} on the fi.w1.wpa_supplicant1 front
 * (dbus/wpas_scanargs.c). A crash, a sanitizer report, a refusal without a
 * reason, or an accepted call naming more SSIDs than the station probes
 * for, an empty or a repeated one, is a bug. Seeds:
 * tests/fuzz/corpus/fuzz_dbus_wpas_scan (NetworkManager's scans). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_dbus_msg.h"
#include "dbus/wpas_scanargs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wpas_scan_args a;
	char why[256];
	DBusMessage *m = fuzz_dbus_message(data, size);
	if (!m)
		return 0;
	why[0] = '\0';
	if (wpas_scan_args_parse(m, &a, why, sizeof(why)) < 0) {
		if (!why[0])
			abort();
	} else {
		if (a.n_ssids > STATION_SCAN_MAX_SSIDS || (a.passive && a.n_ssids))
			abort();
		for (size_t i = 0; i < a.n_ssids; i++) {
			if (a.ssids[i].len == 0 || a.ssids[i].len > 32)
				abort();
			for (size_t j = 0; j < i; j++)
				if (a.ssids[j].len == a.ssids[i].len &&
				    memcmp(a.ssids[j].ssid, a.ssids[i].ssid, a.ssids[i].len) == 0)
					abort();
		}
	}
	dbus_message_unref(m);
	return 0;
}
