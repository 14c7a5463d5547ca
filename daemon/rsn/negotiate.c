/* The negotiation; see negotiate.h. Every choice of suites in wpad is made
 * here, so the two roles cannot disagree. */
#include "daemon/rsn/negotiate.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/suites.h"

#include <stdio.h>
#include <string.h>

#define BIT(s) RSN_SUITE_BIT(s)

/* Data ciphers, the station's preference first (strongest). */
static const uint32_t pairwise_pref[] = {
	RSN_CIPHER_GCMP_256, RSN_CIPHER_CCMP_256, RSN_CIPHER_GCMP_128, RSN_CIPHER_CCMP_128,
};
#define N_PAIRWISE (sizeof(pairwise_pref) / sizeof(pairwise_pref[0]))

/* The AP's group cipher: the most widely supported of what it offers. */
static const uint32_t group_pref_ap[] = {
	RSN_CIPHER_CCMP_128, RSN_CIPHER_GCMP_128, RSN_CIPHER_CCMP_256, RSN_CIPHER_GCMP_256,
};

#define STA_PAIRWISE_DEFAULT \
	(BIT(RSN_CIPHER_CCMP_128) | BIT(RSN_CIPHER_GCMP_256) | BIT(RSN_CIPHER_CCMP_256) | \
	 BIT(RSN_CIPHER_GCMP_128))
#define AP_PAIRWISE_DEFAULT BIT(RSN_CIPHER_CCMP_128)
#define PAIRWISE_ANY STA_PAIRWISE_DEFAULT

static const char *const pmf_names[] = {
	[RSN_PMF_DISABLED] = "disabled",
	[RSN_PMF_OPTIONAL] = "optional",
	[RSN_PMF_REQUIRED] = "required",
};

const char *rsn_pmf_name(enum rsn_pmf pmf)
{
	return (unsigned)pmf <= RSN_PMF_REQUIRED ? pmf_names[pmf] : "unknown";
}

int rsn_pmf_from_name(const char *name, enum rsn_pmf *out)
{
	for (unsigned i = 0; name && i <= RSN_PMF_REQUIRED; i++)
		if (strcmp(name, pmf_names[i]) == 0) {
			*out = (enum rsn_pmf)i;
			return 0;
		}
	return -1;
}

static bool driver_has(uint32_t driver_ciphers, uint32_t suite)
{
	uint32_t bit = rsn_cipher_to_driver(suite);
	return bit && (driver_ciphers & bit);
}

static uint32_t allowed_akms(enum rsn_role role, const struct rsn_policy *p)
{
	uint32_t m = p->akms ? p->akms : role == RSN_ROLE_AP ? BIT(RSN_AKM_PSK)
							     : rsn_akms_implemented();
	return m & rsn_akms_implemented();
}

static uint32_t allowed_pairwise(enum rsn_role role, const struct rsn_policy *p)
{
	uint32_t m = p->pairwise ? p->pairwise
				 : role == RSN_ROLE_AP ? AP_PAIRWISE_DEFAULT : STA_PAIRWISE_DEFAULT;
	return m & PAIRWISE_ANY; /* never TKIP, WEP or "use group" */
}

static uint32_t allowed_group(enum rsn_role role, const struct rsn_policy *p)
{
	if (p->group)
		return p->group & (PAIRWISE_ANY | (role == RSN_ROLE_STATION ? BIT(RSN_CIPHER_TKIP) : 0));
	uint32_t m = allowed_pairwise(role, p);
	return role == RSN_ROLE_STATION ? m | BIT(RSN_CIPHER_TKIP) : m;
}

/* ---- the AP's offer ---- */

