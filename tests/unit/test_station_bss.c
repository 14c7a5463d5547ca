/* The station's BSS list and network ranking, from synthetic scan results:
 * security classification by AKM and cipher, hidden SSIDs, merging, aging,
 * the list bound, and the ranking order (security, band bonus, signal). */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "daemon/codec/ie.h"
#include "daemon/codec/ie_basic.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/station/bss.h"
#include "daemon/station/network.h"

#define SEC_US 1000000ull

struct elems {
	uint8_t buf[512];
	size_t len;
};

/* One element list: SSID, rates, DS, then an RSNE with the given AKMs and
 * ciphers (akm 0: no RSNE). */
static struct elems make_ies(const char *ssid, uint32_t akm1, uint32_t akm2, uint32_t pairwise,
			     uint32_t group, uint16_t capab)
{
	struct elems e;
	struct wbuf w = wbuf_init(e.buf, sizeof(e.buf));
	static const uint8_t rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };

	ck_assert_int_eq(ie_build_ssid(&w, (const uint8_t *)ssid, strlen(ssid)), 0);
	ck_assert_int_eq(ie_build_supp_rates(&w, rates, sizeof(rates)), 0);
	ck_assert_int_eq(ie_build_ds(&w, 6), 0);
	if (akm1) {
		struct ie_rsn rsn;
		ie_rsn_init(&rsn, akm1);
		if (akm2)
			rsn.akm[rsn.n_akm++] = akm2;
		rsn.pairwise[0] = pairwise;
		rsn.group_cipher = group;
		rsn.capab = capab;
		rsn.present = IE_RSN_UPTO_CAPAB;
		ck_assert_int_eq(ie_build_rsn(&w, &rsn), 0);
	}
	ck_assert(!w.bad);
	e.len = w.len;
	return e;
}

static struct elems psk_ies(const char *ssid)
{
	return make_ies(ssid, RSN_AKM_PSK, 0, RSN_CIPHER_CCMP_128, RSN_CIPHER_CCMP_128, 0);
}

static struct elems open_ies(const char *ssid)
{
	return make_ies(ssid, 0, 0, 0, 0, 0);
}

static void parse(struct station_bss *b, uint8_t last, uint32_t freq, int32_t signal,
		  uint16_t capab, const struct elems *e)
{
	uint8_t bssid[6] = { 0x02, 0, 0, 0, 0, last };
	ck_assert_int_eq(bss_parse(b, bssid, freq, signal, capab, 100, e->buf, e->len, 0), 0);
}

START_TEST(test_classify_psk)
{
	struct station_bss b;
	struct elems e = psk_ies("home");
	parse(&b, 1, 2437, -4000, WLAN_CAPAB_ESS | WLAN_CAPAB_PRIVACY, &e);
	ck_assert_int_eq(b.security, BSS_SECURITY_PSK);
	ck_assert_int_eq(b.support, BSS_OK);
	ck_assert_uint_eq(b.akm, RSN_AKM_PSK);
	ck_assert_uint_eq(b.ssid_len, 4);
	ck_assert_mem_eq(b.ssid, "home", 4);
	ck_assert(!b.hidden);
	ck_assert_int_eq(b.band, DRIVER_BAND_2GHZ);
	ck_assert(b.rsne_len > 2 && b.rsne[0] == WLAN_EID_RSN);
}
END_TEST

START_TEST(test_classify_psk_sha256_only)
{
	struct station_bss b;
	struct elems e = make_ies("x", RSN_AKM_PSK_SHA256, 0, RSN_CIPHER_CCMP_128,
				  RSN_CIPHER_CCMP_128, RSN_CAPAB_MFPC);
	parse(&b, 1, 5180, -5000, WLAN_CAPAB_PRIVACY, &e);
	ck_assert_int_eq(b.security, BSS_SECURITY_PSK);
	ck_assert_uint_eq(b.akm, RSN_AKM_PSK_SHA256);
	ck_assert(b.mfp_capable && !b.mfp_required);
	ck_assert_int_eq(b.band, DRIVER_BAND_5GHZ);
}
END_TEST

