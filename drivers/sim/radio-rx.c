/* The receive path: what the hardware and mac80211's RX handlers do with a
 * frame the medium delivered. Every frame is outside bytes: the header is
 * parsed bounds-checked, then filtered by address and role (class 3 data
 * from unknown or unassociated peers is dropped), duplicates are dropped,
 * protected data is decrypted with its key and replay-checked, the LLC/SNAP
 * header is checked, the controlled port is enforced, and what survives
 * goes up as an event or out to the TAP. Each drop is counted: on the peer
 * when there is one, else on the interface (sim.h).
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/codec/codec_err.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define SIM_MGMT_SEQ_SLOT SIM_RX_SLOTS
#define SIM_MAX_MATCH 32

static bool for_us(const struct sim_iface *ifc, const uint8_t *a1)
{
	return sim_addr_is_group(a1) || memcmp(a1, ifc->addr, SIM_ADDR_LEN) == 0;
}

/* Retransmissions of a frame already received (802.11-2020 10.3.2.14). */
static bool duplicate(struct sim_peer *p, uint16_t fc, uint16_t seq, unsigned slot)
{
	if ((fc & IEEE80211_FC_RETRY) && p->seq_valid[slot] && p->last_seq[slot] == seq)
		return true;
	p->last_seq[slot] = seq;
	p->seq_valid[slot] = true;
	return false;
}

static void touch(const struct sim_iface *ifc, struct sim_peer *p, const struct sim_rx *rx)
{
	p->last_rx_us = loop_now_us(ifc->sim->loop);
	p->signal_mbm = rx->signal_mbm;
	p->inactive_reported = false;
}

/* ---- management frame registrations ---- */

int sim_register_mgmt(void *priv, uint32_t ifindex, uint16_t frame_type,
		      const uint8_t *match, size_t match_len)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if ((frame_type & ~0x00fcu) || IEEE80211_FC_GET_TYPE(frame_type) != IEEE80211_FTYPE_MGMT ||
	    match_len > SIM_MAX_MATCH || (!match && match_len))
		return -EINVAL;
	for (struct sim_mgmt_reg *r = ifc->regs; r; r = r->next)
		if (r->frame_type == frame_type && r->match_len == match_len &&
		    (!match_len || memcmp(r->match, match, match_len) == 0))
			return -EALREADY;
	struct sim_mgmt_reg *r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->frame_type = frame_type;
	r->match_len = match_len;
	if (match_len)
		memcpy(r->match, match, match_len);
	r->next = ifc->regs;
	ifc->regs = r;
	return 0;
}

void sim_regs_free(struct sim_iface *ifc)
{
	while (ifc->regs) {
		struct sim_mgmt_reg *r = ifc->regs;
		ifc->regs = r->next;
		free(r);
	}
}

static void emit_mgmt(struct sim_iface *ifc, const uint8_t *frame, size_t len,
		      const struct sim_rx *rx)
{
	struct driver_event ev = {
		.type = DRIVER_EV_RX_MGMT,
		.radio_id = ifc->radio->id,
		.ifindex = ifc->ifindex,
		.u.mgmt = { .frame = frame, .len = len, .freq_mhz = rx->freq,
			    .signal_mbm = rx->signal_mbm },
	};
	sim_emit(ifc->sim, &ev);
}

bool sim_rx_mgmt_up(struct sim_iface *ifc, const struct mgmt_frame *m, const uint8_t *frame,
		    size_t len, const struct sim_rx *rx)
{
	uint16_t type = m->fc & 0x00fc;
	for (const struct sim_mgmt_reg *r = ifc->regs; r; r = r->next) {
		if (r->frame_type != type || r->match_len > m->body_len ||
		    (r->match_len && memcmp(r->match, m->body, r->match_len) != 0))
			continue;
		emit_mgmt(ifc, frame, len, rx);
		return true;
	}
	return false;
}

/* ---- management frames ---- */

static bool ap_wants(struct sim_iface *ifc, const struct mgmt_frame *m)
{
	bool bssid_ok = memcmp(m->bssid, ifc->addr, SIM_ADDR_LEN) == 0;
	if (m->subtype == IEEE80211_STYPE_PROBE_REQ || m->subtype == IEEE80211_STYPE_ACTION ||
	    m->subtype == IEEE80211_STYPE_ACTION_NO_ACK)
		return bssid_ok || sim_addr_is_group(m->bssid); /* wildcard BSSID */
	return bssid_ok;
}

/* A management frame that daemon/codec's parser accepted: fixed fields
 * present, elements well framed. */
