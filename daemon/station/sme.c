/* The user-space SME on one BSS: authentication through the protocol
 * table of daemon/rsn/auth_proto.h (Open System today; SAE and FT plug in
 * there, as many Authentication frames as they need), association with
 * the RSN element we chose and the protocol's elements, then the 4-way
 * handshake. Timeouts are
 * retried a bounded number of times; a refusal or the last timeout moves on
 * to the next BSS of the network (connect_next_bss), a wrong passphrase ends
 * the connect at once: it would be wrong on every BSS. */
#define LOG_TAG "sme"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/auth_proto.h"
#include "daemon/rsn/pmksa.h"
#include "daemon/rsn/suites.h"
#include "daemon/station/station_i.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* How telling a failure is, to report the best one after trying several
 * BSSes: a wrong passphrase beats a refusal with a status code, which beats
 * a timeout, which beats the rest. */
static int error_weight(enum wpad_error_code code)
{
	switch (code) {
	case WPAD_ERR_INVALID_PASSPHRASE:
		return 4;
	case WPAD_ERR_ASSOCIATION_REJECTED:
	case WPAD_ERR_AUTHENTICATION_FAILED:
		return 3;
	case WPAD_ERR_TIMEOUT:
		return 2;
	default:
		return 1;
	}
}

static void record_error(struct station *st, const struct wpad_error *err)
{
	struct station_connect *c = &st->conn;
	if (!c->have_err || error_weight(err->code) >= error_weight(c->last_err.code)) {
		c->last_err = *err;
		c->have_err = true;
	}
}

/* OWE has no passphrase: a 4-way handshake whose keys do not agree comes
 * from the DH exchange (an AP that answered a retransmitted association
 * request with a new key while the driver took its first answer). Not
 * InvalidPassphrase; the BSS is tried once more from the start. Returns
 * true when that retry began. */
static bool owe_handshake_failed(struct station *st, struct wpad_error *err)
{
	struct station_connect *c = &st->conn;
	char a[18];

	if (err->code != WPAD_ERR_INVALID_PASSPHRASE || c->neg.akm != RSN_AKM_OWE)
		return false;
	wpad_error_set(err, WPAD_ERR_AUTHENTICATION_FAILED, 0, err->ieee_status, err->ieee_reason,
		       "the 4-way handshake with %s failed: the OWE keys did not agree",
		       bss_addr_str(c->bss.bssid, a));
	if (c->owe_retried)
		return false;
	c->owe_retried = true;
	log_info("%s; trying the OWE exchange again", err->text);
	station_disarm_timer(st);
	station_teardown_link(st, WLAN_REASON_DEAUTH_LEAVING);
	c->auth_tries = c->assoc_tries = 0;
	sme_start(st);
	return true;
}

/* The 4-way handshake checks the passphrase only where the PMK is made
 * from it (PSK). With SAE, SAE's confirm proved the password (or the PMK
 * came from the PMKSA cache): keys that do not agree, or a message 3 that
 * never comes, mean the AP keyed its handshake with another exchange's PMK
 * or is too busy to answer in time (issue 15: 100 stations under load got
 * "no message 3 after our message 2" as a wrong password). Not
 * InvalidPassphrase; the connect goes on as after any failed attempt. */
static void sae_handshake_failed(const struct station *st, struct wpad_error *err)
{
	const struct rsn_akm_info *akm = rsn_akm_info(st->conn.neg.akm);
	if (err->code != WPAD_ERR_INVALID_PASSPHRASE || st->state != STATION_HANDSHAKING ||
	    !akm || akm->family != RSN_AKM_FAMILY_SAE)
		return;
	char text[sizeof(err->text)];
	char a[18];
	snprintf(text, sizeof(text), "%s", err->text);
	char *why = strstr(text, STATION_WRONG_PSK_HINT);
	if (why)
		*why = 0; /* SAE proved it */
	wpad_error_set(err, WPAD_ERR_AUTHENTICATION_FAILED, 0, err->ieee_status, err->ieee_reason,
		       "%s, after SAE had confirmed the password: %s did not complete the "
		       "handshake with the PMK SAE gave", text, bss_addr_str(st->conn.bss.bssid, a));
}

