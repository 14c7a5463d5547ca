/* Management frames of the BSS: probe requests, authentication,
 * (re)association, deauthentication, disassociation; our deauth/disassoc.
 *
 * Decisions (status codes of association are listed in ap_assoc.c):
 *  - Authentication goes through the protocol table of
 *    daemon/rsn/auth_proto.h: an algorithm it has no AP half for (today
 *    all but Open System: Shared Key, SAE, FT, FILS, ...) gets 13
 *    (unsupported algorithm); the protocol decides the rest (Open System:
 *    a transaction number other than 1 gets 14). A protocol of several
 *    frames keeps its session on the station entry between frames.
 *  - ACL: a refused address is answered, not ignored: status 12 at
 *    authentication and at association. Dropping silently would only make
 *    the station retry until its own timeout and leave the user with
 *    "no answer"; 12 tells it (and the person) at once that it was refused.
 *  - Authentication is refused with 17 when the table already holds
 *    max_stations + AP_AUTH_ONLY_SLACK entries (authenticated-only
 *    stations expire after AP_AUTH_EXPIRY_MS).
 *  - A (re)association request from a station that did not authenticate
 *    is answered with a deauthentication, reason 9.
 *  - A (re)association from a station already associated ends the old
 *    association (keys, AID, station_removed) before the new one starts.
 *  - Association success is final only when the response is acked (TX
 *    status); an unacked response leaves the station authenticated.
 */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/codec/frame.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/rsn/auth_owe.h"
#include "daemon/rsn/auth_proto.h"
#include "daemon/rsn/auth_sae.h"

#include <errno.h>
#include <string.h>

#define MGMT_FRAME_MAX 1024

static const uint8_t broadcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

int ap_mgmt_register(struct ap *ap)
{
	static const uint8_t subtypes[] = {
		IEEE80211_STYPE_PROBE_REQ, IEEE80211_STYPE_AUTH,   IEEE80211_STYPE_ASSOC_REQ,
		IEEE80211_STYPE_REASSOC_REQ, IEEE80211_STYPE_DEAUTH, IEEE80211_STYPE_DISASSOC,
		IEEE80211_STYPE_ACTION,
	};
	for (size_t i = 0; i < sizeof(subtypes); i++) {
		int r = driver_register_mgmt(ap->drv, ap->ifindex,
					     IEEE80211_FC(IEEE80211_FTYPE_MGMT, subtypes[i]), NULL, 0);
		if (r < 0 && r != -EALREADY) /* registrations outlive a stop_ap */
			return r;
	}
	return 0;
}

static int send_frame(struct ap *ap, const struct mgmt_frame *f, uint64_t *cookie)
{
	uint8_t buf[MGMT_FRAME_MAX];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	uint64_t dummy;
	if (mgmt_build(&w, f) < 0)
		return -EINVAL;
	return driver_tx_mgmt(ap->drv, ap->ifindex, 0, buf, w.len, false, cookie ? cookie : &dummy);
}

static int send_reason(struct ap *ap, uint8_t subtype, const uint8_t da[6], uint16_t reason,
		       uint64_t *cookie)
{
	struct mgmt_frame f;
	mgmt_init(&f, subtype, da, ap->addr, ap->addr);
	f.u.reason = reason;
	return send_frame(ap, &f, cookie);
}

int ap_send_deauth(struct ap *ap, const uint8_t da[6], uint16_t reason, uint64_t *cookie)
{
	return send_reason(ap, IEEE80211_STYPE_DEAUTH, da, reason, cookie);
}

int ap_send_disassoc(struct ap *ap, const uint8_t da[6], uint16_t reason)
{
	return send_reason(ap, IEEE80211_STYPE_DISASSOC, da, reason, NULL);
}

/* ---- probe requests ---- */

static void rx_probe_req(struct ap *ap, const struct mgmt_frame *f)
{
	struct ie_set ies;
	uint8_t buf[MGMT_FRAME_MAX];
	size_t len;
	uint64_t cookie;
	char a[AP_ADDR_STR_LEN];

	if (ie_parse(f->ies, f->ies_len, &ies) < 0 || !ies.has_ssid)
		return;
	if (ies.ssid.len == 0) {
		if (ap->conf.hidden)
			return; /* hidden: only directed probes are answered */
	} else if (ies.ssid.len != ap->conf.ssid_len ||
		   memcmp(ies.ssid.ssid, ap->conf.ssid, ap->conf.ssid_len) != 0) {
		return;
	}
	if (ap_build_probe_resp(ap, f->sa, buf, sizeof(buf), &len) < 0)
		return;
	log_verbose("probe request from %s (%s): answered", ap_addr_str(f->sa, a),
		    ies.ssid.len ? "directed" : "wildcard");
	driver_tx_mgmt(ap->drv, ap->ifindex, 0, buf, len, false, &cookie);
}

