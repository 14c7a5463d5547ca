/* The PMKID and the PMKSA cache (daemon/rsn/pmksa.h): hit, miss, expiry,
 * reauthentication threshold, eviction of the oldest, flush by network and
 * by peer, on a clock the test drives. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/rsn/pmksa.h"
#include "tests/unit/test_hex.h"

/* The PMK of IEEE 802.11-2020 Annex J.4.2 (passphrase "password", SSID
 * "IEEE"); the PMKIDs below for AA 02:00:00:00:01:00 and SPA
 * 02:00:00:00:02:00 have no published vector (neither 802.11 Annex J nor
 * the RFCs give one), so they were computed independently with Python's
 * hmac/hashlib (HMAC over "PMK Name" || AA || SPA, first 16 octets) per
 * 12.7.1.3. */
static const char annex_j_pmk[] =
	"f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e";
static const uint8_t aa[6] = { 2, 0, 0, 0, 1, 0 };
static const uint8_t spa[6] = { 2, 0, 0, 0, 2, 0 };

static void check_pmkid(uint32_t akm, const char *want)
{
	uint8_t pmk[32], got[16], exp[16];
	ck_assert_int_eq(unhex(annex_j_pmk, pmk, sizeof(pmk)), 32);
	ck_assert_int_eq(unhex(want, exp, sizeof(exp)), 16);
	ck_assert_int_eq(rsn_pmkid(akm, pmk, 32, aa, spa, got), 0);
	ck_assert_mem_eq(got, exp, 16);
}

START_TEST(pmkid_sha1_sha256_sha384)
{
	check_pmkid(RSN_AKM_PSK, "580929b5fce6bdc7443425efbdecf361");
	check_pmkid(RSN_AKM_8021X, "580929b5fce6bdc7443425efbdecf361");
	check_pmkid(RSN_AKM_PSK_SHA256, "de726b19b68f8b3fb2b7a0493eae5027");
	check_pmkid(RSN_AKM_8021X_SHA256, "de726b19b68f8b3fb2b7a0493eae5027");
	check_pmkid(RSN_AKM_8021X_SHA384, "18db596cdf0fe4e8b2ef95b2eb3e4dfb");
}
END_TEST

START_TEST(pmkid_refuses_what_it_cannot_name)
{
	uint8_t pmk[32] = { 1 }, out[16];
	ck_assert_int_eq(rsn_pmkid(RSN_AKM_SAE, pmk, 32, aa, spa, out), -ENOTSUP);
	ck_assert_int_eq(rsn_pmkid(RSN_AKM_OWE, pmk, 32, aa, spa, out), -ENOTSUP);
	ck_assert_int_eq(rsn_pmkid(RSN_AKM_PSK, pmk, 8, aa, spa, out), -EINVAL);
	ck_assert_int_eq(rsn_pmkid(RSN_AKM_PSK, NULL, 32, aa, spa, out), -EINVAL);
}
END_TEST

/* Entries are timed on the loop's clock: a virtual one here. */
static struct loop *vloop;

static void setup(void)
{
	vloop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	ck_assert_ptr_nonnull(vloop);
}

static void teardown(void)
{
	loop_free(vloop);
}

static void advance(uint64_t us)
{
	loop_advance_us(vloop, us);
}

static const uint8_t own[6] = { 2, 0, 0, 0, 0, 1 };

static const struct pmksa *add(struct pmksa_cache *c, uint8_t peer_last, const char *ssid,
			       uint8_t pmk_byte, uint32_t lifetime_s)
{
	uint8_t peer[6] = { 2, 0, 0, 0, 9, peer_last };
	uint8_t pmk[32];
	memset(pmk, pmk_byte, sizeof(pmk));
	struct pmksa_add a = {
		.own_addr = own,
		.peer_addr = peer,
		.own_is_aa = false,
		.akm = RSN_AKM_8021X_SHA256,
		.network = (const uint8_t *)ssid,
		.network_len = strlen(ssid),
		.pmk = pmk,
		.pmk_len = sizeof(pmk),
		.lifetime_s = lifetime_s,
	};
	return pmksa_cache_add(c, &a);
}

static const uint8_t *peer_n(uint8_t last)
{
	static uint8_t p[6];
	const uint8_t v[6] = { 2, 0, 0, 0, 9, last };
	memcpy(p, v, 6);
	return p;
}

