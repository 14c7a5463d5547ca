/* The 802.1X supplicant PAE (daemon/rsn/pae_supp.h) on an EAPOL port and
 * the loop's virtual clock: EAPOL-Start retries and HELD, a port open when
 * nobody answers (wired), a whole EAP-MD5 authentication authorizing the
 * port, failure and the held period, authWhile, reauthentication, logoff,
 * the quiet first Start of Wi-Fi, and a secret asked through the PAE. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include <stdio.h>

#include "daemon/codec/eapol.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/crypto/mschapv2.h"
#include "daemon/core/loop.h"
#include "daemon/rsn/eapol_port.h"
#include "daemon/rsn/pae_supp.h"

struct fx {
	struct loop *loop;
	struct eapol_port *port;
	struct pae_supp *pae;
	struct eap_peer_profile prof;
	uint8_t last[1024];
	size_t last_len;
	unsigned frames, starts, logoffs, eaps, results, asks;
	enum eap_peer_result result;
	bool authorized;
	enum pae_supp_state trail[32];
	size_t n_trail;
	bool answer;
};

static struct fx F;

static int p_tx(void *ctx, const uint8_t *f, size_t len)
{
	ck_assert_uint_ge(len, 4);
	ck_assert_uint_le(len, sizeof(F.last));
	ck_assert_uint_eq((size_t)(f[2] << 8 | f[3]), len - 4);
	ck_assert_uint_eq(f[0], 2);
	memcpy(F.last, f, len);
	F.last_len = len;
	F.frames++;
	F.starts += f[1] == EAPOL_TYPE_START;
	F.logoffs += f[1] == EAPOL_TYPE_LOGOFF;
	F.eaps += f[1] == EAPOL_TYPE_EAP;
	return 0;
}

static void p_auth(void *ctx, bool on)
{
	F.authorized = on;
}

static int p_rx_eap(void *ctx, const struct eap_hdr_info *eap)
{
	return pae_supp_rx_eap(F.pae, eap);
}

static const struct eapol_port_ops port_ops = {
	.tx = p_tx, .set_authorized = p_auth, .rx_eap = p_rx_eap,
};

static void s_changed(void *ctx, enum pae_supp_state from, enum pae_supp_state to)
{
	if (F.n_trail < sizeof(F.trail) / sizeof(F.trail[0]))
		F.trail[F.n_trail++] = to;
}

static void s_result(void *ctx, enum eap_peer_result r)
{
	F.results++;
	F.result = r;
}

static void s_need(void *ctx, enum eap_peer_secret which)
{
	F.asks++;
	if (F.answer)
		pae_supp_set_secret(F.pae, which, "password");
}

static const struct pae_supp_ops pae_ops = {
	.state_changed = s_changed, .eap_result = s_result, .need_secret = s_need,
};

static void make(const struct pae_supp_config *cfg)
{
	memset(&F, 0, sizeof(F));
	F.loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	F.port = eapol_port_new(EAPOL_PORT_SUPPLICANT, "test", &port_ops, NULL);
	F.prof = (struct eap_peer_profile){
		.methods = { "MD5" },
		.n_methods = 1,
		.identity = "alice",
		.password = "password",
		.password_len = 8,
	};
	F.pae = pae_supp_new(F.loop, F.port, cfg, &F.prof, &pae_ops, NULL);
	ck_assert_ptr_nonnull(F.pae);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_DISCONNECTED);
}

static void teardown(void)
{
	pae_supp_free(F.pae);
	eapol_port_free(F.port);
	loop_free(F.loop);
}

static void run_ms(uint64_t ms)
{
	uint64_t end = loop_now_us(F.loop) + ms * 1000;
	while (loop_now_us(F.loop) < end)
		loop_iterate(F.loop, 100);
}

/* An EAP packet from the authenticator, in an EAPOL-EAP frame. */
static int rx_eap(uint8_t code, uint8_t id, int type, const void *data, size_t len)
{
	uint8_t f[256];
	size_t eap_len = 4 + (type >= 0 ? 1 + len : 0);
	f[0] = 2;
	f[1] = EAPOL_TYPE_EAP;
	f[2] = (uint8_t)(eap_len >> 8);
	f[3] = (uint8_t)eap_len;
	f[4] = code;
	f[5] = id;
	f[6] = (uint8_t)(eap_len >> 8);
	f[7] = (uint8_t)eap_len;
	if (type >= 0) {
		f[8] = (uint8_t)type;
		if (len)
			memcpy(f + 9, data, len);
	}
	return eapol_port_rx(F.port, f, 4 + eap_len);
}