int rsn_offer(const struct rsn_policy *policy, uint32_t driver_ciphers, struct rsn_offer *out,
	      const char **why)
{
	const char *dummy;
	if (!why)
		why = &dummy;
	*out = (struct rsn_offer){ 0 };
	out->akms = allowed_akms(RSN_ROLE_AP, policy);
	if (!out->akms)
		return *why = "no implemented AKM is allowed", -1;
	for (size_t i = 0; i < N_PAIRWISE; i++)
		if ((allowed_pairwise(RSN_ROLE_AP, policy) & BIT(pairwise_pref[i])) &&
		    driver_has(driver_ciphers, pairwise_pref[i]))
			out->pairwise |= BIT(pairwise_pref[i]);
	if (!out->pairwise)
		return *why = "no allowed pairwise cipher is offered by the driver", -1;
	uint32_t group_ok = allowed_group(RSN_ROLE_AP, policy);
	for (size_t i = 0; i < sizeof(group_pref_ap) / sizeof(group_pref_ap[0]); i++)
		if ((group_ok & BIT(group_pref_ap[i])) && driver_has(driver_ciphers, group_pref_ap[i])) {
			out->group = group_pref_ap[i];
			break;
		}
	if (!out->group)
		return *why = "no allowed group cipher is offered by the driver", -1;
	if (policy->pmf != RSN_PMF_DISABLED) {
		uint32_t bip = rsn_bip_for_cipher(out->group);
		if (!driver_has(driver_ciphers, bip))
			bip = RSN_CIPHER_BIP_CMAC_128;
		if (driver_has(driver_ciphers, bip)) {
			out->group_mgmt = bip;
			out->mfpc = true;
			out->mfpr = policy->pmf == RSN_PMF_REQUIRED;
		} else if (policy->pmf == RSN_PMF_REQUIRED) {
			return *why = "PMF is required but the driver has no BIP cipher", -1;
		}
	}
	return 0;
}

void rsn_offer_to_ie(const struct rsn_offer *offer, struct ie_rsn *out)
{
	ie_rsn_init(out, 0);
	out->n_akm = 0;
	for (unsigned t = 0; t < 32 && out->n_akm < IE_RSN_MAX_SUITES; t++)
		if (offer->akms & (1u << t))
			out->akm[out->n_akm++] = RSN_SUITE(t);
	out->group_cipher = offer->group;
	out->n_pairwise = 0;
	/* Widest-supported first: some stations take the first they know. */
	for (int i = (int)N_PAIRWISE - 1; i >= 0; i--)
		if (offer->pairwise & BIT(pairwise_pref[i]))
			out->pairwise[out->n_pairwise++] = pairwise_pref[i];
	/* With WMM a station keeps a replay counter per access category:
	 * advertise 16 PTKSA replay counters as 802.11 asks then. */
	out->capab = 3 << 2;
	if (offer->mfpc)
		out->capab |= RSN_CAPAB_MFPC;
	if (offer->mfpr)
		out->capab |= RSN_CAPAB_MFPR;
	out->present = IE_RSN_UPTO_CAPAB;
	out->group_mgmt_cipher = offer->group_mgmt ? offer->group_mgmt : RSN_CIPHER_BIP_CMAC_128;
	if (offer->mfpc && offer->group_mgmt != RSN_CIPHER_BIP_CMAC_128)
		out->present = IE_RSN_UPTO_GROUP_MGMT;
}

/* ---- the station: choosing from an AP's offer ---- */

static uint16_t refuse(struct rsn_negotiated *out, uint16_t status, const char *why)
{
	out->why = why;
	return status;
}

static bool peer_has_pairwise(const struct ie_rsn *peer, uint32_t suite)
{
	return ie_rsn_has_pairwise(peer, suite);
}

