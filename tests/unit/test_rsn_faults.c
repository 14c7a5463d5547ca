/* RSN handshakes under faults: truncated and malformed frames, replays,
 * retransmissions, message 1 floods, wrong passphrases, RSNE mismatches,
 * lost frames and the authenticator's retransmission schedule. */
#include <check.h>
#include <string.h>

#include "daemon/codec/eapol.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/crypto/eapol_mic.h"
#include "daemon/crypto/ptk.h"
#include "tests/unit/test_rsn_shim.h"

static void setup_psk(struct shim *s, uint32_t akm)
{
	struct shim_cfg c;

	shim_cfg_default(&c, akm);
	shim_init(s, &c);
}

static void complete(struct shim *s)
{
	shim_start(s);
	ck_assert(shim_run(s, shim_both_complete, 1000));
}

/* Fault hook: drop the next `n` frames going one way whose Key Information
 * has all of `bits`. */
struct dropper {
	bool to_ap;
	uint16_t bits;
	uint16_t not_bits;
	unsigned int n;
	unsigned int dropped;
	bool corrupt_mic; /* rewrite instead of drop */
};

static bool drop_hook(struct shim *s, bool to_ap, uint8_t *frame, size_t *len, void *data)
{
	struct dropper *d = data;
	uint16_t ki = kf_key_info(frame);

	if (to_ap != d->to_ap || (ki & d->bits) != d->bits || (ki & d->not_bits) || !d->n)
		return true;
	d->n--;
	d->dropped++;
	if (d->corrupt_mic) {
		frame[KF_MIC] ^= 0x01;
		return true;
	}
	return false;
}

/* ---- malformed input -------------------------------------------------- */

START_TEST(truncated_frames_are_dropped)
{
	struct shim s;
	uint8_t msg1[SHIM_FRAME_MAX];
	size_t len;

	setup_psk(&s, RSN_AKM_PSK);
	shim_start(&s);
	len = shim_copy_sent(&s.ap_side, 0, msg1);
	for (size_t n = 0; n < len; n++) {
		int ret = rsn_supp_rx_eapol(s.sta, msg1, n);
		ck_assert_int_lt(ret, 0);
		ck_assert_int_eq(rsn_supp_state(s.sta), RSN_SUPP_STATE_WAIT_MSG1);
	}
	ck_assert_uint_eq(s.sta_side.sent, 0);
	/* a header that claims more than is there */
	msg1[3] = (uint8_t)(msg1[3] + 1);
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, msg1, len), RSN_RX_E_MALFORMED);
	msg1[3] = (uint8_t)(msg1[3] - 1);
	/* Ethernet padding after the body is fine */
	uint8_t padded[SHIM_FRAME_MAX];
	memcpy(padded, msg1, len);
	memset(padded + len, 0, 20);
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, padded, len + 20), RSN_RX_OK);

	/* the authenticator side: message 2 cut short at every length */
	shim_step(&s, 1);
	uint8_t msg2[SHIM_FRAME_MAX];
	size_t len2;
	len2 = shim_copy_sent(&s.sta_side, 0, msg2);
	s.q_count = 0;
	for (size_t n = 0; n < len2; n++)
		ck_assert_int_lt(rsn_auth_rx_eapol(s.ap, msg2, n), 0);
	ck_assert_int_eq(rsn_auth_state(s.ap), RSN_AUTH_STATE_PTKSTART);
	ck_assert_int_eq(rsn_auth_rx_eapol(s.ap, msg2, len2), RSN_RX_OK);
	ck_assert_int_eq(rsn_auth_state(s.ap), RSN_AUTH_STATE_PTKINITNEGOTIATING);
	shim_free(&s);
}
END_TEST

