/* BIP MICs (IEEE 802.11-2020 12.5.4) against published vectors:
 *   - BIP-CMAC-128: IEEE Std 802.11-2020 Annex J.9.1 "BIP with broadcast
 *     Deauthentication frame" (M.9.1 in 802.11-2012): IGTK, IPN 4, Key ID 4,
 *     the protected MPDU and its MIC 48df bfa7 b827 8872;
 *   - the AES-GMAC core of BIP-GMAC: NIST CAVP gcmEncryptExtIV128.rsp
 *     [Keylen=128, IVlen=96, PTlen=0, AADlen=128, Taglen=128] Count 0
 *     (GMAC is GCM with an empty plaintext, NIST SP 800-38D 3);
 * and, for BIP-CMAC-256 / BIP-GMAC-128/256 where no published frame vector
 * exists, the J.9.1 frame protected with each suite, the expected MICs
 * computed independently with python3-cryptography (AESGCM, CMAC) from the
 * 12.5.4 definitions. */
#include "tests/unit/test_hex.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "daemon/crypto/crypto.h"

#define J91_IGTK "4ea9543e09cf2b1eca66ffc58bdecbcf"
/* Broadcast Deauthentication, A2 = A3 = 02:00:00:00:00:00, seq 0x0009,
 * reason 2, then the MMIE: 4c 10, Key ID 4, IPN 4, MIC. */
#define J91_FRAME "c0000000ffffffffffff020000000000020000000000" "0900" "0200"
#define J91_MMIE16 "4c10" "0400" "040000000000"

START_TEST(test_bip_cmac128_j91)
{
	uint8_t igtk[16], frame[64], want[64], mic[16];
	size_t len;

	unhex(J91_IGTK, igtk, sizeof(igtk));
	len = unhex(J91_FRAME J91_MMIE16 "0000000000000000", frame, sizeof(frame));
	ck_assert_uint_eq(len, 44);
	unhex(J91_FRAME J91_MMIE16 "48dfbfa7b8278872", want, sizeof(want));

	ck_assert_int_eq(bip_compute_mic(BIP_CMAC_128, igtk, 16, frame, len, mic), 0);
	ck_assert_mem_eq(mic, want + 36, 8);
	ck_assert_int_eq(bip_sign(BIP_CMAC_128, igtk, 16, frame, len), 0);
	ck_assert_mem_eq(frame, want, len);
	ck_assert_int_eq(bip_verify(BIP_CMAC_128, igtk, 16, want, len), 0);

	/* Retry, PwrMgt and MoreData are outside the MIC (12.5.4.4). */
	want[1] |= 0x38;
	ck_assert_int_eq(bip_verify(BIP_CMAC_128, igtk, 16, want, len), 0);
	/* Any other change is caught: the body, A3, the IPN, the MIC. */
	want[1] &= (uint8_t)~0x38;
	want[24] ^= 1;
	ck_assert_int_eq(bip_verify(BIP_CMAC_128, igtk, 16, want, len), -EBADMSG);
	want[24] ^= 1;
	want[21] ^= 1;
	ck_assert_int_eq(bip_verify(BIP_CMAC_128, igtk, 16, want, len), -EBADMSG);
	want[21] ^= 1;
	want[30] ^= 1;
	ck_assert_int_eq(bip_verify(BIP_CMAC_128, igtk, 16, want, len), -EBADMSG);
	want[30] ^= 1;
	want[43] ^= 1;
	ck_assert_int_eq(bip_verify(BIP_CMAC_128, igtk, 16, want, len), -EBADMSG);
	/* The sequence control field is not in the AAD. */
	want[43] ^= 1;
	want[22] = 0x55;
	ck_assert_int_eq(bip_verify(BIP_CMAC_128, igtk, 16, want, len), 0);
}
END_TEST

