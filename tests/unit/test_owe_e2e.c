/* OWE end to end on the simulated radio, on the virtual clock: wpad's AP
 * role (radio 0, an open profile with AKMs=owe) and wpad's station role
 * (radio 1, connecting with no credential) in one process. Both run the
 * DH exchange in their association frames, the 4-way handshake from its
 * PMK with PMF, and pass data; an AP taking only group 20 makes the
 * station retry after status 77. A monitor on radio 2 sees the air. */
#include "tests/unit/test_ap_fixture.h"

#include "daemon/ap/ap_internal.h"
#include "daemon/codec/codec_err.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie_owe.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/rsn/pmksa.h"
#include "daemon/station/station.h"
#include "daemon/station/station_i.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define ETHERTYPE_TEST 0x88b5

static const uint8_t broadcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

struct e2e {
	struct station *st;
	uint32_t ifindex;
	uint8_t addr[6];
	unsigned connect_done;
	bool connect_ok;
	struct wpad_error err;
};

static struct e2e E;
static struct ap_profile P, P2;

static void on_connect_done(void *ctx, const struct wpad_error *err)
{
	(void)ctx;
	E.connect_done++;
	E.connect_ok = err == NULL;
	if (err)
		E.err = *err;
}

static void route(const struct driver_event *ev)
{
	if (E.st && ev->ifindex == E.ifindex)
		station_handle_event(E.st, ev);
}

static const struct station_callbacks station_cb = { .connect_done = on_connect_done };

static void setup(void)
{
	apt_setup();
	memset(&E, 0, sizeof(E));
	struct apt_sta *s = apt_sta_add();
	E.ifindex = s->ifindex;
	memcpy(E.addr, s->addr, 6);
	E.st = station_new(APT->loop, APT->drv, E.ifindex, NULL, &station_cb);
	ck_assert_ptr_nonnull(E.st);
	APT->hook = route;
	apt_monitor(APT_FREQ);
}

static void teardown(void)
{
	APT->hook = NULL;
	station_free(E.st);
	E.st = NULL;
	ap_profile_clear(&P);
	ap_profile_clear(&P2);
	apt_teardown();
}

static bool connect_finished(void *arg)
{
	(void)arg;
	return E.connect_done > 0;
}

static bool ap_authorized(void *arg)
{
	(void)arg;
	return APT->authorized >= 1;
}

static void start_owe_ap(void)
{
	apt_profile(&P, false);
	snprintf(P.akms, sizeof(P.akms), "owe");
	apt_start(&P);
	ck_assert(APT->ap->conf.owe);
}

static void connect_station(const char *ssid)
{
	E.connect_done = 0;
	ck_assert_int_eq(station_connect(E.st, (const uint8_t *)ssid, strlen(ssid), NULL, false), 0);
	ck_assert_msg(apt_wait_for(connect_finished, NULL, 12000), "connect never finished");
	ck_assert_msg(E.connect_ok, "connect failed: %s", E.err.text);
	ck_assert(apt_wait_for(ap_authorized, NULL, 1000));
}

static bool reaches_station(const uint8_t *dst, uint8_t tag)
{
	uint8_t payload[48];
	memset(payload, tag, sizeof(payload));
	ck_assert_int_eq(driver_tx_data(APT->drv, APT->ap_if, dst, ETHERTYPE_TEST, payload,
					sizeof(payload), 0),
			 0);
	for (;;) {
		struct apt_event *e = apt_wait(DRIVER_EV_RX_DATA, E.ifindex, 500);
		if (!e)
			return false;
		if (e->ethertype == ETHERTYPE_TEST && e->len == sizeof(payload) &&
		    e->frame[0] == tag)
			return true;
	}
}

/* The OWE DH elements the monitor saw in (Re)Association frames of
 * subtype, from event index from; *group gets the last one's group. */
