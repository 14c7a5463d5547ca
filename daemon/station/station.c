/* The station role's public API, its state machine and event dispatch; see
 * station.h for the states and station_i.h for how the files split. */
#define LOG_TAG "station"
#include "daemon/station/station.h"

#include "daemon/codec/frame.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/pmksa.h"
#include "daemon/station/station_i.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


const char *station_state_name(enum station_state state)
{
	switch (state) {
	case STATION_DISCONNECTED:
		return "disconnected";
	case STATION_SCANNING:
		return "scanning";
	case STATION_AUTHENTICATING:
		return "authenticating";
	case STATION_ASSOCIATING:
		return "associating";
	case STATION_HANDSHAKING:
		return "handshaking";
	case STATION_CONNECTED:
		return "connected";
	case STATION_ROAMING:
		return "roaming";
	case STATION_DISCONNECTING:
		return "disconnecting";
	}
	return "unknown";
}

/* The one place the state changes: logs, runs the entry actions, tells the
 * daemon (and through it D-Bus). */
static void age_rearm(struct station *st);

void station_enter_state(struct station *st, enum station_state state)
{
	enum station_state old = st->state;

	if (old == state)
		return;
	st->state = state;
	log_debug("ifindex %u: %s -> %s", st->ifindex, station_state_name(old),
		  station_state_name(state));
	switch (state) {
	case STATION_DISCONNECTED:
		station_disarm_timer(st);
		st->link_up = false;
		age_rearm(st); /* the BSS we were on may age out now */
		break;
	case STATION_SCANNING:
	case STATION_AUTHENTICATING:
	case STATION_ASSOCIATING:
	case STATION_HANDSHAKING:
	case STATION_ROAMING:
	case STATION_DISCONNECTING:
		break;
	case STATION_CONNECTED:
		station_disarm_timer(st);
		break;
	}
	if (st->cb.state_changed)
		st->cb.state_changed(st->cb.ctx, old, state);
}

bool station_idle(const struct station *st)
{
	return st->state == STATION_DISCONNECTED && st->conn.phase == CONNECT_IDLE;
}

void station_set_error(struct station *st, const struct wpad_error *err)
{
	if (err) {
		st->last_err = *err;
		st->have_last_err = true;
	} else {
		st->have_last_err = false;
	}
}

/* ---- timers ---- */

static void watchdog_fired(struct loop_timer *t, void *data)
{
	(void)t;
	sme_watchdog(data);
}

void station_arm_timer(struct station *st, uint32_t ms)
{
	loop_timer_arm_ms(st->timer, ms);
}

void station_disarm_timer(struct station *st)
{
	loop_timer_disarm(st->timer);
}

static const uint8_t *age_keep(const struct station *st)
{
	return st->state != STATION_DISCONNECTED ? st->bssid : NULL;
}

/* The age timer fires when the oldest entry it may drop passes the maximum
 * age, and not at all when there is none (connected, nothing else heard):
 * an idle station has no periodic wakeup for its BSS list. */
static void age_rearm(struct station *st)
{
	const uint64_t max_age_us = (uint64_t)STATION_BSS_MAX_AGE_MS * 1000u;
	uint64_t oldest, now = loop_now_us(st->loop);

	if (!st->age_timer || !st->bss)
		return; /* station_new() failed half-way */
	if (!bss_list_oldest(st->bss, age_keep(st), &oldest)) {
		loop_timer_disarm(st->age_timer);
		return;
	}
	/* bss_list_expire() drops entries strictly older than the maximum. */
	uint64_t due = oldest + max_age_us + 1;
	loop_timer_arm_us(st->age_timer, due > now ? due - now : 0);
}

static void age_fired(struct loop_timer *t, void *data)
{
	struct station *st = data;
	size_t dropped = bss_list_expire(st->bss, loop_now_us(st->loop),
					 (uint64_t)STATION_BSS_MAX_AGE_MS * 1000u, age_keep(st));
	(void)t;
	if (dropped) {
		log_debug("ifindex %u: %zu BSS entries aged out", st->ifindex, dropped);
		st->nets_dirty = true;
	}
	age_rearm(st);
}

