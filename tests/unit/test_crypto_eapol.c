/* EAPOL-Key MIC variants and key-data unwrap, end to end on published
 * 4-way handshake captures:
 *   - WPA2-PSK (key descriptor version 2, HMAC-SHA1-128 MIC): frames and
 *     parameters of iwd's unit/test-eapol.c eapol_4way_test (passphrase
 *     "EasilyGuessedPassword", SSID "TestWPA");
 *   - FT-PSK (AES-128-CMAC MIC, KDF-SHA-256 FT key hierarchy of
 *     802.11-2020 12.7.1.7): frames and parameters of iwd's
 *     eapol_ft_handshake_test;
 * and the HMAC-SHA-256-128 / HMAC-SHA-384-192 variants against HMAC itself
 * (RFC 4231-verified in the hash suite), plus the failure cases. */
#include "tests/unit/test_hex.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "daemon/crypto/crypto.h"

#define NONCE_OFF 17
#define KEY_DATA_LEN_OFF 97 /* with a 16-byte MIC */
#define KEY_DATA_OFF 99

/* --- WPA2-PSK capture (iwd unit/test-eapol.c, eapol_key_data_3..6) --- */

static const char wpa2_msg1[] =
	"0203005f02008a00100000000000000000c2bb57ab588f92ebbd44e811094f601c087986030c3ac749cc61d6"
	"3e33832e50000000000000000000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000";
static const char wpa2_msg2[] =
	"0103007502010a000000000000000000003289e91565094f329a9cd54a4a090d2cf4344683bf50efee3608b6"
	"4856800e84000000000000000000000000000000000000000000000000000000000000000001c31b82ff62a3"
	"79b08dd1fc82c2f768001630140100000fac040100000fac040100000fac020000";
static const char wpa2_msg3[] =
	"020300970213ca00100000000000000001c2bb57ab588f92ebbd44e811094f601c087986030c3ac749cc61d6"
	"3e33832e500000000000000000000000000000000000000000000000000000000000000000f535d91809731a"
	"1d290894705e919c8e00381918df1ef0e7696652e257938034e17038b98b4c45a923b7b6fa8c33e37bdcd47f"
	"eab11c226a2c5e38d5ad799405d610a69551d60be60a5b";
static const char wpa2_msg4[] =
	"0103005f02030a00000000000000000001000000000000000000000000000000000000000000000000000000"
	"000000000000000000000000000000000000000000000000000000000000000000000000009e57a4c09bafb3"
	"375e46d386cf8727530000";

START_TEST(test_wpa2_psk_capture)
{
	static const struct crypto_ptk_spec ccmp = { CRYPTO_PTK_PRF_SHA1, 16, 16, 16, 0 };
	uint8_t m1[128], m2[128], m3[160], m4[128], psk[32], want_psk[32], mic[16];
	uint8_t aa[6], spa[6], key_data[64];
	size_t l1, l2, l3, l4, kd_len;
	struct crypto_ptk ptk;

	l1 = unhex(wpa2_msg1, m1, sizeof(m1));
	l2 = unhex(wpa2_msg2, m2, sizeof(m2));
	l3 = unhex(wpa2_msg3, m3, sizeof(m3));
	l4 = unhex(wpa2_msg4, m4, sizeof(m4));
	ck_assert_uint_eq(l1, 99);
	ck_assert_uint_eq(l2, 121);
	ck_assert_uint_eq(l3, 155);
	ck_assert_uint_eq(l4, 99);
	unhex("24a2e1ec1704", aa, 6);
	unhex("a0a8cd1c7ec9", spa, 6);

	ck_assert_int_eq(crypto_psk_from_passphrase("EasilyGuessedPassword",
						    (const uint8_t *)"TestWPA", 7, psk),
			 0);
	unhex("bf9aa3155300125e7a5ebb2a549f8cd4edab8ee12e94bfc24b3357ad049665d9", want_psk, 32);
	ck_assert_mem_eq(psk, want_psk, 32);
	ck_assert_int_eq(crypto_ptk_derive(&ccmp, psk, 32, aa, spa, m1 + NONCE_OFF, m2 + NONCE_OFF,
					   &ptk),
			 0);

	/* Messages 2, 3 and 4 carry HMAC-SHA1-128 MICs under the KCK. */
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck, 16, m2, l2),
			 0);
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck, 16, m3, l3),
			 0);
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck, 16, m4, l4),
			 0);
	ck_assert_int_eq(
		crypto_eapol_mic_compute(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck, 16, m2, l2, mic), 0);
	ck_assert_mem_eq(mic, m2 + CRYPTO_EAPOL_MIC_OFFSET, 16);

	/* Message 3's Key Data is AES-key-wrapped under the KEK and starts
	 * with the AP's RSNE. */
	kd_len = (size_t)(m3[KEY_DATA_LEN_OFF] << 8 | m3[KEY_DATA_LEN_OFF + 1]);
	ck_assert_uint_eq(kd_len, 56);
	ck_assert_int_eq(crypto_aes_unwrap(ptk.kek, 16, m3 + KEY_DATA_OFF, kd_len, key_data), 0);
	ck_assert_uint_eq(key_data[0], 0x30);

	/* Negative: flipped bit anywhere (MIC field included), wrong KCK. */
	m4[10] ^= 0x01;
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck, 16, m4, l4),
			 -EBADMSG);
	m4[10] ^= 0x01;
	m4[CRYPTO_EAPOL_MIC_OFFSET + 15] ^= 0x80;
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck, 16, m4, l4),
			 -EBADMSG);
	m4[CRYPTO_EAPOL_MIC_OFFSET + 15] ^= 0x80;
	ptk.kck[0] ^= 1;
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck, 16, m4, l4),
			 -EBADMSG);
	ptk.kck[0] ^= 1;
	/* The wrong MIC algorithm for this handshake. */
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_AES_CMAC_128, ptk.kck, 16, m4, l4),
			 -EBADMSG);
	/* Unwrap with the wrong KEK. */
	ptk.kek[5] ^= 0x20;
	ck_assert_int_eq(crypto_aes_unwrap(ptk.kek, 16, m3 + KEY_DATA_OFF, kd_len, key_data),
			 -EBADMSG);
	crypto_ptk_clear(&ptk);
}
END_TEST

