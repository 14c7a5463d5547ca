/* The AP role's key handling over the simulated radio, with the RSN
 * supplicant of daemon/rsn playing the station's side: the 4-way
 * handshake and data through the installed keys, handshake timeout
 * (reason 15), a wrong passphrase (MIC failures counted), per-station
 * PSKs, GTK rekey on demand and on a station leaving while broadcast data
 * keeps arriving, inactivity (reason 4). */
#include "tests/unit/test_ap_fixture.h"

#include "daemon/ap/ap_internal.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/supplicant.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ETHERTYPE_TEST 0x88b5 /* IEEE local experimental */

static const uint8_t broadcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static bool supp_done(void *arg)
{
	return ((struct apt_sta *)arg)->supp_done;
}

static bool authorized_n(void *arg)
{
	return APT->authorized >= *(unsigned *)arg;
}

/* WPA2 station with a supplicant; returns once both ends are done. */
static void join(struct apt_sta *s, const char *passphrase)
{
	uint8_t ie[64];
	size_t n = apt_sta_rsne(ie, sizeof(ie));
	apt_supp_start(s, passphrase);
	ck_assert_int_eq(apt_connect(s, ie, n, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_msg(apt_wait_for(supp_done, s, 2000), "4-way handshake did not complete");
}

/* Sends a tagged frame from the AP to dst; true if s received it. */
static bool data_reaches(struct apt_sta *s, const uint8_t dst[6], uint8_t tag)
{
	uint8_t payload[32];
	memset(payload, tag, sizeof(payload));
	ck_assert_int_eq(driver_tx_data(APT->drv, APT->ap_if, dst, ETHERTYPE_TEST, payload,
					sizeof(payload), 0),
			 0);
	for (;;) {
		struct apt_event *e = apt_wait(DRIVER_EV_RX_DATA, s->ifindex, 500);
		if (!e)
			return false;
		if (e->ethertype == ETHERTYPE_TEST && e->len == sizeof(payload) &&
		    e->frame[0] == tag)
			return true;
	}
}

START_TEST(wpa2_handshake_and_data)
{
	struct ap_profile p;
	apt_profile(&p, true);
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);
	join(s, APT_PASSPHRASE);
	unsigned one = 1;
	ck_assert(apt_wait_for(authorized_n, &one, 1000));
	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(APT->ap, s->addr, &info), 0);
	ck_assert_int_eq(info.state, AP_STA_AUTHORIZED);
	ck_assert_uint_eq(info.akm, RSN_AKM_PSK);
	ck_assert_uint_eq(info.pairwise_cipher, RSN_CIPHER_CCMP_128);
	ck_assert_uint_eq(info.mic_failures, 0);
	ck_assert_uint_eq(s->gtk_installs, 1);
	ck_assert_uint_eq(s->last_gtk_idx, 1);
	ck_assert_msg(data_reaches(s, s->addr, 0x11), "unicast (PTK) data lost");
	ck_assert_msg(data_reaches(s, broadcast, 0x12), "broadcast (GTK) data lost");
	ap_profile_clear(&p);
}
END_TEST

static bool removed_n(void *arg)
{
	return APT->removed >= *(unsigned *)arg;
}

START_TEST(handshake_timeout_deauths_15)
{
	struct ap_profile p;
	uint8_t ie[64];
	apt_profile(&p, true);
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);
	size_t n = apt_sta_rsne(ie, sizeof(ie));
	/* No supplicant: message 1 is never answered. */
	ck_assert_int_eq(apt_connect(s, ie, n, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_ASSOCIATED);
	struct apt_event *e = apt_wait(DRIVER_EV_DEAUTH, s->ifindex, 3000);
	ck_assert_msg(e != NULL, "no deauthentication after the handshake timed out");
	ck_assert_uint_eq(apt_reason(e), WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT);
	unsigned one = 1;
	ck_assert(apt_wait_for(removed_n, &one, 500));
	ck_assert_uint_eq(APT->last_reason, WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT);
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_NONE);
	ck_assert_uint_eq(ap_station_count(APT->ap), 0);
	ck_assert_uint_eq(APT->authorized, 0);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(wrong_passphrase_counts_mic_failures)
{
	struct ap_profile p;
	uint8_t ie[64];
	apt_profile(&p, true);
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);
	apt_supp_start(s, "not the passphrase");
	size_t n = apt_sta_rsne(ie, sizeof(ie));
	ck_assert_int_eq(apt_connect(s, ie, n, true, NULL), WLAN_STATUS_SUCCESS);
	struct apt_event *e = apt_wait(DRIVER_EV_DEAUTH, s->ifindex, 3000);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(apt_reason(e), WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT);
	ck_assert_uint_ge(APT->mic_failures, 1);
	ck_assert_uint_ge(APT->last_mic_count, 1);
	ck_assert(!s->supp_done);
	ck_assert_uint_eq(APT->authorized, 0);
	ap_profile_clear(&p);
}
END_TEST