void sme_bss_failed(struct station *st, const struct wpad_error *err_in, bool try_next_bss)
{
	char a[18];
	struct wpad_error verdict = *err_in; /* after the AKM's own reading (OWE, SAE) */
	const struct wpad_error *err = &verdict;

	if (owe_handshake_failed(st, &verdict))
		return;
	sae_handshake_failed(st, &verdict);
	try_next_bss = try_next_bss || verdict.code != err_in->code;
	log_info("%s: %s", bss_addr_str(st->conn.bss.bssid, a), err->text);
	record_error(st, err);
	station_disarm_timer(st);
	if (!try_next_bss || err->code == WPAD_ERR_INVALID_PASSPHRASE) {
		connect_finish(st, &st->conn.last_err);
		return;
	}
	station_teardown_link(st, WLAN_REASON_DEAUTH_LEAVING);
	connect_next_bss(st);
}

static void fail_errno(struct station *st, int ret, const char *what)
{
	struct wpad_error e;
	wpad_error_set(&e, wpad_error_code_from_errno(ret), ret, -1, -1, "%s: %s", what,
		       strerror(-ret));
	sme_bss_failed(st, &e, false); /* the driver refuses: no storm of retries */
}

/* The authentication algorithm for the BSS: SAE for the SAE AKMs, unless
 * a PMKSA with the BSS lets us associate with its PMKID straight after
 * Open System (12.6.10.3: PMKSA caching skips SAE); Open System for the
 * rest. */
static uint16_t auth_algorithm(const struct station *st)
{
	const struct station_connect *c = &st->conn;
	const struct rsn_akm_info *a = rsn_akm_info(c->neg.akm);
	if (!a || a->family != RSN_AKM_FAMILY_SAE)
		return WLAN_AUTH_OPEN;
	if (pmksa_cache_get(st->pmksa, st->addr, c->bss.bssid, c->neg.akm))
		return WLAN_AUTH_OPEN;
	return WLAN_AUTH_SAE;
}

/* The AP wants H2E: it says SAE H2E in its RSNXE (capability) or lists the
 * H2E-only membership selector (requirement). */
static bool bss_sae_h2e(const struct station_bss *b)
{
	/* RSNXE: id, length, then the capabilities; the low 4 bits of the
	 * first octet are the field's length. */
	return b->rsnxe_len >= 3 && (b->rsnxe[2] & (1u << RSNX_CAPAB_SAE_H2E));
}

/* SAE's parameters for this BSS (auth_sae.h). Returns 0, or fills e: an
 * AP that requires H2E while we are set to hunting-and-pecking. */
static int sae_setup(struct station *st, struct wpad_error *e)
{
	struct station_connect *c = &st->conn;
	char a[18];

	auth_sae_conf_clear(&c->sae);
	auth_sae_conf_init(&c->sae);
	memcpy(c->sae.ssid, c->ssid, c->ssid_len);
	c->sae.ssid_len = c->ssid_len;
	c->sae.pt_cache = st->sae_pt;
	if (auth_sae_conf_add_password(&c->sae, c->passphrase,
				       st->sae_pw_id[0] ? st->sae_pw_id : NULL) < 0)
		return wpad_error_set(e, WPAD_ERR_NO_AGENT, 0, -1, -1,
				      "SAE needs the network's passphrase"), -ENOKEY;
	bool ap_h2e = bss_sae_h2e(&c->bss);
	enum sae_pwe_mode mode = st->sae_pwe; /* the known network's SAEPWE wins */
	if (c->sae_pwe[0] && sae_pwe_mode_parse(c->sae_pwe, &mode) < 0)
		mode = st->sae_pwe;
	if (c->bss.sae_h2e_only && mode == SAE_PWE_HUNT_AND_PECK)
		return wpad_error_set(e, WPAD_ERR_NOT_SUPPORTED, 0, WLAN_STATUS_SAE_HASH_TO_ELEMENT,
				      -1, "the access point %s requires SAE hash-to-element and "
				      "wpad is set to hunting-and-pecking (status 126)",
				      bss_addr_str(c->bss.bssid, a)), -EOPNOTSUPP;
	switch (mode) {
	case SAE_PWE_HUNT_AND_PECK:
		c->sae.pwe = SAE_PWE_HUNT_AND_PECK;
		break;
	case SAE_PWE_H2E:
		c->sae.pwe = SAE_PWE_H2E;
		break;
	case SAE_PWE_BOTH: /* the default: H2E where the AP offers it */
		c->sae.pwe = ap_h2e || c->bss.sae_h2e_only ? SAE_PWE_H2E : SAE_PWE_HUNT_AND_PECK;
		break;
	}
	return 0;
}

