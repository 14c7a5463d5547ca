/* CCMP-128 / CCMP-256 MPDU protection against published vectors:
 *   - IEEE Std 802.11-2016 J.6.4 (= 802.11-2012 M.6.4, 802.11i-2004 H.6.4),
 *   - IEEE P802.11i/D7.0 I.7.4 test MPDUs 2, 6 and 7 (as transcribed in
 *     FreeBSD's tools/regression/net80211/ccmp/test_ccmp.c),
 *   - IEEE Std 802.11-2012 M.9.2 (CCMP-protected Deauthentication frame),
 *   - IEEE P802.11ac/D7.0 M.6.4 (CCMP-256),
 * plus QoS / 4-address round trips and the failure cases. */
#include "tests/unit/test_hex.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "daemon/crypto/crypto.h"

struct ccmp_vector {
	const char *name;
	const char *tk;
	uint64_t pn;
	uint8_t key_id;
	const char *hdr;   /* plaintext MAC header */
	const char *aad;   /* "muted" header listed by the source */
	const char *nonce; /* CCM nonce listed by the source */
	const char *plain;
	const char *mpdu; /* protected MPDU without FCS */
};

static const struct ccmp_vector vectors[] = {
	{
		/* IEEE Std 802.11-2016 J.6.4: Data frame, Retry set */
		"802.11 J.6.4",
		"c97c1f67ce371185514a8a19f2bdd52f",
		0xB5039776E70CULL,
		0,
		"0848c32c0fd2e128a57c5030f1844408abaea5b8fcba8033",
		"08400fd2e128a57c5030f1844408abaea5b8fcba0000",
		"005030f1844408b5039776e70c",
		"f8ba1a55d02f85ae967bb62fb6cda8eb7e78a050",
		"0848c32c0fd2e128a57c5030f1844408abaea5b8fcba8033"
		"0ce70020769703b5"
		"f3d0a2fe9a3dbf2342a643e43246e80c3c04d019"
		"7845ce0b16f97623",
	},
	{
		/* P802.11i/D7.0 I.7.4 test mpdu 2: Data+CF-Ack+CF-Poll, Order set
		 * (non-QoS, so Order stays in the AAD), key ID 2 */
		"802.11i D7.0 mpdu 2",
		"8f7a053fa577a5597529272097a603d5",
		0x31F3CBBA97EAULL,
		2,
		"38c06a51ea100c846850eec1762c88deaf2ee9f46a07e0cc",
		"08c0ea100c846850eec1762c88deaf2ee9f46a070000",
		"00eec1762c88de31f3cbba97ea",
		"83a0634b5ed7627eb9df225e05740342de194117",
		"38c06a51ea100c846850eec1762c88deaf2ee9f46a07e0cc"
		"ea9700a0bacbf331"
		"814b6965d05bf2b2ed38d4beb069fe82714a610b"
		"542fbf8da06aa4ae",
	},
	{
		/* P802.11i/D7.0 I.7.4 test mpdu 6: QoS Data, FromDS, PwrMgt,
		 * QC 0x6a3d (TID 13; the other QC bits are masked), key ID 1 */
		"802.11i D7.0 mpdu 6",
		"f71eea4e1f58804b9717230ad0614641",
		0x6B81ECA48989ULL,
		1,
		"8852e11f5af28430fdabbff943b9f9a6ab1d98c7fe7350713d6a",
		"88425af28430fdabbff943b9f9a6ab1d98c7fe7300000d00",
		"0dbff943b9f9a66b81eca48989",
		"abfda22d3a0bfc9cc1fc079363c2fca143e6eb1d",
		"8852e11f5af28430fdabbff943b9f9a6ab1d98c7fe7350713d6a"
		"89890060a4ec816b"
		"9a709b60a39d40b1dfb612e18b5f114badb6cc86"
		"309a8d5c466bbb71",
	},
	{
		/* P802.11i/D7.0 I.7.4 test mpdu 7: Data+CF-Ack, ToDS, Retry,
		 * PwrMgt and MoreData set, key ID 3 */
		"802.11i D7.0 mpdu 7",
		"1bdb34980e038124a1db1a892bec366a",
		0x5EEC4073E723ULL,
		3,
		"187981469b50f4fd56f6efec9520169183570c4ccdee20a0",
		"08419b50f4fd56f6efec9520169183570c4ccdee0000",
		"00efec952016915eec4073e723",
		"98beca86f4b38da20cfdf24724c58eb835665339",
		"187981469b50f4fd56f6efec9520169183570c4ccdee20a0"
		"23e700e07340ec5e"
		"12c537ebf3ab584ef1fef9a1f3547a8c13b3225a"
		"2d0957ecfabe95b9",
	},
	{
		/* IEEE Std 802.11-2012 M.9.2: unicast Deauthentication frame
		 * (Management: nonce flag 0x10, subtype kept in the AAD). The
		 * expected MPDU matches two independent public implementations;
		 * the AAD and nonce follow from 12.5.3.3.3/4. */
		"802.11 M.9.2 deauth",
		"66ed21042f9f26d7115706e40414cf2e",
		1,
		0,
		"c00000000200000001000200000000000200000000006000",
		"c040" "020000000100" "020000000000" "020000000000" "0000",
		"10020000000000000000000001",
		"0200",
		"c04000000200000001000200000000000200000000006000"
		"0100002000000000"
		"1d07"
		"cafd0409bb8bafef",
	},
};

