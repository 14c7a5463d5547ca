/* The scripted EAP server of the TLS-based method tests
 * (eap_tls_test_server.h). */
#include <check.h>
#include <string.h>

#include <openssl/err.h>

#include "eap/tls_conn.h"
#include "eap_tls_test_server.h"

static int e_tx(void *ctx, const uint8_t *pkt, size_t len)
{
	struct ets *e = ctx;

	ck_assert_uint_le(len, sizeof(e->resp));
	memcpy(e->resp, pkt, len);
	e->resp_len = len;
	e->tx_count++;
	return 0;
}

static void e_done(void *ctx, enum eap_peer_result r)
{
	struct ets *e = ctx;

	e->done_calls++;
	e->done_res = r;
}

static void e_need(void *ctx, enum eap_peer_secret which)
{
	struct ets *e = ctx;
	const char *v = which == EAP_SECRET_KEY_PASSPHRASE ? e->answer_passphrase
							   : e->answer_password;

	e->secrets_asked++;
	ck_assert_int_eq(eap_peer_set_secret(e->peer, which, v), 0);
}

static const struct eap_peer_ops ets_ops = { .tx = e_tx, .done = e_done, .need_secret = e_need };

void ets_init(struct ets *e, uint8_t type, SSL_CTX *sctx)
{
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->sctx = sctx;
	e->frag_size = 1000;
}

void ets_deinit(struct ets *e)
{
	eap_peer_free(e->peer);
	e->peer = NULL;
	if (e->srv_up)
		tls_test_server_deinit(&e->srv);
	e->srv_up = false;
}

static void send_request(struct ets *e, const uint8_t *data, size_t len)
{
	static uint8_t pkt[2048];
	size_t plen = 5 + len;

	ck_assert_uint_le(plen, sizeof(pkt));
	pkt[0] = 1;
	pkt[1] = ++e->id;
	pkt[2] = (uint8_t)(plen >> 8);
	pkt[3] = (uint8_t)plen;
	pkt[4] = e->type;
	memcpy(pkt + 5, data, len);
	eap_peer_rx(e->peer, pkt, plen);
}

static void send_final(struct ets *e, uint8_t code)
{
	uint8_t pkt[4] = { code, e->id, 0, 4 };

	e->finished = true;
	eap_peer_rx(e->peer, pkt, sizeof(pkt));
}

/* The next fragment of our output (RFC 5216 3.1 framing). */
static void send_fragment(struct ets *e)
{
	uint8_t buf[1100];
	size_t left = e->out_len - e->out_pos, n = left, hdr = 1;

	buf[0] = 0;
	if (n > e->frag_size) {
		n = e->frag_size;
		buf[0] |= 0x40;
	}
	if (e->out_pos == 0 && (buf[0] & 0x40)) {
		buf[0] |= 0x80;
		buf[1] = (uint8_t)(e->out_len >> 24);
		buf[2] = (uint8_t)(e->out_len >> 16);
		buf[3] = (uint8_t)(e->out_len >> 8);
		buf[4] = (uint8_t)e->out_len;
		hdr = 5;
	}
	memcpy(buf + hdr, e->out + e->out_pos, n);
	e->out_pos += n;
	send_request(e, buf, hdr + n);
}

void ets_tunnel_write(struct ets *e, const void *data, size_t len)
{
	ck_assert_int_eq(SSL_write(e->srv.ssl, data, (int)len), (int)len);
}

void ets_export(struct ets *e, const char *label, const uint8_t *ctx, size_t ctx_len,
		uint8_t *out, size_t len)
{
	ck_assert_int_eq(SSL_export_keying_material(e->srv.ssl, out, len, label, strlen(label), ctx,
						    ctx_len, ctx != NULL),
			 1);
}

bool ets_tls13(const struct ets *e)
{
	return SSL_version(e->srv.ssl) == TLS1_3_VERSION;
}

static void run_phase2(struct ets *e, const uint8_t *data, size_t len)
{
	int r;

	if (!e->phase2 || e->end)
		return;
	r = e->phase2(e, data, len);
	if (r)
		e->end = r;
}

/* Feed the peer's whole message to TLS; run the tunnel. */
static void tls_step(struct ets *e)
{
	static uint8_t app[70000];
	int r;

	tls_test_server_feed(&e->srv, e->in, e->in_len);
	e->in_len = 0;
	r = tls_test_server_handshake(&e->srv);
	if (r < 0) {
		e->end = -1;
		return;
	}
	if (r == 0)
		return;
	if (e->type == 13) {
		/* RFC 9190 2.5: the commitment after the handshake. */
		if (SSL_version(e->srv.ssl) == TLS1_3_VERSION && !e->commit_sent &&
		    !e->success_before_commit) {
			ets_tunnel_write(e, "\0", 1);
			e->commit_sent = true;
		}
		return;
	}
	if (!e->tunnel_started) {
		e->tunnel_started = true;
		run_phase2(e, NULL, 0);
	}
	while ((r = SSL_read(e->srv.ssl, app, sizeof(app))) > 0)
		run_phase2(e, app, (size_t)r);
	ERR_clear_error();
}

