/* Fuzz the RSN negotiation of both roles (daemon/rsn/negotiate.c) on RSN
 * elements from the air.
 *
 * Input: byte 0 = role (bit 0), PMF policy (bits 1-2), whether the policy
 * narrows AKMs and ciphers (bit 3); bytes 1..4 = the driver's cipher bits
 * (little-endian); the rest = an RSNE body. Oracle: a refusal is one of the
 * documented status codes with a reason; an acceptance picks implemented,
 * offered suites the driver has, never TKIP pairwise, with PMF exactly when
 * the rules say (required policy => PMF, PMF => a BIP cipher the driver has).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/negotiate.h"
#include "daemon/rsn/suites.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool documented(uint16_t st)
{
	switch (st) {
	case WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION:
	case WLAN_STATUS_GROUP_CIPHER_NOT_VALID:
	case WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID:
	case WLAN_STATUS_AKMP_NOT_VALID:
	case WLAN_STATUS_UNSUPPORTED_RSN_IE_VERSION:
	case WLAN_STATUS_INVALID_RSN_IE_CAPAB:
	case WLAN_STATUS_CIPHER_REJECTED_PER_POLICY:
	case WLAN_STATUS_INVALID_RSNIE:
		return true;
	default:
		return false;
	}
}

static bool driver_has(uint32_t drv, uint32_t suite)
{
	uint32_t bit = rsn_cipher_to_driver(suite);
	return bit && (drv & bit);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ie_rsn peer;
	struct rsn_negotiated n;
	if (size < 5)
		return 0;
	enum rsn_role role = data[0] & 1 ? RSN_ROLE_AP : RSN_ROLE_STATION;
	struct rsn_policy pol = { .pmf = (enum rsn_pmf)((data[0] >> 1) % 3) };
	if (data[0] & 8) {
		pol.akms = RSN_SUITE_BIT(RSN_AKM_PSK_SHA256);
		pol.pairwise = RSN_SUITE_BIT(RSN_CIPHER_CCMP_128) | RSN_SUITE_BIT(RSN_CIPHER_GCMP_256);
	}
	uint32_t drv = (uint32_t)data[1] | (uint32_t)data[2] << 8 | (uint32_t)data[3] << 16 |
		       (uint32_t)data[4] << 24;
	if (ie_parse_rsn(data + 5, size - 5, &peer) != CODEC_OK)
		return 0;
	uint16_t st = rsn_negotiate(role, &pol, drv, &peer, false, &n);
	if (st) {
		if (!documented(st) || !n.why || !*n.why)
			abort();
		return 0;
	}
	if (!rsn_akm_implemented(n.akm) || !ie_rsn_has_akm(&peer, n.akm))
		abort();
	if (n.pairwise == RSN_CIPHER_TKIP || !ie_rsn_has_pairwise(&peer, n.pairwise) ||
	    !driver_has(drv, n.pairwise) || !driver_has(drv, n.group))
		abort();
	if (n.group != peer.group_cipher)
		abort();
	if (pol.pmf == RSN_PMF_REQUIRED && !n.mfp)
		abort();
	if (pol.pmf == RSN_PMF_DISABLED && n.mfp)
		abort();
	if (n.mfp != !!n.group_mgmt)
		abort();
	if (n.mfp && (!rsn_cipher_is_bip(n.group_mgmt) || !driver_has(drv, n.group_mgmt) ||
		      !(peer.capab & RSN_CAPAB_MFPC)))
		abort();
	/* The station's own element for this choice builds and parses. */
	if (role == RSN_ROLE_STATION) {
		uint8_t buf[64];
		struct ie_rsn ours, back;
		struct wbuf w = wbuf_init(buf, sizeof(buf));
		rsn_negotiated_to_ie(&n, &ours);
		if (ie_build_rsn(&w, &ours) != CODEC_OK || w.bad ||
		    ie_parse_rsn(buf + 2, w.len - 2, &back) != CODEC_OK || back.akm[0] != n.akm ||
		    back.pairwise[0] != n.pairwise || !!(back.capab & RSN_CAPAB_MFPC) != n.mfp)
			abort();
	}
	return 0;
}