static enum driver_auth_alg driver_alg(uint16_t alg)
{
	switch (alg) {
	case WLAN_AUTH_SHARED_KEY:
		return DRIVER_AUTH_SHARED_KEY;
	case WLAN_AUTH_FT:
		return DRIVER_AUTH_FT;
	case WLAN_AUTH_SAE:
		return DRIVER_AUTH_SAE;
	default:
		return DRIVER_AUTH_OPEN;
	}
}

/* The SSID of the BSS we join: the network's, or its OWE twin's. */
static void link_ssid(const struct station_connect *c, struct driver_ssid *out)
{
	const uint8_t *ssid = c->via_owe ? c->bss.ssid : c->ssid;
	out->len = c->via_owe ? c->bss.ssid_len : c->ssid_len;
	memcpy(out->ssid, ssid, out->len);
}

/* One Authentication frame of the protocol, through the driver. Open
 * System's first frame is the driver's own (no data); any other frame
 * goes as auth data: transaction and status, then the body (the layout
 * of driver_auth_params.auth_data). */
static int send_auth_frame(struct station *st, const struct auth_out *out)
{
	const struct station_bss *b = &st->conn.bss;
	uint16_t alg = st->conn.auth->proto->algorithm;
	struct driver_auth_params p = { .freq_mhz = b->freq_mhz, .alg = driver_alg(alg) };
	uint8_t data[4 + AUTH_BODY_MAX];

	memcpy(p.bssid, b->bssid, DRIVER_ADDR_LEN);
	link_ssid(&st->conn, &p.ssid);
	if (alg != WLAN_AUTH_OPEN) {
		data[0] = (uint8_t)out->seq;
		data[1] = (uint8_t)(out->seq >> 8);
		data[2] = (uint8_t)out->status;
		data[3] = (uint8_t)(out->status >> 8);
		memcpy(data + 4, out->body, out->body_len);
		p.auth_data = data;
		p.auth_data_len = 4 + out->body_len;
	}
	int ret = driver_authenticate(st->drv, st->ifindex, &p);
	crypto_zero(data, sizeof(data));
	return ret;
}

/* A hint for the statuses SAE ends with, so LastError says what to do. */
static const char *status_hint(uint16_t status)
{
	switch (status) {
	case WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED:
		return ": no SAE group in common (wpad offers 19, 20 and 21)";
	case WLAN_STATUS_UNKNOWN_PASSWORD_IDENTIFIER:
		return ": the access point does not know our SAE password identifier";
	case WLAN_STATUS_SAE_HASH_TO_ELEMENT:
		return ": the access point and wpad disagree on SAE hash-to-element";
	default:
		return "";
	}
}

static void auth_failed(struct station *st, uint16_t status, const char *what)
{
	struct wpad_error e;
	char a[18];

	bss_addr_str(st->conn.bss.bssid, a);
	if (st->conn.auth && st->conn.auth->bad_credential) {
		/* SAE: the peer's confirm did not verify, or it refused ours. */
		wpad_error_set(&e, WPAD_ERR_INVALID_PASSPHRASE, 0, status, -1,
			       "SAE with %s failed at the confirm (status %u): the passphrase is "
			       "wrong", a, status);
		sme_bss_failed(st, &e, false);
		return;
	}
	wpad_error_set(&e, WPAD_ERR_AUTHENTICATION_FAILED, 0, status, -1,
		       "the access point %s %s: status %u (%s)%s", a, what, status,
		       ieee80211_status_name(status), status_hint(status));
	sme_bss_failed(st, &e, true);
}

/* Whether the driver reports our authentication frames' TX status. */
static bool auth_tx_status_reported(const struct station *st)
{
	return st->have_capa && (st->capa.ext_features & DRIVER_EXT_AUTH_TX_STATUS);
}

/* Waits for the next frame: the protocol's retransmission period, else
 * the MLME timeout. The period runs from the frame's acknowledgement
 * where the driver reports it (IEEE 802.11-2020 12.4.8.5: the peer must
 * have had the frame): a frame still queued behind other transmitters
 * has not timed out, and a copy would only lengthen the queue. A frame
 * never acknowledged ends in the driver's timeout (DRIVER_EV_AUTH
 * timed_out), which resends at once. */
