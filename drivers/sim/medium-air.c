/* The air: one channel per frequency, each a FIFO of transmissions of which
 * the head is on the air while a timer runs out its airtime. At the end of
 * each attempt the frame is delivered, the ACK decided, and either the next
 * attempt starts or the sender gets its TX_STATUS and the next frame goes.
 * The model is described in medium.h. */
#define LOG_TAG "medium"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "drivers/sim/medium-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SLOT_US 9
#define SIFS_2GHZ_US 10
#define SIFS_5GHZ_US 16
#define PREAMBLE_DSSS_US 192 /* long PLCP preamble + header */
#define PREAMBLE_OFDM_US 20  /* legacy preamble + SIGNAL */
#define FCS_LEN 4
#define ACK_LEN 14 /* FC, duration, RA, FCS */
#define MIN_HEADER_LEN 10 /* FC, duration, addr1: enough to see addr1 */
#define FC1_RETRY 0x08
#define MAX_RETRY_LIMIT 254 /* attempts must fit TX_STATUS's u8 */

/* ---- airtime ---- */

uint16_t medium_effective_rate(uint32_t freq_mhz, uint16_t rate_100kbps)
{
	if (rate_100kbps == 0)
		return freq_mhz < 3000 ? 10 : 60;
	return rate_100kbps < 10 ? 10 : rate_100kbps;
}

static bool is_dsss_rate(uint16_t rate_100kbps)
{
	return rate_100kbps == 10 || rate_100kbps == 20 || rate_100kbps == 55 ||
	       rate_100kbps == 110;
}

/* One PPDU: preamble plus payload bits at the rate, rounded up. */
static uint64_t ppdu_us(uint16_t rate_100kbps, size_t bytes)
{
	uint64_t bits_x10 = (uint64_t)bytes * 8 * 10;
	uint64_t pre = is_dsss_rate(rate_100kbps) ? PREAMBLE_DSSS_US : PREAMBLE_OFDM_US;
	return pre + (bits_x10 + rate_100kbps - 1) / rate_100kbps;
}

uint64_t medium_airtime_us(uint32_t freq_mhz, uint16_t rate_100kbps, size_t frame_len,
			   bool with_ack)
{
	uint16_t rate = medium_effective_rate(freq_mhz, rate_100kbps);
	uint64_t sifs = freq_mhz < 3000 ? SIFS_2GHZ_US : SIFS_5GHZ_US;
	uint64_t t = sifs + 2 * SLOT_US + ppdu_us(rate, frame_len + FCS_LEN);

	if (with_ack)
		t += sifs + ppdu_us(is_dsss_rate(rate) ? 10 : 60, ACK_LEN);
	return t;
}

/* ---- transmissions and queues ---- */

static void list_append(struct medium_tx_list *l, struct medium_tx *tx)
{
	tx->next = NULL;
	tx->prev = l->tail;
	if (l->tail)
		l->tail->next = tx;
	else
		l->head = tx;
	l->tail = tx;
	l->count++;
}

static void list_unlink(struct medium_tx_list *l, struct medium_tx *tx)
{
	if (tx->prev)
		tx->prev->next = tx->next;
	else
		l->head = tx->next;
	if (tx->next)
		tx->next->prev = tx->prev;
	else
		l->tail = tx->prev;
	tx->prev = tx->next = NULL;
	l->count--;
}

static struct medium_tx *tx_new(struct medium_channel *chan, const uint8_t *frame, size_t len)
{
	struct medium_tx *tx = calloc(1, sizeof(*tx) + len);
	if (!tx)
		return NULL;
	tx->chan = chan;
	tx->len = len;
	memcpy(tx->frame, frame, len);
	return tx;
}

static void tx_free(struct medium_tx *tx)
{
	loop_timer_free(tx->delay);
	free(tx->heard);
	free(tx);
}

static bool is_group(const uint8_t *frame, size_t len)
{
	return len < MIN_HEADER_LEN || (frame[4] & 0x01);
}

static void send_status(struct medium_client *c, uint64_t cookie, bool acked, unsigned attempts)
{
	struct medium_msg msg = { .type = MEDIUM_MSG_TX_STATUS };
	msg.u.tx_status.cookie = cookie;
	msg.u.tx_status.acked = acked;
	msg.u.tx_status.attempts = (uint8_t)attempts;
	medium_client_send_msg(c, &msg);
}

/* ---- channels ---- */

static void on_airtime_end(struct loop_timer *timer, void *data);

