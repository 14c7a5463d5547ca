/* libFuzzer target: fi.w1.wpa_supplicant1 AddNetwork's a{sv} from a
 * serialized D-Bus message (dbus_message_demarshal), through the parser
 * the daemon runs (dbus/wpas_netdict.c). A crash, a sanitizer report, a
 * refusal without a reason or an accepted network that breaks the
 * parser's own bounds is a bug; 802.1X keys end in a checked profile
 * (wpas_neteap.c) or a refusal, with nothing leaked. Seeds: tests/fuzz/corpus/fuzz_dbus_wpas_net. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_dbus_msg.h"
#include "daemon/config/eap_conf.h"
#include "dbus/wpas_i.h"
#include "dbus/wpas_netdict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wpas_net n;
	char why[WPAS_STR_MAX];
	DBusMessage *m = fuzz_dbus_message(data, size);
	if (!m)
		return 0;
	memset(&n, 0, sizeof(n));
	why[0] = '\0';
	int r = wpas_net_parse(m, &n, why, sizeof(why));
	if (r < 0 && !why[0])
		abort(); /* a refusal always says why */
	if (r == 0 && (n.ssid_len > WDB_SSID_MAX || strlen(n.psk) > WPAS_PASS_MAX ||
		       (n.ssid_len == 0 && n.mode == 0)))
		abort();
	/* 802.1X (wpas_neteap.c): a profile exactly for an 802.1X network,
	 * checked (an identity, a method), and nothing left half-read. */
	if (n.eap_ini || (r < 0 && n.eap_conf))
		abort();
	if (r == 0 && n.mode == 0 && (n.eap_conf != NULL) != wpas_net_is_8021x(&n))
		abort();
	/* A hotspot's key_mgmt is wpas_ap_check()'s to judge; 802.1X keys
	 * on one are refused here, so it never carries a profile. */
	if (r == 0 && n.mode != 0 && n.eap_conf)
		abort();
	if (n.eap_conf && (!n.eap_conf->identity || !n.eap_conf->n_methods))
		abort();
	wpas_eap_release(&n);
	dbus_message_unref(m);
	return 0;
}
