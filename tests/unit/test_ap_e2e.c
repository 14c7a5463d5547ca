/* Both roles of wpad in one process over the simulated medium: the AP
 * role (daemon/ap) on radio 0 and the station role (daemon/station) on
 * radio 1 find each other by scanning and connect, open and WPA2-PSK; a
 * wrong passphrase shows up on both sides; a GTK rekey keeps broadcast
 * data flowing. */
#include "tests/unit/test_ap_fixture.h"

#include "daemon/ap/ap_internal.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
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

static void on_connect_done(void *ctx, const struct wpad_error *err)
{
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

static void setup(void)
{
	apt_setup();
	memset(&E, 0, sizeof(E));
	/* A bare interface: the station role drives it, the fixture records
	 * what it receives. */
	struct apt_sta *s = apt_sta_add();
	E.ifindex = s->ifindex;
	memcpy(E.addr, s->addr, 6);
	static const struct station_callbacks cb = { .connect_done = on_connect_done };
	E.st = station_new(APT->loop, APT->drv, E.ifindex, NULL, &cb);
	ck_assert_ptr_nonnull(E.st);
	APT->hook = route;
}

static void teardown(void)
{
	APT->hook = NULL;
	station_free(E.st);
	E.st = NULL;
	apt_teardown();
}

static bool connect_finished(void *arg)
{
	return E.connect_done > 0;
}

static bool ap_authorized(void *arg)
{
	return APT->authorized > 0;
}

static void connect(const char *passphrase)
{
	ck_assert_int_eq(station_connect(E.st, (const uint8_t *)APT_SSID, strlen(APT_SSID),
					 passphrase, false),
			 0);
	ck_assert_msg(apt_wait_for(connect_finished, NULL, 12000), "connect never finished");
}

/* Sends from the AP; true when the station's interface received it. */
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

START_TEST(open_connect)
{
	struct ap_profile p;
	apt_profile(&p, false);
	apt_start(&p);
	connect(NULL);
	ck_assert_msg(E.connect_ok, "connect failed: %s", E.err.text);
	ck_assert_int_eq(station_state(E.st), STATION_CONNECTED);
	ck_assert(apt_wait_for(ap_authorized, NULL, 1000));
	ck_assert_int_eq(apt_ap_sta_state(E.addr), AP_STA_AUTHORIZED);
	ck_assert(reaches_station(E.addr, 0x51));
	ck_assert(reaches_station(broadcast, 0x52));
	ap_profile_clear(&p);
}
END_TEST

START_TEST(wpa2_connect)
{
	struct ap_profile p;
	apt_profile(&p, true);
	apt_start(&p);
	connect(APT_PASSPHRASE);
	ck_assert_msg(E.connect_ok, "connect failed: %s", E.err.text);
	ck_assert(apt_wait_for(ap_authorized, NULL, 1000));
	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(APT->ap, E.addr, &info), 0);
	ck_assert_int_eq(info.state, AP_STA_AUTHORIZED);
	ck_assert_uint_eq(info.akm, RSN_AKM_PSK);
	ck_assert_uint_eq(info.mic_failures, 0);
	ck_assert(reaches_station(E.addr, 0x61));
	ck_assert(reaches_station(broadcast, 0x62));
	ap_profile_clear(&p);
}
END_TEST

/* PMF required by the AP (ManagementFrameProtection=required, AKMs psk
 * psk-sha256): the station's default policy (optional) joins with PMF and
 * PSK-SHA256, the AP marks it MFP, and data flows. */
START_TEST(pmf_required_connect)
{
	struct ap_profile p;
	apt_profile(&p, true);
	p.pmf = AP_PMF_REQUIRED;
	snprintf(p.akms, sizeof(p.akms), "psk psk-sha256");
	apt_start(&p);
	ck_assert(APT->ap->offer.mfpc && APT->ap->offer.mfpr);
	ck_assert_uint_eq(APT->ap->offer.group_mgmt, RSN_CIPHER_BIP_CMAC_128);
	connect(APT_PASSPHRASE);
	ck_assert_msg(E.connect_ok, "connect failed: %s", E.err.text);
	ck_assert(apt_wait_for(ap_authorized, NULL, 1000));
	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(APT->ap, E.addr, &info), 0);
	ck_assert_uint_eq(info.akm, RSN_AKM_PSK_SHA256);
	struct ap_sta *sta = ap_sta_find(APT->ap, E.addr);
	ck_assert_ptr_nonnull(sta);
	ck_assert(sta->pmf.mfp);
	ck_assert(reaches_station(E.addr, 0x71));
	ck_assert(reaches_station(broadcast, 0x72));
	ap_profile_clear(&p);
}
END_TEST