struct medium_channel *medium_channel_get(struct medium *m, uint32_t freq_mhz)
{
	for (size_t i = 0; i < m->n_chans; i++)
		if (m->chans[i]->freq_mhz == freq_mhz)
			return m->chans[i];
	if (m->n_chans == MEDIUM_MAX_CHANNELS)
		return NULL;
	if (m->n_chans == m->cap_chans) {
		size_t cap = m->cap_chans ? m->cap_chans * 2 : 8;
		struct medium_channel **a = realloc(m->chans, cap * sizeof(*a));
		if (!a)
			return NULL;
		m->chans = a;
		m->cap_chans = cap;
	}
	struct medium_channel *chan = calloc(1, sizeof(*chan));
	if (!chan)
		return NULL;
	chan->m = m;
	chan->freq_mhz = freq_mhz;
	chan->timer = loop_timer_new(m->loop, on_airtime_end, chan);
	if (!chan->timer) {
		free(chan);
		return NULL;
	}
	m->chans[m->n_chans++] = chan;
	return chan;
}

static void channel_remove(struct medium_client *c)
{
	struct medium_channel *chan = c->chan;
	struct medium_client *last = chan->radios[--chan->n_radios];

	chan->radios[c->chan_index] = last;
	last->chan_index = c->chan_index;
	c->chan = NULL;
}