/* ---- authentication ---- */

static void send_auth_resp(struct ap *ap, const uint8_t da[6], uint16_t alg,
			   const struct auth_out *out, uint64_t *cookie)
{
	struct mgmt_frame f;
	mgmt_init(&f, IEEE80211_STYPE_AUTH, da, ap->addr, ap->addr);
	f.u.auth.alg = alg;
	f.u.auth.seq = out->seq;
	f.u.auth.status = out->status;
	if (out->body_len) {
		if (alg == WLAN_AUTH_SAE) {
			f.u.auth.sae_body = out->body;
			f.u.auth.sae_len = out->body_len;
		} else {
			f.ies = out->body;
			f.ies_len = out->body_len;
		}
	}
	send_frame(ap, &f, cookie);
}

static void refuse_auth(struct ap *ap, const struct mgmt_frame *f, uint16_t status)
{
	char a[AP_ADDR_STR_LEN];
	struct auth_out out = { .seq = (uint16_t)(f->u.auth.seq + 1), .status = status };

	log_info("%s: authentication (algorithm %u) refused, status %u: %s",
		 ap_addr_str(f->sa, a), f->u.auth.alg, status, ieee80211_status_name(status));
	send_auth_resp(ap, f->sa, f->u.auth.alg, &out, NULL);
}

/* The session this frame belongs to: the station's exchange in progress
 * with the same algorithm, else a new one (which replaces any other). A
 * finished SAE exchange still takes a repeated confirm (ours was lost). */
static struct auth_sess *auth_session(struct ap *ap, struct ap_sta *sta,
				      const struct auth_proto *proto, const struct mgmt_frame *f)
{
	if (sta && sta->auth && sta->auth->proto == proto &&
	    (!sta->auth->done ||
	     (proto == &auth_sae &&
	      (f->u.auth.seq == 2 ||
	       auth_sae_same_commit(sta->auth, f->u.auth.sae_body, f->u.auth.sae_len)))))
		return sta->auth; /* SAE: late copies of its commit go to it too */
	struct auth_sess *s = auth_sess_new(proto, AUTH_ROLE_AP, ap->addr, f->sa);
	if (s)
		s->ctx = ap_sae_ctx(ap);
	return s;
}

/* Our answer in the station's session; for SAE its TX status is awaited
 * (auth_copy_crossed_answer). */
static void send_sae_answer(struct ap *ap, struct ap_sta *sta, const struct auth_proto *proto,
			    const struct auth_out *out)
{
	bool sae = proto == &auth_sae;
	send_auth_resp(ap, sta->addr, proto->algorithm, out, sae ? &sta->auth_resp_cookie : NULL);
	sta->auth_resp_pending = sae;
	sta->auth_resp_sent_us = loop_now_us(ap->loop);
}

/* A copy of the station's last SAE frame (its commit again, or its
 * confirm again after we accepted) while our answer to it has not gone
 * out yet: the station's retransmission timer ran while the answer waited
 * in our queue. Answering would queue a second answer behind the first
 * and count toward the sync limit; under load (100 stations at once, a
 * queue seconds long) that limit then ended exchanges that were only
 * slow. The answer on its way serves the copy too. */
static bool auth_copy_crossed_answer(struct ap *ap, const struct ap_sta *sta,
				     const struct auth_sess *sess, const struct mgmt_frame *f)
{
	if (!sta || sta->auth != sess || sess->proto != &auth_sae || !sta->auth_resp_pending ||
	    loop_now_us(ap->loop) - sta->auth_resp_sent_us >= AP_AUTH_RESP_WAIT_MS * 1000ull)
		return false;
	if (f->u.auth.seq == 1)
		return auth_sae_same_commit(sess, f->u.auth.sae_body, f->u.auth.sae_len);
	return f->u.auth.seq == 2 && sess->done;
}