void station_networks_refresh(struct station *st)
{
	if (!st->nets_dirty)
		return;
	if (network_list_build(&st->nets, st->bss) == 0)
		st->nets_dirty = false;
	for (size_t i = 0; i < st->nets.n; i++) {
		struct station_network *n = &st->nets.nets[i];
		struct station_known k;
		n->known = known_get(st->store, n->ssid, n->ssid_len, n->security, false, &k);
	}
	age_rearm(st);
}

/* ---- lifetime ---- */

static int station_query_driver(struct station *st)
{
	struct driver_iface_info info;
	int err = driver_iface_info(st->drv, st->ifindex, &info);
	if (err) {
		log_error("ifindex %u: no such interface: %s", st->ifindex, strerror(-err));
		return err;
	}
	memcpy(st->addr, info.addr, DRIVER_ADDR_LEN);
	st->radio_id = info.radio_id;
	st->have_capa = driver_get_capa(st->drv, st->radio_id, &st->capa) == 0;
	return 0;
}

struct station *station_new(struct loop *loop, struct driver *drv, uint32_t ifindex,
			    struct known_store *store, const struct station_callbacks *cb)
{
	struct station *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->loop = loop;
	st->drv = drv;
	st->ifindex = ifindex;
	st->store = store;
	if (cb)
		st->cb = *cb;
	st->state = STATION_DISCONNECTED;
	st->sae_pwe = SAE_PWE_BOTH;
	wpad_error_clear(&st->last_err);
	network_list_init(&st->nets);
	st->bss = bss_list_new();
	st->timer = loop_timer_new(loop, watchdog_fired, st);
	st->age_timer = loop_timer_new(loop, age_fired, st);
	st->kickoff = loop_idle_new(loop, connect_kickoff, st);
	if (!st->bss || !st->timer || !st->age_timer || !st->kickoff || station_query_driver(st) < 0 ||
	    handshake_port_init(st) < 0 || !(st->pmksa = pmksa_cache_new(loop, 0)) ||
	    !(st->sae_pt = sae_pt_cache_new()) || autoconnect_init(st) < 0) {
		station_free(st);
		return NULL;
	}
	station_pmf_register(st);
	char a[18];
	log_info("station on ifindex %u (%s) ready", ifindex, bss_addr_str(st->addr, a));
	return st;
}

void station_free(struct station *st)
{
	if (!st)
		return;
	if (st->state != STATION_DISCONNECTED && st->drv)
		station_teardown_link(st, WLAN_REASON_DEAUTH_LEAVING);
	if (st->scan.running)
		driver_scan_abort(st->drv, st->ifindex);
	handshake_stop(st);
	connect_reset(st);
	enterprise_clear(st);
	eap_conf_clear(&st->eap_given);
	handshake_port_free(st);
	pmksa_cache_free(st->pmksa);
	sae_pt_cache_free(st->sae_pt);
	autoconnect_free(st);
	station_pmf_free(st);
	loop_timer_free(st->timer);
	loop_timer_free(st->age_timer);
	loop_idle_free(st->kickoff);
	network_list_release(&st->nets);
	bss_list_free(st->bss);
	free(st);
}

/* ---- tearing a link down ---- */

void station_teardown_link(struct station *st, uint16_t reason)
{
	handshake_stop(st);
	station_pmf_stop(st);
	if (st->link_up) {
		int err = driver_deauthenticate(st->drv, st->ifindex, st->bssid, reason);
		if (err && err != -ENOTCONN)
			log_debug("deauthenticate: %s", strerror(-err));
	}
	st->link_up = false;
	handshake_clear_keys(st, st->bssid);
}

void station_link_lost(struct station *st, const struct wpad_error *why)
{
	bool was_connected = st->state == STATION_CONNECTED;

	st->link_up = false; /* the AP holds nothing for us any more */
	station_teardown_link(st, WLAN_REASON_DEAUTH_LEAVING);
	station_set_error(st, why);
	connect_reset(st);
	station_enter_state(st, STATION_DISCONNECTED);
	if (was_connected && st->cb.disconnected)
		st->cb.disconnected(st->cb.ctx, why);
	autoconnect_kick(st);
}

