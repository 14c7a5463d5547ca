/* eap/eap_tls_frag: the EAP-TLS/PEAP/TTLS framing (RFC 5216 3.1, RFC 5281
 * 9.1) with hand-built type data: reassembly, fragmentation to the
 * fragment size, ACKs both ways, and a table of malformed input (lengths
 * past the end, a fragment beyond the announced length, floods, a
 * message over 64 KiB). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "eap/eap_tls_frag.h"

START_TEST(unfragmented_message)
{
	struct eap_tls_frag f;
	const uint8_t req[] = { 0x00, 0x16, 0x03, 0x03 };
	const uint8_t *m;
	size_t n;

	eap_tls_frag_init(&f);
	ck_assert_int_eq(eap_tls_frag_rx(&f, req, sizeof(req)), EAP_TLS_RX_MESSAGE);
	m = eap_tls_frag_msg(&f, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_mem_eq(m, req + 1, 3);
	/* L set without fragmenting: the length must agree. */
	const uint8_t withlen[] = { 0x80, 0, 0, 0, 2, 0xaa, 0xbb };
	ck_assert_int_eq(eap_tls_frag_rx(&f, withlen, sizeof(withlen)), EAP_TLS_RX_MESSAGE);
	m = eap_tls_frag_msg(&f, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(m[1], 0xbb);
	eap_tls_frag_reset(&f);
}
END_TEST

START_TEST(start_and_version)
{
	struct eap_tls_frag f;
	const uint8_t start[] = { 0x21 }; /* S, version 1 (PEAPv1 offered) */

	eap_tls_frag_init(&f);
	ck_assert_int_eq(eap_tls_frag_rx(&f, start, 1), EAP_TLS_RX_START);
	ck_assert_uint_eq(f.rx_flags & EAP_TLS_VERSION_MASK, 1);
	eap_tls_frag_reset(&f);
}
END_TEST

START_TEST(reassembly)
{
	struct eap_tls_frag f;
	uint8_t a[] = { 0xc0, 0, 0, 0, 6, 1, 2, 3 };
	uint8_t b[] = { 0x40, 4, 5 };
	uint8_t c[] = { 0x00, 6 };
	uint8_t ack[4];
	const uint8_t *m;
	size_t n;

	eap_tls_frag_init(&f);
	ck_assert_int_eq(eap_tls_frag_rx(&f, a, sizeof(a)), EAP_TLS_RX_NEED_MORE);
	/* Our ACK: the flags octet alone, with the version bits. */
	ck_assert_int_eq(eap_tls_frag_next(&f, 0, ack, sizeof(ack)), 1);
	ck_assert_uint_eq(ack[0], 0);
	ck_assert_int_eq(eap_tls_frag_rx(&f, b, sizeof(b)), EAP_TLS_RX_NEED_MORE);
	ck_assert_int_eq(eap_tls_frag_rx(&f, c, sizeof(c)), EAP_TLS_RX_MESSAGE);
	m = eap_tls_frag_msg(&f, &n);
	ck_assert_uint_eq(n, 6);
	for (int i = 0; i < 6; i++)
		ck_assert_uint_eq(m[i], i + 1);
	eap_tls_frag_reset(&f);
}
END_TEST

START_TEST(fragmentation_and_acks)
{
	struct eap_tls_frag f;
	uint8_t data[2500], buf[1500], out[2500];
	const uint8_t ack[] = { 0x00 };
	size_t got = 0;
	int n;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7);
	eap_tls_frag_init(&f);
	f.frag_size = 1000;
	ck_assert_int_eq(eap_tls_frag_set_out(&f, data, sizeof(data)), 0);
	/* First: L|M, the total, 1000 octets. */
	n = eap_tls_frag_next(&f, 0, buf, sizeof(buf));
	ck_assert_int_eq(n, 1 + 4 + 1000);
	ck_assert_uint_eq(buf[0], 0xc0);
	ck_assert_uint_eq((unsigned)(buf[1] << 24 | buf[2] << 16 | buf[3] << 8 | buf[4]), 2500);
	memcpy(out, buf + 5, 1000);
	got = 1000;
	ck_assert(eap_tls_frag_out_pending(&f));
	/* The server ACKs; the next fragment: M, no length. */
	ck_assert_int_eq(eap_tls_frag_rx(&f, ack, 1), EAP_TLS_RX_ACK);
	n = eap_tls_frag_next(&f, 0, buf, sizeof(buf));
	ck_assert_int_eq(n, 1001);
	ck_assert_uint_eq(buf[0], 0x40);
	memcpy(out + got, buf + 1, 1000);
	got += 1000;
	ck_assert_int_eq(eap_tls_frag_rx(&f, ack, 1), EAP_TLS_RX_ACK);
	n = eap_tls_frag_next(&f, 0, buf, sizeof(buf));
	ck_assert_int_eq(n, 501);
	ck_assert_uint_eq(buf[0], 0x00);
	memcpy(out + got, buf + 1, 500);
	ck_assert_mem_eq(out, data, sizeof(data));
	ck_assert(!eap_tls_frag_out_pending(&f));
	/* A short message goes in one piece without L; version bits kept. */
	ck_assert_int_eq(eap_tls_frag_set_out(&f, data, 10), 0);
	n = eap_tls_frag_next(&f, 1, buf, sizeof(buf));
	ck_assert_int_eq(n, 11);
	ck_assert_uint_eq(buf[0], 0x01);
	/* Too small a buffer. */
	ck_assert_int_eq(eap_tls_frag_set_out(&f, data, 10), 0);
	ck_assert_int_eq(eap_tls_frag_next(&f, 0, buf, 5), -ENOSPC);
	eap_tls_frag_reset(&f);
}
END_TEST