START_TEST(wrong_bits_and_types_are_dropped)
{
	struct shim s;
	uint8_t f[SHIM_FRAME_MAX];
	size_t len;

	setup_psk(&s, RSN_AKM_PSK);
	shim_start(&s);
	len = shim_copy_sent(&s.ap_side, 0, f);

	f[1] = EAPOL_TYPE_START; /* not a key frame */
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, f, len), RSN_RX_E_NOT_KEY);
	f[1] = EAPOL_TYPE_KEY;
	f[4] = EAPOL_KEY_DESC_WPA;
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, f, len), RSN_RX_E_DESCRIPTOR);
	f[4] = EAPOL_KEY_DESC_RSN;
	f[KF_KEY_INFO + 1] = (uint8_t)((f[KF_KEY_INFO + 1] & ~7) | EAPOL_KEY_VER_AES_128_CMAC);
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, f, len), RSN_RX_E_KEY_VERSION);
	f[KF_KEY_INFO + 1] = (uint8_t)((f[KF_KEY_INFO + 1] & ~7) | EAPOL_KEY_VER_HMAC_SHA1_AES);
	f[KF_KEY_INFO + 1] |= EAPOL_KEY_INFO_INSTALL; /* message 1 with Install */
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, f, len), RSN_RX_E_KEY_INFO);
	f[KF_KEY_INFO + 1] &= (uint8_t)~(EAPOL_KEY_INFO_INSTALL | EAPOL_KEY_INFO_ACK);
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, f, len), RSN_RX_E_KEY_INFO);
	/* the authenticator never takes a frame with Ack from a station */
	f[KF_KEY_INFO + 1] |= EAPOL_KEY_INFO_ACK;
	ck_assert_int_eq(rsn_auth_rx_eapol(s.ap, f, len), RSN_RX_E_KEY_INFO);
	ck_assert_uint_eq(s.sta_side.sent, 0);
	ck_assert_uint_eq(rsn_supp_stats(s.sta)->rx_dropped, 5);
	shim_free(&s);
}
END_TEST

START_TEST(group_message_before_completion_is_dropped)
{
	struct shim s;
	uint8_t gm1[SHIM_FRAME_MAX];
	size_t len;

	/* record a genuine group message 1 from one run ... */
	setup_psk(&s, RSN_AKM_PSK);
	complete(&s);
	ck_assert_int_eq(rsn_auth_group_rekey(s.ap), 0);
	len = shim_copy_sent(&s.ap_side, 0, gm1);
	/* ... and hand it to a station that has not finished: nothing happens */
	s.q_count = 0;
	rsn_supp_start(s.sta);
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, gm1, len), RSN_RX_E_STATE);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 1);
	shim_free(&s);
}
END_TEST

/* ---- replays and retransmissions ------------------------------------- */

START_TEST(replayed_msg3_is_ignored)
{
	struct shim s;
	uint8_t msg3[SHIM_FRAME_MAX];
	size_t len;

	setup_psk(&s, RSN_AKM_PSK);
	complete(&s);
	len = shim_copy_sent(&s.ap_side, 0, msg3);
	ck_assert(kf_key_info(msg3) & EAPOL_KEY_INFO_INSTALL);
	unsigned int sent = s.sta_side.sent;

	/* the very same frame again: an old replay counter, dropped */
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, msg3, len), RSN_RX_E_REPLAY);
	/* an older counter with a valid MIC is no better: recompute the MIC
	 * with the KCK the test derives itself from the known inputs */
	ck_assert_uint_eq(s.sta_side.sent, sent);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 1);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 1);
	ck_assert_int_eq(rsn_supp_state(s.sta), RSN_SUPP_STATE_ESTABLISHED);
	shim_free(&s);
}
END_TEST

static bool sta_gtk_done(struct shim *s)
{
	return s->ap_side.group_completes >= 1;
}

static bool ap_complete(struct shim *s)
{
	return s->ap_side.completes > 0;
}

