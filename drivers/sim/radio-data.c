/* Data frames: 802.3 payloads in, QoS Data MPDUs with an LLC/SNAP header
 * out, and back. The controlled port is enforced on both sides: until a
 * peer is authorized only EAPOL (ethertype 0x888e) passes. */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/codec/codec_err.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <string.h>

#define ETH_P_IPV4_SIM 0x0800
#define ETH_P_IPV6_SIM 0x86dd
#define ETH_P_VLAN_SIM 0x8100
#define SIM_DATA_HDR_LEN 26 /* three addresses and QoS Control */
#define SIM_LLC_LEN 8
#define SIM_EAPOL_PRIORITY 7 /* control port frames go as voice, as mac80211 sends them */

static const uint8_t llc_snap[6] = { 0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00 };

uint8_t sim_classify(uint16_t ethertype, const uint8_t *payload, size_t len)
{
	uint8_t dscp;
	switch (ethertype) {
	case ETH_P_VLAN_SIM:
		return len >= 2 ? payload[0] >> 5 : 0;
	case ETH_P_IPV4_SIM:
		if (len < 20 || payload[0] >> 4 != 4)
			return 0;
		dscp = payload[1] >> 2;
		break;
	case ETH_P_IPV6_SIM:
		if (len < 40 || payload[0] >> 4 != 6)
			return 0;
		dscp = (uint8_t)(((payload[0] & 0x0f) << 4 | payload[1] >> 4) >> 2);
		break;
	default:
		return 0;
	}
	return dscp >> 3; /* the class selector (precedence) bits */
}

/* Who a frame from ifc to dst goes through: the peer whose port, keys and
 * counters apply (NULL for an AP's group-addressed frame). */
