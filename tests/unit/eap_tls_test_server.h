/* A scripted EAP server for the TLS-based methods, in process: it sends
 * Identity, the method's Start, runs an OpenSSL server over the EAP-TLS
 * framing (its own small framer, not eap/eap_tls_frag.c), and hands the
 * tunnel's application data to a phase-2 script (PEAP, TTLS) before
 * ending with Success or Failure. It drives an eap_peer through its ops.
 */
#ifndef WPAD_TESTS_EAP_TLS_TEST_SERVER_H
#define WPAD_TESTS_EAP_TLS_TEST_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <check.h>
#include <openssl/ssl.h>

#include "eap/eap_peer.h"
#include "tls_test_pki.h"

struct ets;

/* Phase 2: data decrypted from the peer (NULL, 0 when the tunnel just came
 * up); write replies with ets_tunnel_write(). Return 1 to end with
 * Success, -1 with Failure, 0 to go on. */
typedef int (*ets_phase2_fn)(struct ets *e, const uint8_t *data, size_t len);

struct ets {
	struct eap_peer *peer;
	uint8_t type; /* 13, 21, 25 */
	SSL_CTX *sctx;
	struct tls_test_server srv;
	bool srv_up, commit_sent, tunnel_started, finished;
	uint8_t id;
	size_t frag_size; /* server fragments (default 1000) */
	/* the peer's last Response */
	uint8_t resp[70000];
	size_t resp_len;
	unsigned tx_count, done_calls, frags_from_peer, acks_from_peer, rounds;
	enum eap_peer_result done_res;
	/* reassembly of the peer's fragments */
	uint8_t in[70000];
	size_t in_len;
	/* our pending output */
	uint8_t out[70000];
	size_t out_len, out_pos;
	/* phase 2 */
	ets_phase2_fn phase2;
	void *phase2_state;
	int end; /* 1 success, -1 failure, 0 running */
	bool send_failure_after_alert;
	bool success_before_commit; /* EAP-TLS 1.3: Success instead of the 0x00 */
	/* When phase 2 says success: a new Start on the same run instead,
	 * then Success as soon as the peer answers it (its new handshake
	 * unfinished). restarted says the new Start went. */
	bool restart_before_success, restarted;
	/* secrets for need_secret (NULL: refuse) */
	const char *answer_passphrase, *answer_password;
	unsigned secrets_asked;
};

/* Set up and run a whole exchange: returns the peer's result. */
void ets_init(struct ets *e, uint8_t type, SSL_CTX *sctx);
enum eap_peer_result ets_run(struct ets *e, const struct eap_peer_profile *profile);
void ets_deinit(struct ets *e);

/* For phase-2 scripts: queue application data for the peer. */
void ets_tunnel_write(struct ets *e, const void *data, size_t len);
/* The server's view of the keys: TLS exporter on its side. */
void ets_export(struct ets *e, const char *label, const uint8_t *ctx, size_t ctx_len,
		uint8_t *out, size_t len);
bool ets_tls13(const struct ets *e);

/* What the TLS-method suites' run cases share. The certificates, made
 * once per TCase; ets_add_run_fixtures() makes them, empties the TLS
 * session cache around each test (no resumption carried from one test
 * to the next) and gives each test 30 s. */
extern struct tls_test_pki ets_pki;
void ets_add_run_fixtures(TCase *tc);
/* A server SSL_CTX with ets_pki's server certificate, TLS up to max (0:
 * the highest), asking for a client certificate when want_client_cert. */
SSL_CTX *ets_sctx_new(int max, bool want_client_cert);
/* ets_init() with a phase-2 script (PEAP, TTLS), then ets_run(). */
enum eap_peer_result ets_run_script(struct ets *e, uint8_t type, SSL_CTX *sctx,
				    ets_phase2_fn phase2, void *state,
				    const struct eap_peer_profile *profile);

#endif