START_TEST(test_classify_transition_prefers_psk)
{
	struct station_bss b;
	struct elems e = make_ies("x", RSN_AKM_SAE, RSN_AKM_PSK, RSN_CIPHER_CCMP_128,
				  RSN_CIPHER_CCMP_128, 0);
	parse(&b, 1, 2412, -5000, WLAN_CAPAB_PRIVACY, &e);
	ck_assert_int_eq(b.security, BSS_SECURITY_PSK);
	ck_assert_uint_eq(b.akm, RSN_AKM_PSK);
}
END_TEST

START_TEST(test_classify_unsupported)
{
	struct station_bss b;
	struct elems sae = make_ies("x", RSN_AKM_SAE, 0, RSN_CIPHER_CCMP_128,
				    RSN_CIPHER_CCMP_128, RSN_CAPAB_MFPC | RSN_CAPAB_MFPR);
	parse(&b, 1, 2412, -5000, WLAN_CAPAB_PRIVACY, &sae);
	ck_assert_int_eq(b.security, BSS_SECURITY_SAE);
	ck_assert_int_eq(b.support, BSS_OK); /* WPA3-Personal is supported */

	/* 802.1X and 802.1X-SHA256 are implemented, the SHA-384 AKM not. */
	struct elems eap = make_ies("x", RSN_AKM_8021X, 0, RSN_CIPHER_CCMP_128,
				    RSN_CIPHER_CCMP_128, 0);
	parse(&b, 1, 2412, -5000, WLAN_CAPAB_PRIVACY, &eap);
	ck_assert_int_eq(b.security, BSS_SECURITY_8021X);
	ck_assert_int_eq(b.support, BSS_OK);
	struct elems eap384 = make_ies("x", RSN_AKM_8021X_SHA384, 0, RSN_CIPHER_CCMP_128,
				       RSN_CIPHER_CCMP_128, 0);
	parse(&b, 1, 2412, -5000, WLAN_CAPAB_PRIVACY, &eap384);
	ck_assert_int_eq(b.security, BSS_SECURITY_8021X);
	ck_assert_int_eq(b.support, BSS_UNSUPPORTED_AKM);

	struct elems owe = make_ies("x", RSN_AKM_OWE, 0, RSN_CIPHER_CCMP_128,
				    RSN_CIPHER_CCMP_128, 0);
	parse(&b, 1, 2412, -5000, WLAN_CAPAB_PRIVACY, &owe);
	ck_assert_int_eq(b.security, BSS_SECURITY_OWE);

	struct elems tkip = make_ies("x", RSN_AKM_PSK, 0, RSN_CIPHER_TKIP, RSN_CIPHER_TKIP, 0);
	parse(&b, 1, 2412, -5000, WLAN_CAPAB_PRIVACY, &tkip);
	ck_assert_int_eq(b.security, BSS_SECURITY_PSK);
	ck_assert_int_eq(b.support, BSS_UNSUPPORTED_CIPHER);

	struct elems wep = open_ies("x");
	parse(&b, 1, 2412, -5000, WLAN_CAPAB_ESS | WLAN_CAPAB_PRIVACY, &wep);
	ck_assert_int_eq(b.security, BSS_SECURITY_WEP);
	ck_assert_int_eq(b.support, BSS_UNSUPPORTED_WEP);
	ck_assert_str_ne(bss_support_text(BSS_UNSUPPORTED_WEP), "unknown");
}
END_TEST

START_TEST(test_classify_open_and_hidden)
{
	struct station_bss b;
	struct elems e = open_ies("");
	parse(&b, 1, 2412, -5000, WLAN_CAPAB_ESS, &e);
	ck_assert_int_eq(b.security, BSS_SECURITY_OPEN);
	ck_assert(b.hidden);

	uint8_t zeros[4] = { 0 };
	struct wbuf w = wbuf_init(e.buf, sizeof(e.buf));
	ie_build_ssid(&w, zeros, sizeof(zeros));
	e.len = w.len;
	parse(&b, 1, 2412, -5000, WLAN_CAPAB_ESS, &e);
	ck_assert(b.hidden);
	ck_assert_uint_eq(b.ssid_len, 0);
}
END_TEST

