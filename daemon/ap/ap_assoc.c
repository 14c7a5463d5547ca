/* The checks of a (re)association request, each with its IEEE 802.11-2020
 * status code (Table 9-80). The order is: SSID, ACL, rates, security, then
 * capacity last, since "come back later" is the least informative answer.
 *
 *   SSID element missing or not ours          1  unspecified failure
 *   address refused by the ACL               12  denied, other reason
 *   a basic rate of ours missing             18  basic rates mismatch
 *   (Supported Rates missing counts too)
 *   RSN BSS, no RSN element                  40  invalid element
 *   RSN element unparsable                   72  invalid contents of RSNE
 *   RSN element version not 1                44  unsupported RSNE version
 *   group cipher not CCMP-128                41  invalid group cipher
 *   no pairwise cipher we offer              42  invalid pairwise cipher
 *   no AKM we offer                          43  invalid AKMP
 *   MFPR set without MFPC                    45  invalid RSNE capabilities
 *   MFPR with MFPC (we have no PMF)          31  robust management frame
 *                                                policy violation
 *   max_stations already associated          17  AP unable to handle more
 *
 * The elements as a whole failing to parse (framing, a broken element other
 * than the RSNE) is answered with 40 by the caller.
 */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/codec/ie.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"

#include <string.h>

static bool rate_listed(const struct ie_rates *r, uint8_t rate)
{
	for (size_t i = 0; i < r->n; i++)
		if ((r->rates[i] & WLAN_RATE_VALUE_MASK) == rate &&
		    !ie_rate_is_membership_selector(r->rates[i]))
			return true;
	return false;
}

/* Every basic rate of ours must be among the station's rates. */
static bool rates_ok(struct ap *ap, const struct ie_set *ies)
{
	uint8_t ours[DRIVER_MAX_RATES];
	size_t n = ap_rates(ap, ours, DRIVER_MAX_RATES);
	if (!ies->has_supp_rates)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!(ours[i] & WLAN_RATE_BASIC))
			continue;
		uint8_t rate = ours[i] & WLAN_RATE_VALUE_MASK;
		if (!rate_listed(&ies->supp_rates, rate) &&
		    !(ies->has_ext_rates && rate_listed(&ies->ext_rates, rate)))
			return false;
	}
	return true;
}

/* The AKM to use: the strongest of ours the station listed. */
static uint32_t pick_akm(const struct ap *ap, const struct ie_rsn *rsn)
{
	if (ap->conf.akm_psk_sha256 && ie_rsn_has_akm(rsn, RSN_AKM_PSK_SHA256))
		return RSN_AKM_PSK_SHA256;
	if (ie_rsn_has_akm(rsn, RSN_AKM_PSK))
		return RSN_AKM_PSK;
	return 0;
}

static uint16_t check_rsn(struct ap *ap, struct ap_sta *sta, const struct ie_set *ies)
{
	const struct ie_rsn *rsn = &ies->rsn;
	if (!ies->has_rsn)
		return WLAN_STATUS_INVALID_IE;
	if (rsn->version != IE_RSN_VERSION)
		return WLAN_STATUS_UNSUPPORTED_RSN_IE_VERSION;
	if (rsn->group_cipher != RSN_CIPHER_CCMP_128)
		return WLAN_STATUS_GROUP_CIPHER_NOT_VALID;
	if (!ie_rsn_has_pairwise(rsn, RSN_CIPHER_CCMP_128))
		return WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID;
	uint32_t akm = pick_akm(ap, rsn);
	if (!akm)
		return WLAN_STATUS_AKMP_NOT_VALID;
	if ((rsn->capab & RSN_CAPAB_MFPR) && !(rsn->capab & RSN_CAPAB_MFPC))
		return WLAN_STATUS_INVALID_RSN_IE_CAPAB;
	if (rsn->capab & RSN_CAPAB_MFPR)
		return WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION;
	if (ies->rsn_elem_len > sizeof(sta->rsne))
		return WLAN_STATUS_INVALID_RSNIE;
	memcpy(sta->rsne, ies->rsn_elem, ies->rsn_elem_len);
	sta->rsne_len = ies->rsn_elem_len;
	/* This request's RSNXE or none: never one kept from an earlier one. */
	sta->rsnxe_len = 0;
	if (ies->has_rsnxe && ies->rsnxe_elem_len <= sizeof(sta->rsnxe)) {
		memcpy(sta->rsnxe, ies->rsnxe_elem, ies->rsnxe_elem_len);
		sta->rsnxe_len = ies->rsnxe_elem_len;
	}
	sta->akm = akm;
	sta->pairwise = RSN_CIPHER_CCMP_128;
	return WLAN_STATUS_SUCCESS;
}

uint16_t ap_assoc_check(struct ap *ap, struct ap_sta *sta, const struct ie_set *ies)
{
	if (!ies->has_ssid || ies->ssid.len != ap->conf.ssid_len ||
	    memcmp(ies->ssid.ssid, ap->conf.ssid, ap->conf.ssid_len) != 0)
		return WLAN_STATUS_UNSPECIFIED_FAILURE;
	if (!ap_conf_acl_allows(&ap->conf, sta->addr))
		return WLAN_STATUS_ASSOC_DENIED_UNSPEC;
	if (!rates_ok(ap, ies))
		return WLAN_STATUS_ASSOC_DENIED_RATES;
	if (ap->conf.rsn) {
		uint16_t st = check_rsn(ap, sta, ies);
		if (st != WLAN_STATUS_SUCCESS)
			return st;
	}
	if (!ap_sta_is_associated(sta) && ap->n_assoc >= ap->conf.max_stations)
		return WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA;
	return WLAN_STATUS_SUCCESS;
}

/* For an element list that did not parse: 72/44 when the RSNE was the
 * culprit on an RSN BSS, else 40. */
uint16_t ap_assoc_parse_status(struct ap *ap, const uint8_t *ies, size_t len,
			       const struct ie_set *failed)
{
	struct ie_elem e;
	if (!ap->conf.rsn || failed->bad_id != WLAN_EID_RSN)
		return WLAN_STATUS_INVALID_IE;
	if (ie_find(ies, len, WLAN_EID_RSN, &e) && e.len >= 2 &&
	    (e.data[0] | e.data[1] << 8) != IE_RSN_VERSION)
		return WLAN_STATUS_UNSUPPORTED_RSN_IE_VERSION;
	return WLAN_STATUS_INVALID_RSNIE;
}