/* A station that authenticates anew has given up the association it had
 * or was being given (its driver gave up waiting for our answer, or it
 * restarted): that association ends now, with what is still queued for
 * it (the driver drops a removed station's EAPOL), rather than when the
 * new exchange completes, so our queue does not carry a 4-way handshake
 * nobody waits for. One place for this decision. Not for a station
 * associated with MFP: an unprotected Authentication must not end that
 * association (its association request starts SA Query instead). */
static void auth_ends_association(struct ap_sta *sta)
{
	if (ap_pmf_protected(sta) || !(ap_sta_is_associated(sta) || sta->assoc_resp_pending))
		return;
	ap_sta_disassociate(sta, WLAN_REASON_PREV_AUTH_NOT_VALID);
}

static void rx_auth(struct ap *ap, const struct mgmt_frame *f, int32_t signal)
{
	char a[AP_ADDR_STR_LEN];
	/* OWE shares algorithm 0 with Open System: the AKM tells them apart. */
	const struct auth_proto *proto = auth_proto_find_akm(
		f->u.auth.alg, ap->conf.owe ? RSN_AKM_OWE : 0, AUTH_ROLE_AP);
	struct ap_sta *sta = ap_sta_find(ap, f->sa);
	struct auth_out out;

	if (!proto || (proto == &auth_sae && !ap_sae_ctx(ap))) {
		refuse_auth(ap, f, WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG);
		return;
	}
	if (!ap_conf_acl_allows(&ap->conf, f->sa)) {
		refuse_auth(ap, f, WLAN_STATUS_ASSOC_DENIED_UNSPEC);
		return;
	}
	if (!sta && sta_table_count(&ap->stas) >= (size_t)ap->conf.max_stations + AP_AUTH_ONLY_SLACK) {
		refuse_auth(ap, f, WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA);
		return;
	}
	struct auth_sess *sess = NULL;
	if (!sta && proto == &auth_sae) {
		bool drop;
		sess = ap_sae_unpark(ap, f, &drop);
		if (drop) {
			log_debug("%s: SAE frame %u of an exchange that ended: dropped",
				  ap_addr_str(f->sa, a), f->u.auth.seq);
			return;
		}
	}
	if (!sess)
		sess = auth_session(ap, sta, proto, f);
	if (auth_copy_crossed_answer(ap, sta, sess, f)) {
		log_debug("%s: SAE frame %u again while our answer waits to go out: that "
			  "answer serves it", ap_addr_str(f->sa, a), f->u.auth.seq);
		return;
	}
	if (sess && proto == &auth_owe && auth_owe_ap_set_groups(sess, ap->conf.owe_groups) < 0) {
		if (!sta || sta->auth != sess)
			auth_sess_free(sess);
		sess = NULL;
	}
	if (!sess) {
		refuse_auth(ap, f, WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA);
		return;
	}
	struct auth_msg msg = {
		.alg = f->u.auth.alg,
		.seq = f->u.auth.seq,
		.status = f->u.auth.status,
		.body = f->u.auth.sae_body ? f->u.auth.sae_body : f->ies,
		.body_len = f->u.auth.sae_body ? f->u.auth.sae_len : f->ies_len,
	};
	enum auth_step step = auth_ap_rx_auth(sess, &msg, &out);
	bool kept = sta && sta->auth == sess;
	if (step == AUTH_STEP_IGNORE || step == AUTH_STEP_FAILED) {
		if (step == AUTH_STEP_FAILED) {
			/* The protocol's answer (SAE: a token request, or the
			 * group it cannot use), else the bare status. */
			log_info("%s: authentication (%s) refused, status %u: %s",
				 ap_addr_str(f->sa, a), proto->name, out.status,
				 ieee80211_status_name(out.status));
			send_auth_resp(ap, f->sa, proto->algorithm, &out, NULL);
		}
		if (!kept)
			auth_sess_free(sess);
		return; /* a station's earlier state stays as it was */
	}
	if (!sta && !(sta = ap_sta_new(ap, f->sa))) {
		auth_sess_free(sess);
		refuse_auth(ap, f, WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA);
		return;
	}
	sta->signal_mbm = signal;
	if (sta->auth != sess) {
		auth_sess_free(sta->auth);
		sta->auth = sess;
		auth_ends_association(sta); /* a new exchange: it started over */
	}
	if (step == AUTH_STEP_SEND) {
		/* More frames to come: the exchange must finish in time. */
		if (sta->state == AP_STA_NONE && !sess->done)
			ap_sta_arm_timer(sta, AP_AUTH_EXPIRY_MS);
		send_sae_answer(ap, sta, proto, &out);
		return;
	}
	if (ap_pmf_protected(sta)) {
		/* Unprotected: it must not end an MFP association; the
		 * association request that follows starts SA Query. */
		send_sae_answer(ap, sta, proto, &out);
		return;
	}
	auth_ends_association(sta); /* a fresh authentication */
	ap_sta_enter_state(sta, AP_STA_AUTHENTICATED);
	ap_sta_arm_timer(sta, AP_AUTH_EXPIRY_MS);
	log_info("%s authenticated (%s)", ap_addr_str(f->sa, a), proto->name);
	send_sae_answer(ap, sta, proto, &out);
}