START_TEST(retransmitted_msg3_gets_msg4_without_reinstall)
{
	struct shim s;
	struct dropper d = { .to_ap = true, .bits = EAPOL_KEY_INFO_SECURE, .n = 1 };

	setup_psk(&s, RSN_AKM_PSK);
	s.fault = drop_hook;
	s.fault_data = &d;
	shim_start(&s);
	ck_assert(shim_run(&s, ap_complete, 1000));
	/* message 4 was lost once, so the AP sent message 3 twice */
	ck_assert_uint_eq(d.dropped, 1);
	ck_assert_uint_eq(rsn_auth_stats(s.ap)->msg3_sent, 2);
	ck_assert_uint_eq(s.sta_side.sent, 3); /* message 2, message 4 twice */
	size_t l0, l1;
	const uint8_t *m4b = shim_sent(&s.sta_side, 0, &l0);
	const uint8_t *m4a = shim_sent(&s.sta_side, 1, &l1);
	ck_assert_uint_gt(kf_replay(m4b), kf_replay(m4a));
	/* the PTK and GTK went to the driver once on each side */
	ck_assert_uint_eq(s.sta_side.ptk_installs, 1);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 1);
	ck_assert_uint_eq(s.ap_side.ptk_installs, 1);
	ck_assert_mem_eq(s.sta_side.tk, s.ap_side.tk, 16);
	ck_assert_uint_eq(s.sta_side.completes, 1);

	/* the retransmitted message 3 delivered again: a replay */
	uint8_t msg3[SHIM_FRAME_MAX];
	size_t len;
	len = shim_copy_sent(&s.ap_side, 0, msg3);
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, msg3, len), RSN_RX_E_REPLAY);
	ck_assert_uint_eq(s.sta_side.sent, 3);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 1);
	shim_free(&s);
}
END_TEST

START_TEST(old_counter_msg3_with_valid_mic_is_ignored)
{
	static const uint8_t nonces[2][32] = { { 0xa1 }, { 0xb2 } };
	struct shim s;
	uint8_t msg3[SHIM_FRAME_MAX];
	size_t len;

	setup_psk(&s, RSN_AKM_PSK);
	s.ap_side.nonces = nonces[0];
	s.ap_side.n_nonces = 1;
	s.sta_side.nonces = nonces[1];
	s.sta_side.n_nonces = 1;
	complete(&s);
	/* group rekey: the station's replay counter moves past message 3's */
	ck_assert_int_eq(rsn_auth_group_rekey(s.ap), 0);
	shim_pump(&s);
	ck_assert_uint_eq(s.ap_side.group_completes, 1);

	/* Message 3 re-signed with the real KCK under its old counter + 1,
	 * which is not above the group message's counter. */
	len = shim_copy_sent(&s.ap_side, 1, msg3);
	ck_assert(kf_key_info(msg3) & EAPOL_KEY_INFO_INSTALL);
	struct crypto_ptk_spec spec = { CRYPTO_PTK_PRF_SHA1, 16, 16, 16, 0 };
	struct crypto_ptk ptk;
	uint8_t pmk[32];
	memset(pmk, 0x5a, sizeof(pmk));
	ck_assert_int_eq(crypto_ptk_derive(&spec, pmk, 32, shim_ap_addr, shim_sta_addr, nonces[0],
					   nonces[1], &ptk), 0);
	ck_assert_mem_eq(ptk.tk, s.sta_side.tk, 16);
	kf_set_replay(msg3, kf_replay(msg3) + 1);
	ck_assert_int_eq(crypto_eapol_mic_compute(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck, 16,
						  msg3, len, msg3 + KF_MIC), 0);
	unsigned int sent = s.sta_side.sent;
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, msg3, len), RSN_RX_E_REPLAY);
	ck_assert_uint_eq(s.sta_side.sent, sent);
	/* with a counter above everything seen, the same frame is answered
	 * (message 4) but still installs nothing */
	kf_set_replay(msg3, 1000);
	ck_assert_int_eq(crypto_eapol_mic_compute(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck, 16,
						  msg3, len, msg3 + KF_MIC), 0);
	ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, msg3, len), RSN_RX_OK);
	ck_assert_uint_eq(s.sta_side.sent, sent + 1);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 1);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 1);
	shim_free(&s);
}
END_TEST

/* ---- message 1 flood -------------------------------------------------- */

static bool sta_established(struct shim *s)
{
	return rsn_supp_state(s->sta) == RSN_SUPP_STATE_ESTABLISHED;
}