static void arm_auth_timer(struct station *st)
{
	const struct auth_sess *s = st->conn.auth;
	bool period = auth_has_timeout(s) && s->retrans_ms;
	st->conn.auth_tx_wait = period && auth_tx_status_reported(st);
	if (st->conn.auth_tx_wait)
		station_arm_timer(st, STATION_AUTH_TX_WAIT_MS);
	else
		station_arm_timer(st, period ? s->retrans_ms : STATION_MLME_TIMEOUT_MS);
}

void sme_handle_auth_tx_status(struct station *st, const struct driver_event *ev)
{
	if (st->state != STATION_AUTHENTICATING || !st->conn.auth || !st->conn.auth_tx_wait ||
	    !ev->u.tx_status.acked)
		return; /* not acknowledged: the driver tries again or times out */
	st->conn.auth_tx_wait = false;
	station_arm_timer(st, st->conn.auth->retrans_ms);
}

/* (Re)starts the authentication exchange with the BSS. */
static void send_auth(struct station *st)
{
	const struct station_bss *b = &st->conn.bss;
	struct auth_out out;
	char a[18];

	if (!st->conn.auth) {
		uint16_t alg = auth_algorithm(st);
		struct wpad_error e;
		if (alg == WLAN_AUTH_SAE && sae_setup(st, &e) < 0) {
			sme_bss_failed(st, &e, e.code != WPAD_ERR_NO_AGENT);
			return;
		}
		/* By the AKM too: OWE is algorithm 0 with the AKM OWE. */
		const struct auth_proto *proto =
			auth_proto_find_akm(alg, st->conn.neg.akm, AUTH_ROLE_STA);
		st->conn.auth = auth_sess_new(proto, AUTH_ROLE_STA, st->addr, b->bssid);
		if (!st->conn.auth) {
			fail_errno(st, proto ? -ENOMEM : -EOPNOTSUPP, "authentication");
			return;
		}
		st->conn.auth->ctx = &st->conn.sae;
	}
	st->conn.auth_tries++;
	log_info("authenticating with %s on %u MHz, signal %d dBm (%s, attempt %u)",
		 bss_addr_str(b->bssid, a), b->freq_mhz, b->signal_mbm / 100,
		 st->conn.auth->proto->name, st->conn.auth_tries);
	if (auth_sta_start(st->conn.auth, &out) != AUTH_STEP_SEND) {
		auth_failed(st, st->conn.auth->status, "cannot be authenticated with");
		return;
	}
	int ret = send_auth_frame(st, &out);
	if (ret < 0) {
		fail_errno(st, ret, "authentication request failed");
		return;
	}
	arm_auth_timer(st);
}

void sme_auth_free(struct station *st)
{
	auth_sess_free(st->conn.auth);
	st->conn.auth = NULL;
}

void sme_start(struct station *st)
{
	const struct station_bss *b = &st->conn.bss;

	memcpy(st->bssid, b->bssid, DRIVER_ADDR_LEN);
	memcpy(st->ssid, st->conn.ssid, st->conn.ssid_len);
	st->ssid_len = st->conn.ssid_len;
	st->security = st->conn.security;
	st->freq_mhz = b->freq_mhz;
	st->signal_mbm = b->signal_mbm;
	st->link_up = true;
	st->eapol_sent = 0;
	st->keys_installed = 0;
	if (st->scan.running)
		scan_cancel(st); /* the radio cannot scan and authenticate at once */
	sme_auth_free(st); /* a new BSS, a new exchange */
	st->conn.radio_held = false;
	st->conn.auth_tx_wait = false;
	station_enter_state(st, STATION_AUTHENTICATING);
	/* Another user of the radio (an AP announcing its move) may ask for
	 * time before the radio goes to the BSS's channel. */
	uint32_t hold = st->cb.radio_move ? st->cb.radio_move(st->cb.ctx, b->freq_mhz) : 0;
	if (hold) {
		if (hold > STATION_RADIO_HOLD_MAX_MS)
			hold = STATION_RADIO_HOLD_MAX_MS;
		log_info("waiting up to %u ms before going to %u MHz: the radio's access point "
			 "announces its move", hold, b->freq_mhz);
		st->conn.radio_held = true;
		station_arm_timer(st, hold);
		return;
	}
	send_auth(st);
}