static size_t dh_on_air(uint8_t subtype, size_t from, uint16_t *group, uint16_t *status)
{
	size_t n = 0;
	for (size_t i = from; i < APT->n_ev; i++) {
		struct apt_event *e = &APT->ev[i];
		struct mgmt_frame f;
		struct ie_owe_dh dh;
		if (e->ifindex != APT->mon_if || e->type != DRIVER_EV_RX_MGMT ||
		    mgmt_parse(e->frame, e->len, &f) < 0 || f.subtype != subtype)
			continue;
		if (subtype == IEEE80211_STYPE_ASSOC_RESP && status)
			*status = f.u.assoc_resp.status;
		if (ie_find_owe_dh(f.ies, f.ies_len, &dh) != CODEC_OK)
			continue;
		n++;
		if (group)
			*group = dh.group;
	}
	return n;
}

static void assert_owe_link(uint32_t want_akm)
{
	ck_assert_int_eq(station_state(E.st), STATION_CONNECTED);
	ck_assert_str_eq(bss_security_name(E.st->security), "owe");
	ck_assert(E.st->keys_installed & KEY_BIT_PTK);
	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(APT->ap, E.addr, &info), 0);
	ck_assert_int_eq(info.state, AP_STA_AUTHORIZED);
	ck_assert_uint_eq(info.akm, want_akm);
	struct ap_sta *sta = ap_sta_find(APT->ap, E.addr);
	ck_assert_ptr_nonnull(sta);
	ck_assert(sta->pmf.mfp); /* OWE: PMF required */
	ck_assert(reaches_station(E.addr, 0x81));
	ck_assert(reaches_station(broadcast, 0x82));
}

/* Both roles: group 19, DH elements both ways on the air, keys, data. */
START_TEST(owe_both_roles)
{
	start_owe_ap();
	connect_station(APT_SSID);
	assert_owe_link(RSN_AKM_OWE);
	uint16_t g_req = 0, g_resp = 0;
	ck_assert_uint_eq(dh_on_air(IEEE80211_STYPE_ASSOC_REQ, 0, &g_req, NULL), 1);
	ck_assert_uint_eq(dh_on_air(IEEE80211_STYPE_ASSOC_RESP, 0, &g_resp, NULL), 1);
	ck_assert_uint_eq(g_req, 19);
	ck_assert_uint_eq(g_resp, 19);
	/* The two PMKs agree (the 4-way handshake's MICs proved it); the
	 * station cached the PMKSA for next time. */
	ck_assert_uint_eq(pmksa_cache_count(E.st->pmksa), 1);
}
END_TEST

/* The AP takes group 20 only (then 21 only): the station's requests for
 * the groups before are refused with 77 on the air, it starts over with
 * the next, and the 4-way handshake runs OWE's SHA-384 (SHA-512) key
 * hierarchy. */
START_TEST(owe_unsupported_group_retry)
{
	const uint16_t group = (uint16_t)(20 + _i);
	const size_t refusals = 1 + (size_t)_i;
	start_owe_ap();
	APT->ap->conf.owe_groups = 1u << group;
	connect_station(APT_SSID);
	assert_owe_link(RSN_AKM_OWE);
	uint16_t g_req = 0, g_resp = 0, status = 0xffff;
	ck_assert_uint_eq(dh_on_air(IEEE80211_STYPE_ASSOC_REQ, 0, &g_req, NULL), refusals + 1);
	ck_assert_uint_eq(g_req, group);
	ck_assert_uint_eq(dh_on_air(IEEE80211_STYPE_ASSOC_RESP, 0, &g_resp, &status), 1);
	ck_assert_uint_eq(g_resp, group);
	ck_assert_uint_eq(status, 0);
	size_t refused = 0;
	for (size_t i = 0; i < APT->n_ev; i++) {
		struct apt_event *e = &APT->ev[i];
		struct mgmt_frame f;
		if (e->ifindex == APT->mon_if && e->type == DRIVER_EV_RX_MGMT &&
		    mgmt_parse(e->frame, e->len, &f) == 0 &&
		    f.subtype == IEEE80211_STYPE_ASSOC_RESP &&
		    f.u.assoc_resp.status == WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED)
			refused++;
	}
	ck_assert_uint_eq(refused, refusals);
}
END_TEST

/* An AP that takes no group the station has: after 19, 20 and 21 the
 * connect ends AssociationRejected with status 77, not a timeout. */
