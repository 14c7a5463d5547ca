/* The AP role over the simulated radio: what goes on the air (beacon,
 * probe responses, hidden SSID), authentication and association with
 * their status codes, AIDs, capacity, ACLs, start-up refusals, stop,
 * channel moves. Stations are played by hand (tx_mgmt) or through the
 * sim's station MLME. */
#include "tests/unit/test_ap_fixture.h"

#include "daemon/ap/ap_internal.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_basic.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint8_t broadcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t rates_11b_g[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };
static const uint8_t rates_ofdm[] = { 0x0c, 0x12, 0x18, 0x24, 0x30, 0x48, 0x60, 0x6c };

static void parse_ies(const struct apt_event *e, struct mgmt_frame *f, struct ie_set *s)
{
	ck_assert_int_eq(mgmt_parse(e->frame, e->len, f), 0);
	ck_assert_int_eq(ie_parse(f->ies, f->ies_len, s), 0);
}

/* A beacon from our AP heard by the monitor. */
static struct apt_event *wait_beacon(void)
{
	for (int i = 0; i < 20; i++) {
		struct apt_event *e = apt_wait_mgmt(IEEE80211_STYPE_BEACON, APT->mon_if, 500);
		if (!e)
			return NULL;
		if (memcmp(e->frame + 10, APT->ap_addr, 6) == 0)
			return e;
	}
	return NULL;
}

static size_t probe_req(const struct apt_sta *s, const char *ssid, uint8_t *out, size_t cap)
{
	struct mgmt_frame f;
	struct wbuf w = wbuf_init(out, cap);
	mgmt_init(&f, IEEE80211_STYPE_PROBE_REQ, broadcast, s->addr, broadcast);
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	ie_build_ssid(&w, (const uint8_t *)ssid, strlen(ssid));
	ie_build_supp_rates(&w, rates_11b_g, sizeof(rates_11b_g));
	return w.len;
}

/* A probe response to s, heard by the monitor, or NULL. */
static struct apt_event *wait_probe_resp(const struct apt_sta *s, int ms)
{
	for (;;) {
		struct apt_event *e = apt_wait_mgmt(IEEE80211_STYPE_PROBE_RESP, APT->mon_if, ms);
		if (!e || memcmp(e->frame + 4, s->addr, 6) == 0)
			return e;
	}
}

