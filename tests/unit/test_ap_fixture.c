/* The AP tests' fixture; see test_ap_fixture.h. Not a suite of its own. */
#include "tests/unit/test_ap_fixture.h"

#include "daemon/ap/ap_internal.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_basic.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/kdf.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/supplicant.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

struct apt *APT;

/* ---- events ---- */

static struct apt_sta *sta_by_if(uint32_t ifindex)
{
	for (size_t i = 0; i < APT->n_sta; i++)
		if (APT->sta[i].ifindex == ifindex)
			return &APT->sta[i];
	return NULL;
}

static void record(const struct driver_event *ev)
{
	if (APT->n_ev >= APT_MAX_EV)
		return;
	struct apt_event *r = &APT->ev[APT->n_ev++];
	memset(r, 0, sizeof(*r));
	r->type = ev->type;
	r->ifindex = ev->ifindex;
	switch (ev->type) {
	case DRIVER_EV_RX_MGMT:
	case DRIVER_EV_AUTH:
	case DRIVER_EV_ASSOC:
	case DRIVER_EV_DEAUTH:
	case DRIVER_EV_DISASSOC:
		r->timed_out = ev->u.mgmt.timed_out;
		r->locally_generated = ev->u.mgmt.locally_generated;
		if (ev->u.mgmt.frame && ev->u.mgmt.len <= APT_FRAME_MAX) {
			memcpy(r->frame, ev->u.mgmt.frame, ev->u.mgmt.len);
			r->len = ev->u.mgmt.len;
		}
		break;
	case DRIVER_EV_RX_EAPOL:
	case DRIVER_EV_RX_DATA:
		if (ev->u.data.src)
			memcpy(r->src, ev->u.data.src, 6);
		r->ethertype = ev->u.data.ethertype;
		if (ev->u.data.body && ev->u.data.len <= APT_FRAME_MAX) {
			memcpy(r->frame, ev->u.data.body, ev->u.data.len);
			r->len = ev->u.data.len;
		}
		break;
	default:
		break;
	}
}

static void on_event(void *ctx, const struct driver_event *ev)
{
	if (ev->ifindex == 0) { /* radio-wide: every role hears it */
		if (APT->ap)
			ap_handle_event(APT->ap, ev);
		if (APT->ap2)
			ap_handle_event(APT->ap2, ev);
	}
	if (APT->ap && ev->ifindex == APT->ap_if) {
		ap_handle_event(APT->ap, ev);
		return;
	}
	if (APT->ap2 && ev->ifindex == APT->ap2_if) {
		ap_handle_event(APT->ap2, ev);
		return;
	}
	if (APT->hook)
		APT->hook(ev);
	struct apt_sta *s = sta_by_if(ev->ifindex);
	if (s && s->supp && ev->type == DRIVER_EV_RX_EAPOL && ev->u.data.body)
		rsn_supp_rx_eapol(s->supp, ev->u.data.body, ev->u.data.len);
	record(ev);
}

/* ---- AP callbacks ---- */

static void cb_state(void *ctx, enum ap_state o, enum ap_state n)
{
	if (APT->n_states < 16)
		APT->states[APT->n_states++] = n;
	if (n == AP_STATE_STOPPED && APT->restart_with) {
		const struct ap_profile *p = APT->restart_with;
		APT->restart_with = NULL;
		APT->restart_result = ap_start(APT->ap, p, NULL);
	}
}

static void cb_added(void *ctx, const uint8_t addr[6])
{
	APT->added++;
}

static void cb_authorized(void *ctx, const uint8_t addr[6])
{
	APT->authorized++;
}

static void cb_removed(void *ctx, const uint8_t addr[6], uint16_t reason)
{
	APT->removed++;
	memcpy(APT->last_removed, addr, 6);
	APT->last_reason = reason;
	if (APT->stop_on_removed)
		ap_stop(APT->ap);
}

static void cb_mic(void *ctx, const uint8_t addr[6], unsigned count)
{
	APT->mic_failures++;
	APT->last_mic_count = count;
}

/* ---- setup ---- */

static uint32_t add_iface(size_t radio, enum driver_iftype type)
{
	uint32_t ifindex = 0;
	ck_assert_uint_lt(radio, APT->n_radios);
	ck_assert_int_eq(driver_iface_add(APT->drv, APT->radios[radio].id, NULL, type, NULL, &ifindex),
			 0);
	ck_assert_int_eq(driver_iface_set_up(APT->drv, ifindex, true), 0);
	return ifindex;
}

