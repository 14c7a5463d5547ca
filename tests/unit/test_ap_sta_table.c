/* The AP station table: lookup over the whole MAC address, growth, removal
 * during a walk, and the bucket spread of addresses that share their last
 * octet (hostapd's table hashes only that octet, so hwsim-style addresses
 * 02:00:00:00:NN:00 all collide there; ours must spread them). */
#include "daemon/ap/ap_internal.h"
#include "daemon/ap/ap_sta_table.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define N_SHARED_LAST 1000

static const uint8_t fixed_key[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

static struct ap_sta *sta_with(const uint8_t addr[6])
{
	struct ap_sta *s = calloc(1, sizeof(*s));
	ck_assert_ptr_nonnull(s);
	memcpy(s->addr, addr, 6);
	return s;
}

/* 02:00:00:HI:LO:00 -- every address ends in 00, like hwsim's. */
static void shared_last_octet(unsigned i, uint8_t addr[6])
{
	const uint8_t a[6] = { 0x02, 0x00, 0x00, (uint8_t)(i >> 8), (uint8_t)i, 0x00 };
	memcpy(addr, a, 6);
}

static void free_all(struct sta_table *t)
{
	struct ap_sta *s = sta_table_first(t);
	while (s) {
		struct ap_sta *next = sta_table_next(s);
		sta_table_remove(t, s);
		free(s);
		s = next;
	}
	sta_table_release(t);
}

START_TEST(insert_find_remove)
{
	struct sta_table t;
	uint8_t a[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	uint8_t b[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x56 };
	ck_assert_int_eq(sta_table_init(&t, fixed_key), 0);
	struct ap_sta *sa = sta_with(a), *sb = sta_with(b);
	ck_assert_int_eq(sta_table_insert(&t, sa), 0);
	ck_assert_int_eq(sta_table_insert(&t, sb), 0);
	ck_assert_uint_eq(sta_table_count(&t), 2);
	ck_assert_ptr_eq(sta_table_find(&t, a), sa);
	ck_assert_ptr_eq(sta_table_find(&t, b), sb);

	struct ap_sta *dup = sta_with(a);
	ck_assert_int_eq(sta_table_insert(&t, dup), -EEXIST);
	free(dup);

	sta_table_remove(&t, sa);
	ck_assert_ptr_null(sta_table_find(&t, a));
	ck_assert_ptr_eq(sta_table_find(&t, b), sb);
	ck_assert_uint_eq(sta_table_count(&t), 1);
	free(sa);
	free_all(&t);
}
END_TEST

START_TEST(walk_keeps_arrival_order_and_survives_removal)
{
	struct sta_table t;
	ck_assert_int_eq(sta_table_init(&t, NULL), 0);
	for (unsigned i = 0; i < 100; i++) {
		uint8_t addr[6];
		shared_last_octet(i, addr);
		ck_assert_int_eq(sta_table_insert(&t, sta_with(addr)), 0);
	}
	/* Remove every other entry while walking (next saved first). */
	unsigned i = 0;
	struct ap_sta *s = sta_table_first(&t);
	while (s) {
		struct ap_sta *next = sta_table_next(s);
		uint8_t want[6];
		shared_last_octet(i, want);
		ck_assert_mem_eq(s->addr, want, 6);
		if (i % 2 == 0) {
			sta_table_remove(&t, s);
			free(s);
		}
		i++;
		s = next;
	}
	ck_assert_uint_eq(i, 100);
	ck_assert_uint_eq(sta_table_count(&t), 50);
	for (i = 0; i < 100; i++) {
		uint8_t addr[6];
		shared_last_octet(i, addr);
		ck_assert_msg((sta_table_find(&t, addr) != NULL) == (i % 2 == 1), "entry %u", i);
	}
	free_all(&t);
}
END_TEST

/* The spread itself: with the table grown to keep load under 3/4, 1000
 * addresses sharing their last octet must occupy most of the buckets a
 * uniform hash would (about 790 of 2048) with short chains. A last-octet
 * hash would put all 1000 into one bucket. No timing is measured. */
static void check_spread(const uint8_t *key)
{
	struct sta_table t;
	struct sta_table_stats st;
	ck_assert_int_eq(sta_table_init(&t, key), 0);
	for (unsigned i = 0; i < N_SHARED_LAST; i++) {
		uint8_t addr[6];
		shared_last_octet(i, addr);
		ck_assert_int_eq(sta_table_insert(&t, sta_with(addr)), 0);
	}
	sta_table_get_stats(&t, &st);
	ck_assert_uint_eq(st.count, N_SHARED_LAST);
	ck_assert_uint_ge(st.n_buckets * 3, st.count * 4);
	ck_assert_msg(st.used_buckets >= 650, "only %zu of %zu buckets used", st.used_buckets,
		      st.n_buckets);
	ck_assert_msg(st.max_chain <= 8, "a chain of %zu", st.max_chain);
	for (unsigned i = 0; i < N_SHARED_LAST; i++) {
		uint8_t addr[6];
		shared_last_octet(i, addr);
		struct ap_sta *s = sta_table_find(&t, addr);
		ck_assert_ptr_nonnull(s);
		ck_assert_mem_eq(s->addr, addr, 6);
	}
	free_all(&t);
}

START_TEST(shared_last_octet_spreads_fixed_key)
{
	check_spread(fixed_key);
}
END_TEST

START_TEST(shared_last_octet_spreads_random_key)
{
	check_spread(NULL);
}
END_TEST

/* Addresses differing only in the first octets spread as well: the hash
 * covers all six. */
START_TEST(hash_depends_on_every_octet)
{
	struct sta_table t;
	ck_assert_int_eq(sta_table_init(&t, fixed_key), 0);
	const uint8_t base[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
	uint64_t h0 = sta_table_hash(&t, base);
	for (unsigned octet = 0; octet < 6; octet++) {
		uint8_t a[6];
		memcpy(a, base, 6);
		a[octet] ^= 0x04;
		ck_assert_msg(sta_table_hash(&t, a) != h0, "octet %u ignored", octet);
	}
	/* Same key, same address, same hash; another key, another hash. */
	ck_assert_uint_eq(sta_table_hash(&t, base), h0);
	struct sta_table t2;
	const uint8_t other_key[16] = { 0 };
	ck_assert_int_eq(sta_table_init(&t2, other_key), 0);
	ck_assert_uint_ne(sta_table_hash(&t2, base), h0);
	sta_table_release(&t);
	sta_table_release(&t2);
}
END_TEST

Suite *make_ap_sta_table_suite(void)
{
	Suite *s = suite_create("ap_sta_table");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, insert_find_remove);
	tcase_add_test(tc, walk_keeps_arrival_order_and_survives_removal);
	tcase_add_test(tc, shared_last_octet_spreads_fixed_key);
	tcase_add_test(tc, shared_last_octet_spreads_random_key);
	tcase_add_test(tc, hash_depends_on_every_octet);
	suite_add_tcase(s, tc);
	return s;
}