static void handle_deauth(struct station *st, const struct driver_event *ev, bool disassoc)
{
	struct mgmt_frame f;
	uint16_t reason = WLAN_REASON_UNSPECIFIED;
	char a[18];

	/* A protected (PMF) deauth arrives decrypted, Protected bit still set. */
	if (ev->u.mgmt.frame && mgmt_parse_decrypted(ev->u.mgmt.frame, ev->u.mgmt.len, &f) == 0) {
		if (memcmp(f.bssid, st->bssid, DRIVER_ADDR_LEN) != 0)
			return; /* not from our AP */
		reason = f.u.reason;
	}
	if (st->state == STATION_DISCONNECTING) {
		station_enter_state(st, STATION_DISCONNECTED);
		return;
	}
	if (st->state == STATION_DISCONNECTED || st->state == STATION_SCANNING)
		return;
	/* Our own teardown of an earlier attempt echoing back: not the AP. */
	if (ev->u.mgmt.locally_generated && st->state != STATION_CONNECTED)
		return;
	log_info("%s by %s%s: reason %u (%s)", disassoc ? "disassociated" : "deauthenticated",
		 bss_addr_str(st->bssid, a), ev->u.mgmt.locally_generated ? " (local)" : "",
		 reason, ieee80211_reason_name(reason));
	if (st->state != STATION_CONNECTED) {
		sme_handle_peer_leave(st, reason, disassoc);
		return;
	}
	struct wpad_error why;
	wpad_error_set(&why, WPAD_ERR_NOT_CONNECTED, 0, -1, reason,
		       "the access point %s ended the connection: reason %u (%s)",
		       bss_addr_str(st->bssid, a), reason, ieee80211_reason_name(reason));
	/* An AP that is leaving is gone until heard again: reconnecting to
	 * what the list remembers would only time out. */
	if (!ev->u.mgmt.locally_generated && reason == WLAN_REASON_DEAUTH_LEAVING) {
		bss_list_remove(st->bss, st->bssid);
		st->nets_dirty = true;
	}
	station_link_lost(st, &why);
}

/* The driver followed the AP's channel switch announcement (mac80211 and
 * the sim do it in their MLME): the link stays, on the new channel. */
static void handle_ch_switch(struct station *st, const struct driver_event *ev)
{
	char a[18];
	uint32_t freq = ev->u.ch_switch.chandef.control_mhz;
	if (st->state < STATION_AUTHENTICATING || !freq || freq == st->freq_mhz)
		return;
	log_info("%s moved from %u to %u MHz (channel switch announcement); following",
		 bss_addr_str(st->bssid, a), st->freq_mhz, freq);
	st->freq_mhz = freq;
	st->conn.bss.freq_mhz = freq;
}

static void handle_beacon_loss(struct station *st)
{
	char a[18];
	struct wpad_error why;
	uint8_t bssid[DRIVER_ADDR_LEN];

	if (st->state != STATION_CONNECTED)
		return;
	memcpy(bssid, st->bssid, sizeof(bssid));
	log_info("beacon loss: %s on %u MHz went silent; disconnecting",
		 bss_addr_str(bssid, a), st->freq_mhz);
	station_teardown_link(st, WLAN_REASON_DEAUTH_LEAVING);
	/* The BSS is gone: a reconnect must hear it again, not trust the list. */
	bss_list_remove(st->bss, bssid);
	st->nets_dirty = true;
	wpad_error_set(&why, WPAD_ERR_TIMEOUT, 0, -1, -1,
		       "lost the access point %s: no beacons heard", a);
	station_link_lost(st, &why);
}

