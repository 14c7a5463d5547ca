/* The wired port role (daemon/wired/wired_port.h) against a scripted
 * authenticator on the virtual clock: EAPOL-Start and its retries, an
 * EAP-MD5 success and failure, the auth timeout, a refused method with the
 * offered one named, a password asked when missing, the link going. */
#include <check.h>
#include <openssl/evp.h>
#include <string.h>

#include "daemon/config/eap_conf.h"
#include "daemon/core/loop.h"
#include "daemon/wired/wired_port.h"

#define MAX_FRAMES 16

struct rig {
	struct loop *loop;
	struct wired_port *port;
	struct eap_conf conf;
	uint8_t frames[MAX_FRAMES][1600];
	size_t lens[MAX_FRAMES];
	size_t n;
	unsigned secrets_asked;
	enum wired_state last_state;
	enum wired_state seen[8]; /* the states shown, in order */
	size_t n_seen;
};

static int r_tx(void *ctx, const uint8_t *f, size_t len)
{
	struct rig *r = ctx;
	ck_assert_uint_lt(r->n, MAX_FRAMES);
	ck_assert_uint_le(len, sizeof(r->frames[0]));
	memcpy(r->frames[r->n], f, len);
	r->lens[r->n++] = len;
	return 0;
}

static void r_state(void *ctx, enum wired_state o, enum wired_state n)
{
	struct rig *r = ctx;
	r->last_state = n;
	if (r->n_seen < 8)
		r->seen[r->n_seen++] = n;
}

static void r_secret(void *ctx, enum eap_peer_secret which)
{
	((struct rig *)ctx)->secrets_asked++;
}

static const struct wired_timers timers = { .start_period_ms = 1000, .max_start = 3,
					    .auth_period_ms = 2000, .held_period_ms = 5000 };

static void rig_init(struct rig *r, const char *password)
{
	memset(r, 0, sizeof(*r));
	r->loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	strcpy(r->conf.methods[0], "MD5");
	r->conf.n_methods = 1;
	r->conf.identity = (char *)"md5user";
	r->conf.password = (char *)password;
	struct wired_port_callbacks cb = { .state_changed = r_state, .need_secret = r_secret,
					   .ctx = r };
	r->port = wired_port_new_io(r->loop, "eth0", &r->conf, &timers, &cb, r_tx, r);
	ck_assert_ptr_nonnull(r->port);
}

static void rig_free(struct rig *r)
{
	wired_port_free(r->port);
	loop_free(r->loop);
}

static void advance_ms(struct rig *r, unsigned ms)
{
	loop_advance_us(r->loop, (uint64_t)ms * 1000);
	loop_iterate(r->loop, 0);
}

static bool is_start(const struct rig *r, size_t i)
{
	return r->lens[i] == 4 && r->frames[i][1] == 1 && r->frames[i][2] == 0 && r->frames[i][3] == 0;
}

/* An EAPOL EAP-Packet carrying code/id/type/data to the port. */
static void deliver(struct rig *r, uint8_t code, uint8_t id, int type, const uint8_t *data,
		    size_t len)
{
	uint8_t f[600];
	size_t eap_len = 4 + (type >= 0 ? 1 : 0) + len;
	f[0] = 2;
	f[1] = 0;
	f[2] = (uint8_t)(eap_len >> 8);
	f[3] = (uint8_t)eap_len;
	f[4] = code;
	f[5] = id;
	f[6] = (uint8_t)(eap_len >> 8);
	f[7] = (uint8_t)eap_len;
	size_t off = 8;
	if (type >= 0)
		f[off++] = (uint8_t)type;
	if (len)
		memcpy(f + off, data, len);
	wired_port_rx(r->port, f, 4 + eap_len);
}

