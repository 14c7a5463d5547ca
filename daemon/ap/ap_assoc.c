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
 *   the suites and MFP of the RSN element    the code rsn_negotiate()
 *   against what the BSS offers              gives (daemon/rsn/negotiate.h:
 *                                            41 42 43 44 45 31 46 72)
 *   an SAE AKM without SAE or a PMKSA        53  invalid PMKID
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
#include "daemon/rsn/auth_proto.h"
#include "daemon/rsn/suites.h"

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

/* An SAE AKM needs a PMK: this authentication's SAE, or a PMKSA the
 * station names (it authenticated with Open System to use it). */
static bool sae_keys_ok(struct ap_sta *sta)
{
	const struct rsn_akm_info *i = rsn_akm_info(sta->akm);
	if (!i || i->family != RSN_AKM_FAMILY_SAE)
		return true;
	if (sta->auth && sta->auth->proto == &auth_sae && sta->auth->done)
		return true;
	return ap_keys_sta_has_pmksa(sta);
}

static uint16_t check_rsn(struct ap *ap, struct ap_sta *sta, const struct ie_set *ies)
{
	struct rsn_negotiated n;
	char a[AP_ADDR_STR_LEN];
	if (!ies->has_rsn)
		return WLAN_STATUS_INVALID_IE;
	struct rsn_policy policy = ap_rsn_policy(ap);
	uint16_t st = rsn_negotiate(RSN_ROLE_AP, &policy, ap->capa.ciphers, &ies->rsn,
				    ies->has_rsnxe, &n);
	if (st != WLAN_STATUS_SUCCESS) {
		log_info("%s: refused (status %u): %s", ap_addr_str(sta->addr, a), st, n.why);
		return st;
	}
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
	sta->akm = n.akm;
	sta->pairwise = n.pairwise;
	sta->pmf.mfp = n.mfp;
	if (!sae_keys_ok(sta)) {
		log_info("%s: SAE AKM without SAE or a cached PMKSA (status 53)",
			 ap_addr_str(sta->addr, a));
		return WLAN_STATUS_INVALID_PMKID;
	}
	log_info("%s: AKM %s, pairwise %s, PMF %s", ap_addr_str(sta->addr, a), rsn_akm_name(n.akm),
		 rsn_cipher_name(n.pairwise), n.mfp ? "on" : "off");
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
