/* Element codec: iterator, every element's build -> parse round trip,
 * duplicate policy. */
#include <check.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"

/* Takes the single element written into buf and returns it. */
static struct ie_elem only_elem(const uint8_t *buf, size_t len)
{
	struct ie_iter it;
	struct ie_elem e;

	ie_iter_init(&it, buf, len);
	ck_assert(ie_iter_next(&it, &e));
	ck_assert_uint_eq(e.len + 2u, len);
	ck_assert(!ie_iter_next(&it, &(struct ie_elem){ 0 }));
	ck_assert_int_eq(it.err, CODEC_OK);
	return e;
}

START_TEST(test_iterator_and_find)
{
	static const uint8_t list[] = {
		0x00, 0x02, 'h', 'i',
		0xdd, 0x05, 0x00, 0x50, 0xf2, 0x04, 0x10,   /* WPS */
		0xff, 0x03, WLAN_EID_EXT_HE_OPERATION, 1, 2,
		0x03, 0x01, 0x0b,
	};
	struct ie_elem e;

	ck_assert_int_eq(ie_validate(list, sizeof(list)), CODEC_OK);
	ck_assert(ie_find(list, sizeof(list), WLAN_EID_DS_PARAMS, &e));
	ck_assert_uint_eq(e.data[0], 11);
	ck_assert_ptr_eq(e.start, list + 16);
	ck_assert(ie_find_ext(list, sizeof(list), WLAN_EID_EXT_HE_OPERATION, &e));
	ck_assert_uint_eq(e.ext_id, WLAN_EID_EXT_HE_OPERATION);
	ck_assert_uint_eq(e.len, 3);
	ck_assert(ie_find_vendor(list, sizeof(list), OUI_MICROSOFT, VENDOR_TYPE_WPS, &e));
	ck_assert_uint_eq(e.len, 5);
	ck_assert(!ie_find_vendor(list, sizeof(list), OUI_MICROSOFT, VENDOR_TYPE_WMM, NULL));
	ck_assert(!ie_find(list, sizeof(list), WLAN_EID_RSN, NULL));
	ck_assert_int_eq(ie_validate(NULL, 0), CODEC_OK);
	/* search stops at a framing error instead of reading past it */
	ck_assert(!ie_find(list, 18, WLAN_EID_DS_PARAMS, NULL));
	ck_assert_int_eq(ie_validate(list, 18), CODEC_E_OVERRUN);
	ck_assert_int_eq(ie_validate(list, 17), CODEC_E_TRUNCATED);
	ck_assert_int_eq(ie_validate(list, 6), CODEC_E_OVERRUN);
	ck_assert_int_eq(ie_validate(list, 1), CODEC_E_TRUNCATED);
}
END_TEST

START_TEST(test_vendor_body_is_opaque)
{
	/* The vendor body holds bytes shaped like an element (ID 0, length
	 * 0x40) that would overrun if the parser recursed into it. */
	static const uint8_t list[] = {
		0xdd, 0x07, 0x00, 0x11, 0x22, 0x01, 0x00, 0x40, 0x41,
		0xdd, 0x04, 0x00, 0x11, 0x22, 0x01, /* same vendor again: fine */
		0x00, 0x00,
	};
	struct ie_set s;

	ck_assert_int_eq(ie_parse(list, sizeof(list), &s), CODEC_OK);
	ck_assert_uint_eq(s.n_vendor, 2);
	ck_assert_uint_eq(s.n_elems, 3);
	ck_assert(s.has_ssid);
	ck_assert_uint_eq(s.ssid.len, 0);
}
END_TEST