void station_radio_ready(struct station *st)
{
	if (st->state != STATION_AUTHENTICATING || !st->conn.radio_held)
		return;
	st->conn.radio_held = false;
	station_disarm_timer(st);
	send_auth(st);
}

/* A cached PMKSA with this BSS for the AKM, offered by its PMKID so the
 * AP can skip the authentication exchange (12.6.10.3). Only for AKMs that
 * cache (not PSK: nothing changes toward PSK peers). */
static void offer_pmksa(struct station *st, struct ie_rsn *rsn)
{
	struct station_connect *c = &st->conn;
	const struct pmksa *e;

	c->pmksa_offered = false;
	if (!rsn_akm_uses_pmksa(c->neg.akm) ||
	    !(e = pmksa_cache_get(st->pmksa, st->addr, c->bss.bssid, c->neg.akm)))
		return;
	memcpy(c->offered_pmkid, e->pmkid, sizeof(c->offered_pmkid));
	c->pmksa_offered = true;
	/* The PMKID is public (it is sent in the clear); tests match it with
	 * the association request on the air. */
	char id[2 * sizeof(c->offered_pmkid) + 1];
	for (size_t i = 0; i < sizeof(c->offered_pmkid); i++)
		snprintf(id + 2 * i, 3, "%02x", c->offered_pmkid[i]);
	log_info("offering the cached PMKSA (PMKID %s)", id);
	rsn->pmkids = c->offered_pmkid;
	rsn->n_pmkid = 1;
	if (rsn->present < IE_RSN_UPTO_PMKID)
		rsn->present = IE_RSN_UPTO_PMKID;
}

/* Our RSN element: the suites the negotiation chose for this BSS
 * (daemon/rsn/negotiate.c), MFPC when PMF is in use, MFPR when our policy
 * requires it, and a cached PMKSA's PMKID. */
static int build_rsne(struct station *st)
{
	struct station_connect *c = &st->conn;
	struct ie_rsn rsn;
	struct wbuf w = wbuf_init(c->sta_rsne, sizeof(c->sta_rsne));

	if (!c->neg.akm)
		return -EINVAL;
	rsn_negotiated_to_ie(&c->neg, &rsn);
	c->use_mfp = c->neg.mfp;
	offer_pmksa(st, &rsn);
	int err = ie_build_rsn(&w, &rsn);
	c->sta_rsne_len = err ? 0 : w.len;
	return err ? -EINVAL : 0;
}

static void send_assoc(struct station *st)
{
	struct station_connect *c = &st->conn;
	struct driver_assoc_params p = { .freq_mhz = c->bss.freq_mhz, .wmm = c->bss.wmm };
	char a[18];

	uint8_t ies[BSS_RSNE_MAX + 512];
	size_t extra = 0;

	memcpy(p.bssid, c->bss.bssid, DRIVER_ADDR_LEN);
	link_ssid(c, &p.ssid);
	if (c->neg.akm) { /* an RSN BSS: PSK, SAE, OWE, 802.1X */
		if (build_rsne(st) < 0) {
			fail_errno(st, -EINVAL, "building the RSN element failed");
			return;
		}
		memcpy(ies, c->sta_rsne, c->sta_rsne_len);
		p.ies_len = c->sta_rsne_len;
		p.use_mfp = c->use_mfp;
		/* SAE with hash-to-element: our RSNXE says so (12.4.4.2.3), in
		 * the request and again in message 2. */
		c->sta_rsnxe_len = 0;
		if (auth_sae_h2e(c->auth)) {
			static const uint8_t rsnxe[] = { WLAN_EID_RSNX, 1, 1u << RSNX_CAPAB_SAE_H2E };
			memcpy(c->sta_rsnxe, rsnxe, sizeof(rsnxe));
			c->sta_rsnxe_len = sizeof(rsnxe);
			memcpy(ies + p.ies_len, rsnxe, sizeof(rsnxe));
			p.ies_len += sizeof(rsnxe);
		}
	}
	/* The authentication protocol's elements (OWE's DH, FT's MDE/FTE). */
	if (auth_sta_assoc_elems(c->auth, ies + p.ies_len, sizeof(ies) - p.ies_len, &extra) < 0) {
		fail_errno(st, -EINVAL, "building the association elements failed");
		return;
	}
	p.ies_len += extra;
	p.ies = p.ies_len ? ies : NULL;
	c->assoc_tries++;
	if (c->neg.akm)
		log_info("associating with %s (attempt %u): AKM %s, pairwise %s, group %s, PMF %s",
			 bss_addr_str(c->bss.bssid, a), c->assoc_tries, rsn_akm_name(c->neg.akm),
			 rsn_cipher_name(c->neg.pairwise), rsn_cipher_name(c->neg.group),
			 c->neg.mfp ? (c->neg.mfpr ? "required" : "on") : "off");
	else
		log_info("associating with %s (attempt %u)", bss_addr_str(c->bss.bssid, a),
			 c->assoc_tries);
	int ret = driver_associate(st->drv, st->ifindex, &p);
	if (ret < 0) {
		fail_errno(st, ret, "association request failed");
		return;
	}
	station_arm_timer(st, STATION_MLME_TIMEOUT_MS);
}

