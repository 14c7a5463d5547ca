/* The supplicant against a real captured 4-way handshake.
 *
 * Source: the Wireshark project's public sample capture "wpa-Induction.pcap"
 * (wiki.wireshark.org/SampleCaptures): SSID "Coherer", passphrase
 * "Induction", AP 00:0c:41:82:b2:55, station 00:0d:93:82:36:3a, WPA2-PSK
 * with CCMP pairwise and TKIP group cipher. The EAPOL frames below are the
 * four handshake messages from that capture (802.11 and LLC headers
 * removed), and the station's RSNE and the AP's Beacon RSNE come from the
 * same capture.
 *
 * Fed the captured message 1 and, as its SNonce, the SNonce the real station
 * chose, our supplicant must produce the captured message 2, accept the
 * captured message 3, and answer with the captured message 4, installing
 * the TK and TKIP GTK the capture implies. The one field where we differ on
 * purpose is Key Length in messages 2 and 4: that 2007 station echoed the
 * AP's 16, 802.11-2020 12.7.6.3/12.7.6.5 (and current hostap and iwd) send 0.
 * So our frames must equal the captured ones everywhere but Key Length and
 * the MIC, carry a MIC that verifies with the KCK the capture implies (whose
 * own MICs are checked first), and give the captured MIC back once Key
 * Length is set to the captured value.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/codec/eapol.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/crypto/eapol_mic.h"
#include "daemon/crypto/kdf.h"
#include "daemon/crypto/keywrap.h"
#include "daemon/crypto/ptk.h"
#include "daemon/rsn/rsn_key.h"
#include "tests/unit/test_rsn_shim.h"

static const uint8_t ap_addr[6] = { 0x00, 0x0c, 0x41, 0x82, 0xb2, 0x55 };
static const uint8_t sta_addr[6] = { 0x00, 0x0d, 0x93, 0x82, 0x36, 0x3a };

static const uint8_t anonce[32] = {
	0x3e, 0x8e, 0x96, 0x7d, 0xac, 0xd9, 0x60, 0x32, 0x4c, 0xac, 0x5b,
	0x6a, 0xa7, 0x21, 0x23, 0x5b, 0xf5, 0x7b, 0x94, 0x97, 0x71, 0xc8,
	0x67, 0x98, 0x9f, 0x49, 0xd0, 0x4e, 0xd4, 0x7c, 0x69, 0x33,
};

static const uint8_t snonce[32] = {
	0xcd, 0xf4, 0x05, 0xce, 0xb9, 0xd8, 0x89, 0xef, 0x3d, 0xec, 0x42,
	0x60, 0x98, 0x28, 0xfa, 0xe5, 0x46, 0xb7, 0xad, 0xd7, 0xba, 0xec,
	0xbb, 0x1a, 0x39, 0x4e, 0xac, 0x52, 0x14, 0xb1, 0xd3, 0x86,
};

/* The station's RSNE (in its Association Request and in message 2). */
static const uint8_t sta_rsne[] = {
	0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x01, 0x00, 0x00, 0x0f,
	0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x00, 0x00,
};

/* The AP's Beacon RSNE: TKIP group, CCMP and TKIP pairwise, PSK. */
static const uint8_t ap_rsne[] = {
	0x30, 0x18, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x02, 0x00, 0x00, 0x0f, 0xac, 0x04,
	0x00, 0x0f, 0xac, 0x02, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x00, 0x00,
};

static const char msg1_hex[] =
	"0203007502008a00100000000000000000"
	"3e8e967dacd960324cac5b6aa721235bf57b949771c867989f49d04ed47c6933"
	"00000000000000000000000000000000" "0000000000000000" "0000000000000000"
	"00000000000000000000000000000000"
	"0016dd14000fac04592da88096c461da246c69001e877f3d";

static const char msg2_hex[] =
	"0203007502010a00100000000000000000"
	"cdf405ceb9d889ef3dec42609828fae546b7add7baecbb1a394eac5214b1d386"
	"00000000000000000000000000000000" "0000000000000000" "0000000000000000"
	"a462a7029ad5ba30b6af0df391988e45"
	"001630140100000fac020100000fac040100000fac020000";