START_TEST(msg1_flood_keeps_established_ptk)
{
	struct shim s;
	uint8_t msg1[SHIM_FRAME_MAX];
	size_t len;

	setup_psk(&s, RSN_AKM_PSK);
	complete(&s);
	uint8_t tk[16];
	memcpy(tk, s.sta_side.tk, 16);
	len = shim_copy_sent(&s.ap_side, 1, msg1);
	ck_assert_uint_eq(kf_key_info(msg1) & EAPOL_KEY_INFO_MIC, 0);

	/* 100 forged message 1s, new ANonce and a growing counter each */
	unsigned int sent = s.sta_side.sent;
	for (unsigned int i = 0; i < 100; i++) {
		kf_set_replay(msg1, 100 + i);
		msg1[KF_NONCE] = (uint8_t)i;
		msg1[KF_NONCE + 1] = 0xee;
		ck_assert_int_eq(rsn_supp_rx_eapol(s.sta, msg1, len), RSN_RX_OK);
		ck_assert_int_eq(rsn_supp_state(s.sta), RSN_SUPP_STATE_REKEYING);
	}
	ck_assert_uint_eq(s.sta_side.sent, sent + 100);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 1);
	ck_assert(s.sta_side.authorized);
	ck_assert_uint_eq(s.sta_side.failures, 0);
	/* the AP drops the 100 answers (no outstanding message 1) */
	shim_pump(&s);
	ck_assert_uint_eq(rsn_auth_stats(s.ap)->rx_dropped, 100);
	ck_assert_int_eq(rsn_auth_state(s.ap), RSN_AUTH_STATE_PTKINITDONE);

	/* the established PTK still works: a group rekey goes through */
	ck_assert_int_eq(rsn_group_rekey(s.group), 0);
	ck_assert_int_eq(rsn_auth_group_rekey(s.ap), 0);
	shim_pump(&s);
	ck_assert_uint_eq(s.ap_side.group_completes, 1);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 2);

	/* the forged rekey times out quietly, back to the PTK in use */
	ck_assert(shim_run(&s, sta_established, 2000));
	ck_assert_uint_eq(s.sta_side.failures, 0);
	ck_assert(s.sta_side.authorized);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 1);
	ck_assert_mem_eq(s.sta_side.tk, tk, 16);
	shim_free(&s);
}
END_TEST

START_TEST(retransmitted_msg1_reuses_snonce)
{
	struct shim s;
	struct dropper d = { .to_ap = true, .bits = EAPOL_KEY_INFO_MIC,
			     .not_bits = EAPOL_KEY_INFO_SECURE, .n = 2 };

	setup_psk(&s, RSN_AKM_PSK);
	s.fault = drop_hook;
	s.fault_data = &d;
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	/* message 2 lost twice: three message 1s with one ANonce, three
	 * message 2s with one SNonce */
	ck_assert_uint_eq(rsn_auth_stats(s.ap)->msg1_sent, 3);
	size_t l;
	const uint8_t *m4 = shim_sent(&s.sta_side, 0, &l);
	ck_assert(kf_key_info(m4) & EAPOL_KEY_INFO_SECURE);
	uint8_t n1[32], n2[32];
	memcpy(n1, shim_sent(&s.sta_side, 1, &l) + KF_NONCE, 32);
	memcpy(n2, shim_sent(&s.sta_side, 3, &l) + KF_NONCE, 32);
	ck_assert_mem_eq(n1, n2, 32);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 1);
	shim_free(&s);
}
END_TEST

/* ---- failures --------------------------------------------------------- */

