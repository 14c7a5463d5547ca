/* The transmit path of one interface: four access-category queues plus a
 * management queue, one frame in flight on the medium at a time (the next
 * goes when the medium reports the TX status of the last), sequence
 * numbering and encryption at the moment a frame goes on the air.
 *
 * EDCA model. Real EDCA lets the four ACs of a station contend with
 * different AIFSN and contention windows, so voice usually but not always
 * wins. We keep that shape without waiting out real slot times: whenever
 * the interface may transmit, every non-empty AC draws a backoff of
 * AIFSN + uniform(0..CWmin) slots with the default EDCA parameter set of
 * 802.11-2020 Table 9-155 (VO 2+0..3, VI 2+0..7, BE 3+0..15, BK 7+0..15);
 * the smallest draw wins, a tie goes to the higher-priority AC (the
 * standard's internal-collision rule). The draws come from a per-interface
 * xorshift generator seeded with the ifindex, so runs repeat. The
 * management queue (tx_mgmt, EAPOL, our own authentication/association
 * frames) goes before any AC, as on hardware with a dedicated management
 * queue. Beacons and probe requests bypass the queues (sim_tx_direct).
 *
 * A queue that reaches its limit stops: tx_data on it fails with -ENOBUFS
 * and DRIVER_EV_QUEUE_STOPPED is raised once; when it drains to 3/4 of the
 * limit DRIVER_EV_QUEUE_WOKEN follows. Other ACs are not affected.
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A lost status message, not a busy channel: a frame waiting its turn
 * behind many transmitters can take seconds, and declaring it unacked
 * early makes the MLME send a copy into the same queue. */
#define SIM_TX_WATCHDOG_MS 5000
#define SIM_DATA_RATE 540 /* 54 Mb/s; management frames use the lowest basic rate */

static const uint8_t edca_aifsn[DRIVER_AC_COUNT] = { 2, 2, 3, 7 };
static const uint8_t edca_cwmin[DRIVER_AC_COUNT] = { 3, 7, 15, 15 };

static void tx_next(struct sim_iface *ifc);
static void tx_next_locked(struct sim_iface *ifc);

uint64_t sim_next_cookie(struct sim *sim)
{
	return ++sim->next_cookie;
}

static uint32_t rng_next(struct sim_tx *tx)
{
	uint32_t x = tx->rng;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return tx->rng = x;
}

static void on_watchdog(struct loop_timer *t, void *data)
{
	struct sim_iface *ifc = data;
	log_warn("%s: no TX status from the medium in %d ms", ifc->name, SIM_TX_WATCHDOG_MS);
	if (ifc->tx.inflight)
		sim_tx_status(ifc, ifc->tx.inflight_cookie, false, 1);
}

static void on_kick(struct loop_idle *idle, void *data)
{
	tx_next(data);
}

int sim_tx_init(struct sim_iface *ifc)
{
	struct sim_tx *tx = &ifc->tx;
	for (int q = 0; q < DRIVER_AC_COUNT; q++)
		tx->q[q].limit = ifc->sim->opts.queue_limit;
	tx->q[SIM_TXQ_MGMT].limit = SIM_MGMT_QUEUE_LIMIT;
	tx->rng = ifc->ifindex * 2654435761u | 1u;
	tx->watchdog = loop_timer_new(ifc->sim->loop, on_watchdog, ifc);
	tx->kick = loop_idle_new(ifc->sim->loop, on_kick, ifc);
	return tx->watchdog && tx->kick ? 0 : -ENOMEM;
}

static void emit_queue(struct sim_iface *ifc, enum driver_event_type type, unsigned ac)
{
	struct driver_event ev = { .type = type, .radio_id = ifc->radio->id,
				   .ifindex = ifc->ifindex, .u.queue.ac = (enum driver_ac)ac };
	sim_emit(ifc->sim, &ev);
}

/* Reports the fate of a frame that left (or was dropped from) a queue. */
static void complete(struct sim_iface *ifc, struct sim_txf *f, bool acked)
{
	struct driver_event ev = { .radio_id = ifc->radio->id, .ifindex = ifc->ifindex };
	switch (f->kind) {
	case SIM_TXF_MGMT:
	case SIM_TXF_EAPOL:
		ev.type = f->kind == SIM_TXF_MGMT ? DRIVER_EV_TX_STATUS : DRIVER_EV_EAPOL_TX_STATUS;
		ev.u.tx_status.cookie = f->cookie;
		ev.u.tx_status.acked = acked;
		ev.u.tx_status.frame = f->frame;
		ev.u.tx_status.len = f->len;
		sim_emit(ifc->sim, &ev);
		break;
	case SIM_TXF_MLME:
		sim_mlme_tx_status(ifc, acked, f->frame, f->len);
		break;
	case SIM_TXF_PROBE:
		ev.type = DRIVER_EV_PROBE_STATUS;
		ev.u.tx_status.cookie = f->cookie;
		ev.u.tx_status.acked = acked;
		sim_emit(ifc->sim, &ev);
		break;
	case SIM_TXF_DATA:
	case SIM_TXF_QUIET:
		break;
	}
	free(f);
}