/* ---- (re)association ---- */

static void copy_rates(struct ap_sta *sta, const struct ie_set *ies)
{
	sta->n_rates = 0;
	for (size_t i = 0; i < ies->supp_rates.n && sta->n_rates < DRIVER_MAX_RATES; i++)
		sta->rates[sta->n_rates++] = ies->supp_rates.rates[i];
	for (size_t i = 0; ies->has_ext_rates && i < ies->ext_rates.n &&
			   sta->n_rates < DRIVER_MAX_RATES; i++)
		sta->rates[sta->n_rates++] = ies->ext_rates.rates[i];
}

/* Records what the station asked for and adds it to the driver. */
static uint16_t admit(struct ap *ap, struct ap_sta *sta, const struct mgmt_frame *f,
		      const struct ie_set *ies)
{
	sta->capability = f->u.assoc_req.capab;
	sta->listen_interval = f->u.assoc_req.listen_interval;
	copy_rates(sta, ies);
	sta->wmm = ies->has_wmm;
	sta->ht = ies->has_ht_cap && ap_band_info(ap)->ht;
	sta->ht_capab = ies->has_ht_cap ? ies->ht_cap.cap_info : 0;
	sta->aid = ap_aid_alloc(ap);
	if (!sta->aid)
		return WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA;

	struct driver_sta_params p = {
		.aid = sta->aid,
		.capability = sta->capability,
		.listen_interval = sta->listen_interval,
		.n_rates = sta->n_rates,
		.flags = DRIVER_STA_AUTHENTICATED | DRIVER_STA_ASSOCIATED |
			 (sta->wmm ? DRIVER_STA_WMM : 0) | (sta->pmf.mfp ? DRIVER_STA_MFP : 0),
		.ht = sta->ht,
		.ht_capab = sta->ht_capab,
	};
	memcpy(p.addr, sta->addr, 6);
	memcpy(p.rates, sta->rates, sta->n_rates);
	uint8_t capbuf[AP_STA_CAP_BUF];
	ap_sta_phy_caps(ap, ies, &p, capbuf, sizeof(capbuf));
	int r = driver_sta_add(ap->drv, ap->ifindex, &p);
	if (r < 0) {
		char a[AP_ADDR_STR_LEN];
		log_warn("%s: driver refused the station: %d", ap_addr_str(sta->addr, a), r);
		ap_aid_free(ap, sta->aid);
		sta->aid = 0;
		return r == -ENOSPC || r == -ENOMEM ? WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA
						     : WLAN_STATUS_UNSPECIFIED_FAILURE;
	}
	sta->in_driver = true;
	return WLAN_STATUS_SUCCESS;
}

static int send_assoc_resp(struct ap *ap, struct ap_sta *sta, bool reassoc, uint16_t status)
{
	uint8_t ies[MGMT_FRAME_MAX / 2];
	size_t ies_len = 0;
	struct mgmt_frame f;
	bool ok = status == WLAN_STATUS_SUCCESS;

	mgmt_init(&f, reassoc ? IEEE80211_STYPE_REASSOC_RESP : IEEE80211_STYPE_ASSOC_RESP,
		  sta->addr, ap->addr, ap->addr);
	f.u.assoc_resp.capab = ap_capability(ap);
	f.u.assoc_resp.status = status;
	f.u.assoc_resp.aid = ok ? sta->aid : 0;
	if (ap_build_assoc_resp_ies(ap, ok && sta->wmm, ok && sta->ht, ies, sizeof(ies),
				    &ies_len) == 0) {
		size_t extra = 0;
		if (ok && sta->auth &&
		    auth_ap_assoc_elems(sta->auth, ies + ies_len, sizeof(ies) - ies_len, &extra) < 0)
			return -EINVAL;
		f.ies = ies;
		f.ies_len = ies_len + extra;
	}
	return send_frame(ap, &f, ok ? &sta->assoc_resp_cookie : NULL);
}

