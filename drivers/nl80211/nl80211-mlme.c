/* Station MLME with the SME in user space (AUTHENTICATE/ASSOCIATE, as
 * mac80211 offers), CONNECT for full-MAC devices, and management frames.
 *
 * cfg80211 authenticates only with a BSS it has in its scan table: an
 * AUTHENTICATE refused with -ENOENT starts a passive scan of the channel
 * (no probe request: the AP sees only the authentication) and is sent
 * again when it ends; then, for a hidden BSS, once more after an active
 * scan with a directed probe. If the BSS is still unknown the caller gets
 * DRIVER_EV_AUTH with timed_out, as for an AP that never answered.
 *
 * Beacon loss: mac80211 probes a silent AP itself and then ends the
 * association with a locally generated deauthentication we did not ask
 * for; that (or NOTIFY_CQM's beacon-loss event, or a DISCONNECT not asked
 * for on full-MAC devices) is reported as DRIVER_EV_BEACON_LOSS, followed by
 * the DEAUTH the kernel sent. */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

#define WLAN_REASON_UNSPECIFIED 1

static struct nl80211_iface *station_iface(struct nl80211 *nl, uint32_t ifindex, int *err)
{
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);
	*err = !ifc ? -ENODEV : ifc->info.iftype != DRIVER_IFTYPE_STATION ? -EOPNOTSUPP : 0;
	return *err ? NULL : ifc;
}

static const struct nl80211_wiphy *wiphy_of(struct nl80211 *nl, struct nl80211_iface *ifc)
{
	struct nl80211_radio *r = nl80211_radio_find(nl, ifc->info.radio_id);
	return r ? &r->w : NULL;
}

static bool use_control_port(struct nl80211 *nl, struct nl80211_iface *ifc)
{
	const struct nl80211_wiphy *w = wiphy_of(nl, ifc);
	return nl->opt_control_port && w &&
	       nl80211_wiphy_ext_feature(w, NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211);
}

static int send_auth(struct nl80211 *nl, uint32_t ifindex, const struct driver_auth_params *p)
{
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_AUTHENTICATE, 0);
	int built = msg ? nl80211_build_auth(msg, ifindex, p) : -ENOMEM;
	return nl80211_request_built(nl, msg, built, NULL, NULL);
}

/* Keeps a copy of p (and the buffers it points to) for the retry. */
static int save_auth(struct nl80211_pending_auth *a, const struct driver_auth_params *p)
{
	if (p->auth_data_len + p->ies_len > sizeof(a->data))
		return -EMSGSIZE;
	a->p = *p;
	if (p->auth_data_len)
		memcpy(a->data, p->auth_data, p->auth_data_len);
	if (p->ies_len)
		memcpy(a->data + p->auth_data_len, p->ies, p->ies_len);
	a->p.auth_data = p->auth_data_len ? a->data : NULL;
	a->p.ies = p->ies_len ? a->data + p->auth_data_len : NULL;
	a->active = true;
	a->probed = false;
	return 0;
}

int nl80211_op_authenticate(void *priv, uint32_t ifindex, const struct driver_auth_params *p)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = station_iface(nl, ifindex, &r);

	if (!ifc)
		return r;
	if (!p)
		return -EINVAL;
	ifc->auth.active = false;
	r = send_auth(nl, ifindex, p);
	if (r != -ENOENT)
		return r;
	log_debug("%s: BSS not in the kernel's table: scanning %u MHz first", ifc->info.name,
		  p->freq_mhz);
	if ((r = save_auth(&ifc->auth, p)) < 0)
		return r;
	r = nl80211_scan_internal(nl, ifc, p->freq_mhz, NULL);
	if (r < 0)
		ifc->auth.active = false;
	return r;
}

static void auth_failed(struct nl80211 *nl, struct nl80211_iface *ifc)
{
	struct driver_event ev = { .type = DRIVER_EV_AUTH, .radio_id = ifc->info.radio_id,
				   .ifindex = ifc->info.ifindex };
	ev.u.mgmt.timed_out = true;
	ev.u.mgmt.locally_generated = true;
	ev.u.mgmt.freq_mhz = ifc->auth.p.freq_mhz;
	nl80211_emit(nl, &ev);
}

