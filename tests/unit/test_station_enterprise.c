/* The station on a WPA2-Enterprise network (AKM 00-0F-AC:1), over the
 * simulated air with a hand-played AP that runs EAP-MSCHAPv2 as a server
 * would: the known network's [EAP] profile drives the station's PAE, the
 * PMK from EAP reaches the 4-way handshake (message 2's MIC checks with the
 * KCK of the server's PMK) and the PMKSA cache; a wrong password and a
 * server offering only a method the profile refuses end the connect with
 * errors that name the stage. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/eapol.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/crypto/eapol_mic.h"
#include "daemon/crypto/mschapv2.h"
#include "daemon/crypto/ptk.h"
#include "daemon/rsn/pmksa.h"
#include "daemon/station/station_i.h"
#include "daemon/store/known_store.h"
#include "tests/unit/test_station_air.h"

enum mode { M_OK, M_REJECT, M_REFUSE };

static struct air A;
static struct {
	struct air_ap *ap;
	enum mode mode;
	uint8_t ac[16], nt[24], pc[16];
	uint8_t msk[32];
	bool eap_done, msg2_ok;
	unsigned msg2s;
	uint8_t anonce[32];
} S;

static const char user[] = "alice", pass[] = "correct horse";

static void ap_send(const uint8_t *frame, size_t len)
{
	ck_assert_int_eq(driver_tx_eapol(A.drv, S.ap->ifindex, A.sta_addr, frame, len, true, NULL),
			 0);
}

static void send_eap(uint8_t code, uint8_t id, int type, const void *data, size_t len)
{
	uint8_t f[128];
	size_t eap_len = 4 + (type >= 0 ? 1 + len : 0);
	uint8_t h[] = { 2, 0, 0, (uint8_t)eap_len, code, id, 0, (uint8_t)eap_len };
	memcpy(f, h, sizeof(h));
	if (type >= 0) {
		f[8] = (uint8_t)type;
		if (len)
			memcpy(f + 9, data, len);
	}
	ap_send(f, 4 + eap_len);
}

static void send_msg1(void)
{
	uint8_t buf[256];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct eapol_key k = { .descriptor = EAPOL_KEY_DESC_RSN, .key_length = 16,
			       .replay_counter = 1, .nonce = S.anonce, .mic_len = 16 };
	for (size_t i = 0; i < sizeof(S.anonce); i++)
		S.anonce[i] = (uint8_t)(0x30 + i);
	k.key_info = EAPOL_KEY_VER_HMAC_SHA1_AES | EAPOL_KEY_INFO_PAIRWISE | EAPOL_KEY_INFO_ACK;
	ck_assert_int_eq(eapol_key_frame_build(&w, EAPOL_VERSION_2004, &k, NULL), 0);
	ap_send(buf, w.len);
}

/* Message 2 must carry a MIC made with the KCK of the PMK the server got
 * from EAP (IEEE 802.11-2020 12.7.1.3: PMK = the MSK's first 256 bits). */
static void check_msg2(const uint8_t *f, size_t len)
{
	struct eapol_hdr h;
	struct eapol_key k;
	struct crypto_ptk ptk;
	static const struct crypto_ptk_spec spec = { .kdf = CRYPTO_PTK_PRF_SHA1, .kck_len = 16,
						     .kek_len = 16, .tk_len = 16 };
	ck_assert_int_eq(eapol_key_frame_parse(f, len, 16, &h, &k), 0);
	ck_assert_int_eq(crypto_ptk_derive(&spec, S.msk, 32, S.ap->addr, A.sta_addr, S.anonce,
					   k.nonce, &ptk), 0);
	S.msg2_ok = crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, ptk.kck, 16, f, len) == 0;
	S.msg2s++;
	crypto_ptk_clear(&ptk);
}

