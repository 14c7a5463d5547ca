/* OWE as an authentication protocol (RFC 8110 4.2-4.4; IEEE 802.11-2020
 * 12.14): Open System Authentication frames, then the key agreement in
 * the (Re)Association frames, each side's OWE Diffie-Hellman Parameter
 * element carrying its public key. The PMK and PMKID go to the session
 * for the 4-way handshake and the PMKSA cache.
 *
 * Station: offers group 19 first; an AP answering status 77 (group not
 * supported) makes sta_rx_assoc return AUTH_STEP_SEND: the SME starts
 * over with the next group (20, then 21); after the last, FAILED.
 * AP: takes the groups of its mask (auth_owe_ap_set_groups; by default
 * 19, 20 and 21), answers 77 to any other,
 * 40 to an OWE association without the element. A request whose RSNE
 * names another AKM is not OWE: it passes untouched (no DH, no PMK).
 * An AP always runs a fresh exchange, also when the station names a
 * cached PMKSA (12.14.3 lets it decline the PMKSA); a station whose
 * response has no DH element keeps to the PMKSA it offered. */
#define LOG_TAG "owe"
#include "daemon/rsn/auth_owe.h"

#include "daemon/codec/ie.h"
#include "daemon/codec/ie_owe.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/crypto/owe.h"
#include "daemon/crypto/secure.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const uint16_t sta_groups[] = { OWE_GROUP_P256, OWE_GROUP_P384, OWE_GROUP_P521 };
#define N_STA_GROUPS (sizeof(sta_groups) / sizeof(sta_groups[0]))

struct owe_state {
	struct owe_key *key;
	unsigned group_idx; /* station: index into sta_groups */
	uint32_t ap_groups; /* AP: bit n accepts group n */
	bool exchanged;     /* AP: a DH element goes into the response */
};

static struct owe_state *state(struct auth_sess *s)
{
	if (!s->priv) {
		struct owe_state *o = calloc(1, sizeof(*o));
		if (!o)
			return NULL;
		o->ap_groups = AUTH_OWE_AP_GROUPS_DEFAULT;
		s->priv = o;
	}
	return s->priv;
}

static void owe_free(struct auth_sess *s)
{
	struct owe_state *o = s->priv;
	if (!o)
		return;
	owe_key_free(o->key);
	free(o);
	s->priv = NULL;
}

int auth_owe_ap_set_groups(struct auth_sess *s, uint32_t mask)
{
	struct owe_state *o = state(s);
	if (!o)
		return -ENOMEM;
	o->ap_groups = mask;
	return 0;
}

uint16_t auth_owe_group(struct auth_sess *s)
{
	struct owe_state *o = state(s);
	return o && o->key ? owe_key_group(o->key) : 0;
}

/* A whole DH element of our key into buf. */
static int build_dh(const struct owe_key *key, uint8_t *buf, size_t max, size_t *len)
{
	uint8_t pub[OWE_PUBKEY_MAX];
	size_t n;
	struct wbuf w = wbuf_init(buf, max);

	if (owe_key_public(key, pub, sizeof(pub), &n) < 0)
		return -EIO;
	struct ie_owe_dh dh = { .group = owe_key_group(key), .key = pub, .key_len = n };
	if (ie_build_owe_dh(&w, &dh) != CODEC_OK || w.bad)
		return -ENOSPC;
	*len = w.len;
	return 0;
}

static int derive_into(struct auth_sess *s, const struct owe_key *key, bool own_is_sta,
		       const struct ie_owe_dh *peer)
{
	struct owe_result r;
	int ret = owe_derive(key, own_is_sta, peer->key, peer->key_len, &r);
	if (ret == 0)
		ret = auth_sess_set_pmk(s, r.pmk, r.pmk_len, r.pmkid);
	crypto_zero(&r, sizeof(r));
	return ret;
}

/* ---- station ---- */

static enum auth_step sta_start(struct auth_sess *s, struct auth_out *out)
{
	struct owe_state *o = state(s);
	if (!o)
		return AUTH_STEP_FAILED;
	if (!o->key && !(o->key = owe_key_new(sta_groups[o->group_idx])))
		return AUTH_STEP_FAILED;
	return auth_open.sta_start(s, out);
}

static int sta_assoc_elems(struct auth_sess *s, uint8_t *buf, size_t max, size_t *len)
{
	struct owe_state *o = state(s);
	return o && o->key ? build_dh(o->key, buf, max, len) : -EINVAL;
}

