/* The Enterprise key path of the security core, end to end without a radio:
 * the supplicant PAE runs EAP-MSCHAPv2 against a scripted server, the PMK
 * comes from the MSK (pae_supp_pmk), the 4-way handshake starts with the
 * PMK set late on both sides (the authenticator's PMK derived the server's
 * way, RFC 3079's server keys) and completes with equal keys; the PMKSA
 * cache entry made from it names the PMKID of message 1, and a second
 * handshake completes from the cache entry alone (no PAE, no EAP). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "daemon/codec/eapol.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/crypto/mschapv2.h"
#include "daemon/rsn/eapol_port.h"
#include "daemon/rsn/pae_supp.h"
#include "daemon/rsn/pmksa.h"
#include "tests/unit/test_rsn_shim.h"

/* The EAP side: the PAE on its port, the server played here. */
struct eap_side {
	struct eapol_port *port;
	struct pae_supp *pae;
	uint8_t last[512];
	size_t last_len;
	unsigned eap_frames;
};
static struct eap_side E;

static int e_tx(void *ctx, const uint8_t *f, size_t len)
{
	ck_assert_uint_le(len, sizeof(E.last));
	memcpy(E.last, f, len);
	E.last_len = len;
	E.eap_frames += f[1] == EAPOL_TYPE_EAP;
	return 0;
}
static void e_auth(void *ctx, bool on)
{
}
static int e_rx_eap(void *ctx, const struct eap_hdr_info *eap)
{
	return pae_supp_rx_eap(E.pae, eap);
}
static const struct eapol_port_ops e_ops = { .tx = e_tx, .set_authorized = e_auth,
					     .rx_eap = e_rx_eap };

static void server_send(uint8_t code, uint8_t id, int type, const void *data, size_t len)
{
	uint8_t f[256];
	size_t eap_len = 4 + (type >= 0 ? 1 + len : 0);
	f[0] = 2;
	f[1] = EAPOL_TYPE_EAP;
	f[2] = 0;
	f[3] = (uint8_t)eap_len;
	f[4] = code;
	f[5] = id;
	f[6] = 0;
	f[7] = (uint8_t)eap_len;
	if (type >= 0) {
		f[8] = (uint8_t)type;
		if (len)
			memcpy(f + 9, data, len);
	}
	ck_assert_int_eq(eapol_port_rx(E.port, f, 4 + eap_len), 0);
}

/* EAP-MSCHAPv2 as a server: challenge, check the NT-Response, prove the
 * password back (S=), Success. Returns the server's MSK (its MS-MPPE
 * Recv-Key || Send-Key, RFC 3079 3.4 from the server's side). */
static void server_mschapv2(uint8_t msk[32])
{
	static const char user[] = "alice", pass[] = "correct horse";
	uint8_t ac[16], pc[16], nt[24], want[24], hash[16], hh[16], ar[20], master[16];

	for (int i = 0; i < 16; i++)
		ac[i] = (uint8_t)(0xa0 + i);
	server_send(1, 1, 1, NULL, 0);
	ck_assert_uint_eq(E.last[8], 1);
	ck_assert_mem_eq(E.last + 9, user, 5);
	uint8_t ch[4 + 1 + 16 + 3] = { 1, 7, 0, sizeof(ch), 16 };
	memcpy(ch + 5, ac, 16);
	memcpy(ch + 21, "srv", 3);
	server_send(1, 2, 26, ch, sizeof(ch));
	const uint8_t *r = E.last + 9;
	ck_assert_uint_eq(r[0], 2);
	memcpy(pc, r + 5, 16);
	memcpy(nt, r + 29, 24);
	ck_assert_int_eq(mschapv2_nt_password_hash(pass, strlen(pass), hash), 0);
	ck_assert_int_eq(mschapv2_nt_response(ac, pc, user, 5, hash, want), 0);
	ck_assert_mem_eq(nt, want, 24);
	ck_assert_int_eq(mschapv2_authenticator_response(hash, nt, pc, ac, user, 5, ar), 0);
	char ok[4 + 2 + 40 + 1] = { 3, 7, 0, 46, 'S', '=' };
	for (int i = 0; i < 20; i++)
		snprintf(ok + 6 + 2 * i, 3, "%02X", ar[i]);
	server_send(1, 3, 26, ok, 46);
	ck_assert_uint_eq(E.last[9], 3); /* the peer's Success acknowledgement */
	server_send(3, 3, -1, NULL, 0);
	mschapv2_hash_nt_password_hash(hash, hh);
	mschapv2_master_key(hh, nt, master);
	mschapv2_asymmetric_start_key(master, msk, 16, false, true);
	mschapv2_asymmetric_start_key(master, msk + 16, 16, true, true);
}

