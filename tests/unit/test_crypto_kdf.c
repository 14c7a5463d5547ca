/* PBKDF2-SHA1, pass-phrase -> PSK, 802.11 PRF-SHA1 and 802.11 KDF against
 * published vectors: RFC 6070, IEEE 802.11 Annex J.3 / J.4, and the
 * IEEE Std 802.11-2024 J.12 PASN key-derivation vector. */
#include "tests/unit/test_hex.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "daemon/crypto/crypto.h"

static void check_pbkdf2(const void *p, size_t p_len, const void *s, size_t s_len,
			 unsigned int c, const char *dk_hex)
{
	uint8_t want[64], got[64];
	size_t n = unhex(dk_hex, want, sizeof(want));

	ck_assert_int_eq(crypto_pbkdf2_sha1(p, p_len, s, s_len, c, got, n), 0);
	ck_assert_mem_eq(got, want, n);
}

/* RFC 6070 section 2: PBKDF2 HMAC-SHA1 test vectors (the 16777216-iteration
 * case is left out: it takes tens of seconds). */
START_TEST(test_rfc6070_pbkdf2)
{
	check_pbkdf2("password", 8, "salt", 4, 1, "0c60c80f961f0e71f3a9b524af6012062fe037a6");
	check_pbkdf2("password", 8, "salt", 4, 2, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957");
	check_pbkdf2("password", 8, "salt", 4, 4096, "4b007901b765489abead49d926f721d065a429c1");
	check_pbkdf2("passwordPASSWORDpassword", 24, "saltSALTsaltSALTsaltSALTsaltSALTsalt", 36, 4096,
		     "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038");
	check_pbkdf2("pass\0word", 9, "sa\0lt", 5, 4096, "56fa6aa75548099dcc37d7f03425e0c3");
}
END_TEST

static void check_psk(const char *pass, const char *ssid, const char *psk_hex)
{
	uint8_t want[32], got[32];

	ck_assert_uint_eq(unhex(psk_hex, want, sizeof(want)), 32);
	ck_assert_int_eq(
		crypto_psk_from_passphrase(pass, (const uint8_t *)ssid, strlen(ssid), got), 0);
	ck_assert_mem_eq(got, want, 32);
}

/* IEEE Std 802.11-2020 J.4.2 (802.11i-2004 H.4.2): pass-phrase to PSK
 * mapping test vectors. */
START_TEST(test_annex_j4_passphrase)
{
	check_psk("password", "IEEE",
		  "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e");
	check_psk("ThisIsAPassword", "ThisIsASSID",
		  "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af");
	check_psk("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ",
		  "becb93866bb8c3832cb777c2f559807c8c59afcb6eae734885001300a981cc62");
}
END_TEST

START_TEST(test_passphrase_rules)
{
	const uint8_t ssid[] = "IEEE";
	uint8_t psk[32];

	ck_assert_int_eq(crypto_psk_from_passphrase("1234567", ssid, 4, psk), -EINVAL);
	ck_assert_int_eq(crypto_psk_from_passphrase("12345678", ssid, 4, psk), 0);
	ck_assert_int_eq(crypto_psk_from_passphrase(
				 "123456789012345678901234567890123456789012345678901234567890123",
				 ssid, 4, psk),
			 0);
	ck_assert_int_eq(crypto_psk_from_passphrase(
				 "1234567890123456789012345678901234567890123456789012345678901234",
				 ssid, 4, psk),
			 -EINVAL);
	ck_assert_int_eq(crypto_psk_from_passphrase("pass\tword", ssid, 4, psk), -EINVAL);
	ck_assert_int_eq(crypto_psk_from_passphrase("pass\x7fword", ssid, 4, psk), -EINVAL);
	ck_assert_int_eq(crypto_psk_from_passphrase("password", ssid, 0, psk), -EINVAL);
	ck_assert_int_eq(crypto_psk_from_passphrase("password", ssid, 33, psk), -EINVAL);
	ck_assert_int_eq(crypto_psk_from_passphrase(NULL, ssid, 4, psk), -EINVAL);
	ck_assert_int_eq(crypto_pbkdf2_sha1("p", 1, "s", 1, 0, psk, 32), -EINVAL);
	ck_assert_int_eq(crypto_pbkdf2_sha1("p", 1, "s", 1, 1, psk, 0), -EINVAL);
}
END_TEST

static void check_prf(const uint8_t *key, size_t key_len, const void *data, size_t len,
		      const char *want_hex)
{
	uint8_t want[64], got[64];
	size_t n = unhex(want_hex, want, sizeof(want));

	/* The 512-bit output, and shorter outputs which must be its prefixes
	 * (the 802.11 PRF does not take the length as an input). */
	static const size_t lens[] = { 24, 32, 48, 64 };

	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		memset(got, 0, sizeof(got));
		ck_assert_int_eq(crypto_prf_sha1(key, key_len, "prefix", data, len, got, lens[k]), 0);
		ck_assert_mem_eq(got, want, lens[k] < n ? lens[k] : n);
	}
}

/* IEEE Std 802.11-2020 J.3.2 (802.11i-2004 H.3.2): PRF test vectors,
 * label "prefix". */
