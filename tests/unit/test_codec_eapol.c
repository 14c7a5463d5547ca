/* EAPOL and EAPOL-Key codec, key data KDEs. */
#include <check.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/eapol.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/kde.h"

/* Message 1 of a WPA2-PSK 4-way handshake as an AP sends it: EAPOL v2,
 * RSN descriptor, HMAC-SHA1/AES, pairwise + ACK, replay counter 1, the
 * ANonce, and a PMKID KDE in the key data. */
static const uint8_t msg1[] = {
	0x02, 0x03, 0x00, 0x75,                         /* v2, Key, 117 */
	0x02,                                           /* RSN descriptor */
	0x00, 0x8a,                                     /* key info */
	0x00, 0x10,                                     /* key length 16 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, /* replay counter */
	0x3e, 0x8e, 0x96, 0x7d, 0xac, 0xd9, 0x60, 0x32, 0x4c, 0xac, 0x5b, 0x6a, 0xa7, 0x21,
	0x23, 0x5b, 0xf5, 0x7b, 0x94, 0x97, 0x71, 0xc8, 0x67, 0x98, 0x9f, 0x49, 0xd0, 0x4e,
	0xd4, 0x7c, 0x69, 0x33,                         /* ANonce */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* IV */
	0, 0, 0, 0, 0, 0, 0, 0,                         /* RSC */
	0, 0, 0, 0, 0, 0, 0, 0,                         /* reserved */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* MIC */
	0x00, 0x16,                                     /* key data length 22 */
	0xdd, 0x14, 0x00, 0x0f, 0xac, 0x04,             /* PMKID KDE */
	0x5a, 0x2b, 0x1c, 0x0d, 0xfe, 0xed, 0xfa, 0xce, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
	0xcd, 0xef,
};

START_TEST(test_msg1_fields)
{
	struct eapol_hdr h;
	struct eapol_key k;
	struct kde_set kd;

	ck_assert_int_eq(eapol_key_frame_parse(msg1, sizeof(msg1), 16, &h, &k), CODEC_OK);
	ck_assert_uint_eq(h.version, EAPOL_VERSION_2004);
	ck_assert_uint_eq(h.type, EAPOL_TYPE_KEY);
	ck_assert_uint_eq(h.body_len, 117);
	ck_assert_uint_eq(h.padding_len, 0);
	ck_assert_uint_eq(k.descriptor, EAPOL_KEY_DESC_RSN);
	ck_assert_uint_eq(k.key_info, 0x008a);
	ck_assert_uint_eq(k.info.version, EAPOL_KEY_VER_HMAC_SHA1_AES);
	ck_assert(k.info.pairwise);
	ck_assert(k.info.ack);
	ck_assert(!k.info.mic);
	ck_assert(!k.info.install);
	ck_assert(!k.info.secure);
	ck_assert(!k.info.encrypted);
	ck_assert(!k.info.request);
	ck_assert(!k.info.error);
	ck_assert_uint_eq(k.key_length, 16);
	ck_assert(k.replay_counter == 1);
	ck_assert_mem_eq(k.nonce, msg1 + 17, 32);
	ck_assert_uint_eq(k.nonce[0], 0x3e);
	ck_assert_uint_eq(k.nonce[31], 0x33);
	ck_assert_ptr_eq(k.mic, msg1 + 81);
	ck_assert_uint_eq(k.mic_len, 16);
	ck_assert_uint_eq(k.key_data_len, 22);

	ck_assert_int_eq(kde_parse(k.key_data, k.key_data_len, &kd), CODEC_OK);
	ck_assert_ptr_nonnull(kd.pmkid);
	ck_assert_uint_eq(kd.pmkid[0], 0x5a);
	ck_assert_uint_eq(kd.pmkid[15], 0xef);
	ck_assert(!kd.has_gtk);
	ck_assert_uint_eq(kd.padding_len, 0);

	/* Rebuilding from the parsed struct gives the same octets. */
	uint8_t buf[sizeof(msg1)];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	size_t mic_off;
	ck_assert_int_eq(eapol_key_frame_build(&w, h.version, &k, &mic_off), CODEC_OK);
	ck_assert_uint_eq(w.len, sizeof(msg1));
	ck_assert_mem_eq(buf, msg1, sizeof(msg1));
	ck_assert_uint_eq(mic_off, 81);

	/* The same frame with Ethernet padding after the body. */
	uint8_t padded[sizeof(msg1) + 7] = { 0 };
	memcpy(padded, msg1, sizeof(msg1));
	ck_assert_int_eq(eapol_key_frame_parse(padded, sizeof(padded), 16, &h, &k), CODEC_OK);
	ck_assert_uint_eq(h.padding_len, 7);
}
END_TEST

