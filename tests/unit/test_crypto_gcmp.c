/* GCMP-256 / GCMP-128 MPDU protection against published vectors:
 *   - IEEE P802.11ac/D7.0 M.11.1 GCMP-256 test vector,
 *   - IEEE Std 802.11ad-2012 M.11.1 GCMP (128-bit TK) test MPDUs #1 and #2,
 * (bytes as carried in hostap's wlantest/test_vectors.c), plus round trips
 * with QoS / 4-address headers and the failure cases. The AES-GCM core
 * itself is checked against the McGrew-Viega GCM test cases in the
 * crypto_aes suite. */
#include "tests/unit/test_hex.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "daemon/crypto/crypto.h"

/* IEEE P802.11ac/D7.0 M.11.1: GCMP-256, QoS Data frame (TID 3, Retry),
 * PN 0x00895F5F2B08, key ID 0. */
START_TEST(test_gcmp256_vector)
{
	uint8_t tk[32], frame[66], mpdu[128], out[128], dec[64], nonce[12], want_nonce[12];
	size_t mpdu_len, out_len = 0, dec_len = 0;
	uint64_t pn = 0;

	unhex("c97c1f67ce371185514a8a19f2bdd52f000102030405060708090a0b0c0d0e0f", tk, sizeof(tk));
	unhex("88480b000fd2e128a57c5030f18444085030f184440880330300"
	      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627",
	      frame, sizeof(frame));
	mpdu_len = unhex("88480b000fd2e128a57c5030f18444085030f184440880330300"
			 "082b00205f5f8900"
			 "658343c8b14447d9211defd46ad89c710c6fc33333236e3997b9176a5a8be779"
			 "b21266555e70ad79"
			 "114316859095473d5b1bd596b3dea3bf",
			 mpdu, sizeof(mpdu));

	ck_assert_int_eq(gcmp_build_nonce(frame, 26, 0x00895F5F2B08ULL, nonce), 0);
	unhex("5030f1844408" "00895f5f2b08", want_nonce, sizeof(want_nonce));
	ck_assert_mem_eq(nonce, want_nonce, 12);

	ck_assert_int_eq(gcmp_encrypt(tk, 32, frame, 26, 0x00895F5F2B08ULL, 0, frame + 26, 40, out,
				      &out_len),
			 0);
	ck_assert_uint_eq(out_len, mpdu_len);
	ck_assert_mem_eq(out, mpdu, mpdu_len);
	ck_assert_int_eq(gcmp_decrypt(tk, 32, mpdu, mpdu_len, 26, dec, &dec_len, &pn), 0);
	ck_assert_uint_eq(dec_len, 40);
	ck_assert_mem_eq(dec, frame + 26, 40);
	ck_assert_uint_eq(pn, 0x00895F5F2B08ULL);

	mpdu[40] ^= 0x01;
	memset(dec, 0xee, sizeof(dec));
	ck_assert_int_eq(gcmp_decrypt(tk, 32, mpdu, mpdu_len, 26, dec, &dec_len, &pn), -EBADMSG);
	for (size_t i = 0; i < 40; i++)
		ck_assert_uint_eq(dec[i], 0);
}
END_TEST

/* IEEE Std 802.11ad-2012 M.11.1, GCMP test MPDU #2: 128-bit TK, QoS Data. */
START_TEST(test_gcmp128_vector_2)
{
	uint8_t tk[16], frame[66], ct[40], mic[16], out[128], dec[64];
	size_t out_len = 0, dec_len = 0;
	uint64_t pn = 0;

	unhex("c97c1f67ce371185514a8a19f2bdd52f", tk, sizeof(tk));
	unhex("88480b000fd2e128a57c5030f18444085030f184440880330300"
	      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627",
	      frame, sizeof(frame));
	unhex("60e9700cc4d40ac6d288b201c38f5bf08b807442640a1596e5dbdad41d1f3623f45d7a12db7afb23", ct,
	      sizeof(ct));
	unhex("def619c2a374b6df66ffa53b6c69d79e", mic, sizeof(mic));

	ck_assert_int_eq(gcmp_encrypt(tk, 16, frame, 26, 0x00895F5F2B08ULL, 0, frame + 26, 40, out,
				      &out_len),
			 0);
	ck_assert_uint_eq(out_len, 26 + 8 + 40 + 16);
	ck_assert_mem_eq(out + 34, ct, 40);
	ck_assert_mem_eq(out + 74, mic, 16);
	ck_assert_int_eq(gcmp_decrypt(tk, 16, out, out_len, 26, dec, &dec_len, &pn), 0);
	ck_assert_mem_eq(dec, frame + 26, 40);
}
END_TEST

