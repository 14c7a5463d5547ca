/* AES-CMAC (RFC 4493), AES key wrap (RFC 3394) and the AES-CCM / AES-GCM
 * cores (IEEE 802.11 J.6.4 CCM values; McGrew & Viega, "The Galois/Counter
 * Mode of Operation (GCM)", test cases 13, 14 and 16). */
#include "tests/unit/test_hex.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "daemon/crypto/crypto.h"

/* RFC 4493 section 4: AES-CMAC test vectors, Examples 1-4 (key
 * 2b7e1516...; messages of 0, 16, 40 and 64 bytes). */
START_TEST(test_rfc4493_cmac)
{
	static const struct {
		size_t len;
		const char *mac;
	} ex[] = {
		{ 0, "bb1d6929e95937287fa37d129b756746" },
		{ 16, "070a16b46b4d4144f79bdd9dd04a287c" },
		{ 40, "dfa66747de9ae63030ca32611497c827" },
		{ 64, "51f0bebf7e3b9d92fc49741779363cfe" },
	};
	uint8_t key[16], msg[64], want[16], got[16];
	struct crypto_iov parts[2];

	unhex("2b7e151628aed2a6abf7158809cf4f3c", key, sizeof(key));
	unhex("6bc1bee22e409f96e93d7e117393172a"
	      "ae2d8a571e03ac9c9eb76fac45af8e51"
	      "30c81c46a35ce411e5fbc1191a0a52ef"
	      "f69f2445df4f9b17ad2b417be66c3710",
	      msg, sizeof(msg));
	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		unhex(ex[i].mac, want, sizeof(want));
		ck_assert_int_eq(crypto_aes_cmac(key, 16, msg, ex[i].len, got), 0);
		ck_assert_mem_eq(got, want, 16);
		/* Split across a block boundary. */
		size_t cut = ex[i].len ? ex[i].len / 2 + 1 : 0;

		parts[0] = (struct crypto_iov){ msg, cut };
		parts[1] = (struct crypto_iov){ msg + cut, ex[i].len - cut };
		ck_assert_int_eq(crypto_aes_cmac_vec(key, 16, parts, 2, got), 0);
		ck_assert_mem_eq(got, want, 16);
	}
	ck_assert_int_eq(crypto_aes_cmac(key, 15, msg, 16, got), -EINVAL);
	ck_assert_int_eq(crypto_aes_cmac(NULL, 16, msg, 16, got), -EINVAL);
}
END_TEST

/* RFC 3394 section 4: 4.1 .. 4.6 (128/192/256-bit KEKs wrapping 128, 192
 * and 256 bits of key data). */
START_TEST(test_rfc3394_wrap)
{
	static const struct {
		const char *kek, *plain, *wrapped;
	} v[] = {
		{ /* 4.1 */ "000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
		  "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5" },
		{ /* 4.2 */ "000102030405060708090a0b0c0d0e0f1011121314151617",
		  "00112233445566778899aabbccddeeff",
		  "96778b25ae6ca435f92b5b97c050aed2468ab8a17ad84e5d" },
		{ /* 4.3 */ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		  "00112233445566778899aabbccddeeff",
		  "64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7" },
		{ /* 4.4 */ "000102030405060708090a0b0c0d0e0f1011121314151617",
		  "00112233445566778899aabbccddeeff0001020304050607",
		  "031d33264e15d33268f24ec260743edce1c6c7ddee725a936ba814915c6762d2" },
		{ /* 4.5 */ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		  "00112233445566778899aabbccddeeff0001020304050607",
		  "a8f9bc1612c68b3ff6e6f4fbe30e71e4769c8b80a32cb8958cd5d17d6b254da1" },
		{ /* 4.6 */ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		  "00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f",
		  "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43b"
		  "fb988b9b7a02dd21" },
	};
	uint8_t kek[32], plain[32], wrapped[40], out[40];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t kl = unhex(v[i].kek, kek, sizeof(kek));
		size_t pl = unhex(v[i].plain, plain, sizeof(plain));
		size_t wl = unhex(v[i].wrapped, wrapped, sizeof(wrapped));

		ck_assert_uint_eq(wl, pl + 8);
		ck_assert_int_eq(crypto_aes_wrap(kek, kl, plain, pl, out), 0);
		ck_assert_mem_eq(out, wrapped, wl);
		memset(out, 0xee, sizeof(out));
		ck_assert_int_eq(crypto_aes_unwrap(kek, kl, wrapped, wl, out), 0);
		ck_assert_mem_eq(out, plain, pl);
	}
}
END_TEST