START_TEST(wrong_passphrase_fails_both_sides)
{
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, _i ? RSN_AKM_PSK_SHA256 : RSN_AKM_PSK);
	c.ap_pmk_byte = 0x11;
	c.sta_pmk_byte = 0x22;
	c.timing.handshake_timeout_ms = 300;
	shim_init(&s, &c);
	uint64_t start = loop_now_us(s.loop);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_failed, 3000));

	ck_assert_uint_ge(rsn_auth_mic_failures(s.ap), 1);
	ck_assert_uint_eq(rsn_auth_stats(s.ap)->msg1_sent, 4);
	ck_assert_int_eq(s.ap_side.failure.reason, RSN_FAIL_LIKELY_WRONG_PASSPHRASE);
	ck_assert_uint_eq(s.ap_side.failure.ieee_reason, WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT);
	ck_assert_int_eq(rsn_auth_state(s.ap), RSN_AUTH_STATE_FAILED);

	ck_assert_int_eq(s.sta_side.failure.reason, RSN_FAIL_LIKELY_WRONG_PASSPHRASE);
	ck_assert_uint_eq(s.sta_side.failure.ieee_reason, WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT);
	ck_assert_uint_ge(s.sta_side.failure_us - start, 300 * 1000);
	ck_assert_int_eq(rsn_supp_state(s.sta), RSN_SUPP_STATE_FAILED);
	ck_assert_uint_eq(s.sta_side.ptk_installs + s.ap_side.ptk_installs, 0);
	ck_assert(!s.sta_side.authorized && !s.ap_side.authorized);
	ck_assert_int_eq(rsn_fail_error_code(s.sta_side.failure.reason),
			 WPAD_ERR_INVALID_PASSPHRASE);
	shim_free(&s);
}
END_TEST

START_TEST(bad_msg3_mic_means_wrong_passphrase)
{
	struct shim s;
	struct dropper d = { .to_ap = false, .bits = EAPOL_KEY_INFO_INSTALL, .n = 100,
			     .corrupt_mic = true };

	setup_psk(&s, RSN_AKM_PSK);
	s.fault = drop_hook;
	s.fault_data = &d;
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_failed, 3000));
	ck_assert_uint_ge(rsn_supp_stats(s.sta)->mic_failures, 1);
	ck_assert_int_eq(s.sta_side.failure.reason, RSN_FAIL_LIKELY_WRONG_PASSPHRASE);
	ck_assert_str_eq(s.sta_side.failure.detail, "message 3 MIC did not verify");
	ck_assert_int_eq(s.ap_side.failure.reason, RSN_FAIL_TIMEOUT);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 0);
	shim_free(&s);
}
END_TEST

START_TEST(rsne_mismatch_in_msg3)
{
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, RSN_AKM_PSK);
	c.ap_capab_sent = 0x000c; /* the beacon the STA saw said 0 */
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_any_failed, 1000));
	ck_assert_int_eq(s.sta_side.failure.reason, RSN_FAIL_IE_MISMATCH);
	ck_assert_uint_eq(s.sta_side.failure.ieee_reason, WLAN_REASON_IE_IN_4WAY_DIFFERS);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 0);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 0);
	ck_assert_uint_eq(s.sta_side.sent, 1); /* message 2 only, no message 4 */
	ck_assert_int_eq(s.last_rx_to_sta, RSN_RX_E_IE_MISMATCH);
	shim_free(&s);
}
END_TEST

START_TEST(rsne_mismatch_in_msg2)
{
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, RSN_AKM_PSK);
	c.sta_capab_sent = 0x0080; /* differs from the association request */
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_any_failed, 1000));
	ck_assert_int_eq(s.ap_side.failure.reason, RSN_FAIL_IE_MISMATCH);
	ck_assert_uint_eq(s.ap_side.failure.ieee_reason, WLAN_REASON_IE_IN_4WAY_DIFFERS);
	ck_assert_uint_eq(rsn_auth_stats(s.ap)->msg3_sent, 0);
	ck_assert_uint_eq(s.ap_side.ptk_installs, 0);
	shim_free(&s);
}
END_TEST

/* RSNXE: carried and compared like the RSNE; a downgrade (the element
 * dropped from the Beacon or the association request) fails the handshake. */
