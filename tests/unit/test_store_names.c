/* File names of known networks: plain or '=hex', one name per network. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "daemon/store/ssid_name.h"

struct name_case {
	const char *ssid;
	size_t len;
	enum known_security sec;
	const char *name;
};

static const struct name_case names[] = {
	{ "home", 4, KNOWN_SEC_PSK, "home.psk" },
	{ "Cafe Guest-5G_x", 15, KNOWN_SEC_OPEN, "Cafe Guest-5G_x.open" },
	{ "corp", 4, KNOWN_SEC_8021X, "corp.8021x" },
	{ "a.b (2)#!", 9, KNOWN_SEC_PSK, "a.b (2)#!.psk" },
	{ "\xf0\x9f\x93\xb6", 4, KNOWN_SEC_PSK, "=f09f93b6.psk" }, /* emoji */
	{ "a/b", 3, KNOWN_SEC_PSK, "=612f62.psk" }, /* slash */
	{ "..", 2, KNOWN_SEC_OPEN, "=2e2e.open" }, /* dots */
	{ ".hidden", 7, KNOWN_SEC_PSK, "=2e68696464656e.psk" }, /* leading dot */
	{ "=x", 2, KNOWN_SEC_PSK, "=3d78.psk" }, /* our marker */
	{ "-rf", 3, KNOWN_SEC_PSK, "=2d7266.psk" }, /* option-like */
	{ " pad ", 5, KNOWN_SEC_PSK, "=2070616420.psk" }, /* edge spaces */
	{ "tab\there", 8, KNOWN_SEC_PSK, "=7461620968657265.psk" },
	{ "nul\0in", 6, KNOWN_SEC_PSK, "=6e756c00696e.psk" },
	{ "a:b", 3, KNOWN_SEC_PSK, "=613a62.psk" },
	{ "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
	  "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
	  32, KNOWN_SEC_8021X,
	  "=ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff.8021x" },
	{ "12345678901234567890123456789012", 32, KNOWN_SEC_PSK,
	  "12345678901234567890123456789012.psk" },
};

START_TEST(encode_decode)
{
	const struct name_case *c = &names[_i];
	char name[KNOWN_NAME_MAX];
	uint8_t ssid[KNOWN_SSID_MAX];
	size_t len;
	enum known_security sec;

	ck_assert_int_eq(known_name_encode((const uint8_t *)c->ssid, c->len, c->sec, name), 0);
	ck_assert_str_eq(name, c->name);
	ck_assert(strlen(name) < KNOWN_NAME_MAX);
	ck_assert_ptr_null(strchr(name, '/'));
	ck_assert_int_ne(name[0], '.');
	ck_assert_int_eq(known_name_decode(name, ssid, &len, &sec), 0);
	ck_assert_uint_eq(len, c->len);
	ck_assert_mem_eq(ssid, c->ssid, len);
	ck_assert_int_eq(sec, c->sec);
}
END_TEST

START_TEST(refused)
{
	char name[KNOWN_NAME_MAX];
	uint8_t ssid[KNOWN_SSID_MAX];
	size_t len;
	enum known_security sec;
	uint8_t big[33] = { 0 };

	/* An empty or over-long SSID has no file. */
	ck_assert_int_eq(known_name_encode((const uint8_t *)"", 0, KNOWN_SEC_PSK, name), -EINVAL);
	ck_assert_int_eq(known_name_encode(big, 33, KNOWN_SEC_PSK, name), -EINVAL);

	static const char *const bad[] = {
		".psk", /* empty SSID */
		"=.psk", /* empty hex */
		"home.txt", /* not a network extension */
		"home", /* no extension */
		"=616263.psk", /* "abc" must be written plain */
		"=F09F93B6.psk", /* upper-case hex is not canonical */
		"=f09f93b.psk", /* odd length */
		"=zz.psk", /* not hex */
		".hidden.psk", /* plain name that should be hex */
		" pad.psk",
		"=ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff.psk", /* 33 */
		"123456789012345678901234567890123.psk", /* 33 bytes plain */
		".wpad-tmp-123-4",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(known_name_decode(bad[i], ssid, &len, &sec) == -EINVAL, "%s", bad[i]);
	ck_assert(known_name_has_ext("x.open") && !known_name_has_ext("x.opens"));
}
END_TEST

Suite *make_store_names_suite(void)
{
	Suite *s = suite_create("store_names");
	TCase *tc = tcase_create("names");
	tcase_add_loop_test(tc, encode_decode, 0, (int)(sizeof(names) / sizeof(names[0])));
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	return s;
}