void apt_setup(void)
{
	int err = 0;
	APT = calloc(1, sizeof(*APT));
	ck_assert_ptr_nonnull(APT);
	APT->ev = calloc(APT_MAX_EV, sizeof(*APT->ev));
	ck_assert_ptr_nonnull(APT->ev);
	APT->loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	ck_assert_ptr_nonnull(APT->loop);
	APT->drv = driver_open("sim", APT->loop, "radios=3", on_event, NULL, &err);
	ck_assert_msg(APT->drv != NULL, "driver_open(sim): %d", err);
	ck_assert_int_eq(driver_list_radios(APT->drv, APT->radios, 4, &APT->n_radios), 0);
	ck_assert_uint_ge(APT->n_radios, 3);
	APT->ap_if = add_iface(0, DRIVER_IFTYPE_AP);
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(APT->drv, APT->ap_if, &info), 0);
	memcpy(APT->ap_addr, info.addr, 6);
	static const struct ap_callbacks cb = {
		.state_changed = cb_state,
		.station_added = cb_added,
		.station_authorized = cb_authorized,
		.station_removed = cb_removed,
		.mic_failure = cb_mic,
	};
	APT->ap = ap_new(APT->loop, APT->drv, APT->ap_if, &cb);
	ck_assert_ptr_nonnull(APT->ap);
}

void apt_teardown(void)
{
	if (!APT)
		return;
	ap_free(APT->ap);
	APT->ap = NULL;
	ap_free(APT->ap2);
	APT->ap2 = NULL;
	for (size_t i = 0; i < APT->n_sta; i++)
		rsn_supp_free(APT->sta[i].supp);
	driver_close(APT->drv);
	loop_free(APT->loop);
	free(APT->ev);
	free(APT);
	APT = NULL;
}

void apt_profile(struct ap_profile *p, bool wpa2)
{
	ap_profile_init(p);
	memcpy(p->ssid, APT_SSID, strlen(APT_SSID));
	p->ssid_len = strlen(APT_SSID);
	p->channel = 6;
	p->group_rekey_s = 0;
	p->inactivity_s = 0;
	if (wpa2) {
		p->security = AP_SECURITY_WPA2_PSK;
		p->has_passphrase = true;
		strcpy(p->passphrase, APT_PASSPHRASE);
	} else {
		p->security = AP_SECURITY_OPEN;
	}
}

void apt_start(const struct ap_profile *p)
{
	struct wpad_error err;
	/* Short handshake timers: message 1 sent three times, 50 ms apart. */
	const struct rsn_timing t = { .retry_first_ms = 50, .retry_ms = 50,
				      .group_retry_first_ms = 50, .max_attempts = 3 };
	ap_set_rsn_timing(APT->ap, &t);
	int r = ap_start(APT->ap, p, &err);
	ck_assert_msg(r == 0, "ap_start: %d (%s)", r, err.text);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STARTED);
}

struct apt_sta *apt_sta_add(void)
{
	return apt_sta_add_on(1);
}

void apt_start_second(const struct ap_profile *p)
{
	struct wpad_error err;
	struct driver_iface_info info;
	APT->ap2_if = add_iface(2, DRIVER_IFTYPE_AP);
	ck_assert_int_eq(driver_iface_info(APT->drv, APT->ap2_if, &info), 0);
	memcpy(APT->ap2_addr, info.addr, 6);
	APT->ap2 = ap_new(APT->loop, APT->drv, APT->ap2_if, NULL);
	ck_assert_ptr_nonnull(APT->ap2);
	int r = ap_start(APT->ap2, p, &err);
	ck_assert_msg(r == 0, "second ap_start: %d (%s)", r, err.text);
}

