/* The OWE elements (daemon/codec/ie_owe.c): round trips, and a
 * malformed-input table fed from exactly sized heap copies (the sanitizer
 * build catches any over-read) with the exact error asserted. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie_owe.h"
#include "daemon/codec/ieee80211.h"

#define B(s) (const uint8_t *)(s), sizeof(s) - 1
#define X32 "0123456789abcdef0123456789abcdef"
#define BSSID "\x02\x11\x22\x33\x44\x56"

START_TEST(test_owe_dh_round_trip)
{
	uint8_t key[32], buf[64];
	struct ie_owe_dh dh = { .group = 19, .key = key, .key_len = sizeof(key) }, got;
	memset(key, 0xa5, sizeof(key));
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_owe_dh(&w, &dh), CODEC_OK);
	ck_assert_uint_eq(w.len, 2 + 1 + 2 + 32);
	ck_assert_uint_eq(buf[0], WLAN_EID_EXTENSION);
	ck_assert_uint_eq(buf[1], 35);
	ck_assert_uint_eq(buf[2], WLAN_EID_EXT_OWE_DH_PARAM);
	ck_assert_uint_eq(buf[3], 19); /* little-endian group */
	ck_assert_uint_eq(buf[4], 0);
	ck_assert_int_eq(ie_find_owe_dh(buf, w.len, &got), CODEC_OK);
	ck_assert_uint_eq(got.group, 19);
	ck_assert_uint_eq(got.key_len, 32);
	ck_assert_mem_eq(got.key, key, 32);
	/* No element: UNSUPPORTED, so callers tell absent from broken. */
	ck_assert_int_eq(ie_find_owe_dh(buf, 0, &got), CODEC_E_UNSUPPORTED);
	/* A builder refuses an empty key and leaves w untouched. */
	dh.key_len = 0;
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_owe_dh(&w, &dh), CODEC_E_INVALID_ARG);
	ck_assert_uint_eq(w.len, 0);
}
END_TEST

START_TEST(test_owe_trans_round_trip)
{
	uint8_t buf[64];
	struct ie_owe_trans t = { .bssid = { 2, 0x11, 0x22, 0x33, 0x44, 0x56 }, .ssid_len = 9,
				  .has_channel = true, .op_class = 81, .channel = 6 }, got;
	memcpy(t.ssid, "owe-inner", 9);
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_owe_trans(&w, &t), CODEC_OK);
	ck_assert_uint_eq(w.len, 2 + 4 + 6 + 1 + 9 + 2);
	static const uint8_t head[] = { 0xdd, 22, 0x50, 0x6f, 0x9a, 28 };
	ck_assert_mem_eq(buf, head, sizeof(head));
	ck_assert_int_eq(ie_find_owe_trans(buf, w.len, &got), CODEC_OK);
	ck_assert_mem_eq(got.bssid, t.bssid, 6);
	ck_assert_uint_eq(got.ssid_len, 9);
	ck_assert_mem_eq(got.ssid, "owe-inner", 9);
	ck_assert(got.has_channel);
	ck_assert_uint_eq(got.op_class, 81);
	ck_assert_uint_eq(got.channel, 6);
	/* Without band and channel. */
	t.has_channel = false;
	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(ie_build_owe_trans(&w, &t), CODEC_OK);
	ck_assert_int_eq(ie_find_owe_trans(buf, w.len, &got), CODEC_OK);
	ck_assert(!got.has_channel);
	/* Another WFA type is not the element. */
	buf[5] = 27;
	ck_assert_int_eq(ie_find_owe_trans(buf, w.len, &got), CODEC_E_UNSUPPORTED);
}
END_TEST

enum parser { P_DH, P_TRANS, P_FIND_DH, P_FIND_TRANS };

struct bad_case {
	const char *name;
	const uint8_t *bytes;
	size_t len;
	int expect;
	enum parser parser;
};

static const struct bad_case bad[] = {
	{ "dh: empty", B(""), CODEC_E_TRUNCATED, P_DH },
	{ "dh: one octet of group", B("\x13"), CODEC_E_TRUNCATED, P_DH },
	{ "dh: group without a key", B("\x13\x00"), CODEC_E_BAD_LENGTH, P_DH },
	{ "dh: one-octet key (parses; the crypto refuses it)", B("\x13\x00\x01"), CODEC_OK, P_DH },
	{ "dh: 253-octet key", B("\x13\x00" X32 X32 X32 X32 X32 X32 X32 "0123456789abcdef0123456789abc"),
	  CODEC_E_BAD_LENGTH, P_DH },
	{ "trans: empty", B(""), CODEC_E_TRUNCATED, P_TRANS },
	{ "trans: BSSID cut short", B("\x02\x11\x22"), CODEC_E_TRUNCATED, P_TRANS },
	{ "trans: no SSID length", B(BSSID), CODEC_E_TRUNCATED, P_TRANS },
	{ "trans: SSID longer than the element", B(BSSID "\x05" "abc"), CODEC_E_OVERRUN, P_TRANS },
	{ "trans: SSID of 33", B(BSSID "\x21" X32 "x"), CODEC_E_BAD_LENGTH, P_TRANS },
	{ "trans: band without channel", B(BSSID "\x01" "a" "\x51"), CODEC_E_BAD_LENGTH, P_TRANS },
	{ "trans: three trailing octets", B(BSSID "\x01" "a" "\x51\x06\x00"), CODEC_E_BAD_LENGTH,
	  P_TRANS },
	{ "trans: empty SSID (accepted)", B(BSSID "\x00"), CODEC_OK, P_TRANS },
	{ "list: DH element with ext ID only", B("\xff\x01\x20"), CODEC_E_TRUNCATED, P_FIND_DH },
	{ "list: DH element running past the list", B("\xff\x10\x20\x13\x00"),
	  CODEC_E_UNSUPPORTED, P_FIND_DH },
	{ "list: transition element with OUI only", B("\xdd\x04\x50\x6f\x9a\x1c"),
	  CODEC_E_TRUNCATED, P_FIND_TRANS },
};

START_TEST(test_owe_malformed)
{
	const struct bad_case *c = &bad[_i];
	uint8_t *copy = malloc(c->len ? c->len : 1);
	struct ie_owe_dh dh;
	struct ie_owe_trans t;
	int got = 0;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, c->bytes, c->len);
	switch (c->parser) {
	case P_DH:
		got = ie_parse_owe_dh(copy, c->len, &dh);
		break;
	case P_TRANS:
		got = ie_parse_owe_trans(copy, c->len, &t);
		break;
	case P_FIND_DH:
		got = ie_find_owe_dh(copy, c->len, &dh);
		break;
	case P_FIND_TRANS:
		got = ie_find_owe_trans(copy, c->len, &t);
		break;
	}
	free(copy);
	ck_assert_msg(got == c->expect, "%s: got %d (%s), want %d", c->name, got,
		      codec_strerror(got), c->expect);
}
END_TEST

Suite *make_codec_owe_suite(void)
{
	Suite *s = suite_create("codec_owe");
	TCase *tc = tcase_create("owe");
	tcase_add_test(tc, test_owe_dh_round_trip);
	tcase_add_test(tc, test_owe_trans_round_trip);
	tcase_add_loop_test(tc, test_owe_malformed, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}
