/* The station test bench; see test_station_air.h. Frames are built with the
 * codec, so the bench also checks that what the station parses is what the
 * codec builds. */
#include "tests/unit/test_station_air.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/codec/pmf.h"
#include "daemon/codec/eapol.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_basic.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/store/known_store.h"
#include "drivers/sim/medium.h"
#include "drivers/sim/sim.h"

static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* ---- station callbacks ---- */

static void cb_state(void *ctx, enum station_state old_state, enum station_state new_state)
{
	struct air *a = ctx;
	(void)old_state;
	if (a->n_states < sizeof(a->states) / sizeof(a->states[0]))
		a->states[a->n_states++] = new_state;
}

static void cb_scan_done(void *ctx)
{
	struct air *a = ctx;
	a->n_scan_done++;
}

static void cb_connect_done(void *ctx, const struct wpad_error *err)
{
	struct air *a = ctx;
	a->n_connect_done++;
	a->connect_ok = err == NULL;
	a->connect_done_us = loop_now_us(a->loop);
	if (err)
		a->connect_err = *err;
	else
		wpad_error_clear(&a->connect_err);
}

static void cb_disconnected(void *ctx, const struct wpad_error *why)
{
	struct air *a = ctx;
	a->n_disconnected++;
	a->disc_err = *why;
}

/* ---- the hand-played access points ---- */

static void ap_tx(struct air *a, struct air_ap *ap, const uint8_t *frame, size_t len)
{
	uint64_t cookie = 0;
	ck_assert_int_eq(driver_tx_mgmt(a->drv, ap->ifindex, 0, frame, len, false, &cookie), 0);
}

static void ap_send_simple(struct air *a, struct air_ap *ap, uint8_t subtype,
			   const uint8_t *sta, uint16_t status)
{
	uint8_t buf[128];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct mgmt_frame f;
	static const uint8_t rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };

	mgmt_init(&f, subtype, sta, ap->addr, ap->addr);
	switch (subtype) {
	case IEEE80211_STYPE_AUTH:
		f.u.auth.alg = WLAN_AUTH_OPEN;
		f.u.auth.seq = 2;
		f.u.auth.status = status;
		break;
	case IEEE80211_STYPE_ASSOC_RESP:
		f.u.assoc_resp.capab = WLAN_CAPAB_ESS | (ap->psk ? WLAN_CAPAB_PRIVACY : 0);
		f.u.assoc_resp.status = status;
		f.u.assoc_resp.aid = 1;
		break;
	default: /* deauthentication */
		f.u.reason = status;
		break;
	}
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	if (subtype == IEEE80211_STYPE_ASSOC_RESP)
		ie_build_supp_rates(&w, rates, sizeof(rates));
	if (subtype == IEEE80211_STYPE_ASSOC_RESP && status == WLAN_STATUS_ASSOC_REJECTED_TEMPORARILY)
		ie_build_timeout_interval(&w, TIMEOUT_ASSOC_COMEBACK, ap->comeback_tu);
	ck_assert(!w.bad);
	ap_tx(a, ap, buf, w.len);
}

static void ap_send_msg1(struct air *a, struct air_ap *ap, const uint8_t *sta)
{
	uint8_t nonce[32], buf[256];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct eapol_key k = { .descriptor = EAPOL_KEY_DESC_RSN, .key_length = 16,
			       .replay_counter = 1, .nonce = nonce, .mic_len = 16 };

	for (size_t i = 0; i < sizeof(nonce); i++)
		nonce[i] = (uint8_t)(0xa0 + i);
	k.key_info = EAPOL_KEY_VER_HMAC_SHA1_AES | EAPOL_KEY_INFO_PAIRWISE | EAPOL_KEY_INFO_ACK;
	ck_assert_int_eq(eapol_key_frame_build(&w, EAPOL_VERSION_2004, &k, NULL), 0);
	ck_assert_int_eq(driver_tx_eapol(a->drv, ap->ifindex, sta, buf, w.len, true, NULL), 0);
}