START_TEST(eap_pmk_then_cached)
{
	static const uint8_t ssid[] = "corp";
	struct eap_peer_profile prof = {
		.methods = { "MSCHAPV2" }, .n_methods = 1,
		.identity = "alice", .password = "correct horse", .password_len = 13,
	};
	struct shim_cfg c;
	struct shim s;
	uint8_t server_msk[32], pmk[64], pmkid[16], got[16];

	shim_cfg_default(&c, RSN_AKM_8021X_SHA256);
	c.late_pmk = true;
	shim_init(&s, &c);
	memset(&E, 0, sizeof(E));
	E.port = eapol_port_new(EAPOL_PORT_SUPPLICANT, "sta", &e_ops, NULL);
	E.pae = pae_supp_new(s.loop, E.port, NULL, &prof, NULL, NULL);
	ck_assert_ptr_nonnull(E.pae);

	/* Association done: the 4-way machine waits, EAP runs first. */
	rsn_supp_start(s.sta);
	pae_supp_port_enabled(E.pae, true);
	server_mschapv2(server_msk);
	ck_assert_int_eq(pae_supp_state(E.pae), PAE_SUPP_AUTHENTICATED);
	int n = pae_supp_pmk(E.pae, RSN_AKM_8021X_SHA256, pmk, sizeof(pmk));
	ck_assert_int_eq(n, 32);
	/* The peer's PMK is the server's: both derived the MSK their way. */
	ck_assert_mem_eq(pmk, server_msk, 32);

	/* The AP's PMKSA names the PMKID it puts in message 1. */
	ck_assert_int_eq(rsn_pmkid(RSN_AKM_8021X_SHA256, server_msk, 32, shim_ap_addr,
				   shim_sta_addr, pmkid), 0);
	ck_assert_int_eq(rsn_auth_set_pmk(s.ap, server_msk, 32, pmkid), 0);
	struct pmksa_cache *cache = pmksa_cache_new(s.loop, 0);
	struct pmksa_add add = { .own_addr = shim_sta_addr, .peer_addr = shim_ap_addr,
				 .akm = RSN_AKM_8021X_SHA256, .network = ssid, .network_len = 4,
				 .pmk = pmk, .pmk_len = (size_t)n };
	const struct pmksa *e = pmksa_cache_add(cache, &add);
	ck_assert_ptr_nonnull(e);
	ck_assert_mem_eq(e->pmkid, pmkid, 16);
	ck_assert_int_eq(rsn_supp_set_pmk(s.sta, pmk, (size_t)n, e->pmkid), 0);
	ck_assert_int_eq(rsn_auth_start(s.ap), 0);
	ck_assert(shim_run(&s, shim_both_complete, 2000));
	ck_assert_mem_eq(s.sta_side.tk, s.ap_side.tk, s.ap_side.tk_len);
	ck_assert(rsn_supp_msg1_pmkid(s.sta, got));
	ck_assert_mem_eq(got, pmkid, 16);
	ck_assert_uint_eq(E.eap_frames, 3); /* Identity, Response, Success ack */
	pae_supp_free(E.pae);
	eapol_port_free(E.port);
	shim_free(&s);

	/* A reconnect within the lifetime: the PMK from the cache, no EAP. */
	shim_init(&s, &c);
	pmksa_cache_free(cache); /* the old cache held the old loop's clock */
	cache = pmksa_cache_new(s.loop, 0);
	e = pmksa_cache_add(cache, &add);
	const struct pmksa *hit = pmksa_cache_get(cache, shim_sta_addr, shim_ap_addr,
						  RSN_AKM_8021X_SHA256);
	ck_assert_ptr_eq(hit, e);
	rsn_supp_start(s.sta);
	ck_assert_int_eq(rsn_supp_set_pmk(s.sta, hit->pmk, hit->pmk_len, hit->pmkid), 0);
	ck_assert_int_eq(rsn_auth_set_pmk(s.ap, server_msk, 32, pmkid), 0);
	ck_assert_int_eq(rsn_auth_start(s.ap), 0);
	ck_assert(shim_run(&s, shim_both_complete, 2000));
	ck_assert_mem_eq(s.sta_side.tk, s.ap_side.tk, s.ap_side.tk_len);
	pmksa_cache_free(cache);
	shim_free(&s);
}
END_TEST

Suite *make_rsn_8021x_suite(void)
{
	Suite *s = suite_create("rsn_8021x");
	TCase *tc = tcase_create("8021x");
	tcase_add_test(tc, eap_pmk_then_cached);
	suite_add_tcase(s, tc);
	return s;
}