START_TEST(owe_no_common_group)
{
	start_owe_ap();
	APT->ap->conf.owe_groups = 1u << 30;
	E.connect_done = 0;
	ck_assert_int_eq(station_connect(E.st, (const uint8_t *)APT_SSID, strlen(APT_SSID), NULL,
					 false),
			 0);
	ck_assert(apt_wait_for(connect_finished, NULL, 12000));
	ck_assert(!E.connect_ok);
	ck_assert_int_eq(E.err.code, WPAD_ERR_ASSOCIATION_REJECTED);
	ck_assert_int_eq(E.err.ieee_status, WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED);
}
END_TEST

/* OWE transition mode: the open BSS (radio 0, "wpad-test") names its
 * hidden OWE twin (radio 2, "wpad-owe-hidden") in an OWE Transition Mode
 * element, and the twin names it back. The station asked to join the open
 * network probes for the twin by name and ends on it, encrypted. */
#define OWE_HIDDEN "wpad-owe-hidden"

START_TEST(owe_transition_station_joins_owe_side)
{
	/* The twin first: the open BSS needs its BSSID. */
	apt_profile(&P2, false);
	P2.ssid_len = strlen(OWE_HIDDEN);
	memcpy(P2.ssid, OWE_HIDDEN, P2.ssid_len);
	P2.hidden = true;
	snprintf(P2.akms, sizeof(P2.akms), "owe");
	memcpy(P2.owe_trans_bssid, APT->ap_addr, 6);
	memcpy(P2.owe_trans_ssid, APT_SSID, strlen(APT_SSID));
	P2.owe_trans_ssid_len = strlen(APT_SSID);
	apt_start_second(&P2);
	apt_profile(&P, false);
	memcpy(P.owe_trans_bssid, APT->ap2_addr, 6);
	memcpy(P.owe_trans_ssid, OWE_HIDDEN, strlen(OWE_HIDDEN));
	P.owe_trans_ssid_len = strlen(OWE_HIDDEN);
	apt_start(&P);

	E.connect_done = 0;
	ck_assert_int_eq(station_connect(E.st, (const uint8_t *)APT_SSID, strlen(APT_SSID), NULL,
					 false),
			 0);
	ck_assert_msg(apt_wait_for(connect_finished, NULL, 12000), "connect never finished");
	ck_assert_msg(E.connect_ok, "connect failed: %s", E.err.text);
	ck_assert_int_eq(station_state(E.st), STATION_CONNECTED);
	ck_assert_mem_eq(E.st->bssid, APT->ap2_addr, 6);
	ck_assert_str_eq(bss_security_name(E.st->security), "owe");
	ck_assert(E.st->keys_installed & KEY_BIT_PTK);
	apt_run(200); /* message 4 on its way to the twin */
	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(APT->ap2, E.addr, &info), 0);
	ck_assert_int_eq(info.state, AP_STA_AUTHORIZED);
	ck_assert_uint_eq(info.akm, RSN_AKM_OWE);
	ck_assert_int_ne(ap_get_station(APT->ap, E.addr, &info), 0); /* never on the open one */
	/* Data from the OWE side reaches the station. */
	uint8_t payload[48];
	memset(payload, 0x77, sizeof(payload));
	ck_assert_int_eq(driver_tx_data(APT->drv, APT->ap2_if, E.addr, ETHERTYPE_TEST, payload,
					sizeof(payload), 0),
			 0);
	bool got = false;
	for (struct apt_event *e; !got && (e = apt_wait(DRIVER_EV_RX_DATA, E.ifindex, 500));)
		got = e->ethertype == ETHERTYPE_TEST && e->len == sizeof(payload) &&
		      e->frame[0] == 0x77;
	ck_assert(got);
}
END_TEST

/* The profile: the keys parse (and refuse malformed values), and the AP
 * refuses AKMs=owe with a passphrase profile, next to psk, or with PMF
 * disabled, and a transition SSID without its BSSID. */
