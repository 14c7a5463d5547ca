/* Events: every message the kernel sends us unasked -- multicast on the
 * event socket, unicast (frames, control port) on the command socket --
 * parsed once (nl80211_parse_event) and turned into driver events.
 *
 *   NEW/DEL_WIPHY            -> RADIO_NEW / RADIO_DEL (and IFACE_DEL first)
 *   NEW/DEL_INTERFACE        -> IFACE_NEW / IFACE_DEL (not for our own ops,
 *                               which announce themselves)
 *   TRIGGER_SCAN, NEW_SCAN_RESULTS, SCAN_ABORTED -> SCAN_STARTED/DONE/ABORTED
 *   FRAME, FRAME_TX_STATUS   -> RX_MGMT, TX_STATUS
 *   CONTROL_PORT_FRAME(_TX_STATUS) -> RX_EAPOL, EAPOL_TX_STATUS
 *   AUTHENTICATE, ASSOCIATE, DEAUTHENTICATE, DISASSOCIATE, CONNECT,
 *   DISCONNECT, NOTIFY_CQM   -> nl80211-mlme.c
 *   REG_CHANGE, WIPHY_REG_CHANGE -> REG_CHANGE (one per affected radio)
 *   MICHAEL_MIC_FAILURE      -> MIC_FAILURE
 *   PROBE_CLIENT             -> PROBE_STATUS (the null frame's ACK)
 */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"

#include <linux/nl80211.h>
#include <net/if.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

#define ETH_P_PAE_NUM 0x888e

static void on_new_wiphy(struct nl80211 *nl, const struct nl80211_event *e)
{
	struct nl80211_radio *r = nl80211_radio_find(nl, e->wiphy);
	if (r) {
		r->capa_stale = true; /* renamed or changed: re-read when asked */
		return;
	}
	r = nl80211_radio_add(nl, e->wiphy);
	if (!r)
		return;
	log_info("radio %s (wiphy %u) appeared", r->w.name, r->w.id);
	struct driver_event ev = { .type = DRIVER_EV_RADIO_NEW, .radio_id = e->wiphy };
	nl80211_emit(nl, &ev);
}

static void on_del_wiphy(struct nl80211 *nl, const struct nl80211_event *e)
{
	struct nl80211_radio *r = nl80211_radio_find(nl, e->wiphy);
	if (!r)
		return;
	log_info("radio %s (wiphy %u) went away", r->w.name, r->w.id);
	nl80211_radio_remove(nl, r, true);
}

static void on_new_iface(struct nl80211 *nl, const struct nlmsghdr *h)
{
	struct driver_iface_info info;

	if (nl80211_parse_iface(h, &info) < 0 || !nl80211_radio_find(nl, info.radio_id))
		return;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, info.ifindex);
	if (ifc) { /* ours, or a change: keep what the kernel says */
		if (info.name[0])
			memcpy(ifc->info.name, info.name, sizeof(info.name));
		if (info.iftype != DRIVER_IFTYPE_UNSPEC)
			ifc->info.iftype = info.iftype;
		memcpy(ifc->info.addr, info.addr, DRIVER_ADDR_LEN);
		return;
	}
	/* Events are read after the requests that caused them: one about an
	 * interface already deleted again is stale. */
	char name[IF_NAMESIZE];
	if (!if_indextoname(info.ifindex, name))
		return;
	ifc = nl80211_iface_track(nl, &info);
	if (!ifc)
		return;
	struct driver_event ev = { .type = DRIVER_EV_IFACE_NEW, .radio_id = info.radio_id,
				   .ifindex = info.ifindex };
	nl80211_emit(nl, &ev);
}

static void on_reg_change(struct nl80211 *nl, const struct nl80211_event *e)
{
	log_info("regulatory domain now %s", e->alpha2 ? e->alpha2 : "(unknown)");
	for (struct nl80211_radio *r = nl->radios; r && !nl->closing; r = r->next) {
		if (e->cmd == NL80211_CMD_WIPHY_REG_CHANGE && e->has_wiphy && r->w.id != e->wiphy)
			continue;
		r->capa_stale = true;
		r->reg_known = false;
		struct driver_event ev = { .type = DRIVER_EV_REG_CHANGE, .radio_id = r->w.id };
		nl80211_emit(nl, &ev);
	}
}

static void on_scan(struct nl80211 *nl, struct nl80211_iface *ifc, uint8_t cmd)
{
	struct driver_event ev = { .radio_id = ifc->info.radio_id, .ifindex = ifc->info.ifindex };

	if (ifc->internal_scan) { /* our own BSS-cache refresh: not the roles' business */
		if (cmd != NL80211_CMD_TRIGGER_SCAN)
			nl80211_mlme_scan_done(nl, ifc, cmd == NL80211_CMD_SCAN_ABORTED);
		return;
	}
	ev.type = cmd == NL80211_CMD_TRIGGER_SCAN ? DRIVER_EV_SCAN_STARTED
		: cmd == NL80211_CMD_NEW_SCAN_RESULTS ? DRIVER_EV_SCAN_DONE
						      : DRIVER_EV_SCAN_ABORTED;
	nl80211_emit(nl, &ev);
}

