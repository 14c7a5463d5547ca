/* The 4-way and group key handshakes of the station, wired between the
 * supplicant machine of daemon/rsn and the driver: RX_EAPOL events go into
 * the station's EAPOL port (daemon/rsn/eapol_port.h), which hands Key
 * frames to the supplicant machine and reports EAP (an 802.1X network we
 * cannot join yet); EAPOL frames out through the port to driver_tx_eapol,
 * keys through driver_key_set, the controlled port through the port to
 * driver_port_authorize.
 *
 * Keys are installed exactly when the machine asks; it refuses to reinstall
 * a key it installed already (KRACK), and nothing here clears and
 * reinstalls keys on a retransmission: keys go only when the link goes. */
#define LOG_TAG "station"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/auth_proto.h"
#include "daemon/rsn/eapol_port.h"
#include "daemon/rsn/pmksa.h"
#include "daemon/rsn/suites.h"
#include "daemon/rsn/supplicant.h"
#include "daemon/station/station_i.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define ETH_P_PAE 0x888e

/* ---- the EAPOL port ---- */

static int port_tx(void *ctx, const uint8_t *frame, size_t len)
{
	struct station *st = ctx;
	/* Until our first PTK is in, frames go out in the clear: message 4
	 * is queued before the PTK it completes is installed. */
	bool clear = !(st->keys_installed & KEY_BIT_PTK);
	int ret = driver_tx_eapol(st->drv, st->ifindex, st->bssid, frame, len, clear, NULL);
	if (ret == 0)
		st->eapol_sent++;
	return ret;
}

static void port_set_authorized(void *ctx, bool authorized)
{
	struct station *st = ctx;
	int ret = driver_port_authorize(st->drv, st->ifindex, st->bssid, authorized);
	if (ret < 0 && ret != -EOPNOTSUPP)
		log_warn("port %s failed: %s", authorized ? "authorize" : "close", strerror(-ret));
	if (authorized)
		st->keys_installed |= KEY_BIT_PORT;
	else
		st->keys_installed &= ~KEY_BIT_PORT;
}

static int port_rx_key(void *ctx, const uint8_t *frame, size_t len)
{
	struct station *st = ctx;
	if (!st->supp || (st->state != STATION_HANDSHAKING && st->state != STATION_CONNECTED))
		return RSN_RX_E_STOPPED;
	int ret = rsn_supp_rx_eapol(st->supp, frame, len);
	if (ret != RSN_RX_OK)
		log_debug("EAPOL-Key frame dropped: %s", rsn_rx_strerror(ret));
	return ret;
}

/* An EAP request means the AP runs 802.1X: a network we took for PSK
 * (its RSNE said so, or it changed) that we cannot join yet. Waiting for
 * a message 1 that never comes would end as a misleading timeout. */
static void port_eap_unhandled(void *ctx, const struct eap_hdr_info *eap)
{
	struct station *st = ctx;
	struct wpad_error e;
	char a[18];

	if (st->state != STATION_HANDSHAKING || eap->code != EAP_CODE_REQUEST)
		return; /* logged by the port; nothing in progress to fail */
	wpad_error_set(&e, WPAD_ERR_NOT_SUPPORTED, EOPNOTSUPP, -1, -1,
		       "the access point %s asks for 802.1X/EAP authentication (EAP-Request "
		       "type %u): this network uses WPA-Enterprise, which wpad does not "
		       "support yet", bss_addr_str(st->bssid, a), eap->type);
	station_teardown_link(st, WLAN_REASON_DEAUTH_LEAVING);
	sme_bss_failed(st, &e, false);
}

/* EAP goes to the 802.1X PAE of the link (enterprise.c) when there is one. */
static int port_rx_eap(void *ctx, const struct eap_hdr_info *eap)
{
	struct station *st = ctx;
	if (enterprise_active(st))
		return enterprise_rx_eap(st, eap);
	port_eap_unhandled(ctx, eap);
	return -ENOENT;
}