/* IEEE Std 802.11ad-2012 M.11.1, GCMP test MPDU #1: 128-bit TK of 0xaa,
 * PN 1, a 24-byte Management header (FC bytes 20 02) and 256 zero bytes.
 * The vector's header has the Protected bit clear and its MIC was computed
 * over an AAD with that bit still clear, whereas 12.5.3.3.3 sets it in the
 * AAD (and a frame on the air always has it set). So the ciphertext is
 * checked through gcmp_encrypt(), and the MIC through the GCM core with the
 * vector's literal AAD; the MIC of the conforming AAD must then differ. */
START_TEST(test_gcmp128_vector_1)
{
	uint8_t tk[16], hdr[24], plain[256], ct[256], mic[16], out[320], dec[256];
	uint8_t aad[CCMP_AAD_MAX_LEN], nonce[GCMP_NONCE_LEN], tag[16];
	size_t out_len = 0, dec_len = 0, aad_len = 0;

	memset(tk, 0xaa, sizeof(tk));
	memset(plain, 0, sizeof(plain));
	unhex("20020000000000000000ffffffffffffffffffffffff0000", hdr, sizeof(hdr));
	unhex("5f5578c18f137ad279bf3f2b24c7bd8f277a1be6770da1d98b70c6d28ae01c55"
	      "9ecba6a01db067c5a27e4db08cdadc7752ad637eaf0a18ed13fbaa143bafef18"
	      "f8fbce4c65e86bd02a87b601b7eab93f2bbc874c8a710580f502341a6a533931"
	      "43de4c9ec6a286f125718378aedc84eba2b30f5c28bb5d75c6b025466d0651c7"
	      "22dc71151f212d6887828a0382e9288a7f43d52b7d25086157646954bb43b57e"
	      "a587a025f40ce74511e4dd2285b40ba3f3b96262cbc28c6aa7be443e7b41e1eb"
	      "ff524857a6816897750115b0231ab7c28472c06dd0b49be9f369a8c39ccd0db7"
	      "983510e1ae8f05d77545e0235cdbd612f3150754cee5ce6a1225d99525026f74",
	      ct, sizeof(ct));
	unhex("80cb0662ea71abfd9f04c7f872f58090", mic, sizeof(mic));

	ck_assert_int_eq(gcmp_encrypt(tk, 16, hdr, 24, 1, 0, plain, 256, out, &out_len), 0);
	ck_assert_uint_eq(out_len, 24 + 8 + 256 + 16);
	ck_assert_mem_eq(out + 32, ct, 256);
	ck_assert(memcmp(out + 32 + 256, mic, 16) != 0);
	ck_assert_int_eq(gcmp_decrypt(tk, 16, out, out_len, 24, dec, &dec_len, NULL), 0);
	ck_assert_uint_eq(dec_len, 256);

	ck_assert_int_eq(ccmp_build_aad(hdr, 24, aad, &aad_len), 0);
	ck_assert_uint_eq(aad_len, 22);
	ck_assert_uint_eq(aad[1], 0x42); /* Protected forced on */
	aad[1] = hdr[1];		 /* the vector's literal FC */
	ck_assert_int_eq(gcmp_build_nonce(hdr, 24, 1, nonce), 0);
	ck_assert_int_eq(crypto_aes_gcm_encrypt(tk, 16, nonce, sizeof(nonce), aad, aad_len, plain,
						256, out, tag),
			 0);
	ck_assert_mem_eq(out, ct, 256);
	ck_assert_mem_eq(tag, mic, 16);
}
END_TEST