START_TEST(test_malformed_ies_rejected)
{
	struct station_bss b;
	uint8_t bad[] = { WLAN_EID_SSID, 10, 'a', 'b' }; /* runs past the end */
	uint8_t two_ssids[] = { 0, 1, 'a', 0, 1, 'b' };
	uint8_t addr[6] = { 2, 0, 0, 0, 0, 1 };
	ck_assert_int_lt(bss_parse(&b, addr, 2412, -4000, 0, 100, bad, sizeof(bad), 0), 0);
	ck_assert_int_lt(bss_parse(&b, addr, 2412, -4000, 0, 100, two_ssids, sizeof(two_ssids),
				   0), 0);
}
END_TEST

START_TEST(test_freq_helpers)
{
	ck_assert_uint_eq(bss_channel_from_freq(2412), 1);
	ck_assert_uint_eq(bss_channel_from_freq(2484), 14);
	ck_assert_uint_eq(bss_channel_from_freq(5180), 36);
	ck_assert_uint_eq(bss_channel_from_freq(5955), 1);
	ck_assert_int_eq(bss_band_from_freq(5955), DRIVER_BAND_6GHZ);
	ck_assert_int_eq(bss_band_from_freq(5825), DRIVER_BAND_5GHZ);
	char buf[BSS_SSID_STR_MAX];
	const uint8_t ssid[] = { 'a', 0x01, 'b' };
	ck_assert_str_eq(bss_ssid_str(ssid, 3, buf, sizeof(buf)), "a\\x01b");
	char a[18];
	uint8_t addr[6] = { 0x02, 0xab, 0, 0, 0, 0xff };
	ck_assert_str_eq(bss_addr_str(addr, a), "02:ab:00:00:00:ff");
}
END_TEST

/* A scan result set owning its element buffers in a static arena. */
struct fake_scan {
	struct driver_scan_result r[8];
	struct elems e[8];
	struct driver_scan_results res;
};

static void fake_add(struct fake_scan *s, uint8_t last, uint32_t freq, int32_t signal,
		     uint32_t age_ms, struct elems e, uint16_t capab)
{
	size_t i = s->res.n++;
	memset(&s->r[i], 0, sizeof(s->r[i]));
	s->e[i] = e;
	s->r[i].bssid[0] = 0x02;
	s->r[i].bssid[5] = last;
	s->r[i].freq_mhz = freq;
	s->r[i].signal_mbm = signal;
	s->r[i].age_ms = age_ms;
	s->r[i].capability = capab;
	s->r[i].ies = s->e[i].buf;
	s->r[i].ies_len = s->e[i].len;
	s->res.results = s->r;
}

START_TEST(test_merge_and_expire)
{
	struct bss_list *l = bss_list_new();
	struct fake_scan s = { 0 };
	uint64_t now = 100 * SEC_US;

	fake_add(&s, 1, 2412, -4000, 0, psk_ies("a"), WLAN_CAPAB_PRIVACY);
	fake_add(&s, 2, 2437, -6000, 20000, open_ies("b"), 0);
	uint8_t bad[] = { 0, 40 };
	struct elems broken = { .len = sizeof(bad) };
	memcpy(broken.buf, bad, sizeof(bad));
	fake_add(&s, 3, 2462, -6000, 0, broken, 0);
	ck_assert_uint_eq(bss_list_merge_scan(l, &s.res, now), 2);
	ck_assert_uint_eq(bss_list_count(l), 2);

	uint8_t b2[6] = { 0x02, 0, 0, 0, 0, 2 };
	struct station_bss *e2 = bss_list_find(l, b2);
	ck_assert_ptr_nonnull(e2);
	ck_assert_uint_eq(e2->last_seen_us, now - 20 * SEC_US);

	/* The same BSS heard again: refreshed in place, not duplicated. */
	s.res.n = 0;
	fake_add(&s, 2, 2437, -5500, 0, open_ies("b"), 0);
	ck_assert_uint_eq(bss_list_merge_scan(l, &s.res, now + SEC_US), 1);
	ck_assert_uint_eq(bss_list_count(l), 2);
	ck_assert_int_eq(bss_list_find(l, b2)->signal_mbm, -5500);

	/* Aging: entry 1 (heard at 100 s) goes at 131 s; the kept one stays. */
	uint8_t b1[6] = { 0x02, 0, 0, 0, 0, 1 };
	uint64_t oldest = 0;
	/* The age timer's deadline: the oldest entry that may go, never keep. */
	ck_assert(bss_list_oldest(l, NULL, &oldest));
	ck_assert_uint_eq(oldest, 100 * SEC_US);
	ck_assert(bss_list_oldest(l, b1, &oldest));
	ck_assert_uint_eq(oldest, now + SEC_US);
	ck_assert_uint_eq(bss_list_expire(l, 131 * SEC_US, 30 * SEC_US, b1), 0);
	ck_assert_uint_eq(bss_list_expire(l, 131 * SEC_US, 30 * SEC_US, NULL), 1);
	ck_assert_ptr_null(bss_list_find(l, b1));
	ck_assert_ptr_nonnull(bss_list_find(l, b2));
	/* Connected to the only BSS left: nothing can age out, no deadline. */
	ck_assert(!bss_list_oldest(l, b2, &oldest));
	bss_list_remove(l, b2);
	ck_assert_uint_eq(bss_list_count(l), 0);
	bss_list_free(l);
}
END_TEST