static const struct eapol_port_ops station_port_ops = {
	.tx = port_tx,
	.set_authorized = port_set_authorized,
	.rx_key = port_rx_key,
	.rx_eap = port_rx_eap,
	.eap_unhandled = port_eap_unhandled,
};

int handshake_port_init(struct station *st)
{
	char a[18], name[32];
	snprintf(name, sizeof(name), "station %s", bss_addr_str(st->addr, a));
	st->port = eapol_port_new(EAPOL_PORT_SUPPLICANT, name, &station_port_ops, st);
	return st->port ? 0 : -ENOMEM;
}

void handshake_port_free(struct station *st)
{
	eapol_port_free(st->port);
	st->port = NULL;
}

/* ---- the supplicant machine: rsn_ops ---- */

static int op_send_eapol(void *ctx, const uint8_t *body, size_t len)
{
	struct station *st = ctx;
	return eapol_port_tx(st->port, body, len);
}

static int set_key(struct station *st, enum driver_key_type type, uint8_t idx, uint32_t suite,
		   const uint8_t *key, size_t len, const uint8_t *seq, bool set_tx)
{
	struct driver_key k = { .type = type, .key_idx = idx, .set_tx = set_tx };

	k.cipher = rsn_cipher_to_driver(suite);
	if (!k.cipher || len > sizeof(k.key))
		return -EOPNOTSUPP;
	memcpy(k.addr, st->bssid, DRIVER_ADDR_LEN);
	memcpy(k.key, key, len);
	k.key_len = len;
	if (seq)
		memcpy(k.seq, seq, sizeof(k.seq));
	int ret = driver_key_set(st->drv, st->ifindex, &k);
	memset(k.key, 0, sizeof(k.key));
	return ret;
}

static int op_install_ptk(void *ctx, uint32_t cipher, const uint8_t *tk, size_t tk_len)
{
	struct station *st = ctx;
	int ret = set_key(st, DRIVER_KEY_PAIRWISE, 0, cipher, tk, tk_len, NULL, true);
	if (ret == 0) {
		st->keys_installed |= KEY_BIT_PTK;
		log_info("pairwise key installed");
	}
	return ret;
}

static int op_install_gtk(void *ctx, uint8_t key_idx, uint32_t cipher, const uint8_t *gtk,
			  size_t len, const uint8_t rsc[RSN_SEQ_LEN])
{
	struct station *st = ctx;
	uint8_t swapped[32];
	if (key_idx > 3)
		return -EINVAL;
	/* A TKIP GTK comes as TK | Michael key authenticator->supplicant |
	 * supplicant->authenticator (IEEE 802.11-2020 12.8.2); the driver
	 * (nl80211's layout) wants TK | our TX MIC key | our RX MIC key, and
	 * we receive group frames with the authenticator's. */
	if (cipher == RSN_CIPHER_TKIP && len == 32) {
		memcpy(swapped, gtk, 16);
		memcpy(swapped + 16, gtk + 24, 8);
		memcpy(swapped + 24, gtk + 16, 8);
		gtk = swapped;
	}
	int ret = set_key(st, DRIVER_KEY_GROUP, key_idx, cipher, gtk, len, rsc, false);
	crypto_zero(swapped, sizeof(swapped));
	if (ret == 0) {
		st->keys_installed |= KEY_BIT_GTK(key_idx);
		log_info("group key %u installed", key_idx);
	}
	return ret;
}

static int op_install_igtk(void *ctx, uint16_t key_idx, uint32_t cipher, const uint8_t *igtk,
			   size_t len, const uint8_t ipn[RSN_SEQ_LEN])
{
	struct station *st = ctx;
	if (key_idx != 4 && key_idx != 5)
		return -EINVAL;
	int ret = set_key(st, DRIVER_KEY_IGTK, (uint8_t)key_idx, cipher, igtk, len, ipn, false);
	if (ret == 0)
		st->keys_installed |= KEY_BIT_IGTK(key_idx);
	return ret;
}