START_TEST(non_ack_while_sending)
{
	struct eap_tls_frag f;
	uint8_t data[3000], buf[1500];
	const uint8_t not_ack[] = { 0x00, 0x16 };

	memset(data, 1, sizeof(data));
	eap_tls_frag_init(&f);
	ck_assert_int_eq(eap_tls_frag_set_out(&f, data, sizeof(data)), 0);
	ck_assert_int_gt(eap_tls_frag_next(&f, 0, buf, sizeof(buf)), 0);
	ck_assert_int_eq(eap_tls_frag_rx(&f, not_ack, sizeof(not_ack)), EAP_TLS_RX_ERROR);
	ck_assert_ptr_nonnull(strstr(f.error, "expected an ACK"));
	eap_tls_frag_reset(&f);
}
END_TEST

/* The malformed table: each input (a sequence of Requests) must end in
 * EAP_TLS_RX_ERROR at its last step with the named error. */
struct bad_case {
	const char *name;
	const uint8_t *steps[4];
	size_t lens[4];
	const char *error_has;
};

static const uint8_t empty[] = { 0 };
static const uint8_t trunc_len[] = { 0x80, 0, 0 };
static const uint8_t too_long[] = { 0xc0, 0x00, 0x01, 0x00, 0x01, 1 }; /* 65537 announced */
static const uint8_t huge[] = { 0xc0, 0xff, 0xff, 0xff, 0xff, 1 };
static const uint8_t first6[] = { 0xc0, 0, 0, 0, 6, 1, 2, 3 };
static const uint8_t beyond[] = { 0x40, 4, 5, 6, 7 };
static const uint8_t shorter_end[] = { 0x00, 4 };
static const uint8_t empty_more[] = { 0x40 };
static const uint8_t no_len_first[] = { 0x40, 1, 2 };
static const uint8_t len_changed[] = { 0xc0, 0, 0, 0, 9, 4 };
static const uint8_t short_with_len[] = { 0x80, 0, 0, 0, 5, 1, 2 };

static const struct bad_case bad[] = {
	{ "no flags", { empty }, { 0 }, "no Flags" },
	{ "length truncated", { trunc_len }, { sizeof(trunc_len) }, "truncated" },
	{ "announced over 64 KiB", { too_long }, { sizeof(too_long) }, "exceeds the limit" },
	{ "announced 4 GiB", { huge }, { sizeof(huge) }, "exceeds the limit" },
	{ "fragment beyond the announced length",
	  { first6, beyond },
	  { sizeof(first6), sizeof(beyond) },
	  "beyond the announced" },
	{ "ends short of the announced length",
	  { first6, shorter_end },
	  { sizeof(first6), sizeof(shorter_end) },
	  "ended at 4 of 6" },
	{ "empty fragment with M", { first6, empty_more }, { sizeof(first6), 1 }, "empty fragment" },
	{ "first fragment without L", { no_len_first }, { sizeof(no_len_first) }, "without TLS Message Length" },
	{ "length changes midway",
	  { first6, len_changed },
	  { sizeof(first6), sizeof(len_changed) },
	  "changed" },
	{ "unfragmented shorter than L", { short_with_len }, { sizeof(short_with_len) }, "ended at 2 of 5" },
};