START_TEST(test_generic_builders)
{
	uint8_t buf[300], body[256] = { 0 };
	struct wbuf w = wbuf_init(buf, sizeof(buf));

	ck_assert_int_eq(ie_build(&w, 200, body, 255), CODEC_OK);
	ck_assert_uint_eq(w.len, 257);
	ck_assert_uint_eq(buf[1], 255);
	ck_assert_int_eq(ie_build(&w, 200, body, 256), CODEC_E_BAD_LENGTH);
	ck_assert_int_eq(ie_build(&w, 200, NULL, 3), CODEC_E_INVALID_ARG);

	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_ext(&w, WLAN_EID_EXT_OWE_DH_PARAM, "\x13\x00", 2), CODEC_OK);
	ck_assert_mem_eq(buf, "\xff\x03\x20\x13\x00", 5);
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_vendor(&w, OUI_WFA, 0x1a, "\x01", 1), CODEC_OK);
	ck_assert_mem_eq(buf, "\xdd\x05\x50\x6f\x9a\x1a\x01", 7);

	/* ie_begin/ie_end refuse bodies past 255 octets */
	w = wbuf_init(buf, sizeof(buf));
	size_t start = ie_begin(&w, 200);
	wbuf_put(&w, body, 256);
	ck_assert_int_eq(ie_end(&w, start), CODEC_E_BAD_LENGTH);
	ck_assert(w.bad);

	/* a too-small buffer reports NOSPACE */
	w = wbuf_init(buf, 4);
	ck_assert_int_eq(ie_build_ssid(&w, (const uint8_t *)"hello", 5), CODEC_E_NOSPACE);
}
END_TEST

START_TEST(test_ssid_rates_ds)
{
	uint8_t buf[64], ssid32[32];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct ie_ssid ssid;

	memset(ssid32, 'x', sizeof(ssid32));
	ck_assert_int_eq(ie_build_ssid(&w, ssid32, 32), CODEC_OK);
	struct ie_elem e = only_elem(buf, w.len);
	ck_assert_int_eq(ie_parse_ssid(e.data, e.len, &ssid), CODEC_OK);
	ck_assert_uint_eq(ssid.len, 32);
	ck_assert_int_eq(ie_build_ssid(&w, ssid32, 33), CODEC_E_BAD_LENGTH);

	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_ssid(&w, NULL, 0), CODEC_OK);
	ck_assert_mem_eq(buf, "\x00\x00", 2);

	static const uint8_t rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24,
					 0x30, 0x48, 0x60, 0x6c };
	struct ie_set s;
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_supp_rates(&w, rates, sizeof(rates)), CODEC_OK);
	ck_assert_int_eq(ie_build_ext_rates(&w, rates, sizeof(rates)), CODEC_OK);
	ck_assert_int_eq(ie_build_ds(&w, 36), CODEC_OK);
	ck_assert_uint_eq(w.len, 10 + 6 + 3);
	ck_assert_int_eq(ie_parse(buf, w.len, &s), CODEC_OK);
	ck_assert_uint_eq(s.supp_rates.n, 8);
	ck_assert_uint_eq(s.ext_rates.n, 4);
	ck_assert_mem_eq(s.ext_rates.rates, rates + 8, 4);
	ck_assert_uint_eq(s.ds_channel, 36);

	/* eight or fewer rates: no extended element */
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_ext_rates(&w, rates, 8), CODEC_OK);
	ck_assert_uint_eq(w.len, 0);
	ck_assert_int_eq(ie_build_supp_rates(&w, rates, 0), CODEC_E_BAD_LENGTH);

	ck_assert(ie_rate_is_membership_selector(0x80 | WLAN_BSS_MEMBERSHIP_SAE_H2E_ONLY));
	ck_assert(!ie_rate_is_membership_selector(0x6c));
}
END_TEST