/* The server's half of EAP-MSCHAPv2 (and its refusals). */
static void server_rx(const uint8_t *eap, size_t len)
{
	ck_assert_uint_ge(len, 5);
	ck_assert_uint_eq(eap[0], 2);
	uint8_t type = eap[4];
	const uint8_t *d = eap + 5;
	uint8_t hash[16], hh[16], master[16], want[24], ar[20];

	if (type == 1) {
		ck_assert_uint_eq(len, 5 + strlen(user));
		ck_assert_mem_eq(d, user, strlen(user));
		if (S.mode == M_REFUSE) {
			send_eap(1, 2, 21, "\x20", 1); /* TTLS Start only */
			return;
		}
		uint8_t ch[4 + 1 + 16] = { 1, 9, 0, sizeof(ch), 16 };
		for (int i = 0; i < 16; i++)
			S.ac[i] = ch[5 + i] = (uint8_t)(0x71 * i + 3);
		send_eap(1, 2, 26, ch, sizeof(ch));
		return;
	}
	if (type == 3) { /* Nak */
		send_eap(4, eap[1], -1, NULL, 0);
		return;
	}
	ck_assert_uint_eq(type, 26);
	if (d[0] == 2) {
		memcpy(S.pc, d + 5, 16);
		memcpy(S.nt, d + 29, 24);
		mschapv2_nt_password_hash(pass, strlen(pass), hash);
		mschapv2_nt_response(S.ac, S.pc, user, strlen(user), hash, want);
		ck_assert_mem_eq(S.nt, want, 24);
		if (S.mode == M_REJECT) {
			static const char m[] = "E=691 R=0 V=3 M=wrong password";
			uint8_t fail[4 + sizeof(m) - 1] = { 4, 9, 0, sizeof(fail) };
			memcpy(fail + 4, m, sizeof(m) - 1);
			send_eap(1, 3, 26, fail, sizeof(fail));
			return;
		}
		mschapv2_authenticator_response(hash, S.nt, S.pc, S.ac, user, strlen(user), ar);
		char ok[4 + 2 + 40 + 1] = { 3, 9, 0, 46, 'S', '=' };
		for (int i = 0; i < 20; i++)
			snprintf(ok + 6 + 2 * i, 3, "%02X", ar[i]);
		send_eap(1, 3, 26, ok, 46);
		mschapv2_hash_nt_password_hash(hash, hh);
		mschapv2_master_key(hh, S.nt, master);
		/* The server's MSK: its Recv-Key || Send-Key (RFC 3079 3.4). */
		mschapv2_asymmetric_start_key(master, S.msk, 16, false, true);
		mschapv2_asymmetric_start_key(master, S.msk + 16, 16, true, true);
		return;
	}
	if (d[0] == 3) { /* the peer took our S=: Success, then the 4-way */
		send_eap(3, 3, -1, NULL, 0);
		S.eap_done = true;
		send_msg1();
		return;
	}
	if (d[0] == 4) /* the peer's failure acknowledgement */
		send_eap(4, 3, -1, NULL, 0);
}

static void hook(void *ctx, const struct driver_event *ev)
{
	if (ev->type != DRIVER_EV_RX_EAPOL || !S.ap || ev->ifindex != S.ap->ifindex)
		return;
	const uint8_t *f = ev->u.data.body;
	size_t len = ev->u.data.len;
	if (len < 4)
		return;
	if (f[1] == EAPOL_TYPE_EAP)
		server_rx(f + 4, len - 4);
	else if (f[1] == EAPOL_TYPE_KEY)
		check_msg2(f, len);
}

static void store_profile(const char *ssid, const char *const (*kv)[2], size_t n)
{
	struct known_network net;
	known_network_init(&net, (const uint8_t *)ssid, strlen(ssid), KNOWN_SEC_8021X);
	net.extras = calloc(n, sizeof(*net.extras));
	ck_assert_ptr_nonnull(net.extras);
	for (size_t i = 0; i < n; i++)
		net.extras[i] = (struct known_extra){ strdup("EAP"), strdup(kv[i][0]),
						      strdup(kv[i][1]) };
	net.n_extras = n;
	ck_assert_int_eq(known_store_save(A.store, &net, NULL), 0);
	known_network_clear(&net);
}