START_TEST(beacon_on_the_air)
{
	struct ap_profile p;
	struct mgmt_frame f;
	struct ie_set s;
	apt_profile(&p, true);
	apt_monitor(APT_FREQ);
	apt_start(&p);
	struct apt_event *e = wait_beacon();
	ck_assert_ptr_nonnull(e);
	parse_ies(e, &f, &s);
	ck_assert_uint_eq(f.u.beacon.beacon_int, 100);
	ck_assert(f.u.beacon.capab & WLAN_CAPAB_PRIVACY);
	ck_assert_uint_eq(s.ssid.len, strlen(APT_SSID));
	ck_assert_mem_eq(s.ssid.ssid, APT_SSID, s.ssid.len);
	ck_assert(s.has_tim); /* added by the driver between head and tail */
	ck_assert_uint_eq(s.tim.dtim_period, 2);
	ck_assert_uint_eq(s.ds_channel, 6);
	ck_assert(s.has_rsn);
	ck_assert_uint_eq(s.rsn.pairwise[0], RSN_CIPHER_CCMP_128);
	ck_assert_uint_eq(s.rsn.akm[0], RSN_AKM_PSK);
	ck_assert(s.has_wmm && s.wmm.subtype == WMM_SUBTYPE_PARAM);
	ck_assert(s.has_ht_cap && s.has_ht_op);
	ck_assert_uint_eq(s.ht_op.primary_channel, 6);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(probe_requests_answered)
{
	struct ap_profile p;
	uint8_t buf[256];
	struct mgmt_frame f;
	struct ie_set s;
	apt_profile(&p, false);
	apt_monitor(APT_FREQ);
	struct apt_sta *sta = apt_sta_add();
	apt_start(&p);

	apt_tx(sta, buf, probe_req(sta, "", buf, sizeof(buf)));
	struct apt_event *e = wait_probe_resp(sta, 1000);
	ck_assert_msg(e != NULL, "wildcard probe not answered");
	parse_ies(e, &f, &s);
	ck_assert_mem_eq(s.ssid.ssid, APT_SSID, strlen(APT_SSID));
	ck_assert(s.has_wmm);
	ck_assert(!s.has_tim);

	apt_tx(sta, buf, probe_req(sta, "some-other-net", buf, sizeof(buf)));
	ck_assert_ptr_null(wait_probe_resp(sta, 300));
	ap_profile_clear(&p);
}
END_TEST

START_TEST(hidden_ssid)
{
	struct ap_profile p;
	uint8_t buf[256];
	struct mgmt_frame f;
	struct ie_set s;
	apt_profile(&p, true);
	p.hidden = true;
	apt_monitor(APT_FREQ);
	struct apt_sta *sta = apt_sta_add();
	apt_start(&p);

	struct apt_event *e = wait_beacon();
	ck_assert_ptr_nonnull(e);
	parse_ies(e, &f, &s);
	ck_assert(s.has_ssid);
	ck_assert_uint_eq(s.ssid.len, 0);

	apt_tx(sta, buf, probe_req(sta, "", buf, sizeof(buf)));
	ck_assert_msg(wait_probe_resp(sta, 300) == NULL, "hidden BSS answered a wildcard probe");
	apt_tx(sta, buf, probe_req(sta, APT_SSID, buf, sizeof(buf)));
	e = wait_probe_resp(sta, 1000);
	ck_assert_msg(e != NULL, "directed probe not answered");
	parse_ies(e, &f, &s);
	ck_assert_uint_eq(s.ssid.len, strlen(APT_SSID));
	ck_assert_mem_eq(s.ssid.ssid, APT_SSID, s.ssid.len);
	ck_assert(s.has_rsn);
	ap_profile_clear(&p);
}
END_TEST

static bool authorized_n(void *arg)
{
	return APT->authorized >= *(unsigned *)arg;
}

START_TEST(open_association_gets_aids)
{
	struct ap_profile p;
	uint16_t aid = 0;
	struct mgmt_frame f;
	struct ie_set s;
	apt_profile(&p, false);
	struct apt_sta *a = apt_sta_add(), *b = apt_sta_add();
	apt_start(&p);

	ck_assert_int_eq(apt_connect(a, NULL, 0, true, &aid), WLAN_STATUS_SUCCESS);
	ck_assert_uint_eq(aid, 1);
	ck_assert_int_eq(mgmt_parse(a->last_resp, a->last_resp_len, &f), 0);
	ck_assert_int_eq(ie_parse(f.ies, f.ies_len, &s), 0);
	ck_assert_msg(s.has_wmm && s.wmm.subtype == WMM_SUBTYPE_PARAM,
		      "a WMM station gets the WMM Parameter element");
	unsigned one = 1, two = 2;
	ck_assert(apt_wait_for(authorized_n, &one, 1000));
	ck_assert_int_eq(apt_ap_sta_state(a->addr), AP_STA_AUTHORIZED);

	ck_assert_int_eq(apt_connect(b, NULL, 0, false, &aid), WLAN_STATUS_SUCCESS);
	ck_assert_uint_eq(aid, 2);
	ck_assert_int_eq(mgmt_parse(b->last_resp, b->last_resp_len, &f), 0);
	ck_assert_int_eq(ie_parse(f.ies, f.ies_len, &s), 0);
	ck_assert_msg(!s.has_wmm, "no WMM element for a station without WMM");
	ck_assert(apt_wait_for(authorized_n, &two, 1000));
	ck_assert_uint_eq(ap_station_count(APT->ap), 2);
	ck_assert_uint_eq(ap_associated_count(APT->ap), 2);
	ck_assert_uint_eq(APT->added, 2);

	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(APT->ap, b->addr, &info), 0);
	ck_assert_uint_eq(info.aid, 2);
	ck_assert_int_eq(info.state, AP_STA_AUTHORIZED);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(max_stations_gives_17)
{
	struct ap_profile p;
	apt_profile(&p, false);
	p.max_stations = 1;
	struct apt_sta *a = apt_sta_add(), *b = apt_sta_add();
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL),
			 WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA);
	ck_assert_uint_eq(ap_associated_count(APT->ap), 1);
	ck_assert_int_eq(apt_ap_sta_state(b->addr), AP_STA_AUTHENTICATED);
	/* Once the first leaves, the second gets in. */
	ck_assert_int_eq(ap_disconnect_station(APT->ap, a->addr, WLAN_REASON_DEAUTH_LEAVING), 0);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ap_profile_clear(&p);
}
END_TEST