/* Unlinks the head of queue q and wakes the queue when it has drained. */
static struct sim_txf *dequeue(struct sim_iface *ifc, unsigned q, struct sim_txf *prev)
{
	struct sim_txq *tq = &ifc->tx.q[q];
	struct sim_txf *f = prev ? prev->next : tq->head;
	if (prev)
		prev->next = f->next;
	else
		tq->head = f->next;
	if (tq->tail == f)
		tq->tail = prev;
	f->next = NULL;
	tq->len--;
	if (q < DRIVER_AC_COUNT && tq->stopped && tq->len <= tq->limit * 3 / 4) {
		tq->stopped = false;
		emit_queue(ifc, DRIVER_EV_QUEUE_WOKEN, q);
		sim_tap_queue_woken(ifc, (enum driver_ac)q);
	}
	return f;
}

int sim_tx_enqueue(struct sim_iface *ifc, unsigned q, enum sim_txf_kind kind,
		   const uint8_t *frame, size_t len, uint32_t freq, bool no_ack, bool protect,
		   uint8_t tid, uint64_t cookie)
{
	struct sim_txq *tq = &ifc->tx.q[q];
	if (tq->stopped || tq->len >= tq->limit)
		return -ENOBUFS;
	/* Robust management frames are protected now, with the keys of this
	 * moment: a deauthentication queued before its keys go still leaves
	 * protected. */
	uint8_t prot[SIM_MAX_FRAME];
	size_t prot_len = 0;
	int pr = q == SIM_TXQ_MGMT ? sim_pmf_tx(ifc, frame, len, prot, sizeof(prot), &prot_len) : 0;
	if (pr < 0) {
		log_warn("%s: cannot protect a %zu-byte management frame; dropped", ifc->name, len);
		return pr;
	}
	if (pr > 0) {
		frame = prot;
		len = prot_len;
	}
	struct sim_txf *f = malloc(sizeof(*f) + len);
	if (!f)
		return -ENOMEM;
	*f = (struct sim_txf){ .kind = kind, .cookie = cookie, .freq = freq, .no_ack = no_ack,
			       .protect = protect, .tid = tid, .len = len };
	memcpy(f->frame, frame, len);
	if (tq->tail)
		tq->tail->next = f;
	else
		tq->head = f;
	tq->tail = f;
	tq->len++;
	if (q < DRIVER_AC_COUNT && tq->len >= tq->limit) {
		tq->stopped = true;
		emit_queue(ifc, DRIVER_EV_QUEUE_STOPPED, q);
	}
	tx_next(ifc);
	return 0;
}

void sim_tx_kick(struct sim_iface *ifc)
{
	if (ifc->tx.kick)
		loop_idle_schedule(ifc->tx.kick);
}

/* The AC that wins this round of the EDCA model, or -1. */
static int edca_pick(struct sim_iface *ifc)
{
	int best = -1;
	uint32_t best_slots = 0;
	for (int ac = 0; ac < DRIVER_AC_COUNT; ac++) {
		if (!ifc->tx.q[ac].head)
			continue;
		uint32_t slots = edca_aifsn[ac] + rng_next(&ifc->tx) % (edca_cwmin[ac] + 1u);
		if (best < 0 || slots < best_slots) {
			best = ac;
			best_slots = slots;
		}
	}
	return best;
}

/* The first management frame that may go out on the current channel.
 * Frames for a channel we are not on and will not return to fail. */
static struct sim_txf *pick_mgmt(struct sim_iface *ifc)
{
	struct sim_txq *tq = &ifc->tx.q[SIM_TXQ_MGMT];
	struct sim_txf *prev = NULL;
	for (struct sim_txf *f = tq->head; f;) {
		if (f->freq == ifc->link.tuned_freq)
			return dequeue(ifc, SIM_TXQ_MGMT, prev);
		if (ifc->scan) { /* will be back on its channel after the scan */
			prev = f;
			f = f->next;
			continue;
		}
		struct sim_txf *next = f->next;
		log_debug("%s: dropping a management frame for %u MHz (on %u)", ifc->name,
			  f->freq, ifc->link.tuned_freq);
		tq->dropped++;
		complete(ifc, dequeue(ifc, SIM_TXQ_MGMT, prev), false);
		f = next;
	}
	return NULL;
}

