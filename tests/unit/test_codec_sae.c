/* The SAE Authentication frame body codec (daemon/codec/sae.h): round
 * trips of every form, and a malformed-input table, each row fed from an
 * exactly sized heap copy so the sanitizer build catches an over-read. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/kde.h"
#include "daemon/codec/sae.h"

static uint8_t scalar19[32], element19[64];

static void fill(void)
{
	for (int i = 0; i < 32; i++)
		scalar19[i] = (uint8_t)(0x10 + i);
	for (int i = 0; i < 64; i++)
		element19[i] = (uint8_t)(0x80 + i);
}

static size_t build(uint8_t *buf, size_t cap, const struct sae_commit_msg *c)
{
	struct wbuf w = wbuf_init(buf, cap);
	ck_assert_int_eq(sae_commit_build(&w, c), CODEC_OK);
	return w.len;
}

START_TEST(test_commit_plain)
{
	uint8_t buf[256];
	struct sae_commit_msg c = { .group = 19, .scalar = scalar19, .scalar_len = 32,
				    .element = element19, .element_len = 64 }, p;
	fill();
	size_t n = build(buf, sizeof(buf), &c);
	ck_assert_uint_eq(n, 2 + 32 + 64);
	ck_assert_uint_eq(buf[0], 19);
	ck_assert_uint_eq(buf[1], 0);
	ck_assert_int_eq(sae_commit_parse(buf, n, false, &p), CODEC_OK);
	ck_assert_uint_eq(p.group, 19);
	ck_assert_ptr_null(p.token);
	ck_assert_ptr_null(p.pw_id);
	ck_assert_mem_eq(p.scalar, scalar19, 32);
	ck_assert_mem_eq(p.element, element19, 64);
}
END_TEST

START_TEST(test_commit_token_and_pwid)
{
	uint8_t buf[256], token[32];
	memset(token, 0xa5, sizeof(token));
	struct sae_commit_msg c = { .group = 19, .scalar = scalar19, .scalar_len = 32,
				    .element = element19, .element_len = 64, .token = token,
				    .token_len = 32, .pw_id = (const uint8_t *)"psk4internet",
				    .pw_id_len = 12 }, p;
	fill();
	size_t n = build(buf, sizeof(buf), &c);
	ck_assert_uint_eq(n, 2 + 32 + 32 + 64 + 3 + 12);
	ck_assert_int_eq(sae_commit_parse(buf, n, false, &p), CODEC_OK);
	ck_assert_uint_eq(p.token_len, 32);
	ck_assert_mem_eq(p.token, token, 32);
	ck_assert_mem_eq(p.scalar, scalar19, 32);
	ck_assert_uint_eq(p.pw_id_len, 12);
	ck_assert_mem_eq(p.pw_id, "psk4internet", 12);
}
END_TEST

START_TEST(test_commit_h2e)
{
	uint8_t buf[256], token[20];
	memset(token, 0x3c, sizeof(token));
	struct sae_commit_msg c = { .group = 19, .h2e = true, .scalar = scalar19,
				    .scalar_len = 32, .element = element19, .element_len = 64,
				    .token = token, .token_len = 20,
				    .rejected = { 20, 21 }, .n_rejected = 2 }, p;
	fill();
	size_t n = build(buf, sizeof(buf), &c);
	ck_assert_uint_eq(n, 2 + 96 + 3 + 4 + 3 + 20);
	ck_assert_int_eq(sae_commit_parse(buf, n, true, &p), CODEC_OK);
	ck_assert(p.has_rejected);
	ck_assert_uint_eq(p.n_rejected, 2);
	ck_assert_uint_eq(p.rejected[0], 20);
	ck_assert_uint_eq(p.rejected[1], 21);
	ck_assert_uint_eq(p.rejected_raw_len, 4);
	ck_assert_mem_eq(p.rejected_raw, "\x14\x00\x15\x00", 4);
	ck_assert_uint_eq(p.token_len, 20);
	ck_assert_mem_eq(p.token, token, 20);
	/* Read as a status-0 commit, the H2E elements cannot be elements:
	 * they end up as a token and shift the scalar. */
	if (sae_commit_parse(buf, n, false, &p) == CODEC_OK)
		ck_assert_mem_ne(p.scalar, scalar19, 32);
}
END_TEST

START_TEST(test_commit_group20)
{
	uint8_t buf[256], s[48] = { 1 }, e[96] = { 2 };
	struct sae_commit_msg c = { .group = 20, .scalar = s, .scalar_len = 48, .element = e,
				    .element_len = 96 }, p;
	size_t n = build(buf, sizeof(buf), &c);
	ck_assert_int_eq(sae_commit_parse(buf, n, false, &p), CODEC_OK);
	ck_assert_uint_eq(p.scalar_len, 48);
	ck_assert_uint_eq(p.element_len, 96);
	/* The builder refuses lengths that do not fit the group. */
	c.scalar_len = 32;
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(sae_commit_build(&w, &c), CODEC_E_INVALID_ARG);
}
END_TEST