static size_t rsne_with(uint8_t *out, uint32_t group, uint32_t pairwise, uint32_t akm)
{
	struct ie_rsn rsn;
	struct wbuf w = wbuf_init(out, 64);
	ie_rsn_init(&rsn, akm);
	rsn.group_cipher = group;
	rsn.pairwise[0] = pairwise;
	rsn.present = IE_RSN_UPTO_CAPAB;
	ck_assert_int_eq(ie_build_rsn(&w, &rsn), 0);
	return w.len;
}

START_TEST(bad_rsn_element_codes)
{
	struct ap_profile p;
	uint8_t ie[64];
	size_t n;
	apt_profile(&p, true);
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);

	ck_assert_int_eq(apt_connect(s, NULL, 0, true, NULL), WLAN_STATUS_INVALID_IE);
	n = rsne_with(ie, RSN_CIPHER_CCMP_128, RSN_CIPHER_TKIP, RSN_AKM_PSK);
	ck_assert_int_eq(apt_connect(s, ie, n, true, NULL), WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID);
	n = rsne_with(ie, RSN_CIPHER_TKIP, RSN_CIPHER_CCMP_128, RSN_AKM_PSK);
	ck_assert_int_eq(apt_connect(s, ie, n, true, NULL), WLAN_STATUS_GROUP_CIPHER_NOT_VALID);
	n = rsne_with(ie, RSN_CIPHER_CCMP_128, RSN_CIPHER_CCMP_128, RSN_AKM_SAE);
	ck_assert_int_eq(apt_connect(s, ie, n, true, NULL), WLAN_STATUS_AKMP_NOT_VALID);
	ck_assert_uint_eq(ap_associated_count(APT->ap), 0);
	ck_assert_uint_eq(APT->added, 0);
	/* The same station with a good element gets in. */
	n = rsne_with(ie, RSN_CIPHER_CCMP_128, RSN_CIPHER_CCMP_128, RSN_AKM_PSK);
	ck_assert_int_eq(apt_connect(s, ie, n, true, NULL), WLAN_STATUS_SUCCESS);
	ap_profile_clear(&p);
}
END_TEST

static char *write_list(const uint8_t addr[6])
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/wpad-ap-acl-%d", (int)getpid());
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "# test list\n%02x:%02x:%02x:%02x:%02x:%02x\n", addr[0], addr[1], addr[2],
		addr[3], addr[4], addr[5]);
	fclose(f);
	return strdup(path);
}

START_TEST(acl_deny_and_allow)
{
	struct ap_profile p;
	apt_profile(&p, false);
	struct apt_sta *a = apt_sta_add(), *b = apt_sta_add();
	p.mac_deny_file = write_list(a->addr);
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_ASSOC_DENIED_UNSPEC);
	ck_assert_int_eq(apt_ap_sta_state(a->addr), AP_STA_NONE);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(ap_stop(APT->ap), 0);
	apt_run(300);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STOPPED);
	unlink(p.mac_deny_file);
	free(p.mac_deny_file);
	p.mac_deny_file = NULL;

	p.mac_allow_file = write_list(a->addr);
	apt_start(&p);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_ASSOC_DENIED_UNSPEC);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	unlink(p.mac_allow_file);
	ap_profile_clear(&p);
}
END_TEST