static void rx_mgmt(struct sim_iface *ifc, const struct mgmt_frame *m, const uint8_t *frame,
		    size_t len, const struct sim_rx *rx)
{
	bool bcn = m->subtype == IEEE80211_STYPE_BEACON ||
		   m->subtype == IEEE80211_STYPE_PROBE_RESP;
	if (bcn)
		sim_scan_rx(ifc, m, rx);
	if (!for_us(ifc, m->da)) {
		ifc->stats.rx_not_for_us++;
		return;
	}
	struct sim_peer *p = sim_peer_find(ifc, m->sa);
	if (p) {
		if (duplicate(p, m->fc, m->seq_ctrl, SIM_MGMT_SEQ_SLOT)) {
			ifc->stats.rx_duplicate++;
			return;
		}
		touch(ifc, p, rx);
	}
	uint8_t plain[SIM_MAX_FRAME];
	size_t plain_len = 0;
	struct mgmt_frame clear;
	switch (sim_pmf_rx(ifc, p, m, frame, len, rx, plain, &plain_len)) {
	case SIM_PMF_RX_PASS:
		break;
	case SIM_PMF_RX_CLEARTEXT:
		if (mgmt_parse(plain, plain_len, &clear) != CODEC_OK) {
			ifc->stats.rx_malformed++;
			return;
		}
		m = &clear;
		frame = plain;
		len = plain_len;
		break;
	case SIM_PMF_RX_DROP:
	case SIM_PMF_RX_UNPROT_LEAVE:
		return;
	}
	if (ifc->type == DRIVER_IFTYPE_STATION) {
		sim_mlme_rx(ifc, m, frame, len, rx);
		return;
	}
	if (!ap_wants(ifc, m)) {
		ifc->stats.rx_not_for_us++;
		return;
	}
	if (m->subtype == IEEE80211_STYPE_PROBE_REQ && ifc->ap.started &&
	    sim_ap_probe_offload(ifc, m))
		return;
	if (!bcn)
		sim_rx_mgmt_up(ifc, m, frame, len, rx);
}

/* ---- data frames ---- */

/* Resolves addressing for the interface's role: the peer that sent it.
 * Returns false (counted) when the frame is not ours to take. */
static bool data_route(struct sim_iface *ifc, const struct data_hdr *d, struct sim_peer **peer)
{
	bool sta = ifc->type == DRIVER_IFTYPE_STATION;
	if (!for_us(ifc, d->ra) || d->to_ds == d->from_ds || d->to_ds == sta) {
		ifc->stats.rx_not_for_us++;
		return false;
	}
	*peer = sim_peer_find(ifc, d->ta);
	bool associated = *peer && ((*peer)->flags & DRIVER_STA_ASSOCIATED);
	if (sta)
		associated = associated && ifc->mlme.state == SIM_MLME_ASSOCIATED &&
			     memcmp(d->ta, ifc->mlme.bssid, SIM_ADDR_LEN) == 0;
	if (!associated) {
		ifc->stats.rx_class3++;
		return false;
	}
	if (sta && memcmp(d->sa, ifc->addr, SIM_ADDR_LEN) == 0) {
		ifc->stats.rx_not_for_us++; /* our own broadcast, relayed by the AP */
		return false;
	}
	if (!sta && memcmp(d->ra, ifc->addr, SIM_ADDR_LEN) != 0) {
		ifc->stats.rx_not_for_us++; /* an AP takes only frames sent to its BSSID */
		return false;
	}
	return true;
}

static struct sim_key *rx_key(struct sim_iface *ifc, struct sim_peer *peer,
			      const struct data_hdr *d)
{
	int kid = sim_key_id_of(d->body, d->body_len);
	if (kid < 0)
		return NULL;
	struct sim_key *k = sim_addr_is_group(d->ra) ? &ifc->group[kid]
			    : kid <= 1		      ? &peer->ptk[kid]
						      : NULL;
	return k && k->used ? k : NULL;
}

static unsigned rx_slot(const struct data_hdr *d)
{
	return d->qos ? d->tid : SIM_RX_SLOT_NONQOS;
}

/* Decrypts a protected frame into plain. Returns the plaintext length, or
 * -1 when the frame was dropped (and counted). */
static ssize_t unprotect(struct sim_iface *ifc, struct sim_peer *peer, const struct data_hdr *d,
			 const uint8_t *frame, size_t len, uint8_t *plain)
{
	struct sim_key *k = rx_key(ifc, peer, d);
	size_t plain_len = 0;
	if (!k) {
		ifc->stats.rx_no_key++;
		peer->rx_dropped_decrypt++;
		return -1;
	}
	switch (sim_key_decrypt(k, frame, len, d->hdr_len, rx_slot(d), plain, &plain_len)) {
	case SIM_RX_OK:
		return (ssize_t)plain_len;
	case SIM_RX_REPLAY:
		ifc->stats.rx_replay++;
		peer->rx_dropped_replay++;
		return -1;
	case SIM_RX_BAD_MIC:
		ifc->stats.rx_bad_mic++;
		peer->rx_dropped_decrypt++;
		return -1;
	case SIM_RX_MALFORMED:
		ifc->stats.rx_malformed++;
		peer->rx_dropped_decrypt++;
		return -1;
	}
	return -1;
}

/* A key exists that this frame should have been protected with. */
static bool expects_protection(struct sim_iface *ifc, struct sim_peer *peer,
			       const struct data_hdr *d)
{
	if (sim_addr_is_group(d->ra)) {
		for (int i = 0; i < 4; i++)
			if (ifc->group[i].used)
				return true;
		return false;
	}
	return peer->ptk[0].used || peer->ptk[1].used;
}