struct apt_sta *apt_sta_add_on(size_t radio)
{
	static const uint8_t subtypes[] = { IEEE80211_STYPE_AUTH, IEEE80211_STYPE_ASSOC_RESP,
					    IEEE80211_STYPE_REASSOC_RESP, IEEE80211_STYPE_DEAUTH,
					    IEEE80211_STYPE_DISASSOC };
	ck_assert_uint_lt(APT->n_sta, APT_MAX_STA);
	struct apt_sta *s = &APT->sta[APT->n_sta++];
	memset(s, 0, sizeof(*s));
	s->ifindex = add_iface(radio, DRIVER_IFTYPE_STATION);
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(APT->drv, s->ifindex, &info), 0);
	memcpy(s->addr, info.addr, 6);
	ck_assert_int_eq(driver_set_channel(APT->drv, s->ifindex, APT_FREQ), 0);
	for (size_t i = 0; i < sizeof(subtypes); i++)
		ck_assert_int_eq(driver_register_mgmt(APT->drv, s->ifindex,
						      IEEE80211_FC(IEEE80211_FTYPE_MGMT, subtypes[i]),
						      NULL, 0),
				 0);
	return s;
}

void apt_monitor(uint32_t freq)
{
	if (!APT->mon_if)
		APT->mon_if = add_iface(2, DRIVER_IFTYPE_MONITOR);
	ck_assert_int_eq(driver_set_channel(APT->drv, APT->mon_if, freq), 0);
}

/* ---- loop helpers ---- */

void apt_run(int ms)
{
	uint64_t deadline = loop_now_us(APT->loop) + (uint64_t)ms * 1000u;
	while (loop_now_us(APT->loop) < deadline)
		loop_iterate(APT->loop, 5);
}

bool apt_wait_for(bool (*cond)(void *), void *arg, int timeout_ms)
{
	uint64_t deadline = loop_now_us(APT->loop) + (uint64_t)timeout_ms * 1000u;
	while (!cond(arg)) {
		if (loop_now_us(APT->loop) >= deadline)
			return false;
		loop_iterate(APT->loop, 5);
	}
	return true;
}

static struct apt_event *find(enum driver_event_type type, uint32_t ifindex, int subtype)
{
	for (size_t i = 0; i < APT->n_ev; i++) {
		struct apt_event *e = &APT->ev[i];
		if (e->consumed || e->type != type || (ifindex && e->ifindex != ifindex))
			continue;
		int st = e->len >= 2 ? (int)IEEE80211_FC_GET_SUBTYPE(get_le16(e->frame)) : -1;
		if (subtype >= 0 && st != subtype)
			continue;
		e->consumed = true;
		return e;
	}
	return NULL;
}

static struct apt_event *wait_ev(enum driver_event_type type, uint32_t ifindex, int subtype,
				 int timeout_ms)
{
	uint64_t deadline = loop_now_us(APT->loop) + (uint64_t)timeout_ms * 1000u;
	for (;;) {
		struct apt_event *e = find(type, ifindex, subtype);
		if (e || loop_now_us(APT->loop) >= deadline)
			return e;
		loop_iterate(APT->loop, 5);
	}
}

struct apt_event *apt_wait(enum driver_event_type type, uint32_t ifindex, int timeout_ms)
{
	return wait_ev(type, ifindex, -1, timeout_ms);
}

struct apt_event *apt_wait_mgmt(uint8_t subtype, uint32_t ifindex, int timeout_ms)
{
	return wait_ev(DRIVER_EV_RX_MGMT, ifindex, subtype, timeout_ms);
}

/* ---- frames ---- */

uint16_t apt_resp_status(const struct apt_event *e)
{
	struct mgmt_frame f;
	ck_assert_int_eq(mgmt_parse(e->frame, e->len, &f), 0);
	if (f.subtype == IEEE80211_STYPE_AUTH)
		return f.u.auth.status;
	ck_assert(f.subtype == IEEE80211_STYPE_ASSOC_RESP ||
		  f.subtype == IEEE80211_STYPE_REASSOC_RESP);
	return f.u.assoc_resp.status;
}

uint16_t apt_reason(const struct apt_event *e)
{
	struct mgmt_frame f;
	ck_assert_int_eq(mgmt_parse(e->frame, e->len, &f), 0);
	ck_assert(f.subtype == IEEE80211_STYPE_DEAUTH || f.subtype == IEEE80211_STYPE_DISASSOC);
	return f.u.reason;
}

void apt_tx(struct apt_sta *s, const uint8_t *frame, size_t len)
{
	uint64_t cookie;
	ck_assert_int_eq(driver_tx_mgmt(APT->drv, s->ifindex, APT_FREQ, frame, len, false, &cookie),
			 0);
}