static void op_set_port_authorized(void *ctx, bool authorized)
{
	struct station *st = ctx;
	eapol_port_set_authorized(st->port, authorized);
}

/* A PMK the authentication exchange produced (SAE, OWE) is good for a
 * PMKSA once the 4-way handshake proved both sides hold it: cache it, so
 * the next connect to this BSS associates with its PMKID and skips the
 * exchange. */
static void cache_pmksa(struct station *st)
{
	struct station_connect *c = &st->conn;
	size_t len = 0;
	const uint8_t *pmk = c->auth ? auth_sess_pmk(c->auth, &len) : NULL;
	if (!pmk || !rsn_akm_uses_pmksa(c->neg.akm))
		return;
	struct pmksa_add add = {
		.own_addr = st->addr, .peer_addr = st->bssid, .own_is_aa = false,
		.akm = c->neg.akm, .network = c->ssid, .network_len = c->ssid_len,
		.pmk = pmk, .pmk_len = len,
		.pmkid = c->auth->have_pmkid ? c->auth->pmkid : NULL,
	};
	if (!pmksa_cache_add(st->pmksa, &add))
		log_debug("PMKSA not cached");
}

static void op_on_complete(void *ctx)
{
	struct station *st = ctx;
	if (st->state == STATION_HANDSHAKING) {
		cache_pmksa(st);
		log_info("4-way handshake with %s complete", bss_addr_str(st->bssid,
									       (char[18]){ 0 }));
		connect_finish(st, NULL);
	} else {
		log_debug("rekey complete");
	}
}

static void op_on_failure(void *ctx, const struct rsn_failure *f)
{
	struct station *st = ctx;
	struct wpad_error e;
	char a[18];
	enum wpad_error_code code = rsn_fail_error_code(f->reason);

	bss_addr_str(st->bssid, a);
	if (f->reason == RSN_FAIL_PMKID && st->conn.pmksa_offered) {
		/* The AP no longer has our PMKSA: forget it, so the next
		 * attempt authenticates in full. */
		const struct pmksa *sa = pmksa_cache_get_by_pmkid(st->pmksa, st->bssid,
								    st->conn.offered_pmkid);
		if (sa)
			pmksa_cache_remove(st->pmksa, sa);
	}
	if (code == WPAD_ERR_INVALID_PASSPHRASE)
		wpad_error_set(&e, code, 0, -1, f->ieee_reason,
			       "4-way handshake with %s failed (%s)" STATION_WRONG_PSK_HINT, a, f->detail);
	else if (code == WPAD_ERR_POSSIBLE_DOWNGRADE)
		wpad_error_set(&e, code, 0, -1, f->ieee_reason,
			       "the access point %s's security elements changed during the "
			       "handshake (%s): possible downgrade attack", a, f->detail);
	else
		wpad_error_set(&e, code, 0, -1, f->ieee_reason, "key handshake with %s failed: %s",
			       a, f->detail);
	/* Leave with the reason the machine chose; the machine itself goes
	 * with the link (it may be freed here, from its own callback). */
	station_teardown_link(st, f->ieee_reason);
	if (st->state == STATION_HANDSHAKING)
		sme_bss_failed(st, &e, code != WPAD_ERR_INVALID_PASSPHRASE);
	else if (st->state == STATION_CONNECTED)
		station_link_lost(st, &e);
}

/* The AP's Transition Disable: remembered for the known network once the
 * connect succeeds (connect.c). */
static void op_transition_disable(void *ctx, uint8_t bitmap)
{
	struct station *st = ctx;
	log_info("the access point disables transition modes (0x%02x) for this network", bitmap);
	st->conn.transition_disable |= bitmap;
}

static const struct rsn_ops station_rsn_ops = {
	.on_transition_disable = op_transition_disable,
	.send_eapol = op_send_eapol,
	.install_ptk = op_install_ptk,
	.install_gtk = op_install_gtk,
	.install_igtk = op_install_igtk,
	.set_port_authorized = op_set_port_authorized,
	.on_complete = op_on_complete,
	.on_failure = op_on_failure,
};

