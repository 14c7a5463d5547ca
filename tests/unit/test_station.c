/* The station role over the simulated radio, against access points played
 * by hand (test_station_air.h): scanning, connecting to an open network,
 * fast connect, and each failure ending in the error a person can act on. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "drivers/sim/medium.h"
#include "tests/unit/test_station_air.h"

static struct air A;

static void setup(void)
{
	air_setup(&A, 3, false);
}

static void teardown(void)
{
	air_teardown(&A);
}

static const struct station_network *find_net(const char *ssid)
{
	const struct station_network *nets[32];
	size_t n = station_networks(A.st, nets, 32);
	for (size_t i = 0; i < n && i < 32; i++)
		if (nets[i]->ssid_len == strlen(ssid) && memcmp(nets[i]->ssid, ssid, strlen(ssid)) == 0)
			return nets[i];
	return NULL;
}

START_TEST(test_scan_finds_ap)
{
	struct air_ap *ap = air_add_ap(&A, 1, "open-net", 2437, false);
	air_add_ap(&A, 2, "psk-net", 5180, true);

	ck_assert_int_eq(station_scan(A.st), 0);
	ck_assert(station_scanning(A.st));
	ck_assert_int_eq(station_scan(A.st), -EINPROGRESS);
	ck_assert(air_run_until(&A, air_scan_done, 10000));
	ck_assert(!station_scanning(A.st));
	/* An on-demand scan is a flag, not a state. */
	ck_assert_uint_eq(air_count_state(&A, STATION_SCANNING), 0);
	/* Both in view (more scans only if a loaded host made one miss). */
	ck_assert(air_scan_for(&A, "open-net", 1, 3) && air_scan_for(&A, "psk-net", 1, 3));

	const struct station_network *n = find_net("open-net");
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(n->security, BSS_SECURITY_OPEN);
	ck_assert_uint_eq(n->n_bss, 1);
	ck_assert_mem_eq(n->bss[0]->bssid, ap->addr, 6);
	ck_assert_uint_eq(n->bss[0]->freq_mhz, 2437);
	ck_assert_int_lt(n->signal_mbm, 0);
	n = find_net("psk-net");
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(n->security, BSS_SECURITY_PSK);
	ck_assert_int_eq(n->support, BSS_OK);
	/* Ranked: psk before open. */
	const struct station_network *nets[4];
	ck_assert_uint_eq(station_networks(A.st, nets, 4), 2);
	ck_assert_int_eq(nets[0]->security, BSS_SECURITY_PSK);
}
END_TEST

START_TEST(test_connect_open)
{
	struct air_ap *ap = air_add_ap(&A, 1, "cafe", 2412, false);
	uint8_t bssid[6], ssid[32];

	ck_assert_int_eq(air_connect(&A, "cafe", NULL, false), 0);
	/* A second request supersedes the first, which ends Aborted. */
	ck_assert_int_eq(station_connect(A.st, (const uint8_t *)"cafe", 4, NULL, false), 0);
	ck_assert_uint_eq(A.n_connect_done, 1);
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_ABORTED);
	A.n_connect_done = 0;
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "connect failed: %s", A.connect_err.text);
	ck_assert_int_eq(station_state(A.st), STATION_CONNECTED);
	ck_assert(station_bssid(A.st, bssid));
	ck_assert_mem_eq(bssid, ap->addr, 6);
	ck_assert_uint_eq(station_frequency(A.st), 2412);
	ck_assert_uint_eq(station_ssid(A.st, ssid), 4);
	ck_assert_ptr_null(station_last_error(A.st));
	ck_assert_uint_eq(air_count_state(&A, STATION_SCANNING), 1);
	ck_assert_uint_eq(air_count_state(&A, STATION_AUTHENTICATING), 1);
	ck_assert_uint_eq(air_count_state(&A, STATION_ASSOCIATING), 1);
	ck_assert_uint_eq(air_count_state(&A, STATION_HANDSHAKING), 0);
	ck_assert_uint_eq(ap->n_auth, 1);
	ck_assert_uint_eq(ap->n_assoc, 1);
	/* Open: no RSN element in our request. */
	struct ie_elem e;
	ck_assert(!ie_find(ap->last_assoc_ies, ap->last_assoc_ies_len, WLAN_EID_RSN, &e));
	ck_assert_int_eq(air_connect(&A, "cafe", NULL, false), -EALREADY);

	/* Disconnect: deauthenticates, reports Aborted, and stays down. */
	ck_assert_int_eq(station_disconnect(A.st), 0);
	ck_assert_uint_eq(A.n_disconnected, 1);
	ck_assert_int_eq(A.disc_err.code, WPAD_ERR_ABORTED);
	air_run_for(&A, 300);
	ck_assert_int_eq(station_state(A.st), STATION_DISCONNECTED);
	ck_assert_uint_eq(ap->n_deauth, 1);
	ck_assert_int_eq(station_disconnect(A.st), -ENOTCONN);
}
END_TEST