static int route(struct sim_iface *ifc, const uint8_t *dst, struct sim_peer **peer)
{
	*peer = NULL;
	switch (ifc->type) {
	case DRIVER_IFTYPE_STATION:
		if (ifc->mlme.state != SIM_MLME_ASSOCIATED)
			return -ENOTCONN;
		*peer = sim_peer_find(ifc, ifc->mlme.bssid);
		return *peer ? 0 : -ENOTCONN;
	case DRIVER_IFTYPE_AP:
		if (!ifc->ap.started)
			return -ENOTCONN;
		if (sim_addr_is_group(dst))
			return 0;
		*peer = sim_peer_find(ifc, dst);
		if (!*peer || !((*peer)->flags & DRIVER_STA_ASSOCIATED))
			return -ENOTCONN; /* class 3 frames only to associated stations */
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static size_t build(struct sim_iface *ifc, uint8_t *out, size_t cap, const uint8_t *dst,
		    const uint8_t *src, uint16_t ethertype, const uint8_t *payload, size_t len,
		    uint8_t tid)
{
	struct wbuf w = wbuf_init(out, cap);
	bool sta = ifc->type == DRIVER_IFTYPE_STATION;
	struct data_hdr h = {
		.fc = IEEE80211_FC(IEEE80211_FTYPE_DATA, IEEE80211_STYPE_QOS_DATA) |
		      (sta ? IEEE80211_FC_TODS : IEEE80211_FC_FROMDS),
		.addr1 = sta ? ifc->mlme.bssid : dst, /* RA */
		.addr2 = ifc->addr,                   /* TA */
		.addr3 = sta ? dst : src,
		.qos_ctrl = tid,
	};
	if (sim_addr_is_group(dst))
		h.qos_ctrl |= 0x0020; /* Ack Policy: No Ack */
	if (data_hdr_build(&w, &h) != CODEC_OK)
		return 0;
	wbuf_put(&w, llc_snap, sizeof(llc_snap));
	wbuf_be16(&w, ethertype);
	wbuf_put(&w, payload, len);
	return w.bad ? 0 : w.len;
}

int sim_data_send(struct sim_iface *ifc, const uint8_t *dst, const uint8_t *src,
		  uint16_t ethertype, const uint8_t *payload, size_t len, uint8_t priority,
		  enum sim_txf_kind kind, bool unencrypted, uint64_t cookie)
{
	struct sim_peer *peer;
	uint8_t frame[SIM_MAX_FRAME];
	int err = route(ifc, dst, &peer);
	if (err)
		return err;
	if (ifc->type == DRIVER_IFTYPE_STATION && memcmp(src, ifc->addr, SIM_ADDR_LEN) != 0)
		return -EADDRNOTAVAIL; /* three addresses cannot carry a bridged source */
	/* Room for the largest protection overhead (8 + 16). */
	if (len > SIM_MAX_FRAME - SIM_DATA_HDR_LEN - SIM_LLC_LEN - 24)
		return -EMSGSIZE;
	priority &= 7;
	unsigned q = kind == SIM_TXF_EAPOL ? SIM_TXQ_MGMT : driver_ac_from_priority(priority);
	if (ethertype != SIM_ETH_P_EAPOL && peer && !(peer->flags & DRIVER_STA_AUTHORIZED)) {
		/* Like hardware: a closed port swallows the frame. */
		ifc->tx.q[q].dropped++;
		log_verbose("%s: port closed, data frame dropped", ifc->name);
		return 0;
	}
	size_t n = build(ifc, frame, sizeof(frame), dst, src, ethertype, payload, len, priority);
	if (!n)
		return -EMSGSIZE;
	return sim_tx_enqueue(ifc, q, kind, frame, n, ifc->oper_freq, false, !unencrypted,
			      priority, cookie);
}

static int data_op_check(struct sim_iface *ifc, const uint8_t *dst, const uint8_t *payload,
			 size_t len)
{
	if (!ifc)
		return -ENODEV;
	if (!ifc->up)
		return -ENETDOWN;
	if (!dst || (!payload && len))
		return -EINVAL;
	return 0;
}

int sim_tx_data(void *priv, uint32_t ifindex, const uint8_t *dst, uint16_t ethertype,
		const uint8_t *payload, size_t len, uint8_t priority)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	int err = data_op_check(ifc, dst, payload, len);
	if (err)
		return err;
	return sim_data_send(ifc, dst, ifc->addr, ethertype, payload, len, priority,
			     SIM_TXF_DATA, false, 0);
}

int sim_tx_eapol(void *priv, uint32_t ifindex, const uint8_t *dst, const uint8_t *body,
		 size_t len, bool unencrypted, uint64_t *cookie)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	int err = data_op_check(ifc, dst, body, len);
	if (err)
		return err;
	uint64_t c = sim_next_cookie(sim);
	err = sim_data_send(ifc, dst, ifc->addr, SIM_ETH_P_EAPOL, body, len, SIM_EAPOL_PRIORITY,
			    SIM_TXF_EAPOL, unencrypted, c);
	if (err)
		return err;
	if (cookie)
		*cookie = c;
	return 0;
}

void sim_data_deliver(struct sim_iface *ifc, struct sim_peer *peer, const uint8_t *da,
		      const uint8_t *sa, uint16_t ethertype, const uint8_t *payload,
		      size_t len, uint8_t tid, bool encrypted)
{
	if (ethertype != SIM_ETH_P_EAPOL && ifc->tap) {
		sim_tap_write(ifc, da, sa, ethertype, payload, len);
		return;
	}
	struct driver_event ev = {
		.type = ethertype == SIM_ETH_P_EAPOL ? DRIVER_EV_RX_EAPOL : DRIVER_EV_RX_DATA,
		.radio_id = ifc->radio->id,
		.ifindex = ifc->ifindex,
		.u.data = { .src = sa, .dst = da, .ethertype = ethertype, .body = payload,
			    .len = len, .priority = tid, .was_encrypted = encrypted },
	};
	sim_emit(ifc->sim, &ev);
}