static const char *const profile[][2] = {
	{ "Method", "MSCHAPV2" },
	{ "Identity", "alice" },
	{ "Password", "correct horse" },
};

static void setup(void)
{
	memset(&S, 0, sizeof(S));
	air_setup(&A, 2, true);
	A.hook = hook;
	struct air_ap_conf conf = { .ssid = "corp", .freq = 2437, .psk = true,
				    .akm = RSN_AKM_8021X };
	S.ap = air_add_ap_conf(&A, 1, &conf);
	S.ap->send_eap_identity = true;
}

static void teardown(void)
{
	air_teardown(&A);
}

static bool msg2_seen(struct air *a)
{
	return S.msg2s > 0 || a->n_connect_done > 0;
}

START_TEST(eap_then_4way)
{
	store_profile("corp", profile, 3);
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, msg2_seen, 10000));
	ck_assert_msg(S.eap_done, "%s", A.connect_err.text);
	ck_assert(S.msg2_ok);
	ck_assert_int_eq(station_state(A.st), STATION_HANDSHAKING);
	/* The PMKSA of the link: the server's PMK, for the next connect. */
	const struct pmksa *e = pmksa_cache_get(A.st->pmksa, A.sta_addr, S.ap->addr,
						RSN_AKM_8021X);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->pmk_len, 32);
	ck_assert_mem_eq(e->pmk, S.msk, 32);
	/* A profile replaced over D-Bus: the old identity's PMKSA goes. */
	station_eap_profile_replaced(A.st, (const uint8_t *)"corp", 4);
	ck_assert_ptr_null(pmksa_cache_get(A.st->pmksa, A.sta_addr, S.ap->addr, RSN_AKM_8021X));
}
END_TEST

START_TEST(wrong_password)
{
	S.mode = M_REJECT;
	store_profile("corp", profile, 3);
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(!A.connect_ok);
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_AUTHENTICATION_FAILED);
	ck_assert_msg(strstr(A.connect_err.text, "inner-rejected") &&
			      strstr(A.connect_err.text, "E=691"),
		      "%s", A.connect_err.text);
	ck_assert_uint_eq(S.msg2s, 0);
	ck_assert_int_eq(station_state(A.st), STATION_DISCONNECTED);
	/* The front does not retry it (a RADIUS server may lock the account). */
	ck_assert(station_eap_needs_user(A.st));
}
END_TEST

START_TEST(method_refused)
{
	S.mode = M_REFUSE;
	store_profile("corp", profile, 3);
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(!A.connect_ok);
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_NOT_SUPPORTED);
	ck_assert_msg(strstr(A.connect_err.text, "method-refused") &&
			      strstr(A.connect_err.text, "TTLS"),
		      "%s", A.connect_err.text);
}
END_TEST

/* A reconnect within the PMK's lifetime: our association offers the
 * PMKSA's PMKID, the AP (which kept it) goes straight to the 4-way, and
 * message 2 checks with the cached PMK; no EAP frame at all. */
START_TEST(cached_reconnect_skips_eap)
{
	store_profile("corp", profile, 3);
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, msg2_seen, 10000));
	ck_assert(S.msg2_ok);
	uint8_t pmkid[16];
	ck_assert_int_eq(rsn_pmkid(RSN_AKM_8021X, S.msk, 32, S.ap->addr, A.sta_addr, pmkid), 0);
	ck_assert_int_eq(station_disconnect(A.st), 0);
	air_run_for(&A, 100);

	unsigned eapol_before = S.ap->n_eapol;
	S.msg2s = 0;
	S.msg2_ok = false;
	S.ap->send_eap_identity = false;
	S.ap->send_msg1 = true; /* the fixture's message 1: ANonce a0 a1 .. bf */
	for (size_t i = 0; i < sizeof(S.anonce); i++)
		S.anonce[i] = (uint8_t)(0xa0 + i);
	A.n_connect_done = 0;
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, msg2_seen, 10000));
	ck_assert(S.msg2_ok);
	ck_assert_uint_eq(S.ap->n_eapol - eapol_before, 1); /* message 2 only: no EAP */

	struct ie_elem e;
	struct ie_rsn rsn;
	ck_assert(ie_find(S.ap->last_assoc_ies, S.ap->last_assoc_ies_len, WLAN_EID_RSN, &e));
	ck_assert_int_eq(ie_parse_rsn(e.data, e.len, &rsn), CODEC_OK);
	ck_assert_uint_eq(rsn.n_pmkid, 1);
	ck_assert_mem_eq(rsn.pmkids, pmkid, 16);
}
END_TEST