static uint16_t assoc_status(struct ap *ap, struct ap_sta *sta, const struct mgmt_frame *f)
{
	struct ie_set ies;
	if (ie_parse(f->ies, f->ies_len, &ies) < 0)
		return ap_assoc_parse_status(ap, f->ies, f->ies_len, &ies);
	uint16_t status = ap_assoc_check(ap, sta, &ies);
	if (status != WLAN_STATUS_SUCCESS)
		return status;
	/* The authentication protocol's elements (OWE's DH, FT's MDE/FTE). */
	if (sta->auth && (status = auth_ap_rx_assoc(sta->auth, f->ies, f->ies_len)))
		return status;
	return admit(ap, sta, f, &ies);
}

static void rx_assoc(struct ap *ap, const struct mgmt_frame *f, bool reassoc, int32_t signal)
{
	char a[AP_ADDR_STR_LEN];
	const char *what = reassoc ? "reassociation" : "association";
	struct ap_sta *sta = ap_sta_find(ap, f->sa);

	if (!sta || sta->state == AP_STA_NONE) {
		log_info("%s: %s without authentication", ap_addr_str(f->sa, a), what);
		ap_send_deauth(ap, f->sa, WLAN_REASON_STA_REQ_ASSOC_WITHOUT_AUTH, NULL);
		return;
	}
	if (sta->assoc_resp_pending)
		return; /* our answer is still in flight */
	sta->signal_mbm = signal;
	if (ap_pmf_assoc_comeback(ap, sta, reassoc))
		return;
	if (ap_sta_is_associated(sta))
		ap_sta_disassociate(sta, WLAN_REASON_UNSPECIFIED);

	uint16_t status = assoc_status(ap, sta, f);
	if (status != WLAN_STATUS_SUCCESS) {
		log_info("%s: %s refused, status %u: %s", ap_addr_str(f->sa, a), what, status,
			 ieee80211_status_name(status));
		send_assoc_resp(ap, sta, reassoc, status);
		return;
	}
	if (send_assoc_resp(ap, sta, reassoc, status) < 0) {
		ap_sta_disassociate(sta, WLAN_REASON_UNSPECIFIED);
		return;
	}
	log_info("%s: %s accepted, AID %u", ap_addr_str(f->sa, a), what, sta->aid);
	sta->assoc_resp_pending = true;
	ap_sta_arm_timer(sta, AP_ASSOC_RESP_WAIT_MS);
}

static void rx_leave(struct ap *ap, const struct mgmt_frame *f)
{
	char a[AP_ADDR_STR_LEN];
	struct ap_sta *sta = ap_sta_find(ap, f->sa);
	if (!sta)
		return;
	bool deauth = f->subtype == IEEE80211_STYPE_DEAUTH;
	log_info("%s sent %s, reason %u: %s", ap_addr_str(f->sa, a),
		 deauth ? "deauthentication" : "disassociation", f->u.reason,
		 ieee80211_reason_name(f->u.reason));
	if (deauth)
		ap_sta_remove(sta, f->u.reason, false);
	else
		ap_sta_disassociate(sta, f->u.reason);
}

/* Unicast management frames must be for us and in our BSS; a probe request
 * may also go to the broadcast address and wildcard BSSID. */
static bool addressed_to_us(const struct ap *ap, const struct mgmt_frame *f)
{
	bool probe = f->subtype == IEEE80211_STYPE_PROBE_REQ;
	bool da_ok = memcmp(f->da, ap->addr, 6) == 0 || (probe && !memcmp(f->da, broadcast, 6));
	bool bssid_ok = memcmp(f->bssid, ap->addr, 6) == 0 ||
			(probe && !memcmp(f->bssid, broadcast, 6));
	return da_ok && bssid_ok;
}

