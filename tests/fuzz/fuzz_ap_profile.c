/* Fuzz AP profile files (daemon/config/ap_profile*.c).
 *
 * Input: the text of a profile file ([AccessPoint] with profile keys).
 * Nothing is read from disk: list files are never loaded.
 * Oracles: every failure has an AP code that maps onto the catalogue; a
 * profile that validates keeps every documented invariant.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/ap_profile.h"
#include "daemon/config/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_invariants(const struct ap_profile *p)
{
	if (p->ssid_len < 1 || p->ssid_len > 32)
		abort();
	if (!ap_channel_valid(p->band, p->channel, p->country[0] ? p->country : NULL))
		abort();
	uint32_t f = ap_profile_frequency(p);
	if (f < 2412 || f > 5885)
		abort();
	if (p->beacon_interval < 15 || p->dtim_period < 1 || p->max_stations < 1 ||
	    p->max_stations > 2007)
		abort();
	if (p->has_passphrase && (p->has_psk || !cfg_passphrase_valid(p->passphrase)))
		abort();
	bool key = p->has_passphrase || p->has_psk || p->psk_file;
	if ((p->security == AP_SECURITY_OPEN) == key)
		abort();
	if (p->country[0] && !cfg_country_valid(p->country))
		abort();
	if ((p->mac_allow_file && p->mac_allow_file[0] != '/') ||
	    (p->mac_deny_file && p->mac_deny_file[0] != '/') ||
	    (p->psk_file && p->psk_file[0] != '/'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ap_profile p;
	struct cfg_error err;
	int ret;

	ap_profile_init(&p);
	ret = ap_profile_read_buffer(&p, (const char *)data, size, "p.conf", "/fuzz", &err);
	if (ret == 0)
		ret = ap_profile_validate(&p, "p.conf", 1, &err);
	if (ret < 0) {
		if (ret > AP_E_SSID || ret < AP_E_BRIDGE || err.code != ret || !err.msg[0] ||
		    ap_err_to_wpad(ret) == WPAD_OK)
			abort();
	} else {
		check_invariants(&p);
	}
	ap_profile_clear(&p);
	return 0;
}