static const uint8_t challenge[17] = { 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static void authenticate(void)
{
	ck_assert_int_eq(rx_eap(1, 1, 1, NULL, 0), 0);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATING);
	ck_assert_uint_eq(F.last[1], EAPOL_TYPE_EAP);
	ck_assert_uint_eq(F.last[8], 1); /* Response/Identity */
	ck_assert_mem_eq(F.last + 9, "alice", 5);
	rx_eap(1, 2, 4, challenge, sizeof(challenge));
	ck_assert_uint_eq(F.last[8], 4);
	rx_eap(3, 2, -1, NULL, 0);
}

START_TEST(start_retries_then_held)
{
	make(NULL);
	pae_supp_port_enabled(F.pae, true);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_CONNECTING);
	ck_assert_uint_eq(F.starts, 1);
	run_ms(29900);
	ck_assert_uint_eq(F.starts, 1);
	run_ms(200);
	ck_assert_uint_eq(F.starts, 2);
	run_ms(30000);
	ck_assert_uint_eq(F.starts, 3);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_CONNECTING);
	run_ms(30000);
	const char *detail;
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_HELD);
	ck_assert_int_eq(pae_supp_error(F.pae, &detail), EAP_PEER_ERR_NO_RESPONSE);
	ck_assert_str_eq(detail, "no EAP from the authenticator after 3 EAPOL-Start");
	ck_assert(!F.authorized);
	run_ms(59000);
	ck_assert_uint_eq(F.starts, 3);
	run_ms(2000); /* heldWhile: 60 s, then CONNECTING again */
	ck_assert_uint_eq(F.starts, 4);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_CONNECTING);
	teardown();
}
END_TEST

/* A wired port whose switch does not run 802.1X: after maxStart Starts the
 * port is taken as valid (802.1X-2010 CONNECTING -> AUTHENTICATED). */
START_TEST(no_authenticator_port_open)
{
	struct pae_supp_config cfg = { .port_valid_without_eap = true, .authorize_port = true,
				       .start_period_ms = 1000 };
	make(&cfg);
	pae_supp_port_enabled(F.pae, true);
	run_ms(3500);
	ck_assert_uint_eq(F.starts, 3);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATED);
	ck_assert(F.authorized);
	teardown();
}
END_TEST

START_TEST(md5_authenticates_and_authorizes)
{
	struct pae_supp_config cfg = { .authorize_port = true };
	make(&cfg);
	pae_supp_port_enabled(F.pae, true);
	authenticate();
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATED);
	ck_assert_uint_eq(F.results, 1);
	ck_assert_int_eq(F.result, EAP_PEER_SUCCESS);
	ck_assert(F.authorized);
	ck_assert(eapol_port_authorized(F.port));
	ck_assert_str_eq(eap_peer_method_name(pae_supp_peer(F.pae)), "MD5");
	/* The trail: CONNECTING, RESTART, AUTHENTICATING, AUTHENTICATED. */
	ck_assert_uint_eq(F.n_trail, 5);
	ck_assert_int_eq(F.trail[1], PAE_SUPP_CONNECTING);
	ck_assert_int_eq(F.trail[2], PAE_SUPP_RESTART);
	ck_assert_int_eq(F.trail[3], PAE_SUPP_AUTHENTICATING);
	ck_assert_int_eq(F.trail[4], PAE_SUPP_AUTHENTICATED);
	/* No timer left behind in AUTHENTICATED. */
	unsigned frames = F.frames;
	run_ms(200000);
	ck_assert_uint_eq(F.frames, frames);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATED);
	/* A retransmitted Success changes nothing; a Request reauthenticates
	 * with the port kept open meanwhile. */
	ck_assert_int_eq(rx_eap(3, 2, -1, NULL, 0), -ENOTCONN);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATED);
	authenticate();
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATED);
	ck_assert_uint_eq(F.results, 2);
	ck_assert(F.authorized);
	teardown();
}
END_TEST

