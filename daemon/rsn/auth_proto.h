/* Authentication protocols (IEEE 802.11-2020 12.3, 12.4, 13) as one ops
 * table, with a station half and an AP half, so the station's SME and the
 * AP's authentication handling have no per-algorithm branches: Open System
 * is the first implementation; SAE (several Authentication frames each
 * way, a PMK and PMKID at the end), FT and OWE (elements in the
 * (Re)Association frames) are the next.
 *
 * The caller owns the frame I/O: a step takes the received Authentication
 * frame's fields (struct auth_msg) and fills the one to send (struct
 * auth_out); it returns what to do next (enum auth_step). Nothing here
 * knows the driver: the station turns auth_out into its driver's
 * authenticate request, the AP into a management frame.
 *
 *   step              station                    AP
 *   AUTH_STEP_SEND    send out, wait for a frame send out, wait for a frame
 *   AUTH_STEP_DONE    authenticated: associate   send out; authenticated
 *   AUTH_STEP_FAILED  give up; sess->status why  send out (its status); forget
 *   AUTH_STEP_IGNORE  not for us now: wait on    drop the frame silently
 *
 * A protocol that produces a PMK (SAE, FILS) sets it in the session with
 * auth_sess_set_pmk(); Open System produces none.
 *
 * Timers stay with the caller, on its loop clock: after a SEND it waits
 * sess->retrans_ms (0: its own default) and then calls the protocol's
 * timeout op, which answers with a retransmission (SEND) or gives up
 * (FAILED). The wait starts when the frame was acknowledged where the
 * driver says so (the station: DRIVER_EXT_AUTH_TX_STATUS), else when it
 * was handed to the driver. A protocol without the op leaves retries to
 * the caller (Open System: the station starts over).
 *
 * sess->ctx is the caller's configuration for the protocol (SAE: struct
 * auth_sae_conf, daemon/rsn/auth_sae.h), set right after auth_sess_new()
 * and kept alive by the caller for the session's life; not owned.
 *
 * Ownership: auth_sess_new() returns a session the caller frees with
 * auth_sess_free(), which wipes the PMK and calls ops->free for the
 * protocol's own state.
 */
#ifndef WPAD_RSN_AUTH_PROTO_H
#define WPAD_RSN_AUTH_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/rsn/rsn_types.h"

/* Room for an SAE commit with the largest group and an anti-clogging
 * token, or FT elements. */
#define AUTH_BODY_MAX 1024

enum auth_role {
	AUTH_ROLE_STA,
	AUTH_ROLE_AP,
};

enum auth_step {
	AUTH_STEP_SEND,
	AUTH_STEP_DONE,
	AUTH_STEP_FAILED,
	AUTH_STEP_IGNORE,
};

/* A received Authentication frame after its header. body: for SAE the
 * commit/confirm fields, otherwise the elements. */
struct auth_msg {
	uint16_t alg;
	uint16_t seq;
	uint16_t status;
	const uint8_t *body;
	size_t body_len;
};

/* The Authentication frame to send; alg is the session's algorithm. */
struct auth_out {
	uint16_t seq;
	uint16_t status;
	uint8_t body[AUTH_BODY_MAX];
	size_t body_len;
};

struct auth_proto;

struct auth_sess {
	const struct auth_proto *proto;
	enum auth_role role;
	uint8_t own_addr[RSN_ADDR_LEN];
	uint8_t peer_addr[RSN_ADDR_LEN];
	uint16_t status; /* WLAN_STATUS_*: why it failed (station: as received) */
	bool done;	 /* AUTH_STEP_DONE was returned */
	/* The exchange failed because the credential is wrong (SAE: the
	 * AP refused our confirm, or fell silent after it). */
	bool bad_credential;
	unsigned retrans_ms; /* the wait after SEND before ops->timeout */
	void *ctx;	     /* the caller's configuration, not owned */
	unsigned frames_rx;
	unsigned frames_tx;
	/* The PMK the exchange produced, if any, and its PMKID. */
	uint8_t pmk[RSN_PMK_MAX_LEN];
	size_t pmk_len;
	uint8_t pmkid[RSN_PMKID_LEN];
	bool have_pmkid;
	void *priv; /* the protocol's own state, freed by ops->free */
};

/* Unused ops may be NULL: a protocol without an AP half cannot be used by
 * an AP (the lookup refuses it, status 13); the element ops are for those
 * that put elements in (Re)Association frames (OWE, FT). Step ops return
 * an enum auth_step; element builders return 0 or a negative errno. */
struct auth_proto {
	uint16_t algorithm; /* WLAN_AUTH_* */
	/* 0, or the one AKM this protocol serves: OWE shares algorithm 0
	 * with Open System and is told apart by the AKM (see
	 * auth_proto_find_akm). */
	uint32_t akm;
	const char *name;