/* What an 802.1X authenticator sends first: EAP-Request/Identity (RFC 3748
 * 5.1) in an EAP-Packet. */
static void ap_send_eap_identity(struct air *a, struct air_ap *ap, const uint8_t *sta)
{
	static const uint8_t frame[] = { 2, 0, 0, 5, 1, 1, 0, 5, 1 };
	ck_assert_int_eq(driver_tx_eapol(a->drv, ap->ifindex, sta, frame, sizeof(frame), true,
					 NULL), 0);
}

static void ap_rx_mgmt(struct air *a, struct air_ap *ap, const struct driver_event *ev)
{
	struct mgmt_frame f;
	if (!ev->u.mgmt.frame || mgmt_parse(ev->u.mgmt.frame, ev->u.mgmt.len, &f) != 0)
		return;
	if (memcmp(f.bssid, ap->addr, 6) != 0)
		return;
	struct driver_sta_params sp = { .aid = 1, .listen_interval = 10 };
	memcpy(sp.addr, f.sa, 6);
	switch (f.subtype) {
	case IEEE80211_STYPE_AUTH:
		ap->n_auth++;
		if (ap->ignore_auth)
			return;
		if (ap->auth_status == 0) {
			driver_sta_del(a->drv, ap->ifindex, f.sa);
			sp.flags = DRIVER_STA_AUTHENTICATED;
			ck_assert_int_eq(driver_sta_add(a->drv, ap->ifindex, &sp), 0);
		}
		ap_send_simple(a, ap, IEEE80211_STYPE_AUTH, f.sa, ap->auth_status);
		return;
	case IEEE80211_STYPE_ASSOC_REQ:
	case IEEE80211_STYPE_REASSOC_REQ:
		ap->n_assoc++;
		ap->last_assoc_ies_len = f.ies_len < sizeof(ap->last_assoc_ies) ? f.ies_len : 0;
		memcpy(ap->last_assoc_ies, f.ies, ap->last_assoc_ies_len);
		if (ap->ignore_assoc)
			return;
		if (ap->comebacks) {
			ap->comebacks--;
			ap_send_simple(a, ap, IEEE80211_STYPE_ASSOC_RESP, f.sa,
				       WLAN_STATUS_ASSOC_REJECTED_TEMPORARILY);
			return;
		}
		if (ap->assoc_status == 0)
			driver_sta_set_flags(a->drv, ap->ifindex, f.sa, DRIVER_STA_ASSOCIATED, 0);
		ap_send_simple(a, ap, IEEE80211_STYPE_ASSOC_RESP, f.sa, ap->assoc_status);
		if (ap->assoc_status == 0 && !ap->psk)
			driver_port_authorize(a->drv, ap->ifindex, f.sa, true);
		if (ap->assoc_status == 0 && ap->send_msg1)
			ap_send_msg1(a, ap, f.sa);
		if (ap->assoc_status == 0 && ap->send_eap_identity)
			ap_send_eap_identity(a, ap, f.sa);
		return;
	case IEEE80211_STYPE_DEAUTH:
	case IEEE80211_STYPE_DISASSOC:
		ap->n_deauth++;
		driver_sta_del(a->drv, ap->ifindex, f.sa);
		return;
	default:
		return;
	}
}

static void ap_rx_eapol(struct air *a, struct air_ap *ap, const struct driver_event *ev)
{
	ap->n_eapol++;
	if (!ap->deauth_on_msg2 || !ev->u.data.src)
		return;
	uint8_t sta[6];
	memcpy(sta, ev->u.data.src, 6);
	ap_send_simple(a, ap, IEEE80211_STYPE_DEAUTH, sta, ap->deauth_on_msg2);
	driver_sta_del(a->drv, ap->ifindex, sta);
}

