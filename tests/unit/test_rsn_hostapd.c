/* Message 3 of real hostapd 2.10 handshakes (tests/unit/data_hostapd_rsnxe.h)
 * against the RSNE and RSNXE the station heard, as IEEE 802.11-2020
 * 12.7.6.4 has it: both octet for octet, the RSNXE when either side has
 * one. The heard elements come from the captured Beacon or Probe Response
 * through the station's own BSS list; the supplicant of daemon/rsn takes
 * the captured message 1 and message 3 (with wpa_supplicant's SNonce, so
 * the PTK is the one hostapd derived: the MIC verifies and the key data
 * decrypts). Transition networks with sae_pwe 0/1/2, transition_disable
 * on/off, PMF optional/required must pass; every real mismatch (hostapd's
 * testing options, or heard elements changed as a forged Beacon would)
 * must end with reason 17 before any key is installed. */
#include <check.h>
#include <string.h>

#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/kdf.h"
#include "daemon/rsn/rsn_key.h"
#include "daemon/rsn/supplicant.h"
#include "daemon/station/bss.h"
#include "tests/unit/data_hostapd_rsnxe.h"

#define FREQ 2437
#define EAPOL_NONCE 17	  /* offset of the Key Nonce in an EAPOL-Key frame */
#define EAPOL_KD_LEN 97	  /* Key Data Length (16-octet MIC) */
#define EAPOL_KD 99	  /* Key Data */

/* Every capture capture-rsnxe.sh makes; none may go missing. */
static const char *const expected_names[] = {
	"pwe0-td0-pmf1", "pwe0-td1-pmf1", "pwe1-td0-pmf1", "pwe1-td1-pmf1", "pwe2-td0-pmf1",
	"pwe2-td1-pmf1", "pwe0-td0-pmf2", "pwe0-td1-pmf2", "pwe1-td0-pmf2", "pwe1-td1-pmf2",
	"pwe2-td0-pmf2", "pwe2-td1-pmf2", "psk-rsnxe-ltf", "mm-rsne-changed", "mm-rsnxe-added",
};

/* What message 3 of each capture must give against its own Beacon. */
static enum rsn_elem_check verdict_of(const char *name)
{
	static const struct {
		const char *name;
		enum rsn_elem_check check;
	} mismatches[] = {
		{ "mm-rsne-changed", RSN_ELEMS_RSNE_DIFFERS }, /* rsne_override_eapol */
		{ "mm-rsnxe-added", RSN_ELEMS_RSNXE_ADDED },   /* no_beacon_rsnxe=1 */
	};
	for (size_t i = 0; i < sizeof(mismatches) / sizeof(mismatches[0]); i++)
		if (strcmp(name, mismatches[i].name) == 0)
			return mismatches[i].check;
	return RSN_ELEMS_MATCH;
}

static const struct hostapd_capture *capture(const char *name)
{
	for (size_t i = 0; i < n_hostapd_captures; i++)
		if (strcmp(hostapd_captures[i].name, name) == 0)
			return &hostapd_captures[i];
	ck_abort_msg("no capture %s", name);
	return NULL;
}

/* ---- the station's view: the BSS list fed with the captured frames ---- */

static void heard_from(const struct hostapd_capture *c, const uint8_t *frame, size_t len,
		       struct station_bss *out)
{
	struct bss_list *l = bss_list_new();
	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(bss_list_update_from_frame(l, frame, len, FREQ, -4000, 1000), 0);
	const struct station_bss *b = bss_list_find(l, c->aa);
	ck_assert_ptr_nonnull(b);
	*out = *b;
	bss_list_free(l);
}

static void heard_beacon(const struct hostapd_capture *c, struct station_bss *out)
{
	heard_from(c, c->beacon, c->beacon_len, out);
}

/* ---- the supplicant, driven with the captured frames ---- */

struct probe {
	const uint8_t *snonce;
	unsigned sent, ptk, gtk, igtk, completes, failures, td_calls;
	uint8_t td;
	struct rsn_failure failure;
	uint8_t msg2[512];
	size_t msg2_len;
	int rx3;
	enum rsn_supp_state state;
};