START_TEST(cache_hit_and_miss)
{
	struct pmksa_cache *c = pmksa_cache_new(vloop, 4);
	const struct pmksa *e = add(c, 1, "home", 0x11, 0);
	ck_assert_ptr_nonnull(e);
	uint8_t want[16];
	uint8_t pmk[32];
	memset(pmk, 0x11, 32);
	/* The station's own address is the SPA, the peer's the AA. */
	ck_assert_int_eq(rsn_pmkid(RSN_AKM_8021X_SHA256, pmk, 32, peer_n(1), own, want), 0);
	ck_assert_mem_eq(e->pmkid, want, 16);

	ck_assert_ptr_eq(pmksa_cache_get(c, own, peer_n(1), RSN_AKM_8021X_SHA256), e);
	ck_assert_ptr_eq(pmksa_cache_get(c, own, peer_n(1), 0), e);
	ck_assert_ptr_null(pmksa_cache_get(c, own, peer_n(1), RSN_AKM_8021X));
	ck_assert_ptr_null(pmksa_cache_get(c, own, peer_n(2), 0));
	ck_assert_ptr_eq(pmksa_cache_get_by_pmkid(c, peer_n(1), want), e);
	ck_assert_ptr_eq(pmksa_cache_get_by_pmkid(c, NULL, want), e);
	ck_assert_ptr_null(pmksa_cache_get_by_pmkid(c, peer_n(2), want));
	want[0] ^= 1;
	ck_assert_ptr_null(pmksa_cache_get_by_pmkid(c, NULL, want));
	ck_assert_uint_eq(pmksa_cache_stats(c)->hits, 4);
	ck_assert_uint_eq(pmksa_cache_stats(c)->misses, 4);

	/* Same key again: replaced, not duplicated. */
	const struct pmksa *e2 = add(c, 1, "home", 0x22, 0);
	ck_assert_uint_eq(pmksa_cache_count(c), 1);
	ck_assert_uint_eq(e2->pmk[0], 0x22);
	pmksa_cache_free(c);
}
END_TEST

START_TEST(cache_expiry_and_reauth)
{
	struct pmksa_cache *c = pmksa_cache_new(vloop, 4);
	const struct pmksa *e = add(c, 1, "home", 0x11, 100); /* 100 s */
	ck_assert_ptr_nonnull(e);
	ck_assert(!pmksa_needs_reauth(c, e));
	advance(69 * 1000000ull);
	ck_assert(!pmksa_needs_reauth(c, e));
	advance(1000000ull); /* 70 %: the default threshold */
	ck_assert(pmksa_needs_reauth(c, e));
	ck_assert_ptr_eq(pmksa_cache_get(c, own, peer_n(1), 0), e);
	advance(30 * 1000000ull - 1);
	ck_assert_ptr_eq(pmksa_cache_get(c, own, peer_n(1), 0), e);
	advance(1);
	ck_assert_ptr_null(pmksa_cache_get(c, own, peer_n(1), 0));
	ck_assert_uint_eq(pmksa_cache_stats(c)->expired, 1);
	ck_assert_uint_eq(pmksa_cache_count(c), 0);
	/* The slot is wiped. */
	static const uint8_t zero[32];
	ck_assert_mem_eq(e->pmk, zero, 32);
	pmksa_cache_free(c);
}
END_TEST

START_TEST(cache_evicts_oldest)
{
	struct pmksa_cache *c = pmksa_cache_new(vloop, 3);
	for (uint8_t i = 1; i <= 3; i++) {
		ck_assert_ptr_nonnull(add(c, i, "home", i, 0));
		advance(10);
	}
	ck_assert_uint_eq(pmksa_cache_count(c), 3);
	ck_assert_ptr_nonnull(add(c, 4, "home", 4, 0));
	ck_assert_uint_eq(pmksa_cache_count(c), 3);
	ck_assert_uint_eq(pmksa_cache_stats(c)->evicted, 1);
	ck_assert_ptr_null(pmksa_cache_get(c, own, peer_n(1), 0));
	for (uint8_t i = 2; i <= 4; i++)
		ck_assert_ptr_nonnull(pmksa_cache_get(c, own, peer_n(i), 0));
	pmksa_cache_free(c);
}
END_TEST

START_TEST(cache_flush_by_network_and_peer)
{
	struct pmksa_cache *c = pmksa_cache_new(vloop, 8);
	add(c, 1, "home", 1, 0);
	add(c, 2, "home", 2, 0);
	add(c, 3, "work", 3, 0);
	add(c, 4, "homeX", 4, 0);
	ck_assert_uint_eq(pmksa_cache_flush_network(c, (const uint8_t *)"home", 4), 2);
	ck_assert_ptr_null(pmksa_cache_get(c, own, peer_n(1), 0));
	ck_assert_ptr_nonnull(pmksa_cache_get(c, own, peer_n(3), 0));
	ck_assert_ptr_nonnull(pmksa_cache_get(c, own, peer_n(4), 0));
	ck_assert_uint_eq(pmksa_cache_flush_peer(c, peer_n(3)), 1);
	ck_assert_uint_eq(pmksa_cache_count(c), 1);
	const struct pmksa *e = pmksa_cache_get(c, own, peer_n(4), 0);
	pmksa_cache_remove(c, e);
	ck_assert_uint_eq(pmksa_cache_count(c), 0);
	add(c, 5, "x", 5, 0);
	pmksa_cache_flush(c);
	ck_assert_uint_eq(pmksa_cache_count(c), 0);
	pmksa_cache_free(c);
	pmksa_cache_free(NULL);
}
END_TEST