/* A known 802.1X network with its profile is joined by autoconnect; one
 * without [EAP] is not tried at all. */
START_TEST(autoconnect_joins)
{
	static const char *const other[][2] = { { "Comment", "no EAP here" } };
	struct known_network net;
	known_network_init(&net, (const uint8_t *)"corp", 4, KNOWN_SEC_8021X);
	net.extras = calloc(1, sizeof(*net.extras));
	net.extras[0] = (struct known_extra){ strdup("Notes"), strdup(other[0][0]),
					      strdup(other[0][1]) };
	net.n_extras = 1;
	ck_assert_int_eq(known_store_save(A.store, &net, NULL), 0);
	known_network_clear(&net);
	station_known_networks_changed(A.st);
	air_run_for(&A, 3000);
	ck_assert_uint_eq(S.ap->n_auth, 0);

	/* The same wait is enough once the profile is there. */
	store_profile("corp", profile, 3);
	station_known_networks_changed(A.st);
	ck_assert(air_run_until(&A, msg2_seen, 3000));
	ck_assert(S.eap_done && S.msg2_ok);
}
END_TEST

/* No Password in the profile: the station asks through its eap_secret
 * callback (the D-Bus agent in the daemon) and goes on with the answer; with
 * nobody to ask the attempt fails with NoAgent. */
static unsigned asks;
static bool answer_later;
static void ask(void *ctx, int which)
{
	asks++;
	ck_assert_int_eq(which, EAP_SECRET_PASSWORD);
	if (!answer_later)
		ck_assert_int_eq(station_eap_secret(A.st, which, "correct horse"), 0);
}

static bool asked(struct air *a)
{
	return asks > 0;
}

START_TEST(password_asked)
{
	static const char *const nopw[][2] = { { "Method", "MSCHAPV2" }, { "Identity", "alice" } };
	store_profile("corp", nopw, 2);
	asks = 0;
	answer_later = true;
	A.st->cb.eap_secret = ask;
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, asked, 10000));
	air_run_for(&A, 200); /* nothing moves while the user types */
	ck_assert(!S.eap_done);
	ck_assert_int_eq(station_eap_secret(A.st, EAP_SECRET_PASSWORD, "correct horse"), 0);
	ck_assert(air_run_until(&A, msg2_seen, 3000));
	ck_assert(S.eap_done && S.msg2_ok);
	ck_assert_uint_eq(asks, 1);
	/* The answer was for this attempt only: nothing written to the file. */
	struct known_network *net = known_store_get(A.store, (const uint8_t *)"corp", 4,
						    KNOWN_SEC_8021X);
	ck_assert_ptr_nonnull(net);
	for (size_t i = 0; i < net->n_extras; i++)
		ck_assert_str_ne(net->extras[i].key, "Password");
}
END_TEST

START_TEST(password_asked_answered_at_once)
{
	static const char *const nopw[][2] = { { "Method", "MSCHAPV2" }, { "Identity", "alice" } };
	store_profile("corp", nopw, 2);
	asks = 0;
	answer_later = false;
	A.st->cb.eap_secret = ask;
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, msg2_seen, 3000));
	ck_assert(S.eap_done && S.msg2_ok);
	ck_assert_uint_eq(asks, 1);
}
END_TEST