static int p_send(void *ctx, const uint8_t *body, size_t len)
{
	struct probe *p = ctx;
	if (p->sent++ == 0 && len <= sizeof(p->msg2)) {
		memcpy(p->msg2, body, len);
		p->msg2_len = len;
	}
	return 0;
}

static int p_ptk(void *ctx, uint32_t cipher, const uint8_t *tk, size_t len)
{
	(void)cipher, (void)tk, (void)len;
	((struct probe *)ctx)->ptk++;
	return 0;
}

static int p_gtk(void *ctx, uint8_t idx, uint32_t cipher, const uint8_t *k, size_t len,
		 const uint8_t rsc[RSN_SEQ_LEN])
{
	(void)idx, (void)cipher, (void)k, (void)len, (void)rsc;
	((struct probe *)ctx)->gtk++;
	return 0;
}

static int p_igtk(void *ctx, uint16_t idx, uint32_t cipher, const uint8_t *k, size_t len,
		  const uint8_t ipn[RSN_SEQ_LEN])
{
	(void)idx, (void)cipher, (void)k, (void)len, (void)ipn;
	((struct probe *)ctx)->igtk++;
	return 0;
}

static void p_port(void *ctx, bool authorized)
{
	(void)ctx, (void)authorized;
}

static void p_done(void *ctx)
{
	((struct probe *)ctx)->completes++;
}

static void p_fail(void *ctx, const struct rsn_failure *f)
{
	struct probe *p = ctx;
	p->failures++;
	p->failure = *f;
}

/* The SNonce wpa_supplicant chose, so that the PTK is hostapd's. */
static int p_random(void *ctx, uint8_t *buf, size_t len)
{
	struct probe *p = ctx;
	ck_assert_uint_eq(len, 32);
	memcpy(buf, p->snonce, len);
	return 0;
}

static void p_td(void *ctx, uint8_t bitmap)
{
	struct probe *p = ctx;
	p->td_calls++;
	p->td = bitmap;
}

static const struct rsn_ops probe_ops = {
	.send_eapol = p_send,
	.install_ptk = p_ptk,
	.install_gtk = p_gtk,
	.install_igtk = p_igtk,
	.set_port_authorized = p_port,
	.on_complete = p_done,
	.on_failure = p_fail,
	.get_random = p_random,
	.on_transition_disable = p_td,
};

/* Runs messages 1 and 3 of capture c against what the station heard (b). */
static void run(const struct hostapd_capture *c, const struct station_bss *b, struct probe *p)
{
	uint8_t pmk[32];
	const uint8_t *m2 = c->msg2;

	memset(p, 0, sizeof(*p));
	p->snonce = m2 + EAPOL_NONCE;
	ck_assert_int_eq(crypto_psk_from_passphrase(HOSTAPD_CAPTURE_PASSPHRASE,
						    (const uint8_t *)HOSTAPD_CAPTURE_SSID,
						    strlen(HOSTAPD_CAPTURE_SSID), pmk),
			 0);
	/* Our RSNE is the one wpa_supplicant sent in message 2 (its key data). */
	size_t kd_len = (size_t)m2[EAPOL_KD_LEN] << 8 | m2[EAPOL_KD_LEN + 1];
	ck_assert_uint_ge(c->msg2_len, EAPOL_KD + kd_len);
	ck_assert_uint_eq(m2[EAPOL_KD], WLAN_EID_RSN);
	struct rsn_config cfg = {
		.akm = RSN_AKM_PSK,
		.pairwise_cipher = RSN_CIPHER_CCMP_128,
		.group_cipher = b->group_cipher,
		.group_mgmt_cipher = b->group_mgmt_cipher, /* wpa_supplicant used PMF */
		.pmk = pmk,
		.pmk_len = sizeof(pmk),
		.sta_rsne = m2 + EAPOL_KD,
		.sta_rsne_len = (size_t)m2[EAPOL_KD + 1] + 2,
		.ap_rsne = b->rsne,
		.ap_rsne_len = b->rsne_len,
		.ap_rsnxe = b->rsnxe_len ? b->rsnxe : NULL,
		.ap_rsnxe_len = b->rsnxe_len,
	};
	memcpy(cfg.own_addr, c->spa, 6);
	memcpy(cfg.peer_addr, c->aa, 6);

	struct loop *loop = loop_new();
	ck_assert_ptr_nonnull(loop);
	struct rsn_supp *sm = rsn_supp_new(loop, &cfg, &probe_ops, p);
	ck_assert_ptr_nonnull(sm);
	rsn_supp_start(sm);
	ck_assert_int_eq(rsn_supp_rx_eapol(sm, c->msg1, c->msg1_len), RSN_RX_OK);
	ck_assert_uint_eq(p->sent, 1);
	ck_assert_mem_eq(p->msg2 + EAPOL_NONCE, p->snonce, 32);
	p->rx3 = rsn_supp_rx_eapol(sm, c->msg3, c->msg3_len);
	p->state = rsn_supp_state(sm);
	ck_assert_uint_eq(rsn_supp_stats(sm)->mic_failures, 0); /* the PTK was hostapd's */
	rsn_supp_free(sm);
	loop_free(loop);
}

