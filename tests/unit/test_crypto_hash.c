/* HMAC-SHA1 / HMAC-SHA-256 / HMAC-SHA-384 and SHA digests against the
 * published vectors of RFC 2202, RFC 4231 and FIPS 180-2. */
#include "tests/unit/test_hex.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "daemon/crypto/crypto.h"

static void fill(uint8_t *buf, uint8_t v, size_t n)
{
	memset(buf, v, n);
}

/* key/data as raw bytes, expected output as hex; only the first
 * strlen(hex)/2 bytes are compared (the RFC truncation cases). */
static void check_hmac(enum crypto_hash_alg alg, const uint8_t *key, size_t key_len,
		       const void *data, size_t len, const char *want_hex)
{
	uint8_t want[CRYPTO_HASH_MAX_LEN], got[CRYPTO_HASH_MAX_LEN];
	size_t want_len = unhex(want_hex, want, sizeof(want));
	struct crypto_iov parts[3];

	ck_assert_int_eq(crypto_hmac(alg, key, key_len, data, len, got), 0);
	ck_assert_mem_eq(got, want, want_len);

	/* The same MAC with the message split in three parts. */
	memset(got, 0, sizeof(got));
	parts[0] = (struct crypto_iov){ data, len / 3 };
	parts[1] = (struct crypto_iov){ (const uint8_t *)data + len / 3, len / 3 };
	parts[2] = (struct crypto_iov){ (const uint8_t *)data + 2 * (len / 3), len - 2 * (len / 3) };
	ck_assert_int_eq(crypto_hmac_vec(alg, key, key_len, parts, 3, got), 0);
	ck_assert_mem_eq(got, want, want_len);

	/* A reused context: keyed by a run over another message, then the
	 * next messages under that key (a PRF's blocks), twice. */
	struct crypto_hmac_ctx *h = crypto_hmac_ctx_new(alg);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(crypto_hmac_ctx_run(h, key, key_len, &(struct crypto_iov){ "x", 1 }, 1, got),
			 0);
	for (int i = 0; i < 2; i++) {
		memset(got, 0, sizeof(got));
		ck_assert_int_eq(crypto_hmac_ctx_next(h, parts, 3, got), 0);
		ck_assert_mem_eq(got, want, want_len);
	}
	crypto_hmac_ctx_free(h);
}

static const char tc6_data[] = "Test Using Larger Than Block-Size Key - Hash Key First";
static const char rfc2202_tc7_data[] =
	"Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data";
static const char rfc4231_tc7_data[] =
	"This is a test using a larger than block-size key and a larger than block-size data. "
	"The key needs to be hashed before being used by the HMAC algorithm.";