START_TEST(test_tim_country_ext_capab)
{
	uint8_t buf[64];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	static const uint8_t pvb[] = { 0x00, 0x02 };
	struct ie_tim tim = { .dtim_count = 1, .dtim_period = 3, .bitmap_ctrl = 1, .pvb = pvb,
			      .pvb_len = 2 };
	struct ie_tim tim2;

	ck_assert_int_eq(ie_build_tim(&w, &tim), CODEC_OK);
	struct ie_elem e = only_elem(buf, w.len);
	ck_assert_int_eq(ie_parse_tim(e.data, e.len, &tim2), CODEC_OK);
	ck_assert_uint_eq(tim2.dtim_count, 1);
	ck_assert_uint_eq(tim2.dtim_period, 3);
	ck_assert_uint_eq(tim2.bitmap_ctrl, 1);
	ck_assert_uint_eq(tim2.pvb_len, 2);
	ck_assert_mem_eq(tim2.pvb, pvb, 2);

	/* two triplets: 3 + 6 = 9 octets, padded to 10 */
	static const uint8_t trip[] = { 36, 4, 23, 201, 115, 0 };
	struct ie_country c;
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_country(&w, (const uint8_t *)"DE ", trip, 2), CODEC_OK);
	e = only_elem(buf, w.len);
	ck_assert_uint_eq(e.len, 10);
	ck_assert_int_eq(ie_parse_country(e.data, e.len, &c), CODEC_OK);
	ck_assert(c.padded);
	ck_assert_uint_eq(c.n_triplets, 2);
	struct ie_country_triplet t = ie_country_get(&c, 1);
	ck_assert(t.is_op_ext);
	ck_assert_uint_eq(t.second, 115);
	t = ie_country_get(&c, 2);
	ck_assert_uint_eq(t.first, 0);

	/* one triplet needs no pad */
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_country(&w, (const uint8_t *)"US ", trip, 1), CODEC_OK);
	ck_assert_uint_eq(buf[1], 6);

	static const uint8_t bits[] = { 0x00, 0x00, 0x08, 0x80 };
	struct ie_ext_capab x;
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_ext_capab(&w, bits, sizeof(bits)), CODEC_OK);
	e = only_elem(buf, w.len);
	ck_assert_int_eq(ie_parse_ext_capab(e.data, e.len, &x), CODEC_OK);
	ck_assert(ie_ext_capab_has(&x, EXT_CAPAB_BSS_TRANSITION));
	ck_assert(ie_ext_capab_has(&x, EXT_CAPAB_INTERWORKING));
	ck_assert(!ie_ext_capab_has(&x, 30));
}
END_TEST

/* Builds rsn, parses it back, and checks that rebuilding gives the same
 * octets. */
static void rsn_round_trip(const struct ie_rsn *rsn, struct ie_rsn *out, size_t expect_len)
{
	uint8_t buf[256], again[256];
	struct wbuf w = wbuf_init(buf, sizeof(buf));

	ck_assert_int_eq(ie_build_rsn(&w, rsn), CODEC_OK);
	ck_assert_uint_eq(w.len, expect_len);
	struct ie_elem e = only_elem(buf, w.len);
	ck_assert_int_eq(ie_parse_rsn(e.data, e.len, out), CODEC_OK);
	ck_assert_int_eq(out->present, rsn->present);
	struct wbuf w2 = wbuf_init(again, sizeof(again));
	ck_assert_int_eq(ie_build_rsn(&w2, out), CODEC_OK);
	ck_assert_uint_eq(w2.len, w.len);
	ck_assert_mem_eq(again, buf, w.len);
}

START_TEST(test_rsn_every_truncation_point)
{
	static const uint8_t pmkids[32] = { 1, 2, 3, [16] = 9 };
	struct ie_rsn rsn, out;
	/* element size at each "present" level */
	static const size_t sizes[] = { 4, 8, 14, 20, 22, 56, 60 };

	ie_rsn_init(&rsn, RSN_AKM_SAE);
	rsn.pairwise[1] = RSN_CIPHER_GCMP_256;
	rsn.n_pairwise = 2;
	rsn.akm[1] = RSN_AKM_FT_SAE;
	rsn.n_akm = 2;
	rsn.capab = RSN_CAPAB_MFPC | RSN_CAPAB_MFPR;
	rsn.pmkids = pmkids;
	rsn.n_pmkid = 2;
	rsn.group_mgmt_cipher = RSN_CIPHER_BIP_GMAC_256;
	for (int level = IE_RSN_UPTO_VERSION; level <= IE_RSN_UPTO_GROUP_MGMT; level++) {
		rsn.present = (enum ie_rsn_present)level;
		rsn_round_trip(&rsn, &out, sizes[level] + (level >= IE_RSN_UPTO_PAIRWISE ? 4 : 0) +
						   (level >= IE_RSN_UPTO_AKM ? 4 : 0));
	}
	ck_assert_uint_eq(out.n_pairwise, 2);
	ck_assert_uint_eq(out.pairwise[1], RSN_CIPHER_GCMP_256);
	ck_assert(ie_rsn_has_akm(&out, RSN_AKM_FT_SAE));
	ck_assert(!ie_rsn_has_akm(&out, RSN_AKM_PSK));
	ck_assert(ie_rsn_has_pairwise(&out, RSN_CIPHER_CCMP_128));
	ck_assert_uint_eq(out.n_pmkid, 2);
	ck_assert_mem_eq(out.pmkids, pmkids, 32);
	ck_assert_uint_eq(out.group_mgmt_cipher, RSN_CIPHER_BIP_GMAC_256);
	ck_assert_uint_eq(out.capab, RSN_CAPAB_MFPC | RSN_CAPAB_MFPR);

	/* version only: the standard's defaults fill in */
	rsn.present = IE_RSN_UPTO_VERSION;
	rsn_round_trip(&rsn, &out, 4);
	ck_assert_uint_eq(out.group_cipher, RSN_CIPHER_CCMP_128);
	ck_assert_uint_eq(out.akm[0], RSN_AKM_8021X);
	ck_assert_uint_eq(out.group_mgmt_cipher, RSN_CIPHER_BIP_CMAC_128);
}
END_TEST

