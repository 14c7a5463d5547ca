/* RSN 4-way and group key handshakes, supplicant against authenticator in
 * memory: what a successful run installs on each side, for each AKM and
 * pairwise cipher we support, plus PTK and GTK rekeys. */
#include <check.h>
#include <string.h>

#include "daemon/codec/eapol.h"
#include "daemon/codec/kde.h"
#include "daemon/codec/ieee80211.h"
#include "tests/unit/test_rsn_shim.h"

struct variant {
	uint32_t akm;
	uint32_t pairwise;
	uint8_t key_ver;
	size_t tk_len;
};

static const struct variant variants[] = {
	{ RSN_AKM_PSK, RSN_CIPHER_CCMP_128, EAPOL_KEY_VER_HMAC_SHA1_AES, 16 },
	{ RSN_AKM_PSK_SHA256, RSN_CIPHER_CCMP_128, EAPOL_KEY_VER_AES_128_CMAC, 16 },
	{ RSN_AKM_PSK, RSN_CIPHER_GCMP_256, EAPOL_KEY_VER_HMAC_SHA1_AES, 32 },
	{ RSN_AKM_8021X, RSN_CIPHER_CCMP_128, EAPOL_KEY_VER_HMAC_SHA1_AES, 16 },
	{ RSN_AKM_SAE, RSN_CIPHER_CCMP_128, EAPOL_KEY_VER_AKM_DEFINED, 16 },
};

static void assert_established(struct shim *s)
{
	const struct rsn_group_key *gtk = rsn_group_gtk(s->group);

	ck_assert_int_eq(rsn_supp_state(s->sta), RSN_SUPP_STATE_ESTABLISHED);
	ck_assert_int_eq(rsn_auth_state(s->ap), RSN_AUTH_STATE_PTKINITDONE);
	ck_assert(s->sta_side.authorized);
	ck_assert(s->ap_side.authorized);
	ck_assert_uint_eq(s->sta_side.ptk_installs, 1);
	ck_assert_uint_eq(s->ap_side.ptk_installs, 1);
	ck_assert_uint_eq(s->sta_side.tk_len, s->ap_side.tk_len);
	ck_assert_mem_eq(s->sta_side.tk, s->ap_side.tk, s->ap_side.tk_len);
	ck_assert_uint_eq(s->sta_side.gtk_installs, 1);
	ck_assert_uint_eq(s->sta_side.gtk_idx, gtk->key_idx);
	ck_assert_uint_eq(s->sta_side.gtk_len, gtk->len);
	ck_assert_mem_eq(s->sta_side.gtk, gtk->key, gtk->len);
	ck_assert_uint_eq(s->sta_side.failures + s->ap_side.failures, 0);
}

START_TEST(handshake_completes)
{
	const struct variant *v = &variants[_i];
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, v->akm);
	c.pairwise = v->pairwise;
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	assert_established(&s);
	ck_assert_uint_eq(s.sta_side.tk_len, v->tk_len);
	ck_assert_uint_eq(s.sta_side.tk_cipher, v->pairwise);
	/* the AP reports its transmit PN as the station's receive counter */
	ck_assert_uint_eq(s.sta_side.gtk_rsc[0], 0x34);
	ck_assert_uint_eq(s.sta_side.gtk_rsc[1], 0x12);
	/* four frames, each with the descriptor version the AKM calls for */
	ck_assert_uint_eq(s.ap_side.sent, 2);
	ck_assert_uint_eq(s.sta_side.sent, 2);
	size_t len;
	const uint8_t *f = shim_sent(&s.ap_side, 0, &len);
	ck_assert_uint_eq(kf_key_info(f) & EAPOL_KEY_INFO_VERSION_MASK, v->key_ver);
	f = shim_sent(&s.sta_side, 0, &len);
	ck_assert_uint_eq(kf_key_info(f) & EAPOL_KEY_INFO_VERSION_MASK, v->key_ver);
	ck_assert_uint_eq(rsn_supp_stats(s.sta)->rx_dropped, 0);
	ck_assert_uint_eq(rsn_auth_stats(s.ap)->rx_dropped, 0);
	shim_free(&s);
}
END_TEST

START_TEST(handshake_with_mfp_installs_igtk)
{
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, RSN_AKM_PSK_SHA256);
	c.group_mgmt = RSN_CIPHER_BIP_CMAC_128;
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	assert_established(&s);
	const struct rsn_group_key *igtk = rsn_group_igtk(s.group);
	ck_assert_ptr_nonnull(igtk);
	ck_assert_uint_eq(s.sta_side.igtk_installs, 1);
	ck_assert_uint_eq(s.sta_side.igtk_idx, 4);
	ck_assert_mem_eq(s.sta_side.igtk, igtk->key, igtk->len);
	shim_free(&s);
}
END_TEST

static bool sta_gtk_twice(struct shim *s)
{
	return s->ap_side.group_completes >= 1;
}

