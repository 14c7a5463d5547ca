/* Pairwise key expansion against published vectors:
 *   - IEEE Std 802.11-2016 J.7.1 / J.7.2 (Table J-14, CCMP) and J.7.3
 *     (TKIP): PRF-SHA1 "Pairwise key expansion",
 *   - IEEE Std 802.11-2024 J.13 (KDK test vectors without PASN): KDF-SHA-256
 *     with a 256-bit KDK appended. */
#include "tests/unit/test_hex.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "daemon/crypto/crypto.h"

/* J.7.1 inputs: the PMK is the J.4 PSK of "ThisIsAPassword"/"ThisIsASSID";
 * AA a0-a1-a1-a3-a4-a5 is as printed in the standard. */
struct j7_inputs {
	uint8_t pmk[32], aa[6], spa[6], snonce[32], anonce[32];
};

static void load_j7(struct j7_inputs *in)
{
	unhex("0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af", in->pmk, 32);
	unhex("a0a1a1a3a4a5", in->aa, 6);
	unhex("b0b1b2b3b4b5", in->spa, 6);
	unhex("c0c1c2c3c4c5c6c7c8c9d0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5", in->snonce, 32);
	unhex("e0e1e2e3e4e5e6e7e8e9f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff000102030405", in->anonce, 32);
}

START_TEST(test_j7_ccmp)
{
	static const struct crypto_ptk_spec ccmp = { CRYPTO_PTK_PRF_SHA1, 16, 16, 16, 0 };
	struct j7_inputs in;
	struct crypto_ptk ptk, swapped;
	uint8_t kck[16], kek[16], tk[16];

	load_j7(&in);
	unhex("379f9852d0199236b94e407ce4c00ec8", kck, sizeof(kck));
	unhex("47c9edc01c2c6e5b4910caddfb3e51a7", kek, sizeof(kek));
	unhex("b2360c79e9710fdd58bea93deaf06599", tk, sizeof(tk));

	ck_assert_int_eq(crypto_ptk_derive(&ccmp, in.pmk, 32, in.aa, in.spa, in.anonce, in.snonce,
					   &ptk),
			 0);
	ck_assert_uint_eq(ptk.kck_len, 16);
	ck_assert_uint_eq(ptk.kek_len, 16);
	ck_assert_uint_eq(ptk.tk_len, 16);
	ck_assert_uint_eq(ptk.kdk_len, 0);
	ck_assert_mem_eq(ptk.kck, kck, 16);
	ck_assert_mem_eq(ptk.kek, kek, 16);
	ck_assert_mem_eq(ptk.tk, tk, 16);

	/* Min/Max make the result independent of who is who. */
	ck_assert_int_eq(crypto_ptk_derive(&ccmp, in.pmk, 32, in.spa, in.aa, in.snonce, in.anonce,
					   &swapped),
			 0);
	ck_assert_mem_eq(&swapped, &ptk, sizeof(ptk));
	crypto_ptk_clear(&ptk);
	ck_assert_uint_eq(ptk.kck_len, 0);
	ck_assert_uint_eq(ptk.tk[0] | ptk.tk[15] | ptk.kck[0], 0);
}
END_TEST

START_TEST(test_j7_tkip)
{
	static const struct crypto_ptk_spec tkip = { CRYPTO_PTK_PRF_SHA1, 16, 16, 32, 0 };
	struct j7_inputs in;
	struct crypto_ptk ptk;
	uint8_t tk[32];

	load_j7(&in);
	/* Temporal key || Authenticator Tx MIC key || Supplicant Tx MIC key */
	unhex("b2360c79e9710fdd58bea93deaf06599" "db980afbc29c1528" "55740a6ce5ae3827", tk,
	      sizeof(tk));
	ck_assert_int_eq(crypto_ptk_derive(&tkip, in.pmk, 32, in.aa, in.spa, in.anonce, in.snonce,
					   &ptk),
			 0);
	ck_assert_mem_eq(ptk.tk, tk, 32);
}
END_TEST