START_TEST(test_key_info_bits)
{
	static const struct {
		uint16_t bit;
		size_t field;
	} bits[] = {
		{ EAPOL_KEY_INFO_PAIRWISE, offsetof(struct eapol_key_info, pairwise) },
		{ EAPOL_KEY_INFO_INSTALL, offsetof(struct eapol_key_info, install) },
		{ EAPOL_KEY_INFO_ACK, offsetof(struct eapol_key_info, ack) },
		{ EAPOL_KEY_INFO_MIC, offsetof(struct eapol_key_info, mic) },
		{ EAPOL_KEY_INFO_SECURE, offsetof(struct eapol_key_info, secure) },
		{ EAPOL_KEY_INFO_ERROR, offsetof(struct eapol_key_info, error) },
		{ EAPOL_KEY_INFO_REQUEST, offsetof(struct eapol_key_info, request) },
		{ EAPOL_KEY_INFO_ENCR_KEY_DATA, offsetof(struct eapol_key_info, encrypted) },
		{ EAPOL_KEY_INFO_SMK, offsetof(struct eapol_key_info, smk) },
	};

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		struct eapol_key_info info = eapol_key_info_decode(bits[i].bit);
		const bool *flag = (const bool *)((const uint8_t *)&info + bits[i].field);
		ck_assert(*flag);
		ck_assert_uint_eq(eapol_key_info_encode(&info), bits[i].bit);
	}
	/* message 3: version 2, pairwise, install, ack, MIC, secure, encrypted */
	struct eapol_key_info m3 = eapol_key_info_decode(0x13ca);
	ck_assert_uint_eq(m3.version, 2);
	ck_assert(m3.pairwise && m3.install && m3.ack && m3.mic && m3.secure && m3.encrypted);
	ck_assert(!m3.request && !m3.error && !m3.smk);
	ck_assert_uint_eq(eapol_key_info_encode(&m3), 0x13ca);
	/* WPA group key index lives in bits 4-5 */
	struct eapol_key_info wpa = eapol_key_info_decode(0x0392);
	ck_assert_uint_eq(wpa.wpa_key_index, 1);
	ck_assert_uint_eq(eapol_key_info_encode(&wpa), 0x0392);
}
END_TEST