START_TEST(owe_profile_refusals)
{
	struct cfg_error ce = { 0 };
	struct wpad_error err;
	ap_profile_init(&P);
	ck_assert_int_eq(ap_profile_set(&P, "OWETransitionBSSID", "02:11:22:33:44:55", NULL, &ce), 0);
	ck_assert_uint_eq(P.owe_trans_bssid[5], 0x55);
	ck_assert_int_eq(ap_profile_set(&P, "OWETransitionBSSID", "02:11:22", NULL, &ce),
			 AP_E_OWE_TRANSITION);
	ck_assert_int_eq(ap_profile_set(&P, "OWETransitionSSID", "owe-side", NULL, &ce), 0);
	ck_assert_uint_eq(P.owe_trans_ssid_len, 8);
	ck_assert_int_eq(ap_profile_set(&P, "OWETransitionSSID",
					"0123456789abcdef0123456789abcdefX", NULL, &ce),
			 AP_E_OWE_TRANSITION);
	ap_profile_clear(&P);

	apt_profile(&P, true); /* wpa2-psk */
	snprintf(P.akms, sizeof(P.akms), "owe");
	ck_assert_int_eq(ap_start(APT->ap, &P, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "open profile"));
	apt_profile(&P, false);
	snprintf(P.akms, sizeof(P.akms), "owe psk");
	ck_assert_int_eq(ap_start(APT->ap, &P, &err), -EINVAL);
	snprintf(P.akms, sizeof(P.akms), "owe");
	P.pmf = AP_PMF_DISABLED;
	ck_assert_int_eq(ap_start(APT->ap, &P, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "management frame protection"));
	P.pmf = AP_PMF_OPTIONAL;
	P.owe_trans_ssid_len = 3;
	memcpy(P.owe_trans_ssid, "abc", 3);
	ck_assert_int_eq(ap_start(APT->ap, &P, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.text, "OWETransitionBSSID"));
}
END_TEST

/* A reconnect offers the PMKSA the first connect cached (its PMKID in the
 * RSNE); wpad's AP declines it and runs a fresh DH exchange (allowed by
 * 802.11-2020 12.14.3), so both sides key the 4-way handshake from the new
 * PMK and the PMKID of message 1 is the new one: the link comes up. */
START_TEST(owe_reconnect_with_cached_pmksa)
{
	start_owe_ap();
	connect_station(APT_SSID);
	ck_assert_uint_eq(pmksa_cache_count(E.st->pmksa), 1);
	ck_assert_int_eq(station_disconnect(E.st), 0);
	apt_run(500);
	size_t mark = APT->n_ev;
	APT->authorized = 0;
	connect_station(APT_SSID);
	assert_owe_link(RSN_AKM_OWE);
	/* The second request named the PMKSA and still carried a DH
	 * element, which the AP answered. */
	size_t offered = 0;
	for (size_t i = mark; i < APT->n_ev; i++) {
		struct apt_event *e = &APT->ev[i];
		struct mgmt_frame f;
		struct ie_set ies;
		if (e->ifindex == APT->mon_if && e->type == DRIVER_EV_RX_MGMT &&
		    mgmt_parse(e->frame, e->len, &f) == 0 &&
		    f.subtype == IEEE80211_STYPE_ASSOC_REQ &&
		    ie_parse(f.ies, f.ies_len, &ies) == CODEC_OK && ies.has_rsn)
			offered += ies.rsn.n_pmkid;
	}
	ck_assert_uint_eq(offered, 1);
	ck_assert_uint_eq(dh_on_air(IEEE80211_STYPE_ASSOC_RESP, mark, NULL, NULL), 1);
	ck_assert_uint_eq(pmksa_cache_count(E.st->pmksa), 1); /* replaced, not added */
}
END_TEST

Suite *make_owe_e2e_suite(void)
{
	Suite *s = suite_create("owe_e2e");
	TCase *tc = tcase_create("owe");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, owe_both_roles);
	tcase_add_loop_test(tc, owe_unsupported_group_retry, 0, 2);
	tcase_add_test(tc, owe_no_common_group);
	tcase_add_test(tc, owe_transition_station_joins_owe_side);
	tcase_add_test(tc, owe_profile_refusals);
	tcase_add_test(tc, owe_reconnect_with_cached_pmksa);
	suite_add_tcase(s, tc);
	return s;
}