	/* Station: the first frame to send. */
	enum auth_step (*sta_start)(struct auth_sess *s, struct auth_out *out);
	/* Station: a frame from the AP; out is the next one (SEND). */
	enum auth_step (*sta_rx_auth)(struct auth_sess *s, const struct auth_msg *in,
				      struct auth_out *out);
	/* Station: extra elements for the (Re)Association Request. */
	int (*sta_assoc_elems)(struct auth_sess *s, uint8_t *buf, size_t max, size_t *len);
	/* Station: the (Re)Association Response's status and elements;
	 * returns DONE to go on or FAILED (sess->status set). */
	enum auth_step (*sta_rx_assoc)(struct auth_sess *s, uint16_t status, const uint8_t *elems,
				       size_t len);

	/* AP: a frame from the station; out is the answer (SEND, DONE and
	 * FAILED all send it). */
	enum auth_step (*ap_rx_auth)(struct auth_sess *s, const struct auth_msg *in,
				     struct auth_out *out);
	/* AP: the (Re)Association Request's elements; returns the status
	 * code to answer with (WLAN_STATUS_SUCCESS to go on). */
	uint16_t (*ap_rx_assoc)(struct auth_sess *s, const uint8_t *elems, size_t len);
	/* AP: extra elements for the (Re)Association Response. */
	int (*ap_assoc_elems)(struct auth_sess *s, uint8_t *buf, size_t max, size_t *len);

	/* Either role: the wait after a SEND expired; out is the
	 * retransmission (SEND) or FAILED. NULL: the caller's own retries. */
	enum auth_step (*timeout)(struct auth_sess *s, struct auth_out *out);

	void (*free)(struct auth_sess *s);
};

/* The protocol implementing algorithm for role, or NULL (an AP answers
 * WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG, 13). */
const struct auth_proto *auth_proto_find(uint16_t algorithm, enum auth_role role);
/* As auth_proto_find, for an association with akm (0: not known): a
 * protocol bound to that AKM first (OWE for algorithm 0 with AKM OWE),
 * else the algorithm's protocol for any AKM. auth_proto_find(alg, role)
 * is auth_proto_find_akm(alg, 0, role). */
const struct auth_proto *auth_proto_find_akm(uint16_t algorithm, uint32_t akm,
					     enum auth_role role);

/* A session of proto for one peer. Returns NULL on allocation failure. */
struct auth_sess *auth_sess_new(const struct auth_proto *proto, enum auth_role role,
				const uint8_t own[RSN_ADDR_LEN], const uint8_t peer[RSN_ADDR_LEN]);
void auth_sess_free(struct auth_sess *s);

/* The steps, through the table; a missing op is handled as the table
 * says (station start/rx: FAILED, status 13; assoc hooks: success). They
 * count frames and keep sess->done/status consistent. */
enum auth_step auth_sta_start(struct auth_sess *s, struct auth_out *out);
enum auth_step auth_sta_rx_auth(struct auth_sess *s, const struct auth_msg *in,
				struct auth_out *out);
int auth_sta_assoc_elems(struct auth_sess *s, uint8_t *buf, size_t max, size_t *len);
enum auth_step auth_sta_rx_assoc(struct auth_sess *s, uint16_t status, const uint8_t *elems,
				 size_t len);
enum auth_step auth_ap_rx_auth(struct auth_sess *s, const struct auth_msg *in,
			       struct auth_out *out);
uint16_t auth_ap_rx_assoc(struct auth_sess *s, const uint8_t *elems, size_t len);
int auth_ap_assoc_elems(struct auth_sess *s, uint8_t *buf, size_t max, size_t *len);
/* The protocol's timeout op; false (out untouched) when it has none. */
bool auth_has_timeout(const struct auth_sess *s);
enum auth_step auth_timeout(struct auth_sess *s, struct auth_out *out);

/* For protocols: record the PMK (16..64 octets) and PMKID (NULL: none)
 * they produced. Returns 0 or -EINVAL. */
int auth_sess_set_pmk(struct auth_sess *s, const uint8_t *pmk, size_t len,
		      const uint8_t *pmkid);
/* The PMK the exchange produced: NULL for none (Open System). */
const uint8_t *auth_sess_pmk(const struct auth_sess *s, size_t *len);

const char *auth_step_name(enum auth_step step);

/* Open System (12.3.3.2): one frame each way, no keys. */
extern const struct auth_proto auth_open;
/* SAE (12.4), both roles: daemon/rsn/auth_sae.c. */
extern const struct auth_proto auth_sae;

#endif
