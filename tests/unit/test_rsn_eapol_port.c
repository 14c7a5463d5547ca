/* The EAPOL port (daemon/rsn/eapol_port.h): each packet type reaches its
 * consumer or is counted and dropped, bad lengths are rejected, EAP with
 * no consumer is reported, Start/Logoff only to an authenticator, and the
 * controlled-port state changes only on a change. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "daemon/rsn/eapol_port.h"

struct rec {
	unsigned tx, keys, eaps, unhandled, starts, logoffs, auth_calls;
	bool authorized;
	size_t key_len;
	struct eap_hdr_info eap;
};

static int r_tx(void *ctx, const uint8_t *f, size_t len)
{
	((struct rec *)ctx)->tx++;
	return 0;
}
static void r_auth(void *ctx, bool a)
{
	struct rec *r = ctx;
	r->auth_calls++;
	r->authorized = a;
}
static int r_key(void *ctx, const uint8_t *f, size_t len)
{
	struct rec *r = ctx;
	r->keys++;
	r->key_len = len;
	return 0;
}
static int r_eap(void *ctx, const struct eap_hdr_info *e)
{
	struct rec *r = ctx;
	r->eaps++;
	r->eap = *e;
	return 0;
}
static void r_unhandled(void *ctx, const struct eap_hdr_info *e)
{
	struct rec *r = ctx;
	r->unhandled++;
	r->eap = *e;
}
static void r_start(void *ctx)
{
	((struct rec *)ctx)->starts++;
}
static void r_logoff(void *ctx)
{
	((struct rec *)ctx)->logoffs++;
}

static const struct eapol_port_ops no_eap_ops = {
	.tx = r_tx, .set_authorized = r_auth, .rx_key = r_key,
	.eap_unhandled = r_unhandled, .start = r_start, .logoff = r_logoff,
};

/* EAPOL v2 header + body. */
static size_t frame(uint8_t *out, uint8_t type, const uint8_t *body, uint16_t body_len,
		    size_t padding)
{
	out[0] = 2;
	out[1] = type;
	out[2] = (uint8_t)(body_len >> 8);
	out[3] = (uint8_t)body_len;
	if (body_len)
		memcpy(out + 4, body, body_len);
	memset(out + 4 + body_len, 0, padding);
	return 4 + body_len + padding;
}

/* EAP-Request/Identity, id 7: code 1, id, length 5, type 1. */
static const uint8_t eap_req_identity[] = { 1, 7, 0, 5, 1 };

START_TEST(each_type_to_its_consumer)
{
	struct rec r = { 0 };
	struct eapol_port_ops ops = no_eap_ops;
	ops.rx_eap = r_eap;
	struct eapol_port *p = eapol_port_new(EAPOL_PORT_AUTHENTICATOR, "test", &ops, &r);
	uint8_t f[256];
	uint8_t key_body[95] = { 2 };

	/* Key, with Ethernet padding: handed over without it. */
	size_t n = frame(f, 3, key_body, sizeof(key_body), 10);
	ck_assert_int_eq(eapol_port_rx(p, f, n), 0);
	ck_assert_uint_eq(r.keys, 1);
	ck_assert_uint_eq(r.key_len, 4 + sizeof(key_body));

	n = frame(f, 0, eap_req_identity, sizeof(eap_req_identity), 0);
	ck_assert_int_eq(eapol_port_rx(p, f, n), 0);
	ck_assert_uint_eq(r.eaps, 1);
	ck_assert_uint_eq(r.eap.code, EAP_CODE_REQUEST);
	ck_assert_uint_eq(r.eap.id, 7);
	ck_assert_uint_eq(r.eap.type, EAP_TYPE_IDENTITY);

	n = frame(f, 1, NULL, 0, 0);
	ck_assert_int_eq(eapol_port_rx(p, f, n), 0);
	ck_assert_uint_eq(r.starts, 1);
	n = frame(f, 2, NULL, 0, 0);
	ck_assert_int_eq(eapol_port_rx(p, f, n), 0);
	ck_assert_uint_eq(r.logoffs, 1);

	/* MKA (5), announcements (6-8), ASF alert (4): counted, dropped;
	 * a type beyond the known ones likewise. */
	for (uint8_t t = 4; t <= 9; t++) {
		n = frame(f, t, key_body, 8, 0);
		ck_assert_int_eq(eapol_port_rx(p, f, n), -ENOTSUP);
	}
	const struct eapol_port_stats *s = eapol_port_stats(p);
	ck_assert_uint_eq(s->rx_key, 1);
	ck_assert_uint_eq(s->rx_eap, 1);
	ck_assert_uint_eq(s->rx_start, 1);
	ck_assert_uint_eq(s->rx_logoff, 1);
	ck_assert_uint_eq(s->rx_other, 6);
	ck_assert_uint_eq(s->rx_malformed, 0);
	ck_assert_uint_eq(r.keys + r.eaps + r.starts + r.logoffs, 4);
	eapol_port_free(p);
}
END_TEST