/* Frames no MLME would send: the AP's answers come back to the station
 * interface through its registrations. */
START_TEST(hand_played_refusals)
{
	struct ap_profile p;
	uint8_t buf[512], ie[64];
	struct apt_event *e;
	apt_profile(&p, true);
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);

	apt_tx(s, buf, apt_auth_frame(s, WLAN_AUTH_SAE, 1, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG);
	apt_tx(s, buf, apt_auth_frame(s, WLAN_AUTH_SHARED_KEY, 1, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG);
	apt_tx(s, buf, apt_auth_frame(s, WLAN_AUTH_OPEN, 3, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_UNKNOWN_AUTH_TRANSACTION);
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_NONE);

	/* Association without authentication: deauthenticated, reason 9. */
	size_t n = apt_sta_rsne(ie, sizeof(ie));
	apt_tx(s, buf, apt_assoc_frame(s, rates_11b_g, 8, ie, n, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_DEAUTH, s->ifindex, 1000));
	ck_assert_uint_eq(apt_reason(e), WLAN_REASON_STA_REQ_ASSOC_WITHOUT_AUTH);

	/* Authenticated, then an OFDM-only rate set: 18. */
	apt_tx(s, buf, apt_auth_frame(s, WLAN_AUTH_OPEN, 1, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_AUTHENTICATED);
	apt_tx(s, buf, apt_assoc_frame(s, rates_ofdm, 8, ie, n, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_ASSOC_RESP, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_ASSOC_DENIED_RATES);

	/* An unparsable RSN element: 72. */
	static const uint8_t bad_rsne[] = { WLAN_EID_RSN, 4, 0x01, 0x00, 0x00, 0x0f };
	apt_tx(s, buf, apt_assoc_frame(s, rates_11b_g, 8, bad_rsne, sizeof(bad_rsne), buf,
				       sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_ASSOC_RESP, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_INVALID_RSNIE);
	ck_assert_uint_eq(ap_associated_count(APT->ap), 0);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(stop_deauthenticates_and_disconnect_api)
{
	struct ap_profile p;
	struct apt_event *e;
	apt_profile(&p, false);
	struct apt_sta *a = apt_sta_add(), *b = apt_sta_add();
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);

	ck_assert_int_eq(ap_disconnect_station(APT->ap, a->addr, WLAN_REASON_DISASSOC_AP_BUSY), 0);
	ck_assert_ptr_nonnull(e = apt_wait(DRIVER_EV_DEAUTH, a->ifindex, 1000));
	ck_assert_uint_eq(apt_reason(e), WLAN_REASON_DISASSOC_AP_BUSY);
	ck_assert_uint_eq(APT->removed, 1);
	ck_assert_uint_eq(APT->last_reason, WLAN_REASON_DISASSOC_AP_BUSY);
	ck_assert_int_eq(ap_disconnect_station(APT->ap, a->addr, 1), -ENOENT);

	APT->n_states = 0;
	ck_assert_int_eq(ap_stop(APT->ap), 0);
	ck_assert_int_eq(ap_stop(APT->ap), -EALREADY);
	ck_assert_ptr_nonnull(e = apt_wait(DRIVER_EV_DEAUTH, b->ifindex, 1000));
	ck_assert_uint_eq(apt_reason(e), WLAN_REASON_DEAUTH_LEAVING);
	apt_run(250);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STOPPED);
	ck_assert_uint_ge(APT->n_states, 2);
	ck_assert_int_eq(APT->states[0], AP_STATE_STOPPING);
	ck_assert_int_eq(APT->states[APT->n_states - 1], AP_STATE_STOPPED);
	ck_assert_uint_eq(ap_station_count(APT->ap), 0);
	ck_assert_uint_eq(APT->removed, 2);
	/* It starts again. */
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(station_leaves_by_deauth_and_disassoc)
{
	struct ap_profile p;
	apt_profile(&p, false);
	struct apt_sta *a = apt_sta_add();
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	unsigned one = 1;
	ck_assert(apt_wait_for(authorized_n, &one, 1000));
	ck_assert_int_eq(driver_deauthenticate(APT->drv, a->ifindex, APT->ap_addr,
					       WLAN_REASON_DEAUTH_LEAVING), 0);
	apt_run(100);
	ck_assert_int_eq(apt_ap_sta_state(a->addr), AP_STA_NONE);
	ck_assert_uint_eq(APT->removed, 1);
	ck_assert_uint_eq(APT->last_reason, WLAN_REASON_DEAUTH_LEAVING);

	/* Disassociation leaves it authenticated. */
	uint8_t buf[64];
	struct mgmt_frame f;
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	mgmt_init(&f, IEEE80211_STYPE_DISASSOC, APT->ap_addr, a->addr, APT->ap_addr);
	f.u.reason = WLAN_REASON_DISASSOC_STA_HAS_LEFT;
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	apt_tx(a, buf, w.len);
	apt_run(100);
	ck_assert_int_eq(apt_ap_sta_state(a->addr), AP_STA_AUTHENTICATED);
	ck_assert_uint_eq(APT->removed, 2);
	ck_assert_uint_eq(APT->last_reason, WLAN_REASON_DISASSOC_STA_HAS_LEFT);
	ck_assert_uint_eq(ap_associated_count(APT->ap), 0);
	ap_profile_clear(&p);
}
END_TEST

static int start_error(const struct ap_profile *p, struct wpad_error *err)
{
	int r = ap_start(APT->ap, p, err);
	ck_assert_int_lt(r, 0);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STOPPED);
	return r;
}

START_TEST(start_refusals)
{
	struct ap_profile p;
	struct wpad_error err;

	apt_profile(&p, true);
	p.channel = 13; /* no initiating radiation in the world domain */
	start_error(&p, &err);
	ck_assert_int_eq(err.code, WPAD_ERR_REGULATORY_FORBIDDEN);

	apt_profile(&p, true);
	p.band = AP_BAND_5GHZ;
	p.channel = 52; /* radar: the sim does DFS, so a CAC first (test_ap_dfs.c) */
	ck_assert_int_eq(ap_start(APT->ap, &p, &err), 0);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_CAC);
	ck_assert_int_eq(ap_stop(APT->ap), 0);
	apt_run(300);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STOPPED);

	apt_profile(&p, true);
	strcpy(p.passphrase, "short");
	start_error(&p, &err);
	ck_assert_int_eq(err.code, WPAD_ERR_INVALID_FORMAT);

	apt_profile(&p, true);
	p.has_passphrase = false;
	start_error(&p, &err);
	ck_assert_int_eq(err.code, WPAD_ERR_INVALID_ARGUMENTS);

	apt_profile(&p, true);
	p.psk_file = strdup("/nonexistent/wpad-psk-file");
	start_error(&p, &err);
	ck_assert_int_eq(err.code, WPAD_ERR_NOT_FOUND);
	ap_profile_clear(&p);

	apt_profile(&p, true);
	apt_start(&p);
	ck_assert_int_eq(ap_start(APT->ap, &p, &err), -EBUSY);
	ck_assert_int_eq(err.code, WPAD_ERR_BUSY);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(channel_move)
{
	struct ap_profile p;
	struct mgmt_frame f;
	struct ie_set s;
	apt_profile(&p, true);
	apt_start(&p);
	ck_assert_int_eq(ap_set_channel(APT->ap, 2472), -EPERM); /* channel 13, no IR */
	ck_assert_int_eq(ap_set_channel(APT->ap, 2000), -EINVAL);
	ck_assert_int_eq(ap_set_channel(APT->ap, 2412), 0);
	apt_monitor(2412);
	struct apt_event *e = wait_beacon();
	ck_assert_ptr_nonnull(e);
	parse_ies(e, &f, &s);
	ck_assert_uint_eq(s.ds_channel, 1);
	ck_assert_uint_eq(s.ht_op.primary_channel, 1);
	ap_profile_clear(&p);
}
END_TEST

/* AP + station on one radio: the station joins a BSS on channel 11, the
 * radio (and so our AP) goes with it, and ap_set_channel() brings the
 * templates along without restarting. */
START_TEST(channel_follows_station)
{
	struct ap_profile p, q;
	struct mgmt_frame f;
	struct ie_set s;
	apt_profile(&p, false);
	apt_profile(&q, false);
	q.channel = 11;
	apt_start(&p);
	struct apt_sta *ours = apt_sta_add(), *shared = apt_sta_add_on(0);
	ck_assert_int_eq(apt_connect(ours, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	apt_start_second(&q);
	ck_assert_int_eq(apt_connect_bss(shared, APT->ap2_addr, 2462, NULL, 0, true, NULL),
			 WLAN_STATUS_SUCCESS);
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(APT->drv, APT->ap_if, &info), 0);
	ck_assert_uint_eq(info.freq_mhz, 2462);
	ck_assert_int_eq(ap_set_channel(APT->ap, 2462), 0);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STARTED);
	apt_monitor(2462);
	struct apt_event *e = wait_beacon();
	ck_assert_ptr_nonnull(e);
	parse_ies(e, &f, &s);
	ck_assert_uint_eq(s.ds_channel, 11);
	ap_profile_clear(&p);
	ap_profile_clear(&q);
}
END_TEST

START_TEST(regulatory_change)
{
	struct ap_profile p;
	struct mgmt_frame f;
	struct ie_set s;
	apt_profile(&p, true);
	ck_assert_int_eq(driver_set_regulatory(APT->drv, "DE"), 0);
	apt_run(20);
	apt_monitor(APT_FREQ);
	apt_start(&p);
	struct apt_event *e = wait_beacon();
	ck_assert_ptr_nonnull(e);
	parse_ies(e, &f, &s);
	ck_assert(s.has_country);
	ck_assert_mem_eq(s.country.country, "DE", 2);
	ck_assert_int_eq(driver_set_regulatory(APT->drv, "US"), 0);
	apt_run(300);
	for (int i = 0; i < 5; i++) {
		ck_assert_ptr_nonnull(e = wait_beacon());
		parse_ies(e, &f, &s);
		if (memcmp(s.country.country, "US", 2) == 0)
			break;
	}
	ck_assert_mem_eq(s.country.country, "US", 2);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STARTED);
	ck_assert_int_eq(ap_stop(APT->ap), 0);
	apt_run(300);

	/* Channel 13 is fine in Germany, not in the US. */
	ck_assert_int_eq(driver_set_regulatory(APT->drv, "DE"), 0);
	apt_run(20);
	p.channel = 13;
	apt_start(&p);
	ck_assert_int_eq(driver_set_regulatory(APT->drv, "US"), 0);
	apt_run(400);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STOPPED);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(reassociation_keeps_the_station)
{
	struct ap_profile p;
	uint16_t aid = 0;
	apt_profile(&p, false);
	struct apt_sta *a = apt_sta_add();
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, &aid), WLAN_STATUS_SUCCESS);
	struct driver_assoc_params assoc = { .freq_mhz = APT_FREQ, .wmm = true,
					     .prev_bssid = APT->ap_addr };
	memcpy(assoc.bssid, APT->ap_addr, 6);
	assoc.ssid.len = (uint8_t)strlen(APT_SSID);
	memcpy(assoc.ssid.ssid, APT_SSID, assoc.ssid.len);
	ck_assert_int_eq(driver_associate(APT->drv, a->ifindex, &assoc), 0);
	struct apt_event *e = apt_wait(DRIVER_EV_ASSOC, a->ifindex, 2000);
	ck_assert_ptr_nonnull(e);
	struct mgmt_frame f;
	ck_assert_int_eq(mgmt_parse(e->frame, e->len, &f), 0);
	ck_assert_uint_eq(f.subtype, IEEE80211_STYPE_REASSOC_RESP);
	ck_assert_uint_eq(f.u.assoc_resp.status, WLAN_STATUS_SUCCESS);
	ck_assert_uint_eq(f.u.assoc_resp.aid, aid);
	unsigned two = 2;
	ck_assert(apt_wait_for(authorized_n, &two, 1000));
	ck_assert_uint_eq(ap_associated_count(APT->ap), 1);
	ck_assert_int_eq(apt_ap_sta_state(a->addr), AP_STA_AUTHORIZED);
	ap_profile_clear(&p);
}
END_TEST