static uint16_t pick_pairwise(const struct rsn_policy *policy, uint32_t driver_ciphers,
			      const struct ie_rsn *peer, struct rsn_negotiated *out)
{
	uint32_t ok = allowed_pairwise(RSN_ROLE_STATION, policy);
	for (size_t i = 0; i < N_PAIRWISE; i++) {
		uint32_t c = pairwise_pref[i];
		if ((ok & BIT(c)) && peer_has_pairwise(peer, c) && driver_has(driver_ciphers, c)) {
			out->pairwise = c;
			return WLAN_STATUS_SUCCESS;
		}
	}
	bool offered_aes = false;
	for (size_t i = 0; i < N_PAIRWISE; i++)
		offered_aes = offered_aes || peer_has_pairwise(peer, pairwise_pref[i]);
	if (!offered_aes && peer_has_pairwise(peer, RSN_CIPHER_TKIP))
		return refuse(out, WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID,
			      "its only pairwise cipher is TKIP, which is insecure and not "
			      "supported (CCMP or GCMP is needed)");
	if (!offered_aes)
		return refuse(out, WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID,
			      "it offers no pairwise cipher wpad implements");
	return refuse(out, WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID,
		      "none of its pairwise ciphers is both allowed by the network's policy "
		      "and offered by the driver");
}

static uint16_t check_group(enum rsn_role role, const struct rsn_policy *policy,
			    uint32_t driver_ciphers, uint32_t group, struct rsn_negotiated *out)
{
	if (!(allowed_group(role, policy) & BIT(group)))
		return refuse(out, WLAN_STATUS_GROUP_CIPHER_NOT_VALID,
			      group == RSN_CIPHER_TKIP && role == RSN_ROLE_AP
				      ? "TKIP is not offered as a group cipher"
				      : "its group cipher is not allowed by the policy");
	if (!driver_has(driver_ciphers, group))
		return refuse(out, WLAN_STATUS_GROUP_CIPHER_NOT_VALID,
			      group == RSN_CIPHER_TKIP
				      ? "its group cipher is TKIP (a mixed WPA/WPA2 network) and "
					"this driver does not offer TKIP"
				      : "its group cipher is not offered by the driver");
	out->group = group;
	return WLAN_STATUS_SUCCESS;
}

/* Both sides' MFPC/MFPR (IEEE 802.11-2020 12.6.3): MFPR only with MFPC;
 * PMF is in use when both set MFPC. */
static uint16_t station_mfp(const struct rsn_policy *policy, uint32_t driver_ciphers,
			    const struct ie_rsn *peer, struct rsn_negotiated *out)
{
	bool peer_c = peer->capab & RSN_CAPAB_MFPC, peer_r = peer->capab & RSN_CAPAB_MFPR;
	uint32_t bip = peer->group_mgmt_cipher;
	bool can = policy->pmf != RSN_PMF_DISABLED && rsn_cipher_is_bip(bip) &&
		   driver_has(driver_ciphers, bip);

	if (peer_r && !peer_c)
		return refuse(out, WLAN_STATUS_INVALID_RSN_IE_CAPAB,
			      "its RSN capabilities require PMF without supporting it (MFPR "
			      "without MFPC)");
	if (peer_r && !can)
		return refuse(out, WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION,
			      policy->pmf == RSN_PMF_DISABLED
				      ? "it requires management frame protection (PMF), which "
					"this network's policy disables"
				      : "it requires management frame protection (PMF) with a "
					"BIP cipher the driver does not offer");
	if (policy->pmf == RSN_PMF_REQUIRED && !(peer_c && can))
		return refuse(out, WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION,
			      peer_c ? "PMF is required but the driver does not offer its BIP "
				       "cipher"
				     : "PMF is required by this network's policy and the access "
				       "point does not support it");
	out->mfp = peer_c && can;
	out->mfpr = out->mfp && policy->pmf == RSN_PMF_REQUIRED;
	out->group_mgmt = out->mfp ? bip : 0;
	return WLAN_STATUS_SUCCESS;
}