/* PMF disabled on the AP: no MFPC in its element, the station joins
 * without PMF. */
START_TEST(pmf_disabled_connect)
{
	struct ap_profile p;
	apt_profile(&p, true);
	p.pmf = AP_PMF_DISABLED;
	apt_start(&p);
	ck_assert(!APT->ap->offer.mfpc);
	connect(APT_PASSPHRASE);
	ck_assert_msg(E.connect_ok, "connect failed: %s", E.err.text);
	ck_assert(apt_wait_for(ap_authorized, NULL, 1000));
	struct ap_sta *sta = ap_sta_find(APT->ap, E.addr);
	ck_assert_ptr_nonnull(sta);
	ck_assert(!sta->pmf.mfp);
	ck_assert(reaches_station(E.addr, 0x73));
	ap_profile_clear(&p);
}
END_TEST

static bool ap_removed(void *arg)
{
	return APT->removed > 0;
}

/* TKIP countermeasures (IEEE 802.11-2020 12.5.2.4) as the station runs
 * them: each Michael MIC failure the driver reports is reported to the AP;
 * the second within 60 s deauthenticates with reason 14. */
START_TEST(mic_failures_start_countermeasures)
{
	struct ap_profile p;
	apt_profile(&p, true);
	apt_start(&p);
	connect(APT_PASSPHRASE);
	ck_assert_msg(E.connect_ok, "connect failed: %s", E.err.text);
	ck_assert(apt_wait_for(ap_authorized, NULL, 1000));
	struct driver_event ev = { .type = DRIVER_EV_MIC_FAILURE, .ifindex = E.ifindex };
	ev.u.peer.addr = APT->ap_addr;
	ev.u.peer.group = true;
	station_handle_event(E.st, &ev);
	ck_assert_int_eq(station_state(E.st), STATION_CONNECTED);
	station_handle_event(E.st, &ev);
	ck_assert_int_ne(station_state(E.st), STATION_CONNECTED);
	ck_assert(apt_wait_for(ap_removed, NULL, 2000));
	ck_assert_uint_eq(APT->last_reason, WLAN_REASON_MICHAEL_MIC_FAILURE);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(wrong_passphrase)
{
	struct ap_profile p;
	apt_profile(&p, true);
	apt_start(&p);
	connect("definitely not it");
	ck_assert(!E.connect_ok);
	ck_assert_msg(E.err.code == WPAD_ERR_INVALID_PASSPHRASE, "station reported %s: %s",
		      wpad_error_name(E.err.code), E.err.text);
	ck_assert_uint_ge(APT->mic_failures, 1);
	ck_assert_uint_eq(APT->authorized, 0);
	ap_profile_clear(&p);
}
END_TEST

static bool rekey_done(void *arg)
{
	return !ap_keys_rekeying(APT->ap) && ap_keys_generation(APT->ap) >= 2;
}

START_TEST(gtk_rekey_while_data_flows)
{
	struct ap_profile p;
	apt_profile(&p, true);
	apt_start(&p);
	connect(APT_PASSPHRASE);
	ck_assert_msg(E.connect_ok, "connect failed: %s", E.err.text);
	ck_assert(apt_wait_for(ap_authorized, NULL, 1000));
	ck_assert(reaches_station(broadcast, 0x71));

	ck_assert_int_eq(ap_rekey_gtk(APT->ap), 0);
	/* Right after the rekey started: still the old key, still received. */
	ck_assert(reaches_station(broadcast, 0x72));
	ck_assert(apt_wait_for(rekey_done, NULL, 3000));
	ck_assert_uint_eq(ap_keys_tx_idx(APT->ap), 2);
	ck_assert_msg(reaches_station(broadcast, 0x73), "broadcast lost after the rekey");
	ck_assert(reaches_station(E.addr, 0x74));
	ck_assert_int_eq(station_state(E.st), STATION_CONNECTED);
	ck_assert_int_eq(apt_ap_sta_state(E.addr), AP_STA_AUTHORIZED);
	ap_profile_clear(&p);
}
END_TEST

Suite *make_ap_e2e_suite(void)
{
	Suite *s = suite_create("ap_e2e");
	TCase *tc = tcase_create("sim");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 40);
	tcase_add_test(tc, open_connect);
	tcase_add_test(tc, wpa2_connect);
	tcase_add_test(tc, wrong_passphrase);
	tcase_add_test(tc, pmf_required_connect);
	tcase_add_test(tc, pmf_disabled_connect);
	tcase_add_test(tc, mic_failures_start_countermeasures);
	tcase_add_test(tc, gtk_rekey_while_data_flows);
	suite_add_tcase(s, tc);
	return s;
}