START_TEST(test_ccmp_vectors)
{
	const struct ccmp_vector *v = &vectors[_i];
	uint8_t tk[16], hdr[32], aad[CCMP_AAD_MAX_LEN], want_aad[32], nonce[13], want_nonce[13];
	uint8_t plain[64], mpdu[128], out[128], dec[64];
	size_t hdr_len, aad_len, plain_len, mpdu_len, out_len = 0, dec_len = 0;
	uint64_t pn = 0;

	unhex(v->tk, tk, sizeof(tk));
	hdr_len = unhex(v->hdr, hdr, sizeof(hdr));
	plain_len = unhex(v->plain, plain, sizeof(plain));
	mpdu_len = unhex(v->mpdu, mpdu, sizeof(mpdu));

	/* The intermediate values the sources list. */
	ck_assert_int_eq(ccmp_build_aad(hdr, hdr_len, aad, &aad_len), 0);
	ck_assert_uint_eq(aad_len, unhex(v->aad, want_aad, sizeof(want_aad)));
	ck_assert_mem_eq(aad, want_aad, aad_len);
	ck_assert_int_eq(ccmp_build_nonce(hdr, hdr_len, v->pn, nonce), 0);
	unhex(v->nonce, want_nonce, sizeof(want_nonce));
	ck_assert_mem_eq(nonce, want_nonce, 13);

	/* Encapsulation. */
	ck_assert_int_eq(ccmp_encrypt(tk, hdr, hdr_len, v->pn, v->key_id, plain, plain_len, out,
				      &out_len),
			 0);
	ck_assert_uint_eq(out_len, mpdu_len);
	ck_assert_mem_eq(out, mpdu, mpdu_len);

	/* Decapsulation of the published MPDU. */
	ck_assert_int_eq(ccmp_decrypt(tk, mpdu, mpdu_len, hdr_len, dec, &dec_len, &pn), 0);
	ck_assert_uint_eq(dec_len, plain_len);
	ck_assert_mem_eq(dec, plain, plain_len);
	ck_assert_uint_eq(pn, v->pn);
}
END_TEST

/* IEEE P802.11ac/D7.0 M.6.4: CCMP-256 test vector (the J.6.4 frame under a
 * 256-bit TK, 16-byte MIC). */