START_TEST(test_rsn_extra_octets_and_bad_input)
{
	/* An RSNE with two unknown octets after the group management cipher
	 * is accepted; the octets are reported, not lost silently. */
	static const uint8_t body[] = { 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00,
					0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f,
					0xac, 0x08, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x0f,
					0xac, 0x06, 0xab, 0xcd };
	struct ie_rsn out;
	uint8_t buf[64];
	struct wbuf w = wbuf_init(buf, sizeof(buf));

	ck_assert_int_eq(ie_parse_rsn(body, sizeof(body), &out), CODEC_OK);
	ck_assert_uint_eq(out.extra_len, 2);
	ck_assert_uint_eq(out.extra[0], 0xab);
	ck_assert_int_eq(out.present, IE_RSN_UPTO_GROUP_MGMT);
	ck_assert_uint_eq(out.n_pmkid, 0);

	out.n_akm = 0; /* a written list must not be empty */
	ck_assert_int_eq(ie_build_rsn(&w, &out), CODEC_E_INVALID_ARG);
	ck_assert(w.bad); /* the half-written element is not usable */
	out.n_akm = IE_RSN_MAX_SUITES + 1;
	ck_assert_int_eq(ie_build_rsn(&w, &out), CODEC_E_INVALID_ARG);
}
END_TEST

START_TEST(test_wpa_element)
{
	static const uint8_t wpa_elem[] = { 0xdd, 0x16, 0x00, 0x50, 0xf2, 0x01, 0x01, 0x00,
					    0x00, 0x50, 0xf2, 0x02, 0x01, 0x00, 0x00, 0x50,
					    0xf2, 0x02, 0x01, 0x00, 0x00, 0x50, 0xf2, 0x02 };
	struct ie_set s;
	uint8_t buf[64];
	struct wbuf w = wbuf_init(buf, sizeof(buf));

	ck_assert_int_eq(ie_parse(wpa_elem, sizeof(wpa_elem), &s), CODEC_OK);
	ck_assert(s.has_wpa);
	ck_assert_uint_eq(s.wpa.group_cipher, WPA_CIPHER_TKIP);
	ck_assert_uint_eq(s.wpa.pairwise[0], WPA_CIPHER_TKIP);
	ck_assert_uint_eq(s.wpa.akm[0], WPA_AKM_PSK);
	ck_assert_int_eq(s.wpa.present, IE_RSN_UPTO_AKM);
	ck_assert_ptr_eq(s.wpa_elem, wpa_elem);
	ck_assert_uint_eq(s.wpa_elem_len, sizeof(wpa_elem));
	ck_assert_int_eq(ie_build_wpa(&w, &s.wpa), CODEC_OK);
	ck_assert_uint_eq(w.len, sizeof(wpa_elem));
	ck_assert_mem_eq(buf, wpa_elem, sizeof(wpa_elem));

	s.wpa.present = IE_RSN_UPTO_PMKID; /* WPA has no PMKID list */
	ck_assert_int_eq(ie_build_wpa(&w, &s.wpa), CODEC_E_INVALID_ARG);
}
END_TEST

