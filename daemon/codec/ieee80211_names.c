/* Human-readable names for status and reason codes, for logs and wpactl. */
#include <stddef.h>

#include "daemon/codec/ieee80211.h"

struct code_name {
	uint16_t code;
	const char *name;
};

static const struct code_name status_names[] = {
	{ WLAN_STATUS_SUCCESS, "success" },
	{ WLAN_STATUS_UNSPECIFIED_FAILURE, "unspecified failure" },
	{ WLAN_STATUS_TDLS_WAKEUP_ALTERNATE, "TDLS wakeup schedule rejected, alternative provided" },
	{ WLAN_STATUS_TDLS_WAKEUP_REJECT, "TDLS wakeup schedule rejected" },
	{ WLAN_STATUS_SECURITY_DISABLED, "security disabled" },
	{ WLAN_STATUS_UNACCEPTABLE_LIFETIME, "unacceptable lifetime" },
	{ WLAN_STATUS_NOT_IN_SAME_BSS, "not in same BSS" },
	{ WLAN_STATUS_CAPS_UNSUPPORTED, "cannot support all requested capabilities" },
	{ WLAN_STATUS_REASSOC_NO_ASSOC, "reassociation denied: no association exists" },
	{ WLAN_STATUS_ASSOC_DENIED_UNSPEC, "association denied, reason outside the standard" },
	{ WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG, "authentication algorithm not supported" },
	{ WLAN_STATUS_UNKNOWN_AUTH_TRANSACTION, "authentication transaction sequence out of order" },
	{ WLAN_STATUS_CHALLENGE_FAIL, "challenge failure" },
	{ WLAN_STATUS_AUTH_TIMEOUT, "authentication timeout" },
	{ WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA, "AP unable to handle additional STAs" },
	{ WLAN_STATUS_ASSOC_DENIED_RATES, "basic rates not supported" },
	{ WLAN_STATUS_ASSOC_DENIED_NOSHORT, "short preamble not supported" },
	{ WLAN_STATUS_SPEC_MGMT_REQUIRED, "spectrum management required" },
	{ WLAN_STATUS_PWR_CAPABILITY_NOT_VALID, "power capability unacceptable" },
	{ WLAN_STATUS_SUPPORTED_CHANNEL_NOT_VALID, "supported channels unacceptable" },
	{ WLAN_STATUS_ASSOC_DENIED_NO_SHORT_SLOT_TIME, "short slot time not supported" },
	{ WLAN_STATUS_ASSOC_DENIED_NO_HT, "HT not supported" },
	{ WLAN_STATUS_R0KH_UNREACHABLE, "R0KH unreachable" },
	{ WLAN_STATUS_ASSOC_DENIED_NO_PCO, "PCO not supported" },
	{ WLAN_STATUS_ASSOC_REJECTED_TEMPORARILY, "association rejected temporarily, try later" },
	{ WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION, "robust management frame policy violation" },
	{ WLAN_STATUS_UNSPECIFIED_QOS_FAILURE, "unspecified QoS failure" },
	{ WLAN_STATUS_DENIED_INSUFFICIENT_BANDWIDTH, "insufficient bandwidth" },
	{ WLAN_STATUS_DENIED_POOR_CHANNEL_CONDITIONS, "poor channel conditions" },
	{ WLAN_STATUS_DENIED_QOS_NOT_SUPPORTED, "QoS not supported" },
	{ WLAN_STATUS_REQUEST_DECLINED, "request declined" },
	{ WLAN_STATUS_INVALID_PARAMETERS, "invalid parameters" },
	{ WLAN_STATUS_REJECTED_WITH_SUGGESTED_CHANGES, "rejected with suggested changes" },
	{ WLAN_STATUS_INVALID_IE, "invalid element" },
	{ WLAN_STATUS_GROUP_CIPHER_NOT_VALID, "invalid group cipher" },
	{ WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID, "invalid pairwise cipher" },
	{ WLAN_STATUS_AKMP_NOT_VALID, "invalid AKMP" },
	{ WLAN_STATUS_UNSUPPORTED_RSN_IE_VERSION, "unsupported RSNE version" },
	{ WLAN_STATUS_INVALID_RSN_IE_CAPAB, "invalid RSNE capabilities" },
	{ WLAN_STATUS_CIPHER_REJECTED_PER_POLICY, "cipher suite rejected by policy" },
	{ WLAN_STATUS_TS_NOT_CREATED, "TS not created" },
	{ WLAN_STATUS_DIRECT_LINK_NOT_ALLOWED, "direct link not allowed" },
	{ WLAN_STATUS_DEST_STA_NOT_PRESENT, "destination STA not present" },
	{ WLAN_STATUS_DEST_STA_NOT_QOS_STA, "destination STA is not a QoS STA" },
	{ WLAN_STATUS_ASSOC_DENIED_LISTEN_INT_TOO_LARGE, "listen interval too large" },
	{ WLAN_STATUS_INVALID_FT_ACTION_FRAME_COUNT, "invalid FT action frame count" },
	{ WLAN_STATUS_INVALID_PMKID, "invalid PMKID" },
	{ WLAN_STATUS_INVALID_MDIE, "invalid MDE" },
	{ WLAN_STATUS_INVALID_FTIE, "invalid FTE" },
	{ WLAN_STATUS_GAS_ADV_PROTO_NOT_SUPPORTED, "GAS advertisement protocol not supported" },
	{ WLAN_STATUS_NO_OUTSTANDING_GAS_REQ, "no outstanding GAS request" },
	{ WLAN_STATUS_GAS_RESP_NOT_RECEIVED, "GAS response not received from server" },
	{ WLAN_STATUS_STA_TIMED_OUT_WAITING_FOR_GAS_RESP, "timed out waiting for GAS response" },
	{ WLAN_STATUS_GAS_RESP_LARGER_THAN_LIMIT, "GAS response larger than limit" },
	{ WLAN_STATUS_REQ_REFUSED_HOME, "request refused by home network" },
	{ WLAN_STATUS_ADV_SRV_UNREACHABLE, "advertisement server unreachable" },
	{ WLAN_STATUS_REQ_REFUSED_SSPN, "request refused by SSPN" },
	{ WLAN_STATUS_REQ_REFUSED_UNAUTH_ACCESS, "request refused: unauthenticated access" },
	{ WLAN_STATUS_INVALID_RSNIE, "invalid RSNE contents" },
	{ WLAN_STATUS_ANTI_CLOGGING_TOKEN_REQ, "anti-clogging token required" },
	{ WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED, "finite cyclic group not supported" },
	{ WLAN_STATUS_TRANSMISSION_FAILURE, "transmission failure" },
	{ WLAN_STATUS_REJECTED_WITH_SUGGESTED_BSS_TRANSITION, "rejected with suggested BSS transition" },
	{ WLAN_STATUS_PENDING_ADMITTING_FST_SESSION, "pending admitting FST session" },
	{ WLAN_STATUS_QUERY_RESP_OUTSTANDING, "query response outstanding" },
	{ WLAN_STATUS_DENIED_WITH_SUGGESTED_BAND_AND_CHANNEL, "denied, suggested band and channel" },
	{ WLAN_STATUS_ASSOC_DENIED_NO_VHT, "VHT not supported" },
	{ WLAN_STATUS_FILS_AUTHENTICATION_FAILURE, "FILS authentication failure" },
	{ WLAN_STATUS_UNKNOWN_AUTHENTICATION_SERVER, "unknown authentication server" },
	{ WLAN_STATUS_UNKNOWN_PASSWORD_IDENTIFIER, "unknown password identifier" },
	{ WLAN_STATUS_DENIED_HE_NOT_SUPPORTED, "HE not supported" },
	{ WLAN_STATUS_SAE_HASH_TO_ELEMENT, "SAE hash-to-element" },
	{ WLAN_STATUS_SAE_PK, "SAE-PK" },
};

