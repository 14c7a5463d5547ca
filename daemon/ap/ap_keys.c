/* Keys of the BSS: the 4-way handshake authenticator of each station
 * (daemon/rsn) wired to the driver, and the group key (GTK) with its
 * rekeying.
 *
 * GTK rekey, and why traffic keeps flowing across it:
 *   1. rsn_group_rekey() makes a new GTK under the other key ID (1 <-> 2).
 *      The driver keeps transmitting group traffic with the old GTK.
 *   2. Every station with a handshake gets the new GTK in a group key
 *      handshake (a station still in its 4-way gets it in message 3, or in
 *      a group handshake right after if message 3 already left). Stations
 *      install it for receive next to the old one, so they decrypt both.
 *   3. When every station has confirmed (or has failed and been removed,
 *      reason 16), or after AP_GTK_SWITCH_MS, the new GTK is installed in
 *      the driver as the transmit key. Nothing sent under the old key is
 *      lost, and nothing is sent under the new key before stations have it.
 * The RSC sent with the new GTK is zero (it has not been used yet); with
 * the key in use it is the driver's current transmit PN (key_get_seq).
 * A station leaving during a rekey may already hold the new GTK, so with
 * RekeyOnStationLeave another rekey follows at once.
 *
 * EAPOL of a station enters through its EAPOL port (daemon/rsn/
 * eapol_port.h): Key frames go to its authenticator; an EAPOL-Start
 * restarts the 4-way handshake unless one is running (hostapd does the
 * same on a PSK BSS: a station that lost its keys asks for new ones); EAP
 * and Logoff are logged, counted and otherwise ignored, since a PSK BSS
 * has no 802.1X authenticator.
 */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/secure.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/rsn/auth_proto.h"
#include "daemon/rsn/authenticator.h"
#include "daemon/rsn/eapol_port.h"
#include "daemon/rsn/pmksa.h"
#include "daemon/rsn/group.h"
#include "daemon/rsn/suites.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest wait for stations to confirm a new GTK before using it. */
#define AP_GTK_SWITCH_MS 10000

struct ap_keys {
	struct ap *ap;
	struct rsn_group *group;
	uint8_t tx_idx;         /* GTK key ID the driver transmits with */
	bool rekeying;
	bool rekey_again;       /* a station left during the rekey */
	size_t pending;         /* stations yet to confirm the new GTK */
	struct loop_timer *rekey_timer;
	struct loop_timer *switch_timer;
	/* PMKSAs of the BSS's stations (SAE, 802.1X, OWE); it lives with
	 * the keys, so a restart with a new credential starts it empty. */
	struct pmksa_cache *pmksa;
};

struct ap_sta_keys {
	struct ap_sta *sta;
	struct rsn_auth *auth;
	struct eapol_port *port;
	bool eap_warned;        /* said once per association: EAP on a PSK BSS */
	bool ptk_installed;
	bool gtk_pending;       /* counted in ap_keys.pending */
	bool eapol_pending;     /* the last EAPOL frame's TX status is due */
	uint64_t eapol_cookie;
};

static int install_gtk(struct ap *ap, const struct rsn_group_key *gtk, bool set_tx)
{
	struct driver_key k = {
		.type = DRIVER_KEY_GROUP,
		.cipher = rsn_cipher_to_driver(gtk->cipher),
		.key_idx = gtk->key_idx,
		.key_len = gtk->len,
		.set_tx = set_tx,
	};
	memcpy(k.key, gtk->key, gtk->len);
	int r = driver_key_set(ap->drv, ap->ifindex, &k);
	crypto_zero(&k, sizeof(k));
	if (r == 0 && set_tx)
		ap->keys->tx_idx = gtk->key_idx;
	return r;
}

/* The IGTK of a BSS with management frame protection: the driver signs
 * group-addressed robust management frames with it (BIP). The offer only
 * has a group-management cipher when the driver lists it, so a refusal
 * here is a real failure, not a missing feature. */
static int install_igtk(struct ap *ap)
{
	const struct rsn_group_key *igtk = rsn_group_igtk(ap->keys->group);
	if (!igtk)
		return 0;
	struct driver_key k = {
		.type = DRIVER_KEY_IGTK,
		.cipher = rsn_cipher_to_driver(igtk->cipher),
		.key_idx = igtk->key_idx,
		.key_len = igtk->len,
		.set_tx = true,
	};
	memcpy(k.key, igtk->key, igtk->len);
	memcpy(k.seq, igtk->seq, sizeof(k.seq));
	int r = driver_key_set(ap->drv, ap->ifindex, &k);
	crypto_zero(&k, sizeof(k));
	return r;
}

