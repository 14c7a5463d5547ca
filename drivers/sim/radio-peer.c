/* Peers of an interface: the AP's station table, or a station's BSS.
 *
 * A peer carries what the hardware keeps per station: flags (authenticated,
 * associated, authorized = controlled port open), its pairwise keys, the
 * duplicate-detection cache, counters and the last signal. Peers hash on
 * all six address octets, so addresses that differ in one octet only
 * spread as well as those that differ in many.
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static unsigned bucket(const uint8_t *addr)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (int i = 0; i < SIM_ADDR_LEN; i++)
		h = (h ^ addr[i]) * 16777619u;
	return (h ^ h >> 16) % SIM_PEER_BUCKETS;
}

struct sim_peer *sim_peer_find(struct sim_iface *ifc, const uint8_t *addr)
{
	for (struct sim_peer *p = ifc->peers[bucket(addr)]; p; p = p->next)
		if (memcmp(p->addr, addr, SIM_ADDR_LEN) == 0)
			return p;
	return NULL;
}

struct sim_peer *sim_peer_get(struct sim_iface *ifc, const uint8_t *addr)
{
	struct sim_peer *p = sim_peer_find(ifc, addr);
	if (p)
		return p;
	if (ifc->n_peers >= SIM_MAX_AP_STATIONS || sim_addr_is_group(addr))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	memcpy(p->addr, addr, SIM_ADDR_LEN);
	p->added_us = p->last_rx_us = loop_now_us(ifc->sim->loop);
	unsigned b = bucket(addr);
	p->next = ifc->peers[b];
	ifc->peers[b] = p;
	ifc->n_peers++;
	return p;
}

static void peer_free(struct sim_peer *p)
{
	sim_key_wipe(&p->ptk[0]);
	sim_key_wipe(&p->ptk[1]);
	free(p);
}

void sim_peer_del(struct sim_iface *ifc, const uint8_t *addr)
{
	for (struct sim_peer **pp = &ifc->peers[bucket(addr)]; *pp; pp = &(*pp)->next) {
		struct sim_peer *p = *pp;
		if (memcmp(p->addr, addr, SIM_ADDR_LEN) != 0)
			continue;
		*pp = p->next;
		ifc->n_peers--;
		peer_free(p);
		return;
	}
}

void sim_peers_flush(struct sim_iface *ifc)
{
	for (int b = 0; b < SIM_PEER_BUCKETS; b++) {
		while (ifc->peers[b]) {
			struct sim_peer *p = ifc->peers[b];
			ifc->peers[b] = p->next;
			peer_free(p);
		}
	}
	ifc->n_peers = 0;
}

void sim_peers_each(struct sim_iface *ifc,
		    void (*fn)(struct sim_iface *, struct sim_peer *, void *), void *data)
{
	for (int b = 0; b < SIM_PEER_BUCKETS; b++)
		for (struct sim_peer *p = ifc->peers[b]; p; p = p->next)
			fn(ifc, p, data);
}

int sim_sta_add(void *priv, uint32_t ifindex, const struct driver_sta_params *p)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (ifc->type != DRIVER_IFTYPE_AP)
		return -EOPNOTSUPP;
	if (!p || sim_addr_is_group(p->addr))
		return -EINVAL;
	if (sim_peer_find(ifc, p->addr))
		return -EEXIST;
	struct sim_peer *peer = sim_peer_get(ifc, p->addr);
	if (!peer)
		return ifc->n_peers >= SIM_MAX_AP_STATIONS ? -ENOSPC : -ENOMEM;
	peer->flags = p->flags;
	peer->aid = p->aid;
	peer->capability = p->capability;
	peer->listen_interval = p->listen_interval;
	log_debug("%s: station %02x:%02x:%02x:%02x:%02x:%02x added (aid %u)", ifc->name,
		  p->addr[0], p->addr[1], p->addr[2], p->addr[3], p->addr[4], p->addr[5], p->aid);
	return 0;
}

int sim_sta_set_flags(void *priv, uint32_t ifindex, const uint8_t *addr, uint32_t set,
		      uint32_t clear)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	struct sim_peer *p = addr ? sim_peer_find(ifc, addr) : NULL;
	if (!p)
		return -ENOENT;
	p->flags = (p->flags | set) & ~clear;
	return 0;
}

int sim_sta_del(void *priv, uint32_t ifindex, const uint8_t *addr)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (!addr || !sim_peer_find(ifc, addr))
		return -ENOENT;
	sim_peer_del(ifc, addr);
	sim_tx_purge_peer(ifc, addr);
	return 0;
}

int sim_sta_info(void *priv, uint32_t ifindex, const uint8_t *addr,
		 struct driver_sta_info *info)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	struct sim_peer *p = addr ? sim_peer_find(ifc, addr) : NULL;
	if (!p || !info)
		return -ENOENT;
	uint64_t now = loop_now_us(ifc->sim->loop);
	*info = (struct driver_sta_info){
		.flags = p->flags,
		.signal_mbm = p->signal_mbm,
		.inactive_ms = (uint32_t)((now - p->last_rx_us) / 1000u),
		.rx_packets = p->rx_packets,
		.tx_packets = p->tx_packets,
		.rx_bytes = p->rx_bytes,
		.tx_bytes = p->tx_bytes,
		.tx_retries = p->tx_retries,
		.tx_failed = p->tx_failed,
		.rx_dropped_replay = p->rx_dropped_replay,
		.rx_dropped_unauth = p->rx_dropped_unauth,
		.rx_dropped_decrypt = p->rx_dropped_decrypt,
		.connected_s = (uint32_t)((now - p->added_us) / 1000000u),
	};
	memcpy(info->addr, p->addr, SIM_ADDR_LEN);
	return 0;
}

/* A Null data frame (IEEE 802.11-2020 9.3.2.1, no body) from the AP to
 * an associated station; the medium's ACK is the answer, as mac80211's
 * probe_client does with a (QoS) Null frame. */
int sim_probe_client(void *priv, uint32_t ifindex, const uint8_t *addr, uint64_t *cookie)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (ifc->type != DRIVER_IFTYPE_AP || !ifc->ap.started)
		return -ENOTCONN;
	struct sim_peer *p = addr ? sim_peer_find(ifc, addr) : NULL;
	if (!p || !(p->flags & DRIVER_STA_ASSOCIATED))
		return -ENOENT;
	uint8_t frame[24] = { 0x48, 0x02 }; /* data, Null; From DS */
	memcpy(frame + 4, addr, SIM_ADDR_LEN);
	memcpy(frame + 10, ifc->addr, SIM_ADDR_LEN);
	memcpy(frame + 16, ifc->addr, SIM_ADDR_LEN);
	uint64_t c = sim_next_cookie(sim);
	int err = sim_tx_enqueue(ifc, DRIVER_AC_BE, SIM_TXF_PROBE, frame, sizeof(frame),
				 ifc->oper_freq, false, false, 0, c);
	if (err)
		return err;
	if (cookie)
		*cookie = c;
	return 0;
}

int sim_port_authorize(void *priv, uint32_t ifindex, const uint8_t *peer, bool on)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	struct sim_peer *p = peer ? sim_peer_find(ifc, peer) : NULL;
	if (!p)
		return ifc->type == DRIVER_IFTYPE_AP ? -ENOENT : -ENOTCONN;
	if (on)
		p->flags |= DRIVER_STA_AUTHORIZED;
	else
		p->flags &= ~(uint32_t)DRIVER_STA_AUTHORIZED;
	return 0;
}