/* RFC 2202 section 3: test cases for HMAC-SHA-1 (all seven). */
START_TEST(test_rfc2202_hmac_sha1)
{
	uint8_t key[80], data[50];

	/* Test case 1 */
	fill(key, 0x0b, 20);
	check_hmac(CRYPTO_HASH_SHA1, key, 20, "Hi There", 8,
		   "b617318655057264e28bc0b6fb378c8ef146be00");
	/* Test case 2 */
	check_hmac(CRYPTO_HASH_SHA1, (const uint8_t *)"Jefe", 4, "what do ya want for nothing?", 28,
		   "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
	/* Test case 3 */
	fill(key, 0xaa, 20);
	fill(data, 0xdd, 50);
	check_hmac(CRYPTO_HASH_SHA1, key, 20, data, 50, "125d7342b9ac11cd91a39af48aa17b4f63f175d3");
	/* Test case 4 */
	for (int i = 0; i < 25; i++)
		key[i] = (uint8_t)(i + 1);
	fill(data, 0xcd, 50);
	check_hmac(CRYPTO_HASH_SHA1, key, 25, data, 50, "4c9007f4026250c6bc8414f9bf50c86c2d7235da");
	/* Test case 5 (full digest, and its 96-bit truncation) */
	fill(key, 0x0c, 20);
	check_hmac(CRYPTO_HASH_SHA1, key, 20, "Test With Truncation", 20,
		   "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04");
	check_hmac(CRYPTO_HASH_SHA1, key, 20, "Test With Truncation", 20, "4c1a03424b55e07fe7f27be1");
	/* Test case 6 */
	fill(key, 0xaa, 80);
	check_hmac(CRYPTO_HASH_SHA1, key, 80, tc6_data, strlen(tc6_data),
		   "aa4ae5e15272d00e95705637ce8a3b55ed402112");
	/* Test case 7 */
	check_hmac(CRYPTO_HASH_SHA1, key, 80, rfc2202_tc7_data, strlen(rfc2202_tc7_data),
		   "e8e99d0f45237d786d6bbaa7965c7808bbff1a91");
}
END_TEST

/* RFC 4231 section 4: test cases 1-7 for HMAC-SHA-256 and HMAC-SHA-384
 * (case 5 is the 128-bit truncation case). */
START_TEST(test_rfc4231_hmac_sha256_sha384)
{
	uint8_t key[131], data[50];

	/* 4.2 Test Case 1 */
	fill(key, 0x0b, 20);
	check_hmac(CRYPTO_HASH_SHA256, key, 20, "Hi There", 8,
		   "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
	check_hmac(CRYPTO_HASH_SHA384, key, 20, "Hi There", 8,
		   "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59c"
		   "faea9ea9076ede7f4af152e8b2fa9cb6");
	/* 4.3 Test Case 2 */
	check_hmac(CRYPTO_HASH_SHA256, (const uint8_t *)"Jefe", 4, "what do ya want for nothing?",
		   28, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	check_hmac(CRYPTO_HASH_SHA384, (const uint8_t *)"Jefe", 4, "what do ya want for nothing?",
		   28,
		   "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e"
		   "8e2240ca5e69e2c78b3239ecfab21649");
	/* 4.4 Test Case 3 */
	fill(key, 0xaa, 20);
	fill(data, 0xdd, 50);
	check_hmac(CRYPTO_HASH_SHA256, key, 20, data, 50,
		   "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
	check_hmac(CRYPTO_HASH_SHA384, key, 20, data, 50,
		   "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b"
		   "2a5ab39dc13814b94e3ab6e101a34f27");
	/* 4.5 Test Case 4 */
	for (int i = 0; i < 25; i++)
		key[i] = (uint8_t)(i + 1);
	fill(data, 0xcd, 50);
	check_hmac(CRYPTO_HASH_SHA256, key, 25, data, 50,
		   "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
	check_hmac(CRYPTO_HASH_SHA384, key, 25, data, 50,
		   "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e"
		   "6801dd23c4a7d679ccf8a386c674cffb");
	/* 4.6 Test Case 5: output truncated to 128 bits */
	fill(key, 0x0c, 20);
	check_hmac(CRYPTO_HASH_SHA256, key, 20, "Test With Truncation", 20,
		   "a3b6167473100ee06e0c796c2955552b");
	check_hmac(CRYPTO_HASH_SHA384, key, 20, "Test With Truncation", 20,
		   "3abf34c3503b2a23a46efc619baef897");
	/* 4.7 Test Case 6 */
	fill(key, 0xaa, 131);
	check_hmac(CRYPTO_HASH_SHA256, key, 131, tc6_data, strlen(tc6_data),
		   "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	check_hmac(CRYPTO_HASH_SHA384, key, 131, tc6_data, strlen(tc6_data),
		   "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c6"
		   "0c2ef6ab4030fe8296248df163f44952");
	/* 4.8 Test Case 7 */
	check_hmac(CRYPTO_HASH_SHA256, key, 131, rfc4231_tc7_data, strlen(rfc4231_tc7_data),
		   "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
	check_hmac(CRYPTO_HASH_SHA384, key, 131, rfc4231_tc7_data, strlen(rfc4231_tc7_data),
		   "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5"
		   "a678cc31e799176d3860e6110c46523e");
}
END_TEST

START_TEST(test_hmac_shorthands)
{
	uint8_t key[20], out1[20], out256[32], out384[48], ref[48];

	fill(key, 0x0b, 20);
	ck_assert_int_eq(crypto_hmac_sha1(key, 20, "Hi There", 8, out1), 0);
	ck_assert_int_eq(crypto_hmac_sha256(key, 20, "Hi There", 8, out256), 0);
	ck_assert_int_eq(crypto_hmac_sha384(key, 20, "Hi There", 8, out384), 0);
	/* RFC 2202 test case 1 / RFC 4231 test case 1 */
	unhex("b617318655057264e28bc0b6fb378c8ef146be00", ref, sizeof(ref));
	ck_assert_mem_eq(out1, ref, 20);
	unhex("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", ref, sizeof(ref));
	ck_assert_mem_eq(out256, ref, 32);
	unhex("afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59c"
	      "faea9ea9076ede7f4af152e8b2fa9cb6",
	      ref, sizeof(ref));
	ck_assert_mem_eq(out384, ref, 48);
}
END_TEST

/* FIPS 180-2 appendix examples: "abc". */
START_TEST(test_fips180_digest)
{
	uint8_t out[48], want[48];

	ck_assert_int_eq(crypto_digest(CRYPTO_HASH_SHA1, "abc", 3, out), 0);
	unhex("a9993e364706816aba3e25717850c26c9cd0d89d", want, sizeof(want));
	ck_assert_mem_eq(out, want, 20);
	ck_assert_int_eq(crypto_digest(CRYPTO_HASH_SHA256, "abc", 3, out), 0);
	unhex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", want, sizeof(want));
	ck_assert_mem_eq(out, want, 32);
	ck_assert_int_eq(crypto_digest(CRYPTO_HASH_SHA384, "abc", 3, out), 0);
	unhex("cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
	      "8086072ba1e7cc2358baeca134c825a7",
	      want, sizeof(want));
	ck_assert_mem_eq(out, want, 48);
}
END_TEST

START_TEST(test_hash_bad_args)
{
	uint8_t out[48];

	ck_assert_uint_eq(crypto_hash_len(CRYPTO_HASH_SHA1), 20);
	ck_assert_uint_eq(crypto_hash_len(CRYPTO_HASH_SHA256), 32);
	ck_assert_uint_eq(crypto_hash_len(CRYPTO_HASH_SHA384), 48);
	ck_assert_uint_eq(crypto_hash_len((enum crypto_hash_alg)99), 0);
	ck_assert_int_eq(crypto_hmac((enum crypto_hash_alg)99, "k", 1, "d", 1, out), -EINVAL);
	ck_assert_int_eq(crypto_hmac(CRYPTO_HASH_SHA1, NULL, 1, "d", 1, out), -EINVAL);
	ck_assert_int_eq(crypto_hmac(CRYPTO_HASH_SHA1, "k", 1, NULL, 1, out), -EINVAL);
	ck_assert_int_eq(crypto_hmac(CRYPTO_HASH_SHA1, "k", 1, "d", 1, NULL), -EINVAL);
	ck_assert_int_eq(crypto_digest(CRYPTO_HASH_SHA1, NULL, 1, out), -EINVAL);
	/* An empty key and an empty message are fine. */
	ck_assert_int_eq(crypto_hmac(CRYPTO_HASH_SHA256, NULL, 0, NULL, 0, out), 0);
	/* No key to reuse before a first run. */
	struct crypto_hmac_ctx *h = crypto_hmac_ctx_new(CRYPTO_HASH_SHA1);
	ck_assert_int_eq(crypto_hmac_ctx_next(h, NULL, 0, out), -EINVAL);
	ck_assert_int_eq(crypto_hmac_ctx_run(h, "k", 1, NULL, 0, out), 0);
	ck_assert_int_eq(crypto_hmac_ctx_next(h, NULL, 0, out), 0);
	ck_assert_int_eq(crypto_hmac_ctx_run(h, NULL, 1, NULL, 0, out), -EINVAL);
	crypto_hmac_ctx_free(h);
}
END_TEST

Suite *make_crypto_hash_suite(void)
{
	Suite *s = suite_create("crypto_hash");
	TCase *tc = tcase_create("hmac");

	tcase_add_test(tc, test_rfc2202_hmac_sha1);
	tcase_add_test(tc, test_rfc4231_hmac_sha256_sha384);
	tcase_add_test(tc, test_hmac_shorthands);
	tcase_add_test(tc, test_fips180_digest);
	tcase_add_test(tc, test_hash_bad_args);
	suite_add_tcase(s, tc);
	return s;
}
