/* AP templates, built from a hand-made radio description and parsed back
 * with the codec: beacon head/tail, probe response, association response
 * elements, our RSN element. No driver involved. */
#include "daemon/ap/ap_internal.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t bssid[6] = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x00 };

static void fill_band(struct driver_band_info *b, bool five)
{
	static const uint16_t r24[] = { 10, 20, 55, 110, 60, 90, 120, 180, 240, 360, 480, 540 };
	static const uint16_t r5[] = { 60, 90, 120, 180, 240, 360, 480, 540 };
	memset(b, 0, sizeof(*b));
	b->present = true;
	if (five) {
		static const uint16_t ch[] = { 36, 40, 44, 48 };
		for (size_t i = 0; i < 4; i++)
			b->channels[b->n_channels++] = (struct driver_channel){
				.freq_mhz = 5000 + 5u * ch[i], .number = ch[i], .max_power_dbm = 23 };
		memcpy(b->rates_100kbps, r5, sizeof(r5));
		b->n_rates = 8;
	} else {
		for (uint16_t c = 1; c <= 13; c++)
			b->channels[b->n_channels++] = (struct driver_channel){
				.freq_mhz = 2407 + 5u * c, .number = c, .max_power_dbm = 20 };
		memcpy(b->rates_100kbps, r24, sizeof(r24));
		b->n_rates = 12;
	}
	b->ht = true;
	b->ht_capab = 0x012c;
	b->ht_mcs_rx[0] = 0xff;
	b->ht_mcs_rx[1] = 0xff;
}

static struct ap *fake_ap(bool rsn, bool hidden)
{
	struct ap *ap = calloc(1, sizeof(*ap));
	ck_assert_ptr_nonnull(ap);
	/* The sim's ciphers: CCMP/GCMP and BIP-CMAC-128 (PMF possible). */
	ap->capa.ciphers = DRIVER_CIPHER_CCMP_128 | DRIVER_CIPHER_CCMP_256 |
			   DRIVER_CIPHER_GCMP_128 | DRIVER_CIPHER_GCMP_256 |
			   DRIVER_CIPHER_BIP_CMAC_128;
	memcpy(ap->addr, bssid, 6);
	fill_band(&ap->capa.bands[DRIVER_BAND_2GHZ], false);
	fill_band(&ap->capa.bands[DRIVER_BAND_5GHZ], true);
	memcpy(ap->conf.ssid, "wpad-test", 9);
	ap->conf.ssid_len = 9;
	ap->conf.hidden = hidden;
	ap->conf.band = DRIVER_BAND_2GHZ;
	ap->conf.channel = 6;
	ap->conf.freq_mhz = 2437;
	ap->conf.beacon_int = 100;
	ap->conf.dtim_period = 2;
	ap->conf.rsn = rsn;
	memcpy(ap->country, "DE", 3);
	ck_assert_int_eq(ap_build_rsne(ap), 0);
	return ap;
}

static const uint8_t wmm_expected[4][4] = {
	/* aci, aifsn, ecw_min, ecw_max */
	{ WMM_AC_BE, 3, 4, 6 },
	{ WMM_AC_BK, 7, 4, 10 },
	{ WMM_AC_VI, 2, 3, 4 },
	{ WMM_AC_VO, 2, 2, 3 },
};

static void check_wmm(const struct ie_set *s)
{
	ck_assert(s->has_wmm);
	ck_assert_uint_eq(s->wmm.subtype, WMM_SUBTYPE_PARAM);
	ck_assert_uint_eq(s->wmm.version, 1);
	for (size_t i = 0; i < 4; i++) {
		const struct ie_wmm_ac *ac = &s->wmm.ac[i];
		ck_assert_uint_eq(ac->aci, wmm_expected[i][0]);
		ck_assert_uint_eq(ac->aifsn, wmm_expected[i][1]);
		ck_assert_uint_eq(ac->ecw_min, wmm_expected[i][2]);
		ck_assert_uint_eq(ac->ecw_max, wmm_expected[i][3]);
		ck_assert(!ac->acm);
		uint16_t txop = ac->aci == WMM_AC_VI ? 94 : ac->aci == WMM_AC_VO ? 47 : 0;
		ck_assert_uint_eq(ac->txop_limit, txop);
	}
}

static void check_rsn(const struct ie_set *s)
{
	ck_assert(s->has_rsn);
	ck_assert_uint_eq(s->rsn.version, 1);
	ck_assert_uint_eq(s->rsn.group_cipher, RSN_CIPHER_CCMP_128);
	ck_assert_uint_eq(s->rsn.n_pairwise, 1);
	ck_assert_uint_eq(s->rsn.pairwise[0], RSN_CIPHER_CCMP_128);
	ck_assert_uint_eq(s->rsn.n_akm, 1);
	ck_assert_uint_eq(s->rsn.akm[0], RSN_AKM_PSK);
	ck_assert_uint_ge(s->rsn.present, IE_RSN_UPTO_CAPAB);
	ck_assert(!(s->rsn.capab & (RSN_CAPAB_MFPR | RSN_CAPAB_MFPC)));
}

