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
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define ETH_P_EAPOL_SIM 0x888e
#define SIM_MGMT_SEQ_SLOT SIM_RX_SLOTS
#define SIM_MAX_MATCH 32

static bool for_us(const struct sim_iface *ifc, const uint8_t *a1)
{
	return sim_addr_is_group(a1) || memcmp(a1, ifc->addr, SIM_ADDR_LEN) == 0;
}

/* Retransmissions of a frame already received (802.11-2020 10.3.2.14). */
static bool duplicate(struct sim_peer *p, const struct sim_hdr *h, unsigned slot)
{
	uint16_t seq = h->seq_ctrl;
	if (h->retry && p->seq_valid[slot] && p->last_seq[slot] == seq)
		return true;
	p->last_seq[slot] = seq;
	p->seq_valid[slot] = true;
	return false;
}

static void touch(struct sim_peer *p, const struct sim_rx *rx)
{
	p->last_rx_us = loop_now_us();
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

bool sim_rx_mgmt_up(struct sim_iface *ifc, const struct sim_hdr *h, const uint8_t *frame,
		    size_t len, const struct sim_rx *rx)
{
	uint16_t type = h->fc & 0x00fc;
	for (const struct sim_mgmt_reg *r = ifc->regs; r; r = r->next) {
		if (r->frame_type != type || r->match_len > h->body_len ||
		    (r->match_len && memcmp(r->match, h->body, r->match_len) != 0))
			continue;
		emit_mgmt(ifc, frame, len, rx);
		return true;
	}
	return false;
}

/* ---- management frames ---- */

static bool ap_wants(struct sim_iface *ifc, const struct sim_hdr *h)
{
	bool bssid_ok = memcmp(h->a3, ifc->addr, SIM_ADDR_LEN) == 0;
	if (h->subtype == IEEE80211_STYPE_PROBE_REQ || h->subtype == IEEE80211_STYPE_ACTION ||
	    h->subtype == IEEE80211_STYPE_ACTION_NO_ACK)
		return bssid_ok || sim_addr_is_group(h->a3); /* wildcard BSSID */
	return bssid_ok;
}

/* Octets of fixed fields each management subtype must carry before its
 * elements (802.11-2020 9.3.3); a shorter body is malformed. */
static size_t fixed_len(uint8_t subtype)
{
	switch (subtype) {
	case IEEE80211_STYPE_BEACON:
	case IEEE80211_STYPE_PROBE_RESP:
		return 12;
	case IEEE80211_STYPE_AUTH:
	case IEEE80211_STYPE_ASSOC_RESP:
	case IEEE80211_STYPE_REASSOC_RESP:
		return 6;
	case IEEE80211_STYPE_ASSOC_REQ:
		return 4;
	case IEEE80211_STYPE_REASSOC_REQ:
		return 10;
	case IEEE80211_STYPE_DEAUTH:
	case IEEE80211_STYPE_DISASSOC:
		return 2;
	case IEEE80211_STYPE_ACTION:
	case IEEE80211_STYPE_ACTION_NO_ACK:
		return 1;
	default:
		return 0;
	}
}

static void rx_mgmt(struct sim_iface *ifc, const struct sim_hdr *h, const uint8_t *frame,
		    size_t len, const struct sim_rx *rx)
{
	if (h->body_len < fixed_len(h->subtype) && !h->protected_frame) {
		ifc->stats.rx_malformed++;
		return;
	}
	bool bcn = h->subtype == IEEE80211_STYPE_BEACON ||
		   h->subtype == IEEE80211_STYPE_PROBE_RESP;
	if (bcn)
		sim_scan_rx(ifc, h, rx);
	if (!for_us(ifc, h->a1)) {
		ifc->stats.rx_not_for_us++;
		return;
	}
	struct sim_peer *p = sim_peer_find(ifc, h->a2);
	if (p) {
		if (duplicate(p, h, SIM_MGMT_SEQ_SLOT)) {
			ifc->stats.rx_duplicate++;
			return;
		}
		touch(p, rx);
	}
	if (h->protected_frame && h->subtype != IEEE80211_STYPE_AUTH) {
		ifc->stats.rx_no_key++; /* management frame protection is not simulated */
		return;
	}
	if (ifc->type == DRIVER_IFTYPE_STATION) {
		sim_mlme_rx(ifc, h, frame, len, rx);
		return;
	}
	if (!ap_wants(ifc, h)) {
		ifc->stats.rx_not_for_us++;
		return;
	}
	if (h->subtype == IEEE80211_STYPE_PROBE_REQ && ifc->ap.started &&
	    sim_ap_probe_offload(ifc, h))
		return;
	if (!bcn)
		sim_rx_mgmt_up(ifc, h, frame, len, rx);
}

/* ---- data frames ---- */

/* Resolves addressing for the interface's role: the peer that sent it and
 * the DA/SA of the MSDU. Returns false (counted) when the frame is not ours
 * to take. */
static bool data_route(struct sim_iface *ifc, const struct sim_hdr *h, struct sim_peer **peer,
		       const uint8_t **da, const uint8_t **sa)
{
	bool sta = ifc->type == DRIVER_IFTYPE_STATION;
	if (!for_us(ifc, h->a1) || h->to_ds == h->from_ds || h->to_ds == sta) {
		ifc->stats.rx_not_for_us++;
		return false;
	}
	*peer = sim_peer_find(ifc, h->a2);
	bool associated = *peer && ((*peer)->flags & DRIVER_STA_ASSOCIATED);
	if (sta)
		associated = associated && ifc->mlme.state == SIM_MLME_ASSOCIATED &&
			     memcmp(h->a2, ifc->mlme.bssid, SIM_ADDR_LEN) == 0;
	if (!associated) {
		ifc->stats.rx_class3++;
		return false;
	}
	*da = sta ? h->a1 : h->a3;
	*sa = sta ? h->a3 : h->a2;
	if (sta && memcmp(*sa, ifc->addr, SIM_ADDR_LEN) == 0) {
		ifc->stats.rx_not_for_us++; /* our own broadcast, relayed by the AP */
		return false;
	}
	if (!sta && memcmp(h->a1, ifc->addr, SIM_ADDR_LEN) != 0) {
		ifc->stats.rx_not_for_us++; /* an AP takes only frames sent to its BSSID */
		return false;
	}
	return true;
}

static struct sim_key *rx_key(struct sim_iface *ifc, struct sim_peer *peer,
			      const struct sim_hdr *h)
{
	int kid = sim_key_id_of(h->body, h->body_len);
	if (kid < 0)
		return NULL;
	struct sim_key *k = sim_addr_is_group(h->a1) ? &ifc->group[kid]
			    : kid <= 1		      ? &peer->ptk[kid]
						      : NULL;
	return k && k->used ? k : NULL;
}

/* Decrypts a protected frame into plain. Returns the plaintext length, or
 * -1 when the frame was dropped (and counted). */
static ssize_t unprotect(struct sim_iface *ifc, struct sim_peer *peer, const struct sim_hdr *h,
			 const uint8_t *frame, size_t len, uint8_t *plain)
{
	struct sim_key *k = rx_key(ifc, peer, h);
	size_t plain_len = 0;
	if (!k) {
		ifc->stats.rx_no_key++;
		peer->rx_dropped_decrypt++;
		return -1;
	}
	unsigned slot = h->qos ? h->tid : SIM_RX_SLOT_NONQOS;
	switch (sim_key_decrypt(k, frame, len, h->hdr_len, slot, plain, &plain_len)) {
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
			       const struct sim_hdr *h)
{
	if (sim_addr_is_group(h->a1)) {
		for (int i = 0; i < 4; i++)
			if (ifc->group[i].used)
				return true;
		return false;
	}
	return peer->ptk[0].used || peer->ptk[1].used;
}

static void rx_msdu(struct sim_iface *ifc, struct sim_peer *peer, const struct sim_hdr *h,
		    const uint8_t *da, const uint8_t *sa, const uint8_t *msdu, size_t len)
{
	static const uint8_t snap[6] = { 0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00 };
	if (len < 8 || memcmp(msdu, snap, 5) != 0 || (msdu[5] != 0x00 && msdu[5] != 0xf8)) {
		ifc->stats.rx_malformed++;
		return;
	}
	uint16_t ethertype = get_be16(msdu + 6);
	const uint8_t *payload = msdu + 8;
	size_t plen = len - 8;
	if (ethertype != ETH_P_EAPOL_SIM) {
		if (!h->protected_frame && expects_protection(ifc, peer, h)) {
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
	uint8_t tid = h->qos ? (uint8_t)(h->tid & 7) : 0;
	if (ifc->type == DRIVER_IFTYPE_AP &&
	    sim_ap_forward(ifc, da, sa, ethertype, payload, plen, tid))
		return;
	sim_data_deliver(ifc, peer, da, sa, ethertype, payload, plen, tid, h->protected_frame);
}

static void rx_data(struct sim_iface *ifc, const struct sim_hdr *h, const uint8_t *frame,
		    size_t len, const struct sim_rx *rx)
{
	struct sim_peer *peer = NULL;
	const uint8_t *da = NULL, *sa = NULL;
	if (!data_route(ifc, h, &peer, &da, &sa))
		return;
	unsigned slot = h->qos ? h->tid : SIM_RX_SLOT_NONQOS;
	if (duplicate(peer, h, slot)) {
		ifc->stats.rx_duplicate++;
		return;
	}
	touch(peer, rx);
	if (h->subtype & IEEE80211_STYPE_NODATA_BIT)
		return; /* (QoS) Null: only keeps the peer alive */
	if (h->qos && (h->tid > 7 || (h->qos_ctrl & IEEE80211_QOS_AMSDU_PRESENT))) {
		ifc->stats.rx_malformed++; /* A-MSDU and TSPEC TIDs are not simulated */
		return;
	}
	if (!h->protected_frame) {
		rx_msdu(ifc, peer, h, da, sa, h->body, h->body_len);
		return;
	}
	uint8_t *plain = malloc(len);
	if (!plain)
		return;
	ssize_t n = unprotect(ifc, peer, h, frame, len, plain);
	if (n >= 0)
		rx_msdu(ifc, peer, h, da, sa, plain, (size_t)n);
	free(plain);
}

void sim_rx_frame(struct sim_iface *ifc, const uint8_t *frame, size_t len,
		  const struct sim_rx *rx_in)
{
	struct sim_hdr h;
	struct sim_rx rx = *rx_in;
	ifc->stats.rx_frames++;
	if (!ifc->up || !frame)
		return;
	if (!rx.freq)
		rx.freq = ifc->link.tuned_freq ? ifc->link.tuned_freq : ifc->oper_freq;
	int err = len > SIM_MAX_FRAME ? -EBADMSG : sim_hdr_parse(frame, len, &h);
	if (err == -EPROTONOSUPPORT)
		return; /* control frames: the medium already did the ACKs */
	if (err) {
		ifc->stats.rx_malformed++;
		return;
	}
	if (ifc->type == DRIVER_IFTYPE_MONITOR) {
		if (h.type == IEEE80211_FTYPE_MGMT)
			emit_mgmt(ifc, frame, len, &rx); /* a monitor hears everything */
		return;
	}
	if (h.type == IEEE80211_FTYPE_MGMT)
		rx_mgmt(ifc, &h, frame, len, &rx);
	else if (ifc->type == DRIVER_IFTYPE_STATION || ifc->type == DRIVER_IFTYPE_AP)
		rx_data(ifc, &h, frame, len, &rx);
}