START_TEST(failure_holds)
{
	struct pae_supp_config cfg = { .authorize_port = true };
	make(&cfg);
	pae_supp_port_enabled(F.pae, true);
	rx_eap(1, 1, 1, NULL, 0);
	rx_eap(1, 2, 4, challenge, sizeof(challenge));
	rx_eap(4, 2, -1, NULL, 0);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_HELD);
	ck_assert_int_eq(F.result, EAP_PEER_FAILURE);
	ck_assert_int_eq(pae_supp_error(F.pae, NULL), EAP_PEER_ERR_FAILURE);
	ck_assert(!F.authorized);
	/* Held: no Start during heldWhile... */
	unsigned starts = F.starts;
	run_ms(59000);
	ck_assert_uint_eq(F.starts, starts);
	/* ...but an EAP Request from the authenticator ends HELD (eapolEap). */
	ck_assert_int_eq(rx_eap(1, 7, 1, NULL, 0), 0);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATING);
	teardown();
}
END_TEST

/* authWhile: the authenticator goes silent mid-way; the attempt fails with
 * NO_RESPONSE and the PAE starts over from CONNECTING. */
START_TEST(auth_while_expires)
{
	make(NULL);
	pae_supp_port_enabled(F.pae, true);
	rx_eap(1, 1, 1, NULL, 0);
	unsigned starts = F.starts;
	run_ms(29000);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATING);
	run_ms(2000);
	const char *detail;
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_CONNECTING);
	ck_assert_uint_eq(F.starts, starts + 1);
	ck_assert_uint_eq(F.results, 1);
	ck_assert_int_eq(F.result, EAP_PEER_FAILURE);
	ck_assert_int_eq(pae_supp_error(F.pae, &detail), EAP_PEER_ERR_NO_RESPONSE);
	ck_assert_str_eq(detail, "the server stopped answering before a method ran");
	ck_assert_uint_eq(pae_supp_stats(F.pae)->auth_timeouts, 1);
	/* The next attempt starts clean. */
	authenticate();
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATED);
	ck_assert_int_eq(pae_supp_error(F.pae, NULL), EAP_PEER_ERR_NONE);
	teardown();
}
END_TEST

START_TEST(logoff_and_back)
{
	struct pae_supp_config cfg = { .authorize_port = true };
	make(&cfg);
	pae_supp_port_enabled(F.pae, true);
	authenticate();
	pae_supp_logoff(F.pae, true);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_LOGOFF);
	ck_assert_uint_eq(F.logoffs, 1);
	ck_assert_uint_eq(F.last[1], EAPOL_TYPE_LOGOFF);
	ck_assert(!F.authorized);
	ck_assert_int_eq(rx_eap(1, 9, 1, NULL, 0), -ENOTCONN);
	unsigned starts = F.starts;
	pae_supp_logoff(F.pae, false);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_CONNECTING);
	ck_assert_uint_eq(F.starts, starts + 1);
	/* The link goes: DISCONNECTED, and no timer runs. */
	pae_supp_port_enabled(F.pae, false);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_DISCONNECTED);
	unsigned frames = F.frames;
	run_ms(300000);
	ck_assert_uint_eq(F.frames, frames);
	teardown();
}
END_TEST

/* Wi-Fi: the AP speaks first; a Start goes only if it stays silent. */
START_TEST(quiet_first_start)
{
	struct pae_supp_config cfg = { .first_start_delay_ms = 1000 };
	make(&cfg);
	pae_supp_port_enabled(F.pae, true);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_CONNECTING);
	ck_assert_uint_eq(F.starts, 0);
	run_ms(500);
	authenticate();
	ck_assert_uint_eq(F.starts, 0);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATED);
	teardown();

	make(&cfg);
	pae_supp_port_enabled(F.pae, true);
	run_ms(1100);
	ck_assert_uint_eq(F.starts, 1);
	teardown();
}
END_TEST

START_TEST(secret_through_pae)
{
	make(NULL);
	F.prof.password = NULL;
	F.prof.password_len = 0;
	pae_supp_port_enabled(F.pae, true);
	rx_eap(1, 1, 1, NULL, 0);
	unsigned eaps = F.eaps;
	rx_eap(1, 2, 4, challenge, sizeof(challenge));
	ck_assert_uint_eq(F.asks, 1);
	ck_assert_uint_eq(F.eaps, eaps);
	ck_assert_int_eq(pae_supp_set_secret(F.pae, EAP_SECRET_PASSWORD, "password"), 0);
	ck_assert_uint_eq(F.eaps, eaps + 1);
	rx_eap(3, 2, -1, NULL, 0);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATED);
	teardown();
}
END_TEST