static const uint8_t challenge[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

/* Identity, then an MD5 challenge (RFC 3748 5.4); checks the Response. */
static void md5_exchange(struct rig *r, const char *password)
{
	deliver(r, 1, 7, 1, NULL, 0);
	ck_assert_int_eq(wired_port_state(r->port), WIRED_S_AUTHENTICATING);
	size_t i = r->n - 1;
	ck_assert_uint_eq(r->frames[i][4], 2); /* Response */
	ck_assert_uint_eq(r->frames[i][8], 1); /* Identity */
	ck_assert_mem_eq(r->frames[i] + 9, "md5user", 7);
	uint8_t req[17] = { 16 };
	memcpy(req + 1, challenge, 16);
	deliver(r, 1, 8, 4, req, sizeof(req));
	i = r->n - 1;
	ck_assert_uint_eq(r->frames[i][8], 4); /* MD5-Challenge */
	ck_assert_uint_eq(r->frames[i][9], 16);
	/* CHAP (RFC 1994 4.1): MD5(Identifier || secret || Challenge). */
	uint8_t in[64], md[16];
	size_t n = 0;
	unsigned mdlen;
	in[n++] = 8;
	memcpy(in + n, password, strlen(password));
	n += strlen(password);
	memcpy(in + n, challenge, 16);
	n += 16;
	ck_assert(EVP_Digest(in, n, md, &mdlen, EVP_md5(), NULL));
	ck_assert_mem_eq(r->frames[i] + 10, md, 16);
}

START_TEST(starts_then_held_then_again)
{
	struct rig r;
	rig_init(&r, "md5 password");
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_DISABLED);
	wired_port_set_link(r.port, true);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_CONNECTING);
	ck_assert_uint_eq(r.n, 1);
	ck_assert(is_start(&r, 0));
	advance_ms(&r, 999);
	ck_assert_uint_eq(r.n, 1);
	advance_ms(&r, 1);
	ck_assert_uint_eq(r.n, 2);
	advance_ms(&r, 1000);
	ck_assert_uint_eq(r.n, 3);
	advance_ms(&r, 1000); /* maxStart reached: no authenticator */
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_HELD);
	ck_assert_int_eq(wired_port_last_error(r.port, NULL), EAP_PEER_ERR_NO_RESPONSE);
	ck_assert_int_eq(wired_port_last_error_code(r.port), WPAD_ERR_EAP_NO_RESPONSE);
	advance_ms(&r, 5000);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_CONNECTING);
	ck_assert(is_start(&r, r.n - 1));
	rig_free(&r);
}
END_TEST

START_TEST(md5_success_authorizes)
{
	struct rig r;
	rig_init(&r, "md5 password");
	wired_port_set_link(r.port, true);
	md5_exchange(&r, "md5 password");
	ck_assert(!wired_port_authorized(r.port));
	deliver(&r, 3, 8, -1, NULL, 0);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_AUTHENTICATED);
	ck_assert(wired_port_authorized(r.port));
	ck_assert_str_eq(wired_port_method(r.port), "MD5");
	ck_assert_int_eq(wired_port_last_error(r.port, NULL), EAP_PEER_ERR_NONE);
	ck_assert_uint_eq(wired_port_stats(r.port)->successes, 1);
	/* Timers are off once authenticated. */
	size_t n = r.n;
	advance_ms(&r, 100000);
	ck_assert_uint_eq(r.n, n);
	/* The link goes: unauthorized, nothing sent. */
	wired_port_set_link(r.port, false);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_DISABLED);
	ck_assert(!wired_port_authorized(r.port));
	rig_free(&r);
}
END_TEST

START_TEST(md5_failure_is_held)
{
	struct rig r;
	rig_init(&r, "wrong");
	wired_port_set_link(r.port, true);
	md5_exchange(&r, "wrong");
	deliver(&r, 4, 8, -1, NULL, 0);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_HELD);
	ck_assert(!wired_port_authorized(r.port));
	ck_assert_int_eq(wired_port_last_error(r.port, NULL), EAP_PEER_ERR_FAILURE);
	ck_assert_int_eq(wired_port_last_error_code(r.port), WPAD_ERR_EAP_FAILURE);
	size_t n = r.n;
	advance_ms(&r, 4999);
	ck_assert_uint_eq(r.n, n);
	advance_ms(&r, 1);
	ck_assert(is_start(&r, r.n - 1));
	rig_free(&r);
}
END_TEST