START_TEST(test_ccmp256_vector)
{
	uint8_t tk[32], hdr[24], plain[20], mpdu[80], out[80], dec[20];
	size_t out_len = 0, dec_len = 0, mpdu_len;
	uint64_t pn = 0;

	unhex("c97c1f67ce371185514a8a19f2bdd52f000102030405060708090a0b0c0d0e0f", tk, sizeof(tk));
	unhex("0848c32c0fd2e128a57c5030f1844408abaea5b8fcba8033", hdr, sizeof(hdr));
	unhex("f8ba1a55d02f85ae967bb62fb6cda8eb7e78a050", plain, sizeof(plain));
	mpdu_len = unhex("0848c32c0fd2e128a57c5030f1844408abaea5b8fcba8033"
			 "0ce70020769703b5"
			 "6d155d8832668256d6a92b78e11d8e54495dd174"
			 "80aa56c9492e882b97642f80d50fe97b",
			 mpdu, sizeof(mpdu));
	ck_assert_int_eq(ccmp256_encrypt(tk, hdr, 24, 0xB5039776E70CULL, 0, plain, 20, out, &out_len),
			 0);
	ck_assert_uint_eq(out_len, mpdu_len);
	ck_assert_mem_eq(out, mpdu, mpdu_len);
	ck_assert_int_eq(ccmp256_decrypt(tk, mpdu, mpdu_len, 24, dec, &dec_len, &pn), 0);
	ck_assert_uint_eq(dec_len, 20);
	ck_assert_mem_eq(dec, plain, 20);
	ck_assert_uint_eq(pn, 0xB5039776E70CULL);
	mpdu[mpdu_len - 1] ^= 1;
	ck_assert_int_eq(ccmp256_decrypt(tk, mpdu, mpdu_len, 24, dec, &dec_len, &pn), -EBADMSG);
}
END_TEST

/* QoS Data, 4-address (ToDS+FromDS), TID 5, HT Control present (Order set):
 * header = 24 + 6 (A4) + 2 (QC) + 4 (HTC) = 36 bytes. */
static const uint8_t qos4_hdr[36] = {
	0x88, 0x8b, /* QoS Data; ToDS FromDS Retry, Order */
	0x2c, 0x00,				/* Duration */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01,	/* A1 */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02,	/* A2 */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x03,	/* A3 */
	0x53, 0x12,				/* SC: seq 0x125, frag 3 */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x04,	/* A4 */
	0xa5, 0x07,				/* QC: TID 5, A-MSDU present, TXOP 7 */
	0x11, 0x22, 0x33, 0x44,			/* HT Control */
};

START_TEST(test_ccmp_qos_4addr_aad)
{
	/* Expected AAD and nonce written out from 12.5.3.3.3 / 12.5.3.3.4:
	 * FC 0x888b -> subtype b4-b6 clear (0x88), Retry and Order clear,
	 * Protected set (0x43); SC -> 0x0003; A4; QC -> 0x0005; no HTC. */
	static const uint8_t want_aad[30] = {
		0x88, 0x43, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00,
		0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x03,
		0x03, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x04, 0x05, 0x00,
	};
	static const uint8_t want_nonce[13] = {
		0x05, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04,
	};
	uint8_t aad[CCMP_AAD_MAX_LEN], nonce[13];
	size_t aad_len = 0;

	ck_assert_int_eq(ccmp_build_aad(qos4_hdr, sizeof(qos4_hdr), aad, &aad_len), 0);
	ck_assert_uint_eq(aad_len, 30);
	ck_assert_mem_eq(aad, want_aad, 30);
	ck_assert_int_eq(ccmp_build_nonce(qos4_hdr, sizeof(qos4_hdr), 0x000001020304ULL, nonce), 0);
	ck_assert_mem_eq(nonce, want_nonce, 13);

	/* The header length must match what FC says. */
	ck_assert_int_eq(ccmp_build_aad(qos4_hdr, 32, aad, &aad_len), -EINVAL);
	ck_assert_int_eq(ccmp_build_aad(qos4_hdr, 38, aad, &aad_len), -EINVAL);
}
END_TEST

