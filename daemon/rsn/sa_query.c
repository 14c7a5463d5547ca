/* SA Query procedure (IEEE 802.11-2020 11.13). */
#define LOG_TAG "sa-query"
#include "daemon/rsn/sa_query.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/secure.h"

struct sa_query {
	struct loop *loop;
	const struct sa_query_ops *ops;
	void *ctx;
	uint32_t retry_ms, max_ms;
	enum sa_query_state state;
	struct loop_timer *retry_timer;
	struct loop_timer *max_timer;
	uint8_t ids[SA_QUERY_MAX_IDS][SA_QUERY_TRANS_ID_LEN];
	size_t n_ids;
	struct sa_query_stats stats;
};

const char *sa_query_state_to_string(enum sa_query_state s)
{
	switch (s) {
	case SA_QUERY_IDLE:
		return "idle";
	case SA_QUERY_QUERYING:
		return "querying";
	}
	return "unknown";
}

static void enter_state(struct sa_query *q, enum sa_query_state s)
{
	if (q->state != s)
		log_debug("SA Query %s -> %s", sa_query_state_to_string(q->state),
			  sa_query_state_to_string(s));
	q->state = s;
	switch (s) {
	case SA_QUERY_IDLE:
		loop_timer_disarm(q->retry_timer);
		loop_timer_disarm(q->max_timer);
		q->n_ids = 0;
		break;
	case SA_QUERY_QUERYING:
		loop_timer_arm_ms(q->max_timer, q->max_ms);
		break;
	}
}

static int send_action(struct sa_query *q, enum sa_query_action action, const uint8_t id[2])
{
	uint8_t buf[4];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	if (sa_query_build(&w, action, id) != CODEC_OK)
		return -EINVAL;
	return q->ops->send(q->ctx, buf, w.len);
}

/* Sends the next request under a fresh identifier, and arms the retry. */
static int send_request(struct sa_query *q)
{
	if (q->n_ids == SA_QUERY_MAX_IDS)
		return -ENOSPC;
	uint8_t *id = q->ids[q->n_ids];
	if (crypto_random(id, SA_QUERY_TRANS_ID_LEN) < 0)
		return -EIO;
	q->n_ids++;
	loop_timer_arm_ms(q->retry_timer, q->retry_ms);
	int err = send_action(q, SA_QUERY_ACTION_REQUEST, id);
	if (err < 0) {
		log_debug("SA Query request not sent: %s", strerror(-err));
		return err;
	}
	q->stats.requests_sent++;
	return 0;
}

static void on_retry(struct loop_timer *t, void *data)
{
	struct sa_query *q = data;
	(void)t;
	if (q->state == SA_QUERY_QUERYING)
		(void)send_request(q);
}

static void finish(struct sa_query *q, bool alive)
{
	enter_state(q, SA_QUERY_IDLE);
	log_info("SA Query: peer %s", alive ? "answered: association kept" : "silent: association ends");
	q->ops->done(q->ctx, alive); /* may free q */
}

static void on_max(struct loop_timer *t, void *data)
{
	(void)t;
	finish(data, false);
}

struct sa_query *sa_query_new(struct loop *loop, const struct sa_query_ops *ops, void *ctx,
			      const struct sa_query_config *cfg)
{
	if (!loop || !ops || !ops->send || !ops->done)
		return NULL;
	struct sa_query *q = calloc(1, sizeof(*q));
	if (!q)
		return NULL;
	q->loop = loop;
	q->ops = ops;
	q->ctx = ctx;
	q->retry_ms = cfg && cfg->retry_ms ? cfg->retry_ms : SA_QUERY_RETRY_MS_DEFAULT;
	q->max_ms = cfg && cfg->max_ms ? cfg->max_ms : SA_QUERY_MAX_MS_DEFAULT;
	q->retry_timer = loop_timer_new(loop, on_retry, q);
	q->max_timer = loop_timer_new(loop, on_max, q);
	if (!q->retry_timer || !q->max_timer) {
		sa_query_free(q);
		return NULL;
	}
	return q;
}

void sa_query_free(struct sa_query *q)
{
	if (!q)
		return;
	loop_timer_free(q->retry_timer);
	loop_timer_free(q->max_timer);
	free(q);
}

int sa_query_start(struct sa_query *q)
{
	if (q->state == SA_QUERY_QUERYING)
		return -EALREADY;
	enter_state(q, SA_QUERY_QUERYING);
	int err = send_request(q);
	if (err == -EIO) {
		enter_state(q, SA_QUERY_IDLE);
		return err;
	}
	return 0; /* a failed send is retried by the retry timer */
}

void sa_query_stop(struct sa_query *q)
{
	enter_state(q, SA_QUERY_IDLE);
}

enum sa_query_state sa_query_state(const struct sa_query *q)
{
	return q->state;
}

const struct sa_query_stats *sa_query_stats(const struct sa_query *q)
{
	return &q->stats;
}

static bool id_sent(const struct sa_query *q, const uint8_t id[2])
{
	for (size_t i = 0; i < q->n_ids; i++)
		if (memcmp(q->ids[i], id, SA_QUERY_TRANS_ID_LEN) == 0)
			return true;
	return false;
}

enum sa_query_rx_result sa_query_rx(struct sa_query *q, const uint8_t *action, size_t len)
{
	struct sa_query_frame f;
	if (sa_query_parse(action, len, &f) != CODEC_OK) {
		q->stats.malformed++;
		return SA_QUERY_RX_MALFORMED;
	}
	if (f.action == SA_QUERY_ACTION_REQUEST) {
		if (send_action(q, SA_QUERY_ACTION_RESPONSE, f.trans_id) < 0)
			return SA_QUERY_RX_SEND_FAILED;
		q->stats.responses_sent++;
		return SA_QUERY_RX_ANSWERED;
	}
	if (q->state != SA_QUERY_QUERYING || !id_sent(q, f.trans_id)) {
		q->stats.unmatched++;
		return SA_QUERY_RX_UNMATCHED;
	}
	finish(q, true);
	return SA_QUERY_RX_CONFIRMED;
}