START_TEST(test_token_req)
{
	uint8_t buf[64], token[32];
	const uint8_t *t;
	size_t tl;
	uint16_t g;
	memset(token, 7, sizeof(token));
	for (int h2e = 0; h2e <= 1; h2e++) {
		struct wbuf w = wbuf_init(buf, sizeof(buf));
		ck_assert_int_eq(sae_token_req_build(&w, 19, h2e, token, 32), CODEC_OK);
		ck_assert_uint_eq(w.len, h2e ? 2 + 3 + 32 : 2 + 32);
		ck_assert_int_eq(sae_token_req_parse(buf, w.len, h2e, &g, &t, &tl), CODEC_OK);
		ck_assert_uint_eq(g, 19);
		ck_assert_uint_eq(tl, 32);
		ck_assert_mem_eq(t, token, 32);
	}
}
END_TEST

START_TEST(test_confirm)
{
	uint8_t buf[80], conf[32];
	struct sae_confirm_msg m;
	memset(conf, 0x42, sizeof(conf));
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(sae_confirm_build(&w, 0x1234, conf, 32), CODEC_OK);
	ck_assert_uint_eq(w.len, 34);
	ck_assert_uint_eq(buf[0], 0x34);
	ck_assert_int_eq(sae_confirm_parse(buf, w.len, 32, &m), CODEC_OK);
	ck_assert_uint_eq(m.send_confirm, 0x1234);
	ck_assert_mem_eq(m.confirm, conf, 32);
}
END_TEST

/* ---- malformed table ---- */

enum sae_parser { S_COMMIT, S_COMMIT_H2E, S_CONFIRM19, S_TOKEN, S_TOKEN_H2E };

struct bad_row {
	const char *name;
	const uint8_t *bytes;
	size_t len;
	int expect;
	enum sae_parser parser;
};

#define B(s) (const uint8_t *)(s), sizeof(s) - 1
#define Z8 "\0\0\0\0\0\0\0\0"
#define Z32 Z8 Z8 Z8 Z8
#define Z64 Z32 Z32
#define G19 "\x13\x00"
#define SE19 Z32 Z64 /* scalar and element of group 19 */

static const struct bad_row rows[] = {
	{ "empty commit", B(""), CODEC_E_TRUNCATED, S_COMMIT },
	{ "group only", B("\x13"), CODEC_E_TRUNCATED, S_COMMIT },
	{ "group 1 (MODP, not ours)", B("\x01\x00" SE19), CODEC_E_UNSUPPORTED, S_COMMIT },
	{ "group 0", B("\x00\x00" SE19), CODEC_E_UNSUPPORTED, S_COMMIT },
	{ "scalar cut short", B(G19 Z32), CODEC_E_TRUNCATED, S_COMMIT },
	{ "element one octet short", B(G19 Z32 Z32 Z8 Z8 Z8 "\0\0\0\0\0\0\0"), CODEC_E_TRUNCATED,
	  S_COMMIT },
	{ "h2e: trailing octet", B(G19 SE19 "\x00"), CODEC_E_TRUNCATED, S_COMMIT_H2E },
	{ "h2e: unknown element", B(G19 SE19 "\xff\x01\x21" "\xdd\x01\x00"), CODEC_E_MALFORMED,
	  S_COMMIT_H2E },
	{ "pw id runs past the end", B(G19 SE19 "\xff\x09\x21" "abc"), CODEC_E_OVERRUN,
	  S_COMMIT_H2E },
	{ "pw id twice", B(G19 SE19 "\xff\x02\x21" "a" "\xff\x02\x21" "b"), CODEC_E_DUPLICATE,
	  S_COMMIT_H2E },
	{ "rejected groups odd length", B(G19 SE19 "\xff\x04\x5c" "\x14\x00\x15"),
	  CODEC_E_BAD_LENGTH, S_COMMIT_H2E },
	{ "rejected groups empty", B(G19 SE19 "\xff\x01\x5c"), CODEC_E_BAD_LENGTH, S_COMMIT_H2E },
	{ "rejected groups twice", B(G19 SE19 "\xff\x03\x5c\x14\x00" "\xff\x03\x5c\x14\x00"),
	  CODEC_E_DUPLICATE, S_COMMIT_H2E },
	{ "token container empty", B(G19 SE19 "\xff\x01\x5d"), CODEC_E_BAD_LENGTH, S_COMMIT_H2E },
	{ "element header zero length", B(G19 SE19 "\xff\x00\x21"), CODEC_E_MALFORMED,
	  S_COMMIT_H2E },
	{ "ok: pw id, empty identifier", B(G19 SE19 "\xff\x01\x21"), CODEC_OK, S_COMMIT_H2E },
	{ "ok: status 0 with a 1-octet token", B(G19 "\x77" SE19), CODEC_OK, S_COMMIT },
	{ "confirm empty", B(""), CODEC_E_TRUNCATED, S_CONFIRM19 },
	{ "confirm short", B("\x01\x00" Z8), CODEC_E_TRUNCATED, S_CONFIRM19 },
	{ "confirm long", B("\x01\x00" Z32 "\x00"), CODEC_E_BAD_LENGTH, S_CONFIRM19 },
	{ "token req without token", B(G19), CODEC_E_TRUNCATED, S_TOKEN },
	{ "token req h2e raw token", B(G19 "\x01\x02\x03"), CODEC_E_MALFORMED, S_TOKEN_H2E },
	{ "token req h2e wrong element", B(G19 "\xff\x02\x21\x01"), CODEC_E_MALFORMED,
	  S_TOKEN_H2E },
	{ "token req h2e trailing", B(G19 "\xff\x02\x5d\x01\x00"), CODEC_E_MALFORMED,
	  S_TOKEN_H2E },
	{ "token req h2e cut", B(G19 "\xff\x05\x5d\x01"), CODEC_E_OVERRUN, S_TOKEN_H2E },
};