static bool akm_is_8021x(uint32_t akm)
{
	const struct rsn_akm_info *a = rsn_akm_info(akm);
	return a && a->family == RSN_AKM_FAMILY_8021X;
}

/* The PMK of the handshake, one place: the PMKSA we offered, else the one
 * the authentication exchange produced (SAE), else the PSK; 802.1X sets it
 * late, from EAP (enterprise.c). */
static int pick_pmk(struct station *st, struct rsn_config *cfg)
{
	struct station_connect *c = &st->conn;
	const struct pmksa *e = NULL;
	size_t len = 0;
	const uint8_t *pmk = c->auth ? auth_sess_pmk(c->auth, &len) : NULL;

	if (c->pmksa_offered)
		e = pmksa_cache_get_by_pmkid(st->pmksa, st->bssid, c->offered_pmkid);
	/* A fresh exchange wins over the PMKSA offered: an OWE AP may run
	 * its DH instead of taking the PMKSA (802.11-2020 12.14.3). */
	if (e && !pmk) {
		cfg->pmk = e->pmk;
		cfg->pmk_len = e->pmk_len;
		cfg->pmkid = e->pmkid;
	} else if (pmk) {
		cfg->pmk = pmk;
		cfg->pmk_len = len;
		cfg->pmkid = c->auth->have_pmkid ? c->auth->pmkid : NULL;
	} else if (c->have_psk) {
		cfg->pmk = c->psk;
		cfg->pmk_len = STATION_PSK_LEN;
	} else if (akm_is_8021x(c->neg.akm)) {
		cfg->pmk = NULL; /* from EAP */
	} else {
		return -EINVAL;
	}
	return 0;
}

int handshake_start(struct station *st)
{
	struct station_connect *c = &st->conn;
	struct rsn_config cfg = { 0 };
	char a[18];

	if (!c->bss.rsne_len || !c->sta_rsne_len || pick_pmk(st, &cfg) < 0)
		return -EINVAL;
	memcpy(cfg.own_addr, st->addr, DRIVER_ADDR_LEN);
	memcpy(cfg.peer_addr, st->bssid, DRIVER_ADDR_LEN);
	cfg.akm = c->neg.akm;
	cfg.pairwise_cipher = c->neg.pairwise;
	cfg.group_cipher = c->neg.group;
	cfg.group_mgmt_cipher = c->neg.mfp ? c->neg.group_mgmt : 0;
	cfg.sta_rsne = c->sta_rsne;
	cfg.sta_rsne_len = c->sta_rsne_len;
	cfg.sta_rsnxe = c->sta_rsnxe_len ? c->sta_rsnxe : NULL;
	cfg.sta_rsnxe_len = c->sta_rsnxe_len;
	/* The pair heard from this BSS, which message 3 must repeat exactly:
	 * the RSNXE too, or its absence. */
	cfg.ap_rsne = c->bss.rsne;
	cfg.ap_rsne_len = c->bss.rsne_len;
	cfg.ap_rsnxe = c->bss.rsnxe_len ? c->bss.rsnxe : NULL;
	cfg.ap_rsnxe_len = c->bss.rsnxe_len;
	handshake_stop(st);
	st->supp = rsn_supp_new(st->loop, &cfg, &station_rsn_ops, st);
	if (!st->supp)
		return -EINVAL;
	log_info("4-way handshake with %s", bss_addr_str(st->bssid, a));
	if (cfg.ap_rsnxe_len)
		log_hex("RSNXE heard from the AP, which message 3 must repeat", cfg.ap_rsnxe,
			cfg.ap_rsnxe_len);
	/* 802.1X without a PMK yet: the 4-way machine starts (and times
	 * message 1) once EAP gave it one (enterprise.c). */
	if (!akm_is_8021x(c->neg.akm) || cfg.pmk)
		rsn_supp_start(st->supp);
	station_arm_timer(st, STATION_HANDSHAKE_TIMEOUT_MS);
	if (akm_is_8021x(c->neg.akm)) {
		int ret = enterprise_start(st, cfg.pmk != NULL);
		if (ret < 0)
			return ret;
	}
	if (c->early_eapol_len) {
		size_t len = c->early_eapol_len;
		c->early_eapol_len = 0;
		eapol_port_rx(st->port, c->early_eapol, len);
	}
	return 0;
}