/* Status 77: the next group, fresh keys, and the SME starts over. */
static enum auth_step next_group(struct auth_sess *s, struct owe_state *o)
{
	uint16_t refused = owe_key_group(o->key);
	s->status = WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED;
	owe_key_free(o->key);
	o->key = NULL;
	if (++o->group_idx >= N_STA_GROUPS) {
		log_info("the AP supports none of the OWE groups 19, 20, 21");
		return AUTH_STEP_FAILED;
	}
	log_info("OWE group %u refused; trying group %u", refused, sta_groups[o->group_idx]);
	return (o->key = owe_key_new(sta_groups[o->group_idx])) ? AUTH_STEP_SEND
								 : AUTH_STEP_FAILED;
}

static enum auth_step sta_rx_assoc(struct auth_sess *s, uint16_t status, const uint8_t *elems,
				   size_t len)
{
	struct owe_state *o = state(s);
	struct ie_owe_dh dh;

	if (!o || !o->key)
		return AUTH_STEP_FAILED;
	if (status == WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED)
		return next_group(s, o);
	if (status != WLAN_STATUS_SUCCESS) {
		s->status = status;
		return AUTH_STEP_FAILED;
	}
	int err = ie_find_owe_dh(elems, len, &dh);
	if (err == CODEC_E_UNSUPPORTED) {
		log_debug("no OWE DH element: the AP took our cached PMKSA");
		return AUTH_STEP_DONE;
	}
	if (err != CODEC_OK || dh.group != owe_key_group(o->key)) {
		log_info("the AP's OWE DH element is %s",
			 err ? codec_strerror(err) : "for another group");
		s->status = WLAN_STATUS_INVALID_IE;
		return AUTH_STEP_FAILED;
	}
	if (derive_into(s, o->key, true, &dh) < 0) {
		log_info("the AP's OWE public key is not a point of group %u", dh.group);
		s->status = WLAN_STATUS_INVALID_IE;
		return AUTH_STEP_FAILED;
	}
	return AUTH_STEP_DONE;
}

/* ---- AP ---- */

static bool requests_owe(const uint8_t *elems, size_t len)
{
	struct ie_elem e;
	struct ie_rsn rsn;
	if (!ie_find(elems, len, WLAN_EID_RSN, &e) || ie_parse_rsn(e.data, e.len, &rsn) != CODEC_OK)
		return false;
	return rsn.n_akm == 1 && rsn.akm[0] == RSN_AKM_OWE;
}

static uint16_t ap_rx_assoc(struct auth_sess *s, const uint8_t *elems, size_t len)
{
	struct owe_state *o = state(s);
	struct ie_owe_dh dh;

	if (!o)
		return WLAN_STATUS_UNSPECIFIED_FAILURE;
	owe_key_free(o->key);
	o->key = NULL;
	o->exchanged = false;
	if (!requests_owe(elems, len))
		return WLAN_STATUS_SUCCESS;
	int err = ie_find_owe_dh(elems, len, &dh);
	if (err != CODEC_OK) {
		log_info("OWE association %s", err == CODEC_E_UNSUPPORTED
							? "without a DH element"
							: "with a malformed DH element");
		return WLAN_STATUS_INVALID_IE;
	}
	if (dh.group >= 32 || !(o->ap_groups & (1u << dh.group)) || !owe_group_supported(dh.group))
		return WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED;
	if (owe_check_peer(dh.group, dh.key, dh.key_len) < 0) {
		log_info("OWE public key is not a point of group %u", dh.group);
		return WLAN_STATUS_INVALID_IE;
	}
	if (!(o->key = owe_key_new(dh.group)) || derive_into(s, o->key, false, &dh) < 0)
		return WLAN_STATUS_UNSPECIFIED_FAILURE;
	o->exchanged = true;
	return WLAN_STATUS_SUCCESS;
}

static int ap_assoc_elems(struct auth_sess *s, uint8_t *buf, size_t max, size_t *len)
{
	struct owe_state *o = state(s);
	if (!o || !o->exchanged || !o->key)
		return 0;
	return build_dh(o->key, buf, max, len);
}

static enum auth_step ap_rx_auth(struct auth_sess *s, const struct auth_msg *in,
				 struct auth_out *out)
{
	return auth_open.ap_rx_auth(s, in, out);
}

static enum auth_step sta_rx_auth(struct auth_sess *s, const struct auth_msg *in,
				  struct auth_out *out)
{
	return auth_open.sta_rx_auth(s, in, out);
}

const struct auth_proto auth_owe = {
	.algorithm = WLAN_AUTH_OPEN,
	.akm = RSN_AKM_OWE,
	.name = "OWE",
	.sta_start = sta_start,
	.sta_rx_auth = sta_rx_auth,
	.sta_assoc_elems = sta_assoc_elems,
	.sta_rx_assoc = sta_rx_assoc,
	.ap_rx_auth = ap_rx_auth,
	.ap_rx_assoc = ap_rx_assoc,
	.ap_assoc_elems = ap_assoc_elems,
	.free = owe_free,
};