START_TEST(password_nobody_to_ask)
{
	static const char *const nopw[][2] = { { "Method", "MSCHAPV2" }, { "Identity", "alice" } };
	store_profile("corp", nopw, 2);
	A.st->cb.eap_secret = NULL;
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(!A.connect_ok);
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_NO_AGENT);
	ck_assert_msg(strstr(A.connect_err.text, "credentials"), "%s", A.connect_err.text);
	ck_assert_int_eq(station_eap_secret(A.st, EAP_SECRET_PASSWORD, "x"), -ENOENT);
}
END_TEST

/* An AP that never speaks EAP: the PAE sends EAPOL-Start, and the watchdog
 * ends the attempt with Timeout naming 802.1X (not "wrong passphrase"). */
START_TEST(no_eap_from_ap)
{
	S.ap->send_eap_identity = false;
	store_profile("corp", profile, 3);
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 120000));
	ck_assert(!A.connect_ok);
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_TIMEOUT);
	ck_assert_msg(strstr(A.connect_err.text, "802.1X") &&
			      strstr(A.connect_err.text, "no EAP request"),
		      "%s", A.connect_err.text);
	ck_assert_uint_ge(S.ap->n_eapol, 1); /* our EAPOL-Start(s) */
}
END_TEST

/* A wrong password found by autoconnect is not retried: a RADIUS server may
 * lock the account after a few failures. */
START_TEST(autoconnect_wrong_password_not_retried)
{
	S.mode = M_REJECT;
	store_profile("corp", profile, 3);
	station_known_networks_changed(A.st);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(!A.connect_ok);
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_AUTHENTICATION_FAILED);
	unsigned auths = S.ap->n_auth;
	ck_assert_uint_eq(auths, 1);
	air_run_for(&A, 120000);
	ck_assert_uint_eq(S.ap->n_auth, auths);
}
END_TEST

/* A password given over D-Bus for this run only (Manager.AddKnownNetwork
 * without StoreSecrets): the store holds it in memory, the file has none,
 * and the connect uses it without asking. */
START_TEST(memory_password_used)
{
	static const char *const nopw[][2] = { { "Method", "MSCHAPV2" }, { "Identity", "alice" } };
	store_profile("corp", nopw, 2);
	struct known_network *net = known_store_get(A.store, (const uint8_t *)"corp", 4,
						    KNOWN_SEC_8021X);
	ck_assert_ptr_nonnull(net);
	ck_assert_int_eq(known_network_set_mem_secret(net, "Password", "correct horse"), 0);
	asks = 0;
	answer_later = true;
	A.st->cb.eap_secret = ask;
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, msg2_seen, 10000));
	ck_assert_msg(S.eap_done && S.msg2_ok, "%s", A.connect_err.text);
	ck_assert_uint_eq(asks, 0);
	ck_assert(!station_eap_needs_user(A.st));
}
END_TEST

/* Under external control (the fi.w1.wpa_supplicant1 front) the store is
 * not read: the profile the front gives is used, for its network only. */
START_TEST(given_profile_external)
{
	struct eap_conf c = { .n_methods = 1, .tls_min = EAP_CONF_TLS_1_2 };
	strcpy(c.methods[0], "MSCHAPV2");
	c.identity = strdup("alice");
	c.password = strdup("correct horse");
	station_set_external_control(A.st, true);
	ck_assert_int_eq(station_set_eap_profile(A.st, (const uint8_t *)"other", 5, &c), 0);
	/* A profile for another network: "corp" has none (the store is not
	 * read under external control). */
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(!A.connect_ok);
	ck_assert_msg(A.connect_err.code == WPAD_ERR_NOT_FOUND &&
			      strstr(A.connect_err.text, "no EAP profile"),
		      "%s", A.connect_err.text);
	ck_assert_uint_eq(S.msg2s, 0);
	ck_assert_int_eq(station_set_eap_profile(A.st, (const uint8_t *)"corp", 4, &c), 0);
	eap_conf_clear(&c); /* the station keeps its own copy */
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, msg2_seen, 10000));
	ck_assert_msg(S.eap_done && S.msg2_ok, "%s", A.connect_err.text);
	ck_assert_int_eq(station_set_eap_profile(A.st, NULL, 0, NULL), 0);
}
END_TEST