static const char msg3_hex[] =
	"020300af0213ca00100000000000000001"
	"3e8e967dacd960324cac5b6aa721235bf57b949771c867989f49d04ed47c6933"
	"f57b949771c867989f49d04ed47c6934" "cf02000000000000" "0000000000000000"
	"7d0af6df51e99cde7a187453f0f93537"
	"0050cfa72cde35b2c1e2319255806ab364179fd9673041b9a5939fa1a2010d2ac794"
	"e25168055f794ddc1fdfae3521f4446bfd11da98345f543df6ce199df8fe48f8cdd1"
	"7adca87bf45711183c496d41aa0c";

static const char msg4_hex[] =
	"0203005f02030a00100000000000000001"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"00000000000000000000000000000000" "0000000000000000" "0000000000000000"
	"10bba3bdfbcfde2bc537509d71f2ecd1"
	"0000";

/* PMK, KCK, KEK, TK and GTK as the capture implies them. */
static const char pmk_hex[] = "a288fcf0caaacda9a9f58633ff35e8992a01d9c10ba5e02efdf8cb5d730ce7bc";
static const char kck_hex[] = "b1cd792716762903f723424cd7d16511";
static const char kek_hex[] = "82a644133bfa4e0b75d96d2308358433";
static const char tk_hex[] = "15798d511beae0028313c8ab32f12c7e";
static const char gtk_hex[] = "ee22041a83853263474c38811352282071c122359b7c35a7e7d034f3cd6ac565";

static size_t unhex(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = strlen(hex) / 2;

	ck_assert_uint_le(n, cap);
	for (size_t i = 0; i < n; i++) {
		unsigned int v;
		ck_assert_int_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

static void derive(struct crypto_ptk *ptk, uint8_t pmk[32])
{
	static const struct crypto_ptk_spec spec = { CRYPTO_PTK_PRF_SHA1, 16, 16, 16, 0 };

	ck_assert_int_eq(crypto_psk_from_passphrase("Induction", (const uint8_t *)"Coherer", 7,
						    pmk), 0);
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 32, ap_addr, sta_addr, anonce, snonce, ptk),
			 0);
}

START_TEST(capture_keys_and_mics)
{
	uint8_t pmk[32], want[64], frame[256];
	struct crypto_ptk ptk;
	size_t n;

	derive(&ptk, pmk);
	unhex(pmk_hex, want, sizeof(want));
	ck_assert_mem_eq(pmk, want, 32);
	unhex(kck_hex, want, sizeof(want));
	ck_assert_mem_eq(ptk.kck, want, 16);
	unhex(kek_hex, want, sizeof(want));
	ck_assert_mem_eq(ptk.kek, want, 16);
	unhex(tk_hex, want, sizeof(want));
	ck_assert_mem_eq(ptk.tk, want, 16);

	/* the captured MICs of messages 2, 3 and 4 verify with that KCK */
	const char *msgs[] = { msg2_hex, msg3_hex, msg4_hex };
	for (int i = 0; i < 3; i++) {
		n = unhex(msgs[i], frame, sizeof(frame));
		ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck,
							 16, frame, n), 0);
		frame[n - 1] ^= 1;
		ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck,
							 16, frame, n), -EBADMSG);
	}
}
END_TEST

/* Our last frame equals the captured one but for Key Length (0, captured
 * 16) and the MIC, which verifies with the capture's KCK; with the captured
 * Key Length put back, our KCK gives exactly the captured MIC. */
static void assert_like_capture(const struct shim_side *side, const struct crypto_ptk *ptk,
				const uint8_t *want, size_t n)
{
	uint8_t ours[256], mic[16];
	size_t len = shim_copy_sent(side, 0, ours);

	ck_assert_uint_eq(len, n);
	ck_assert_uint_eq(ours[KF_KEY_LEN], 0);
	ck_assert_uint_eq(ours[KF_KEY_LEN + 1], 0);
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk->kck, 16,
						 ours, len), 0);
	ours[KF_KEY_LEN + 1] = want[KF_KEY_LEN + 1];
	ck_assert_int_eq(crypto_eapol_mic_compute(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk->kck, 16,
						  ours, len, mic), 0);
	memcpy(ours + KF_MIC, mic, 16);
	ck_assert_mem_eq(ours, want, n);
}