/* ---- GTK rekey ---- */

static void arm_periodic(struct ap_keys *keys)
{
	if (keys->ap->conf.gtk_rekey_s)
		loop_timer_arm_ms(keys->rekey_timer, (uint64_t)keys->ap->conf.gtk_rekey_s * 1000u);
}

static void rekey_finish(struct ap_keys *keys)
{
	struct ap *ap = keys->ap;
	const struct rsn_group_key *gtk = rsn_group_gtk(keys->group);
	keys->rekeying = false;
	keys->pending = 0;
	loop_timer_disarm(keys->switch_timer);
	int r = install_gtk(ap, gtk, true);
	if (r < 0)
		log_error("GTK rekey: the driver refused the new GTK: %d", r);
	else if ((r = install_igtk(ap)) < 0)
		log_error("GTK rekey: the driver refused the new IGTK: %d", r);
	else
		log_info("GTK rekey done: key ID %u in use (generation %u)", gtk->key_idx,
			 rsn_group_generation(keys->group));
	arm_periodic(keys);
	if (keys->rekey_again) {
		keys->rekey_again = false;
		ap_rekey_gtk(ap);
	}
}

static void sta_gtk_done(struct ap_sta_keys *sk)
{
	struct ap_keys *keys = sk->sta->ap->keys;
	if (!sk->gtk_pending)
		return;
	sk->gtk_pending = false;
	if (keys && keys->rekeying && keys->pending && --keys->pending == 0)
		rekey_finish(keys);
}

static void switch_timeout(struct loop_timer *t, void *data)
{
	struct ap_keys *keys = data;
	log_info("GTK rekey: %zu station(s) did not confirm in time; switching anyway",
		 keys->pending);
	for (struct ap_sta *s = sta_table_first(&keys->ap->stas); s; s = sta_table_next(s))
		if (s->keys)
			s->keys->gtk_pending = false;
	rekey_finish(keys);
}

static void periodic_rekey(struct loop_timer *t, void *data)
{
	struct ap_keys *keys = data;
	int r = ap_rekey_gtk(keys->ap);
	if (r < 0 && r != -EINPROGRESS)
		log_warn("periodic GTK rekey failed: %d", r);
	if (r < 0)
		arm_periodic(keys);
}

int ap_rekey_gtk(struct ap *ap)
{
	struct ap_keys *keys = ap->keys;
	if (!ap_is_running(ap))
		return -ENOTCONN;
	if (!keys)
		return -EOPNOTSUPP;
	if (keys->rekeying)
		return -EINPROGRESS;
	int r = rsn_group_rekey(keys->group);
	if (r < 0)
		return r;
	keys->rekeying = true;
	keys->pending = 0;
	loop_timer_disarm(keys->rekey_timer);
	struct ap_sta *sta = sta_table_first(&ap->stas);
	while (sta) {
		struct ap_sta *next = sta_table_next(sta);
		struct ap_sta_keys *sk = sta->keys;
		if (sk && !sk->gtk_pending && rsn_auth_group_rekey(sk->auth) == 0 && sta->keys) {
			sk->gtk_pending = true;
			keys->pending++;
		}
		sta = next;
	}
	log_info("GTK rekey: key ID %u sent to %zu station(s)", rsn_group_gtk(keys->group)->key_idx,
		 keys->pending);
	if (!keys->pending)
		rekey_finish(keys);
	else
		loop_timer_arm_ms(keys->switch_timer, AP_GTK_SWITCH_MS);
	return 0;
}

void ap_keys_sta_left(struct ap *ap)
{
	struct ap_keys *keys = ap->keys;
	if (!keys || !ap->conf.rekey_on_leave || !ap_is_running(ap))
		return;
	if (keys->rekeying) {
		keys->rekey_again = true;
		return;
	}
	log_info("a station left: new GTK (RekeyOnStationLeave)");
	ap_rekey_gtk(ap);
}

/* ---- BSS start/stop ---- */