START_TEST(auth_timeout_is_no_response)
{
	struct rig r;
	rig_init(&r, "md5 password");
	wired_port_set_link(r.port, true);
	deliver(&r, 1, 1, 1, NULL, 0);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_AUTHENTICATING);
	size_t n = r.n;
	advance_ms(&r, 1999);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_AUTHENTICATING);
	/* authWhile ran out: the attempt failed (no response) and the PAE
	 * starts over with an EAPOL-Start (802.1X-2010 8.5.10: suppTimeout
	 * -> CONNECTING). */
	advance_ms(&r, 1);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_CONNECTING);
	ck_assert_uint_eq(r.n, n + 1);
	ck_assert(is_start(&r, r.n - 1));
	ck_assert_int_eq(wired_port_last_error(r.port, NULL), EAP_PEER_ERR_NO_RESPONSE);
	ck_assert_uint_eq(wired_port_stats(r.port)->failures, 1);
	rig_free(&r);
}
END_TEST

START_TEST(refused_method_is_named)
{
	struct rig r;
	const char *detail;
	rig_init(&r, "md5 password");
	wired_port_set_link(r.port, true);
	deliver(&r, 1, 1, 1, NULL, 0);
	static const uint8_t peap_start[] = { 0x20 };
	deliver(&r, 1, 2, 25, peap_start, 1); /* PEAP, which the profile does not allow */
	size_t i = r.n - 1;
	ck_assert_uint_eq(r.frames[i][8], 3); /* Nak */
	ck_assert_uint_eq(r.frames[i][9], 4); /* ... proposing MD5 */
	deliver(&r, 4, 2, -1, NULL, 0);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_HELD);
	ck_assert_int_eq(wired_port_last_error(r.port, &detail), EAP_PEER_ERR_METHOD_REFUSED);
	ck_assert_ptr_nonnull(strstr(detail, "PEAP"));
	rig_free(&r);
}
END_TEST

START_TEST(missing_password_is_asked)
{
	struct rig r;
	rig_init(&r, NULL);
	wired_port_set_link(r.port, true);
	deliver(&r, 1, 7, 1, NULL, 0);
	uint8_t req[17] = { 16 };
	memcpy(req + 1, challenge, 16);
	size_t n = r.n;
	deliver(&r, 1, 8, 4, req, sizeof(req));
	ck_assert_uint_eq(r.secrets_asked, 1);
	ck_assert_uint_eq(r.n, n); /* held until the agent answers */
	advance_ms(&r, 10000);     /* the person may take time: no timeout */
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_AUTHENTICATING);
	ck_assert_int_eq(wired_port_set_secret(r.port, EAP_SECRET_PASSWORD, "md5 password"), 0);
	ck_assert_uint_eq(r.n, n + 1);
	deliver(&r, 3, 8, -1, NULL, 0);
	ck_assert(wired_port_authorized(r.port));
	rig_free(&r);
}
END_TEST

START_TEST(refused_secret_is_credentials)
{
	struct rig r;
	rig_init(&r, NULL);
	wired_port_set_link(r.port, true);
	deliver(&r, 1, 7, 1, NULL, 0);
	uint8_t req[17] = { 16 };
	deliver(&r, 1, 8, 4, req, sizeof(req));
	wired_port_set_secret(r.port, EAP_SECRET_PASSWORD, NULL);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_HELD);
	ck_assert_int_eq(wired_port_last_error_code(r.port), WPAD_ERR_EAP_CREDENTIALS);
	rig_free(&r);
}
END_TEST

START_TEST(disabled_port_ignores_frames)
{
	struct rig r;
	rig_init(&r, "md5 password");
	deliver(&r, 1, 1, 1, NULL, 0);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_DISABLED);
	/* Malformed EAPOL on a live port: dropped, no state change. */
	wired_port_set_link(r.port, true);
	static const uint8_t bad[] = { 2, 0, 0, 50, 1, 1, 0, 5, 1 };
	wired_port_rx(r.port, bad, sizeof(bad));
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_CONNECTING);
	rig_free(&r);
}
END_TEST

static bool is_logoff(const struct rig *r, size_t i)
{
	return r->lens[i] == 4 && r->frames[i][1] == 2;
}

/* Reconnect (D-Bus Reconnect): a new EAPOL-Start, no Logoff (hostapd
 * ends the port 10 ms after one, cutting the next attempt), the port
 * unauthorized, one change shown (authenticated -> connecting). */