START_TEST(test_ccmp_qos_roundtrip)
{
	uint8_t tk[16], plain[300], out[400], dec[300], frame[400];
	size_t out_len = 0, dec_len = 0;
	uint64_t pn = 0;

	for (size_t i = 0; i < sizeof(tk); i++)
		tk[i] = (uint8_t)(0x40 + i);
	for (size_t i = 0; i < sizeof(plain); i++)
		plain[i] = (uint8_t)(i * 7);

	for (size_t len = 0; len <= sizeof(plain); len += 37) {
		ck_assert_int_eq(ccmp_encrypt(tk, qos4_hdr, sizeof(qos4_hdr), 0xfedcba987654ULL, 3,
					      plain, len, out, &out_len),
				 0);
		ck_assert_uint_eq(out_len, 36 + 8 + len + 8);
		ck_assert_uint_eq(out[1] & 0x40, 0x40); /* Protected set on air */
		ck_assert_uint_eq(out[36 + 3], 0xe0);	/* Ext IV, key ID 3 */
		ck_assert_int_eq(ccmp_decrypt(tk, out, out_len, 36, dec, &dec_len, &pn), 0);
		ck_assert_uint_eq(dec_len, len);
		if (len)
			ck_assert_mem_eq(dec, plain, len);
		ck_assert_uint_eq(pn, 0xfedcba987654ULL);
	}

	/* Bits the AAD masks may change in flight without breaking the MIC. */
	ck_assert_int_eq(ccmp_encrypt(tk, qos4_hdr, sizeof(qos4_hdr), 7, 0, plain, 100, frame,
				      &out_len),
			 0);
	memcpy(out, frame, out_len);
	out[1] ^= 0x08 | 0x10 | 0x20; /* Retry, PwrMgt, MoreData */
	out[22] ^= 0xf0;	      /* sequence number */
	out[30] ^= 0x70;	      /* QC: EOSP / Ack Policy */
	out[31] ^= 0xff;	      /* QC: TXOP */
	out[32] ^= 0xff;	      /* HT Control is not in the AAD */
	ck_assert_int_eq(ccmp_decrypt(tk, out, out_len, 36, dec, &dec_len, &pn), 0);

	/* ...but not the ones it keeps. */
	static const size_t protected_bytes[] = { 4, 10, 16, 22 /* frag */, 24, 30 /* TID */ };
	static const uint8_t flips[] = { 0x01, 0x80, 0x10, 0x01, 0x40, 0x01 };

	for (size_t k = 0; k < sizeof(flips); k++) {
		memcpy(out, frame, out_len);
		out[protected_bytes[k]] ^= flips[k];
		memset(dec, 0xee, sizeof(dec));
		ck_assert_int_eq(ccmp_decrypt(tk, out, out_len, 36, dec, &dec_len, &pn), -EBADMSG);
		for (size_t i = 0; i < 100; i++)
			ck_assert_uint_eq(dec[i], 0);
	}
	/* A flipped bit in the PN, the body or the MIC. */
	static const size_t body_bytes[] = { 36, 36 + 8, 36 + 8 + 99, 36 + 8 + 100 + 7 };

	for (size_t k = 0; k < sizeof(body_bytes) / sizeof(body_bytes[0]); k++) {
		memcpy(out, frame, out_len);
		out[body_bytes[k]] ^= 0x04;
		ck_assert_int_eq(ccmp_decrypt(tk, out, out_len, 36, dec, &dec_len, &pn), -EBADMSG);
	}
	/* Wrong key. */
	tk[0] ^= 1;
	ck_assert_int_eq(ccmp_decrypt(tk, frame, out_len, 36, dec, &dec_len, &pn), -EBADMSG);
}
END_TEST