/* --- FT-PSK capture (iwd unit/test-eapol.c, eapol_key_data_25..28) --- */

static const char ft_msg1[] =
	"0203005f02008b0010000000000000000133b274a0aec9e85d61118f1b6b97774e5b7508374577dc1408a5f1"
	"80c5d2e9fd000000000000000000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000";
static const char ft_msg2[] =
	"020300f002010b00000000000000000001ac1eb2c70b208ce60ae207b2389e441fff39863d449f81246fe36e"
	"de0f1f56ce000000000000000000000000000000000000000000000000000000000000000079a19519e85fcf"
	"2e607d6ffbd9e804b0009130260100000fac040100000fac040100000fac0400000100dece50a09ef08c4ebe"
	"f2f1dbe967b4d436031234013762000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
	"00000000000000000106020000000000030664756d6d7930";
static const char ft_msg3[] =
	"0203011f0213cb0010000000000000000233b274a0aec9e85d61118f1b6b97774e5b7508374577dc1408a5f1"
	"80c5d2e9fd000000000000000000000000000000000000000000000000000000000000000012e36def965b07"
	"aa58ceedb15783517e00c01d411cf6354e5c0f4d0308e73b3304de5e01771cb891ef4f246484aa9442c3cb63"
	"2ded5e5fcb1aff535845d5c2115240060870d8d1f779fe37b86dd62745bc112a69052c403a06245a7aa6794b"
	"18c8bf2110a07d80897785278874070014e091a2e0a2253c26ced69f332099c6c046918a685ba0a130cd7658"
	"268103e6793bf64b2f1d738f62da22a9b4ac77ccd4d46f8031fb3d21de410970cc18a6a53eda1b6b30ced4de"
	"d4867e71d09785cca2d34c56cf1ad3fff818fd527721e9873f1430";
static const char ft_msg4[] =
	"0203005f02030b00000000000000000002000000000000000000000000000000000000000000000000000000"
	"000000000000000000000000000000000000000000000000000000000000000000000000003e853a3c83714a"
	"94e430dfb20665a1d40000";