START_TEST(test_hidden_keeps_probed_ssid)
{
	struct bss_list *l = bss_list_new();
	struct station_bss b;
	struct elems named = open_ies("secret"), hidden = open_ies("");

	parse(&b, 1, 2412, -4000, 0, &named);
	b.last_seen_us = 10;
	bss_list_update(l, &b);
	parse(&b, 1, 2412, -4100, 0, &hidden);
	b.last_seen_us = 20;
	struct station_bss *e = bss_list_update(l, &b);
	ck_assert(!e->hidden);
	ck_assert_uint_eq(e->ssid_len, 6);
	ck_assert_int_eq(e->signal_mbm, -4100);
	bss_list_free(l);
}
END_TEST

START_TEST(test_list_bounded)
{
	struct bss_list *l = bss_list_new();
	struct station_bss b;
	struct elems e = open_ies("flood");
	parse(&b, 0, 2412, -4000, 0, &e);
	for (unsigned i = 0; i < BSS_LIST_MAX + 50; i++) {
		b.bssid[4] = (uint8_t)(i >> 8);
		b.bssid[5] = (uint8_t)i;
		b.last_seen_us = 1000 + i;
		ck_assert_ptr_nonnull(bss_list_update(l, &b));
	}
	ck_assert_uint_eq(bss_list_count(l), BSS_LIST_MAX);
	uint8_t first[6] = { 0x02, 0, 0, 0, 0, 0 };
	ck_assert_ptr_null(bss_list_find(l, first)); /* the oldest were replaced */
	bss_list_free(l);
}
END_TEST

static void add_bss(struct bss_list *l, uint8_t last, const char *ssid, bool psk, uint32_t freq,
		    int32_t signal)
{
	struct station_bss b;
	struct elems e = psk ? psk_ies(ssid) : open_ies(ssid);
	parse(&b, last, freq, signal, psk ? WLAN_CAPAB_PRIVACY : 0, &e);
	ck_assert_ptr_nonnull(bss_list_update(l, &b));
}

START_TEST(test_network_grouping_and_ranking)
{
	struct bss_list *l = bss_list_new();
	struct network_list nl;
	network_list_init(&nl);

	add_bss(l, 1, "cafe", false, 2412, -3000);  /* open, strong */
	add_bss(l, 2, "home", true, 2437, -6000);   /* psk 2.4 GHz */
	add_bss(l, 3, "home", true, 5180, -6500);   /* same network, 5 GHz bonus wins */
	add_bss(l, 4, "work", true, 2462, -5500);   /* psk, better than home's best */
	add_bss(l, 5, "", false, 2412, -2000);      /* hidden: no network */
	ck_assert_int_eq(network_list_build(&nl, l), 0);
	ck_assert_uint_eq(nl.n, 3);

	/* psk before open; among psk, home (-65+10 = -55 dBm) vs work (-55):
	 * equal score, then SSID order. */
	ck_assert_mem_eq(nl.nets[0].ssid, "home", 4);
	ck_assert_mem_eq(nl.nets[1].ssid, "work", 4);
	ck_assert_mem_eq(nl.nets[2].ssid, "cafe", 4);
	ck_assert_uint_eq(nl.nets[0].n_bss, 2);
	ck_assert_uint_eq(nl.nets[0].bss[0]->freq_mhz, 5180);
	ck_assert_int_eq(nl.nets[0].signal_mbm, -6500);

	/* Make work clearly stronger: it moves ahead. */
	add_bss(l, 4, "work", true, 2462, -4000);
	ck_assert_int_eq(network_list_build(&nl, l), 0);
	ck_assert_mem_eq(nl.nets[0].ssid, "work", 4);

	const struct station_network *n = network_list_find(&nl, (const uint8_t *)"cafe", 4,
							    BSS_SECURITY_OPEN);
	ck_assert_ptr_nonnull(n);
	ck_assert_ptr_null(network_list_find(&nl, (const uint8_t *)"cafe", 4, BSS_SECURITY_PSK));
	ck_assert_ptr_eq(network_list_find_ssid(&nl, (const uint8_t *)"home", 4), &nl.nets[1]);
	network_list_release(&nl);
	bss_list_free(l);
}
END_TEST