static void write_seq(struct sim_iface *ifc, struct sim_txf *f)
{
	if (f->len < IEEE80211_MGMT_HDR_LEN)
		return;
	uint16_t fc = get_le16(f->frame);
	bool qos_data = IEEE80211_FC_GET_TYPE(fc) == IEEE80211_FTYPE_DATA &&
			(IEEE80211_FC_GET_SUBTYPE(fc) & IEEE80211_STYPE_QOS_BIT);
	uint16_t *ctr = qos_data ? &ifc->tx.seq_tid[f->tid & 15] : &ifc->tx.seq_mgmt;
	put_le16(f->frame + 22, (uint16_t)(*ctr << IEEE80211_SEQ_NUM_SHIFT));
	*ctr = (*ctr + 1) & 0x0fff;
}

/* Puts f on the air, encrypted when it asks for protection and a key is
 * installed. Returns the medium cookie, or 0 if it could not be sent. */
static uint64_t transmit(struct sim_iface *ifc, struct sim_txf *f)
{
	write_seq(ifc, f);
	struct sim_key *k = f->protect ? sim_tx_key(ifc, f->frame + 4) : NULL;
	uint16_t rate = IEEE80211_FC_GET_TYPE(get_le16(f->frame)) == IEEE80211_FTYPE_DATA
				? SIM_DATA_RATE
				: 0;
	if (!k)
		return sim_link_tx(ifc, f->frame, f->len, f->no_ack, rate);

	uint8_t out[SIM_MAX_FRAME + 64];
	size_t out_len = 0, hdr_len = data_hdr_len(get_le16(f->frame));
	if (hdr_len > f->len || f->len + sim_key_overhead(k) > SIM_MAX_FRAME ||
	    sim_key_encrypt(k, f->frame, f->len, hdr_len, out, &out_len) < 0) {
		log_warn("%s: cannot encrypt a %zu-byte frame; dropped", ifc->name, f->len);
		return 0;
	}
	return sim_link_tx(ifc, out, out_len, f->no_ack, rate);
}

static struct sim_txf *pick(struct sim_iface *ifc, unsigned *q)
{
	struct sim_txf *f = pick_mgmt(ifc);
	if (f) {
		*q = SIM_TXQ_MGMT;
		return f;
	}
	/* Data waits while a scan has the radio off its channel. */
	if (ifc->scan || ifc->link.tuned_freq == 0 || ifc->link.tuned_freq != ifc->oper_freq)
		return NULL;
	int ac = edca_pick(ifc);
	if (ac < 0)
		return NULL;
	*q = (unsigned)ac;
	return dequeue(ifc, (unsigned)ac, NULL);
}

static void tx_next(struct sim_iface *ifc)
{
	/* Completing or dequeuing a frame can queue another (an MLME retry,
	 * a TAP frame held for a woken queue); the outer loop picks it up. */
	if (ifc->tx.busy)
		return;
	ifc->tx.busy = true;
	tx_next_locked(ifc);
	ifc->tx.busy = false;
}

static void tx_next_locked(struct sim_iface *ifc)
{
	while (!ifc->tx.inflight && ifc->up) {
		unsigned q = 0;
		struct sim_txf *f = pick(ifc, &q);
		if (!f)
			return;
		uint64_t cookie = ifc->link.dead ? 0 : transmit(ifc, f);
		if (!cookie) {
			ifc->tx.q[q].dropped++;
			complete(ifc, f, false);
			continue;
		}
		ifc->tx.inflight = f;
		ifc->tx.inflight_q = q;
		ifc->tx.inflight_cookie = cookie;
		loop_timer_arm_ms(ifc->tx.watchdog, SIM_TX_WATCHDOG_MS);
	}
}

static void account(struct sim_iface *ifc, struct sim_txf *f, bool acked, unsigned attempts)
{
	ifc->tx.q[ifc->tx.inflight_q].transmitted++;
	if (f->len < IEEE80211_MGMT_HDR_LEN || sim_addr_is_group(f->frame + 4))
		return;
	struct sim_peer *p = sim_peer_find(ifc, f->frame + 4);
	if (!p)
		return;
	if (attempts > 1)
		p->tx_retries += attempts - 1;
	if (acked) {
		p->tx_packets++;
		p->tx_bytes += f->len;
	} else if (!f->no_ack) {
		p->tx_failed++;
	}
}

void sim_tx_status(struct sim_iface *ifc, uint64_t medium_cookie, bool acked,
		   unsigned attempts)
{
	struct sim_txf *f = ifc->tx.inflight;
	if (!f || medium_cookie != ifc->tx.inflight_cookie)
		return; /* a beacon or probe request, or a status that came too late */
	ifc->tx.inflight = NULL;
	loop_timer_disarm(ifc->tx.watchdog);
	account(ifc, f, acked, attempts);
	complete(ifc, f, acked);
	tx_next(ifc);
}