START_TEST(test_j13_kdf_sha256_kdk)
{
	static const struct crypto_ptk_spec sae_ccmp = { CRYPTO_PTK_KDF_SHA256, 16, 16, 16, 32 };
	uint8_t pmk[32], aa[6], spa[6], anonce[32], snonce[32];
	uint8_t kck[16], kek[16], tk[16], kdk[32];
	struct crypto_ptk ptk;

	unhex("def43e5567e01ca6649265f19a290eeff8bd888f6c1d9cc9d10f04bd378f3cad", pmk, 32);
	unhex("c0ffd4a8dbc1", aa, 6);
	unhex("00904c01c107", spa, 6);
	unhex("be7a1ca284347b5bd67dbd2dfdb4d99f1afae0b88ba18e008718417e4b27ef5f", anonce, 32);
	unhex("404b012ffb43ed0fb43ea1f287c91f2506d21b4a92d74b5ea50c943350ce8671", snonce, 32);
	unhex("cd7b9e7555362df0b63568484a8112f5", kck, 16);
	unhex("99cad3588da0f1e63fd190191039bb4b", kek, 16);
	unhex("9e2e9377e7532e737a1bc250fe194a03", tk, 16);
	unhex("6c7fb97ceb55b01acff00f070942bdf5291feb4bee38e0365b25a250bb2ac9ff", kdk, 32);

	ck_assert_int_eq(crypto_ptk_derive(&sae_ccmp, pmk, 32, aa, spa, anonce, snonce, &ptk), 0);
	ck_assert_mem_eq(ptk.kck, kck, 16);
	ck_assert_mem_eq(ptk.kek, kek, 16);
	ck_assert_mem_eq(ptk.tk, tk, 16);
	ck_assert_uint_eq(ptk.kdk_len, 32);
	ck_assert_mem_eq(ptk.kdk, kdk, 32);
}
END_TEST

/* KDF-SHA-384 PTK (AKM 00-0F-AC:20 style: 24-byte KCK, 32-byte KEK): no
 * published vector; checked against crypto_kdf_sha384 on the 802.11
 * Min/Max input, which the KDF suite checks against HMAC-SHA-384. */
START_TEST(test_kdf_sha384_layout)
{
	static const struct crypto_ptk_spec spec = { CRYPTO_PTK_KDF_SHA384, 24, 32, 32, 0 };
	uint8_t pmk[48], aa[6] = { 2, 0, 0, 0, 0, 9 }, spa[6] = { 2, 0, 0, 0, 0, 1 };
	uint8_t anonce[32], snonce[32], data[76], want[88];
	struct crypto_ptk ptk;

	memset(pmk, 0x5a, sizeof(pmk));
	memset(anonce, 0x11, sizeof(anonce));
	memset(snonce, 0x22, sizeof(snonce));
	memcpy(data, spa, 6); /* spa < aa */
	memcpy(data + 6, aa, 6);
	memcpy(data + 12, anonce, 32); /* anonce < snonce */
	memcpy(data + 44, snonce, 32);
	ck_assert_int_eq(crypto_kdf_sha384(pmk, 48, "Pairwise key expansion", data, 76, want, 88), 0);
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 48, aa, spa, anonce, snonce, &ptk), 0);
	ck_assert_mem_eq(ptk.kck, want, 24);
	ck_assert_mem_eq(ptk.kek, want + 24, 32);
	ck_assert_mem_eq(ptk.tk, want + 56, 32);
}
END_TEST

START_TEST(test_ptk_bad_args)
{
	struct crypto_ptk_spec spec = { CRYPTO_PTK_PRF_SHA1, 16, 16, 16, 0 };
	uint8_t pmk[32] = { 1 }, a[6] = { 0 }, n[32] = { 0 };
	struct crypto_ptk ptk;

	memset(&ptk, 0x77, sizeof(ptk));
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 0, a, a, n, n, &ptk), -EINVAL);
	ck_assert_uint_eq(ptk.kck[0] | ptk.tk[0], 0); /* zeroed on error */
	ck_assert_int_eq(crypto_ptk_derive(&spec, NULL, 32, a, a, n, n, &ptk), -EINVAL);
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 65, a, a, n, n, &ptk), -EINVAL);
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 32, NULL, a, n, n, &ptk), -EINVAL);
	ck_assert_int_eq(crypto_ptk_derive(NULL, pmk, 32, a, a, n, n, &ptk), -EINVAL);
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 32, a, a, n, n, NULL), -EINVAL);
	spec.tk_len = 33;
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 32, a, a, n, n, &ptk), -EINVAL);
	spec.tk_len = 16;
	spec.kck_len = 0;
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 32, a, a, n, n, &ptk), -EINVAL);
	spec.kck_len = 16;
	spec.kdk_len = 49;
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 32, a, a, n, n, &ptk), -EINVAL);
	spec.kdk_len = 0;
	spec.kdf = (enum crypto_ptk_kdf)7;
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 32, a, a, n, n, &ptk), -EINVAL);
}
END_TEST

Suite *make_crypto_ptk_suite(void)
{
	Suite *s = suite_create("crypto_ptk");
	TCase *tc = tcase_create("ptk");

	tcase_add_test(tc, test_j7_ccmp);
	tcase_add_test(tc, test_j7_tkip);
	tcase_add_test(tc, test_j13_kdf_sha256_kdk);
	tcase_add_test(tc, test_kdf_sha384_layout);
	tcase_add_test(tc, test_ptk_bad_args);
	suite_add_tcase(s, tc);
	return s;
}