START_TEST(rsnxe_mismatch)
{
	static const struct {
		uint32_t sta_sent, sta_seen_by_ap, ap_sent, ap_seen_by_sta;
		bool sta_fails;
	} cases[] = {
		{ 0x20, 0x20, 0x20, 0x00, true },  /* AP sends one, beacon had none */
		{ 0x20, 0x20, 0x00, 0x20, true },  /* beacon had one, message 3 none */
		{ 0x20, 0x20, 0x20, 0x60, true },  /* different bits */
		{ 0x20, 0x00, 0x20, 0x20, false }, /* STA sends one it did not assoc with */
		{ 0x00, 0x20, 0x20, 0x20, false }, /* association had one, message 2 none */
	};
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, RSN_AKM_SAE);
	c.sta_rsnxe_sent = cases[_i].sta_sent;
	c.sta_rsnxe_seen_by_ap = cases[_i].sta_seen_by_ap;
	c.ap_rsnxe_sent = cases[_i].ap_sent;
	c.ap_rsnxe_seen_by_sta = cases[_i].ap_seen_by_sta;
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_any_failed, 1000));
	struct shim_side *failed = cases[_i].sta_fails ? &s.sta_side : &s.ap_side;
	ck_assert_int_eq(failed->failure.reason, RSN_FAIL_IE_MISMATCH);
	ck_assert_uint_eq(failed->failure.ieee_reason, WLAN_REASON_IE_IN_4WAY_DIFFERS);
	ck_assert_uint_eq(s.sta_side.ptk_installs + s.ap_side.ptk_installs, 0);
	shim_free(&s);
}
END_TEST

START_TEST(install_failure_fails_handshake)
{
	struct shim s;

	setup_psk(&s, RSN_AKM_PSK);
	s.sta_side.install_result = -5;
	shim_start(&s);
	ck_assert(shim_run(&s, shim_any_failed, 1000));
	ck_assert_int_eq(s.sta_side.failure.reason, RSN_FAIL_INSTALL);
	ck_assert(!s.sta_side.authorized);
	shim_free(&s);
}
END_TEST

START_TEST(failure_callback_may_free)
{
	struct shim_cfg c;
	struct shim s;

	shim_cfg_default(&c, RSN_AKM_PSK);
	c.ap_pmk_byte = 0x33;
	c.timing.handshake_timeout_ms = 100;
	shim_init(&s, &c);
	s.sta_side.free_on_failure = true;
	s.ap_side.free_on_failure = true;
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_failed, 2000));
	ck_assert_ptr_null(s.sta);
	ck_assert_ptr_null(s.ap);
	shim_free(&s);
}
END_TEST

/* ---- timers ----------------------------------------------------------- */

/* An acknowledged first message 1 (and message 3) waits the full retry
 * period from its TX status, not the short first one: on a busy channel
 * the station's answer is slow, and a copy would only add to the queue. */
START_TEST(acked_first_message_waits_the_full_period)
{
	struct shim s;
	struct dropper d = { .to_ap = false, .n = 1000 }; /* the station hears nothing */

	setup_psk(&s, RSN_AKM_PSK); /* first wait 10 ms, then 30 ms */
	s.fault = drop_hook;
	s.fault_data = &d;
	shim_start(&s);
	ck_assert_uint_eq(s.ap_side.sent, 1);
	uint64_t t0 = loop_now_us(s.loop);
	rsn_auth_tx_status(s.ap, true);
	ck_assert(shim_run(&s, shim_any_failed, 2000));
	ck_assert_uint_ge(s.ap_side.send_us[1] - t0, 30 * 1000);
	ck_assert_uint_eq(s.ap_side.sent, 4);

	/* Not acknowledged: the short first wait stays. */
	shim_free(&s);
	setup_psk(&s, RSN_AKM_PSK);
	d = (struct dropper){ .to_ap = false, .n = 1000 };
	s.fault = drop_hook;
	s.fault_data = &d;
	shim_start(&s);
	rsn_auth_tx_status(s.ap, false);
	ck_assert(shim_run(&s, shim_any_failed, 2000));
	ck_assert_uint_lt(s.ap_side.send_us[1] - s.ap_side.send_us[0], 30 * 1000);
	shim_free(&s);
}
END_TEST