void nl80211_mlme_scan_done(struct nl80211 *nl, struct nl80211_iface *ifc, bool aborted)
{
	ifc->internal_scan = false;
	if (!ifc->auth.active)
		return;
	int r = aborted ? -ECANCELED : send_auth(nl, ifc->info.ifindex, &ifc->auth.p);
	if (r == -ENOENT && !ifc->auth.probed && ifc->auth.p.ssid.len) {
		ifc->auth.probed = true;
		r = nl80211_scan_internal(nl, ifc, ifc->auth.p.freq_mhz, &ifc->auth.p.ssid);
		if (r == 0)
			return; /* ask again after the directed probe */
	}
	if (r < 0) {
		log_info("%s: authentication to a BSS the scan did not find: %s", ifc->info.name,
			 strerror(-r));
		auth_failed(nl, ifc);
	}
	ifc->auth.active = false;
}

/* ASSOCIATE (user-space SME) and CONNECT (the driver's SME) share their
 * parameters and what a sent request changes on the interface. */
static int send_assoc(struct nl80211 *nl, struct nl80211_iface *ifc, uint8_t cmd,
		      int (*build)(struct nl_msg *msg, uint32_t ifindex,
				   const struct driver_assoc_params *p, bool control_port),
		      const struct driver_assoc_params *p)
{
	bool cp = use_control_port(nl, ifc);
	struct nl_msg *msg = nl80211_cmd(nl, cmd, 0);
	int built = msg ? build(msg, ifc->info.ifindex, p, cp) : -ENOMEM;
	int r = nl80211_request_built(nl, msg, built, NULL, NULL);
	if (r == 0) {
		ifc->control_port = cp;
		ifc->deauth_requested = false;
	}
	return r;
}

int nl80211_op_associate(void *priv, uint32_t ifindex, const struct driver_assoc_params *p)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = station_iface(nl, ifindex, &r);

	if (!ifc)
		return r;
	if (!p)
		return -EINVAL;
	return send_assoc(nl, ifc, NL80211_CMD_ASSOCIATE, nl80211_build_assoc, p);
}

int nl80211_op_connect(void *priv, uint32_t ifindex, const struct driver_assoc_params *p)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = station_iface(nl, ifindex, &r);

	if (!ifc)
		return r;
	const struct nl80211_wiphy *w = wiphy_of(nl, ifc);
	if (!w || !(w->capa.flags & DRIVER_CAPA_FULLMAC_CONNECT))
		return -EOPNOTSUPP;
	if (!p)
		return -EINVAL;
	r = send_assoc(nl, ifc, NL80211_CMD_CONNECT, nl80211_build_connect, p);
	if (r == 0)
		memcpy(ifc->bssid, p->bssid, DRIVER_ADDR_LEN);
	return r;
}

int nl80211_op_deauthenticate(void *priv, uint32_t ifindex, const uint8_t *bssid,
			      uint16_t reason)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = station_iface(nl, ifindex, &r);

	if (!ifc)
		return r;
	if (!bssid)
		return -EINVAL;
	const struct nl80211_wiphy *w = wiphy_of(nl, ifc);
	bool fullmac = w && !(w->capa.flags & DRIVER_CAPA_USER_SME);
	struct nl_msg *msg = nl80211_cmd(nl, fullmac ? NL80211_CMD_DISCONNECT
						     : NL80211_CMD_DEAUTHENTICATE, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0 ||
		    (!fullmac && nla_put(msg, NL80211_ATTR_MAC, 6, bssid) < 0) ||
		    nla_put_u16(msg, NL80211_ATTR_REASON_CODE,
				reason ? reason : WLAN_REASON_UNSPECIFIED) < 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	ifc->deauth_requested = true;
	ifc->auth.active = false;
	r = nl80211_request(nl, msg, NULL, NULL);
	if (r < 0)
		ifc->deauth_requested = false;
	return r;
}

/* ---- management frames ---- */

int nl80211_op_register_mgmt(void *priv, uint32_t ifindex, uint16_t frame_type,
			     const uint8_t *match, size_t match_len)
{
	struct nl80211 *nl = priv;

	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	if (match_len > 255 || (match_len && !match))
		return -EINVAL;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_REGISTER_FRAME, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0 ||
		    nla_put_u16(msg, NL80211_ATTR_FRAME_TYPE, frame_type) < 0 ||
		    nla_put(msg, NL80211_ATTR_FRAME_MATCH, (int)match_len, match) < 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	int r = nl80211_request(nl, msg, NULL, NULL);
	return r == -EALREADY ? 0 : r; /* registered before (it lasts as long as the socket) */
}