START_TEST(handshake_with_rsnxe)
{
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, RSN_AKM_SAE);
	c.sta_rsnxe_sent = c.sta_rsnxe_seen_by_ap = 0x20; /* SAE hash-to-element */
	c.ap_rsnxe_sent = c.ap_rsnxe_seen_by_sta = 0x20;
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	assert_established(&s);
	shim_free(&s);
}
END_TEST

static bool has_bytes(const uint8_t *f, size_t len, const uint8_t *pat, size_t n)
{
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(f + i, pat, n) == 0)
			return true;
	return false;
}

/* The AP's Transition Disable reaches the station in message 3's Key
 * Data, encrypted (the KDE's OUI and type are not on the air in the
 * clear), and only there: message 1 has no key data for it; without the
 * setting the station hears nothing. */
START_TEST(transition_disable_rides_in_message_3)
{
	static const uint8_t wfa_td[] = { 0x50, 0x6f, 0x9a, 0x20 };
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, RSN_AKM_SAE);
	c.ap_transition_disable = KDE_TD_WPA3_PERSONAL;
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	assert_established(&s);
	ck_assert_uint_eq(s.sta_side.transition_disable_calls, 1);
	ck_assert_uint_eq(s.sta_side.transition_disable, KDE_TD_WPA3_PERSONAL);
	size_t len;
	const uint8_t *m3 = shim_sent(&s.ap_side, 0, &len);
	ck_assert(kf_key_info(m3) & EAPOL_KEY_INFO_ENCR_KEY_DATA);
	ck_assert(!has_bytes(m3, len, wfa_td, sizeof(wfa_td)));
	const uint8_t *m1 = shim_sent(&s.ap_side, 1, &len);
	ck_assert_uint_eq(m1[KF_KEY_DATA_LEN] << 8 | m1[KF_KEY_DATA_LEN + 1], 0);
	shim_free(&s);

	shim_cfg_default(&c, RSN_AKM_SAE);
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	assert_established(&s);
	ck_assert_uint_eq(s.sta_side.transition_disable_calls, 0);
	shim_free(&s);
}
END_TEST

START_TEST(group_rekey_installs_new_gtk)
{
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, RSN_AKM_PSK);
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	uint8_t old_gtk[16];
	memcpy(old_gtk, s.sta_side.gtk, 16);

	ck_assert_int_eq(rsn_group_rekey(s.group), 0);
	ck_assert_int_eq(rsn_auth_group_rekey(s.ap), 0);
	ck_assert_int_eq(rsn_auth_state(s.ap), RSN_AUTH_STATE_REKEYNEGOTIATING);
	ck_assert(shim_run(&s, sta_gtk_twice, 1000));

	const struct rsn_group_key *gtk = rsn_group_gtk(s.group);
	ck_assert_uint_eq(gtk->key_idx, 2);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 2);
	ck_assert_uint_eq(s.sta_side.gtk_idx, 2);
	ck_assert_mem_eq(s.sta_side.gtk, gtk->key, gtk->len);
	ck_assert(memcmp(old_gtk, gtk->key, 16) != 0);
	ck_assert_int_eq(rsn_auth_state(s.ap), RSN_AUTH_STATE_PTKINITDONE);
	/* the PTK was not touched */
	ck_assert_uint_eq(s.sta_side.ptk_installs, 1);
	ck_assert_uint_eq(s.ap_side.ptk_installs, 1);
	ck_assert_uint_eq(s.sta_side.failures + s.ap_side.failures, 0);
	shim_free(&s);
}
END_TEST

static bool ap_two_handshakes(struct shim *s)
{
	return rsn_auth_stats(s->ap)->handshakes >= 2;
}

START_TEST(ptk_rekey_replaces_tk_once)
{
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, RSN_AKM_PSK);
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	uint8_t first_tk[16];
	memcpy(first_tk, s.sta_side.tk, 16);

	/* The AP starts a new 4-way handshake on the established link. */
	ck_assert_int_eq(rsn_auth_start(s.ap), 0);
	ck_assert(shim_run(&s, ap_two_handshakes, 1000));
	ck_assert_int_eq(rsn_supp_state(s.sta), RSN_SUPP_STATE_ESTABLISHED);
	ck_assert_uint_eq(rsn_supp_stats(s.sta)->rekeys, 1);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 2);
	ck_assert_uint_eq(s.ap_side.ptk_installs, 2);
	ck_assert_mem_eq(s.sta_side.tk, s.ap_side.tk, 16);
	ck_assert(memcmp(first_tk, s.sta_side.tk, 16) != 0);
	/* same GTK in the new message 3: not installed again */
	ck_assert_uint_eq(s.sta_side.gtk_installs, 1);
	/* completion is reported once; the port never went down */
	ck_assert_uint_eq(s.sta_side.completes, 1);
	ck_assert_uint_eq(s.ap_side.completes, 1);
	ck_assert_uint_eq(s.sta_side.authorize_calls, 1);
	ck_assert(s.sta_side.authorized);
	shim_free(&s);
}
END_TEST