START_TEST(test_ccmp_bad_input)
{
	uint8_t tk[16] = { 0 }, hdr[24], out[128], dec[64];
	uint8_t plain[16] = { 0 };
	size_t out_len = 0, dec_len = 0;

	unhex("0848c32c0fd2e128a57c5030f1844408abaea5b8fcba8033", hdr, sizeof(hdr));
	/* PN beyond 48 bits, key ID beyond 3. */
	ck_assert_int_eq(ccmp_encrypt(tk, hdr, 24, CCMP_PN_MAX + 1, 0, plain, 16, out, &out_len),
			 -EINVAL);
	ck_assert_int_eq(ccmp_encrypt(tk, hdr, 24, CCMP_PN_MAX, 0, plain, 16, out, &out_len), 0);
	ck_assert_int_eq(ccmp_encrypt(tk, hdr, 24, 1, 4, plain, 16, out, &out_len), -EINVAL);
	/* Header length disagreeing with FC. */
	ck_assert_int_eq(ccmp_encrypt(tk, hdr, 26, 1, 0, plain, 16, out, &out_len), -EINVAL);
	ck_assert_int_eq(ccmp_encrypt(tk, hdr, 23, 1, 0, plain, 16, out, &out_len), -EINVAL);
	/* Control frame (type 1), and protocol version 1. */
	hdr[0] = 0xd4;
	ck_assert_int_eq(ccmp_encrypt(tk, hdr, 24, 1, 0, plain, 16, out, &out_len), -EINVAL);
	hdr[0] = 0x09;
	ck_assert_int_eq(ccmp_encrypt(tk, hdr, 24, 1, 0, plain, 16, out, &out_len), -EINVAL);
	hdr[0] = 0x08;
	ck_assert_int_eq(ccmp_encrypt(NULL, hdr, 24, 1, 0, plain, 16, out, &out_len), -EINVAL);
	ck_assert_int_eq(ccmp_encrypt(tk, hdr, 24, 1, 0, NULL, 16, out, &out_len), -EINVAL);

	ck_assert_int_eq(ccmp_encrypt(tk, hdr, 24, 5, 1, plain, 16, out, &out_len), 0);
	ck_assert_uint_eq(out_len, 56);
	/* Too short for CCMP header + MIC. */
	ck_assert_int_eq(ccmp_decrypt(tk, out, 24 + 15, 24, dec, &dec_len, NULL), -EINVAL);
	ck_assert_int_eq(ccmp_decrypt(tk, out, 20, 24, dec, &dec_len, NULL), -EINVAL);
	/* Ext IV bit clear. */
	out[24 + 3] &= (uint8_t)~0x20;
	ck_assert_int_eq(ccmp_decrypt(tk, out, out_len, 24, dec, &dec_len, NULL), -EINVAL);
	out[24 + 3] |= 0x20;
	ck_assert_int_eq(ccmp_decrypt(tk, out, out_len, 24, dec, &dec_len, NULL), 0);
	ck_assert_uint_eq(dec_len, 16);
	/* Header / CCMP helpers. */
	ck_assert_int_eq(ccmp_put_header(1, 4, out), -EINVAL);
	ck_assert_int_eq(ccmp_get_header(out + 24, NULL, NULL), -EINVAL);
}
END_TEST

Suite *make_crypto_ccmp_suite(void)
{
	Suite *s = suite_create("crypto_ccmp");
	TCase *tc = tcase_create("ccmp");

	tcase_add_loop_test(tc, test_ccmp_vectors, 0, (int)(sizeof(vectors) / sizeof(vectors[0])));
	tcase_add_test(tc, test_ccmp256_vector);
	tcase_add_test(tc, test_ccmp_qos_4addr_aad);
	tcase_add_test(tc, test_ccmp_qos_roundtrip);
	tcase_add_test(tc, test_ccmp_bad_input);
	suite_add_tcase(s, tc);
	return s;
}