/* The front gives its profile again at every SelectNetwork: the same one
 * keeps the network's PMKSA (a reconnect skips EAP), a changed one (here
 * another identity; in NetworkManager's case another CA or domain) drops
 * it, so EAP and its server checks run again. */
START_TEST(given_profile_changed_drops_pmksa)
{
	struct eap_conf c = { .n_methods = 1, .tls_min = EAP_CONF_TLS_1_2 }, same;
	strcpy(c.methods[0], "MSCHAPV2");
	c.identity = strdup("alice");
	c.password = strdup("correct horse");
	station_set_external_control(A.st, true);
	ck_assert_int_eq(station_set_eap_profile(A.st, (const uint8_t *)"corp", 4, &c), 0);
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, msg2_seen, 10000));
	ck_assert_msg(S.eap_done && S.msg2_ok, "%s", A.connect_err.text);
	ck_assert_int_eq(station_disconnect(A.st), 0);
	air_run_for(&A, 100);
	ck_assert_ptr_nonnull(pmksa_cache_get(A.st->pmksa, A.sta_addr, S.ap->addr, RSN_AKM_8021X));

	ck_assert_int_eq(eap_conf_copy(&same, &c), 0);
	ck_assert_int_eq(station_set_eap_profile(A.st, (const uint8_t *)"corp", 4, &same), 0);
	eap_conf_clear(&same);
	ck_assert_ptr_nonnull(pmksa_cache_get(A.st->pmksa, A.sta_addr, S.ap->addr, RSN_AKM_8021X));

	free(c.identity);
	c.identity = strdup("bob");
	ck_assert_int_eq(station_set_eap_profile(A.st, (const uint8_t *)"corp", 4, &c), 0);
	ck_assert_ptr_null(pmksa_cache_get(A.st->pmksa, A.sta_addr, S.ap->addr, RSN_AKM_8021X));
	eap_conf_clear(&c);
	ck_assert_int_eq(station_set_eap_profile(A.st, NULL, 0, NULL), 0);
}
END_TEST

/* No [EAP] section: refused before anything goes on the air. */
START_TEST(no_profile)
{
	static const char *const nothing[][2] = { { "Identity", "alice" } };
	store_profile("corp", nothing, 1);
	ck_assert_int_eq(air_connect(&A, "corp", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(!A.connect_ok);
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_INVALID_FORMAT);
	ck_assert_msg(strstr(A.connect_err.text, "Method"), "%s", A.connect_err.text);
	ck_assert_uint_eq(S.ap->n_auth, 0);
}
END_TEST

Suite *make_station_enterprise_suite(void)
{
	Suite *s = suite_create("station_enterprise");
	TCase *tc = tcase_create("enterprise");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, eap_then_4way);
	tcase_add_test(tc, wrong_password);
	tcase_add_test(tc, method_refused);
	tcase_add_test(tc, no_profile);
	tcase_add_test(tc, cached_reconnect_skips_eap);
	tcase_add_test(tc, autoconnect_joins);
	tcase_add_test(tc, password_asked);
	tcase_add_test(tc, password_asked_answered_at_once);
	tcase_add_test(tc, password_nobody_to_ask);
	tcase_add_test(tc, no_eap_from_ap);
	tcase_add_test(tc, autoconnect_wrong_password_not_retried);
	tcase_add_test(tc, memory_password_used);
	tcase_add_test(tc, given_profile_external);
	tcase_add_test(tc, given_profile_changed_drops_pmksa);
	suite_add_tcase(s, tc);
	return s;
}