static void key_round_trip(size_t mic_len, uint8_t descriptor, uint16_t key_info)
{
	static const uint8_t nonce[32] = { 9, 8, 7, [31] = 1 };
	static const uint8_t rsc[8] = { 0x10 };
	static const uint8_t kd[24] = { 0x30, 0x02, 0x01, 0x00, [23] = 0xee };
	struct eapol_key k = { .descriptor = descriptor, .key_info = key_info, .key_length = 32,
			       .replay_counter = 0x0102030405060708ull, .nonce = nonce,
			       .rsc = rsc, .mic_len = mic_len, .key_data = kd,
			       .key_data_len = sizeof(kd) };
	uint8_t buf[256], again[256];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct eapol_hdr h;
	struct eapol_key p;
	size_t mic_off;

	ck_assert_int_eq(eapol_key_frame_build(&w, EAPOL_VERSION_2010, &k, &mic_off), CODEC_OK);
	ck_assert_uint_eq(w.len, EAPOL_HDR_LEN + EAPOL_KEY_FIXED_LEN + mic_len + sizeof(kd));
	ck_assert_uint_eq(mic_off, EAPOL_HDR_LEN + 1 + 2 + 2 + 8 + 32 + 16 + 8 + 8);
	memset(buf + mic_off, 0xcc, mic_len); /* as if the MIC was filled in */
	ck_assert_int_eq(eapol_key_frame_parse(buf, w.len, mic_len, &h, &p), CODEC_OK);
	ck_assert_uint_eq(h.version, EAPOL_VERSION_2010);
	ck_assert_uint_eq(p.key_info, key_info);
	ck_assert(p.replay_counter == 0x0102030405060708ull);
	ck_assert_mem_eq(p.nonce, nonce, 32);
	ck_assert_mem_eq(p.rsc, rsc, 8);
	ck_assert_uint_eq(p.mic_len, mic_len);
	if (mic_len)
		ck_assert_uint_eq(p.mic[mic_len - 1], 0xcc);
	ck_assert_uint_eq(p.key_data_len, sizeof(kd));
	ck_assert_mem_eq(p.key_data, kd, sizeof(kd));

	struct wbuf w2 = wbuf_init(again, sizeof(again));
	ck_assert_int_eq(eapol_key_frame_build(&w2, h.version, &p, NULL), CODEC_OK);
	ck_assert_mem_eq(again, buf, w.len);
}

START_TEST(test_key_frame_round_trips)
{
	key_round_trip(16, EAPOL_KEY_DESC_RSN, 0x010a);  /* msg 2 */
	key_round_trip(16, EAPOL_KEY_DESC_RSN, 0x13ca);  /* msg 3, 24-octet wrapped data */
	key_round_trip(24, EAPOL_KEY_DESC_RSN, 0x0388);  /* Suite B 192 */
	key_round_trip(0, EAPOL_KEY_DESC_RSN, 0x1388);   /* FILS: no MIC */
	key_round_trip(32, EAPOL_KEY_DESC_RSN, 0x0308);
	key_round_trip(16, EAPOL_KEY_DESC_WPA, 0x0109);  /* WPA, version 1 */
}
END_TEST

START_TEST(test_key_build_errors)
{
	struct eapol_key k = { .descriptor = EAPOL_KEY_DESC_RSN, .mic_len = 20 };
	uint8_t buf[200];
	struct wbuf w = wbuf_init(buf, sizeof(buf));

	ck_assert_int_eq(eapol_key_frame_build(&w, 2, &k, NULL), CODEC_E_INVALID_ARG);
	k.mic_len = 16;
	k.key_data_len = 4; /* no key data pointer */
	ck_assert_int_eq(eapol_key_frame_build(&w, 2, &k, NULL), CODEC_E_INVALID_ARG);
	k.key_data_len = 0;
	w = wbuf_init(buf, 50);
	ck_assert_int_eq(eapol_key_frame_build(&w, 2, &k, NULL), CODEC_E_NOSPACE);

	struct eapol_key p;
	ck_assert_int_eq(eapol_key_parse(msg1 + 4, sizeof(msg1) - 4, 12, &p), CODEC_E_INVALID_ARG);
}
END_TEST