static void check_common(const struct ie_set *s)
{
	check_wmm(s);
	ck_assert(s->has_ht_cap);
	ck_assert_uint_eq(s->ht_cap.cap_info, 0x012c);
	ck_assert(s->has_ht_op);
	ck_assert_uint_eq(s->ht_op.primary_channel, 6);
	ck_assert_uint_eq(s->ht_op.sec_chan_offset, HT_OP_SEC_CHAN_NONE);
	ck_assert(s->has_ext_capab);
	ck_assert(ie_ext_capab_has(&s->ext_capab, 48)); /* UTF-8 SSID */
	ck_assert(s->has_country);
	ck_assert_mem_eq(s->country.country, "DE ", 3);
	ck_assert_uint_eq(s->country.n_triplets, 1);
	struct ie_country_triplet t = ie_country_get(&s->country, 0);
	ck_assert_uint_eq(t.first, 1);
	ck_assert_uint_eq(t.second, 13);
	ck_assert_uint_eq(t.third, 20);
	ck_assert(s->has_ext_rates);
	ck_assert_uint_eq(s->supp_rates.n + s->ext_rates.n, 12);
}

/* Beacon head then tail, as the driver puts them around the TIM. */
static void parse_beacon(struct ap *ap, struct mgmt_frame *f, struct ie_set *s,
			 uint8_t *joined, size_t *joined_len)
{
	uint8_t head[AP_TEMPLATE_MAX], tail[AP_TEMPLATE_MAX];
	size_t hl, tl;
	ck_assert_int_eq(ap_build_beacon(ap, head, sizeof(head), &hl, tail, sizeof(tail), &tl), 0);
	memcpy(joined, head, hl);
	memcpy(joined + hl, tail, tl);
	*joined_len = hl + tl;
	ck_assert_int_eq(mgmt_parse(joined, *joined_len, f), 0);
	ck_assert_uint_eq(f->subtype, IEEE80211_STYPE_BEACON);
	ck_assert_int_eq(ie_parse(f->ies, f->ies_len, s), 0);
}

START_TEST(beacon_wpa2_content)
{
	struct ap *ap = fake_ap(true, false);
	uint8_t buf[2 * AP_TEMPLATE_MAX];
	size_t len;
	struct mgmt_frame f;
	struct ie_set s;
	parse_beacon(ap, &f, &s, buf, &len);

	ck_assert_mem_eq(f.bssid, bssid, 6);
	ck_assert_mem_eq(f.sa, bssid, 6);
	ck_assert_uint_eq(f.u.beacon.beacon_int, 100);
	ck_assert(f.u.beacon.capab & WLAN_CAPAB_ESS);
	ck_assert(f.u.beacon.capab & WLAN_CAPAB_PRIVACY);
	ck_assert(s.has_ssid);
	ck_assert_uint_eq(s.ssid.len, 9);
	ck_assert_mem_eq(s.ssid.ssid, "wpad-test", 9);
	ck_assert(s.has_ds);
	ck_assert_uint_eq(s.ds_channel, 6);
	ck_assert(!s.has_tim); /* the driver adds it */
	/* 1, 2, 5.5, 11 Mb/s are basic on 2.4 GHz. */
	ck_assert_uint_eq(s.supp_rates.n, 8);
	ck_assert_uint_eq(s.supp_rates.rates[0], 0x82);
	ck_assert_uint_eq(s.supp_rates.rates[3], 0x96);
	ck_assert_uint_eq(s.supp_rates.rates[4], 0x0c);
	check_rsn(&s);
	check_common(&s);
	free(ap);
}
END_TEST

START_TEST(beacon_open_has_no_rsn)
{
	struct ap *ap = fake_ap(false, false);
	uint8_t buf[2 * AP_TEMPLATE_MAX];
	size_t len;
	struct mgmt_frame f;
	struct ie_set s;
	parse_beacon(ap, &f, &s, buf, &len);
	ck_assert(!(f.u.beacon.capab & WLAN_CAPAB_PRIVACY));
	ck_assert(!s.has_rsn);
	ck_assert_uint_eq(ap->rsne_len, 0);
	check_common(&s);
	free(ap);
}
END_TEST