/* The PMK of an 802.1X AKM is the MSK's first 256 bits (IEEE 802.11-2020
 * 12.7.1.3); MD5 has no MSK, MSCHAPv2's is 32 octets, too short for the
 * SHA-384 AKM's 384 bits. */
START_TEST(pmk_from_msk)
{
	uint8_t pmk[64], msk[64];
	make(NULL);
	pae_supp_port_enabled(F.pae, true);
	ck_assert_int_eq(pae_supp_pmk(F.pae, RSN_AKM_8021X, pmk, sizeof(pmk)), -ENOENT);
	authenticate(); /* MD5 */
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATED);
	ck_assert_int_eq(pae_supp_pmk(F.pae, RSN_AKM_8021X, pmk, sizeof(pmk)), -ENOENT);
	ck_assert_int_eq(pae_supp_pmk(F.pae, RSN_AKM_PSK, pmk, sizeof(pmk)), -EINVAL);
	teardown();

	/* MSCHAPv2 through the PAE, its server played with daemon/crypto/mschapv2. */
	make(NULL);
	F.prof.methods[0] = "MSCHAPV2";
	F.prof.identity = "User";
	F.prof.password = "clientPass";
	F.prof.password_len = 10;
	pae_supp_port_enabled(F.pae, true);
	rx_eap(1, 1, 1, NULL, 0);
	uint8_t ch[27] = { 1, 0x42, 0, 27, 16 };
	for (int i = 0; i < 16; i++)
		ch[5 + i] = (uint8_t)(0x5b + i);
	memcpy(ch + 21, "server", 6);
	rx_eap(1, 2, 26, ch, sizeof(ch));
	const uint8_t *r = F.last + 4 + 5; /* EAPOL, EAP, Type: the MSCHAPv2 Response */
	uint8_t pc[16], nt[24], hash[16], hh[16], ar[20], master[16];
	memcpy(pc, r + 5, 16);
	memcpy(nt, r + 29, 24);
	mschapv2_nt_password_hash("clientPass", 10, hash);
	mschapv2_authenticator_response(hash, nt, pc, ch + 5, "User", 4, ar);
	char ok[4 + 2 + 40 + 1] = { 3, 0x42, 0, 46, 'S', '=' };
	for (int i = 0; i < 20; i++)
		snprintf(ok + 6 + 2 * i, 3, "%02X", ar[i]);
	rx_eap(1, 3, 26, ok, 46);
	rx_eap(3, 3, -1, NULL, 0);
	ck_assert_int_eq(pae_supp_state(F.pae), PAE_SUPP_AUTHENTICATED);
	ck_assert_int_eq(pae_supp_pmk(F.pae, RSN_AKM_8021X_SHA256, pmk, sizeof(pmk)), 32);
	mschapv2_hash_nt_password_hash(hash, hh);
	mschapv2_master_key(hh, nt, master);
	mschapv2_asymmetric_start_key(master, msk, 16, true, false);
	mschapv2_asymmetric_start_key(master, msk + 16, 16, false, false);
	ck_assert_mem_eq(pmk, msk, 32);
	ck_assert_int_eq(pae_supp_pmk(F.pae, RSN_AKM_8021X_SHA384, pmk, sizeof(pmk)), -ENOENT);
	ck_assert_int_eq(pae_supp_pmk(F.pae, RSN_AKM_8021X, pmk, 16), -ENOSPC);
	teardown();
}
END_TEST

Suite *make_pae_supp_suite(void)
{
	Suite *s = suite_create("pae_supp");
	TCase *tc = tcase_create("pae");
	tcase_add_test(tc, start_retries_then_held);
	tcase_add_test(tc, no_authenticator_port_open);
	tcase_add_test(tc, md5_authenticates_and_authorizes);
	tcase_add_test(tc, failure_holds);
	tcase_add_test(tc, auth_while_expires);
	tcase_add_test(tc, logoff_and_back);
	tcase_add_test(tc, quiet_first_start);
	tcase_add_test(tc, secret_through_pae);
	tcase_add_test(tc, pmk_from_msk);
	suite_add_tcase(s, tc);
	return s;
}