/* The method's Start again, on a fresh server connection. */
static void restart(struct ets *e)
{
	const uint8_t start = 0x20;

	tls_test_server_deinit(&e->srv);
	ck_assert_int_eq(tls_test_server_init(&e->srv, e->sctx), 0);
	e->restarted = true;
	e->tunnel_started = false;
	e->end = 0;
	e->in_len = 0;
	e->out_len = e->out_pos = 0;
	send_request(e, &start, 1);
}

/* One Response from the peer: answer it. */
static void handle_response(struct ets *e)
{
	const uint8_t *d;
	size_t len, out;

	ck_assert_uint_ge(e->resp_len, 6);
	ck_assert_uint_eq(e->resp[0], 2);
	if (e->resp[4] != e->type) {
		send_final(e, 4); /* a Nak: nothing else to offer */
		return;
	}
	if (e->restarted) {
		send_final(e, 3); /* the answer to the new Start: too early */
		return;
	}
	d = e->resp + 6;
	len = e->resp_len - 6;
	if (e->out_pos < e->out_len) {
		ck_assert_uint_eq(len, 0); /* an ACK of our fragment */
		e->acks_from_peer++;
		send_fragment(e);
		return;
	}
	if (e->resp[5] & 0x80) {
		ck_assert_uint_ge(len, 4);
		d += 4;
		len -= 4;
	}
	ck_assert_uint_le(e->in_len + len, sizeof(e->in));
	memcpy(e->in + e->in_len, d, len);
	e->in_len += len;
	if (e->resp[5] & 0x40) {
		uint8_t ack = 0;
		e->frags_from_peer++;
		send_request(e, &ack, 1);
		return;
	}
	if (e->end < 0) {
		send_final(e, 4); /* the peer answered our alert */
		return;
	}
	if (e->in_len || !e->tunnel_started)
		tls_step(e);
	else
		run_phase2(e, NULL, 0); /* an empty Response in the tunnel */
	out = tls_test_server_take(&e->srv, e->out, sizeof(e->out));
	if (out) {
		e->out_len = out;
		e->out_pos = 0;
		send_fragment(e);
		return;
	}
	if (e->end > 0 && e->restart_before_success) {
		restart(e);
		return;
	}
	if (e->end) {
		send_final(e, e->end > 0 ? 3 : 4);
		return;
	}
	if (e->type == 13 && SSL_is_init_finished(e->srv.ssl)) {
		send_final(e, 3);
		return;
	}
	send_final(e, 4); /* nothing to say: a script gap */
}

enum eap_peer_result ets_run(struct ets *e, const struct eap_peer_profile *profile)
{
	uint8_t ident[5] = { 1, 1, 0, 5, 1 };
	uint8_t start = 0x20;

	e->peer = eap_peer_new(profile, &ets_ops, e);
	ck_assert_ptr_nonnull(e->peer);
	ck_assert_int_eq(tls_test_server_init(&e->srv, e->sctx), 0);
	e->srv_up = true;
	e->id = 1;
	eap_peer_rx(e->peer, ident, sizeof(ident));
	ck_assert_uint_eq(e->tx_count, 1);
	send_request(e, &start, 1);
	while (!e->done_calls && !e->finished && e->rounds++ < 300) {
		unsigned before = e->tx_count;

		handle_response(e);
		if (e->tx_count == before && !e->done_calls && !e->finished)
			ck_abort_msg("the peer went silent (state %s)",
				     eap_peer_state_to_string(eap_peer_state(e->peer)));
	}
	return eap_peer_result(e->peer);
}

/* ---- the suites' shared fixtures ---- */

struct tls_test_pki ets_pki;

static void pki_setup(void)
{
	ck_assert_int_eq(tls_test_pki_make(&ets_pki), 0);
}

static void pki_teardown(void)
{
	tls_test_pki_remove(&ets_pki);
}

static void cache_flush(void)
{
	tls_conn_cache_flush();
}

void ets_add_run_fixtures(TCase *tc)
{
	tcase_add_unchecked_fixture(tc, pki_setup, pki_teardown);
	tcase_add_checked_fixture(tc, cache_flush, cache_flush);
	tcase_set_timeout(tc, 30);
}

SSL_CTX *ets_sctx_new(int max, bool want_client_cert)
{
	struct tls_test_server_cfg cfg = {
		.cert = ets_pki.server_cert,
		.key = ets_pki.server_key,
		.max_version = max,
		.client_ca = want_client_cert ? ets_pki.ca : NULL,
	};
	SSL_CTX *c = tls_test_server_ctx(&cfg);

	ck_assert_ptr_nonnull(c);
	return c;
}

enum eap_peer_result ets_run_script(struct ets *e, uint8_t type, SSL_CTX *sctx,
				    ets_phase2_fn phase2, void *state,
				    const struct eap_peer_profile *profile)
{
	ets_init(e, type, sctx);
	e->phase2 = phase2;
	e->phase2_state = state;
	return ets_run(e, profile);
}