START_TEST(authenticator_retransmits_msg1_then_gives_up)
{
	struct shim s;
	struct dropper d = { .to_ap = false, .n = 1000 }; /* the station hears nothing */

	setup_psk(&s, RSN_AKM_PSK);
	s.fault = drop_hook;
	s.fault_data = &d;
	shim_start(&s);
	ck_assert(shim_run(&s, shim_any_failed, 2000));
	const struct rsn_auth_stats *st = rsn_auth_stats(s.ap);
	ck_assert_uint_eq(st->msg1_sent, 4);
	ck_assert_uint_eq(s.ap_side.sent, 4);
	/* 10 ms after the first send, then 30 ms apart, 30 ms to give up */
	ck_assert_uint_ge(s.ap_side.send_us[1] - s.ap_side.send_us[0], 10 * 1000);
	ck_assert_uint_ge(s.ap_side.send_us[2] - s.ap_side.send_us[1], 30 * 1000);
	ck_assert_uint_ge(s.ap_side.send_us[3] - s.ap_side.send_us[2], 30 * 1000);
	ck_assert_uint_ge(s.ap_side.failure_us - s.ap_side.send_us[3], 30 * 1000);
	ck_assert_int_eq(s.ap_side.failure.reason, RSN_FAIL_TIMEOUT);
	ck_assert_uint_eq(s.ap_side.failure.ieee_reason, WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT);
	/* each send has its own replay counter */
	size_t l;
	ck_assert_uint_eq(kf_replay(shim_sent(&s.ap_side, 0, &l)),
			  kf_replay(shim_sent(&s.ap_side, 3, &l)) + 3);
	/* nothing more is sent after the failure */
	loop_iterate(s.loop, 80);
	ck_assert_uint_eq(s.ap_side.sent, 4);
	shim_free(&s);
}
END_TEST

START_TEST(authenticator_retransmits_msg3_then_gives_up)
{
	struct shim s;
	struct dropper d = { .to_ap = true, .bits = EAPOL_KEY_INFO_SECURE, .n = 1000 };

	setup_psk(&s, RSN_AKM_PSK);
	s.fault = drop_hook;
	s.fault_data = &d;
	shim_start(&s);
	ck_assert(shim_run(&s, shim_any_failed, 2000));
	ck_assert_uint_eq(rsn_auth_stats(s.ap)->msg3_sent, 4);
	ck_assert_int_eq(s.ap_side.failure.reason, RSN_FAIL_TIMEOUT);
	ck_assert_str_eq(s.ap_side.failure.detail, "no message 4");
	/* the station answered each and installed once */
	ck_assert_uint_eq(d.dropped, 4);
	ck_assert_uint_eq(s.sta_side.ptk_installs, 1);
	ck_assert_uint_eq(s.ap_side.ptk_installs, 0);
	shim_free(&s);
}
END_TEST

START_TEST(group_rekey_retransmission_is_not_reinstalled)
{
	struct shim s;
	struct dropper d = { .to_ap = true, .not_bits = EAPOL_KEY_INFO_PAIRWISE, .n = 1 };

	setup_psk(&s, RSN_AKM_PSK);
	complete(&s);
	ck_assert_int_eq(rsn_group_rekey(s.group), 0);
	s.fault = drop_hook;
	s.fault_data = &d;
	ck_assert_int_eq(rsn_auth_group_rekey(s.ap), 0);
	ck_assert(shim_run(&s, sta_gtk_done, 1000));
	/* group message 2 lost once: group message 1 came twice with the same
	 * GTK, which the station installed once and acknowledged twice */
	ck_assert_uint_eq(d.dropped, 1);
	ck_assert_uint_eq(rsn_auth_stats(s.ap)->group_msg1_sent, 2);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 2);
	ck_assert_mem_eq(s.sta_side.gtk, rsn_group_gtk(s.group)->key, 16);
	/* the same GTK offered again by a new group handshake: acked, not
	 * installed */
	ck_assert_int_eq(rsn_auth_group_rekey(s.ap), 0);
	shim_pump(&s);
	ck_assert_uint_eq(s.ap_side.group_completes, 2);
	ck_assert_uint_eq(s.sta_side.gtk_installs, 2);
	shim_free(&s);
}
END_TEST