START_TEST(test_ft_psk_capture)
{
	static const uint8_t ssid[] = "TestFT";
	static const uint8_t mdid[2] = { 0x12, 0x34 };
	static const uint8_t r0khid[] = "dummy0";
	uint8_t m1[128], m2[256], m3[320], m4[128], psk[32], sta[6], bssid[6];
	uint8_t ctx[128], r0[48], pmk_r1[32], r0name[16], r1name[16], hash[32], ptk[48];
	uint8_t key_data[192];
	size_t l1, l2, l3, l4, n, kd_len;

	l1 = unhex(ft_msg1, m1, sizeof(m1));
	l2 = unhex(ft_msg2, m2, sizeof(m2));
	l3 = unhex(ft_msg3, m3, sizeof(m3));
	l4 = unhex(ft_msg4, m4, sizeof(m4));
	ck_assert_uint_eq(l1, 99);
	ck_assert_uint_eq(l2, 244);
	ck_assert_uint_eq(l3, 291);
	ck_assert_uint_eq(l4, 99);
	unhex("bccd1798ef6cb87f2b5475fb980657d2ea026ce368ef3fcada3148543fee94f0", psk, 32);
	unhex("020000000200", sta, 6);
	unhex("020000000000", bssid, 6); /* also the R1KH-ID */

	/* R0-Key-Data = KDF-SHA-256(XXKey = PSK, "FT-R0", SSIDlength || SSID ||
	 * MDID || R0KHlength || R0KH-ID || S0KH-ID), 384 bits. */
	n = 0;
	ctx[n++] = 6;
	memcpy(ctx + n, ssid, 6);
	n += 6;
	memcpy(ctx + n, mdid, 2);
	n += 2;
	ctx[n++] = 6;
	memcpy(ctx + n, r0khid, 6);
	n += 6;
	memcpy(ctx + n, sta, 6);
	n += 6;
	ck_assert_int_eq(crypto_kdf_sha256(psk, 32, "FT-R0", ctx, n, r0, 48), 0);
	/* PMKR0Name = Truncate-128(SHA-256("FT-R0N" || PMK-R0Name-Salt)) */
	memcpy(ctx, "FT-R0N", 6);
	memcpy(ctx + 6, r0 + 32, 16);
	ck_assert_int_eq(crypto_digest(CRYPTO_HASH_SHA256, ctx, 22, hash), 0);
	memcpy(r0name, hash, 16);
	/* PMK-R1 = KDF-SHA-256(PMK-R0, "FT-R1", R1KH-ID || S1KH-ID) */
	memcpy(ctx, bssid, 6);
	memcpy(ctx + 6, sta, 6);
	ck_assert_int_eq(crypto_kdf_sha256(r0, 32, "FT-R1", ctx, 12, pmk_r1, 32), 0);
	/* PMKR1Name = Truncate-128(SHA-256("FT-R1N" || PMKR0Name || R1KH-ID ||
	 * S1KH-ID)), which message 2 carries as the PMKID in its RSNE. */
	memcpy(ctx, "FT-R1N", 6);
	memcpy(ctx + 6, r0name, 16);
	memcpy(ctx + 22, bssid, 6);
	memcpy(ctx + 28, sta, 6);
	ck_assert_int_eq(crypto_digest(CRYPTO_HASH_SHA256, ctx, 34, hash), 0);
	memcpy(r1name, hash, 16);
	ck_assert_mem_eq(r1name, m2 + KEY_DATA_OFF + 24, 16);
	/* PTK = KDF-SHA-256(PMK-R1, "FT-PTK", SNonce || ANonce || BSSID ||
	 * STA-ADDR), 384 bits: KCK | KEK | TK. */
	memcpy(ctx, m2 + NONCE_OFF, 32);
	memcpy(ctx + 32, m1 + NONCE_OFF, 32);
	memcpy(ctx + 64, bssid, 6);
	memcpy(ctx + 70, sta, 6);
	ck_assert_int_eq(crypto_kdf_sha256(pmk_r1, 32, "FT-PTK", ctx, 76, ptk, 48), 0);

	/* Key descriptor version 3: AES-128-CMAC MICs. */
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_AES_CMAC_128, ptk, 16, m2, l2), 0);
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_AES_CMAC_128, ptk, 16, m3, l3), 0);
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_AES_CMAC_128, ptk, 16, m4, l4), 0);
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk, 16, m4, l4),
			 -EBADMSG);
	m3[200] ^= 0x10;
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_AES_CMAC_128, ptk, 16, m3, l3),
			 -EBADMSG);
	m3[200] ^= 0x10;

	kd_len = (size_t)(m3[KEY_DATA_LEN_OFF] << 8 | m3[KEY_DATA_LEN_OFF + 1]);
	ck_assert_uint_eq(kd_len, 192);
	ck_assert_int_eq(crypto_aes_unwrap(ptk + 16, 16, m3 + KEY_DATA_OFF, kd_len, key_data), 0);
	ck_assert_uint_eq(key_data[0], 0x30); /* RSNE */

	crypto_zero(ptk, sizeof(ptk));
	crypto_zero(pmk_r1, sizeof(pmk_r1));
	crypto_zero(r0, sizeof(r0));
}
END_TEST

/* Builds a 4-way message 2 shaped frame with a mic_len-byte MIC field. */
static size_t make_frame(uint8_t *f, size_t mic_len, const uint8_t *mic)
{
	size_t kd = 22, len = CRYPTO_EAPOL_MIC_OFFSET + mic_len + 2 + kd;

	for (size_t i = 0; i < len; i++)
		f[i] = (uint8_t)(i * 31 + 7);
	f[0] = 2;
	f[1] = 3;
	f[2] = (uint8_t)((len - 4) >> 8);
	f[3] = (uint8_t)((len - 4) & 0xff);
	memcpy(f + CRYPTO_EAPOL_MIC_OFFSET, mic, mic_len);
	f[CRYPTO_EAPOL_MIC_OFFSET + mic_len] = 0;
	f[CRYPTO_EAPOL_MIC_OFFSET + mic_len + 1] = (uint8_t)kd;
	return len;
}