START_TEST(test_rsnxe)
{
	uint8_t buf[16];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct ie_rsnxe x;

	ck_assert_int_eq(ie_build_rsnxe(&w, 1u << RSNX_CAPAB_SAE_H2E), CODEC_OK);
	ck_assert_mem_eq(buf, "\xf4\x01\x20", 3);
	struct ie_elem e = only_elem(buf, w.len);
	ck_assert_int_eq(ie_parse_rsnxe(e.data, e.len, &x), CODEC_OK);
	ck_assert(ie_rsnxe_has(&x, RSNX_CAPAB_SAE_H2E));
	ck_assert(!ie_rsnxe_has(&x, RSNX_CAPAB_SAE_PK));
	ck_assert(!ie_rsnxe_has(&x, RSNX_CAPAB_SECURE_LTF));

	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_rsnxe(&w, 1u << RSNX_CAPAB_SECURE_LTF | 1u << RSNX_CAPAB_SAE_PK),
			 CODEC_OK);
	ck_assert_mem_eq(buf, "\xf4\x02\x41\x01", 4);
	e = only_elem(buf, w.len);
	ck_assert_int_eq(ie_parse_rsnxe(e.data, e.len, &x), CODEC_OK);
	ck_assert(ie_rsnxe_has(&x, RSNX_CAPAB_SECURE_LTF));
	ck_assert_uint_eq(x.capab, 0x0141);
}
END_TEST

START_TEST(test_wmm_round_trip)
{
	uint8_t buf[64], again[64];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct ie_wmm wmm = { .subtype = WMM_SUBTYPE_INFO, .version = 1, .qos_info = 0x0f };
	struct ie_wmm out;

	ck_assert_int_eq(ie_build_wmm(&w, &wmm), CODEC_OK);
	struct ie_elem e = only_elem(buf, w.len);
	ck_assert_uint_eq(e.len, IE_WMM_INFO_LEN);
	ck_assert_int_eq(ie_parse_wmm(e.data, e.len, &out), CODEC_OK);
	ck_assert_uint_eq(out.qos_info, 0x0f);

	wmm.subtype = WMM_SUBTYPE_PARAM;
	wmm.qos_info = 0x81;
	for (uint8_t i = 0; i < 4; i++) {
		wmm.ac[i] = (struct ie_wmm_ac){ .aci = i, .aifsn = (uint8_t)(7 - i), .acm = i == 3,
						 .ecw_min = (uint8_t)(4 - i), .ecw_max = 10,
						 .txop_limit = (uint16_t)(i * 47) };
	}
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_wmm(&w, &wmm), CODEC_OK);
	e = only_elem(buf, w.len);
	ck_assert_uint_eq(e.len, IE_WMM_PARAM_LEN);
	ck_assert_int_eq(ie_parse_wmm(e.data, e.len, &out), CODEC_OK);
	ck_assert_mem_eq(&out.ac[3], &wmm.ac[3], sizeof(wmm.ac[3]));
	ck_assert(out.ac[3].acm);
	ck_assert_uint_eq(out.ac[2].txop_limit, 94);
	struct wbuf w2 = wbuf_init(again, sizeof(again));
	ck_assert_int_eq(ie_build_wmm(&w2, &out), CODEC_OK);
	ck_assert_mem_eq(again, buf, w.len);

	wmm.ac[1].aci = 0; /* two records for AC_BE */
	ck_assert_int_eq(ie_build_wmm(&w2, &wmm), CODEC_E_INVALID_ARG);
}
END_TEST