START_TEST(test_annex_j3_prf)
{
	uint8_t key[20], data[50];

	/* Test case 1 */
	memset(key, 0x0b, 20);
	check_prf(key, 20, "Hi There", 8,
		  "bcd4c650b30b9684951829e0d75f9d54b862175ed9f00606e17d8da35402ffee"
		  "75df78c3d31e0f889f012120c0862beb67753e7439ae242edb8373698356cf5a");
	/* Test case 2 */
	check_prf((const uint8_t *)"Jefe", 4, "what do ya want for nothing?", 28,
		  "51f4de5b33f249adf81aeb713a3c20f4fe631446fabdfa58244759ae58ef9009"
		  "a99abf4eac2ca5fa87e692c440eb40023e7babb206d61de7b92f41529092b8fc");
	/* Test case 3 */
	memset(key, 0xaa, 20);
	memset(data, 0xdd, 50);
	check_prf(key, 20, data, 50,
		  "e1ac546ec4cb636f9976487be5c86be17a0252ca5d8d8df12cfb0473525249ce"
		  "9dd8d177ead710bc9b590547239107aef7b4abd43d87f0a68f1cbd9e2b6f7607");
}
END_TEST

/* IEEE Std 802.11-2024 J.12 (PASN test vectors): the PASN-PTK is
 * KDF-SHA-256(PMK, "PASN PTK Derivation", SPA || BSSID || DHss) of
 * 256 + 128 + 256 bits, split into KCK (32) | TK (16) | KDK (32). */
START_TEST(test_kdf_sha256_pasn_j12)
{
	uint8_t pmk[32], ctx[44], want[80], got[80];

	unhex("def43e5567e01ca6649265f19a290eeff8bd888f6c1d9cc9d10f04bd378f3cad", pmk, sizeof(pmk));
	unhex("00904c01c107"			/* SPA */
	      "c0ffd4a8dbc1"			/* BSSID */
	      "f87b208e7ed2b737afdbc2e13eae78da300123d4d84ba8b0eafe90c48cdf1f93", /* DHss */
	      ctx, sizeof(ctx));
	unhex("7bb821ac0aa5909dd654a56065ad7c77eb889cbe2905bbf05abb1eeac88ba306" /* KCK */
	      "673eab46b832d5a80cbc0243016e207e"				 /* TK */
	      "2d0f0e82c70dd26b79061a4681e8dbb2ea83bea399844bd5894eb320f69d7dd6", /* KDK */
	      want, sizeof(want));
	ck_assert_int_eq(crypto_kdf_sha256(pmk, 32, "PASN PTK Derivation", ctx, sizeof(ctx), got,
					   sizeof(got)),
			 0);
	ck_assert_mem_eq(got, want, sizeof(want));

	/* Length is an input of every block: a shorter output is not a prefix. */
	ck_assert_int_eq(crypto_kdf_sha256(pmk, 32, "PASN PTK Derivation", ctx, sizeof(ctx), got, 48),
			 0);
	ck_assert(memcmp(got, want, 32) != 0);
}
END_TEST

/* No published KDF-SHA-384 vector was found; this checks the 802.11
 * construction itself (12.7.1.7.2) against HMAC-SHA-384, which is verified
 * by RFC 4231 in the hash suite: block i = HMAC(K, LE16(i) || label ||
 * context || LE16(bits)). */
START_TEST(test_kdf_sha384_construction)
{
	const uint8_t key[] = "kdf-key";
	const uint8_t ctx[] = { 1, 2, 3, 4, 5 };
	uint8_t got[72], want[96], msg[64];
	size_t m;

	ck_assert_int_eq(crypto_kdf_sha384(key, 7, "Label", ctx, 5, got, sizeof(got)), 0);
	for (unsigned int i = 1; i <= 2; i++) {
		m = 0;
		msg[m++] = (uint8_t)i;
		msg[m++] = 0;
		memcpy(msg + m, "Label", 5);
		m += 5;
		memcpy(msg + m, ctx, 5);
		m += 5;
		msg[m++] = (uint8_t)((72 * 8) & 0xff);
		msg[m++] = (uint8_t)((72 * 8) >> 8);
		ck_assert_int_eq(crypto_hmac_sha384(key, 7, msg, m, want + 48 * (i - 1)), 0);
	}
	ck_assert_mem_eq(got, want, sizeof(got));
}
END_TEST

START_TEST(test_kdf_bad_args)
{
	uint8_t out[16];
	static uint8_t big[8192];

	ck_assert_int_eq(crypto_kdf(CRYPTO_HASH_SHA1, "k", 1, "l", NULL, 0, out, 16), -EINVAL);
	ck_assert_int_eq(crypto_kdf_sha256("k", 1, "l", NULL, 0, out, 0), -EINVAL);
	ck_assert_int_eq(crypto_kdf_sha256("k", 1, NULL, NULL, 0, out, 16), -EINVAL);
	ck_assert_int_eq(crypto_kdf_sha256("k", 1, "l", NULL, 0, big, 8191), 0);
	ck_assert_int_eq(crypto_kdf_sha256("k", 1, "l", NULL, 0, big, 8192), -EINVAL);
	ck_assert_int_eq(crypto_prf_sha1("k", 1, "l", NULL, 0, big, 5100), 0);
	ck_assert_int_eq(crypto_prf_sha1("k", 1, "l", NULL, 0, big, 5101), -EINVAL);
	ck_assert_int_eq(crypto_prf_sha1("k", 1, NULL, NULL, 0, out, 16), -EINVAL);
}
END_TEST

Suite *make_crypto_kdf_suite(void)
{
	Suite *s = suite_create("crypto_kdf");
	TCase *tc = tcase_create("kdf");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_rfc6070_pbkdf2);
	tcase_add_test(tc, test_annex_j4_passphrase);
	tcase_add_test(tc, test_passphrase_rules);
	tcase_add_test(tc, test_annex_j3_prf);
	tcase_add_test(tc, test_kdf_sha256_pasn_j12);
	tcase_add_test(tc, test_kdf_sha384_construction);
	tcase_add_test(tc, test_kdf_bad_args);
	suite_add_tcase(s, tc);
	return s;
}