void sim_tx_direct(struct sim_iface *ifc, uint8_t *frame, size_t len)
{
	if (len < IEEE80211_MGMT_HDR_LEN || ifc->link.dead)
		return;
	put_le16(frame + 22, (uint16_t)(ifc->tx.seq_mgmt << IEEE80211_SEQ_NUM_SHIFT));
	ifc->tx.seq_mgmt = (ifc->tx.seq_mgmt + 1) & 0x0fff;
	sim_link_tx(ifc, frame, len, true, 0);
}

void sim_tx_flush(struct sim_iface *ifc)
{
	struct sim_tx *tx = &ifc->tx;
	if (tx->inflight) {
		struct sim_txf *f = tx->inflight;
		tx->inflight = NULL;
		loop_timer_disarm(tx->watchdog);
		complete(ifc, f, false);
	}
	for (unsigned q = 0; q < SIM_TXQ_COUNT; q++) {
		while (tx->q[q].head) {
			tx->q[q].dropped++;
			complete(ifc, dequeue(ifc, q, NULL), false);
		}
	}
}

/* A station removed from the AP: what is still queued for it (data and
 * EAPOL) is dropped, its TX status not acked, as mac80211 purges a
 * station's queues when the station is destroyed. Management frames stay
 * (mac80211 does not queue those per station). The frame on the air goes on. */
void sim_tx_purge_peer(struct sim_iface *ifc, const uint8_t addr[SIM_ADDR_LEN])
{
	for (unsigned q = 0; q < SIM_TXQ_COUNT; q++) {
		struct sim_txf *prev = NULL;
		for (struct sim_txf *f = ifc->tx.q[q].head; f;) {
			struct sim_txf *next = f->next;
			bool theirs = (f->kind == SIM_TXF_DATA || f->kind == SIM_TXF_EAPOL) &&
				      f->len >= 10 && memcmp(f->frame + 4, addr, SIM_ADDR_LEN) == 0;
			if (theirs) {
				ifc->tx.q[q].dropped++;
				complete(ifc, dequeue(ifc, q, prev), false);
			} else {
				prev = f;
			}
			f = next;
		}
	}
}

void sim_tx_free(struct sim_iface *ifc)
{
	/* Only after sim_tx_flush(): nothing is left but the sources. */
	loop_timer_free(ifc->tx.watchdog);
	loop_idle_free(ifc->tx.kick);
	ifc->tx.watchdog = NULL;
	ifc->tx.kick = NULL;
}

int sim_get_queue_state(void *priv, uint32_t ifindex, struct driver_queue_state *q)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc || !q)
		return -ENODEV;
	memset(q, 0, sizeof(*q));
	for (int ac = 0; ac < DRIVER_AC_COUNT; ac++) {
		const struct sim_txq *tq = &ifc->tx.q[ac];
		q->ac[ac] = (struct driver_queue_stats){ .length = tq->len, .limit = tq->limit,
							 .stopped = tq->stopped,
							 .transmitted = tq->transmitted,
							 .dropped = tq->dropped };
	}
	return 0;
}

/* The channel a management frame must go out on: freq, or the interface's
 * own. Tunes an idle interface to freq (off-channel TX). */
static int mgmt_channel(struct sim_iface *ifc, uint32_t freq, uint32_t *out)
{
	uint32_t cur = ifc->oper_freq ? ifc->oper_freq : ifc->link.tuned_freq;
	if (freq == 0 || freq == cur) {
		if (!cur)
			return -ENOLINK; /* not on any channel */
		*out = cur;
		return 0;
	}
	int err = sim_chan_check(ifc->sim, freq, false);
	if (err)
		return err;
	if (ifc->ap.started || sim_mlme_connected(ifc))
		return -EBUSY; /* the interface holds its channel */
	sim_iface_set_home(ifc, freq);
	*out = freq;
	return 0;
}

int sim_tx_mgmt(void *priv, uint32_t ifindex, uint32_t freq, const uint8_t *frame,
		size_t len, bool no_ack, uint64_t *cookie)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	uint32_t chan = 0;
	if (!ifc)
		return -ENODEV;
	if (!ifc->up)
		return -ENETDOWN;
	/* The role built it (with daemon/codec); we only need a header. */
	if (!frame || len < IEEE80211_MGMT_HDR_LEN || len > SIM_MAX_FRAME ||
	    IEEE80211_FC_GET_TYPE(get_le16(frame)) != IEEE80211_FTYPE_MGMT)
		return -EINVAL;
	int err = mgmt_channel(ifc, freq, &chan);
	if (err)
		return err;
	uint64_t c = sim_next_cookie(sim);
	err = sim_tx_enqueue(ifc, SIM_TXQ_MGMT, SIM_TXF_MGMT, frame, len, chan,
			     no_ack || sim_addr_is_group(frame + 4), false, 0, c);
	if (err)
		return err;
	if (cookie)
		*cookie = c;
	return 0;
}