START_TEST(group_rekey_unanswered_fails)
{
	struct shim s;
	struct dropper d = { .to_ap = true, .not_bits = EAPOL_KEY_INFO_PAIRWISE, .n = 1000 };

	setup_psk(&s, RSN_AKM_PSK);
	complete(&s);
	s.fault = drop_hook;
	s.fault_data = &d;
	ck_assert_int_eq(rsn_auth_group_rekey(s.ap), 0);
	ck_assert(shim_run(&s, shim_any_failed, 2000));
	ck_assert_uint_eq(rsn_auth_stats(s.ap)->group_msg1_sent, 4);
	ck_assert_int_eq(s.ap_side.failure.reason, RSN_FAIL_GROUP_TIMEOUT);
	ck_assert_uint_eq(s.ap_side.failure.ieee_reason, WLAN_REASON_GROUP_KEY_UPDATE_TIMEOUT);
	ck_assert(!s.ap_side.authorized);
	shim_free(&s);
}
END_TEST

START_TEST(supplicant_times_out_without_msg1)
{
	struct shim s;

	setup_psk(&s, RSN_AKM_PSK);
	uint64_t start = loop_now_us(s.loop);
	rsn_supp_start(s.sta);
	ck_assert(shim_run(&s, shim_any_failed, 2000));
	ck_assert_int_eq(s.sta_side.failure.reason, RSN_FAIL_TIMEOUT);
	ck_assert_uint_eq(s.sta_side.failure.ieee_reason, WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT);
	ck_assert_uint_ge(s.sta_side.failure_us - start, 400 * 1000);
	/* a failed machine ignores frames until restarted */
	rsn_supp_start(s.sta);
	ck_assert_int_eq(rsn_supp_state(s.sta), RSN_SUPP_STATE_WAIT_MSG1);
	rsn_supp_stop(s.sta);
	ck_assert_int_eq(rsn_supp_state(s.sta), RSN_SUPP_STATE_IDLE);
	shim_free(&s);
}
END_TEST

Suite *make_rsn_faults_suite(void)
{
	Suite *s = suite_create("rsn_faults");
	TCase *input = tcase_create("input");
	TCase *replay = tcase_create("replay");
	TCase *failures = tcase_create("failures");
	TCase *timers = tcase_create("timers");

	tcase_add_test(input, truncated_frames_are_dropped);
	tcase_add_test(input, wrong_bits_and_types_are_dropped);
	tcase_add_test(input, group_message_before_completion_is_dropped);
	tcase_add_test(replay, replayed_msg3_is_ignored);
	tcase_add_test(replay, retransmitted_msg3_gets_msg4_without_reinstall);
	tcase_add_test(replay, old_counter_msg3_with_valid_mic_is_ignored);
	tcase_add_test(replay, msg1_flood_keeps_established_ptk);
	tcase_add_test(replay, retransmitted_msg1_reuses_snonce);
	tcase_add_loop_test(failures, wrong_passphrase_fails_both_sides, 0, 2);
	tcase_add_test(failures, bad_msg3_mic_means_wrong_passphrase);
	tcase_add_test(failures, rsne_mismatch_in_msg3);
	tcase_add_test(failures, rsne_mismatch_in_msg2);
	tcase_add_loop_test(failures, rsnxe_mismatch, 0, 5);
	tcase_add_test(failures, install_failure_fails_handshake);
	tcase_add_test(failures, failure_callback_may_free);
	tcase_add_test(timers, authenticator_retransmits_msg1_then_gives_up);
	tcase_add_test(timers, authenticator_retransmits_msg3_then_gives_up);
	tcase_add_test(timers, group_rekey_retransmission_is_not_reinstalled);
	tcase_add_test(timers, group_rekey_unanswered_fails);
	tcase_add_test(timers, supplicant_times_out_without_msg1);
	tcase_add_test(timers, acked_first_message_waits_the_full_period);
	tcase_set_timeout(failures, 20);
	tcase_set_timeout(timers, 20);
	tcase_set_timeout(replay, 20);
	suite_add_tcase(s, input);
	suite_add_tcase(s, replay);
	suite_add_tcase(s, failures);
	suite_add_tcase(s, timers);
	return s;
}