static void on_event(void *ctx, const struct driver_event *ev)
{
	struct air *a = ctx;

	if (a->st && (ev->ifindex == a->sta_if || ev->ifindex == 0))
		station_handle_event(a->st, ev);
	if (ev->type == DRIVER_EV_RX_DATA && ev->ifindex == a->sta_if) {
		a->n_rx_data++;
		size_t n = ev->u.data.len < sizeof(a->last_rx_data) ? ev->u.data.len
								    : sizeof(a->last_rx_data);
		memcpy(a->last_rx_data, ev->u.data.body, n);
	}
	if (a->hook)
		a->hook(a->hook_ctx, ev);
	for (size_t i = 0; i < a->n_ap; i++) {
		struct air_ap *ap = &a->ap[i];
		if (ev->ifindex != ap->ifindex)
			continue;
		if (ev->type == DRIVER_EV_RX_MGMT)
			ap_rx_mgmt(a, ap, ev);
		else if (ev->type == DRIVER_EV_RX_EAPOL)
			ap_rx_eapol(a, ap, ev);
	}
}

/* ---- setup ---- */

static uint32_t make_iface(struct air *a, size_t r, enum driver_iftype type)
{
	uint32_t ifindex = 0;
	ck_assert_uint_lt(r, a->n_radios);
	int ret = driver_iface_add(a->drv, a->radios[r].id, NULL, type, NULL, &ifindex);
	ck_assert_msg(ret == 0, "iface_add: %d", ret);
	ck_assert_int_eq(driver_iface_set_up(a->drv, ifindex, true), 0);
	return ifindex;
}

uint32_t air_iface(struct air *a, size_t r, enum driver_iftype type)
{
	return make_iface(a, r, type);
}

static void iface_addr(struct air *a, uint32_t ifindex, uint8_t addr[6])
{
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(a->drv, ifindex, &info), 0);
	memcpy(addr, info.addr, 6);
}

void air_setup(struct air *a, unsigned radios, bool with_store)
{
	/* 60 ms per active channel, twice the default (the cases' scan
	 * timings were written for it when the air ran in real time). */
	air_setup_opts(a, radios, with_store, "country=US,active_dwell=60");
}

static void new_station(struct air *a);

