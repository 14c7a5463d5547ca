/* RSN negotiation, one decision for both roles: from the local policy
 * (allowed AKMs and ciphers, PMF disabled/optional/required), the driver's
 * cipher capabilities and the peer's parsed RSN element, either the suites
 * of the association (AKM, pairwise, group, group-management cipher, MFP)
 * or the IEEE 802.11-2020 status code (Table 9-80) to refuse with.
 *
 *   station (peer = the AP's advertised RSNE): picks, by wpad's preference,
 *     among what the AP offers; a mismatch gives the code the AP would
 *     answer, so one code names every refusal in logs and errors.
 *   AP (peer = a station's (Re)Association Request RSNE): checks the
 *     station's choice against what the AP offers (rsn_offer()).
 *
 *   version not 1                               44
 *   group cipher not allowed / not in driver    41
 *   no pairwise cipher acceptable (TKIP too)    42
 *   no AKM acceptable                           43
 *   MFPR without MFPC                           45
 *   PMF required by one side, not possible      31
 *   station lists several pairwise/AKM suites   72
 *   station's group-management cipher not ours  46
 */
#ifndef WPAD_RSN_NEGOTIATE_H
#define WPAD_RSN_NEGOTIATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/codec/ie_rsn.h"

enum rsn_pmf {
	RSN_PMF_DISABLED = 0,
	RSN_PMF_OPTIONAL,
	RSN_PMF_REQUIRED,
};

const char *rsn_pmf_name(enum rsn_pmf pmf); /* "disabled", "optional", "required" */
/* Returns 0 and sets *out, or -1 for an unknown name. */
int rsn_pmf_from_name(const char *name, enum rsn_pmf *out);

enum rsn_role {
	RSN_ROLE_STATION,
	RSN_ROLE_AP,
};

/* Masks of RSN_SUITE_BIT(); 0 picks the role's default:
 *   akms      every implemented AKM (station); PSK (AP)
 *   pairwise  CCMP-128, GCMP-256, CCMP-256, GCMP-128 (station); CCMP-128 (AP)
 *   group     the pairwise set plus TKIP (station); the pairwise set (AP)
 * Only what the driver offers is ever used. TKIP is never a pairwise
 * cipher (IEEE 802.11-2020 12.5.2 deprecates it) and only a group cipher
 * for a station (mixed WPA/WPA2 networks). */
struct rsn_policy {
	uint32_t akms;
	uint32_t pairwise;
	uint32_t group;
	enum rsn_pmf pmf;
};

/* What an AP advertises for a policy on a driver. */
struct rsn_offer {
	uint32_t akms;       /* mask */
	uint32_t pairwise;   /* mask */
	uint32_t group;      /* suite */
	uint32_t group_mgmt; /* BIP suite, 0 without MFPC */
	bool mfpc, mfpr;
};

/* The AP's offer. Returns 0, or -1 with *why set when the policy leaves
 * nothing (no AKM, no cipher the driver has, PMF required without BIP). */
int rsn_offer(const struct rsn_policy *policy, uint32_t driver_ciphers, struct rsn_offer *out,
	      const char **why);
/* The AP's RSNE for an offer (RSN capabilities: 16 PTKSA replay counters
 * for WMM, MFPC/MFPR; the group-management cipher when it is not the
 * default BIP-CMAC-128). */
void rsn_offer_to_ie(const struct rsn_offer *offer, struct ie_rsn *out);

struct rsn_negotiated {
	uint32_t akm;
	uint32_t pairwise;
	uint32_t group;
	uint32_t group_mgmt; /* 0: no management frame protection */
	bool mfp;            /* both MFPC: protected management frames in use */
	bool mfpr;           /* our side requires it (station: MFPR to send) */
	const uint8_t *pmkids; /* the peer's PMKID list (into its element) */
	size_t n_pmkid;
	bool peer_rsnxe;
	const char *why;     /* on refusal: the reason in words */
};

/* Returns WLAN_STATUS_SUCCESS (0) with *out filled, or the status code to
 * refuse with (out->why says why). */
uint16_t rsn_negotiate(enum rsn_role role, const struct rsn_policy *policy,
		       uint32_t driver_ciphers, const struct ie_rsn *peer, bool peer_rsnxe,
		       struct rsn_negotiated *out);

/* The station's RSNE for the (Re)Association Request. */
void rsn_negotiated_to_ie(const struct rsn_negotiated *n, struct ie_rsn *out);

/* "group tkip, pairwise tkip ccmp-128, akm psk, pmf capable" into buf. */
char *rsn_describe(const struct ie_rsn *rsn, char *buf, size_t cap);

#endif