static const struct code_name reason_names[] = {
	{ WLAN_REASON_UNSPECIFIED, "unspecified" },
	{ WLAN_REASON_PREV_AUTH_NOT_VALID, "previous authentication no longer valid" },
	{ WLAN_REASON_DEAUTH_LEAVING, "STA is leaving or has left" },
	{ WLAN_REASON_DISASSOC_DUE_TO_INACTIVITY, "inactivity" },
	{ WLAN_REASON_DISASSOC_AP_BUSY, "AP unable to handle all associated STAs" },
	{ WLAN_REASON_CLASS2_FRAME_FROM_NONAUTH_STA, "class 2 frame from unauthenticated STA" },
	{ WLAN_REASON_CLASS3_FRAME_FROM_NONASSOC_STA, "class 3 frame from unassociated STA" },
	{ WLAN_REASON_DISASSOC_STA_HAS_LEFT, "STA has left the BSS" },
	{ WLAN_REASON_STA_REQ_ASSOC_WITHOUT_AUTH, "(re)association without authentication" },
	{ WLAN_REASON_PWR_CAPABILITY_NOT_VALID, "power capability unacceptable" },
	{ WLAN_REASON_SUPPORTED_CHANNEL_NOT_VALID, "supported channels unacceptable" },
	{ WLAN_REASON_BSS_TRANSITION_DISASSOC, "BSS transition management" },
	{ WLAN_REASON_INVALID_IE, "invalid element" },
	{ WLAN_REASON_MICHAEL_MIC_FAILURE, "Michael MIC failure" },
	{ WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT, "4-way handshake timeout" },
	{ WLAN_REASON_GROUP_KEY_UPDATE_TIMEOUT, "group key handshake timeout" },
	{ WLAN_REASON_IE_IN_4WAY_DIFFERS, "element in 4-way handshake differs" },
	{ WLAN_REASON_GROUP_CIPHER_NOT_VALID, "invalid group cipher" },
	{ WLAN_REASON_PAIRWISE_CIPHER_NOT_VALID, "invalid pairwise cipher" },
	{ WLAN_REASON_AKMP_NOT_VALID, "invalid AKMP" },
	{ WLAN_REASON_UNSUPPORTED_RSN_IE_VERSION, "unsupported RSNE version" },
	{ WLAN_REASON_INVALID_RSN_IE_CAPAB, "invalid RSNE capabilities" },
	{ WLAN_REASON_IEEE_802_1X_AUTH_FAILED, "IEEE 802.1X authentication failed" },
	{ WLAN_REASON_CIPHER_SUITE_REJECTED, "cipher suite rejected by policy" },
	{ WLAN_REASON_TDLS_TEARDOWN_UNREACHABLE, "TDLS peer unreachable" },
	{ WLAN_REASON_TDLS_TEARDOWN_UNSPECIFIED, "TDLS teardown, unspecified" },
	{ WLAN_REASON_DISASSOC_LOW_ACK, "too many frames unacknowledged" },
	{ WLAN_REASON_STA_LEAVING, "STA leaving" },
	{ WLAN_REASON_END_TS_BA_DLS, "stream or session no longer used" },
	{ WLAN_REASON_UNKNOWN_TS_BA, "mechanism not set up" },
	{ WLAN_REASON_TIMEOUT, "peer timeout" },
	{ WLAN_REASON_PEERKEY_MISMATCH, "PeerKey mismatch" },
	{ WLAN_REASON_AUTHORIZED_ACCESS_LIMIT_REACHED, "authorized access limit reached" },
	{ WLAN_REASON_EXTERNAL_SERVICE_REQUIREMENTS, "external service requirements" },
	{ WLAN_REASON_INVALID_FT_ACTION_FRAME_COUNT, "invalid FT action frame count" },
	{ WLAN_REASON_INVALID_PMKID, "invalid PMKID" },
	{ WLAN_REASON_INVALID_MDE, "invalid MDE" },
	{ WLAN_REASON_INVALID_FTE, "invalid FTE" },
	{ WLAN_REASON_MESH_CHANNEL_SWITCH_UNSPECIFIED, "mesh channel switch, unspecified" },
};

static const char *lookup(const struct code_name *table, size_t n, uint16_t code)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].code == code)
			return table[i].name;
	return "unknown";
}

const char *ieee80211_status_name(uint16_t status)
{
	return lookup(status_names, sizeof(status_names) / sizeof(status_names[0]), status);
}

const char *ieee80211_reason_name(uint16_t reason)
{
	return lookup(reason_names, sizeof(reason_names) / sizeof(reason_names[0]), reason);
}