START_TEST(test_unwrap_failures)
{
	uint8_t kek[16], wrapped[24], out[24], zero[24] = { 0 };

	/* RFC 3394 4.1 with the wrong KEK, then with a flipped ciphertext bit. */
	unhex("000102030405060708090a0b0c0d0e0f", kek, sizeof(kek));
	unhex("1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5", wrapped, sizeof(wrapped));
	kek[15] ^= 1;
	memset(out, 0xee, sizeof(out));
	ck_assert_int_eq(crypto_aes_unwrap(kek, 16, wrapped, 24, out), -EBADMSG);
	ck_assert_mem_eq(out, zero, 16); /* nothing unauthenticated left behind */
	kek[15] ^= 1;
	wrapped[20] ^= 0x80;
	ck_assert_int_eq(crypto_aes_unwrap(kek, 16, wrapped, 24, out), -EBADMSG);
	wrapped[20] ^= 0x80;
	ck_assert_int_eq(crypto_aes_unwrap(kek, 16, wrapped, 24, out), 0);

	/* Lengths: at least two 64-bit blocks of key data, multiples of 8. */
	ck_assert_int_eq(crypto_aes_unwrap(kek, 16, wrapped, 16, out), -EINVAL);
	ck_assert_int_eq(crypto_aes_unwrap(kek, 16, wrapped, 23, out), -EINVAL);
	ck_assert_int_eq(crypto_aes_unwrap(kek, 20, wrapped, 24, out), -EINVAL);
	ck_assert_int_eq(crypto_aes_wrap(kek, 16, zero, 8, out), -EINVAL);
	ck_assert_int_eq(crypto_aes_wrap(kek, 16, zero, 17, out), -EINVAL);
	ck_assert_int_eq(crypto_aes_wrap(NULL, 16, zero, 16, out), -EINVAL);
}
END_TEST

/* GCM spec (McGrew & Viega, revised 2005) Appendix B test cases for
 * AES-256 with a 96-bit IV. */
START_TEST(test_gcm_mcgrew_viega)
{
	uint8_t key[32], iv[12], aad[20], plain[64], ct[64], tag[16], out[64], got_tag[16];
	size_t pl, al;

	/* Test Case 13: empty P and A */
	memset(key, 0, sizeof(key));
	memset(iv, 0, sizeof(iv));
	unhex("530f8afbc74536b9a963b4f1c4cb738b", tag, sizeof(tag));
	ck_assert_int_eq(crypto_aes_gcm_encrypt(key, 32, iv, 12, NULL, 0, NULL, 0, NULL, got_tag), 0);
	ck_assert_mem_eq(got_tag, tag, 16);
	ck_assert_int_eq(crypto_aes_gcm_decrypt(key, 32, iv, 12, NULL, 0, NULL, 0, tag, NULL), 0);

	/* Test Case 14: one zero block */
	memset(plain, 0, 16);
	unhex("cea7403d4d606b6e074ec5d3baf39d18", ct, sizeof(ct));
	unhex("d0d1c8a799996bf0265b98b5d48ab919", tag, sizeof(tag));
	ck_assert_int_eq(crypto_aes_gcm_encrypt(key, 32, iv, 12, NULL, 0, plain, 16, out, got_tag), 0);
	ck_assert_mem_eq(out, ct, 16);
	ck_assert_mem_eq(got_tag, tag, 16);

	/* Test Case 16: 60-byte P, 20-byte A */
	unhex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", key,
	      sizeof(key));
	pl = unhex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
		   "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
		   plain, sizeof(plain));
	al = unhex("feedfacedeadbeeffeedfacedeadbeefabaddad2", aad, sizeof(aad));
	unhex("cafebabefacedbaddecaf888", iv, sizeof(iv));
	unhex("522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
	      "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
	      ct, sizeof(ct));
	unhex("76fc6ece0f4e1768cddf8853bb2d551b", tag, sizeof(tag));
	ck_assert_uint_eq(pl, 60);
	ck_assert_int_eq(crypto_aes_gcm_encrypt(key, 32, iv, 12, aad, al, plain, pl, out, got_tag), 0);
	ck_assert_mem_eq(out, ct, pl);
	ck_assert_mem_eq(got_tag, tag, 16);
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(crypto_aes_gcm_decrypt(key, 32, iv, 12, aad, al, ct, pl, tag, out), 0);
	ck_assert_mem_eq(out, plain, pl);

	/* Tampering anywhere fails the tag and leaves no plaintext. */
	aad[0] ^= 1;
	ck_assert_int_eq(crypto_aes_gcm_decrypt(key, 32, iv, 12, aad, al, ct, pl, tag, out),
			 -EBADMSG);
	aad[0] ^= 1;
	ct[59] ^= 1;
	ck_assert_int_eq(crypto_aes_gcm_decrypt(key, 32, iv, 12, aad, al, ct, pl, tag, out),
			 -EBADMSG);
	for (size_t i = 0; i < pl; i++)
		ck_assert_uint_eq(out[i], 0);
	ct[59] ^= 1;
	tag[15] ^= 1;
	ck_assert_int_eq(crypto_aes_gcm_decrypt(key, 32, iv, 12, aad, al, ct, pl, tag, out),
			 -EBADMSG);
	ck_assert_int_eq(crypto_aes_gcm_encrypt(key, 24, iv, 12, aad, al, plain, pl, out, got_tag),
			 -EINVAL);
}
END_TEST