size_t apt_auth_frame(const struct apt_sta *s, uint16_t alg, uint16_t seq, uint8_t *out,
		      size_t cap)
{
	struct mgmt_frame f;
	struct wbuf w = wbuf_init(out, cap);
	mgmt_init(&f, IEEE80211_STYPE_AUTH, APT->ap_addr, s->addr, APT->ap_addr);
	f.u.auth.alg = alg;
	f.u.auth.seq = seq;
	if (alg == WLAN_AUTH_SAE) { /* a token commit body is enough to be refused */
		static const uint8_t body[] = { 19, 0 };
		f.u.auth.sae_body = body;
		f.u.auth.sae_len = sizeof(body);
	}
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	return w.len;
}

size_t apt_assoc_frame(const struct apt_sta *s, const uint8_t *rates, size_t n_rates,
		       const uint8_t *ies, size_t ies_len, uint8_t *out, size_t cap)
{
	struct mgmt_frame f;
	struct wbuf w = wbuf_init(out, cap);
	mgmt_init(&f, IEEE80211_STYPE_ASSOC_REQ, APT->ap_addr, s->addr, APT->ap_addr);
	f.u.assoc_req.capab = WLAN_CAPAB_ESS;
	f.u.assoc_req.listen_interval = 10;
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	ie_build_ssid(&w, (const uint8_t *)APT_SSID, strlen(APT_SSID));
	ie_build_supp_rates(&w, rates, n_rates);
	ie_build_ext_rates(&w, rates, n_rates);
	if (ies)
		wbuf_put(&w, ies, ies_len);
	ck_assert(!w.bad);
	return w.len;
}

size_t apt_sta_rsne(uint8_t *out, size_t cap)
{
	struct ie_rsn rsn;
	struct wbuf w = wbuf_init(out, cap);
	ie_rsn_init(&rsn, RSN_AKM_PSK);
	rsn.present = IE_RSN_UPTO_CAPAB;
	ck_assert_int_eq(ie_build_rsn(&w, &rsn), 0);
	return w.len;
}

/* ---- the station MLME ---- */

int apt_connect(struct apt_sta *s, const uint8_t *ies, size_t ies_len, bool wmm, uint16_t *aid)
{
	return apt_connect_bss(s, APT->ap_addr, APT_FREQ, ies, ies_len, wmm, aid);
}

int apt_connect_bss(struct apt_sta *s, const uint8_t bssid[6], uint32_t freq, const uint8_t *ies,
		    size_t ies_len, bool wmm, uint16_t *aid)
{
	struct driver_auth_params auth = { .freq_mhz = freq, .alg = DRIVER_AUTH_OPEN };
	memcpy(auth.bssid, bssid, 6);
	auth.ssid.len = (uint8_t)strlen(APT_SSID);
	memcpy(auth.ssid.ssid, APT_SSID, auth.ssid.len);
	ck_assert_int_eq(driver_authenticate(APT->drv, s->ifindex, &auth), 0);
	struct apt_event *e = apt_wait(DRIVER_EV_AUTH, s->ifindex, 2000);
	if (!e || e->timed_out)
		return -1;
	uint16_t st = apt_resp_status(e);
	if (st != WLAN_STATUS_SUCCESS)
		return st;

	struct driver_assoc_params assoc = { .freq_mhz = freq, .ies = ies, .ies_len = ies_len,
					     .wmm = wmm };
	memcpy(assoc.bssid, bssid, 6);
	assoc.ssid = auth.ssid;
	if (ies && ies_len <= sizeof(s->rsne)) {
		memcpy(s->rsne, ies, ies_len);
		s->rsne_len = ies_len;
	}
	ck_assert_int_eq(driver_associate(APT->drv, s->ifindex, &assoc), 0);
	e = apt_wait(DRIVER_EV_ASSOC, s->ifindex, 2000);
	if (!e || e->timed_out)
		return -1;
	struct mgmt_frame f;
	ck_assert_int_eq(mgmt_parse(e->frame, e->len, &f), 0);
	memcpy(s->last_resp, e->frame, e->len);
	s->last_resp_len = e->len;
	if (aid)
		*aid = f.u.assoc_resp.aid;
	/* Open network: the station's own port opens at once, as the station
	 * role would do. */
	if (f.u.assoc_resp.status == WLAN_STATUS_SUCCESS && !ies)
		ck_assert_int_eq(driver_port_authorize(APT->drv, s->ifindex, bssid, true), 0);
	return f.u.assoc_resp.status;
}