static void on_frame(struct nl80211 *nl, struct nl80211_iface *ifc, const struct nl80211_event *e)
{
	if (!e->frame || e->frame_len < 24)
		return;
	struct driver_event ev = { .type = DRIVER_EV_RX_MGMT, .radio_id = ifc->info.radio_id,
				   .ifindex = ifc->info.ifindex };
	ev.u.mgmt.frame = e->frame;
	ev.u.mgmt.len = e->frame_len;
	ev.u.mgmt.freq_mhz = e->freq;
	ev.u.mgmt.signal_mbm = e->has_signal ? e->signal_mbm : 0;
	nl80211_emit(nl, &ev);
}

static void on_tx_status(struct nl80211 *nl, struct nl80211_iface *ifc,
			 const struct nl80211_event *e, enum driver_event_type type)
{
	if (!e->has_cookie)
		return;
	struct driver_event ev = { .type = type, .radio_id = ifc->info.radio_id,
				   .ifindex = ifc->info.ifindex };
	ev.u.tx_status.cookie = e->cookie;
	ev.u.tx_status.acked = e->ack;
	ev.u.tx_status.frame = e->frame;
	ev.u.tx_status.len = e->frame_len;
	nl80211_emit(nl, &ev);
}

static void on_control_port(struct nl80211 *nl, struct nl80211_iface *ifc,
			    const struct nl80211_event *e)
{
	if (!e->frame || !e->mac)
		return;
	struct driver_event ev = { .radio_id = ifc->info.radio_id, .ifindex = ifc->info.ifindex };
	ev.type = e->ethertype == ETH_P_PAE_NUM ? DRIVER_EV_RX_EAPOL : DRIVER_EV_RX_DATA;
	ev.u.data.src = e->mac;
	ev.u.data.dst = ifc->info.addr;
	ev.u.data.ethertype = e->ethertype;
	ev.u.data.body = e->frame;
	ev.u.data.len = e->frame_len;
	ev.u.data.priority = 7;
	ev.u.data.was_encrypted = !e->no_encrypt;
	nl80211_emit(nl, &ev);
}

static void on_mic_failure(struct nl80211 *nl, struct nl80211_iface *ifc,
			   const struct nl80211_event *e)
{
	struct driver_event ev = { .type = DRIVER_EV_MIC_FAILURE, .radio_id = ifc->info.radio_id,
				   .ifindex = ifc->info.ifindex };
	ev.u.peer.addr = e->mac;
	ev.u.peer.group = e->has_key_type && e->key_type == NL80211_KEYTYPE_GROUP;
	nl80211_emit(nl, &ev);
}

static uint16_t width_mhz(uint32_t nl_width)
{
	switch (nl_width) {
	case NL80211_CHAN_WIDTH_40:
		return 40;
	case NL80211_CHAN_WIDTH_80:
	case NL80211_CHAN_WIDTH_80P80:
		return 80;
	case NL80211_CHAN_WIDTH_160:
		return 160;
	default:
		return 20;
	}
}

/* The interface is on a new channel: an AP's CSA ran out, or a station's
 * MLME followed its AP's. */
static void on_ch_switch(struct nl80211 *nl, struct nl80211_iface *ifc,
			 const struct nl80211_event *e)
{
	if (!e->freq)
		return;
	ifc->info.freq_mhz = e->freq;
	struct driver_event ev = { .type = DRIVER_EV_CH_SWITCHED, .radio_id = ifc->info.radio_id,
				   .ifindex = ifc->info.ifindex };
	ev.u.ch_switch.chandef.control_mhz = e->freq;
	ev.u.ch_switch.chandef.width_mhz = e->has_chan_width ? width_mhz(e->chan_width) : 20;
	ev.u.ch_switch.chandef.center1_mhz = e->center_freq1 ? e->center_freq1 : e->freq;
	nl80211_emit(nl, &ev);
}

/* RADAR_DETECT notifications: CAC results and radar for an interface, the
 * end of a non-occupancy period for the wiphy. The DFS state in the
 * channel flags changed either way. */