#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

START_TEST(test_bad_row)
{
	const struct bad_row *r = &rows[_i];
	uint8_t *copy = malloc(r->len ? r->len : 1);
	struct sae_commit_msg c;
	struct sae_confirm_msg m;
	const uint8_t *t;
	size_t tl;
	uint16_t g;
	int got = 0;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, r->bytes, r->len);
	switch (r->parser) {
	case S_COMMIT:
	case S_COMMIT_H2E:
		got = sae_commit_parse(copy, r->len, r->parser == S_COMMIT_H2E, &c);
		break;
	case S_CONFIRM19:
		got = sae_confirm_parse(copy, r->len, 32, &m);
		break;
	case S_TOKEN:
	case S_TOKEN_H2E:
		got = sae_token_req_parse(copy, r->len, r->parser == S_TOKEN_H2E, &g, &t, &tl);
		break;
	}
	free(copy);
	ck_assert_msg(got == r->expect, "%s: got %d (%s), want %d (%s)", r->name, got,
		      codec_strerror(got), r->expect, codec_strerror(r->expect));
}
END_TEST

/* The Transition Disable KDE the AP sends in message 3: the Wi-Fi
 * Alliance's 50-6F-9A:0x20 (WPA3 Specification; hostapd's
 * WFA_KEY_DATA_TRANSITION_DISABLE): its bitmap is read, a second one and
 * an empty one are refused, the same type under 00-0F-AC is not it; the
 * builder writes the form the parser reads. */
START_TEST(test_transition_disable_kde)
{
	static const uint8_t one[] = { 0xdd, 0x05, 0x50, 0x6f, 0x9a, 0x20, 0x01 };
	static const uint8_t twice[] = { 0xdd, 0x05, 0x50, 0x6f, 0x9a, 0x20, 0x01,
					 0xdd, 0x05, 0x50, 0x6f, 0x9a, 0x20, 0x01 };
	static const uint8_t empty[] = { 0xdd, 0x04, 0x50, 0x6f, 0x9a, 0x20 };
	static const uint8_t ieee_oui[] = { 0xdd, 0x05, 0x00, 0x0f, 0xac, 0x20, 0x01 };
	struct kde_set k;
	ck_assert_int_eq(kde_parse(one, sizeof(one), &k), CODEC_OK);
	ck_assert(k.has_transition_disable);
	ck_assert_uint_eq(k.transition_disable, KDE_TD_WPA3_PERSONAL);
	ck_assert_int_eq(kde_parse(twice, sizeof(twice), &k), CODEC_E_DUPLICATE);
	ck_assert_int_eq(kde_parse(empty, sizeof(empty), &k), CODEC_E_BAD_LENGTH);
	ck_assert_int_eq(kde_parse(ieee_oui, sizeof(ieee_oui), &k), CODEC_OK);
	ck_assert(!k.has_transition_disable);

	uint8_t buf[16];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(kde_build_transition_disable(&w, KDE_TD_WPA3_PERSONAL), CODEC_OK);
	ck_assert_uint_eq(w.len, sizeof(one));
	ck_assert_mem_eq(buf, one, sizeof(one));
}
END_TEST

Suite *make_codec_sae_suite(void)
{
	Suite *s = suite_create("codec_sae");
	TCase *tc = tcase_create("forms");
	tcase_add_test(tc, test_commit_plain);
	tcase_add_test(tc, test_commit_token_and_pwid);
	tcase_add_test(tc, test_commit_h2e);
	tcase_add_test(tc, test_commit_group20);
	tcase_add_test(tc, test_token_req);
	tcase_add_test(tc, test_confirm);
	tcase_add_test(tc, test_transition_disable_kde);
	suite_add_tcase(s, tc);
	TCase *bad = tcase_create("malformed");
	tcase_add_loop_test(bad, test_bad_row, 0, (int)N_ROWS);
	suite_add_tcase(s, bad);
	return s;
}