START_TEST(test_ht_vht_round_trip)
{
	uint8_t buf[128], again[128];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct ie_ht_cap ht = { .cap_info = 0x19ef, .ampdu_params = 0x17, .ext_cap = 0x0400,
				.txbf_cap = 0x01020304, .asel_cap = 1 };
	struct ie_ht_op op = { .primary_channel = 36, .sec_chan_offset = HT_OP_SEC_CHAN_ABOVE,
			       .sta_chan_width_any = true, .op_info = { 0, 0x04, 0, 0, 0 } };
	struct ie_vht_cap vht = { .cap_info = 0x338b79b2, .rx_mcs_map = 0xfffa,
				  .tx_mcs_map = 0xfffa, .rx_highest = 780 };
	struct ie_vht_op vop = { .chan_width = 1, .center_seg0 = 42, .basic_mcs_map = 0xfffc };
	struct ie_set s;

	ht.mcs_set[0] = 0xff;
	ht.mcs_set[1] = 0xff;
	op.basic_mcs_set[0] = 0xff;
	ck_assert_int_eq(ie_build_ht_cap(&w, &ht), CODEC_OK);
	ck_assert_int_eq(ie_build_ht_op(&w, &op), CODEC_OK);
	ck_assert_int_eq(ie_build_vht_cap(&w, &vht), CODEC_OK);
	ck_assert_int_eq(ie_build_vht_op(&w, &vop), CODEC_OK);
	ck_assert_uint_eq(w.len, 28 + 24 + 14 + 7);
	ck_assert_int_eq(ie_parse(buf, w.len, &s), CODEC_OK);
	ck_assert_mem_eq(&s.ht_cap, &ht, sizeof(ht));
	ck_assert_uint_eq(s.ht_op.primary_channel, 36);
	ck_assert_uint_eq(s.ht_op.sec_chan_offset, HT_OP_SEC_CHAN_ABOVE);
	ck_assert(s.ht_op.sta_chan_width_any);
	ck_assert_uint_eq(s.ht_op.op_info[0], 0x05);
	ck_assert_uint_eq(s.ht_op.op_info[1], 0x04);
	ck_assert_uint_eq(s.ht_op.basic_mcs_set[0], 0xff);
	ck_assert_mem_eq(&s.vht_cap, &vht, sizeof(vht));
	ck_assert_mem_eq(&s.vht_op, &vop, sizeof(vop));

	struct wbuf w2 = wbuf_init(again, sizeof(again));
	ck_assert_int_eq(ie_build_ht_cap(&w2, &s.ht_cap), CODEC_OK);
	ck_assert_int_eq(ie_build_ht_op(&w2, &s.ht_op), CODEC_OK);
	ck_assert_int_eq(ie_build_vht_cap(&w2, &s.vht_cap), CODEC_OK);
	ck_assert_int_eq(ie_build_vht_op(&w2, &s.vht_op), CODEC_OK);
	ck_assert_mem_eq(again, buf, w.len);

	op.sec_chan_offset = 2;
	ck_assert_int_eq(ie_build_ht_op(&w2, &op), CODEC_E_INVALID_ARG);
	vop.chan_width = 4;
	ck_assert_int_eq(ie_build_vht_op(&w2, &vop), CODEC_E_INVALID_ARG);
}
END_TEST

START_TEST(test_he_cap_round_trip)
{
	uint8_t mac[6] = { 1, 2, 3, 4, 5, 6 };
	uint8_t phy[11] = { 0 };
	uint8_t mcs[12] = { 0xfa, 0xff, 0xfa, 0xff, 0xfa, 0xff, 0xfa, 0xff, 0xfa, 0xff, 0xfa, 0xff };
	/* NSTS 1 (2 streams), RU bitmask 0b0011: 7 + 2*2*6 = 31 bits -> 4 octets */
	uint8_t ppe[4] = { 0x19, 0x1c, 0xc7, 0x71 };
	struct ie_he_cap he = { .mac_cap = mac, .phy_cap = phy, .mcs_nss = mcs, .mcs_nss_len = 4 };
	uint8_t buf[64];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct ie_set s;

	ck_assert_int_eq(ie_build_he_cap(&w, &he), CODEC_OK);
	ck_assert_uint_eq(w.len, 2 + 1 + 21);
	ck_assert_int_eq(ie_parse(buf, w.len, &s), CODEC_OK);
	ck_assert(s.has_he_cap);
	ck_assert_uint_eq(s.he_cap.mcs_nss_len, 4);
	ck_assert_ptr_null(s.he_cap.ppe);
	ck_assert_mem_eq(s.he_cap.mac_cap, mac, 6);

	phy[0] = HE_PHY_CAP0_WIDTH_160_5G | HE_PHY_CAP0_WIDTH_80P80_5G;
	phy[6] = HE_PHY_CAP6_PPE_THRESHOLDS;
	he.mcs_nss_len = 12;
	he.ppe = ppe;
	he.ppe_len = 4;
	ck_assert_uint_eq(ie_he_ppe_len(ppe[0]), 4);
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_he_cap(&w, &he), CODEC_OK);
	ck_assert_uint_eq(w.len, 2 + 1 + 6 + 11 + 12 + 4);
	ck_assert_int_eq(ie_parse(buf, w.len, &s), CODEC_OK);
	ck_assert_uint_eq(s.he_cap.mcs_nss_len, 12);
	ck_assert_uint_eq(s.he_cap.ppe_len, 4);
	ck_assert_mem_eq(s.he_cap.ppe, ppe, 4);

	he.mcs_nss_len = 8; /* inconsistent with the PHY width bits */
	ck_assert_int_eq(ie_build_he_cap(&w, &he), CODEC_E_INVALID_ARG);
}
END_TEST