/* HMAC-SHA-256-128 and HMAC-SHA-384-192: the MIC is the leftmost 16/24
 * bytes of HMAC(KCK, frame with a zeroed MIC field). */
START_TEST(test_sha2_mic_variants)
{
	static const struct {
		enum crypto_eapol_mic_alg alg;
		enum crypto_hash_alg hash;
		size_t len;
	} v[] = {
		{ CRYPTO_EAPOL_MIC_HMAC_SHA256_128, CRYPTO_HASH_SHA256, 16 },
		{ CRYPTO_EAPOL_MIC_HMAC_SHA384_192, CRYPTO_HASH_SHA384, 24 },
	};
	uint8_t kck[24], frame[160], zeros[24] = { 0 }, full[48], mic[24];

	for (size_t i = 0; i < sizeof(kck); i++)
		kck[i] = (uint8_t)(0xc0 + i);
	for (size_t k = 0; k < 2; k++) {
		size_t len = make_frame(frame, v[k].len, zeros);

		ck_assert_uint_eq(crypto_eapol_mic_len(v[k].alg), v[k].len);
		ck_assert_uint_eq(crypto_eapol_kck_len(v[k].alg), v[k].len);
		ck_assert_int_eq(crypto_hmac(v[k].hash, kck, v[k].len, frame, len, full), 0);
		ck_assert_int_eq(crypto_eapol_mic_compute(v[k].alg, kck, v[k].len, frame, len, mic), 0);
		ck_assert_mem_eq(mic, full, v[k].len);

		/* Stale MIC-field contents do not enter the computation. */
		make_frame(frame, v[k].len, full);
		ck_assert_int_eq(crypto_eapol_mic_verify(v[k].alg, kck, v[k].len, frame, len), 0);
		frame[len - 1] ^= 1;
		ck_assert_int_eq(crypto_eapol_mic_verify(v[k].alg, kck, v[k].len, frame, len),
				 -EBADMSG);
		frame[len - 1] ^= 1;
		frame[CRYPTO_EAPOL_MIC_OFFSET + v[k].len - 1] ^= 1; /* last MIC byte */
		ck_assert_int_eq(crypto_eapol_mic_verify(v[k].alg, kck, v[k].len, frame, len),
				 -EBADMSG);
	}
}
END_TEST

START_TEST(test_mic_bad_args)
{
	uint8_t kck[24] = { 0 }, frame[160] = { 0 }, mic[24];
	size_t min16 = CRYPTO_EAPOL_MIC_OFFSET + 16 + 2;
	size_t min24 = CRYPTO_EAPOL_MIC_OFFSET + 24 + 2;

	ck_assert_int_eq(crypto_eapol_mic_compute(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, kck, 16, frame,
						  min16, mic),
			 0);
	ck_assert_int_eq(crypto_eapol_mic_compute(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, kck, 16, frame,
						  min16 - 1, mic),
			 -EINVAL);
	ck_assert_int_eq(crypto_eapol_mic_compute(CRYPTO_EAPOL_MIC_HMAC_SHA384_192, kck, 24, frame,
						  min24 - 1, mic),
			 -EINVAL);
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_AES_CMAC_128, kck, 24, frame,
						 min24),
			 -EINVAL);
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA384_192, kck, 16, frame,
						 min24),
			 -EINVAL);
	ck_assert_int_eq(crypto_eapol_mic_verify((enum crypto_eapol_mic_alg)9, kck, 16, frame, min24),
			 -EINVAL);
	ck_assert_int_eq(crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_AES_CMAC_128, NULL, 16, frame,
						 min24),
			 -EINVAL);
	ck_assert_int_eq(crypto_eapol_mic_compute(CRYPTO_EAPOL_MIC_AES_CMAC_128, kck, 16, NULL,
						  min24, mic),
			 -EINVAL);
	ck_assert_uint_eq(crypto_eapol_mic_len((enum crypto_eapol_mic_alg)9), 0);
}
END_TEST

Suite *make_crypto_eapol_suite(void)
{
	Suite *s = suite_create("crypto_eapol");
	TCase *tc = tcase_create("eapol_mic");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_wpa2_psk_capture);
	tcase_add_test(tc, test_ft_psk_capture);
	tcase_add_test(tc, test_sha2_mic_variants);
	tcase_add_test(tc, test_mic_bad_args);
	suite_add_tcase(s, tc);
	return s;
}