START_TEST(test_fast_connect_after_scan)
{
	air_add_ap(&A, 1, "quick", 2462, false);
	ck_assert_int_eq(station_scan(A.st), 0);
	ck_assert(air_run_until(&A, air_scan_done, 10000));
	/* A fresh result: no scan at all, and quick on the simulated air. */
	uint64_t ms = air_warm_connect_ms(&A, "quick", 3);
	ck_assert_msg(ms < WARM_CONNECT_MAX_MS, "warm connect took %llu ms", (unsigned long long)ms);
}
END_TEST

START_TEST(test_assoc_rejected)
{
	struct air_ap *ap = air_add_ap(&A, 1, "full", 2437, false);
	ap->assoc_status = WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA;

	ck_assert_int_eq(air_connect(&A, "full", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(!A.connect_ok);
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_ASSOCIATION_REJECTED);
	ck_assert_int_eq(A.connect_err.ieee_status, 17);
	ck_assert_msg(strstr(A.connect_err.text, "17") != NULL, "%s", A.connect_err.text);
	ck_assert_int_eq(station_state(A.st), STATION_DISCONNECTED);
	ck_assert_int_eq(station_last_error(A.st)->code, WPAD_ERR_ASSOCIATION_REJECTED);
	/* One try: a refusal is not retried against the same AP. */
	air_run_for(&A, 300);
	ck_assert_uint_eq(ap->n_assoc, 1);
	ck_assert_uint_eq(A.n_connect_done, 1);
}
END_TEST

START_TEST(test_auth_rejected)
{
	struct air_ap *ap = air_add_ap(&A, 1, "picky", 2437, false);
	ap->auth_status = WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG;

	ck_assert_int_eq(air_connect(&A, "picky", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_AUTHENTICATION_FAILED);
	ck_assert_int_eq(A.connect_err.ieee_status, WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG);
	ck_assert_uint_eq(ap->n_auth, 1);
	ck_assert_uint_eq(ap->n_assoc, 0);
}
END_TEST

START_TEST(test_auth_timeout)
{
	struct air_ap *ap = air_add_ap(&A, 1, "mute", 2437, false);
	ap->ignore_auth = true;

	ck_assert_int_eq(air_connect(&A, "mute", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_TIMEOUT);
	ck_assert_int_eq(A.connect_err.ieee_status, -1);
	/* Bounded: STATION_AUTH_TRIES requests, each retried a few times by
	 * the driver's MLME, and nothing after the failure. */
	unsigned seen = ap->n_auth;
	ck_assert_uint_ge(seen, STATION_AUTH_TRIES);
	ck_assert_uint_le(seen, STATION_AUTH_TRIES * 4);
	ck_assert_uint_eq(air_count_state(&A, STATION_AUTHENTICATING), 1);
	air_run_for(&A, 1000);
	ck_assert_uint_eq(ap->n_auth, seen);
}
END_TEST

START_TEST(test_assoc_timeout)
{
	struct air_ap *ap = air_add_ap(&A, 1, "deaf", 2437, false);
	ap->ignore_assoc = true;

	ck_assert_int_eq(air_connect(&A, "deaf", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_TIMEOUT);
	ck_assert_msg(strstr(A.connect_err.text, "association") != NULL, "%s",
		      A.connect_err.text);
	ck_assert_uint_eq(ap->n_auth, STATION_ASSOC_TRIES);
}
END_TEST

START_TEST(test_not_found)
{
	ck_assert_int_eq(air_connect(&A, "nowhere", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_NOT_FOUND);
	ck_assert_int_eq(station_state(A.st), STATION_DISCONNECTED);
	ck_assert_uint_eq(air_count_state(&A, STATION_SCANNING), 1);
	ck_assert_msg(strstr(A.connect_err.text, "nowhere") != NULL, "%s", A.connect_err.text);
}
END_TEST

START_TEST(test_passphrase_format)
{
	static const char hex64[] =
		"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
	ck_assert_int_eq(station_passphrase_check("12345678"), 0);
	ck_assert_int_eq(station_passphrase_check(hex64), 0);
	ck_assert_int_eq(station_passphrase_check("1234567"), -EINVAL);
	ck_assert_int_eq(station_passphrase_check(
				 "0123456789012345678901234567890123456789012345678901234567890123x"),
			 -EINVAL);
	ck_assert_int_eq(station_passphrase_check(
				 "g0112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"),
			 -EINVAL);
	ck_assert_int_eq(station_passphrase_check("tab\there!"), -EINVAL);
	ck_assert_int_eq(station_passphrase_check("caf\xc3\xa9 latte"), -EINVAL);
	ck_assert_int_eq(station_passphrase_check(NULL), -EINVAL);

	ck_assert_int_eq(air_connect(&A, "any", "short", false), -EINVAL);
	ck_assert_int_eq(station_last_error(A.st)->code, WPAD_ERR_INVALID_FORMAT);
	ck_assert_int_eq(station_state(A.st), STATION_DISCONNECTED);
	ck_assert_int_eq(station_connect(A.st, (const uint8_t *)"", 0, NULL, false), -EINVAL);
	ck_assert_int_eq(station_last_error(A.st)->code, WPAD_ERR_INVALID_ARGUMENTS);
	air_run_for(&A, 50);
	ck_assert_uint_eq(A.n_connect_done, 0); /* refused at once: no callback */
}
END_TEST

START_TEST(test_psk_rsne_and_handshake_timeout)
{
	/* An AP that associates but never starts the 4-way handshake. */
	struct air_ap *ap = air_add_ap(&A, 1, "silent-psk", 2437, true);
	ck_assert_int_eq(air_connect(&A, "silent-psk", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_TIMEOUT);
	ck_assert_uint_eq(air_count_state(&A, STATION_HANDSHAKING), 1);

	/* Our request carried RSN: PSK, CCMP-128 pairwise and group. */
	struct ie_elem e;
	struct ie_rsn rsn;
	ck_assert(ie_find(ap->last_assoc_ies, ap->last_assoc_ies_len, WLAN_EID_RSN, &e));
	ck_assert_int_eq(ie_parse_rsn(e.data, e.len, &rsn), 0);
	ck_assert_uint_eq(rsn.n_akm, 1);
	ck_assert_uint_eq(rsn.akm[0], RSN_AKM_PSK);
	ck_assert_uint_eq(rsn.n_pairwise, 1);
	ck_assert_uint_eq(rsn.pairwise[0], RSN_CIPHER_CCMP_128);
	ck_assert_uint_eq(rsn.group_cipher, RSN_CIPHER_CCMP_128);
}
END_TEST

START_TEST(test_psk_sha256_only)
{
	struct air_ap_conf c = { .ssid = "sha", .freq = 2437, .psk = true,
				 .akm = RSN_AKM_PSK_SHA256 };
	struct air_ap *ap = air_add_ap_conf(&A, 1, &c);
	ck_assert_int_eq(air_connect(&A, "sha", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	struct ie_elem e;
	struct ie_rsn rsn;
	ck_assert(ie_find(ap->last_assoc_ies, ap->last_assoc_ies_len, WLAN_EID_RSN, &e));
	ck_assert_int_eq(ie_parse_rsn(e.data, e.len, &rsn), 0);
	ck_assert_uint_eq(rsn.akm[0], RSN_AKM_PSK_SHA256);
}
END_TEST

START_TEST(test_wrong_passphrase_by_deauth)
{
	/* The AP sends message 1, gets our message 2 and, as an AP whose MIC
	 * check failed would after its retries, deauthenticates with 15. */
	struct air_ap *ap = air_add_ap(&A, 1, "locked", 2437, true);
	ap->send_msg1 = true;
	ap->deauth_on_msg2 = WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT;

	ck_assert_int_eq(air_connect(&A, "locked", "not the passphrase", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_INVALID_PASSPHRASE);
	ck_assert_int_eq(A.connect_err.ieee_reason, WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT);
	ck_assert_uint_eq(ap->n_eapol, 1);
	ck_assert_int_eq(station_state(A.st), STATION_DISCONNECTED);
}
END_TEST

START_TEST(test_eap_request_fails_not_supported)
{
	/* The network advertises PSK but its AP runs 802.1X: the EAPOL port
	 * reports the EAP-Request and the attempt ends at once with
	 * NotSupported, not with a handshake timeout. */
	struct air_ap *ap = air_add_ap(&A, 1, "corp", 2437, true);
	ap->send_eap_identity = true;
	ck_assert_int_eq(air_connect(&A, "corp", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(!A.connect_ok);
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_NOT_SUPPORTED);
	ck_assert_msg(strstr(A.connect_err.text, "802.1X") != NULL, "%s", A.connect_err.text);
	ck_assert_uint_eq(ap->n_auth, 1);
	ck_assert_uint_eq(ap->n_eapol, 0); /* nothing answered to the EAP-Request */
	ck_assert_int_eq(station_state(A.st), STATION_DISCONNECTED);
}
END_TEST

START_TEST(test_unsupported_security)
{
	struct air_ap_conf tkip = { .ssid = "old", .freq = 2437, .psk = true,
				    .pairwise = RSN_CIPHER_TKIP, .group = RSN_CIPHER_TKIP };
	struct air_ap *ap = air_add_ap_conf(&A, 1, &tkip);
	ck_assert_int_eq(air_connect(&A, "old", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_NOT_SUPPORTED);
	ck_assert_msg(strstr(A.connect_err.text, "TKIP") != NULL, "%s", A.connect_err.text);
	ck_assert_uint_eq(ap->n_auth, 0);

	struct air_ap_conf sae = { .ssid = "wpa3", .freq = 2412, .psk = true,
				   .akm = RSN_AKM_SAE,
				   .rsn_capab = RSN_CAPAB_MFPC | RSN_CAPAB_MFPR };
	/* WPA3-Personal is supported now (sae_e2e): the station tries SAE,
	 * which this scripted AP never answers. */
	air_add_ap_conf(&A, 2, &sae);
	ck_assert_int_eq(air_connect(&A, "wpa3", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 20000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_TIMEOUT);
	ck_assert_msg(strstr(A.connect_err.text, "SAE") != NULL, "%s", A.connect_err.text);
}
END_TEST

/* When the SAE frames the hand-played AP below heard reached it. */
static struct {
	uint32_t ap_if;
	uint64_t at_us[8];
	size_t n;
} sae_heard;

static void note_sae(void *ctx, const struct driver_event *ev)
{
	(void)ctx;
	if (ev->type == DRIVER_EV_RX_MGMT && ev->ifindex == sae_heard.ap_if &&
	    ev->u.mgmt.len > IEEE80211_MGMT_HDR_LEN + 2 &&
	    (ev->u.mgmt.frame[0] & 0xfc) ==
		    IEEE80211_FC(IEEE80211_FTYPE_MGMT, IEEE80211_STYPE_AUTH) &&
	    ev->u.mgmt.frame[IEEE80211_MGMT_HDR_LEN] == WLAN_AUTH_SAE && sae_heard.n < 8)
		sae_heard.at_us[sae_heard.n++] = loop_now_us(A.loop);
}

static bool two_sae_heard(struct air *a)
{
	(void)a;
	return sae_heard.n >= 2;
}

/* SAE's retransmission period (12.4.8.5) runs from the commit's
 * acknowledgement, which the sim reports: a commit that waits 1.5 s for
 * the air (a fault holds it, as a channel busy with 100 stations would)
 * is not copied meanwhile, and the copy comes one period (1 s) after the
 * AP had the first. Timed from the send, the copy was queued at 1 s and
 * went out right behind the first. */
START_TEST(test_sae_period_runs_from_the_ack)
{
	struct air_ap_conf conf = { .ssid = "wpa3", .freq = 2412, .psk = true,
				    .akm = RSN_AKM_SAE,
				    .rsn_capab = RSN_CAPAB_MFPC | RSN_CAPAB_MFPR };
	struct air_ap *ap = air_add_ap_conf(&A, 1, &conf);
	ap->ignore_auth = true;
	struct medium_fault_spec hold = {
		.frame_type = IEEE80211_FC(IEEE80211_FTYPE_MGMT, IEEE80211_STYPE_AUTH),
		.source = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		.nth = 1,
		.action = MEDIUM_FAULT_DELAY,
		.param = 1500,
	};
	ck_assert_int_eq(medium_add_fault(A.medium, &hold), 0);
	memset(&sae_heard, 0, sizeof(sae_heard));
	sae_heard.ap_if = ap->ifindex;
	A.hook = note_sae;
	ck_assert_int_eq(air_connect(&A, "wpa3", "correct horse", false), 0);
	ck_assert(air_run_until(&A, two_sae_heard, 10000));
	A.hook = NULL;
	uint64_t gap = sae_heard.at_us[1] - sae_heard.at_us[0];
	ck_assert_msg(gap >= 950000 && gap <= 1500000, "second commit %llu us after the first",
		      (unsigned long long)gap);
}
END_TEST

START_TEST(test_psk_without_passphrase)
{
	air_add_ap(&A, 1, "needs-key", 2437, true);
	ck_assert_int_eq(air_connect(&A, "needs-key", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_NO_AGENT);
}
END_TEST

START_TEST(test_second_bss_after_rejection)
{
	/* Two APs of one network: the stronger refuses, the other takes us. */
	struct air_ap *a1 = air_add_ap(&A, 1, "twin", 2412, false);
	struct air_ap *a2 = air_add_ap(&A, 2, "twin", 2462, false);
	ck_assert_int_eq(medium_set_link(A.medium, A.sta_addr, a1->addr, -3000, 0), 0);
	ck_assert_int_eq(medium_set_link(A.medium, A.sta_addr, a2->addr, -6000, 0), 0);
	a1->assoc_status = WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA;
	ck_assert(air_scan_for(&A, "twin", 2, 3));

	ck_assert_int_eq(air_connect(&A, "twin", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	uint8_t bssid[6];
	ck_assert(station_bssid(A.st, bssid));
	ck_assert_mem_eq(bssid, a2->addr, 6);
	ck_assert_uint_eq(a1->n_assoc, 1);
	ck_assert_uint_eq(a2->n_assoc, 1);
}
END_TEST

START_TEST(test_deauth_while_connected)
{
	struct air_ap *ap = air_add_ap(&A, 1, "kicker", 2437, false);
	ck_assert_int_eq(air_connect(&A, "kicker", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(A.connect_ok);

	/* The AP kicks us out. */
	uint8_t buf[64];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct mgmt_frame f;
	mgmt_init(&f, IEEE80211_STYPE_DEAUTH, A.sta_addr, ap->addr, ap->addr);
	f.u.reason = WLAN_REASON_DISASSOC_AP_BUSY;
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	uint64_t cookie;
	ck_assert_int_eq(driver_tx_mgmt(A.drv, ap->ifindex, 0, buf, w.len, false, &cookie), 0);
	ck_assert(air_run_until(&A, air_disconnected, 5000));
	ck_assert_int_eq(A.disc_err.ieee_reason, WLAN_REASON_DISASSOC_AP_BUSY);
	ck_assert_int_eq(station_state(A.st), STATION_DISCONNECTED);
	ck_assert_int_eq(station_last_error(A.st)->ieee_reason, WLAN_REASON_DISASSOC_AP_BUSY);
}
END_TEST

START_TEST(test_protected_deauth_reason)
{
	/* A protected (PMF) deauthentication as nl80211 delivers it: decrypted
	 * by mac80211, CCMP header and MIC gone, the Protected bit still set.
	 * Its reason is the AP's, not "unknown". */
	struct air_ap *ap = air_add_ap(&A, 1, "guarded", 2437, false);
	ck_assert_int_eq(air_connect(&A, "guarded", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(A.connect_ok);
	uint8_t frame[26] = { 0xc0, 0x40 }; /* Deauthentication, Protected */
	memcpy(frame + 4, A.sta_addr, 6);
	memcpy(frame + 10, ap->addr, 6);
	memcpy(frame + 16, ap->addr, 6);
	frame[24] = WLAN_REASON_CLASS3_FRAME_FROM_NONASSOC_STA;
	struct driver_event ev = { .type = DRIVER_EV_DEAUTH, .ifindex = A.sta_if,
				   .u.mgmt = { .frame = frame, .len = sizeof(frame) } };
	station_handle_event(A.st, &ev);
	ck_assert(air_run_until(&A, air_disconnected, 1000));
	ck_assert_int_eq(A.disc_err.ieee_reason, WLAN_REASON_CLASS3_FRAME_FROM_NONASSOC_STA);
	ck_assert_int_eq(station_last_error(A.st)->ieee_reason,
			 WLAN_REASON_CLASS3_FRAME_FROM_NONASSOC_STA);
}
END_TEST

START_TEST(test_hidden_network)
{
	/* Its beacons carry an empty SSID; a later beacon must not hide the
	 * name a probe response gave. */
	struct air_ap_conf c = { .ssid = "stealth", .freq = 2437, .hidden = true };
	struct air_ap *ap = air_add_ap_conf(&A, 1, &c);

	/* A wildcard scan does not reveal it. */
	ck_assert_int_eq(station_scan(A.st), 0);
	ck_assert(air_run_until(&A, air_scan_done, 10000));
	ck_assert_ptr_null(find_net("stealth"));

	/* Told it is hidden: a directed probe finds it and we join. */
	ck_assert_int_eq(air_connect(&A, "stealth", NULL, true), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	uint8_t bssid[6];
	ck_assert(station_bssid(A.st, bssid));
	ck_assert_mem_eq(bssid, ap->addr, 6);
	ck_assert_ptr_nonnull(find_net("stealth")); /* named by the probe response */
}
END_TEST

START_TEST(test_hidden_network_hint)
{
	/* Long enough on each channel to hear a beacon (two, in case a
	 * loaded host delays one). */
	air_teardown(&A);
	air_setup_opts(&A, 3, false, "country=US,active_dwell=250");
	struct air_ap_conf c = { .ssid = "stealth", .freq = 2437, .hidden = true };
	air_add_ap_conf(&A, 1, &c);

	/* Not told it is hidden: not found, with a hint a person can use. */
	ck_assert_int_eq(air_connect(&A, "stealth", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_NOT_FOUND);
	ck_assert_msg(strstr(A.connect_err.text, "hidden") != NULL, "%s", A.connect_err.text);
}
END_TEST

Suite *make_station_suite(void)
{
	Suite *s = suite_create("station");
	TCase *tc = tcase_create("sim");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_scan_finds_ap);
	tcase_add_test(tc, test_connect_open);
	tcase_add_test(tc, test_fast_connect_after_scan);
	tcase_add_test(tc, test_assoc_rejected);
	tcase_add_test(tc, test_auth_rejected);
	tcase_add_test(tc, test_auth_timeout);
	tcase_add_test(tc, test_assoc_timeout);
	tcase_add_test(tc, test_not_found);
	tcase_add_test(tc, test_passphrase_format);
	tcase_add_test(tc, test_psk_rsne_and_handshake_timeout);
	tcase_add_test(tc, test_psk_sha256_only);
	tcase_add_test(tc, test_wrong_passphrase_by_deauth);
	tcase_add_test(tc, test_unsupported_security);
	tcase_add_test(tc, test_eap_request_fails_not_supported);
	tcase_add_test(tc, test_psk_without_passphrase);
	tcase_add_test(tc, test_second_bss_after_rejection);
	tcase_add_test(tc, test_deauth_while_connected);
	tcase_add_test(tc, test_protected_deauth_reason);
	tcase_add_test(tc, test_hidden_network);
	tcase_add_test(tc, test_hidden_network_hint);
	tcase_add_test(tc, test_sae_period_runs_from_the_ack);
	suite_add_tcase(s, tc);
	return s;
}