START_TEST(test_mde_fte_round_trip)
{
	static const uint8_t anonce[32] = { 0xa0, [31] = 0xa1 };
	static const uint8_t snonce[32] = { 0x50, [31] = 0x51 };
	static const uint8_t r1kh[6] = { 0x02, 0, 0, 0, 0, 1 };
	static const uint8_t rsc[8] = { 5 };
	static const uint8_t wrapped[24] = { 0x77 };
	static const uint8_t ipn[6] = { 1 };
	static const uint8_t oci[3] = { 81, 6, 0 };
	struct ie_mde mde = { .mdid = 0xa1b2, .ft_capab = MDE_FT_OVER_DS };
	struct ie_fte fte = { .mic_len = 24, .anonce = anonce, .snonce = snonce,
			      .element_count = 3, .rsnxe_used = true, .r1kh_id = r1kh,
			      .r0kh_id = (const uint8_t *)"r0kh.example", .r0kh_id_len = 12,
			      .has_gtk = true, .gtk = { .key_info = 1, .key_len = 16, .rsc = rsc,
							.wrapped = wrapped, .wrapped_len = 24 },
			      .has_igtk = true, .igtk = { .key_id = 4, .ipn = ipn, .key_len = 16,
							  .wrapped = wrapped, .wrapped_len = 24 },
			      .oci = oci, .oci_len = 3 };
	uint8_t buf[256], again[256];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct ie_set s;
	struct ie_fte out;
	size_t mic_off;

	ck_assert_int_eq(ie_build_mde(&w, &mde), CODEC_OK);
	ck_assert_mem_eq(buf, "\x36\x03\xb2\xa1\x01", 5);
	ck_assert_int_eq(ie_build_fte(&w, &fte, &mic_off), CODEC_OK);
	ck_assert_uint_eq(mic_off, 5 + 2 + 2);
	ck_assert_int_eq(ie_parse(buf, w.len, &s), CODEC_OK);
	ck_assert_uint_eq(s.mde.mdid, 0xa1b2);
	ck_assert_uint_eq(s.mde.ft_capab, MDE_FT_OVER_DS);
	ck_assert_ptr_nonnull(s.fte);

	/* The MIC Length subfield says 24; auto-detect and explicit agree. */
	ck_assert_int_eq(ie_parse_fte(s.fte, s.fte_len, 0, &out), CODEC_OK);
	ck_assert_uint_eq(out.mic_len, 24);
	ck_assert_int_eq(ie_parse_fte(s.fte, s.fte_len, 24, &out), CODEC_OK);
	ck_assert(out.rsnxe_used);
	ck_assert_uint_eq(out.element_count, 3);
	ck_assert_mem_eq(out.anonce, anonce, 32);
	ck_assert_mem_eq(out.snonce, snonce, 32);
	ck_assert_mem_eq(out.r1kh_id, r1kh, 6);
	ck_assert_uint_eq(out.r0kh_id_len, 12);
	ck_assert_mem_eq(out.r0kh_id, "r0kh.example", 12);
	ck_assert(out.has_gtk);
	ck_assert_uint_eq(out.gtk.key_len, 16);
	ck_assert_mem_eq(out.gtk.rsc, rsc, 8);
	ck_assert(out.has_igtk);
	ck_assert_uint_eq(out.igtk.key_id, 4);
	ck_assert_uint_eq(out.oci_len, 3);
	ck_assert(!out.has_bigtk);

	struct wbuf w2 = wbuf_init(again, sizeof(again));
	ck_assert_int_eq(ie_build_mde(&w2, &s.mde), CODEC_OK);
	ck_assert_int_eq(ie_build_fte(&w2, &out, NULL), CODEC_OK);
	ck_assert_uint_eq(w2.len, w.len);
	ck_assert_mem_eq(again, buf, w.len);

	/* Minimal FTE with a 16-octet MIC */
	struct ie_fte small = { .mic_len = 16 };
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_fte(&w, &small, NULL), CODEC_OK);
	ck_assert_uint_eq(w.len, 2 + 82);
	ck_assert_int_eq(ie_parse_fte(buf + 2, 82, 16, &out), CODEC_OK);
	ck_assert_ptr_null(out.r1kh_id);
	ck_assert_int_eq(ie_parse_fte(buf + 2, 82, 20, &out), CODEC_E_INVALID_ARG);
	small.mic_len = 20;
	ck_assert_int_eq(ie_build_fte(&w, &small, NULL), CODEC_E_INVALID_ARG);
}
END_TEST