static uint16_t pick_akm(const struct rsn_policy *policy, const struct ie_rsn *peer,
			 struct rsn_negotiated *out)
{
	/* With PMF, the SHA-256 key hierarchy is the one 802.11w goes with.
	 * PSK before 802.1X: a BSS offering both is a PSK network (bss.c). */
	static const uint32_t with_mfp[] = { RSN_AKM_PSK_SHA256, RSN_AKM_PSK,
					     RSN_AKM_8021X_SHA256, RSN_AKM_8021X };
	static const uint32_t without_mfp[] = { RSN_AKM_PSK, RSN_AKM_PSK_SHA256, RSN_AKM_8021X,
						RSN_AKM_8021X_SHA256 };
	const uint32_t *pref = out->mfp ? with_mfp : without_mfp;
	uint32_t ok = allowed_akms(RSN_ROLE_STATION, policy);
	for (size_t i = 0; i < sizeof(with_mfp) / sizeof(with_mfp[0]); i++)
		if ((ok & BIT(pref[i])) && ie_rsn_has_akm(peer, pref[i])) {
			out->akm = pref[i];
			return WLAN_STATUS_SUCCESS;
		}
	return refuse(out, WLAN_STATUS_AKMP_NOT_VALID,
		      "it offers no key management (AKM) that wpad implements and the "
		      "policy allows");
}

static uint16_t negotiate_station(const struct rsn_policy *policy, uint32_t driver_ciphers,
				  const struct ie_rsn *peer, struct rsn_negotiated *out)
{
	uint16_t st;
	/* Pairwise first: a TKIP-only network is refused for its TKIP
	 * pairwise, whatever the driver says about TKIP groups. */
	if ((st = pick_pairwise(policy, driver_ciphers, peer, out)))
		return st;
	if ((st = check_group(RSN_ROLE_STATION, policy, driver_ciphers, peer->group_cipher, out)))
		return st;
	struct rsn_negotiated mfp = *out;
	uint16_t mfp_st = station_mfp(policy, driver_ciphers, peer, &mfp);
	out->mfp = mfp_st == WLAN_STATUS_SUCCESS && mfp.mfp;
	if ((st = pick_akm(policy, peer, out)))
		return st;
	if (mfp_st)
		return refuse(out, mfp_st, mfp.why);
	out->mfpr = mfp.mfpr;
	out->group_mgmt = mfp.group_mgmt;
	const struct rsn_akm_info *a = rsn_akm_info(out->akm);
	if (a && a->pmf_required && !out->mfp)
		return refuse(out, WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION,
			      "its AKM needs management frame protection, which is unavailable");
	return WLAN_STATUS_SUCCESS;
}

/* ---- the AP: checking a station's choice ---- */

static uint16_t negotiate_ap(const struct rsn_policy *policy, uint32_t driver_ciphers,
			     const struct ie_rsn *peer, struct rsn_negotiated *out)
{
	struct rsn_offer offer;
	const char *why;
	if (rsn_offer(policy, driver_ciphers, &offer, &why) < 0)
		return refuse(out, WLAN_STATUS_CIPHER_REJECTED_PER_POLICY, why);
	if (peer->group_cipher != offer.group)
		return refuse(out, WLAN_STATUS_GROUP_CIPHER_NOT_VALID,
			      "the station's group cipher is not the BSS's");
	out->group = offer.group;
	if (peer->n_pairwise != 1)
		return refuse(out, WLAN_STATUS_INVALID_RSNIE,
			      "the station must list exactly one pairwise cipher");
	if (!(offer.pairwise & BIT(peer->pairwise[0])) || !BIT(peer->pairwise[0]))
		return refuse(out, WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID,
			      "the station's pairwise cipher is not offered");
	out->pairwise = peer->pairwise[0];
	if (peer->n_akm != 1)
		return refuse(out, WLAN_STATUS_INVALID_RSNIE,
			      "the station must list exactly one AKM");
	if (!(offer.akms & BIT(peer->akm[0])) || !BIT(peer->akm[0]))
		return refuse(out, WLAN_STATUS_AKMP_NOT_VALID, "the station's AKM is not offered");
	out->akm = peer->akm[0];
	bool sta_c = peer->capab & RSN_CAPAB_MFPC, sta_r = peer->capab & RSN_CAPAB_MFPR;
	if (sta_r && !sta_c)
		return refuse(out, WLAN_STATUS_INVALID_RSN_IE_CAPAB,
			      "the station set MFPR without MFPC");
	if (sta_r && !offer.mfpc)
		return refuse(out, WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION,
			      "the station requires PMF, which this BSS does not offer");
	if (offer.mfpr && !sta_c)
		return refuse(out, WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION,
			      "this BSS requires PMF and the station does not support it");
	out->mfp = offer.mfpc && sta_c;
	if (out->mfp && peer->present >= IE_RSN_UPTO_GROUP_MGMT &&
	    peer->group_mgmt_cipher != offer.group_mgmt)
		return refuse(out, WLAN_STATUS_CIPHER_REJECTED_PER_POLICY,
			      "the station's group management cipher is not the BSS's");
	const struct rsn_akm_info *a = rsn_akm_info(out->akm);
	if (a && a->pmf_required && !out->mfp)
		return refuse(out, WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION,
			      "the AKM needs PMF and the station did not enable it");
	out->mfpr = offer.mfpr;
	out->group_mgmt = out->mfp ? offer.group_mgmt : 0;
	return WLAN_STATUS_SUCCESS;
}