START_TEST(reconnect_logs_off_then_starts)
{
	struct rig r;
	rig_init(&r, "md5 password");
	wired_port_set_link(r.port, true);
	md5_exchange(&r, "md5 password");
	deliver(&r, 3, 8, -1, NULL, 0);
	ck_assert(wired_port_authorized(r.port));
	r.n_seen = 0;
	size_t n = r.n;
	wired_port_reconnect(r.port);
	ck_assert_uint_eq(r.n, n + 1);
	ck_assert(is_start(&r, n));
	ck_assert(!wired_port_authorized(r.port));
	ck_assert_uint_eq(r.n_seen, 1);
	ck_assert_int_eq(r.seen[0], WIRED_S_CONNECTING);
	ck_assert_uint_eq(wired_port_stats(r.port)->logoffs_sent, 0);
	/* The authenticator answers: a second attempt, authorized again. */
	md5_exchange(&r, "md5 password");
	deliver(&r, 3, 8, -1, NULL, 0);
	ck_assert(wired_port_authorized(r.port));
	ck_assert_uint_eq(wired_port_stats(r.port)->attempts, 2);
	ck_assert_uint_eq(wired_port_stats(r.port)->successes, 2);
	/* Stopping with the link up says goodbye: one more Logoff. */
	n = r.n;
	wired_port_free(r.port);
	ck_assert_uint_eq(r.n, n + 1);
	ck_assert(is_logoff(&r, n));
	loop_free(r.loop);
}
END_TEST

/* Without a link, stopping sends nothing. */
START_TEST(free_without_link_is_silent)
{
	struct rig r;
	rig_init(&r, "md5 password");
	wired_port_set_link(r.port, true);
	wired_port_set_link(r.port, false);
	size_t n = r.n;
	wired_port_free(r.port);
	ck_assert_uint_eq(r.n, n);
	loop_free(r.loop);
}
END_TEST

/* A failure holds the port quiet for heldPeriod (no Start, Requests still
 * heard), then the PAE tries again on its own; a new profile ends HELD at
 * once with a Start. */
START_TEST(held_then_retry_and_new_profile)
{
	struct rig r;
	rig_init(&r, "wrong");
	wired_port_set_link(r.port, true);
	md5_exchange(&r, "wrong");
	deliver(&r, 4, 8, -1, NULL, 0);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_HELD);
	size_t n = r.n;
	advance_ms(&r, 2500);
	ck_assert_uint_eq(r.n, n);
	struct eap_conf c2 = r.conf;
	c2.password = (char *)"md5 password";
	wired_port_set_profile(r.port, &c2);
	ck_assert_int_eq(wired_port_state(r.port), WIRED_S_CONNECTING);
	ck_assert_uint_eq(r.n, n + 1);
	ck_assert(is_start(&r, n));
	ck_assert_ptr_eq(wired_port_profile(r.port), &c2);
	md5_exchange(&r, "md5 password");
	deliver(&r, 3, 8, -1, NULL, 0);
	ck_assert(wired_port_authorized(r.port));
	ck_assert_int_eq(wired_port_last_error(r.port, NULL), EAP_PEER_ERR_NONE);
	wired_port_set_profile(r.port, &r.conf); /* c2 leaves scope */
	rig_free(&r);
}
END_TEST

Suite *make_wired_port_suite(void)
{
	Suite *s = suite_create("wired_port");
	TCase *tc = tcase_create("port");
	tcase_add_test(tc, starts_then_held_then_again);
	tcase_add_test(tc, md5_success_authorizes);
	tcase_add_test(tc, md5_failure_is_held);
	tcase_add_test(tc, auth_timeout_is_no_response);
	tcase_add_test(tc, refused_method_is_named);
	tcase_add_test(tc, missing_password_is_asked);
	tcase_add_test(tc, refused_secret_is_credentials);
	tcase_add_test(tc, disabled_port_ignores_frames);
	tcase_add_test(tc, reconnect_logs_off_then_starts);
	tcase_add_test(tc, free_without_link_is_silent);
	tcase_add_test(tc, held_then_retry_and_new_profile);
	suite_add_tcase(s, tc);
	return s;
}