START_TEST(test_gmac_nist_cavp)
{
	uint8_t key[16], iv[12], aad[16], tag[16], want[16];

	unhex("77be63708971c4e240d1cb79e8d77feb", key, sizeof(key));
	unhex("e0e00f19fed7ba0136a797f3", iv, sizeof(iv));
	unhex("7a43ec1d9c0a5a78a0b16533a6213cab", aad, sizeof(aad));
	unhex("209fcc8d3675ed938e9c7166709dd946", want, sizeof(want));
	ck_assert_int_eq(crypto_aes_gcm_encrypt(key, 16, iv, 12, aad, 16, NULL, 0, NULL, tag), 0);
	ck_assert_mem_eq(tag, want, 16);
}
END_TEST

static void check_suite_on_j91(enum bip_cipher c, const char *key_hex, const char *mic_hex)
{
	uint8_t key[32], frame[64], want[16];
	size_t key_len = unhex(key_hex, key, sizeof(key));
	size_t len = unhex(J91_FRAME "4c18" "0400" "040000000000"
				     "00000000000000000000000000000000",
			   frame, sizeof(frame));

	ck_assert_uint_eq(len, 52);
	ck_assert_uint_eq(key_len, bip_key_len(c));
	unhex(mic_hex, want, sizeof(want));
	ck_assert_int_eq(bip_sign(c, key, key_len, frame, len), 0);
	ck_assert_mem_eq(frame + 36, want, 16);
	ck_assert_int_eq(bip_verify(c, key, key_len, frame, len), 0);
	frame[30] ^= 0x01; /* IPN: for GMAC also the nonce */
	ck_assert_int_eq(bip_verify(c, key, key_len, frame, len), -EBADMSG);
}

START_TEST(test_bip_256_and_gmac)
{
	check_suite_on_j91(BIP_GMAC_128, J91_IGTK, "3ed862fb0f3338dd3386c897e2ed053d");
	check_suite_on_j91(BIP_GMAC_256, J91_IGTK "000102030405060708090a0b0c0d0e0f",
			   "23be59dcc7022ee383627ebb1017ddfc");
	check_suite_on_j91(BIP_CMAC_256, J91_IGTK "000102030405060708090a0b0c0d0e0f",
			   "4b6fe836c8a3ad6a8abd7f61a63a11d2");
}
END_TEST

START_TEST(test_bip_bad_args)
{
	uint8_t key[32] = {0}, frame[64] = {0}, mic[16];

	ck_assert_uint_eq(bip_mic_len(BIP_CMAC_128), 8);
	ck_assert_uint_eq(bip_mic_len(BIP_GMAC_256), 16);
	ck_assert_uint_eq(bip_key_len(BIP_CMAC_256), 32);
	/* Wrong key length for the suite. */
	ck_assert_int_eq(bip_compute_mic(BIP_CMAC_128, key, 32, frame, 44, mic), -EINVAL);
	ck_assert_int_eq(bip_compute_mic(BIP_GMAC_256, key, 16, frame, 52, mic), -EINVAL);
	/* Shorter than header + MMIE. */
	ck_assert_int_eq(bip_compute_mic(BIP_CMAC_128, key, 16, frame, 24 + 17, mic), -EINVAL);
	ck_assert_int_eq(bip_compute_mic(BIP_GMAC_128, key, 16, frame, 24 + 25, mic), -EINVAL);
	ck_assert_int_eq(bip_compute_mic(BIP_CMAC_128, key, 16, frame, 24 + 18, mic), 0);
	ck_assert_int_eq(bip_compute_mic(BIP_CMAC_128, key, 16, NULL, 44, mic), -EINVAL);
	ck_assert_int_eq(bip_compute_mic((enum bip_cipher)99, key, 16, frame, 44, mic), -EINVAL);
}
END_TEST

Suite *make_crypto_bip_suite(void)
{
	Suite *s = suite_create("crypto_bip");
	TCase *tc = tcase_create("bip");

	tcase_add_test(tc, test_bip_cmac128_j91);
	tcase_add_test(tc, test_gmac_nist_cavp);
	tcase_add_test(tc, test_bip_256_and_gmac);
	tcase_add_test(tc, test_bip_bad_args);
	suite_add_tcase(s, tc);
	return s;
}
