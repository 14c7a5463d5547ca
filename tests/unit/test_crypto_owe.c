/* OWE key agreement (daemon/crypto/owe.c). RFC 8110 publishes no test
 * vectors, and neither does IEEE 802.11-2020 for OWE. What each test
 * checks, honestly named:
 * - cross_check: fixed private keys; the public x, PMK and PMKID were
 *   computed with pyca/cryptography 48 (its ECDH and HKDF classes,
 *   RFC 8110 4.4 formulas written out separately) — an independent
 *   computation of the same definitions, not a published vector;
 * - both_sides: two fresh key pairs agree on PMK and PMKID;
 * - malformed: peer keys off the curve, x >= p, wrong lengths, all zero,
 *   refused. */
#include "tests/unit/test_hex.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "daemon/crypto/hash.h"
#include "daemon/crypto/owe.h"

struct xcheck {
	uint16_t group;
	const char *sta_priv, *ap_priv, *c, *a, *pmk, *pmkid;
};

/* Computed with pyca/cryptography 48 (see the file comment). */
static const struct xcheck xchecks[] = {
	{ 19, "00002ab09600cee1f80485871d171d3ef31ed99a8e7fc05fddc0de4fe9a6fcf0",
	  "00001dc8a9a050670172f7983bdda9d118459560c2a1e2786fd5528e01ce38d3",
	  "081d0d936904a9dc079c332bbb0e37f1355116dd3b3b268858c52ac322cb20c8",
	  "694bb759fc274d307babec8d887cc76dd0b3691c5e5e6b8d965183bc407ccd1d",
	  "d62a01266737934a1337c9806dff948183c4f1a892f99c0d286cfdf605f22a0c",
	  "19fba70d7c32ef2affe3bf1abc5181d4" },
	{ 20,
	  "00000958616bf4abf86a2701d73918e79e7ea007e60ee11fa0add8c28486e539b2a50c6e3c7240a416f76cc70a0a4b4b",
	  "00004e42114aa965ef8571e416693a707f4d80261cb0583a17fb8827ecfc705d337c0c0dc3a2d00fe3fb380f54c6449b",
	  "79e5915b3d42b328f3f41f408e89f62a15ecd860401027c3923d996cd33316544f74b15683e4684a69d4641885965578",
	  "93daabbc47dcf88d0cf4ad711996cd26b579c803e3226ee32ffaa95cab336689a41864e91288c46f640a4901f64151d1",
	  "3776071cbfc5158cbdeb75d8e00bdaa92015d0f76fe97ad177c0719cfddee78ea2085fcbd0634cf6e4162ae3f0172d74",
	  "88394a1a9f1267cc2391d8d7a21b9e8e" },
	{ 21,
	  "0000ee67e85cfc1bc48493d4b5a141ca52749307212c5ffb76998fe8b44ec678531728a7cb5b853484cc0f59c5c13764100627196bf54dbf1875dd224977e2fa72d7",
	  "0000d4139d92cdd544796c1c34529a054491bf17ba08b2a2ee49c1a34633e6a9afdee03f6bd76707e1499209214554424b2e56cce4b3b158445a522bbb45d72f46db",
	  "0052351080c17e94ce895fcfc297884d45381e4ba9b1b420ced61f793212fa23e94d5c78a5a3d05bccfa8b0d9d82df660d4261433bf8344ddc0cf01d172d8d17cf63",
	  "00f43582c40285bedecc6448dfbd667aaba665d3752ae1b9afe82b7f848c4b93038c99b044e23af38b6eb7c9fc6eb394e525ea733e840ef19c6272abb65962b91933",
	  "c2c0e7dd58aa4c782f16f52b96882c6072d0409beed0171bce4a476ea53af06a53a6e35a5716359b24799a6d4d8cb58e4179707e219b0e7916561c7b60e5b805",
	  "fbd4b09b97fb5d541f0b9ad1a3022102" },
};

