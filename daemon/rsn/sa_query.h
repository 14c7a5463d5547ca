/* SA Query (IEEE 802.11-2020 11.13): one procedure per peer, the same for
 * both roles.
 *
 *   - Answering: every SA Query Request from the peer is answered with a
 *     Response carrying its Transaction Identifier (sa_query_rx), whatever
 *     the state.
 *   - Querying: sa_query_start() sends a Request with a fresh random
 *     Transaction Identifier, then another every retry timeout
 *     (dot11AssociationSAQueryRetryTimeout, 201 ms by default) until a
 *     Response naming any of the identifiers sent arrives (the peer is
 *     alive: done(ctx, true)) or the maximum timeout runs out
 *     (dot11AssociationSAQueryMaximumTimeout, 1000 ms: done(ctx, false)).
 *     A Response with an identifier never sent is ignored (counted).
 *
 * The station queries its AP on an unprotected deauthentication or
 * disassociation; the AP queries a station that associates again while it
 * still holds its keys. Frames go out through ops->send (the role wraps the
 * Action body in a management frame; the driver protects it). Timers run on
 * the loop given. The caller owns the object: sa_query_free() from inside
 * done() is allowed.
 */
#ifndef WPAD_RSN_SA_QUERY_H
#define WPAD_RSN_SA_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/codec/pmf.h"

struct loop;
struct sa_query;

#define SA_QUERY_RETRY_MS_DEFAULT 201
#define SA_QUERY_MAX_MS_DEFAULT 1000
/* Identifiers remembered per procedure: enough for max / retry sends. */
#define SA_QUERY_MAX_IDS 32

enum sa_query_state {
	SA_QUERY_IDLE,     /* nothing outstanding */
	SA_QUERY_QUERYING, /* requests sent, waiting for a response */
};

struct sa_query_ops {
	/* Sends one SA Query Action body (category, action, id; 4 octets).
	 * Returns 0 or -errno (a failed send is retried on the next tick). */
	int (*send)(void *ctx, const uint8_t *action, size_t len);
	/* The procedure ended: peer_alive is true when a matching response
	 * came back in time. */
	void (*done)(void *ctx, bool peer_alive);
};

struct sa_query_config {
	uint32_t retry_ms; /* 0: SA_QUERY_RETRY_MS_DEFAULT */
	uint32_t max_ms;   /* 0: SA_QUERY_MAX_MS_DEFAULT */
};

struct sa_query_stats {
	uint32_t requests_sent;
	uint32_t responses_sent;
	uint32_t unmatched; /* responses whose identifier we never sent */
	uint32_t malformed;
};

/* cfg may be NULL (defaults). Returns NULL on allocation failure. */
struct sa_query *sa_query_new(struct loop *loop, const struct sa_query_ops *ops, void *ctx,
			      const struct sa_query_config *cfg);
void sa_query_free(struct sa_query *q);

/* Starts querying. -EALREADY when already querying (the running procedure
 * goes on), -EIO when no random identifier could be drawn, else 0. */
int sa_query_start(struct sa_query *q);
/* Ends a running procedure without calling done (the link went anyway). */
void sa_query_stop(struct sa_query *q);

enum sa_query_state sa_query_state(const struct sa_query *q);
const char *sa_query_state_to_string(enum sa_query_state s);
const struct sa_query_stats *sa_query_stats(const struct sa_query *q);

enum sa_query_rx_result {
	SA_QUERY_RX_ANSWERED,  /* a request: the response went out */
	SA_QUERY_RX_CONFIRMED, /* a response to one of ours: done(ctx, true) was called */
	SA_QUERY_RX_UNMATCHED, /* a response we did not ask for (or too late): ignored */
	SA_QUERY_RX_MALFORMED, /* not a well-formed SA Query: ignored */
	SA_QUERY_RX_SEND_FAILED, /* a request whose answer could not be sent */
};

/* One received SA Query Action body, from its Category octet on. It must
 * have arrived protected (the driver drops unprotected robust frames on an
 * MFP link). */
enum sa_query_rx_result sa_query_rx(struct sa_query *q, const uint8_t *action, size_t len);

#endif