/* The AES-CCM core with the nonce and AAD that IEEE Std 802.11-2016 J.6.4
 * (802.11-2012 M.6.4, 802.11i-2004 H.6.4) lists for its CCMP example. */
START_TEST(test_ccm_core_j64)
{
	uint8_t tk[16], nonce[13], aad[22], plain[20], ct[20], mic[8], out[20], got_mic[8];

	unhex("c97c1f67ce371185514a8a19f2bdd52f", tk, sizeof(tk));
	unhex("005030f1844408b5039776e70c", nonce, sizeof(nonce));
	unhex("08400fd2e128a57c5030f1844408abaea5b8fcba0000", aad, sizeof(aad));
	unhex("f8ba1a55d02f85ae967bb62fb6cda8eb7e78a050", plain, sizeof(plain));
	unhex("f3d0a2fe9a3dbf2342a643e43246e80c3c04d019", ct, sizeof(ct));
	unhex("7845ce0b16f97623", mic, sizeof(mic));

	ck_assert_int_eq(crypto_aes_ccm_encrypt(tk, 16, nonce, 13, aad, 22, plain, 20, out, got_mic,
						8),
			 0);
	ck_assert_mem_eq(out, ct, 20);
	ck_assert_mem_eq(got_mic, mic, 8);
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(crypto_aes_ccm_decrypt(tk, 16, nonce, 13, aad, 22, ct, 20, mic, 8, out), 0);
	ck_assert_mem_eq(out, plain, 20);

	mic[0] ^= 1;
	ck_assert_int_eq(crypto_aes_ccm_decrypt(tk, 16, nonce, 13, aad, 22, ct, 20, mic, 8, out),
			 -EBADMSG);
	for (size_t i = 0; i < 20; i++)
		ck_assert_uint_eq(out[i], 0);
	mic[0] ^= 1;
	ck_assert_int_eq(crypto_aes_ccm_decrypt(tk, 16, nonce, 13, aad, 22, ct, 20, mic, 7, out),
			 -EINVAL);
	ck_assert_int_eq(crypto_aes_ccm_decrypt(tk, 16, nonce, 6, aad, 22, ct, 20, mic, 8, out),
			 -EINVAL);

	/* An empty payload still carries a MIC over the AAD. */
	ck_assert_int_eq(crypto_aes_ccm_encrypt(tk, 16, nonce, 13, aad, 22, NULL, 0, NULL, got_mic,
						8),
			 0);
	ck_assert_int_eq(crypto_aes_ccm_decrypt(tk, 16, nonce, 13, aad, 22, NULL, 0, got_mic, 8,
						NULL),
			 0);
	got_mic[3] ^= 4;
	ck_assert_int_eq(crypto_aes_ccm_decrypt(tk, 16, nonce, 13, aad, 22, NULL, 0, got_mic, 8,
						NULL),
			 -EBADMSG);
}
END_TEST

START_TEST(test_secure_helpers)
{
	uint8_t a[32], b[32], zero[32] = { 0 };

	ck_assert(crypto_memeq("abc", "abc", 3));
	ck_assert(!crypto_memeq("abc", "abd", 3));
	ck_assert(crypto_memeq(NULL, NULL, 0));
	ck_assert_int_eq(crypto_random(a, sizeof(a)), 0);
	ck_assert_int_eq(crypto_random(b, sizeof(b)), 0);
	ck_assert(!crypto_memeq(a, b, sizeof(a))); /* 2^-256 chance of a false failure */
	ck_assert_int_eq(crypto_random(NULL, 1), -EINVAL);
	ck_assert_int_eq(crypto_random(NULL, 0), 0);
	crypto_zero(a, sizeof(a));
	ck_assert_mem_eq(a, zero, sizeof(a));
	crypto_zero(NULL, 0);
}
END_TEST

Suite *make_crypto_aes_suite(void)
{
	Suite *s = suite_create("crypto_aes");
	TCase *tc = tcase_create("aes");

	tcase_add_test(tc, test_rfc4493_cmac);
	tcase_add_test(tc, test_rfc3394_wrap);
	tcase_add_test(tc, test_unwrap_failures);
	tcase_add_test(tc, test_gcm_mcgrew_viega);
	tcase_add_test(tc, test_ccm_core_j64);
	suite_add_tcase(s, tc);
	tc = tcase_create("secure");
	tcase_add_test(tc, test_secure_helpers);
	suite_add_tcase(s, tc);
	return s;
}