START_TEST(test_owe_cross_check)
{
	const struct xcheck *x = &xchecks[_i];
	uint8_t priv[OWE_PUBKEY_MAX], c[OWE_PUBKEY_MAX], a[OWE_PUBKEY_MAX], pub[OWE_PUBKEY_MAX];
	uint8_t pmk[OWE_PMK_MAX], pmkid[OWE_PMKID_LEN];
	size_t plen = owe_pubkey_len(x->group), n;
	struct owe_result rs, ra;

	ck_assert_uint_eq(unhex(x->sta_priv, priv, sizeof(priv)), plen);
	struct owe_key *sta = owe_key_from_private(x->group, priv, plen);
	ck_assert_uint_eq(unhex(x->ap_priv, priv, sizeof(priv)), plen);
	struct owe_key *ap = owe_key_from_private(x->group, priv, plen);
	ck_assert_ptr_nonnull(sta);
	ck_assert_ptr_nonnull(ap);
	ck_assert_uint_eq(unhex(x->c, c, sizeof(c)), plen);
	ck_assert_uint_eq(unhex(x->a, a, sizeof(a)), plen);
	ck_assert_uint_eq(unhex(x->pmk, pmk, sizeof(pmk)), owe_pmk_len(x->group));
	ck_assert_uint_eq(unhex(x->pmkid, pmkid, sizeof(pmkid)), OWE_PMKID_LEN);

	ck_assert_int_eq(owe_key_public(sta, pub, sizeof(pub), &n), 0);
	ck_assert_uint_eq(n, plen);
	ck_assert_mem_eq(pub, c, plen);
	ck_assert_int_eq(owe_key_public(ap, pub, sizeof(pub), &n), 0);
	ck_assert_mem_eq(pub, a, plen);

	ck_assert_int_eq(owe_derive(sta, true, a, plen, &rs), 0);
	ck_assert_int_eq(owe_derive(ap, false, c, plen, &ra), 0);
	ck_assert_uint_eq(rs.pmk_len, owe_pmk_len(x->group));
	ck_assert_mem_eq(rs.pmk, pmk, rs.pmk_len);
	ck_assert_mem_eq(rs.pmkid, pmkid, OWE_PMKID_LEN);
	ck_assert_mem_eq(ra.pmk, pmk, rs.pmk_len);
	ck_assert_mem_eq(ra.pmkid, pmkid, OWE_PMKID_LEN);
	/* The roles matter: C and A swapped give another PMK. */
	ck_assert_int_eq(owe_derive(sta, false, a, plen, &rs), 0);
	ck_assert_mem_ne(rs.pmk, pmk, 16);
	owe_key_free(sta);
	owe_key_free(ap);
}
END_TEST

START_TEST(test_owe_both_sides)
{
	static const uint16_t grp[] = { 19, 20, 21 };
	uint8_t c[OWE_PUBKEY_MAX], a[OWE_PUBKEY_MAX];
	size_t cn, an;
	struct owe_result rs, ra;
	struct owe_key *sta = owe_key_new(grp[_i]), *ap = owe_key_new(grp[_i]);

	ck_assert_ptr_nonnull(sta);
	ck_assert_ptr_nonnull(ap);
	ck_assert_int_eq(owe_key_public(sta, c, sizeof(c), &cn), 0);
	ck_assert_int_eq(owe_key_public(ap, a, sizeof(a), &an), 0);
	ck_assert_int_eq(owe_check_peer(grp[_i], c, cn), 0);
	ck_assert_int_eq(owe_derive(sta, true, a, an, &rs), 0);
	ck_assert_int_eq(owe_derive(ap, false, c, cn, &ra), 0);
	ck_assert_uint_eq(rs.pmk_len, ra.pmk_len);
	ck_assert_mem_eq(rs.pmk, ra.pmk, rs.pmk_len);
	ck_assert_mem_eq(rs.pmkid, ra.pmkid, OWE_PMKID_LEN);
	owe_key_free(sta);
	owe_key_free(ap);
}
END_TEST