/* Parses an AUTH/ASSOC event's frame; false when it is not from our BSS. */
static bool event_frame(struct station *st, const struct driver_event *ev, uint8_t subtype,
			struct mgmt_frame *f)
{
	if (mgmt_parse(ev->u.mgmt.frame, ev->u.mgmt.len, f) != 0) {
		log_debug("malformed response ignored");
		return false;
	}
	if (f->subtype != subtype && !(subtype == IEEE80211_STYPE_ASSOC_RESP &&
				       f->subtype == IEEE80211_STYPE_REASSOC_RESP))
		return false;
	return memcmp(f->bssid, st->conn.bss.bssid, DRIVER_ADDR_LEN) == 0;
}

/* A protocol with its own retransmissions (SAE) resends or gives up. */
static bool auth_retransmit(struct station *st)
{
	struct auth_out out;

	if (!auth_has_timeout(st->conn.auth) || !st->conn.auth->priv)
		return false;
	enum auth_step step = auth_timeout(st->conn.auth, &out);
	if (step == AUTH_STEP_SEND) {
		log_info("no answer to SAE; resending");
		int ret = send_auth_frame(st, &out);
		if (ret < 0)
			fail_errno(st, ret, "authentication request failed");
		else
			arm_auth_timer(st);
		return true;
	}
	if (st->conn.auth->bad_credential) {
		auth_failed(st, st->conn.auth->status, "never confirmed");
		return true;
	}
	return false; /* gave up: the timeout below */
}

static void auth_timed_out(struct station *st)
{
	struct wpad_error e;
	char a[18];

	if (auth_retransmit(st))
		return;
	if (auth_has_timeout(st->conn.auth)) {
		wpad_error_set(&e, WPAD_ERR_TIMEOUT, ETIMEDOUT, -1, -1,
			       "the access point %s stopped answering SAE",
			       bss_addr_str(st->conn.bss.bssid, a));
		sme_bss_failed(st, &e, true);
		return;
	}
	if (st->conn.auth_tries < STATION_AUTH_TRIES) {
		log_info("no authentication response; retrying");
		send_auth(st);
		return;
	}
	wpad_error_set(&e, WPAD_ERR_TIMEOUT, ETIMEDOUT, -1, -1,
		       "the access point %s did not answer authentication (%u attempts)",
		       bss_addr_str(st->conn.bss.bssid, a), st->conn.auth_tries);
	sme_bss_failed(st, &e, true);
}