/* 12.7.6.3: message 2 repeats the RSNXE of the association request, or its
 * absence, octet for octet. The AP keeps the request's RSNXE for that
 * check: the same element completes the handshake; one missing, added or
 * with other bits ends it with reason 17. */
START_TEST(msg2_rsnxe_against_the_association_request)
{
	static const uint8_t h2e[] = { WLAN_EID_RSNX, 0x01, 0x20 };
	static const uint8_t h2e_pk[] = { WLAN_EID_RSNX, 0x01, 0x60 };
	static const struct {
		const uint8_t *in_assoc, *in_msg2;
		bool completes;
	} cases[] = {
		{ h2e, h2e, true },
		{ h2e, NULL, false },
		{ NULL, h2e, false },
		{ h2e, h2e_pk, false },
	};
	struct ap_profile p;
	uint8_t ie[64];
	apt_profile(&p, true);
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);
	size_t n = apt_sta_rsne(ie, sizeof(ie));
	if (cases[_i].in_assoc) {
		memcpy(ie + n, cases[_i].in_assoc, 3);
		n += 3;
	}
	if (cases[_i].in_msg2) {
		memcpy(s->msg2_rsnxe, cases[_i].in_msg2, 3);
		s->msg2_rsnxe_len = 3;
	}
	apt_supp_start(s, APT_PASSPHRASE);
	ck_assert_int_eq(apt_connect(s, ie, n, true, NULL), WLAN_STATUS_SUCCESS);
	unsigned one = 1;
	if (cases[_i].completes) {
		ck_assert_msg(apt_wait_for(supp_done, s, 2000), "4-way handshake did not complete");
		ck_assert(apt_wait_for(authorized_n, &one, 1000));
		ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_AUTHORIZED);
	} else {
		struct apt_event *e = apt_wait(DRIVER_EV_DEAUTH, s->ifindex, 3000);
		ck_assert_msg(e != NULL, "no deauthentication after a mismatched message 2");
		ck_assert_uint_eq(apt_reason(e), WLAN_REASON_IE_IN_4WAY_DIFFERS);
		ck_assert(apt_wait_for(removed_n, &one, 500));
		ck_assert_uint_eq(APT->last_reason, WLAN_REASON_IE_IN_4WAY_DIFFERS);
		ck_assert_uint_eq(APT->authorized, 0);
		ck_assert(!s->supp_done);
	}
	ap_profile_clear(&p);
}
END_TEST

static char *write_psk_file(const uint8_t addr[6], const char *passphrase)
{
	char path[64];
	snprintf(path, sizeof(path), "/tmp/wpad-ap-psk-%d", (int)getpid());
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "# per-station keys\n%02x:%02x:%02x:%02x:%02x:%02x %s\n", addr[0], addr[1],
		addr[2], addr[3], addr[4], addr[5], passphrase);
	fclose(f);
	return strdup(path);
}

/* A station listed in the PSK file must use its own passphrase; the
 * others use the default. */