START_TEST(test_eapol_header)
{
	static const uint8_t start[] = { 0x01, 0x01, 0x00, 0x00 };
	static const uint8_t eap_req[] = { 0x02, 0x00, 0x00, 0x05, 0x01, 0x01, 0x00, 0x05, 0x01,
					   0x00, 0x00 }; /* EAP Request/Identity + 2 pad */
	struct eapol_hdr h;
	uint8_t buf[16];
	struct wbuf w = wbuf_init(buf, sizeof(buf));

	ck_assert_int_eq(eapol_parse(start, sizeof(start), &h), CODEC_OK);
	ck_assert_uint_eq(h.type, EAPOL_TYPE_START);
	ck_assert_uint_eq(h.body_len, 0);
	ck_assert_int_eq(eapol_parse(eap_req, sizeof(eap_req), &h), CODEC_OK);
	ck_assert_uint_eq(h.type, EAPOL_TYPE_EAP);
	ck_assert_uint_eq(h.body_len, 5);
	ck_assert_uint_eq(h.body[0], 1);
	ck_assert_uint_eq(h.padding_len, 2);
	ck_assert_int_eq(eapol_build(&w, h.version, h.type, h.body, h.body_len), CODEC_OK);
	ck_assert_mem_eq(buf, eap_req, 9);
	ck_assert_int_eq(eapol_build(&w, 2, EAPOL_TYPE_LOGOFF, NULL, 0), CODEC_OK);
	ck_assert_mem_eq(buf + 9, "\x02\x02\x00\x00", 4);
	ck_assert_int_eq(eapol_build(&w, 2, EAPOL_TYPE_LOGOFF, NULL, 0), CODEC_E_NOSPACE);
	/* a non-Key packet given to the key parser */
	struct eapol_key k;
	ck_assert_int_eq(eapol_key_frame_parse(start, sizeof(start), 16, &h, &k),
			 CODEC_E_UNSUPPORTED);
}
END_TEST

/* Message 3 key data, before encryption: RSNE, a second RSNE, GTK, IGTK,
 * BIGTK, MAC address, Key ID, OCI and an unknown KDE, then padding. */
START_TEST(test_kde_build_parse)
{
	static const uint8_t gtk[16] = { 0x11, [15] = 0x1f };
	static const uint8_t igtk[16] = { 0x22 };
	static const uint8_t bigtk[32] = { 0x33 };
	static const uint8_t ipn[6] = { 1, 0, 0, 0, 0, 0 };
	static const uint8_t addr[6] = { 0x02, 1, 2, 3, 4, 5 };
	static const uint8_t pmkid[16] = { 0x44 };
	static const uint8_t oci[3] = { 81, 6, 0 };
	uint8_t buf[512];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct ie_rsn rsn;
	struct kde_set kd;

	ie_rsn_init(&rsn, RSN_AKM_PSK);
	ck_assert_int_eq(ie_build_rsn(&w, &rsn), CODEC_OK);
	size_t rsn_len = w.len;
	ck_assert_int_eq(ie_build_rsn(&w, &rsn), CODEC_OK);
	ck_assert_int_eq(kde_build_gtk(&w, 2, true, gtk, sizeof(gtk)), CODEC_OK);
	ck_assert_int_eq(kde_build_igtk(&w, 4, ipn, igtk, sizeof(igtk)), CODEC_OK);
	ck_assert_int_eq(kde_build_bigtk(&w, 7, ipn, bigtk, sizeof(bigtk)), CODEC_OK);
	ck_assert_int_eq(kde_build_mac_addr(&w, addr), CODEC_OK);
	ck_assert_int_eq(kde_build_pmkid(&w, pmkid), CODEC_OK);
	ck_assert_int_eq(kde_build(&w, KDE_KEY_ID, "\x01\x00", 2), CODEC_OK);
	ck_assert_int_eq(kde_build(&w, KDE_OCI, oci, 3), CODEC_OK);
	ck_assert_int_eq(kde_build(&w, 99, "\x01", 1), CODEC_OK);
	ck_assert_int_eq(ie_build_vendor(&w, OUI_WFA, 4, "\x01\x02", 2), CODEC_OK);
	size_t unpadded = w.len;
	ck_assert_int_eq(kde_pad(&w, 0), CODEC_OK);
	ck_assert_uint_eq(w.len % 8, 0);
	ck_assert_uint_gt(w.len, unpadded);
	ck_assert_uint_eq(buf[unpadded], KDE_PAD_OCTET);

	ck_assert_int_eq(kde_parse(buf, w.len, &kd), CODEC_OK);
	ck_assert_uint_eq(kd.n_rsn, 2);
	ck_assert_ptr_eq(kd.rsn_elem[0], buf);
	ck_assert_uint_eq(kd.rsn_elem_len[0], rsn_len);
	ck_assert_ptr_eq(kd.rsn_elem[1], buf + rsn_len);
	ck_assert(kd.has_gtk);
	ck_assert_uint_eq(kd.gtk.key_id, 2);
	ck_assert(kd.gtk.tx);
	ck_assert_uint_eq(kd.gtk.key_len, 16);
	ck_assert_mem_eq(kd.gtk.key, gtk, 16);
	ck_assert(kd.has_igtk);
	ck_assert_uint_eq(kd.igtk.key_id, 4);
	ck_assert_mem_eq(kd.igtk.ipn, ipn, 6);
	ck_assert_mem_eq(kd.igtk.key, igtk, 16);
	ck_assert(kd.has_bigtk);
	ck_assert_uint_eq(kd.bigtk.key_id, 7);
	ck_assert_uint_eq(kd.bigtk.key_len, 32);
	ck_assert_mem_eq(kd.mac_addr, addr, 6);
	ck_assert_mem_eq(kd.pmkid, pmkid, 16);
	ck_assert(kd.has_key_id);
	ck_assert_uint_eq(kd.key_id, 1);
	ck_assert_uint_eq(kd.oci_len, 3);
	ck_assert_uint_eq(kd.padding_len, w.len - unpadded);
	ck_assert_ptr_null(kd.nonce);
}
END_TEST