/* Unicast data from one station to another: forwarded by the AP unless
 * ClientIsolation is set. */
static bool station_to_station(struct apt_sta *from, struct apt_sta *to, uint8_t tag)
{
	uint8_t payload[32];
	memset(payload, tag, sizeof(payload));
	ck_assert_int_eq(driver_tx_data(APT->drv, from->ifindex, to->addr, 0x88b5, payload,
					sizeof(payload), 0),
			 0);
	for (;;) {
		struct apt_event *e = apt_wait(DRIVER_EV_RX_DATA, to->ifindex, 400);
		if (!e)
			return false;
		if (e->len == sizeof(payload) && e->frame[0] == tag)
			return true;
	}
}

START_TEST(client_isolation)
{
	struct ap_profile p;
	apt_profile(&p, false);
	struct apt_sta *a = apt_sta_add(), *b = apt_sta_add();
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	unsigned two = 2;
	ck_assert(apt_wait_for(authorized_n, &two, 1000));
	ck_assert_msg(station_to_station(a, b, 0x81), "not forwarded without isolation");
	ck_assert_int_eq(ap_stop(APT->ap), 0);
	apt_run(300);

	p.client_isolation = true;
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	unsigned four = 4;
	ck_assert(apt_wait_for(authorized_n, &four, 1000));
	ck_assert_msg(!station_to_station(a, b, 0x82), "forwarded despite isolation");
	ap_profile_clear(&p);
}
END_TEST