void handshake_rx_eapol(struct station *st, const struct driver_event *ev)
{
	const uint8_t *src = ev->u.data.src;

	if (ev->u.data.ethertype != ETH_P_PAE || !src ||
	    memcmp(src, st->bssid, DRIVER_ADDR_LEN) != 0)
		return;
	if (st->state == STATION_ASSOCIATING) {
		/* The handshake may overtake the association event. */
		if (ev->u.data.len <= sizeof(st->conn.early_eapol)) {
			memcpy(st->conn.early_eapol, ev->u.data.body, ev->u.data.len);
			st->conn.early_eapol_len = ev->u.data.len;
		}
		return;
	}
	if (st->state != STATION_HANDSHAKING && st->state != STATION_CONNECTED)
		return;
	eapol_port_rx(st->port, ev->u.data.body, ev->u.data.len);
}

void handshake_mic_failure(struct station *st, const struct driver_event *ev)
{
	struct wpad_error e;
	char a[18];
	bool group = ev->u.peer.group;

	if (st->state != STATION_CONNECTED || !st->supp)
		return;
	int r = rsn_supp_mic_failure_report(st->supp, !group);
	if (r < 0)
		log_warn("the MIC failure report could not be sent: %d", r);
	if (rsn_mic_cm_failure(&st->mic_cm, loop_now_us(st->loop)) != RSN_MIC_CM_COUNTERMEASURES)
		return;
	bss_addr_str(st->bssid, a);
	log_warn("second Michael MIC failure within 60 s: TKIP countermeasures; leaving %s "
		 "(reason %u), no TKIP network for 60 s", a, WLAN_REASON_MICHAEL_MIC_FAILURE);
	wpad_error_set(&e, WPAD_ERR_AUTHENTICATION_FAILED, 0, -1, WLAN_REASON_MICHAEL_MIC_FAILURE,
		       "two Michael MIC failures within 60 s on %s: TKIP countermeasures "
		       "(IEEE 802.11 12.5.2.4) block TKIP networks for 60 s", a);
	station_teardown_link(st, WLAN_REASON_MICHAEL_MIC_FAILURE);
	station_link_lost(st, &e);
}

void handshake_stop(struct station *st)
{
	enterprise_stop(st);
	if (!st->supp)
		return;
	rsn_supp_free(st->supp);
	st->supp = NULL;
}

void handshake_clear_keys(struct station *st, const uint8_t *bssid)
{
	uint32_t keys = st->keys_installed;

	st->keys_installed = 0;
	eapol_port_reset(st->port); /* the link and its port go together */
	if (keys & KEY_BIT_PORT)
		driver_port_authorize(st->drv, st->ifindex, bssid, false);
	if (keys & KEY_BIT_PTK)
		driver_key_del(st->drv, st->ifindex, DRIVER_KEY_PAIRWISE, 0, bssid);
	for (uint8_t idx = 0; idx < 4; idx++)
		if (keys & KEY_BIT_GTK(idx))
			driver_key_del(st->drv, st->ifindex, DRIVER_KEY_GROUP, idx, NULL);
	for (uint8_t idx = 4; idx < 6; idx++)
		if (keys & KEY_BIT_IGTK(idx))
			driver_key_del(st->drv, st->ifindex, DRIVER_KEY_IGTK, idx, NULL);
	if (keys)
		log_debug("keys cleared");
}
