/* The access point's group keys: generation, alternating key IDs, rekey. */
#include <check.h>
#include <string.h>

#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/group.h"

START_TEST(gtk_alternates_key_ids)
{
	struct rsn_group *g = rsn_group_new(RSN_CIPHER_CCMP_128, 0);
	uint8_t prev[16];

	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_null(rsn_group_igtk(g));
	const struct rsn_group_key *k = rsn_group_gtk(g);
	ck_assert_uint_eq(k->key_idx, 1);
	ck_assert_uint_eq(k->len, 16);
	ck_assert_uint_eq(k->cipher, RSN_CIPHER_CCMP_128);
	ck_assert_uint_eq(rsn_group_generation(g), 1);
	for (unsigned int i = 0; i < 6; i++) {
		memcpy(prev, k->key, 16);
		ck_assert_int_eq(rsn_group_rekey(g), 0);
		k = rsn_group_gtk(g);
		ck_assert_uint_eq(k->key_idx, i % 2 ? 1 : 2);
		ck_assert(memcmp(prev, k->key, 16) != 0);
		ck_assert_uint_eq(rsn_group_generation(g), i + 2);
	}
	static const uint8_t seq[6] = { 1, 2, 3, 4, 5, 6 };
	rsn_group_set_seq(g, seq);
	ck_assert_mem_eq(rsn_group_gtk(g)->seq, seq, 6);
	ck_assert_int_eq(rsn_group_rekey(g), 0);
	static const uint8_t zero[6];
	ck_assert_mem_eq(rsn_group_gtk(g)->seq, zero, 6);
	rsn_group_free(g);
}
END_TEST

START_TEST(igtk_alternates_4_and_5)
{
	struct rsn_group *g = rsn_group_new(RSN_CIPHER_GCMP_256, RSN_CIPHER_BIP_GMAC_256);

	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(rsn_group_gtk(g)->len, 32);
	const struct rsn_group_key *i = rsn_group_igtk(g);
	ck_assert_ptr_nonnull(i);
	ck_assert_uint_eq(i->key_idx, 4);
	ck_assert_uint_eq(i->len, 32);
	ck_assert_int_eq(rsn_group_rekey(g), 0);
	ck_assert_uint_eq(rsn_group_igtk(g)->key_idx, 5);
	ck_assert_int_eq(rsn_group_rekey(g), 0);
	ck_assert_uint_eq(rsn_group_igtk(g)->key_idx, 4);
	rsn_group_free(g);
}
END_TEST

START_TEST(bad_ciphers_refused)
{
	ck_assert_ptr_null(rsn_group_new(RSN_CIPHER_TKIP, 0));
	ck_assert_ptr_null(rsn_group_new(RSN_CIPHER_WEP104, 0));
	ck_assert_ptr_null(rsn_group_new(RSN_CIPHER_CCMP_128, RSN_CIPHER_CCMP_128));
	ck_assert_ptr_null(rsn_group_new(RSN_CIPHER_BIP_CMAC_128, 0));
	rsn_group_free(NULL);
}
END_TEST

Suite *make_rsn_group_suite(void)
{
	Suite *s = suite_create("rsn_group");
	TCase *tc = tcase_create("keys");

	tcase_add_test(tc, gtk_alternates_key_ids);
	tcase_add_test(tc, igtk_alternates_4_and_5);
	tcase_add_test(tc, bad_ciphers_refused);
	suite_add_tcase(s, tc);
	return s;
}