static void assert_joined(const struct probe *p, const char *name)
{
	ck_assert_msg(p->rx3 == RSN_RX_OK, "%s: message 3 refused (%d): %s", name, p->rx3,
		      p->failures ? p->failure.detail : "no failure");
	ck_assert_int_eq(p->state, RSN_SUPP_STATE_ESTABLISHED);
	ck_assert_uint_eq(p->completes, 1);
	ck_assert_uint_eq(p->failures, 0);
	ck_assert_uint_eq(p->sent, 2); /* message 4 */
	ck_assert_uint_eq(p->ptk, 1);
	ck_assert_uint_eq(p->gtk, 1);
	ck_assert_uint_eq(p->igtk, 1);
}

static void assert_refused(const struct probe *p, enum rsn_elem_check why, const char *name)
{
	ck_assert_msg(p->rx3 == RSN_RX_E_IE_MISMATCH, "%s: message 3 gave %d", name, p->rx3);
	ck_assert_int_eq(p->state, RSN_SUPP_STATE_FAILED);
	ck_assert_uint_eq(p->failures, 1);
	ck_assert_int_eq(p->failure.reason, RSN_FAIL_IE_MISMATCH);
	ck_assert_uint_eq(p->failure.ieee_reason, WLAN_REASON_IE_IN_4WAY_DIFFERS); /* 17 */
	ck_assert_str_eq(p->failure.detail, rsn_elems_text(why, 3));
	ck_assert_int_eq(rsn_fail_error_code(p->failure.reason), WPAD_ERR_POSSIBLE_DOWNGRADE);
	ck_assert_uint_eq(p->completes, 0);
	ck_assert_uint_eq(p->sent, 1); /* no message 4 */
	ck_assert_uint_eq(p->ptk + p->gtk + p->igtk, 0);
}

/* ---- the tests ---- */

START_TEST(every_capture_is_there)
{
	ck_assert_uint_eq(n_hostapd_captures, sizeof(expected_names) / sizeof(expected_names[0]));
	for (size_t i = 0; i < sizeof(expected_names) / sizeof(expected_names[0]); i++)
		capture(expected_names[i]);
}
END_TEST

/* The elements hostapd advertises: the RSNXE (SAE hash-to-element) exactly
 * when sae_pwe is 1 or 2; Beacon and Probe Response alike. */