/* Deauthentication, disassociation and action frames are robust (IEEE
 * 802.11-2020 12.6.19); nothing else is ever sent protected. */
static bool protected_rx_ok(struct ap *ap, const struct mgmt_frame *f)
{
	if (f->subtype != IEEE80211_STYPE_DEAUTH && f->subtype != IEEE80211_STYPE_DISASSOC &&
	    f->subtype != IEEE80211_STYPE_ACTION)
		return false;
	const struct ap_sta *sta = ap_sta_find(ap, f->sa);
	return sta && ap_pmf_protected(sta);
}

void ap_mgmt_rx(struct ap *ap, const struct driver_event *ev)
{
	struct mgmt_frame f;
	int32_t signal = ev->u.mgmt.signal_mbm;

	if (!ap_is_running(ap) || !ev->u.mgmt.frame)
		return;
	/* A protected (PMF) frame comes decrypted: mac80211 keeps the
	 * Protected bit and strips the CCMP header and MIC, the sim clears the
	 * bit. Parse the body as plaintext either way, then take only what may
	 * come protected: robust frames of a station associated with MFP. */
	if (mgmt_parse_decrypted(ev->u.mgmt.frame, ev->u.mgmt.len, &f) < 0 ||
	    !addressed_to_us(ap, &f) || (f.protected_frame && !protected_rx_ok(ap, &f)))
		return;
	switch (f.subtype) {
	case IEEE80211_STYPE_PROBE_REQ:
		rx_probe_req(ap, &f);
		break;
	case IEEE80211_STYPE_AUTH:
		rx_auth(ap, &f, signal);
		break;
	case IEEE80211_STYPE_ASSOC_REQ:
	case IEEE80211_STYPE_REASSOC_REQ:
		rx_assoc(ap, &f, f.subtype == IEEE80211_STYPE_REASSOC_REQ, signal);
		break;
	case IEEE80211_STYPE_DEAUTH:
	case IEEE80211_STYPE_DISASSOC:
		rx_leave(ap, &f);
		break;
	case IEEE80211_STYPE_ACTION:
		ap_pmf_rx_action(ap, &f);
		break;
	default:
		break;
	}
}

/* The station whose association response this TX status is about. */
static struct ap_sta *assoc_resp_owner(struct ap *ap, const struct driver_event *ev)
{
	uint64_t cookie = ev->u.tx_status.cookie;
	if (ev->u.tx_status.frame && ev->u.tx_status.len >= IEEE80211_MGMT_HDR_LEN) {
		struct ap_sta *sta = ap_sta_find(ap, ev->u.tx_status.frame + 4);
		return sta && sta->assoc_resp_pending && sta->assoc_resp_cookie == cookie ? sta
											  : NULL;
	}
	for (struct ap_sta *s = sta_table_first(&ap->stas); s; s = sta_table_next(s))
		if (s->assoc_resp_pending && s->assoc_resp_cookie == cookie)
			return s;
	return NULL;
}

/* The TX status of an SAE answer: copies of the station's frame are
 * answered again from now on. */
static bool auth_resp_status(struct ap *ap, const struct driver_event *ev)
{
	if (!ev->u.tx_status.frame || ev->u.tx_status.len < IEEE80211_MGMT_HDR_LEN)
		return false;
	struct ap_sta *sta = ap_sta_find(ap, ev->u.tx_status.frame + 4);
	if (!sta || !sta->auth_resp_pending || sta->auth_resp_cookie != ev->u.tx_status.cookie)
		return false;
	sta->auth_resp_pending = false;
	return true;
}

void ap_mgmt_tx_status(struct ap *ap, const struct driver_event *ev)
{
	char a[AP_ADDR_STR_LEN];
	if (auth_resp_status(ap, ev))
		return;
	struct ap_sta *sta = assoc_resp_owner(ap, ev);
	if (!sta)
		return;
	if (!ev->u.tx_status.acked) {
		log_info("%s did not acknowledge the association response",
			 ap_addr_str(sta->addr, a));
		ap_sta_disassociate(sta, WLAN_REASON_UNSPECIFIED);
		ap_sta_arm_timer(sta, AP_AUTH_EXPIRY_MS);
		return;
	}
	sta->assoc_resp_pending = false;
	ap_sta_enter_state(sta, AP_STA_ASSOCIATED);
}