int nl80211_op_tx_mgmt(void *priv, uint32_t ifindex, uint32_t freq_mhz, const uint8_t *frame,
		       size_t len, bool no_ack, uint64_t *cookie)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);
	uint64_t c = 0;

	if (!ifc)
		return -ENODEV;
	if (!frame || len < 24)
		return -EINVAL;
	if (!freq_mhz && ifc->info.iftype == DRIVER_IFTYPE_STATION && !ifc->associated)
		freq_mhz = ifc->chan_hint;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_FRAME, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0 ||
		    nla_put(msg, NL80211_ATTR_FRAME, (int)len, frame) < 0 ||
		    (freq_mhz && nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, freq_mhz) < 0) ||
		    (freq_mhz && nla_put_flag(msg, NL80211_ATTR_OFFCHANNEL_TX_OK) < 0) ||
		    (no_ack && nla_put_flag(msg, NL80211_ATTR_DONT_WAIT_FOR_ACK) < 0))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	int r = nl80211_request_cookie(nl, msg, &c);
	if (r < 0)
		return r;
	if (cookie)
		*cookie = c ? c : nl80211_local_cookie(nl);
	return 0;
}

/* ---- MLME events ---- */

static uint16_t assoc_status(const uint8_t *frame, size_t len)
{
	/* header (24), capability (2), status (2) */
	return len >= 28 ? (uint16_t)(frame[26] | frame[27] << 8) : 0xffff;
}

static void emit_mgmt(struct nl80211 *nl, struct nl80211_iface *ifc, enum driver_event_type type,
		      const uint8_t *frame, size_t len, bool timed_out, bool local)
{
	struct driver_event ev = { .type = type, .radio_id = ifc->info.radio_id,
				   .ifindex = ifc->info.ifindex };
	ev.u.mgmt.frame = frame;
	ev.u.mgmt.len = frame ? len : 0;
	ev.u.mgmt.freq_mhz = ifc->info.freq_mhz;
	ev.u.mgmt.timed_out = timed_out;
	ev.u.mgmt.locally_generated = local;
	nl80211_emit(nl, &ev);
}

static void beacon_loss(struct nl80211 *nl, struct nl80211_iface *ifc)
{
	struct driver_event ev = { .type = DRIVER_EV_BEACON_LOSS, .radio_id = ifc->info.radio_id,
				   .ifindex = ifc->info.ifindex };
	ev.u.peer.addr = ifc->bssid;
	nl80211_emit(nl, &ev);
}

static void on_assoc(struct nl80211 *nl, struct nl80211_iface *ifc, const struct nl80211_event *e)
{
	if (e->timed_out || !e->frame || e->frame_len < 24) {
		emit_mgmt(nl, ifc, DRIVER_EV_ASSOC, NULL, 0, true, true);
		return;
	}
	if (assoc_status(e->frame, e->frame_len) == 0) {
		ifc->associated = true;
		memcpy(ifc->bssid, e->frame + 16, DRIVER_ADDR_LEN);
	}
	emit_mgmt(nl, ifc, DRIVER_EV_ASSOC, e->frame, e->frame_len, false, false);
}

/* The frame as mac80211 gives it: a protected (PMF) one already decrypted,
 * CCMP/GCMP header and MIC removed, the Protected bit left set; passed on
 * unchanged (the roles parse it with mgmt_parse_decrypted()). */
static void on_deauth(struct nl80211 *nl, struct nl80211_iface *ifc,
		      const struct nl80211_event *e)
{
	if (!e->frame || e->frame_len < 24)
		return;
	bool local = memcmp(e->frame + 10, ifc->info.addr, DRIVER_ADDR_LEN) == 0;
	if (local && ifc->associated && !ifc->deauth_requested) {
		log_info("%s: connection lost (the kernel gave up on a silent AP)", ifc->info.name);
		beacon_loss(nl, ifc);
	}
	ifc->associated = false;
	ifc->deauth_requested = false;
	emit_mgmt(nl, ifc,
		  e->cmd == NL80211_CMD_DISASSOCIATE ? DRIVER_EV_DISASSOC : DRIVER_EV_DEAUTH,
		  e->frame, e->frame_len, false, local);
}

/* Full-MAC: the association response is not given, only its status and
 * elements; wpad's roles want a frame, so one is rebuilt from them. */