START_TEST(beacon_and_probe_response_carry_the_same_pair)
{
	const struct hostapd_capture *c = &hostapd_captures[_i];
	struct station_bss from_beacon, from_presp;

	heard_beacon(c, &from_beacon);
	heard_from(c, c->probe_resp, c->probe_resp_len, &from_presp);
	ck_assert_uint_eq(from_beacon.support, BSS_OK);
	ck_assert_uint_eq(from_beacon.security, BSS_SECURITY_PSK);
	ck_assert_uint_eq(from_beacon.rsne_len, from_presp.rsne_len);
	ck_assert_mem_eq(from_beacon.rsne, from_presp.rsne, from_beacon.rsne_len);
	ck_assert_uint_eq(from_beacon.rsnxe_len, from_presp.rsnxe_len);
	ck_assert_mem_eq(from_beacon.rsnxe, from_presp.rsnxe, from_beacon.rsnxe_len);

	static const uint8_t h2e[] = { WLAN_EID_RSNX, 1, 1u << RSNX_CAPAB_SAE_H2E };
	static const uint8_t ltf[] = { WLAN_EID_RSNX, 2, 0x01, 1u << (RSNX_CAPAB_SECURE_LTF - 8) };
	if (strncmp(c->name, "pwe1", 4) == 0 || strncmp(c->name, "pwe2", 4) == 0 ||
	    (strncmp(c->name, "mm-", 3) == 0 && strcmp(c->name, "mm-rsnxe-added") != 0)) {
		ck_assert_uint_eq(from_beacon.rsnxe_len, sizeof(h2e));
		ck_assert_mem_eq(from_beacon.rsnxe, h2e, sizeof(h2e));
	} else if (strcmp(c->name, "psk-rsnxe-ltf") == 0) {
		ck_assert_uint_eq(from_beacon.rsnxe_len, sizeof(ltf));
		ck_assert_mem_eq(from_beacon.rsnxe, ltf, sizeof(ltf));
	} else {
		ck_assert_uint_eq(from_beacon.rsnxe_len, 0); /* sae_pwe=0; no_beacon_rsnxe */
	}
}
END_TEST

/* Each capture's message 3 against its own Beacon, then its own Probe
 * Response: the transition networks join, the mm-* ones are refused. */
START_TEST(message_3_against_what_was_heard)
{
	const struct hostapd_capture *c = &hostapd_captures[_i / 2];
	bool from_presp = _i % 2;
	struct station_bss b;
	struct probe p;

	if (from_presp)
		heard_from(c, c->probe_resp, c->probe_resp_len, &b);
	else
		heard_beacon(c, &b);
	run(c, &b, &p);
	enum rsn_elem_check want = verdict_of(c->name);
	if (want == RSN_ELEMS_MATCH)
		assert_joined(&p, c->name);
	else
		assert_refused(&p, want, c->name);
	/* hostapd's transition_disable=0x01 (the "td1" captures): its KDE
	 * (50-6F-9A:0x20) is read from the decrypted key data, also by a
	 * PSK station of the transition network; none without it. */
	if (want == RSN_ELEMS_MATCH && strstr(c->name, "-td1-")) {
		ck_assert_msg(p.td_calls == 1, "%s: Transition Disable not read", c->name);
		ck_assert_uint_eq(p.td, 0x01);
	} else {
		ck_assert_uint_eq(p.td_calls, 0);
	}
}
END_TEST

/* Genuine message 3s against forged Beacons: what an attacker who rewrites
 * the Beacon (to steer the station to a weaker choice) would cause. */