uint16_t rsn_negotiate(enum rsn_role role, const struct rsn_policy *policy,
		       uint32_t driver_ciphers, const struct ie_rsn *peer, bool peer_rsnxe,
		       struct rsn_negotiated *out)
{
	*out = (struct rsn_negotiated){ .peer_rsnxe = peer_rsnxe };
	if (peer->version != IE_RSN_VERSION)
		return refuse(out, WLAN_STATUS_UNSUPPORTED_RSN_IE_VERSION,
			      "the RSN element version is not 1");
	uint16_t st = role == RSN_ROLE_AP ? negotiate_ap(policy, driver_ciphers, peer, out)
					  : negotiate_station(policy, driver_ciphers, peer, out);
	if (st)
		return st;
	out->pmkids = peer->pmkids;
	out->n_pmkid = peer->n_pmkid;
	out->why = NULL;
	return WLAN_STATUS_SUCCESS;
}

void rsn_negotiated_to_ie(const struct rsn_negotiated *n, struct ie_rsn *out)
{
	ie_rsn_init(out, n->akm);
	out->group_cipher = n->group;
	out->pairwise[0] = n->pairwise;
	out->n_pairwise = 1;
	out->capab = 0;
	if (n->mfp)
		out->capab |= RSN_CAPAB_MFPC;
	if (n->mfp && n->mfpr)
		out->capab |= RSN_CAPAB_MFPR;
	out->present = IE_RSN_UPTO_CAPAB;
	if (n->mfp && n->group_mgmt && n->group_mgmt != RSN_CIPHER_BIP_CMAC_128) {
		out->group_mgmt_cipher = n->group_mgmt;
		out->n_pmkid = 0;
		out->present = IE_RSN_UPTO_GROUP_MGMT;
	}
}

char *rsn_describe(const struct ie_rsn *rsn, char *buf, size_t cap)
{
	size_t o = 0;
	int n;
	if (!cap)
		return buf;
	buf[0] = '\0';
#define PUT(...)                                                   \
	do {                                                       \
		n = snprintf(buf + o, cap - o, __VA_ARGS__);       \
		if (n < 0 || (size_t)n >= cap - o)                 \
			return buf;                                \
		o += (size_t)n;                                    \
	} while (0)
	PUT("group %s, pairwise", rsn_cipher_name(rsn->group_cipher));
	for (size_t i = 0; i < rsn->n_pairwise; i++)
		PUT(" %s", rsn_cipher_name(rsn->pairwise[i]));
	PUT(", AKM");
	for (size_t i = 0; i < rsn->n_akm; i++)
		PUT(" %s", rsn_akm_name(rsn->akm[i]));
	if (rsn->capab & RSN_CAPAB_MFPR)
		PUT(", PMF required");
	else if (rsn->capab & RSN_CAPAB_MFPC)
		PUT(", PMF capable");
#undef PUT
	return buf;
}