static void on_radar(struct nl80211 *nl, const struct nl80211_event *e)
{
	static const struct {
		uint32_t nl;
		enum driver_radar_kind kind;
	} map[] = {
		{ NL80211_RADAR_DETECTED, DRIVER_RADAR_DETECTED },
		{ NL80211_RADAR_CAC_FINISHED, DRIVER_RADAR_CAC_FINISHED },
		{ NL80211_RADAR_CAC_ABORTED, DRIVER_RADAR_CAC_ABORTED },
		{ NL80211_RADAR_NOP_FINISHED, DRIVER_RADAR_NOP_FINISHED },
	};
	for (struct nl80211_radio *r = nl->radios; r; r = r->next)
		if (!e->has_wiphy || r->w.id == e->wiphy)
			r->capa_stale = true;
	if (!e->has_radar_event)
		return;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].nl != e->radar_event)
			continue;
		struct nl80211_iface *ifc = e->has_ifindex ? nl80211_iface_find(nl, e->ifindex) : NULL;
		struct driver_event ev = { .type = DRIVER_EV_RADAR,
					   .radio_id = ifc ? ifc->info.radio_id : e->wiphy,
					   .ifindex = ifc ? ifc->info.ifindex : 0 };
		ev.u.radar.kind = map[i].kind;
		ev.u.radar.freq_mhz = e->freq;
		nl80211_emit(nl, &ev);
	}
}

/* Events about one of our interfaces. */
static void iface_event(struct nl80211 *nl, struct nl80211_iface *ifc,
			const struct nl80211_event *e)
{
	switch (e->cmd) {
	case NL80211_CMD_TRIGGER_SCAN:
	case NL80211_CMD_NEW_SCAN_RESULTS:
	case NL80211_CMD_SCAN_ABORTED:
		on_scan(nl, ifc, e->cmd);
		break;
	case NL80211_CMD_FRAME:
		on_frame(nl, ifc, e);
		break;
	case NL80211_CMD_FRAME_TX_STATUS:
		on_tx_status(nl, ifc, e, DRIVER_EV_TX_STATUS);
		break;
	case NL80211_CMD_CONTROL_PORT_FRAME:
		on_control_port(nl, ifc, e);
		break;
	case NL80211_CMD_CONTROL_PORT_FRAME_TX_STATUS:
		on_tx_status(nl, ifc, e, DRIVER_EV_EAPOL_TX_STATUS);
		break;
	case NL80211_CMD_PROBE_CLIENT:
		on_tx_status(nl, ifc, e, DRIVER_EV_PROBE_STATUS);
		break;
	case NL80211_CMD_MICHAEL_MIC_FAILURE:
		on_mic_failure(nl, ifc, e);
		break;
	case NL80211_CMD_DEL_INTERFACE:
		nl80211_iface_forget(nl, ifc, true);
		break;
	case NL80211_CMD_STOP_AP:
		nl80211_ap_stopped(nl, ifc);
		break;
	case NL80211_CMD_CH_SWITCH_NOTIFY:
		on_ch_switch(nl, ifc, e);
		break;
	default:
		nl80211_mlme_event(nl, ifc, e);
		break;
	}
}

void nl80211_handle_event(struct nl80211 *nl, struct nl_msg *msg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct nl80211_event e;

	if (h->nlmsg_type != nl->family || !genlmsg_valid_hdr(h, 0))
		return;
	uint8_t cmd = ((struct genlmsghdr *)nlmsg_data(h))->cmd;
	/* Wiphy and interface notifications carry attributes of their own
	 * kinds: read them with their own parsers. */
	if (cmd == NL80211_CMD_NEW_WIPHY || cmd == NL80211_CMD_DEL_WIPHY) {
		memset(&e, 0, sizeof(e));
		e.cmd = cmd;
		if (nl80211_wiphy_index(h, &e.wiphy) < 0)
			return;
		e.has_wiphy = true;
		if (cmd == NL80211_CMD_NEW_WIPHY)
			on_new_wiphy(nl, &e);
		else
			on_del_wiphy(nl, &e);
		return;
	}
	if (cmd == NL80211_CMD_NEW_INTERFACE) {
		on_new_iface(nl, h);
		return;
	}
	if (nl80211_parse_event(h, &e) < 0) {
		log_debug("ignored a malformed nl80211 event (command %u)", cmd);
		return;
	}
	switch (e.cmd) {
	case NL80211_CMD_REG_CHANGE:
	case NL80211_CMD_WIPHY_REG_CHANGE:
		on_reg_change(nl, &e);
		return;
	case NL80211_CMD_RADAR_DETECT:
		on_radar(nl, &e);
		return;
	case NL80211_CMD_REG_BEACON_HINT:
		for (struct nl80211_radio *r = nl->radios; r; r = r->next)
			r->capa_stale = true;
		return;
	default:
		break;
	}
	struct nl80211_iface *ifc = e.has_ifindex ? nl80211_iface_find(nl, e.ifindex) : NULL;
	if (ifc)
		iface_event(nl, ifc, &e);
}