/* Peer keys that are no point of P-256. */
START_TEST(test_owe_malformed_peer)
{
	static const char p256[] = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
	uint8_t x[OWE_PUBKEY_MAX] = { 0 };
	struct owe_result r;
	struct owe_key *k = owe_key_new(19);
	size_t n;

	ck_assert_ptr_nonnull(k);
	/* x = p and x = 2^256 - 1 are not field elements. */
	unhex(p256, x, sizeof(x));
	ck_assert_int_eq(owe_check_peer(19, x, 32), -EBADMSG);
	ck_assert_int_eq(owe_derive(k, true, x, 32, &r), -EBADMSG);
	memset(x, 0xff, 32);
	ck_assert_int_eq(owe_check_peer(19, x, 32), -EBADMSG);
	/* Points off the curve: find some x in 1..40 refused and check
	 * the derivation refuses them too; at least one must be (about
	 * half of all x have no y). */
	unsigned refused = 0;
	for (uint8_t v = 1; v <= 40; v++) {
		memset(x, 0, 32);
		x[31] = v;
		if (owe_check_peer(19, x, 32) == -EBADMSG) {
			refused++;
			ck_assert_int_eq(owe_derive(k, true, x, 32, &r), -EBADMSG);
			ck_assert_uint_eq(r.pmk_len, 0);
		}
	}
	ck_assert_uint_gt(refused, 5);
	ck_assert_uint_lt(refused, 35);
	/* Wrong lengths: one short, one long, a P-384 length for group 19. */
	ck_assert_int_eq(owe_key_public(k, x, sizeof(x), &n), 0);
	ck_assert_int_eq(owe_check_peer(19, x, 31), -EBADMSG);
	ck_assert_int_eq(owe_check_peer(19, x, 33), -EBADMSG);
	ck_assert_int_eq(owe_derive(k, true, x, 48, &r), -EBADMSG);
	ck_assert_int_eq(owe_check_peer(19, x, 32), 0);
	/* Unknown groups. */
	ck_assert_int_eq(owe_check_peer(22, x, 32), -EINVAL);
	ck_assert_ptr_null(owe_key_new(22));
	ck_assert_ptr_null(owe_key_new(0));
	ck_assert(!owe_group_supported(15));
	/* Private scalars 0 and >= order are refused. */
	memset(x, 0, 32);
	ck_assert_ptr_null(owe_key_from_private(19, x, 32));
	memset(x, 0xff, 32);
	ck_assert_ptr_null(owe_key_from_private(19, x, 32));
	owe_key_free(k);
}
END_TEST

/* HMAC-SHA-512, which OWE group 21's key hierarchy uses: RFC 4231 4.3
 * (test case 2). */
START_TEST(test_hmac_sha512_rfc4231)
{
	uint8_t want[64], got[64];
	static const char data[] = "what do ya want for nothing?";
	ck_assert_uint_eq(unhex("164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
				"9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
				want, sizeof(want)),
			  64);
	ck_assert_uint_eq(crypto_hash_len(CRYPTO_HASH_SHA512), 64);
	ck_assert_int_eq(crypto_hmac(CRYPTO_HASH_SHA512, "Jefe", 4, data, sizeof(data) - 1, got), 0);
	ck_assert_mem_eq(got, want, 64);
}
END_TEST

Suite *make_crypto_owe_suite(void)
{
	Suite *s = suite_create("crypto_owe");
	TCase *tc = tcase_create("owe");
	tcase_add_loop_test(tc, test_owe_cross_check, 0, 3);
	tcase_add_loop_test(tc, test_owe_both_sides, 0, 3);
	tcase_add_test(tc, test_owe_malformed_peer);
	tcase_add_test(tc, test_hmac_sha512_rfc4231);
	suite_add_tcase(s, tc);
	return s;
}