START_TEST(eap_without_consumer_is_reported)
{
	struct rec r = { 0 };
	struct eapol_port *p = eapol_port_new(EAPOL_PORT_SUPPLICANT, "sta", &no_eap_ops, &r);
	uint8_t f[64];
	size_t n = frame(f, 0, eap_req_identity, sizeof(eap_req_identity), 0);

	ck_assert_int_eq(eapol_port_rx(p, f, n), -ENOENT);
	ck_assert_uint_eq(r.unhandled, 1);
	ck_assert_uint_eq(r.eap.type, EAP_TYPE_IDENTITY);
	ck_assert_uint_eq(eapol_port_stats(p)->rx_eap_unhandled, 1);
	/* Success/Failure have no type. */
	static const uint8_t failure[] = { 4, 7, 0, 4 };
	n = frame(f, 0, failure, sizeof(failure), 0);
	ck_assert_int_eq(eapol_port_rx(p, f, n), -ENOENT);
	ck_assert_uint_eq(r.eap.code, EAP_CODE_FAILURE);
	ck_assert_uint_eq(r.eap.type, 0);
	ck_assert_uint_eq(r.unhandled, 2);
	eapol_port_free(p);
}
END_TEST

START_TEST(start_and_logoff_only_to_an_authenticator)
{
	struct rec r = { 0 };
	struct eapol_port *p = eapol_port_new(EAPOL_PORT_SUPPLICANT, "sta", &no_eap_ops, &r);
	uint8_t f[8];
	ck_assert_int_eq(eapol_port_rx(p, f, frame(f, 1, NULL, 0, 0)), -ENOTSUP);
	ck_assert_int_eq(eapol_port_rx(p, f, frame(f, 2, NULL, 0, 0)), -ENOTSUP);
	ck_assert_uint_eq(r.starts + r.logoffs, 0);
	ck_assert_uint_eq(eapol_port_stats(p)->rx_wrong_role, 2);
	eapol_port_free(p);
}
END_TEST

START_TEST(bad_lengths_rejected)
{
	struct rec r = { 0 };
	struct eapol_port_ops ops = no_eap_ops;
	ops.rx_eap = r_eap;
	struct eapol_port *p = eapol_port_new(EAPOL_PORT_AUTHENTICATOR, "t", &ops, &r);
	uint8_t f[64];
	size_t n;

	ck_assert_int_eq(eapol_port_rx(p, NULL, 0), -EBADMSG);
	n = frame(f, 3, NULL, 0, 0);
	ck_assert_int_eq(eapol_port_rx(p, f, 3), -EBADMSG); /* short header */
	n = frame(f, 3, eap_req_identity, 5, 0);
	ck_assert_int_eq(eapol_port_rx(p, f, n - 1), -EBADMSG); /* body beyond frame */
	n = frame(f, 0, eap_req_identity, 5, 0);
	f[0] = 0; /* version 0 */
	ck_assert_int_eq(eapol_port_rx(p, f, n), -EBADMSG);
	/* EAP length beyond the EAPOL body, below 4, a Request with no
	 * type, Success with a type, an unknown code, a 3-octet packet. */
	static const uint8_t bad[][5] = {
		{ 1, 1, 0, 6, 1 }, { 1, 1, 0, 3, 1 }, { 1, 1, 0, 4, 0 },
		{ 3, 1, 0, 5, 1 }, { 9, 1, 0, 5, 1 },
	};
	for (size_t i = 0; i < 5; i++) {
		n = frame(f, 0, bad[i], 5, 0);
		ck_assert_int_eq(eapol_port_rx(p, f, n), -EBADMSG);
	}
	n = frame(f, 0, eap_req_identity, 3, 0);
	ck_assert_int_eq(eapol_port_rx(p, f, n), -EBADMSG);
	ck_assert_uint_eq(eapol_port_stats(p)->rx_malformed, 10);
	ck_assert_uint_eq(r.keys + r.eaps, 0);
	/* A shorter EAP length than the body is fine (padding). */
	static const uint8_t padded[] = { 3, 1, 0, 4, 0, 0 };
	n = frame(f, 0, padded, sizeof(padded), 0);
	ck_assert_int_eq(eapol_port_rx(p, f, n), 0);
	ck_assert_uint_eq(r.eap.length, 4);
	eapol_port_free(p);
}
END_TEST