void sme_handle_auth(struct station *st, const struct driver_event *ev)
{
	struct mgmt_frame f;
	struct auth_out out;
	char a[18];
	int ret;

	/* A locally generated result is the driver dropping an older
	 * request of ours, not an answer to the current one. */
	if (st->state != STATION_AUTHENTICATING || ev->u.mgmt.locally_generated ||
	    !st->conn.auth)
		return;
	if (ev->u.mgmt.timed_out || !ev->u.mgmt.frame) {
		station_disarm_timer(st);
		auth_timed_out(st);
		return;
	}
	if (!event_frame(st, ev, IEEE80211_STYPE_AUTH, &f))
		return;
	struct auth_msg msg = {
		.alg = f.u.auth.alg,
		.seq = f.u.auth.seq,
		.status = f.u.auth.status,
		.body = f.u.auth.sae_body ? f.u.auth.sae_body : f.ies,
		.body_len = f.u.auth.sae_body ? f.u.auth.sae_len : f.ies_len,
	};
	enum auth_step step = auth_sta_rx_auth(st->conn.auth, &msg, &out);
	log_debug("authentication frame %u from %s (status %u): %s", msg.seq,
		  bss_addr_str(f.bssid, a), msg.status, auth_step_name(step));
	switch (step) {
	case AUTH_STEP_IGNORE:
		return; /* not an answer to our exchange: its timer runs on */
	case AUTH_STEP_SEND:
		station_disarm_timer(st);
		ret = send_auth_frame(st, &out);
		if (ret < 0)
			fail_errno(st, ret, "authentication request failed");
		else
			arm_auth_timer(st);
		return;
	case AUTH_STEP_FAILED:
		station_disarm_timer(st);
		auth_failed(st, st->conn.auth->status, "refused authentication");
		return;
	case AUTH_STEP_DONE:
		break;
	}
	station_disarm_timer(st);
	log_info("authenticated with %s (%s)", bss_addr_str(f.bssid, a),
		 st->conn.auth->proto->name);
	station_enter_state(st, STATION_ASSOCIATING);
	send_assoc(st);
}

/* The AP no longer has the PMKSA we offered: forget it and authenticate
 * in full with the same BSS (SAE this time). */
static bool sme_pmksa_refused(struct station *st)
{
	struct station_connect *c = &st->conn;
	const struct pmksa *e;

	if (!c->pmksa_offered ||
	    !(e = pmksa_cache_get_by_pmkid(st->pmksa, c->bss.bssid, c->offered_pmkid)))
		return false;
	log_info("the access point no longer has our PMKSA; authenticating in full");
	pmksa_cache_remove(st->pmksa, e);
	sme_auth_free(st);
	c->auth_tries = 0;
	station_enter_state(st, STATION_AUTHENTICATING);
	send_auth(st);
	return true;
}

static void assoc_timed_out(struct station *st)
{
	struct wpad_error e;
	char a[18];

	if (st->conn.assoc_tries < STATION_ASSOC_TRIES) {
		/* A driver that gave up on association has forgotten the
		 * BSS (mac80211 does): start over from authentication. */
		log_info("no association response; retrying from authentication");
		st->conn.auth_tries = 0;
		station_enter_state(st, STATION_AUTHENTICATING);
		send_auth(st);
		return;
	}
	wpad_error_set(&e, WPAD_ERR_TIMEOUT, ETIMEDOUT, -1, -1,
		       "the access point %s did not answer association (%u attempts)",
		       bss_addr_str(st->conn.bss.bssid, a), st->conn.assoc_tries);
	sme_bss_failed(st, &e, true);
}

static void associated(struct station *st)
{
	char a[18];
	int ret;

	log_info("associated with %s", bss_addr_str(st->bssid, a));
	if (!st->conn.neg.akm) { /* open: no keys */
		ret = driver_port_authorize(st->drv, st->ifindex, st->bssid, true);
		if (ret < 0 && ret != -EOPNOTSUPP) {
			fail_errno(st, ret, "opening the port failed");
			return;
		}
		st->keys_installed |= KEY_BIT_PORT;
		connect_finish(st, NULL);
		return;
	}
	station_enter_state(st, STATION_HANDSHAKING);
	ret = handshake_start(st);
	if (ret < 0)
		fail_errno(st, ret, "starting the 4-way handshake failed");
}