/* Station.FlushPMKSA's filters: network and peer together, either alone,
 * neither (everything); a filter that matches nothing removes nothing. */
START_TEST(cache_flush_matching_filters)
{
	struct pmksa_cache *c = pmksa_cache_new(vloop, 8);
	const uint8_t *home = (const uint8_t *)"home", *work = (const uint8_t *)"work";
	add(c, 1, "home", 1, 0);
	add(c, 2, "home", 2, 0);
	add(c, 1, "work", 3, 0); /* the same AP on another network */
	add(c, 3, "work", 4, 0);
	ck_assert_uint_eq(pmksa_cache_flush_matching(c, (const uint8_t *)"nowhere", 7, NULL), 0);
	ck_assert_uint_eq(pmksa_cache_flush_matching(c, home, 4, peer_n(3)), 0);
	ck_assert_uint_eq(pmksa_cache_flush_matching(c, NULL, 0, peer_n(9)), 0);
	ck_assert_uint_eq(pmksa_cache_count(c), 4);
	ck_assert_uint_eq(pmksa_cache_flush_matching(c, work, 4, peer_n(1)), 1);
	ck_assert_ptr_nonnull(pmksa_cache_get(c, own, peer_n(1), 0)); /* home's stays */
	ck_assert_ptr_nonnull(pmksa_cache_get(c, own, peer_n(3), 0));
	ck_assert_uint_eq(pmksa_cache_flush_matching(c, NULL, 0, peer_n(1)), 1);
	ck_assert_ptr_nonnull(pmksa_cache_get(c, own, peer_n(2), 0));
	ck_assert_uint_eq(pmksa_cache_flush_matching(c, home, 4, NULL), 1);
	ck_assert_uint_eq(pmksa_cache_count(c), 1);
	ck_assert_uint_eq(pmksa_cache_flush_matching(c, NULL, 0, NULL), 1);
	ck_assert_uint_eq(pmksa_cache_count(c), 0);
	ck_assert_uint_eq(pmksa_cache_stats(c)->flushed, 4);
	pmksa_cache_free(c);
}
END_TEST

START_TEST(cache_refuses_bad_entries)
{
	struct pmksa_cache *c = pmksa_cache_new(vloop, 2);
	uint8_t pmk[32] = { 0 };
	struct pmksa_add a = { .own_addr = own, .peer_addr = aa, .akm = RSN_AKM_SAE,
			       .pmk = pmk, .pmk_len = 32 };
	ck_assert_ptr_null(pmksa_cache_add(c, &a)); /* SAE: PMKID must be given */
	static const uint8_t pmkid[16] = { 7 };
	a.pmkid = pmkid;
	ck_assert_ptr_nonnull(pmksa_cache_add(c, &a));
	a.pmk_len = 65;
	ck_assert_ptr_null(pmksa_cache_add(c, &a));
	a.pmk_len = 32;
	a.network_len = 33;
	a.network = pmk;
	ck_assert_ptr_null(pmksa_cache_add(c, &a));
	ck_assert_uint_eq(pmksa_cache_count(c), 1);
	pmksa_cache_free(c);
}
END_TEST

START_TEST(caching_only_where_meaningful)
{
	/* PSK: the PMK is the credential, no PMKSA caching (so nothing
	 * changes toward PSK peers); FT names its keys otherwise. */
	ck_assert(!rsn_akm_uses_pmksa(RSN_AKM_PSK));
	ck_assert(!rsn_akm_uses_pmksa(RSN_AKM_PSK_SHA256));
	ck_assert(!rsn_akm_uses_pmksa(RSN_AKM_FT_PSK));
	ck_assert(!rsn_akm_uses_pmksa(RSN_AKM_FT_8021X));
	ck_assert(rsn_akm_uses_pmksa(RSN_AKM_8021X));
	ck_assert(rsn_akm_uses_pmksa(RSN_AKM_8021X_SHA256));
	ck_assert(rsn_akm_uses_pmksa(RSN_AKM_SAE));
	ck_assert(rsn_akm_uses_pmksa(RSN_AKM_OWE));
}
END_TEST

Suite *make_rsn_pmksa_suite(void)
{
	Suite *s = suite_create("rsn_pmksa");
	TCase *tc = tcase_create("pmksa");

	tcase_add_checked_fixture(tc, setup, teardown);

	tcase_add_test(tc, pmkid_sha1_sha256_sha384);
	tcase_add_test(tc, pmkid_refuses_what_it_cannot_name);
	tcase_add_test(tc, cache_hit_and_miss);
	tcase_add_test(tc, cache_expiry_and_reauth);
	tcase_add_test(tc, cache_evicts_oldest);
	tcase_add_test(tc, cache_flush_by_network_and_peer);
	tcase_add_test(tc, cache_flush_matching_filters);
	tcase_add_test(tc, cache_refuses_bad_entries);
	tcase_add_test(tc, caching_only_where_meaningful);
	suite_add_tcase(s, tc);
	return s;
}