START_TEST(consumer_absent_drops)
{
	struct rec r = { 0 };
	struct eapol_port_ops ops = { .tx = r_tx, .set_authorized = r_auth };
	struct eapol_port *p = eapol_port_new(EAPOL_PORT_AUTHENTICATOR, "t", &ops, &r);
	uint8_t f[64], body[8] = { 0 };
	ck_assert_int_eq(eapol_port_rx(p, f, frame(f, 3, body, 8, 0)), -ENOTSUP);
	ck_assert_int_eq(eapol_port_rx(p, f, frame(f, 1, NULL, 0, 0)), -ENOTSUP);
	ck_assert_int_eq(eapol_port_rx(p, f, frame(f, 0, eap_req_identity, 5, 0)), -ENOENT);
	ck_assert_uint_eq(eapol_port_stats(p)->rx_eap_unhandled, 1);
	eapol_port_free(p);
	/* tx and set_authorized are required. */
	struct eapol_port_ops none = { .tx = r_tx };
	ck_assert_ptr_null(eapol_port_new(EAPOL_PORT_SUPPLICANT, "t", &none, &r));
	ck_assert_ptr_null(eapol_port_new(EAPOL_PORT_SUPPLICANT, "t", NULL, &r));
}
END_TEST

START_TEST(port_state_and_tx)
{
	struct rec r = { 0 };
	struct eapol_port *p = eapol_port_new(EAPOL_PORT_SUPPLICANT, NULL, &no_eap_ops, &r);
	ck_assert(!eapol_port_authorized(p));
	eapol_port_set_authorized(p, false); /* no change: no call */
	ck_assert_uint_eq(r.auth_calls, 0);
	eapol_port_set_authorized(p, true);
	eapol_port_set_authorized(p, true);
	ck_assert_uint_eq(r.auth_calls, 1);
	ck_assert(r.authorized);
	ck_assert(eapol_port_authorized(p));
	eapol_port_reset(p); /* the link went: no driver call */
	ck_assert(!eapol_port_authorized(p));
	ck_assert_uint_eq(r.auth_calls, 1);
	eapol_port_set_authorized(p, true);
	eapol_port_set_authorized(p, false);
	ck_assert_uint_eq(r.auth_calls, 3);
	ck_assert(!r.authorized);
	ck_assert_uint_eq(eapol_port_stats(p)->authorize_changes, 3);
	uint8_t f[4] = { 2, 1, 0, 0 };
	ck_assert_int_eq(eapol_port_tx(p, f, 4), 0);
	ck_assert_uint_eq(r.tx, 1);
	ck_assert_uint_eq(eapol_port_stats(p)->tx, 1);
	eapol_port_reset(NULL);
	eapol_port_free(p);
	eapol_port_free(NULL);
}
END_TEST

Suite *make_rsn_eapol_port_suite(void)
{
	Suite *s = suite_create("rsn_eapol_port");
	TCase *tc = tcase_create("port");

	tcase_add_test(tc, each_type_to_its_consumer);
	tcase_add_test(tc, eap_without_consumer_is_reported);
	tcase_add_test(tc, start_and_logoff_only_to_an_authenticator);
	tcase_add_test(tc, bad_lengths_rejected);
	tcase_add_test(tc, consumer_absent_drops);
	tcase_add_test(tc, port_state_and_tx);
	suite_add_tcase(s, tc);
	return s;
}