START_TEST(test_duplicate_policy)
{
	/* Unknown elements and unrelated vendor elements may repeat; WMM
	 * TSPEC is skipped; a second RSNE is refused and reported. */
	static const uint8_t ok[] = {
		0x2a, 0x01, 0x00, 0x2a, 0x01, 0x00,                   /* ERP twice */
		0xdd, 0x05, 0x00, 0x50, 0xf2, 0x04, 0x00,             /* WPS */
		0xdd, 0x05, 0x00, 0x50, 0xf2, 0x04, 0x00,             /* WPS again */
		0xdd, 0x06, 0x00, 0x50, 0xf2, 0x02, 0x02, 0x01,       /* WMM TSPEC */
		0xdd, 0x07, 0x00, 0x50, 0xf2, 0x02, 0x00, 0x01, 0x00, /* WMM info */
	};
	static const uint8_t dup[] = {
		0x00, 0x00, 0x30, 0x02, 0x01, 0x00, 0x03, 0x01, 0x01, 0x30, 0x02, 0x01, 0x00,
	};
	static const uint8_t dup_ext[] = {
		0xff, 0x16, 0x23, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0xff, 0x16, 0x23, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	struct ie_set s;

	ck_assert_int_eq(ie_parse(ok, sizeof(ok), &s), CODEC_OK);
	ck_assert_uint_eq(s.n_vendor, 4);
	ck_assert(s.has_wmm);
	ck_assert_uint_eq(s.wmm.subtype, WMM_SUBTYPE_INFO);

	ck_assert_int_eq(ie_parse(dup, sizeof(dup), &s), CODEC_E_DUPLICATE);
	ck_assert_uint_eq(s.bad_id, WLAN_EID_RSN);
	ck_assert_int_eq(ie_parse(dup_ext, sizeof(dup_ext), &s), CODEC_E_DUPLICATE);
	ck_assert_uint_eq(s.bad_id, WLAN_EID_EXTENSION);
	ck_assert_uint_eq(s.bad_ext_id, WLAN_EID_EXT_HE_CAP);
}
END_TEST

Suite *make_codec_ie_suite(void)
{
	Suite *s = suite_create("codec_ie");
	TCase *tc = tcase_create("framing");

	tcase_add_test(tc, test_iterator_and_find);
	tcase_add_test(tc, test_vendor_body_is_opaque);
	tcase_add_test(tc, test_generic_builders);
	tcase_add_test(tc, test_duplicate_policy);
	suite_add_tcase(s, tc);

	tc = tcase_create("elements");
	tcase_add_test(tc, test_ssid_rates_ds);
	tcase_add_test(tc, test_tim_country_ext_capab);
	tcase_add_test(tc, test_rsn_every_truncation_point);
	tcase_add_test(tc, test_rsn_extra_octets_and_bad_input);
	tcase_add_test(tc, test_wpa_element);
	tcase_add_test(tc, test_rsnxe);
	tcase_add_test(tc, test_wmm_round_trip);
	tcase_add_test(tc, test_ht_vht_round_trip);
	tcase_add_test(tc, test_he_cap_round_trip);
	tcase_add_test(tc, test_mde_fte_round_trip);
	suite_add_tcase(s, tc);
	return s;
}