START_TEST(per_station_psk)
{
	struct ap_profile p;
	apt_profile(&p, true);
	struct apt_sta *own = apt_sta_add(), *other = apt_sta_add(), *wrong = apt_sta_add();
	p.psk_file = write_psk_file(own->addr, "station-own-secret");
	apt_start(&p);
	join(own, "station-own-secret");
	join(other, APT_PASSPHRASE);

	uint8_t ie[64];
	size_t n = apt_sta_rsne(ie, sizeof(ie));
	/* Another station's own passphrase is no default. */
	apt_supp_start(wrong, "station-own-secret");
	ck_assert_int_eq(apt_connect(wrong, ie, n, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(apt_wait(DRIVER_EV_DEAUTH, wrong->ifindex, 3000));
	ck_assert_uint_ge(APT->mic_failures, 1);
	unlink(p.psk_file);
	ap_profile_clear(&p);
}
END_TEST

static bool rekey_done(void *arg)
{
	return !ap_keys_rekeying(APT->ap) && ap_keys_generation(APT->ap) >= *(unsigned *)arg;
}

static bool gtk_installs(void *arg)
{
	struct apt_sta *s = arg;
	return s->gtk_installs >= 2;
}

/* Broadcast data before, during and after a GTK rekey: the new key is
 * used for transmit only after the station confirmed it. */
START_TEST(gtk_rekey_while_data_flows)
{
	struct ap_profile p;
	apt_profile(&p, true);
	struct apt_sta *a = apt_sta_add(), *b = apt_sta_add();
	apt_start(&p);
	join(a, APT_PASSPHRASE);
	join(b, APT_PASSPHRASE);
	ck_assert_uint_eq(ap_keys_generation(APT->ap), 1);
	ck_assert_uint_eq(ap_keys_tx_idx(APT->ap), 1);
	ck_assert(data_reaches(a, broadcast, 0x21));

	ck_assert_int_eq(ap_rekey_gtk(APT->ap), 0);
	ck_assert_int_eq(ap_rekey_gtk(APT->ap), -EINPROGRESS);
	/* Until both confirm, the old key is still the transmit key. */
	ck_assert(ap_keys_rekeying(APT->ap));
	ck_assert_uint_eq(ap_keys_tx_idx(APT->ap), 1);
	unsigned two = 2;
	ck_assert(apt_wait_for(rekey_done, &two, 2000));
	ck_assert_uint_eq(ap_keys_tx_idx(APT->ap), 2);
	ck_assert(apt_wait_for(gtk_installs, a, 500));
	ck_assert(apt_wait_for(gtk_installs, b, 500));
	ck_assert_uint_eq(a->last_gtk_idx, 2);
	ck_assert_uint_eq(b->last_gtk_idx, 2);
	ck_assert_msg(data_reaches(a, broadcast, 0x22), "broadcast lost after the rekey (a)");
	ck_assert_msg(data_reaches(b, broadcast, 0x23), "broadcast lost after the rekey (b)");
	ck_assert_msg(data_reaches(a, a->addr, 0x24), "unicast lost after the rekey");
	ck_assert_uint_eq(ap_associated_count(APT->ap), 2);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(rekey_when_a_station_leaves)
{
	struct ap_profile p;
	apt_profile(&p, true);
	p.rekey_on_sta_leave = true;
	struct apt_sta *a = apt_sta_add(), *b = apt_sta_add();
	apt_start(&p);
	join(a, APT_PASSPHRASE);
	join(b, APT_PASSPHRASE);
	ck_assert_int_eq(driver_deauthenticate(APT->drv, a->ifindex, APT->ap_addr,
					       WLAN_REASON_DEAUTH_LEAVING), 0);
	unsigned two = 2;
	ck_assert(apt_wait_for(rekey_done, &two, 2000));
	ck_assert_uint_eq(APT->removed, 1);
	ck_assert(apt_wait_for(gtk_installs, b, 500));
	ck_assert_uint_eq(b->last_gtk_idx, 2);
	ck_assert(data_reaches(b, broadcast, 0x31));
	ap_profile_clear(&p);
}
END_TEST

START_TEST(periodic_rekey)
{
	struct ap_profile p;
	apt_profile(&p, true);
	p.group_rekey_s = 1;
	struct apt_sta *a = apt_sta_add();
	apt_start(&p);
	join(a, APT_PASSPHRASE);
	unsigned three = 3;
	ck_assert_msg(apt_wait_for(rekey_done, &three, 3500), "generation %u",
		      ap_keys_generation(APT->ap));
	ck_assert(data_reaches(a, broadcast, 0x41));
	ap_profile_clear(&p);
}
END_TEST

START_TEST(open_network_rekey_refused)
{
	struct ap_profile p;
	apt_profile(&p, false);
	ck_assert_int_eq(ap_rekey_gtk(APT->ap), -ENOTCONN);
	apt_start(&p);
	ck_assert_int_eq(ap_rekey_gtk(APT->ap), -EOPNOTSUPP);
	ap_profile_clear(&p);
}
END_TEST

static bool sta_gone(void *arg)
{
	return apt_ap_sta_state(arg) == AP_STA_NONE;
}

/* InactivityTimeout=1: an idle station is polled with a null data frame
 * (the sim's probe_client) and kept while it acknowledges; once it has
 * vanished without a word the poll goes unanswered and it is dropped with
 * reason 4, as hostapd does. */
START_TEST(inactivity_deauths_4)
{
	struct ap_profile p;
	apt_profile(&p, false);
	p.inactivity_s = 1;
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);
	ck_assert_int_eq(apt_connect(s, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	apt_run(4000); /* four idle periods, each answered */
	ck_assert_msg(apt_ap_sta_state(s->addr) == AP_STA_AUTHORIZED,
		      "an idle station that answers the poll was dropped");
	ck_assert_uint_eq(APT->removed, 0);
	uint8_t addr[6];
	memcpy(addr, s->addr, 6);
	ck_assert_int_eq(driver_iface_del(APT->drv, s->ifindex), 0); /* gone, silently */
	ck_assert_msg(apt_wait_for(sta_gone, addr, 4000), "an idle station was not removed");
	ck_assert_uint_eq(APT->last_reason, WLAN_REASON_DISASSOC_DUE_TO_INACTIVITY);
	ck_assert(memcmp(APT->last_removed, addr, 6) == 0);
	ap_profile_clear(&p);
}
END_TEST

/* InactivityTimeout=300: the AP looks at a station when it can first have
 * been silent for the limit, not every quarter of it (an idle AP woke 4
 * times per limit, issue 21); an idle station is polled then, and its
 * acknowledgement counts as activity until the next limit. */
START_TEST(inactivity_looks_once_per_limit)
{
	struct ap_profile p;
	apt_profile(&p, false);
	p.inactivity_s = 300;
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);
	ck_assert_int_eq(apt_connect(s, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_uint_gt(loop_timer_remaining_us(APT->ap->inact_timer), 290 * 1000000ull);
	apt_run(301 * 1000); /* the first look: silent 300 s, polled, answered */
	ck_assert_msg(apt_ap_sta_state(s->addr) == AP_STA_AUTHORIZED,
		      "an idle station that answers the poll was dropped");
	struct ap_sta *sta = ap_sta_find(APT->ap, s->addr);
	ck_assert_ptr_nonnull(sta);
	ck_assert_uint_ne(sta->probe_acked_us, 0);
	ck_assert_uint_gt(loop_timer_remaining_us(APT->ap->inact_timer), 290 * 1000000ull);
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

static bool ap_handshakes_2(void *arg)
{
	struct ap_station_info info;
	return ap_get_station(APT->ap, ((struct apt_sta *)arg)->addr, &info) == 0 &&
	       info.handshakes >= 2;
}

static bool rekeyed(void *arg)
{
	struct apt_sta *s = arg;
	return s->supp && rsn_supp_stats(s->supp)->rekeys >= 1;
}

/* EAPOL through the station's EAPOL port: a Start restarts the 4-way
 * handshake (the station gets a new PTK, as from hostapd), an EAP packet
 * and a Logoff on a PSK BSS change nothing. */
START_TEST(eapol_start_restarts_handshake)
{
	struct ap_profile p;
	apt_profile(&p, true);
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);
	join(s, APT_PASSPHRASE);
	unsigned one = 1;
	ck_assert(apt_wait_for(authorized_n, &one, 1000));

	static const uint8_t eap_resp_identity[] = { 2, 0, 0, 9, 2, 3, 0, 9, 1, 'u', 's', 'e', 'r' };
	static const uint8_t logoff[] = { 2, 2, 0, 0 };
	ck_assert_int_eq(driver_tx_eapol(APT->drv, s->ifindex, APT->ap_addr, eap_resp_identity,
					 sizeof(eap_resp_identity), false, NULL), 0);
	ck_assert_int_eq(driver_tx_eapol(APT->drv, s->ifindex, APT->ap_addr, logoff,
					 sizeof(logoff), false, NULL), 0);
	apt_run(200);
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_AUTHORIZED);
	ck_assert_uint_eq(rsn_supp_stats(s->supp)->rekeys, 0);

	static const uint8_t start[] = { 2, 1, 0, 0 };
	ck_assert_int_eq(driver_tx_eapol(APT->drv, s->ifindex, APT->ap_addr, start, sizeof(start),
					 false, NULL), 0);
	ck_assert_msg(apt_wait_for(rekeyed, s, 2000), "EAPOL-Start did not restart the handshake");
	/* Message 4 reached the AP: it uses the new PTK. */
	ck_assert_msg(apt_wait_for(ap_handshakes_2, s, 1000), "the AP did not complete");
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_AUTHORIZED);
	ck_assert_msg(data_reaches(s, s->addr, 0x21), "unicast data lost after the new PTK");
	ap_profile_clear(&p);
}
END_TEST

Suite *make_ap_keys_suite(void)
{
	Suite *s = suite_create("ap_keys");
	TCase *tc = tcase_create("sim");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, wpa2_handshake_and_data);
	tcase_add_test(tc, handshake_timeout_deauths_15);
	tcase_add_test(tc, wrong_passphrase_counts_mic_failures);
	tcase_add_loop_test(tc, msg2_rsnxe_against_the_association_request, 0, 4);
	tcase_add_test(tc, per_station_psk);
	tcase_add_test(tc, gtk_rekey_while_data_flows);
	tcase_add_test(tc, rekey_when_a_station_leaves);
	tcase_add_test(tc, periodic_rekey);
	tcase_add_test(tc, open_network_rekey_refused);
	tcase_add_test(tc, inactivity_deauths_4);
	tcase_add_test(tc, inactivity_looks_once_per_limit);
	tcase_add_test(tc, eapol_start_restarts_handshake);
	suite_add_tcase(s, tc);
	return s;
}