static void handle_rx_mgmt(struct station *st, const struct driver_event *ev)
{
	if (!ev->u.mgmt.frame)
		return;
	if (bss_list_update_from_frame(st->bss, ev->u.mgmt.frame, ev->u.mgmt.len,
				       ev->u.mgmt.freq_mhz, ev->u.mgmt.signal_mbm,
				       loop_now_us(st->loop)) == 0) {
		st->nets_dirty = true;
		struct station_bss *b = st->state == STATION_CONNECTED
						? bss_list_find(st->bss, st->bssid)
						: NULL;
		if (b)
			st->signal_mbm = b->signal_mbm;
	}
}

static void handle_radio_gone(struct station *st, enum wpad_error_code code, int err,
			      const char *what)
{
	struct wpad_error e;
	wpad_error_set(&e, code, err, -1, -1, "%s", what);
	if (st->conn.phase != CONNECT_IDLE) {
		connect_finish(st, &e);
		return;
	}
	if (st->state == STATION_CONNECTED)
		station_link_lost(st, &e);
}

static void handle_radio_error(struct station *st, const struct driver_event *ev)
{
	switch (ev->u.radio_error.kind) {
	case DRIVER_RADIO_ERR_FIRMWARE_MISSING:
		handle_radio_gone(st, WPAD_ERR_FIRMWARE_MISSING, ev->u.radio_error.err,
				  "the adapter's firmware is missing");
		break;
	case DRIVER_RADIO_ERR_FIRMWARE_CRASH:
		handle_radio_gone(st, WPAD_ERR_DRIVER_ERROR, ev->u.radio_error.err,
				  "the adapter's firmware crashed");
		break;
	case DRIVER_RADIO_ERR_RFKILL:
		handle_radio_gone(st, WPAD_ERR_DRIVER_ERROR, ev->u.radio_error.err,
				  "the radio was switched off (rfkill)");
		break;
	}
}

void station_handle_event(struct station *st, const struct driver_event *ev)
{
	if (ev->ifindex != st->ifindex && ev->type != DRIVER_EV_RADIO_ERROR &&
	    ev->type != DRIVER_EV_REG_CHANGE)
		return;
	if ((ev->type == DRIVER_EV_RADIO_ERROR || ev->type == DRIVER_EV_REG_CHANGE) &&
	    ev->radio_id != st->radio_id)
		return;
	switch (ev->type) {
	case DRIVER_EV_SCAN_DONE:
		scan_handle_done(st, false);
		break;
	case DRIVER_EV_SCAN_ABORTED:
		scan_handle_done(st, true);
		break;
	case DRIVER_EV_RX_MGMT:
		if (!station_pmf_rx_mgmt(st, ev))
			handle_rx_mgmt(st, ev);
		break;
	case DRIVER_EV_UNPROT_DEAUTH:
	case DRIVER_EV_UNPROT_DISASSOC:
		station_pmf_unprot_leave(st, ev);
		break;
	case DRIVER_EV_AUTH:
		sme_handle_auth(st, ev);
		break;
	case DRIVER_EV_AUTH_TX_STATUS:
		sme_handle_auth_tx_status(st, ev);
		break;
	case DRIVER_EV_ASSOC:
		sme_handle_assoc(st, ev);
		break;
	case DRIVER_EV_DEAUTH:
	case DRIVER_EV_DISASSOC:
		handle_deauth(st, ev, ev->type == DRIVER_EV_DISASSOC);
		break;
	case DRIVER_EV_BEACON_LOSS:
		handle_beacon_loss(st);
		break;
	case DRIVER_EV_CH_SWITCHED:
		handle_ch_switch(st, ev);
		break;
	case DRIVER_EV_RX_EAPOL:
		handshake_rx_eapol(st, ev);
		break;
	case DRIVER_EV_MIC_FAILURE:
		handshake_mic_failure(st, ev);
		break;
	case DRIVER_EV_IFACE_DEL:
		handle_radio_gone(st, WPAD_ERR_NOT_FOUND, ENODEV, "the interface was removed");
		break;
	case DRIVER_EV_RADIO_ERROR:
		handle_radio_error(st, ev);
		break;
	case DRIVER_EV_REG_CHANGE:
		/* Channel flags (no-IR, radar) decide active or passive scans. */
		st->have_capa = driver_get_capa(st->drv, st->radio_id, &st->capa) == 0;
		break;
	default:
		break; /* not the station's business */
	}
}