enum ap_sta_state apt_ap_sta_state(const uint8_t addr[6])
{
	struct ap_station_info info;
	if (ap_get_station(APT->ap, addr, &info) < 0)
		return AP_STA_NONE;
	return info.state;
}

/* ---- the supplicant ---- */

static uint32_t drv_cipher(uint32_t suite)
{
	return suite == RSN_CIPHER_CCMP_128 ? DRIVER_CIPHER_CCMP_128 : 0;
}

static int s_send(void *ctx, const uint8_t *body, size_t len)
{
	struct apt_sta *s = ctx;
	uint64_t cookie;
	return driver_tx_eapol(APT->drv, s->ifindex, APT->ap_addr, body, len, !s->ptk_installed,
			       &cookie);
}

static int s_ptk(void *ctx, uint32_t cipher, const uint8_t *tk, size_t len)
{
	struct apt_sta *s = ctx;
	struct driver_key k = { .type = DRIVER_KEY_PAIRWISE, .cipher = drv_cipher(cipher),
				.key_len = len, .set_tx = true };
	memcpy(k.addr, APT->ap_addr, 6);
	memcpy(k.key, tk, len);
	int r = driver_key_set(APT->drv, s->ifindex, &k);
	s->ptk_installed = r == 0;
	return r;
}

static int s_gtk(void *ctx, uint8_t idx, uint32_t cipher, const uint8_t *gtk, size_t len,
		 const uint8_t rsc[RSN_SEQ_LEN])
{
	struct apt_sta *s = ctx;
	struct driver_key k = { .type = DRIVER_KEY_GROUP, .cipher = drv_cipher(cipher),
				.key_idx = idx, .key_len = len };
	memcpy(k.addr, APT->ap_addr, 6);
	memcpy(k.key, gtk, len);
	memcpy(k.seq, rsc, 6);
	s->gtk_installs++;
	s->last_gtk_idx = idx;
	return driver_key_set(APT->drv, s->ifindex, &k);
}

static void s_port(void *ctx, bool on)
{
	struct apt_sta *s = ctx;
	driver_port_authorize(APT->drv, s->ifindex, APT->ap_addr, on);
}

static void s_done(void *ctx)
{
	((struct apt_sta *)ctx)->supp_done = true;
}

static void s_fail(void *ctx, const struct rsn_failure *f)
{
	struct apt_sta *s = ctx;
	s->supp_failed = true;
	s->supp_fail_reason = f->ieee_reason;
}

void apt_supp_start(struct apt_sta *s, const char *passphrase)
{
	static const struct rsn_ops ops = { .send_eapol = s_send, .install_ptk = s_ptk,
					    .install_gtk = s_gtk, .set_port_authorized = s_port,
					    .on_complete = s_done, .on_failure = s_fail };
	uint8_t pmk[32], sta_rsne[64];
	size_t sta_rsne_len = apt_sta_rsne(sta_rsne, sizeof(sta_rsne));
	ck_assert_int_eq(crypto_psk_from_passphrase(passphrase, (const uint8_t *)APT_SSID,
						    strlen(APT_SSID), pmk),
			 0);
	struct rsn_config cfg = {
		.akm = RSN_AKM_PSK,
		.pairwise_cipher = RSN_CIPHER_CCMP_128,
		.group_cipher = RSN_CIPHER_CCMP_128,
		.pmk = pmk,
		.pmk_len = 32,
		.sta_rsne = sta_rsne,
		.sta_rsne_len = sta_rsne_len,
		.ap_rsne = APT->ap->rsne,
		.ap_rsne_len = APT->ap->rsne_len,
		/* The RSNXE the Beacon carries (SAE H2E), as a real station heard it. */
		.ap_rsnxe = APT->ap->rsnxe_len ? APT->ap->rsnxe : NULL,
		.ap_rsnxe_len = APT->ap->rsnxe_len,
		.sta_rsnxe = s->msg2_rsnxe_len ? s->msg2_rsnxe : NULL,
		.sta_rsnxe_len = s->msg2_rsnxe_len,
	};
	memcpy(cfg.own_addr, s->addr, 6);
	memcpy(cfg.peer_addr, APT->ap_addr, 6);
	s->supp = rsn_supp_new(APT->loop, &cfg, &ops, s);
	ck_assert_ptr_nonnull(s->supp);
	rsn_supp_start(s->supp);
	crypto_zero(pmk, sizeof(pmk));
}