static void rx_msdu(struct sim_iface *ifc, struct sim_peer *peer, const struct data_hdr *d,
		    const uint8_t *msdu, size_t len)
{
	static const uint8_t snap[6] = { 0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00 };
	if (len < 8 || memcmp(msdu, snap, 5) != 0 || (msdu[5] != 0x00 && msdu[5] != 0xf8)) {
		ifc->stats.rx_malformed++;
		return;
	}
	uint16_t ethertype = get_be16(msdu + 6);
	const uint8_t *payload = msdu + 8;
	size_t plen = len - 8;
	if (ethertype != SIM_ETH_P_EAPOL) {
		if (!d->protected_frame && expects_protection(ifc, peer, d)) {
			ifc->stats.rx_no_key++;
			peer->rx_dropped_decrypt++;
			return;
		}
		if (!(peer->flags & DRIVER_STA_AUTHORIZED)) {
			ifc->stats.rx_unauth++;
			peer->rx_dropped_unauth++;
			return;
		}
	}
	peer->rx_packets++;
	peer->rx_bytes += plen;
	uint8_t tid = d->qos ? (uint8_t)(d->tid & 7) : 0;
	if (ifc->type == DRIVER_IFTYPE_AP &&
	    sim_ap_forward(ifc, d->da, d->sa, ethertype, payload, plen, tid))
		return;
	sim_data_deliver(ifc, peer, d->da, d->sa, ethertype, payload, plen, tid,
			 d->protected_frame);
}

static void rx_data(struct sim_iface *ifc, const struct data_hdr *d, const uint8_t *frame,
		    size_t len, const struct sim_rx *rx)
{
	struct sim_peer *peer = NULL;
	if (d->qos && (d->tid > 7 || d->amsdu)) {
		ifc->stats.rx_malformed++; /* A-MSDU and TSPEC TIDs are not simulated */
		return;
	}
	if (!data_route(ifc, d, &peer))
		return;
	if (duplicate(peer, d->fc, d->seq_ctrl, rx_slot(d))) {
		ifc->stats.rx_duplicate++;
		return;
	}
	touch(ifc, peer, rx);
	if (d->subtype & IEEE80211_STYPE_NODATA_BIT)
		return; /* (QoS) Null: only keeps the peer alive */
	if (!d->protected_frame) {
		rx_msdu(ifc, peer, d, d->body, d->body_len);
		return;
	}
	uint8_t *plain = malloc(len);
	if (!plain)
		return;
	ssize_t n = unprotect(ifc, peer, d, frame, len, plain);
	if (n >= 0)
		rx_msdu(ifc, peer, d, plain, (size_t)n);
	free(plain);
}

/* Parses with daemon/codec and dispatches by role. */
static void rx_parsed(struct sim_iface *ifc, const uint8_t *frame, size_t len,
		      const struct sim_rx *rx)
{
	uint16_t fc = get_le16(frame);
	if (IEEE80211_FC_GET_TYPE(fc) == IEEE80211_FTYPE_MGMT) {
		struct mgmt_frame m;
		if (mgmt_parse(frame, len, &m) != CODEC_OK) {
			ifc->stats.rx_malformed++;
			return;
		}
		rx_mgmt(ifc, &m, frame, len, rx);
	} else if (IEEE80211_FC_GET_TYPE(fc) == IEEE80211_FTYPE_DATA) {
		struct data_hdr d;
		if (data_hdr_parse(frame, len, &d) != CODEC_OK) {
			ifc->stats.rx_malformed++;
			return;
		}
		if (ifc->type == DRIVER_IFTYPE_STATION || ifc->type == DRIVER_IFTYPE_AP)
			rx_data(ifc, &d, frame, len, rx);
	}
	/* Control and extension frames: the medium already did the ACKs. */
}

void sim_rx_frame(struct sim_iface *ifc, const uint8_t *frame, size_t len,
		  const struct sim_rx *rx_in)
{
	struct sim_rx rx = *rx_in;
	ifc->stats.rx_frames++;
	if (!ifc->up || !frame)
		return;
	if (!rx.freq)
		rx.freq = ifc->link.tuned_freq ? ifc->link.tuned_freq : ifc->oper_freq;
	if (len < IEEE80211_MGMT_HDR_LEN || len > SIM_MAX_FRAME ||
	    (get_le16(frame) & IEEE80211_FC_VERSION_MASK)) {
		ifc->stats.rx_malformed++;
		return;
	}
	if (ifc->type == DRIVER_IFTYPE_MONITOR) {
		/* A monitor hears every management frame, well formed or not. */
		if (IEEE80211_FC_GET_TYPE(get_le16(frame)) == IEEE80211_FTYPE_MGMT)
			emit_mgmt(ifc, frame, len, &rx);
		return;
	}
	rx_parsed(ifc, frame, len, &rx);
}