START_TEST(test_gcmp_qos_4addr_roundtrip)
{
	/* QoS Data, ToDS+FromDS, TID 6, no HT Control: 24 + 6 + 2 bytes. */
	static const uint8_t hdr[32] = {
		0x88, 0x03, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02,
		0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x03,
		0x10, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x04, 0x06, 0x00,
	};
	uint8_t tk[32], plain[200], out[300], frame[300], dec[200];
	size_t out_len = 0, dec_len = 0, len;
	uint64_t pn = 0;

	for (size_t i = 0; i < sizeof(tk); i++)
		tk[i] = (uint8_t)(0x90 ^ i);
	for (size_t i = 0; i < sizeof(plain); i++)
		plain[i] = (uint8_t)(i * 13);

	for (len = 0; len <= sizeof(plain); len += 50) {
		ck_assert_int_eq(gcmp_encrypt(tk, 32, hdr, 32, 0x123456789abcULL, 2, plain, len,
					      out, &out_len),
				 0);
		ck_assert_uint_eq(out_len, 32 + 8 + len + 16);
		ck_assert_uint_eq(out[32 + 3], 0xa0); /* Ext IV, key ID 2 */
		ck_assert_int_eq(gcmp_decrypt(tk, 32, out, out_len, 32, dec, &dec_len, &pn), 0);
		ck_assert_uint_eq(dec_len, len);
		if (len)
			ck_assert_mem_eq(dec, plain, len);
		ck_assert_uint_eq(pn, 0x123456789abcULL);
	}
	memcpy(frame, out, out_len);

	/* A4 and the TID are authenticated; Retry is not. */
	frame[29] ^= 0x01;
	ck_assert_int_eq(gcmp_decrypt(tk, 32, frame, out_len, 32, dec, &dec_len, &pn), -EBADMSG);
	frame[29] ^= 0x01;
	frame[30] ^= 0x01;
	ck_assert_int_eq(gcmp_decrypt(tk, 32, frame, out_len, 32, dec, &dec_len, &pn), -EBADMSG);
	frame[30] ^= 0x01;
	frame[1] ^= 0x08;
	ck_assert_int_eq(gcmp_decrypt(tk, 32, frame, out_len, 32, dec, &dec_len, &pn), 0);
	frame[1] ^= 0x08;
	/* PN is part of the nonce. */
	frame[32 + 7] ^= 0x01;
	ck_assert_int_eq(gcmp_decrypt(tk, 32, frame, out_len, 32, dec, &dec_len, &pn), -EBADMSG);
	frame[32 + 7] ^= 0x01;

	/* Lengths and keys. */
	ck_assert_int_eq(gcmp_decrypt(tk, 32, frame, 32 + 23, 32, dec, &dec_len, &pn), -EINVAL);
	ck_assert_int_eq(gcmp_decrypt(tk, 24, frame, out_len, 32, dec, &dec_len, &pn), -EINVAL);
	ck_assert_int_eq(gcmp_decrypt(tk, 32, frame, out_len, 30, dec, &dec_len, &pn), -EINVAL);
	ck_assert_int_eq(gcmp_encrypt(tk, 32, hdr, 32, CCMP_PN_MAX + 1, 0, plain, 10, out,
				      &out_len),
			 -EINVAL);
	ck_assert_int_eq(gcmp_encrypt(tk, 32, hdr, 32, 1, 4, plain, 10, out, &out_len), -EINVAL);
}
END_TEST

Suite *make_crypto_gcmp_suite(void)
{
	Suite *s = suite_create("crypto_gcmp");
	TCase *tc = tcase_create("gcmp");

	tcase_add_test(tc, test_gcmp256_vector);
	tcase_add_test(tc, test_gcmp128_vector_2);
	tcase_add_test(tc, test_gcmp128_vector_1);
	tcase_add_test(tc, test_gcmp_qos_4addr_roundtrip);
	suite_add_tcase(s, tc);
	return s;
}