/* ---- the API ---- */

int station_scan(struct station *st)
{
	return station_scan_ssids(st, NULL, 0);
}

int station_scan_ssids(struct station *st, const struct driver_ssid *ssids, size_t n)
{
	struct scan_request req = { .purpose = SCAN_FOR_USER, .n_ssids = n };

	if (n > STATION_SCAN_MAX_SSIDS)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (ssids[i].len == 0 || ssids[i].len > BSS_SSID_MAX)
			return -EINVAL;
		req.ssids[i] = ssids[i];
	}
	if (st->state != STATION_DISCONNECTED && st->state != STATION_CONNECTED &&
	    st->state != STATION_SCANNING)
		return -EBUSY;
	/* A running on-demand scan serves a plain request; one naming
	 * networks it does not probe for is queued behind it. */
	if (st->scan.running && (st->scan.purpose & SCAN_FOR_USER) && n == 0)
		return -EINPROGRESS;
	return scan_request(st, &req);
}

bool station_scanning(const struct station *st)
{
	return st->scan.running;
}

size_t station_networks(struct station *st, const struct station_network **out, size_t max)
{
	station_networks_refresh(st);
	for (size_t i = 0; i < max && i < st->nets.n; i++)
		out[i] = &st->nets.nets[i];
	return st->nets.n;
}

int station_passphrase_check(const char *p)
{
	size_t len = p ? strlen(p) : 0;

	if (len == 64) {
		for (size_t i = 0; i < len; i++)
			if (!isxdigit((unsigned char)p[i]))
				return -EINVAL;
		return 0;
	}
	if (len < 8 || len > 63)
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return -EINVAL;
	return 0;
}

int station_connect(struct station *st, const uint8_t *ssid, size_t ssid_len,
		    const char *passphrase, bool hidden)
{
	struct wpad_error err;
	int ret;

	wpad_error_clear(&err);
	ret = connect_start(st, ssid, ssid_len, passphrase, hidden, false, &err);
	if (ret < 0)
		station_set_error(st, &err);
	return ret;
}

int station_connect_restrict(struct station *st, const struct rsn_policy *policy,
			     const char *sae_pwe)
{
	struct station_connect *c = &st->conn;
	enum sae_pwe_mode m;
	if (c->phase != CONNECT_STARTING)
		return -ENOENT;
	if (sae_pwe && (sae_pwe_mode_parse(sae_pwe, &m) < 0 || strlen(sae_pwe) >= sizeof(c->sae_pwe)))
		return -EINVAL;
	if (policy) {
		c->policy.akms = policy->akms;
		c->policy.pmf = policy->pmf;
	}
	if (sae_pwe)
		snprintf(c->sae_pwe, sizeof(c->sae_pwe), "%s", sae_pwe);
	return 0;
}

/* A BSS we leave by choice was alive up to this instant (a lost one would
 * have ended the link already): count it as heard now, so a connect back
 * to it soon after joins at once instead of scanning to find it again. */
static void note_left_bss_alive(struct station *st)
{
	struct station_bss *b = bss_list_find(st->bss, st->bssid);
	if (!b)
		return;
	b->last_seen_us = loop_now_us(st->loop);
	st->nets_dirty = true;
}

int station_disconnect(struct station *st)
{
	struct wpad_error why;
	bool was_connected = st->state == STATION_CONNECTED;
	bool was_connecting = st->conn.phase != CONNECT_IDLE;

	st->ac.enabled = false;
	autoconnect_stop(st);
	if (!was_connected && !was_connecting)
		return -ENOTCONN;
	wpad_error_set(&why, WPAD_ERR_ABORTED, 0, -1, WLAN_REASON_DEAUTH_LEAVING,
		       "disconnected on request");
	log_info("disconnecting on request");
	if (was_connecting) {
		connect_finish(st, &why); /* tears the link down too */
		return 0;
	}
	note_left_bss_alive(st);
	station_teardown_link(st, WLAN_REASON_DEAUTH_LEAVING);
	connect_reset(st);
	station_enter_state(st, STATION_DISCONNECTING);
	station_arm_timer(st, STATION_DEAUTH_TIMEOUT_MS);
	station_set_error(st, &why);
	if (st->cb.disconnected)
		st->cb.disconnected(st->cb.ctx, &why);
	return 0;
}