START_TEST(test_network_unsupported_bss_last)
{
	struct bss_list *l = bss_list_new();
	struct network_list nl;
	struct station_bss b;
	network_list_init(&nl);

	struct elems tkip = make_ies("mix", RSN_AKM_PSK, 0, RSN_CIPHER_TKIP, RSN_CIPHER_TKIP, 0);
	parse(&b, 1, 2412, -2000, WLAN_CAPAB_PRIVACY, &tkip);
	bss_list_update(l, &b);
	add_bss(l, 2, "mix", true, 2412, -7000);
	ck_assert_int_eq(network_list_build(&nl, l), 0);
	ck_assert_uint_eq(nl.n, 1);
	ck_assert_uint_eq(nl.nets[0].n_bss, 2);
	ck_assert_int_eq(nl.nets[0].support, BSS_OK);
	ck_assert_uint_eq(nl.nets[0].bss[0]->bssid[5], 2);
	network_list_release(&nl);
	bss_list_free(l);
}
END_TEST

START_TEST(test_network_bss_cap)
{
	struct bss_list *l = bss_list_new();
	struct network_list nl;
	network_list_init(&nl);
	for (unsigned i = 0; i < NETWORK_MAX_BSS + 4; i++)
		add_bss(l, (uint8_t)(i + 1), "mesh", false, 2412, -9000 + (int32_t)i * 100);
	ck_assert_int_eq(network_list_build(&nl, l), 0);
	ck_assert_uint_eq(nl.nets[0].n_bss, NETWORK_MAX_BSS);
	/* The strongest are kept, best first. */
	ck_assert_int_eq(nl.nets[0].bss[0]->signal_mbm, -9000 + (NETWORK_MAX_BSS + 3) * 100);
	for (size_t i = 1; i < nl.nets[0].n_bss; i++)
		ck_assert_int_gt(nl.nets[0].bss[i - 1]->signal_mbm, nl.nets[0].bss[i]->signal_mbm);
	network_list_release(&nl);
	bss_list_free(l);
}
END_TEST

Suite *make_station_bss_suite(void)
{
	Suite *s = suite_create("station_bss");
	TCase *tc = tcase_create("bss");
	tcase_add_test(tc, test_classify_psk);
	tcase_add_test(tc, test_classify_psk_sha256_only);
	tcase_add_test(tc, test_classify_transition_prefers_psk);
	tcase_add_test(tc, test_classify_unsupported);
	tcase_add_test(tc, test_classify_open_and_hidden);
	tcase_add_test(tc, test_malformed_ies_rejected);
	tcase_add_test(tc, test_freq_helpers);
	tcase_add_test(tc, test_merge_and_expire);
	tcase_add_test(tc, test_hidden_keeps_probed_ssid);
	tcase_add_test(tc, test_list_bounded);
	suite_add_tcase(s, tc);
	TCase *tn = tcase_create("network");
	tcase_add_test(tn, test_network_grouping_and_ranking);
	tcase_add_test(tn, test_network_unsupported_bss_last);
	tcase_add_test(tn, test_network_bss_cap);
	suite_add_tcase(s, tn);
	return s;
}