START_TEST(gtk_changed_during_handshake_is_sent_after)
{
	struct shim_cfg c;
	struct shim s;
	size_t len;

	shim_cfg_default(&c, RSN_AKM_PSK);
	shim_init(&s, &c);
	shim_start(&s);
	/* message 1 -> message 2 -> message 3 queued for the station */
	shim_step(&s, 2);
	ck_assert_int_eq(rsn_auth_state(s.ap), RSN_AUTH_STATE_PTKINITNEGOTIATING);
	/* the BSS rekeys while message 3 (old GTK) is on its way */
	ck_assert_int_eq(rsn_group_rekey(s.group), 0);
	ck_assert_int_eq(rsn_auth_group_rekey(s.ap), 0);
	ck_assert(shim_run(&s, sta_gtk_twice, 1000));
	const struct rsn_group_key *gtk = rsn_group_gtk(s.group);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 2);
	ck_assert_mem_eq(s.sta_side.gtk, gtk->key, gtk->len);
	const uint8_t *f = shim_sent(&s.ap_side, 0, &len);
	ck_assert_uint_eq(kf_key_info(f) & EAPOL_KEY_INFO_PAIRWISE, 0);
	shim_free(&s);
}
END_TEST

START_TEST(callbacks_may_free_the_machines)
{
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, RSN_AKM_PSK);
	shim_init(&s, &c);
	s.sta_side.free_on_complete = true;
	s.ap_side.free_on_complete = true;
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	ck_assert_ptr_null(s.sta);
	ck_assert_ptr_null(s.ap);
	shim_free(&s);
}
END_TEST

START_TEST(bad_configs_are_refused)
{
	struct loop *loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	struct rsn_group *g = rsn_group_new(RSN_CIPHER_CCMP_128, 0);
	uint8_t pmk[32] = { 1 };
	uint8_t rsne[64];
	size_t n = shim_rsne(rsne, RSN_AKM_PSK, RSN_CIPHER_CCMP_128, 0, 0);
	struct rsn_config cfg = {
		.akm = RSN_AKM_PSK,
		.pairwise_cipher = RSN_CIPHER_CCMP_128,
		.group_cipher = RSN_CIPHER_CCMP_128,
		.pmk = pmk,
		.pmk_len = 32,
		.sta_rsne = rsne,
		.sta_rsne_len = n,
		.ap_rsne = rsne,
		.ap_rsne_len = n,
	};
	struct rsn_supp *sm = rsn_supp_new(loop, &cfg, &shim_ops, NULL);
	ck_assert_ptr_nonnull(sm);
	rsn_supp_free(sm);

	struct rsn_config bad = cfg;
	bad.akm = RSN_AKM_FT_PSK;
	ck_assert_ptr_null(rsn_supp_new(loop, &bad, &shim_ops, NULL));
	bad = cfg;
	bad.pairwise_cipher = RSN_CIPHER_TKIP;
	ck_assert_ptr_null(rsn_supp_new(loop, &bad, &shim_ops, NULL));
	bad = cfg;
	bad.pmk_len = 8;
	ck_assert_ptr_null(rsn_auth_new(loop, &bad, &shim_ops, NULL, g));
	bad = cfg;
	bad.ap_rsne_len = n - 1; /* element length does not match */
	ck_assert_ptr_null(rsn_supp_new(loop, &bad, &shim_ops, NULL));
	bad = cfg;
	bad.group_mgmt_cipher = RSN_CIPHER_BIP_CMAC_128; /* group has no IGTK */
	ck_assert_ptr_null(rsn_auth_new(loop, &bad, &shim_ops, NULL, g));
	struct rsn_ops no_send = shim_ops;
	no_send.send_eapol = NULL;
	ck_assert_ptr_null(rsn_supp_new(loop, &cfg, &no_send, NULL));
	rsn_group_free(g);
	loop_free(loop);
}
END_TEST

Suite *make_rsn_handshake_suite(void)
{
	Suite *s = suite_create("rsn_handshake");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 20);
	tcase_add_loop_test(tc, handshake_completes, 0,
			    (int)(sizeof(variants) / sizeof(variants[0])));
	tcase_add_test(tc, handshake_with_mfp_installs_igtk);
	tcase_add_test(tc, handshake_with_rsnxe);
	tcase_add_test(tc, transition_disable_rides_in_message_3);
	tcase_add_test(tc, group_rekey_installs_new_gtk);
	tcase_add_test(tc, ptk_rekey_replaces_tk_once);
	tcase_add_test(tc, gtk_changed_during_handshake_is_sent_after);
	tcase_add_test(tc, callbacks_may_free_the_machines);
	tcase_add_test(tc, bad_configs_are_refused);
	suite_add_tcase(s, tc);
	return s;
}