size_t station_flush_pmksa(struct station *st, const uint8_t *ssid, size_t ssid_len,
			   const uint8_t *bssid)
{
	size_t n = pmksa_cache_flush_matching(st->pmksa, ssid, ssid_len, bssid);
	log_info("PMKSA cache flushed on request: %zu entr%s removed", n, n == 1 ? "y" : "ies");
	return n;
}

void station_set_autoconnect(struct station *st, bool on)
{
	st->ac.enabled = on && st->store;
	if (st->ac.enabled) {
		autoconnect_reset_backoff(st);
		autoconnect_kick(st);
	} else {
		autoconnect_stop(st);
	}
}

void station_set_external_control(struct station *st, bool on)
{
	if (on == st->external) {
		return;
	}
	st->external = on;
	if (on) {
		autoconnect_stop(st);
		st->ac.enabled = false;
		st->saved_store = st->store;
		st->store = NULL;
	} else {
		st->store = st->saved_store;
		st->saved_store = NULL;
		station_set_eap_profile(st, NULL, 0, NULL); /* the store's again */
	}
	st->nets_dirty = true;
}

bool station_external_control(const struct station *st)
{
	return st->external;
}

void station_known_networks_changed(struct station *st)
{
	st->nets_dirty = true;
	st->ac.n_blocked = 0;
	if (st->ac.enabled) {
		autoconnect_reset_backoff(st);
		autoconnect_kick(st);
	}
}

bool station_autoconnect(const struct station *st)
{
	return st->ac.enabled;
}

enum station_state station_state(const struct station *st)
{
	return st->state;
}

const struct wpad_error *station_last_error(const struct station *st)
{
	return st->have_last_err ? &st->last_err : NULL;
}

bool station_bssid(const struct station *st, uint8_t bssid[DRIVER_ADDR_LEN])
{
	if (st->state < STATION_AUTHENTICATING || st->state == STATION_DISCONNECTING)
		return false;
	memcpy(bssid, st->bssid, DRIVER_ADDR_LEN);
	return true;
}

size_t station_ssid(const struct station *st, uint8_t ssid[32])
{
	if (st->conn.phase != CONNECT_IDLE) {
		memcpy(ssid, st->conn.ssid, st->conn.ssid_len);
		return st->conn.ssid_len;
	}
	if (st->state != STATION_CONNECTED)
		return 0;
	memcpy(ssid, st->ssid, st->ssid_len);
	return st->ssid_len;
}

uint32_t station_frequency(const struct station *st)
{
	return st->state >= STATION_AUTHENTICATING && st->state <= STATION_ROAMING ? st->freq_mhz
										   : 0;
}

int32_t station_signal_mbm(const struct station *st)
{
	return st->state == STATION_CONNECTED ? st->signal_mbm : 0;
}

uint32_t station_ifindex(const struct station *st)
{
	return st->ifindex;
}

uint64_t station_connect_time_ms(const struct station *st)
{
	return st->connect_time_ms;
}

uint32_t station_backoff_ms(const struct station *st)
{
	return st->ac.backoff_ms;
}

int station_set_sae(struct station *st, const char *pwe, const char *password_id)
{
	enum sae_pwe_mode m = SAE_PWE_BOTH;
	if (pwe && sae_pwe_mode_parse(pwe, &m) < 0)
		return -EINVAL;
	if (password_id && strlen(password_id) >= sizeof(st->sae_pw_id))
		return -EINVAL;
	st->sae_pwe = m;
	snprintf(st->sae_pw_id, sizeof(st->sae_pw_id), "%s", password_id ? password_id : "");
	return 0;
}