START_TEST(test_kde_elements_and_padding)
{
	/* WPA element, RSNXE, MDE, Timeout Interval, lone 0xdd pad octet */
	static const uint8_t kd[] = {
		0xdd, 0x16, 0x00, 0x50, 0xf2, 0x01, 0x01, 0x00, 0x00, 0x50, 0xf2, 0x02,
		0x01, 0x00, 0x00, 0x50, 0xf2, 0x02, 0x01, 0x00, 0x00, 0x50, 0xf2, 0x02,
		0xf4, 0x01, 0x20,
		0x36, 0x03, 0x12, 0x34, 0x01,
		0x38, 0x05, 0x02, 0x10, 0x0e, 0x00, 0x00,
		0xdd,
	};
	struct kde_set s;

	ck_assert_int_eq(kde_parse(kd, sizeof(kd), &s), CODEC_OK);
	ck_assert_ptr_eq(s.wpa_elem, kd);
	ck_assert_uint_eq(s.wpa_elem_len, 24);
	ck_assert_ptr_eq(s.rsnxe_elem, kd + 24);
	ck_assert_ptr_eq(s.mde_elem, kd + 27);
	ck_assert(s.has_timeout);
	ck_assert_uint_eq(s.timeout_type, 2);
	ck_assert_uint_eq(s.timeout_value, 3600);
	ck_assert_uint_eq(s.padding_len, 1);
	ck_assert_int_eq(kde_parse(NULL, 0, &s), CODEC_OK);
}
END_TEST

/* An RSNXE in key data is located whole, not decoded: hostapd's
 * rsnxe_override_eapol=F400 sends one with an empty body, which the
 * handshake must see (and find unlike the Beacon's), not reject as
 * unparsable key data. A second one is still a duplicate. */