void sme_handle_assoc(struct station *st, const struct driver_event *ev)
{
	struct mgmt_frame f;
	struct wpad_error e;
	char a[18];

	if (st->state != STATION_ASSOCIATING || ev->u.mgmt.locally_generated)
		return;
	if (ev->u.mgmt.timed_out || !ev->u.mgmt.frame) {
		station_disarm_timer(st);
		assoc_timed_out(st);
		return;
	}
	if (!event_frame(st, ev, IEEE80211_STYPE_ASSOC_RESP, &f))
		return;
	station_disarm_timer(st);
	uint16_t status = f.u.assoc_resp.status;
	if (status == WLAN_STATUS_ASSOC_REJECTED_TEMPORARILY && station_pmf_comeback(st, &f))
		return;
	if (status == WLAN_STATUS_INVALID_PMKID && sme_pmksa_refused(st))
		return;
	/* A refusal the protocol answers with other parameters (OWE: another
	 * group after status 77): start over from authentication. */
	if (status != WLAN_STATUS_SUCCESS &&
	    auth_sta_rx_assoc(st->conn.auth, status, f.ies, f.ies_len) == AUTH_STEP_SEND) {
		log_info("%s refused the association (status %u); trying again",
			 bss_addr_str(f.bssid, a), status);
		st->conn.auth_tries = 0;
		station_enter_state(st, STATION_AUTHENTICATING);
		send_auth(st);
		return;
	}
	if (status != WLAN_STATUS_SUCCESS) {
		wpad_error_set(&e, WPAD_ERR_ASSOCIATION_REJECTED, 0, status, -1,
			       "the access point %s rejected the association: status %u (%s)",
			       bss_addr_str(f.bssid, a), status, ieee80211_status_name(status));
		sme_bss_failed(st, &e, true);
		return;
	}
	/* The protocol's word on the response's elements (OWE, FT). */
	if (auth_sta_rx_assoc(st->conn.auth, status, f.ies, f.ies_len) != AUTH_STEP_DONE) {
		auth_failed(st, st->conn.auth->status, "sent an association response that "
				"does not complete authentication");
		return;
	}
	if (ev->u.mgmt.signal_mbm)
		st->signal_mbm = ev->u.mgmt.signal_mbm;
	associated(st);
}

/* The AP deauthenticated or disassociated us before we were connected. */
void sme_handle_peer_leave(struct station *st, uint16_t reason, bool disassoc)
{
	struct wpad_error e;
	char a[18];
	const char *during = station_state_name(st->state);

	bss_addr_str(st->bssid, a);
	st->link_up = false; /* the AP dropped us: nothing to tear down */
	if (st->state == STATION_HANDSHAKING && st->eapol_sent > 0 &&
	    (reason == WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT ||
	     reason == WLAN_REASON_MICHAEL_MIC_FAILURE)) {
		wpad_error_set(&e, WPAD_ERR_INVALID_PASSPHRASE, 0, -1, reason,
			       "the access point %s ended the 4-way handshake after our "
			       "message 2 (reason %u, %s)" STATION_WRONG_PSK_HINT,
			       a, reason, ieee80211_reason_name(reason));
		sme_bss_failed(st, &e, false);
		return;
	}
	wpad_error_set(&e, WPAD_ERR_AUTHENTICATION_FAILED, 0, -1, reason,
		       "the access point %s %s us while %s: reason %u (%s)", a,
		       disassoc ? "disassociated" : "deauthenticated", during, reason,
		       ieee80211_reason_name(reason));
	sme_bss_failed(st, &e, true);
}

static void handshake_timed_out(struct station *st)
{
	struct wpad_error e;
	char a[18];

	bss_addr_str(st->bssid, a);
	if (enterprise_timed_out(st, &e))
		; /* EAP did not finish: its stage says more than the 4-way */
	else if (enterprise_active(st))
		wpad_error_set(&e, WPAD_ERR_TIMEOUT, ETIMEDOUT, -1, -1,
			       "%s did not complete the 4-way handshake after 802.1X "
			       "authentication succeeded", a);
	else if (st->eapol_sent > 0)
		wpad_error_set(&e, WPAD_ERR_INVALID_PASSPHRASE, 0, -1, -1,
			       "%s never confirmed our 4-way handshake message 2" STATION_WRONG_PSK_HINT, a);
	else
		wpad_error_set(&e, WPAD_ERR_TIMEOUT, ETIMEDOUT, -1, -1,
			       "%s did not start the 4-way handshake", a);
	sme_bss_failed(st, &e, e.code != WPAD_ERR_INVALID_PASSPHRASE);
}

void sme_watchdog(struct station *st)
{
	switch (st->state) {
	case STATION_AUTHENTICATING:
		if (st->conn.radio_held) /* waited long enough for the radio */
			station_radio_ready(st);
		else
			auth_timed_out(st);
		break;
	case STATION_ASSOCIATING:
		assoc_timed_out(st);
		break;
	case STATION_HANDSHAKING:
		handshake_timed_out(st);
		break;
	case STATION_DISCONNECTING:
		station_enter_state(st, STATION_DISCONNECTED);
		break;
	case STATION_DISCONNECTED:
	case STATION_SCANNING:
	case STATION_CONNECTED:
	case STATION_ROAMING:
		break;
	}
}