static void on_connect(struct nl80211 *nl, struct nl80211_iface *ifc,
		       const struct nl80211_event *e)
{
	uint8_t frame[2048];
	uint16_t status = e->has_status ? e->status_code : 1;

	if (e->timed_out || !e->mac) {
		emit_mgmt(nl, ifc, DRIVER_EV_ASSOC, NULL, 0, true, true);
		return;
	}
	size_t ies = e->resp_ie_len < sizeof(frame) - 30 ? e->resp_ie_len : 0;
	memset(frame, 0, 30);
	frame[0] = 0x10; /* Association Response */
	memcpy(frame + 4, ifc->info.addr, 6);
	memcpy(frame + 10, e->mac, 6);
	memcpy(frame + 16, e->mac, 6);
	frame[26] = (uint8_t)status;
	frame[27] = (uint8_t)(status >> 8);
	if (ies)
		memcpy(frame + 30, e->resp_ie, ies);
	if (status == 0) {
		ifc->associated = true;
		memcpy(ifc->bssid, e->mac, DRIVER_ADDR_LEN);
	}
	emit_mgmt(nl, ifc, DRIVER_EV_ASSOC, frame, 30 + ies, false, false);
}

static void on_disconnect(struct nl80211 *nl, struct nl80211_iface *ifc,
			  const struct nl80211_event *e)
{
	uint8_t frame[26] = { 0xc0 }; /* Deauthentication */
	uint16_t reason = e->has_reason ? e->reason_code : WLAN_REASON_UNSPECIFIED;
	bool by_ap = e->disconnected_by_ap;

	if (!by_ap && ifc->associated && !ifc->deauth_requested)
		beacon_loss(nl, ifc);
	memcpy(frame + 4, by_ap ? ifc->info.addr : ifc->bssid, 6);
	memcpy(frame + 10, by_ap ? ifc->bssid : ifc->info.addr, 6);
	memcpy(frame + 16, ifc->bssid, 6);
	frame[24] = (uint8_t)reason;
	frame[25] = (uint8_t)(reason >> 8);
	ifc->associated = false;
	ifc->deauth_requested = false;
	emit_mgmt(nl, ifc, DRIVER_EV_DEAUTH, frame, sizeof(frame), false, !by_ap);
}

void nl80211_mlme_event(struct nl80211 *nl, struct nl80211_iface *ifc,
			const struct nl80211_event *e)
{
	switch (e->cmd) {
	case NL80211_CMD_AUTHENTICATE:
		ifc->auth.active = false;
		if (e->timed_out || !e->frame || e->frame_len < 24)
			emit_mgmt(nl, ifc, DRIVER_EV_AUTH, NULL, 0, true, true);
		else
			emit_mgmt(nl, ifc, DRIVER_EV_AUTH, e->frame, e->frame_len, false, false);
		break;
	case NL80211_CMD_ASSOCIATE:
		on_assoc(nl, ifc, e);
		break;
	case NL80211_CMD_DEAUTHENTICATE:
	case NL80211_CMD_DISASSOCIATE:
		on_deauth(nl, ifc, e);
		break;
	case NL80211_CMD_UNPROT_DEAUTHENTICATE:
	case NL80211_CMD_UNPROT_DISASSOCIATE:
		/* cfg80211_rx_unprot_mlme_mgmt(): mac80211 dropped an unprotected
		 * deauth/disassoc on an MFP link; the link stays up. */
		if (e->frame && e->frame_len >= 24)
			emit_mgmt(nl, ifc,
				  e->cmd == NL80211_CMD_UNPROT_DISASSOCIATE ? DRIVER_EV_UNPROT_DISASSOC
									   : DRIVER_EV_UNPROT_DEAUTH,
				  e->frame, e->frame_len, false, false);
		break;
	case NL80211_CMD_CONNECT:
	case NL80211_CMD_DISCONNECT: {
		/* With the SME in user space cfg80211 repeats what AUTHENTICATE,
		 * ASSOCIATE and DEAUTHENTICATE said: only full-MAC uses these. */
		const struct nl80211_wiphy *w = wiphy_of(nl, ifc);
		if (w && (w->capa.flags & DRIVER_CAPA_USER_SME))
			break;
		if (e->cmd == NL80211_CMD_CONNECT)
			on_connect(nl, ifc, e);
		else
			on_disconnect(nl, ifc, e);
		break;
	}
	case NL80211_CMD_NOTIFY_CQM:
		if (e->cqm_beacon_loss && ifc->associated)
			beacon_loss(nl, ifc);
		break;
	default:
		break;
	}
}