START_TEST(supplicant_replays_capture)
{
	uint8_t pmk[32], frame[256], want[256];
	struct crypto_ptk ptk;
	struct shim s = { 0 };
	size_t n;

	derive(&ptk, pmk);
	s.loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	s.sta_side = (struct shim_side){ .shim = &s, .nonces = snonce, .n_nonces = 1 };
	struct rsn_config cfg = {
		.akm = RSN_AKM_PSK,
		.pairwise_cipher = RSN_CIPHER_CCMP_128,
		.group_cipher = RSN_CIPHER_TKIP,
		.pmk = pmk,
		.pmk_len = 32,
		.sta_rsne = sta_rsne,
		.sta_rsne_len = sizeof(sta_rsne),
		.ap_rsne = ap_rsne,
		.ap_rsne_len = sizeof(ap_rsne),
	};
	memcpy(cfg.own_addr, sta_addr, 6);
	memcpy(cfg.peer_addr, ap_addr, 6);
	s.sta = rsn_supp_new(s.loop, &cfg, &shim_ops, &s.sta_side);
	ck_assert_ptr_nonnull(s.sta);
	rsn_supp_start(s.sta);

	/* message 1 in, the captured message 2 out */
	n = unhex(msg1_hex, frame, sizeof(frame));
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, frame, n), RSN_RX_OK);
	ck_assert_uint_eq(s.sta_side.sent, 1);
	n = unhex(msg2_hex, want, sizeof(want));
	assert_like_capture(&s.sta_side, &ptk, want, n);

	/* message 3 in, the captured message 4 out, keys installed */
	n = unhex(msg3_hex, frame, sizeof(frame));
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, frame, n), RSN_RX_OK);
	ck_assert_uint_eq(s.sta_side.sent, 2);
	n = unhex(msg4_hex, want, sizeof(want));
	assert_like_capture(&s.sta_side, &ptk, want, n);

	ck_assert_uint_eq(s.sta_side.ptk_installs, 1);
	ck_assert_uint_eq(s.sta_side.tk_cipher, RSN_CIPHER_CCMP_128);
	unhex(tk_hex, want, sizeof(want));
	ck_assert_mem_eq(s.sta_side.tk, want, 16);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 1);
	ck_assert_uint_eq(s.sta_side.gtk_idx, 2);
	ck_assert_uint_eq(s.sta_side.gtk_len, 32);
	unhex(gtk_hex, want, sizeof(want));
	ck_assert_mem_eq(s.sta_side.gtk, want, 32);
	static const uint8_t rsc[6] = { 0xcf, 0x02, 0, 0, 0, 0 };
	ck_assert_mem_eq(s.sta_side.gtk_rsc, rsc, 6);
	ck_assert_uint_eq(s.sta_side.completes, 1);
	ck_assert(s.sta_side.authorized);

	/* the captured message 3 once more: replay counter not above, dropped */
	n = unhex(msg3_hex, frame, sizeof(frame));
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, frame, n), RSN_RX_E_REPLAY);
	rsn_supp_free(s.sta);
	loop_free(s.loop);
}
END_TEST

START_TEST(capture_with_wrong_passphrase)
{
	uint8_t pmk[32], frame[256];
	struct shim s = { 0 };
	size_t n;

	/* the same capture with another passphrase: message 2 goes out with a
	 * MIC that differs, and message 3 is refused for its MIC */
	ck_assert_int_eq(crypto_psk_from_passphrase("Deduction", (const uint8_t *)"Coherer", 7,
						    pmk), 0);
	s.loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	s.sta_side = (struct shim_side){ .shim = &s, .nonces = snonce, .n_nonces = 1 };
	struct rsn_config cfg = {
		.akm = RSN_AKM_PSK,
		.pairwise_cipher = RSN_CIPHER_CCMP_128,
		.group_cipher = RSN_CIPHER_TKIP,
		.pmk = pmk,
		.pmk_len = 32,
		.sta_rsne = sta_rsne,
		.sta_rsne_len = sizeof(sta_rsne),
		.ap_rsne = ap_rsne,
		.ap_rsne_len = sizeof(ap_rsne),
		.timing = { .handshake_timeout_ms = 50 },
	};
	memcpy(cfg.own_addr, sta_addr, 6);
	memcpy(cfg.peer_addr, ap_addr, 6);
	s.sta = rsn_supp_new(s.loop, &cfg, &shim_ops, &s.sta_side);
	rsn_supp_start(s.sta);
	n = unhex(msg1_hex, frame, sizeof(frame));
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, frame, n), RSN_RX_OK);
	n = unhex(msg3_hex, frame, sizeof(frame));
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, frame, n), RSN_RX_E_MIC);
	ck_assert_uint_eq(s.sta_side.sent, 1);
	while (!s.sta_side.failures)
		ck_assert_int_ge(loop_iterate(s.loop, 100), 0);
	ck_assert_int_eq(s.sta_side.failure.reason, RSN_FAIL_LIKELY_WRONG_PASSPHRASE);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 0);
	rsn_supp_free(s.sta);
	loop_free(s.loop);
}
END_TEST