/* Callbacks act on the AP from inside: a station leaving stops the BSS,
 * and entering STOPPED starts it again. */
START_TEST(callbacks_may_stop_and_restart)
{
	struct ap_profile p;
	apt_profile(&p, false);
	struct apt_sta *a = apt_sta_add(), *b = apt_sta_add();
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	APT->stop_on_removed = true;
	APT->restart_with = &p;
	APT->restart_result = 1;
	ck_assert_int_eq(ap_disconnect_station(APT->ap, a->addr, WLAN_REASON_UNSPECIFIED), 0);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STOPPING);
	ck_assert_uint_eq(ap_station_count(APT->ap), 0);
	apt_run(300);
	ck_assert_int_eq(APT->restart_result, 0);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STARTED);
	APT->stop_on_removed = false;
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ap_profile_clear(&p);
}
END_TEST

static void setup(void)
{
	apt_setup();
}

static void teardown(void)
{
	apt_teardown();
}

Suite *make_ap_mgmt_suite(void)
{
	Suite *s = suite_create("ap_mgmt");
	TCase *tc = tcase_create("sim");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, beacon_on_the_air);
	tcase_add_test(tc, probe_requests_answered);
	tcase_add_test(tc, hidden_ssid);
	tcase_add_test(tc, open_association_gets_aids);
	tcase_add_test(tc, max_stations_gives_17);
	tcase_add_test(tc, bad_rsn_element_codes);
	tcase_add_test(tc, acl_deny_and_allow);
	tcase_add_test(tc, hand_played_refusals);
	tcase_add_test(tc, stop_deauthenticates_and_disconnect_api);
	tcase_add_test(tc, station_leaves_by_deauth_and_disassoc);
	tcase_add_test(tc, start_refusals);
	tcase_add_test(tc, channel_move);
	tcase_add_test(tc, channel_follows_station);
	tcase_add_test(tc, regulatory_change);
	tcase_add_test(tc, reassociation_keeps_the_station);
	tcase_add_test(tc, client_isolation);
	tcase_add_test(tc, callbacks_may_stop_and_restart);
	suite_add_tcase(s, tc);
	return s;
}