int medium_channel_tune(struct medium_client *c, uint32_t freq_mhz)
{
	if (c->chan && c->chan->freq_mhz == freq_mhz)
		return 0;
	if (freq_mhz == 0) {
		if (c->chan)
			channel_remove(c);
		return 0;
	}
	struct medium_channel *chan = medium_channel_get(c->m, freq_mhz);
	if (!chan)
		return -ENOSPC;
	if (chan->n_radios == chan->cap_radios) {
		size_t cap = chan->cap_radios ? chan->cap_radios * 2 : 8;
		struct medium_client **a = realloc(chan->radios, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		chan->radios = a;
		chan->cap_radios = cap;
	}
	if (c->chan)
		channel_remove(c);
	c->chan = chan;
	c->chan_index = chan->n_radios;
	chan->radios[chan->n_radios++] = c;
	return 0;
}

static void start_attempt(struct medium_channel *chan)
{
	struct medium_tx *tx = chan->queue.head;

	tx->attempts++;
	if (tx->attempts > 1) {
		/* A retransmission carries the Retry bit, as hardware sets it. */
		if (tx->len >= 2)
			tx->frame[1] |= FC1_RETRY;
		chan->m->stats.retries++;
	}
	loop_timer_arm_us(chan->timer,
			  medium_airtime_us(chan->freq_mhz, tx->rate_100kbps, tx->len, tx->expects_ack));
}

/* The channel is free: the frame that wins contention (medium-edca.c)
 * goes to the head, where the one on the air is kept. */
static void channel_kick(struct medium_channel *chan)
{
	if (chan->busy || !chan->queue.head)
		return;
	struct medium_tx *tx = medium_edca_pick(chan->m, &chan->queue);
	if (tx != chan->queue.head) {
		list_unlink(&chan->queue, tx);
		tx->next = chan->queue.head;
		chan->queue.head->prev = tx;
		chan->queue.head = tx;
		chan->queue.count++;
	}
	chan->busy = true;
	start_attempt(chan);
}

static void enqueue(struct medium_tx *tx)
{
	list_append(&tx->chan->queue, tx);
	channel_kick(tx->chan);
}

/* ---- delivery ---- */

static bool already_heard(const struct medium_tx *tx, uint32_t id)
{
	for (size_t i = 0; i < tx->n_heard; i++)
		if (tx->heard[i] == id)
			return true;
	return false;
}

/* Remembers a receiver so a retry skips it; only frames that can be retried
 * need this. Out of memory only risks a duplicate, so it is not an error. */
static void mark_heard(struct medium_tx *tx, uint32_t id)
{
	if (tx->n_heard == tx->cap_heard) {
		size_t cap = tx->cap_heard ? tx->cap_heard * 2 : 4;
		uint32_t *a = realloc(tx->heard, cap * sizeof(*a));
		if (!a)
			return;
		tx->heard = a;
		tx->cap_heard = cap;
	}
	tx->heard[tx->n_heard++] = id;
}

/* Does radio r receive this attempt, and at what signal? */
static bool hears(struct medium *m, const struct medium_tx *tx, const struct medium_client *r,
		  int32_t *signal_mbm)
{
	uint8_t loss;

	if (tx->injected) {
		*signal_mbm = tx->inject_signal_mbm;
		return *signal_mbm > MEDIUM_NO_SIGNAL_MBM;
	}
	medium_links_get(m->links, tx->sender_addr, r->addr, tx->chan->freq_mhz, m->default_loss,
			 signal_mbm, &loss);
	if (*signal_mbm <= MEDIUM_NO_SIGNAL_MBM || loss >= 100)
		return false;
	return loss == 0 || medium_prng_next(&m->prng) % 100 >= loss;
}

static size_t encode_rx(struct medium *m, const struct medium_tx *tx, uint16_t rate)
{
	struct medium_msg msg = { .type = MEDIUM_MSG_RX };
	msg.u.rx.freq_mhz = tx->chan->freq_mhz;
	msg.u.rx.rate_100kbps = rate;
	msg.frame = tx->frame;
	msg.frame_len = tx->len;
	int n = medium_msg_encode(&msg, m->rx_buf, sizeof(m->rx_buf));
	return n > 0 ? (size_t)n : 0;
}

/* Delivers one attempt to every radio that hears it. Returns true when a
 * radio owning addr1 received it (the ACK). */
static bool deliver_attempt(struct medium_channel *chan, struct medium_tx *tx)
{
	struct medium *m = chan->m;
	uint16_t rate = medium_effective_rate(chan->freq_mhz, tx->rate_100kbps);
	size_t len = tx->dropped ? 0 : encode_rx(m, tx, rate);
	int32_t best = MEDIUM_NO_SIGNAL_MBM, signal;
	bool acked = false;

	for (size_t i = 0; len && i < chan->n_radios; i++) {
		struct medium_client *r = chan->radios[i];
		if (r == tx->sender || r->dead || already_heard(tx, r->id))
			continue;
		if (!hears(m, tx, r, &signal)) {
			m->stats.frames_lost++;
			continue;
		}
		medium_msg_patch_rx_signal(m->rx_buf, signal);
		if (medium_client_send(r, m->rx_buf, len))
			m->stats.frames_delivered++;
		if (signal > best)
			best = signal;
		if (tx->expects_ack) {
			mark_heard(tx, r->id);
			acked |= medium_client_owns_addr(r, tx->frame + 4);
		}
	}
	if (m->capture) {
		if (tx->injected)
			best = tx->inject_signal_mbm;
		else if (best == MEDIUM_NO_SIGNAL_MBM)
			best = MEDIUM_DEFAULT_SIGNAL_MBM;
		if (medium_capture_write(m->capture, chan->freq_mhz, rate, best, tx->frame, tx->len) <
		    0) {
			log_warn("capture write failed (disk full?); capture stopped");
			medium_capture_stop(m);
		}
	}
	return acked;
}

static void finish(struct medium_channel *chan, struct medium_tx *tx)
{
	list_unlink(&chan->queue, tx);
	chan->busy = false;
	if (tx->report_status && tx->sender && !tx->sender->dead) {
		if (tx->expects_ack)
			send_status(tx->sender, tx->cookie, tx->acked, tx->attempts);
		else if (is_group(tx->frame, tx->len))
			send_status(tx->sender, tx->cookie, true, 1);
		else /* MEDIUM_TX_NO_ACK unicast: sent once, no ACK asked for */
			send_status(tx->sender, tx->cookie, false, 1);
	}
	if (tx->ctrl && !tx->ctrl->dead)
		medium_ctrl_reply(tx->ctrl, 0);
	tx_free(tx);
	channel_kick(chan);
}

static void on_airtime_end(struct loop_timer *timer, void *data)
{
	struct medium_channel *chan = data;
	struct medium_tx *tx = chan->queue.head;

	/* A sender that went away in this iteration: the reaper has not run
	 * yet, but its frame must not reach anyone. */
	if (tx->sender && tx->sender->dead) {
		finish(chan, tx);
		return;
	}
	if (deliver_attempt(chan, tx) && tx->expects_ack) {
		tx->acked = true;
		chan->m->stats.frames_acked++;
	}
	if (tx->expects_ack && !tx->acked && tx->attempts <= tx->retry_limit) {
		start_attempt(chan);
		return;
	}
	finish(chan, tx);
}

/* ---- entry points ---- */

static void on_delay_end(struct loop_timer *timer, void *data)
{
	struct medium_tx *tx = data;

	list_unlink(&tx->chan->m->delayed, tx);
	loop_timer_free(tx->delay);
	tx->delay = NULL;
	enqueue(tx);
}

/* Sends tx on its way: straight to its channel, or held by a DELAY fault.
 * Equal delays keep their order: timers with one deadline fire as armed.
 * The held frames are bounded like a channel queue; past that, no delay. */
static void dispatch(struct medium *m, struct medium_tx *tx, uint32_t delay_ms)
{
	if (delay_ms && m->delayed.count < MEDIUM_CHANNEL_QUEUE_MAX) {
		tx->delay = loop_timer_new(m->loop, on_delay_end, tx);
		if (tx->delay) {
			list_append(&m->delayed, tx);
			loop_timer_arm_ms(tx->delay, delay_ms);
			return;
		}
	}
	enqueue(tx);
}

static struct medium_tx *make_duplicate(const struct medium_tx *tx)
{
	struct medium_tx *dup = tx_new(tx->chan, tx->frame, tx->len);
	if (!dup)
		return NULL;
	dup->sender = tx->sender;
	memcpy(dup->sender_addr, tx->sender_addr, 6);
	dup->rate_100kbps = tx->rate_100kbps;
	dup->dropped = tx->dropped;
	return dup; /* no status, no ACK, one attempt */
}

static void apply_faults(struct medium *m, struct medium_tx *tx)
{
	struct medium_fault_verdict v;
	struct medium_tx *dup = NULL;

	medium_fault_check(m, tx->sender_addr, tx->frame, tx->len, &v);
	if (v.hit)
		m->stats.frames_faulted++;
	tx->dropped = v.drop;
	tx->expects_ack = !tx->no_ack_flag && !is_group(tx->frame, tx->len);
	if (v.duplicate)
		dup = make_duplicate(tx);
	dispatch(m, tx, v.delay_ms);
	if (dup)
		dispatch(m, dup, v.delay_ms);
}

void medium_air_submit(struct medium_client *c, const struct medium_msg *msg)
{
	struct medium *m = c->m;
	struct medium_tx *tx = NULL;

	m->stats.frames_tx++;
	if (!c->chan) {
		log_debug("radio %u: TX while off channel refused", c->id);
	} else if (c->chan->queue.count >= MEDIUM_CHANNEL_QUEUE_MAX) {
		log_debug("radio %u: %u MHz queue full, TX refused", c->id, c->chan->freq_mhz);
	} else {
		tx = tx_new(c->chan, msg->frame, msg->frame_len);
	}
	if (!tx) {
		send_status(c, msg->u.tx.cookie, false, 0);
		return;
	}
	tx->sender = c;
	memcpy(tx->sender_addr, c->addr, 6);
	tx->cookie = msg->u.tx.cookie;
	tx->rate_100kbps = msg->u.tx.rate_100kbps;
	tx->retry_limit = msg->u.tx.retry_limit > MAX_RETRY_LIMIT ? MAX_RETRY_LIMIT
								 : msg->u.tx.retry_limit;
	tx->report_status = true;
	tx->no_ack_flag = msg->u.tx.flags & MEDIUM_TX_NO_ACK;
	apply_faults(m, tx);
}

int medium_air_inject(struct medium *m, struct medium_client *ctrl, uint32_t freq_mhz,
		      int32_t signal_mbm, const uint8_t *frame, size_t len)
{
	if (freq_mhz == 0 || !frame || len == 0 || len > MEDIUM_MAX_FRAME)
		return -EINVAL;
	struct medium_channel *chan = medium_channel_get(m, freq_mhz);
	if (!chan)
		return -ENOSPC;
	if (chan->queue.count >= MEDIUM_CHANNEL_QUEUE_MAX)
		return -ENOBUFS;
	struct medium_tx *tx = tx_new(chan, frame, len);
	if (!tx)
		return -ENOMEM;
	tx->injected = true;
	tx->inject_signal_mbm = signal_mbm;
	tx->ctrl = ctrl;
	m->stats.frames_injected++;
	enqueue(tx);
	return 0;
}

int medium_inject(struct medium *m, uint32_t freq_mhz, int32_t signal_mbm, const uint8_t *frame,
		  size_t len)
{
	return medium_air_inject(m, NULL, freq_mhz, signal_mbm, frame, len);
}

/* ---- detach and teardown ---- */

/* Drops c's frames from a list; returns true if the one on the air went. */
static bool forget_in(struct medium_tx_list *l, struct medium_client *c,
		      struct medium_channel *chan)
{
	bool head_gone = false;
	struct medium_tx *next;

	for (struct medium_tx *tx = l->head; tx; tx = next) {
		next = tx->next;
		if (tx->ctrl == c)
			tx->ctrl = NULL;
		if (tx->sender != c)
			continue;
		if (chan && chan->busy && tx == l->head) {
			loop_timer_disarm(chan->timer);
			chan->busy = false;
			head_gone = true;
		}
		list_unlink(l, tx);
		tx_free(tx);
	}
	return head_gone;
}

void medium_air_forget(struct medium *m, struct medium_client *c)
{
	forget_in(&m->delayed, c, NULL);
	for (size_t i = 0; i < m->n_chans; i++) {
		struct medium_channel *chan = m->chans[i];
		if (forget_in(&chan->queue, c, chan))
			channel_kick(chan);
	}
}

static void free_list(struct medium_tx_list *l)
{
	while (l->head) {
		struct medium_tx *tx = l->head;
		list_unlink(l, tx);
		tx_free(tx);
	}
}

void medium_air_free(struct medium *m)
{
	free_list(&m->delayed);
	for (size_t i = 0; i < m->n_chans; i++) {
		struct medium_channel *chan = m->chans[i];
		free_list(&chan->queue);
		loop_timer_free(chan->timer);
		free(chan->radios);
		free(chan);
	}
	free(m->chans);
	m->chans = NULL;
	m->n_chans = m->cap_chans = 0;
}