/* 12.7.2: key data is padded with 0xdd then zeros to a multiple of 8
 * octets and at least 16 before the AES key wrap. */
START_TEST(key_data_padding)
{
	static const size_t lens[] = { 0, 6, 15, 16, 17, 24, 30 };
	uint8_t pmk[32], frame[RSN_FRAME_MAX], plain[RSN_KEY_DATA_MAX], data[64];
	struct crypto_ptk ptk;
	struct rsn_suite suite;
	struct rsn_config cfg = {
		.akm = RSN_AKM_PSK,
		.pairwise_cipher = RSN_CIPHER_CCMP_128,
		.group_cipher = RSN_CIPHER_CCMP_128,
	};

	derive(&ptk, pmk);
	ck_assert_int_eq(rsn_suite_init(&suite, &cfg), 0);
	memset(data, 0x30, sizeof(data));
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		struct rsn_key_tx tx = {
			.key_info = EAPOL_KEY_INFO_ACK | EAPOL_KEY_INFO_MIC |
				    EAPOL_KEY_INFO_ENCR_KEY_DATA,
			.replay_counter = 7,
			.key_data = data,
			.key_data_len = lens[i],
		};
		struct rsn_key_rx rx;
		size_t len, plen;
		ck_assert_int_eq(rsn_key_build(&suite, 2, &tx, &ptk, frame, &len), 0);
		ck_assert_int_eq(rsn_key_parse(&suite, frame, len, &rx, "test"), RSN_RX_OK);
		ck_assert_int_eq(rsn_key_verify_mic(&suite, &ptk, &rx), RSN_RX_OK);
		ck_assert_int_eq(rsn_key_decrypt(&ptk, &rx, plain, &plen), RSN_RX_OK);
		size_t want = lens[i] < 16 ? 16 : (lens[i] + 7) / 8 * 8;
		ck_assert_uint_eq(plen, want);
		ck_assert_mem_eq(plain, data, lens[i]);
		if (plen > lens[i]) {
			ck_assert_uint_eq(plain[lens[i]], 0xdd);
			for (size_t j = lens[i] + 1; j < plen; j++)
				ck_assert_uint_eq(plain[j], 0);
		}
	}
}
END_TEST

START_TEST(failure_names)
{
	ck_assert_str_eq(rsn_fail_name(RSN_FAIL_LIKELY_WRONG_PASSPHRASE),
			 "likely-wrong-passphrase");
	ck_assert_str_eq(rsn_rx_strerror(RSN_RX_E_REPLAY), "replay counter not acceptable");
	ck_assert_int_eq(rsn_fail_error_code(RSN_FAIL_TIMEOUT), WPAD_ERR_TIMEOUT);
	ck_assert_str_eq(rsn_supp_state_name(RSN_SUPP_STATE_REKEYING), "rekeying");
	ck_assert_str_eq(rsn_auth_state_name(RSN_AUTH_STATE_PTKINITNEGOTIATING),
			 "ptkinitnegotiating");
	char buf[RSN_ADDR_STR_LEN];
	ck_assert_str_eq(rsn_addr_str(ap_addr, buf), "00:0c:41:82:b2:55");
}
END_TEST

Suite *make_rsn_vectors_suite(void)
{
	Suite *s = suite_create("rsn_vectors");
	TCase *tc = tcase_create("capture");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, capture_keys_and_mics);
	tcase_add_test(tc, supplicant_replays_capture);
	tcase_add_test(tc, capture_with_wrong_passphrase);
	tcase_add_test(tc, key_data_padding);
	tcase_add_test(tc, failure_names);
	suite_add_tcase(s, tc);
	return s;
}