START_TEST(forged_beacon_is_a_downgrade)
{
	static const uint8_t no_h2e[] = { WLAN_EID_RSNX, 1, 0x00 };
	static const uint8_t h2e_pk[] = { WLAN_EID_RSNX, 1, 0x60 };
	static const uint8_t h2e_long[] = { WLAN_EID_RSNX, 2, 0x21, 0x00 };
	static const uint8_t h2e[] = { WLAN_EID_RSNX, 1, 0x20 };
	const char *const names[] = { "pwe2-td0-pmf1", "pwe2-td1-pmf2", "pwe1-td1-pmf1" };
	const struct hostapd_capture *c = capture(names[_i]);
	struct station_bss b;
	struct probe p;

	/* SAE stripped from the advertised AKMs: the RSNE differs. */
	heard_beacon(c, &b);
	struct ie_rsn rsn;
	ck_assert_int_eq(ie_parse_rsn(b.rsne + 2, b.rsne_len - 2, &rsn), 0);
	ck_assert(ie_rsn_has_akm(&rsn, RSN_AKM_SAE));
	rsn.n_akm = 1;
	rsn.akm[0] = RSN_AKM_PSK;
	struct wbuf w = wbuf_init(b.rsne, sizeof(b.rsne));
	ck_assert_int_eq(ie_build_rsn(&w, &rsn), 0);
	b.rsne_len = w.len;
	run(c, &b, &p);
	assert_refused(&p, RSN_ELEMS_RSNE_DIFFERS, c->name);

	/* The RSNXE stripped from the Beacon: message 3 has one it did not. */
	heard_beacon(c, &b);
	b.rsnxe_len = 0;
	run(c, &b, &p);
	assert_refused(&p, RSN_ELEMS_RSNXE_ADDED, c->name);

	/* Other bits, or the same bits in a longer field: not octet for octet. */
	const uint8_t *other[] = { no_h2e, h2e_pk, h2e_long };
	size_t other_len[] = { sizeof(no_h2e), sizeof(h2e_pk), sizeof(h2e_long) };
	for (size_t i = 0; i < 3; i++) {
		heard_beacon(c, &b);
		memcpy(b.rsnxe, other[i], other_len[i]);
		b.rsnxe_len = other_len[i];
		run(c, &b, &p);
		assert_refused(&p, RSN_ELEMS_RSNXE_DIFFERS, c->name);
	}

	/* An RSNXE added to a Beacon of an AP without one (sae_pwe=0). */
	const struct hostapd_capture *plain = capture(_i == 1 ? "pwe0-td1-pmf2" : "pwe0-td0-pmf1");
	heard_beacon(plain, &b);
	ck_assert_uint_eq(b.rsnxe_len, 0);
	memcpy(b.rsnxe, h2e, sizeof(h2e));
	b.rsnxe_len = sizeof(h2e);
	run(plain, &b, &p);
	assert_refused(&p, RSN_ELEMS_RSNXE_REMOVED, plain->name);
}
END_TEST

/* The station keeps the pair of the frame it heard last from a BSSID: a
 * later Beacon without an RSNXE leaves none behind (so a genuine message 3
 * then fails), and a later Probe Response with one brings it back. */
START_TEST(bss_list_keeps_the_latest_pair)
{
	const struct hostapd_capture *h2e = capture("pwe2-td0-pmf1");
	const struct hostapd_capture *stripped = capture("mm-rsnxe-added");
	struct bss_list *l = bss_list_new();
	struct probe p;

	ck_assert_mem_eq(h2e->aa, stripped->aa, 6); /* one radio, one BSSID */
	ck_assert_int_eq(bss_list_update_from_frame(l, h2e->probe_resp, h2e->probe_resp_len, FREQ,
						    -4000, 1000),
			 0);
	ck_assert_uint_eq(bss_list_find(l, h2e->aa)->rsnxe_len, 3);
	ck_assert_int_eq(bss_list_update_from_frame(l, stripped->beacon, stripped->beacon_len, FREQ,
						    -4000, 2000),
			 0);
	struct station_bss b = *bss_list_find(l, h2e->aa);
	ck_assert_uint_eq(b.rsnxe_len, 0);
	run(h2e, &b, &p);
	assert_refused(&p, RSN_ELEMS_RSNXE_ADDED, "probe response, then a shorter beacon");

	ck_assert_int_eq(bss_list_update_from_frame(l, h2e->probe_resp, h2e->probe_resp_len, FREQ,
						    -4000, 3000),
			 0);
	b = *bss_list_find(l, h2e->aa);
	ck_assert_uint_eq(b.rsnxe_len, 3);
	run(h2e, &b, &p);
	assert_joined(&p, "shorter beacon, then a probe response");
	bss_list_free(l);
}
END_TEST

Suite *make_rsn_hostapd_suite(void)
{
	Suite *s = suite_create("rsn_hostapd");
	TCase *tc = tcase_create("captures");
	tcase_add_test(tc, every_capture_is_there);
	tcase_add_loop_test(tc, beacon_and_probe_response_carry_the_same_pair, 0,
			    (int)n_hostapd_captures);
	tcase_add_loop_test(tc, message_3_against_what_was_heard, 0, 2 * (int)n_hostapd_captures);
	tcase_add_loop_test(tc, forged_beacon_is_a_downgrade, 0, 3);
	tcase_add_test(tc, bss_list_keeps_the_latest_pair);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}