int ap_keys_start(struct ap *ap)
{
	if (!ap->conf.rsn)
		return 0;
	struct ap_keys *keys = calloc(1, sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	keys->ap = ap;
	keys->group = rsn_group_new(ap->offer.group, ap->offer.mfpc ? ap->offer.group_mgmt : 0);
	keys->rekey_timer = loop_timer_new(ap->loop, periodic_rekey, keys);
	keys->switch_timer = loop_timer_new(ap->loop, switch_timeout, keys);
	keys->pmksa = pmksa_cache_new(ap->loop, 0);
	ap->keys = keys;
	if (!keys->group || !keys->rekey_timer || !keys->switch_timer || !keys->pmksa) {
		ap_keys_stop(ap);
		return -ENOMEM;
	}
	int r = install_gtk(ap, rsn_group_gtk(keys->group), true);
	if (r == 0 && (r = install_igtk(ap)) < 0)
		log_error("the driver refused the IGTK: %d", r);
	if (r < 0) {
		ap_keys_stop(ap);
		return r;
	}
	arm_periodic(keys);
	return 0;
}

void ap_keys_stop(struct ap *ap)
{
	struct ap_keys *keys = ap->keys;
	if (!keys)
		return;
	loop_timer_free(keys->rekey_timer);
	loop_timer_free(keys->switch_timer);
	rsn_group_free(keys->group);
	pmksa_cache_free(keys->pmksa);
	free(keys);
	ap->keys = NULL;
}

/* ---- the 4-way handshake of one station: rsn_ops ---- */

static int op_send_eapol(void *ctx, const uint8_t *body, size_t len)
{
	struct ap_sta_keys *sk = ctx;
	return eapol_port_tx(sk->port, body, len);
}

static int op_install_ptk(void *ctx, uint32_t cipher, const uint8_t *tk, size_t tk_len)
{
	struct ap_sta_keys *sk = ctx;
	struct ap *ap = sk->sta->ap;
	struct driver_key k = {
		.type = DRIVER_KEY_PAIRWISE,
		.cipher = rsn_cipher_to_driver(cipher),
		.key_idx = 0,
		.key_len = tk_len,
		.set_tx = true,
	};
	if (tk_len > sizeof(k.key) || !k.cipher)
		return -EINVAL;
	memcpy(k.addr, sk->sta->addr, 6);
	memcpy(k.key, tk, tk_len);
	int r = driver_key_set(ap->drv, ap->ifindex, &k);
	crypto_zero(&k, sizeof(k));
	if (r == 0)
		sk->ptk_installed = true;
	return r;
}

static void op_set_port_authorized(void *ctx, bool authorized)
{
	struct ap_sta_keys *sk = ctx;
	eapol_port_set_authorized(sk->port, authorized);
}

/* Only the GTK the driver transmits with has a PN worth telling; a new GTK
 * not yet in use starts at zero (rsn then uses the group's stored zero). */
static int op_get_gtk_seq(void *ctx, uint8_t key_idx, uint8_t seq[RSN_SEQ_LEN])
{
	struct ap_sta_keys *sk = ctx;
	struct ap *ap = sk->sta->ap;
	if (!ap->keys || key_idx != ap->keys->tx_idx)
		return -ENOENT;
	return driver_key_get_seq(ap->drv, ap->ifindex, DRIVER_KEY_GROUP, key_idx, NULL, seq);
}

static void op_on_complete(void *ctx)
{
	struct ap_sta_keys *sk = ctx;
	ap_sta_enter_state(sk->sta, AP_STA_AUTHORIZED);
}

static void op_on_failure(void *ctx, const struct rsn_failure *f)
{
	struct ap_sta_keys *sk = ctx;
	struct ap_sta *sta = sk->sta;
	char a[AP_ADDR_STR_LEN];
	log_warn("%s: key handshake failed (%s): %s%s; deauthenticating, reason %u",
		 ap_addr_str(sta->addr, a), rsn_fail_name(f->reason), f->detail,
		 f->reason == RSN_FAIL_IE_MISMATCH ? " (possible downgrade attack)" : "",
		 f->ieee_reason);
	ap_sta_remove(sta, f->ieee_reason, true);
}

static const struct rsn_ops sta_ops = {
	.send_eapol = op_send_eapol,
	.install_ptk = op_install_ptk,
	.set_port_authorized = op_set_port_authorized,
	.get_gtk_seq = op_get_gtk_seq,
	.on_complete = op_on_complete,
	.on_failure = op_on_failure,
};

/* ---- the station's EAPOL port ---- */

static int port_tx(void *ctx, const uint8_t *frame, size_t len)
{
	struct ap_sta_keys *sk = ctx;
	struct ap *ap = sk->sta->ap;
	uint64_t cookie = 0;
	int r = driver_tx_eapol(ap->drv, ap->ifindex, sk->sta->addr, frame, len,
				!sk->ptk_installed, &cookie);
	sk->eapol_pending = r == 0;
	sk->eapol_cookie = cookie;
	return r;
}

/* One driver call: for an AP's station the controlled port is the
 * station's AUTHORIZED flag (nl80211: one SET_STATION; the sim: the same
 * flag), so setting the flag again through sta_set_flags was a second
 * netlink round trip per association for nothing. */
static void port_set_authorized(void *ctx, bool authorized)
{
	struct ap_sta_keys *sk = ctx;
	struct ap *ap = sk->sta->ap;
	driver_port_authorize(ap->drv, ap->ifindex, sk->sta->addr, authorized);
}

static void count_mic_failure(struct ap_sta *sta, bool in_msg2);

static int port_rx_key(void *ctx, const uint8_t *frame, size_t len)
{
	struct ap_sta_keys *sk = ctx;
	struct ap_sta *sta = sk->sta;
	bool in_msg2 = rsn_auth_state(sk->auth) == RSN_AUTH_STATE_PTKSTART;
	int r = rsn_auth_rx_eapol(sk->auth, frame, len);
	/* The station may have been removed and sk freed (sta stays
	 * readable until the reaper runs; sta->keys is then NULL). */
	if (r == RSN_RX_E_MIC)
		count_mic_failure(sta, in_msg2);
	if (sta->keys && sta->keys->gtk_pending &&
	    rsn_auth_state(sta->keys->auth) == RSN_AUTH_STATE_PTKINITDONE)
		sta_gtk_done(sta->keys);
	return r;
}

static void port_start(void *ctx)
{
	struct ap_sta_keys *sk = ctx;
	char a[AP_ADDR_STR_LEN];
	enum rsn_auth_state s = rsn_auth_state(sk->auth);

	ap_addr_str(sk->sta->addr, a);
	switch (s) {
	case RSN_AUTH_STATE_PTKSTART:
	case RSN_AUTH_STATE_PTKINITNEGOTIATING:
	case RSN_AUTH_STATE_REKEYNEGOTIATING:
		log_info("%s: EAPOL-Start during a key handshake (%s): ignored", a,
			 rsn_auth_state_name(s));
		return;
	case RSN_AUTH_STATE_IDLE:
	case RSN_AUTH_STATE_PTKINITDONE:
	case RSN_AUTH_STATE_FAILED:
		break;
	}
	log_info("%s: EAPOL-Start: restarting the 4-way handshake", a);
	rsn_auth_start(sk->auth); /* may remove the station on failure */
}

static void port_logoff(void *ctx)
{
	struct ap_sta_keys *sk = ctx;
	char a[AP_ADDR_STR_LEN];
	/* The port is keyed by the 4-way handshake, not by 802.1X: an
	 * unprotected Logoff must not open or close it. */
	log_info("%s: EAPOL-Logoff on a PSK BSS: ignored", ap_addr_str(sk->sta->addr, a));
}

static void port_eap_unhandled(void *ctx, const struct eap_hdr_info *eap)
{
	struct ap_sta_keys *sk = ctx;
	char a[AP_ADDR_STR_LEN];
	if (sk->eap_warned)
		return; /* the port counts the rest */
	sk->eap_warned = true;
	log_warn("%s: EAP-%s (type %u) on a PSK BSS, which has no 802.1X authenticator: "
		 "ignored; the station seems configured for WPA-Enterprise",
		 ap_addr_str(sk->sta->addr, a), eap_code_name(eap->code), eap->type);
}

static const struct eapol_port_ops sta_port_ops = {
	.tx = port_tx,
	.set_authorized = port_set_authorized,
	.rx_key = port_rx_key,
	.start = port_start,
	.logoff = port_logoff,
	.eap_unhandled = port_eap_unhandled,
};

/* The PMK of a station's handshake. */
struct sta_pmk {
	const uint8_t *pmk;
	size_t len;
	const uint8_t *pmkid; /* the PMKSA's, sent in message 1; NULL: none */
	const char *source;   /* for the log */
};

static struct ap_sta_keys *sta_keys_new(struct ap_sta *sta, const struct sta_pmk *pmk)
{
	struct ap *ap = sta->ap;
	char a[AP_ADDR_STR_LEN], name[32];
	struct ap_sta_keys *sk = calloc(1, sizeof(*sk));
	if (!sk)
		return NULL;
	sk->sta = sta;
	snprintf(name, sizeof(name), "STA %s", ap_addr_str(sta->addr, a));
	sk->port = eapol_port_new(EAPOL_PORT_AUTHENTICATOR, name, &sta_port_ops, sk);
	if (!sk->port) {
		free(sk);
		return NULL;
	}
	struct rsn_config cfg = {
		.akm = sta->akm,
		.pairwise_cipher = sta->pairwise,
		.group_cipher = ap->offer.group,
		.group_mgmt_cipher = sta->pmf.mfp ? ap->offer.group_mgmt : 0,
		.pmk = pmk->pmk,
		.pmk_len = pmk->len,
		.pmkid = pmk->pmkid,
		.sta_rsne = sta->rsne,
		.sta_rsne_len = sta->rsne_len,
		.sta_rsnxe = sta->rsnxe_len ? sta->rsnxe : NULL,
		.sta_rsnxe_len = sta->rsnxe_len,
		.ap_rsne = ap->rsne,
		.ap_rsne_len = ap->rsne_len,
		.ap_rsnxe = ap->rsnxe_len ? ap->rsnxe : NULL,
		.ap_rsnxe_len = ap->rsnxe_len,
		.transition_disable = ap->conf.transition_disable,
		.timing = ap->rsn_timing,
		.replay_counter_base = ap->replay_base,
	};
	/* Every handshake counts in a range of its own, above the earlier
	 * ones' (a station that leaves and comes back gets a fresh machine):
	 * a message 2 answering an earlier handshake is then a replay, not a
	 * MIC failure. 2^32 messages per association before ranges meet. */
	ap->replay_base += (uint64_t)1 << 32;
	memcpy(cfg.own_addr, ap->addr, 6);
	memcpy(cfg.peer_addr, sta->addr, 6);
	sk->auth = rsn_auth_new(ap->loop, &cfg, &sta_ops, sk, ap->keys->group);
	if (!sk->auth) {
		eapol_port_free(sk->port);
		free(sk);
		return NULL;
	}
	return sk;
}

static void authorize_open(struct ap_sta *sta)
{
	struct ap *ap = sta->ap;
	driver_port_authorize(ap->drv, ap->ifindex, sta->addr, true);
	ap_sta_enter_state(sta, AP_STA_AUTHORIZED);
}

/* A PMKSA the station named in its RSNE, for an AKM that caches. */
static const struct pmksa *named_pmksa(struct ap_sta *sta)
{
	struct ie_rsn rsn;
	struct ap_keys *keys = sta->ap->keys;

	if (!rsn_akm_uses_pmksa(sta->akm) || sta->rsne_len < 2 ||
	    ie_parse_rsn(sta->rsne + 2, sta->rsne_len - 2, &rsn) != 0)
		return NULL;
	for (size_t i = 0; i < rsn.n_pmkid; i++) {
		const struct pmksa *e =
			pmksa_cache_get_by_pmkid(keys->pmksa, sta->addr, rsn.pmkids + 16 * i);
		if (e && e->akm == sta->akm)
			return e;
	}
	return NULL;
}

bool ap_keys_sta_has_pmksa(struct ap_sta *sta)
{
	return sta->ap->keys && named_pmksa(sta) != NULL;
}

/* The PMK, one place: a PMKSA the station named, else the one its
 * authentication exchange produced (SAE; cached for next time), else the
 * PSK (the station's own, or the BSS's). */
static bool pick_pmk(struct ap_sta *sta, struct sta_pmk *out)
{
	struct ap *ap = sta->ap;
	const struct pmksa *e = named_pmksa(sta);
	size_t len = 0;
	const uint8_t *pmk = sta->auth ? auth_sess_pmk(sta->auth, &len) : NULL;

	/* A fresh exchange (OWE runs one even when a PMKSA was named) wins. */
	if (e && !pmk) {
		*out = (struct sta_pmk){ e->pmk, e->pmk_len, e->pmkid, "cached PMKSA" };
		return true;
	}
	if (pmk) {
		struct pmksa_add add = {
			.own_addr = ap->addr, .peer_addr = sta->addr, .own_is_aa = true,
			.akm = sta->akm, .network = ap->conf.ssid, .network_len = ap->conf.ssid_len,
			.pmk = pmk, .pmk_len = len,
			.pmkid = sta->auth->have_pmkid ? sta->auth->pmkid : NULL,
		};
		e = rsn_akm_uses_pmksa(sta->akm) ? pmksa_cache_add(ap->keys->pmksa, &add) : NULL;
		*out = (struct sta_pmk){ pmk, len, e ? e->pmkid : NULL,
					 sta->auth->proto->name };
		return true;
	}
	pmk = ap_conf_pmk_for(&ap->conf, sta->addr);
	*out = (struct sta_pmk){ pmk, 32, NULL,
				 pmk == ap->conf.psk ? "default PSK" : "its own PSK" };
	return pmk != NULL;
}

void ap_keys_sta_associated(struct ap_sta *sta)
{
	struct ap *ap = sta->ap;
	char a[AP_ADDR_STR_LEN];
	struct sta_pmk pmk;
	if (!ap->conf.rsn) {
		authorize_open(sta);
		return;
	}
	if (!ap->keys || !pick_pmk(sta, &pmk) || !(sta->keys = sta_keys_new(sta, &pmk))) {
		log_error("%s: cannot start the 4-way handshake", ap_addr_str(sta->addr, a));
		ap_sta_remove(sta, WLAN_REASON_UNSPECIFIED, true);
		return;
	}
	log_info("%s: 4-way handshake started (%s)", ap_addr_str(sta->addr, a), pmk.source);
	/* A rekey in progress: message 3 carries the new GTK already. */
	rsn_auth_start(sta->keys->auth);
}

void ap_keys_sta_stop(struct ap_sta *sta)
{
	struct ap_sta_keys *sk = sta->keys;
	if (!sk)
		return;
	sta->keys = NULL;
	rsn_auth_stop(sk->auth);
	rsn_auth_free(sk->auth);
	eapol_port_free(sk->port);
	bool pending = sk->gtk_pending;
	sk->gtk_pending = false;
	free(sk);
	struct ap_keys *keys = sta->ap->keys;
	if (pending && keys && keys->rekeying && keys->pending && --keys->pending == 0)
		rekey_finish(keys);
}

unsigned ap_keys_sta_handshakes(const struct ap_sta *sta)
{
	return sta->keys ? rsn_auth_stats(sta->keys->auth)->handshakes : 0;
}

static void count_mic_failure(struct ap_sta *sta, bool in_msg2)
{
	struct ap *ap = sta->ap;
	char a[AP_ADDR_STR_LEN];
	sta->mic_failures++;
	if (in_msg2)
		log_warn("MIC failure from %s: wrong passphrase? (%u so far)",
			 ap_addr_str(sta->addr, a), sta->mic_failures);
	else
		log_warn("MIC failure from %s (%u so far)", ap_addr_str(sta->addr, a),
			 sta->mic_failures);
	if (ap->cb.mic_failure)
		ap->cb.mic_failure(ap->cb.ctx, sta->addr, sta->mic_failures);
}

void ap_keys_rx_eapol(struct ap *ap, const struct driver_event *ev)
{
	const uint8_t *src = ev->u.data.src;
	struct ap_sta *sta = src ? ap_sta_find(ap, src) : NULL;
	char a[AP_ADDR_STR_LEN];
	if (!ap_is_running(ap) || !sta || !ev->u.data.body)
		return;
	if (!sta->keys) {
		log_debug("%s: EAPOL frame with no controlled port (open BSS or not "
			  "associated): dropped", ap_addr_str(sta->addr, a));
		return;
	}
	eapol_port_rx(sta->keys->port, ev->u.data.body, ev->u.data.len);
}

void ap_keys_eapol_tx_status(struct ap *ap, const struct driver_event *ev)
{
	if (!ap_is_running(ap))
		return;
	for (struct ap_sta *sta = sta_table_first(&ap->stas); sta; sta = sta_table_next(sta)) {
		struct ap_sta_keys *sk = sta->keys;
		if (sk && sk->eapol_pending && sk->eapol_cookie == ev->u.tx_status.cookie) {
			sk->eapol_pending = false;
			rsn_auth_tx_status(sk->auth, ev->u.tx_status.acked);
			return;
		}
	}
}

unsigned ap_keys_generation(const struct ap *ap)
{
	return ap->keys ? rsn_group_generation(ap->keys->group) : 0;
}

uint8_t ap_keys_tx_idx(const struct ap *ap)
{
	return ap->keys ? ap->keys->tx_idx : 0;
}

bool ap_keys_rekeying(const struct ap *ap)
{
	return ap->keys && ap->keys->rekeying;
}

int ap_keys_reinstall(struct ap *ap)
{
	if (!ap->keys)
		return 0;
	if (ap->keys->rekeying) {
		/* Nobody is left to confirm: use the new key now. */
		ap->keys->pending = 0;
		rekey_finish(ap->keys);
		return 0;
	}
	int r = install_gtk(ap, rsn_group_gtk(ap->keys->group), true);
	return r < 0 ? r : install_igtk(ap);
}