START_TEST(test_kde_rsnxe_taken_whole)
{
	static const uint8_t empty[] = { 0xf4, 0x00, 0xdd };
	static const uint8_t bad_len_field[] = { 0xf4, 0x01, 0x21 };
	static const uint8_t twice[] = { 0xf4, 0x01, 0x20, 0xf4, 0x01, 0x20 };
	struct kde_set s;

	ck_assert_int_eq(kde_parse(empty, sizeof(empty), &s), CODEC_OK);
	ck_assert_ptr_eq(s.rsnxe_elem, empty);
	ck_assert_uint_eq(s.rsnxe_elem_len, 2);
	ck_assert_int_eq(kde_parse(bad_len_field, sizeof(bad_len_field), &s), CODEC_OK);
	ck_assert_uint_eq(s.rsnxe_elem_len, 3);
	ck_assert_int_eq(kde_parse(twice, sizeof(twice), &s), CODEC_E_DUPLICATE);
}
END_TEST

START_TEST(test_kde_pad_sizes)
{
	uint8_t buf[64];
	struct wbuf w = wbuf_init(buf, sizeof(buf));

	ck_assert_int_eq(kde_pad(&w, 0), CODEC_OK); /* empty -> 16 */
	ck_assert_uint_eq(w.len, 16);
	ck_assert_uint_eq(buf[0], 0xdd);
	ck_assert_uint_eq(buf[15], 0x00);
	wbuf_put(&w, "\x01", 1);
	ck_assert_int_eq(kde_pad(&w, 0), CODEC_OK); /* 17 -> 24 */
	ck_assert_uint_eq(w.len, 24);
	ck_assert_int_eq(kde_pad(&w, 0), CODEC_OK); /* already fine */
	ck_assert_uint_eq(w.len, 24);
	ck_assert_int_eq(kde_pad(&w, 30), CODEC_E_INVALID_ARG);
	w = wbuf_init(buf, 10);
	ck_assert_int_eq(kde_pad(&w, 0), CODEC_E_NOSPACE);

	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(kde_build_gtk(&w, 0, false, buf, 4), CODEC_E_INVALID_ARG);
	ck_assert_int_eq(kde_build_igtk(&w, 4, buf, buf, 20), CODEC_E_INVALID_ARG);
}
END_TEST

START_TEST(test_akm_mic_len)
{
	ck_assert_int_eq(rsn_akm_mic_len(RSN_AKM_PSK), 16);
	ck_assert_int_eq(rsn_akm_mic_len(RSN_AKM_SAE), 16);
	ck_assert_int_eq(rsn_akm_mic_len(RSN_AKM_OWE), 16);
	ck_assert_int_eq(rsn_akm_mic_len(RSN_AKM_8021X_SUITE_B_192), 24);
	ck_assert_int_eq(rsn_akm_mic_len(RSN_AKM_FT_8021X_SHA384), 24);
	ck_assert_int_eq(rsn_akm_mic_len(RSN_AKM_FILS_SHA256), 0);
	ck_assert_int_eq(rsn_akm_mic_len(RSN_AKM_SAE_EXT_KEY), -1);
	ck_assert_int_eq(rsn_akm_mic_len(WPA_AKM_PSK), 16);
	ck_assert_int_eq(rsn_akm_mic_len(RSN_SUITE(200)), -1);
}
END_TEST

Suite *make_codec_eapol_suite(void)
{
	Suite *s = suite_create("codec_eapol");
	TCase *tc = tcase_create("eapol");

	tcase_add_test(tc, test_msg1_fields);
	tcase_add_test(tc, test_key_info_bits);
	tcase_add_test(tc, test_key_frame_round_trips);
	tcase_add_test(tc, test_key_build_errors);
	tcase_add_test(tc, test_eapol_header);
	tcase_add_test(tc, test_akm_mic_len);
	suite_add_tcase(s, tc);

	tc = tcase_create("kde");
	tcase_add_test(tc, test_kde_build_parse);
	tcase_add_test(tc, test_kde_elements_and_padding);
	tcase_add_test(tc, test_kde_rsnxe_taken_whole);
	tcase_add_test(tc, test_kde_pad_sizes);
	suite_add_tcase(s, tc);
	return s;
}