void air_setup_opts(struct air *a, unsigned radios, bool with_store, const char *extra)
{
	char opts[128];
	int err = 0;

	memset(a, 0, sizeof(*a));
	/* Virtual time: a 3 s MLME timeout costs no wall time (loop.h). */
	a->loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	ck_assert_ptr_nonnull(a->loop);
	snprintf(opts, sizeof(opts), "radios=%u%s%s", radios, extra && *extra ? "," : "",
		 extra ? extra : "");
	a->drv = driver_open("sim", a->loop, opts, on_event, a, &err);
	ck_assert_msg(a->drv != NULL, "driver_open(sim): %d", err);
	a->medium = sim_driver_medium(a->drv);
	ck_assert_int_eq(driver_list_radios(a->drv, a->radios, 8, &a->n_radios), 0);
	ck_assert_uint_ge(a->n_radios, radios);
	a->sta_if = make_iface(a, 0, DRIVER_IFTYPE_STATION);
	iface_addr(a, a->sta_if, a->sta_addr);
	if (with_store) {
		snprintf(a->store_dir, sizeof(a->store_dir), "/tmp/wpad-station-XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(a->store_dir));
		ck_assert_int_eq(known_store_open(a->store_dir, &a->store), 0);
		ck_assert_int_ge(known_store_load(a->store), 0);
	}
	new_station(a);
}

static void new_station(struct air *a)
{
	struct station_callbacks cb = { .state_changed = cb_state, .scan_done = cb_scan_done,
					.connect_done = cb_connect_done,
					.disconnected = cb_disconnected, .ctx = a };
	a->st = station_new(a->loop, a->drv, a->sta_if, a->store, &cb);
	ck_assert_ptr_nonnull(a->st);
}

void air_restart_station(struct air *a)
{
	station_free(a->st);
	a->st = NULL;
	if (a->store) {
		known_store_free(a->store);
		ck_assert_int_eq(known_store_open(a->store_dir, &a->store), 0);
		ck_assert_int_ge(known_store_load(a->store), 0);
	}
	a->n_connect_done = a->n_scan_done = a->n_disconnected = 0;
	a->n_states = 0;
	new_station(a);
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

void air_teardown(struct air *a)
{
	station_free(a->st);
	a->st = NULL;
	driver_close(a->drv);
	loop_free(a->loop);
	if (a->store) {
		known_store_free(a->store);
		remove_dir(a->store_dir);
	}
}

static size_t beacon_head(struct air_ap *ap, uint8_t subtype, uint8_t *buf, size_t cap)
{
	struct wbuf w = wbuf_init(buf, cap);
	struct mgmt_frame f;
	static const uint8_t rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };

	mgmt_init(&f, subtype, bcast, ap->addr, ap->addr);
	f.u.beacon.beacon_int = ap->conf.beacon_int ? ap->conf.beacon_int : 100;
	f.u.beacon.capab = WLAN_CAPAB_ESS | (ap->psk ? WLAN_CAPAB_PRIVACY : 0);
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	/* A hidden AP beacons an empty SSID; its probe responses name it. */
	bool blank = ap->conf.hidden && subtype == IEEE80211_STYPE_BEACON;
	ie_build_ssid(&w, (const uint8_t *)ap->ssid, blank ? 0 : strlen(ap->ssid));
	ie_build_supp_rates(&w, rates, sizeof(rates));
	ie_build_ds(&w, (uint8_t)(ap->freq >= 5000 ? (ap->freq - 5000) / 5 : (ap->freq - 2407) / 5));
	ck_assert(!w.bad);
	return w.len;
}

static size_t beacon_tail(struct air_ap *ap, uint8_t *buf, size_t cap)
{
	struct wbuf w = wbuf_init(buf, cap);
	if (ap->psk) {
		struct ie_rsn rsn;
		ie_rsn_init(&rsn, ap->conf.akm ? ap->conf.akm : RSN_AKM_PSK);
		if (ap->conf.pairwise)
			rsn.pairwise[0] = ap->conf.pairwise;
		if (ap->conf.group)
			rsn.group_cipher = ap->conf.group;
		rsn.capab = ap->conf.rsn_capab;
		rsn.present = IE_RSN_UPTO_CAPAB;
		ck_assert_int_eq(ie_build_rsn(&w, &rsn), 0);
	}
	return w.len;
}

struct air_ap *air_add_ap_conf(struct air *a, size_t r, const struct air_ap_conf *conf)
{
	ck_assert_uint_lt(a->n_ap, AIR_MAX_AP);
	struct air_ap *ap = &a->ap[a->n_ap++];
	uint8_t head[256], tail[128], probe[384];

	memset(ap, 0, sizeof(*ap));
	ap->conf = *conf;
	ap->ifindex = make_iface(a, r, DRIVER_IFTYPE_AP);
	iface_addr(a, ap->ifindex, ap->addr);
	ap->freq = conf->freq;
	ap->psk = conf->psk;
	snprintf(ap->ssid, sizeof(ap->ssid), "%s", conf->ssid);
	struct driver_ap_params p = { .freq_mhz = conf->freq,
				      .beacon_interval = conf->beacon_int ? conf->beacon_int : 100,
				      .dtim_period = 2, .hidden_ssid = conf->hidden };
	p.beacon_head = head;
	p.beacon_head_len = beacon_head(ap, IEEE80211_STYPE_BEACON, head, sizeof(head));
	p.beacon_tail = tail;
	p.beacon_tail_len = beacon_tail(ap, tail, sizeof(tail));
	/* The probe response template lets the radio answer probes itself. */
	size_t n = beacon_head(ap, IEEE80211_STYPE_PROBE_RESP, probe, sizeof(probe));
	memcpy(probe + n, tail, p.beacon_tail_len);
	p.probe_resp = probe;
	p.probe_resp_len = n + p.beacon_tail_len;
	p.ssid.len = (uint8_t)strlen(conf->ssid);
	memcpy(p.ssid.ssid, conf->ssid, p.ssid.len);
	int ret = driver_start_ap(a->drv, ap->ifindex, &p);
	ck_assert_msg(ret == 0, "start_ap: %d", ret);
	static const uint16_t wanted[] = {
		IEEE80211_FC(IEEE80211_FTYPE_MGMT, IEEE80211_STYPE_AUTH),
		IEEE80211_FC(IEEE80211_FTYPE_MGMT, IEEE80211_STYPE_ASSOC_REQ),
		IEEE80211_FC(IEEE80211_FTYPE_MGMT, IEEE80211_STYPE_REASSOC_REQ),
		IEEE80211_FC(IEEE80211_FTYPE_MGMT, IEEE80211_STYPE_DEAUTH),
		IEEE80211_FC(IEEE80211_FTYPE_MGMT, IEEE80211_STYPE_DISASSOC),
	};
	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
		ck_assert_int_eq(driver_register_mgmt(a->drv, ap->ifindex, wanted[i], NULL, 0), 0);
	return ap;
}

struct air_ap *air_add_ap(struct air *a, size_t r, const char *ssid, uint32_t freq, bool psk)
{
	struct air_ap_conf c = { .ssid = ssid, .freq = freq, .psk = psk };
	return air_add_ap_conf(a, r, &c);
}

void air_stop_ap(struct air *a, struct air_ap *ap)
{
	ck_assert_int_eq(driver_stop_ap(a->drv, ap->ifindex), 0);
}

void air_link(struct air *a, const struct air_ap *ap, bool in_range)
{
	ck_assert_ptr_nonnull(a->medium);
	ck_assert_int_eq(medium_set_link(a->medium, a->sta_addr, ap->addr,
					 in_range ? MEDIUM_DEFAULT_SIGNAL_MBM
						  : MEDIUM_NO_SIGNAL_MBM,
					 0),
			 0);
}

bool air_run_until(struct air *a, bool (*done)(struct air *), int timeout_ms)
{
	uint64_t deadline = loop_now_us(a->loop) + (uint64_t)timeout_ms * 1000u;
	while (!done(a)) {
		uint64_t now = loop_now_us(a->loop);
		if (now >= deadline)
			return false;
		int left = (int)((deadline - now + 999) / 1000);
		loop_iterate(a->loop, left < 10 ? left : 10);
	}
	return true;
}

void air_run_for(struct air *a, int ms)
{
	uint64_t deadline = loop_now_us(a->loop) + (uint64_t)ms * 1000u;
	while (loop_now_us(a->loop) < deadline)
		loop_iterate(a->loop, 5);
}

bool air_connect_done(struct air *a)
{
	return a->n_connect_done > 0;
}

bool air_scan_done(struct air *a)
{
	return a->n_scan_done > 0;
}

bool air_disconnected(struct air *a)
{
	return a->n_disconnected > 0;
}

bool air_connected(struct air *a)
{
	return station_state(a->st) == STATION_CONNECTED;
}

size_t air_count_state(const struct air *a, enum station_state s)
{
	size_t n = 0;
	for (size_t i = 0; i < a->n_states; i++)
		n += a->states[i] == s;
	return n;
}

int air_connect(struct air *a, const char *ssid, const char *passphrase, bool hidden)
{
	a->n_connect_done = 0;
	return station_connect(a->st, (const uint8_t *)ssid, strlen(ssid), passphrase, hidden);
}

bool air_scan_for(struct air *a, const char *ssid, size_t min_bss, unsigned tries)
{
	for (unsigned i = 0; i < tries; i++) {
		a->n_scan_done = 0;
		ck_assert_int_eq(station_scan(a->st), 0);
		ck_assert(air_run_until(a, air_scan_done, 15000));
		const struct station_network *nets[32];
		size_t n = station_networks(a->st, nets, 32);
		for (size_t j = 0; j < n && j < 32; j++)
			if (nets[j]->ssid_len == strlen(ssid) &&
			    memcmp(nets[j]->ssid, ssid, strlen(ssid)) == 0 &&
			    nets[j]->n_bss >= min_bss)
				return true;
	}
	return false;
}

static bool down(struct air *a)
{
	return station_state(a->st) == STATION_DISCONNECTED;
}

uint64_t air_warm_connect_ms(struct air *a, const char *ssid, unsigned tries)
{
	uint64_t best = UINT64_MAX;
	for (unsigned i = 0; i < tries; i++) {
		if (station_state(a->st) == STATION_CONNECTED) {
			ck_assert_int_eq(station_disconnect(a->st), 0);
			ck_assert(air_run_until(a, down, 1000));
		}
		a->n_states = 0;
		uint64_t t0 = loop_now_us(a->loop);
		ck_assert_int_eq(air_connect(a, ssid, NULL, false), 0);
		ck_assert(air_run_until(a, air_connect_done, 5000));
		ck_assert_msg(a->connect_ok, "warm connect %u failed: %s", i, a->connect_err.text);
		ck_assert_uint_eq(air_count_state(a, STATION_SCANNING), 0);
		uint64_t ms = (a->connect_done_us - t0) / 1000;
		if (ms < best)
			best = ms;
	}
	return best;
}

/* ---- the bench's own check ---- */

/* What the bench puts on the air is what the station expects to parse:
 * a raw driver scan (no station involved) finds the AP, and its elements
 * give the SSID, security and an empty SSID for a hidden AP. */
START_TEST(test_bench_beacons_parse)
{
	static struct air a;
	air_setup(&a, 3, false);
	struct air_ap *open_ap = air_add_ap(&a, 1, "bench-open", 2412, false);
	struct air_ap_conf hc = { .ssid = "bench-hidden", .freq = 2462, .psk = true,
				  .hidden = true };
	struct air_ap *hidden_ap = air_add_ap_conf(&a, 2, &hc);
	struct driver_scan_params p = { .n_freqs = 2, .freqs = { 2412, 2462 } };
	ck_assert_int_eq(driver_scan_trigger(a.drv, a.sta_if, &p), 0);
	air_run_for(&a, 600); /* two channels, 110 ms each */
	struct driver_scan_results res = { 0 };
	ck_assert_int_eq(driver_get_scan_results(a.drv, a.sta_if, &res), 0);
	bool saw_open = false, saw_hidden = false;
	for (size_t i = 0; i < res.n; i++) {
		struct station_bss b;
		const struct driver_scan_result *r = &res.results[i];
		ck_assert_int_eq(bss_parse(&b, r->bssid, r->freq_mhz, r->signal_mbm, r->capability,
					   r->beacon_interval, r->ies, r->ies_len, 0),
				 0);
		if (memcmp(r->bssid, open_ap->addr, 6) == 0) {
			saw_open = true;
			ck_assert_int_eq(b.security, BSS_SECURITY_OPEN);
			ck_assert_mem_eq(b.ssid, "bench-open", 10);
		}
		if (memcmp(r->bssid, hidden_ap->addr, 6) == 0 && !r->from_probe_resp) {
			saw_hidden = true;
			ck_assert(b.hidden);
			ck_assert_int_eq(b.security, BSS_SECURITY_PSK);
		}
	}
	driver_scan_results_free(&res);
	ck_assert(saw_open && saw_hidden);
	air_teardown(&a);
}
END_TEST

Suite *make_station_bench_suite(void)
{
	Suite *s = suite_create("station_bench");
	TCase *tc = tcase_create("bench");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_bench_beacons_parse);
	suite_add_tcase(s, tc);
	return s;
}