START_TEST(hidden_beacon_empty_probe_resp_full)
{
	struct ap *ap = fake_ap(true, true);
	uint8_t buf[2 * AP_TEMPLATE_MAX];
	size_t len;
	struct mgmt_frame f;
	struct ie_set s;
	parse_beacon(ap, &f, &s, buf, &len);
	ck_assert(s.has_ssid);
	ck_assert_uint_eq(s.ssid.len, 0);

	const uint8_t sta[6] = { 0x02, 0, 0, 0, 0x02, 0 };
	uint8_t pr[1024];
	ck_assert_int_eq(ap_build_probe_resp(ap, sta, pr, sizeof(pr), &len), 0);
	ck_assert_int_eq(mgmt_parse(pr, len, &f), 0);
	ck_assert_uint_eq(f.subtype, IEEE80211_STYPE_PROBE_RESP);
	ck_assert_mem_eq(f.da, sta, 6);
	ck_assert_int_eq(ie_parse(f.ies, f.ies_len, &s), 0);
	ck_assert_uint_eq(s.ssid.len, 9);
	ck_assert_mem_eq(s.ssid.ssid, "wpad-test", 9);
	ck_assert(!s.has_tim);
	check_rsn(&s);
	check_common(&s);
	free(ap);
}
END_TEST

START_TEST(five_ghz_rates_and_country)
{
	struct ap *ap = fake_ap(true, false);
	ap->conf.band = DRIVER_BAND_5GHZ;
	ap->conf.channel = 40;
	ap->conf.freq_mhz = 5200;
	uint8_t buf[2 * AP_TEMPLATE_MAX];
	size_t len;
	struct mgmt_frame f;
	struct ie_set s;
	parse_beacon(ap, &f, &s, buf, &len);
	ck_assert_uint_eq(s.ds_channel, 40);
	ck_assert_uint_eq(s.supp_rates.n, 8);
	ck_assert(!s.has_ext_rates);
	ck_assert_uint_eq(s.supp_rates.rates[0], 0x8c); /* 6 Mb/s basic */
	ck_assert_uint_eq(s.supp_rates.rates[1], 0x12); /* 9 Mb/s */
	struct ie_country_triplet t = ie_country_get(&s.country, 0);
	ck_assert_uint_eq(t.first, 36);
	ck_assert_uint_eq(t.second, 4);
	ck_assert_uint_eq(s.ht_op.primary_channel, 40);
	/* No ERP element on 5 GHz. */
	struct ie_elem e;
	ck_assert(!ie_find(f.ies, f.ies_len, WLAN_EID_ERP_INFO, &e));
	free(ap);
}
END_TEST

START_TEST(assoc_resp_elements)
{
	struct ap *ap = fake_ap(true, false);
	uint8_t ies[512];
	size_t len;
	struct ie_set s;
	ck_assert_int_eq(ap_build_assoc_resp_ies(ap, true, true, ies, sizeof(ies), &len), 0);
	ck_assert_int_eq(ie_parse(ies, len, &s), 0);
	ck_assert(s.has_supp_rates);
	check_wmm(&s);
	ck_assert(s.has_ht_op);
	ck_assert(!s.has_rsn);
	ck_assert_int_eq(ap_build_assoc_resp_ies(ap, false, false, ies, sizeof(ies), &len), 0);
	ck_assert_int_eq(ie_parse(ies, len, &s), 0);
	ck_assert(!s.has_wmm);
	ck_assert(!s.has_ht_cap);
	free(ap);
}
END_TEST

START_TEST(psk_sha256_offered_when_enabled)
{
	struct ap *ap = fake_ap(true, false);
	ap->conf.akm_psk_sha256 = true;
	ck_assert_int_eq(ap_build_rsne(ap), 0);
	struct ie_rsn rsn;
	ck_assert_uint_eq(ap->rsne[0], WLAN_EID_RSN);
	ck_assert_int_eq(ie_parse_rsn(ap->rsne + 2, ap->rsne[1], &rsn), 0);
	ck_assert_uint_eq(rsn.n_akm, 2);
	ck_assert(ie_rsn_has_akm(&rsn, RSN_AKM_PSK));
	ck_assert(ie_rsn_has_akm(&rsn, RSN_AKM_PSK_SHA256));
	free(ap);
}
END_TEST

Suite *make_ap_beacon_suite(void)
{
	Suite *s = suite_create("ap_beacon");
	TCase *tc = tcase_create("templates");
	tcase_add_test(tc, beacon_wpa2_content);
	tcase_add_test(tc, beacon_open_has_no_rsn);
	tcase_add_test(tc, hidden_beacon_empty_probe_resp_full);
	tcase_add_test(tc, five_ghz_rates_and_country);
	tcase_add_test(tc, assoc_resp_elements);
	tcase_add_test(tc, psk_sha256_offered_when_enabled);
	suite_add_tcase(s, tc);
	return s;
}