START_TEST(malformed_table)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct eap_tls_frag f;
		enum eap_tls_frag_rx r = EAP_TLS_RX_MESSAGE;
		size_t k;

		eap_tls_frag_init(&f);
		for (k = 0; k < 4 && bad[i].steps[k]; k++)
			r = eap_tls_frag_rx(&f, bad[i].steps[k], bad[i].lens[k]);
		ck_assert_msg(r == EAP_TLS_RX_ERROR, "%s: %s", bad[i].name,
			      eap_tls_frag_rx_to_string(r));
		ck_assert_msg(strstr(f.error, bad[i].error_has) != NULL, "%s: error '%s'",
			      bad[i].name, f.error);
		/* Nothing half-assembled survives an error. */
		ck_assert_uint_eq(f.in_len, 0);
		eap_tls_frag_reset(&f);
	}
}
END_TEST

START_TEST(fragment_flood)
{
	/* 300 one-octet fragments of a 1000-octet message: refused at 257. */
	struct eap_tls_frag f;
	uint8_t first[] = { 0xc0, 0, 0, 0x03, 0xe8, 0 };
	uint8_t more[] = { 0x40, 0 };
	enum eap_tls_frag_rx r;
	int i;

	eap_tls_frag_init(&f);
	ck_assert_int_eq(eap_tls_frag_rx(&f, first, sizeof(first)), EAP_TLS_RX_NEED_MORE);
	for (i = 2; i <= 300; i++) {
		r = eap_tls_frag_rx(&f, more, sizeof(more));
		if (r != EAP_TLS_RX_NEED_MORE)
			break;
	}
	ck_assert_int_eq(r, EAP_TLS_RX_ERROR);
	ck_assert_int_eq(i, EAP_TLS_FRAG_MAX_FRAGS_DEFAULT + 1);
	ck_assert_ptr_nonnull(strstr(f.error, "more than 256 fragments"));
	eap_tls_frag_reset(&f);
}
END_TEST

START_TEST(total_over_limit_without_length)
{
	/* A message of 64 KiB + 1 in fragments that lie about nothing but
	 * never end: refused once the total passes the limit. */
	struct eap_tls_frag f;
	static uint8_t frag[1 + 4 + 1400];
	enum eap_tls_frag_rx r = EAP_TLS_RX_NEED_MORE;
	size_t sent = 0;

	eap_tls_frag_init(&f);
	f.max_frags = 1000;
	frag[0] = 0xc0;
	frag[1] = 0x00;
	frag[2] = 0x01;
	frag[3] = 0x00;
	frag[4] = 0x00; /* 65536 announced: at the limit, accepted */
	r = eap_tls_frag_rx(&f, frag, sizeof(frag));
	ck_assert_int_eq(r, EAP_TLS_RX_NEED_MORE);
	sent = 1400;
	frag[0] = 0x40;
	while (r == EAP_TLS_RX_NEED_MORE && sent < 70000) {
		r = eap_tls_frag_rx(&f, frag, 1 + 1400);
		sent += 1400;
	}
	ck_assert_int_eq(r, EAP_TLS_RX_ERROR);
	ck_assert_uint_le(sent, 65536 + 1400);
	ck_assert_ptr_nonnull(strstr(f.error, "beyond the announced length"));
	eap_tls_frag_reset(&f);
}
END_TEST

START_TEST(exactly_64k_accepted)
{
	struct eap_tls_frag f;
	uint8_t *msg = malloc(1 + 4 + 65536);
	const uint8_t *m;
	size_t n;

	ck_assert_ptr_nonnull(msg);
	memset(msg, 0x5a, 1 + 4 + 65536);
	msg[0] = 0x80;
	msg[1] = 0;
	msg[2] = 1;
	msg[3] = 0;
	msg[4] = 0;
	eap_tls_frag_init(&f);
	ck_assert_int_eq(eap_tls_frag_rx(&f, msg, 1 + 4 + 65536), EAP_TLS_RX_MESSAGE);
	m = eap_tls_frag_msg(&f, &n);
	ck_assert_uint_eq(n, 65536);
	ck_assert_uint_eq(m[65535], 0x5a);
	eap_tls_frag_reset(&f);
	free(msg);
}
END_TEST

Suite *make_eap_tls_frag_suite(void)
{
	Suite *s = suite_create("eap_tls_frag");
	TCase *tc = tcase_create("frag");

	tcase_add_test(tc, unfragmented_message);
	tcase_add_test(tc, start_and_version);
	tcase_add_test(tc, reassembly);
	tcase_add_test(tc, fragmentation_and_acks);
	tcase_add_test(tc, non_ack_while_sending);
	tcase_add_test(tc, malformed_table);
	tcase_add_test(tc, fragment_flood);
	tcase_add_test(tc, total_over_limit_without_length);
	tcase_add_test(tc, exactly_64k_accepted);
	suite_add_tcase(s, tc);
	return s;
}
