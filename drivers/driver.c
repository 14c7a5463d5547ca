/* The driver instance and the wrappers through which every caller reaches a
 * backend: a missing op is -EOPNOTSUPP, never a NULL call. */
#define LOG_TAG "driver"
#include "drivers/driver.h"
#include "drivers/registry.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct driver {
	const struct wpad_driver_ops *ops;
	void *priv;
	driver_event_fn event_fn;
	void *event_ctx;
};

const struct wpad_driver_ops *driver_backend_find(const char *name)
{
	for (size_t i = 0; i < driver_backend_count(); i++)
		if (strcmp(driver_backend_at(i)->name, name) == 0)
			return driver_backend_at(i);
	return NULL;
}

struct driver *driver_open(const char *backend, struct loop *loop, const char *options,
			   driver_event_fn fn, void *ctx, int *err)
{
	const struct wpad_driver_ops *ops = driver_backend_find(backend);
	int local_err = 0;

	if (!err)
		err = &local_err;
	if (!ops) {
		log_error("no driver backend named '%s'", backend);
		*err = -ENOENT;
		return NULL;
	}
	struct driver *drv = calloc(1, sizeof(*drv));
	if (!drv) {
		*err = -ENOMEM;
		return NULL;
	}
	drv->ops = ops;
	drv->event_fn = fn;
	drv->event_ctx = ctx;
	*err = 0;
	drv->priv = ops->open(drv, loop, options ? options : "", err);
	if (!drv->priv) {
		if (*err == 0)
			*err = -EIO;
		log_error("driver %s: open failed: %s", ops->name, strerror(-*err));
		free(drv);
		return NULL;
	}
	return drv;
}

void driver_close(struct driver *drv)
{
	if (!drv)
		return;
	drv->ops->close(drv->priv);
	free(drv);
}

const char *driver_name(const struct driver *drv)
{
	return drv->ops->name;
}

void *driver_priv(const struct driver *drv)
{
	return drv->priv;
}

void driver_emit(struct driver *drv, const struct driver_event *ev)
{
	log_verbose("%s event %s radio %u ifindex %u", drv->ops->name,
		    driver_event_name(ev->type), ev->radio_id, ev->ifindex);
	if (drv->event_fn)
		drv->event_fn(drv->event_ctx, ev);
}

void driver_scan_results_free(struct driver_scan_results *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n; i++)
		free(res->results[i].ies);
	free(res->results);
	res->results = NULL;
	res->n = 0;
}

enum driver_ac driver_ac_from_priority(uint8_t priority)
{
	/* IEEE 802.11-2020 Table 10-1: UP to AC mapping. */
	static const enum driver_ac map[8] = {
		DRIVER_AC_BE, DRIVER_AC_BK, DRIVER_AC_BK, DRIVER_AC_BE,
		DRIVER_AC_VI, DRIVER_AC_VI, DRIVER_AC_VO, DRIVER_AC_VO,
	};
	return map[priority & 7];
}

const char *driver_event_name(enum driver_event_type type)
{
	switch (type) {
	case DRIVER_EV_RADIO_NEW: return "radio-new";
	case DRIVER_EV_RADIO_DEL: return "radio-del";
	case DRIVER_EV_IFACE_NEW: return "iface-new";
	case DRIVER_EV_IFACE_DEL: return "iface-del";
	case DRIVER_EV_SCAN_STARTED: return "scan-started";
	case DRIVER_EV_SCAN_DONE: return "scan-done";
	case DRIVER_EV_SCAN_ABORTED: return "scan-aborted";
	case DRIVER_EV_RX_MGMT: return "rx-mgmt";
	case DRIVER_EV_TX_STATUS: return "tx-status";
	case DRIVER_EV_AUTH: return "auth";
	case DRIVER_EV_ASSOC: return "assoc";
	case DRIVER_EV_DEAUTH: return "deauth";
	case DRIVER_EV_DISASSOC: return "disassoc";
	case DRIVER_EV_UNPROT_DEAUTH: return "unprot-deauth";
	case DRIVER_EV_UNPROT_DISASSOC: return "unprot-disassoc";
	case DRIVER_EV_EXTERNAL_AUTH: return "external-auth";
	case DRIVER_EV_BEACON_LOSS: return "beacon-loss";
	case DRIVER_EV_RX_EAPOL: return "rx-eapol";
	case DRIVER_EV_EAPOL_TX_STATUS: return "eapol-tx-status";
	case DRIVER_EV_RX_DATA: return "rx-data";
	case DRIVER_EV_STA_INACTIVE: return "sta-inactive";
	case DRIVER_EV_MIC_FAILURE: return "mic-failure";
	case DRIVER_EV_QUEUE_STOPPED: return "queue-stopped";
	case DRIVER_EV_QUEUE_WOKEN: return "queue-woken";
	case DRIVER_EV_REG_CHANGE: return "reg-change";
	case DRIVER_EV_RADIO_ERROR: return "radio-error";
	case DRIVER_EV_LINK_CHANGE: return "link-change";
	case DRIVER_EV_RADAR: return "radar";
	case DRIVER_EV_CH_SWITCHED: return "ch-switched";
	case DRIVER_EV_PROBE_STATUS: return "probe-status";
	case DRIVER_EV_AUTH_TX_STATUS: return "auth-tx-status";
	}
	return "unknown";
}

const char *driver_iftype_name(enum driver_iftype type)
{
	switch (type) {
	case DRIVER_IFTYPE_UNSPEC: return "unspecified";
	case DRIVER_IFTYPE_STATION: return "station";
	case DRIVER_IFTYPE_AP: return "ap";
	case DRIVER_IFTYPE_MONITOR: return "monitor";
	case DRIVER_IFTYPE_MESH: return "mesh";
	}
	return "unknown";
}

/* Every wrapper is the same two lines: refuse a missing op, else call it. */
#define CALL_OP(op, ...)                                                                      \
	do {                                                                                  \
		if (!drv || !drv->ops->op)                                                    \
			return -EOPNOTSUPP;                                                   \
		return drv->ops->op(drv->priv, __VA_ARGS__);                                  \
	} while (0)

int driver_list_radios(struct driver *drv, struct driver_radio_info *out, size_t max, size_t *n)
{
	CALL_OP(list_radios, out, max, n);
}

int driver_get_capa(struct driver *drv, uint32_t radio_id, struct driver_capa *capa)
{
	CALL_OP(get_capa, radio_id, capa);
}

int driver_list_ifaces(struct driver *drv, struct driver_iface_info *out, size_t max, size_t *n)
{
	CALL_OP(list_ifaces, out, max, n);
}

int driver_iface_info(struct driver *drv, uint32_t ifindex, struct driver_iface_info *info)
{
	CALL_OP(iface_info, ifindex, info);
}

int driver_iface_add(struct driver *drv, uint32_t radio_id, const char *name,
		     enum driver_iftype type, const uint8_t *addr, uint32_t *ifindex)
{
	CALL_OP(iface_add, radio_id, name, type, addr, ifindex);
}

int driver_iface_del(struct driver *drv, uint32_t ifindex)
{
	CALL_OP(iface_del, ifindex);
}

int driver_iface_set_type(struct driver *drv, uint32_t ifindex, enum driver_iftype type)
{
	CALL_OP(iface_set_type, ifindex, type);
}

int driver_iface_adopt(struct driver *drv, uint32_t radio_id, const char *name,
		       enum driver_iftype type, uint32_t *ifindex)
{
	CALL_OP(iface_adopt, radio_id, name, type, ifindex);
}

int driver_iface_release(struct driver *drv, uint32_t ifindex)
{
	CALL_OP(iface_release, ifindex);
}

int driver_iface_set_up(struct driver *drv, uint32_t ifindex, bool up)
{
	CALL_OP(iface_set_up, ifindex, up);
}

int driver_scan_trigger(struct driver *drv, uint32_t ifindex, const struct driver_scan_params *p)
{
	CALL_OP(scan_trigger, ifindex, p);
}

int driver_scan_abort(struct driver *drv, uint32_t ifindex)
{
	CALL_OP(scan_abort, ifindex);
}

int driver_get_scan_results(struct driver *drv, uint32_t ifindex,
			    struct driver_scan_results *res)
{
	CALL_OP(get_scan_results, ifindex, res);
}

int driver_register_mgmt(struct driver *drv, uint32_t ifindex, uint16_t frame_type,
			 const uint8_t *match, size_t match_len)
{
	CALL_OP(register_mgmt, ifindex, frame_type, match, match_len);
}

int driver_tx_mgmt(struct driver *drv, uint32_t ifindex, uint32_t freq_mhz,
		   const uint8_t *frame, size_t len, bool no_ack, uint64_t *cookie)
{
	CALL_OP(tx_mgmt, ifindex, freq_mhz, frame, len, no_ack, cookie);
}

int driver_set_channel(struct driver *drv, uint32_t ifindex, uint32_t freq_mhz)
{
	CALL_OP(set_channel, ifindex, freq_mhz);
}

int driver_authenticate(struct driver *drv, uint32_t ifindex, const struct driver_auth_params *p)
{
	CALL_OP(authenticate, ifindex, p);
}

int driver_associate(struct driver *drv, uint32_t ifindex, const struct driver_assoc_params *p)
{
	CALL_OP(associate, ifindex, p);
}

int driver_deauthenticate(struct driver *drv, uint32_t ifindex, const uint8_t *bssid,
			  uint16_t reason)
{
	CALL_OP(deauthenticate, ifindex, bssid, reason);
}

int driver_connect(struct driver *drv, uint32_t ifindex, const struct driver_assoc_params *p)
{
	CALL_OP(connect, ifindex, p);
}

int driver_start_ap(struct driver *drv, uint32_t ifindex, const struct driver_ap_params *p)
{
	CALL_OP(start_ap, ifindex, p);
}

int driver_set_beacon(struct driver *drv, uint32_t ifindex, const struct driver_ap_params *p)
{
	CALL_OP(set_beacon, ifindex, p);
}

int driver_stop_ap(struct driver *drv, uint32_t ifindex)
{
	CALL_OP(stop_ap, ifindex);
}

int driver_sta_add(struct driver *drv, uint32_t ifindex, const struct driver_sta_params *p)
{
	CALL_OP(sta_add, ifindex, p);
}

int driver_sta_set_flags(struct driver *drv, uint32_t ifindex, const uint8_t *addr,
			 uint32_t set, uint32_t clear)
{
	CALL_OP(sta_set_flags, ifindex, addr, set, clear);
}

int driver_sta_del(struct driver *drv, uint32_t ifindex, const uint8_t *addr)
{
	CALL_OP(sta_del, ifindex, addr);
}

int driver_sta_info(struct driver *drv, uint32_t ifindex, const uint8_t *addr,
		    struct driver_sta_info *info)
{
	CALL_OP(sta_info, ifindex, addr, info);
}

int driver_probe_client(struct driver *drv, uint32_t ifindex, const uint8_t *addr,
			uint64_t *cookie)
{
	CALL_OP(probe_client, ifindex, addr, cookie);
}

int driver_key_set(struct driver *drv, uint32_t ifindex, const struct driver_key *key)
{
	CALL_OP(key_set, ifindex, key);
}

int driver_key_del(struct driver *drv, uint32_t ifindex, enum driver_key_type type,
		   uint8_t key_idx, const uint8_t *addr)
{
	CALL_OP(key_del, ifindex, type, key_idx, addr);
}

int driver_key_get_seq(struct driver *drv, uint32_t ifindex, enum driver_key_type type,
		       uint8_t key_idx, const uint8_t *addr, uint8_t seq[6])
{
	CALL_OP(key_get_seq, ifindex, type, key_idx, addr, seq);
}

int driver_set_pmk(struct driver *drv, uint32_t ifindex, const uint8_t *peer, const uint8_t *pmk,
		   size_t pmk_len, const uint8_t *pmkid)
{
	if (!pmk || !pmk_len || pmk_len > DRIVER_PMK_MAX)
		return -EINVAL;
	CALL_OP(set_pmk, ifindex, peer, pmk, pmk_len, pmkid);
}

int driver_del_pmk(struct driver *drv, uint32_t ifindex, const uint8_t *peer)
{
	CALL_OP(del_pmk, ifindex, peer);
}

int driver_pmksa_set(struct driver *drv, uint32_t ifindex, const struct driver_pmksa *pmksa)
{
	if (!pmksa || pmksa->pmk_len > DRIVER_PMK_MAX)
		return -EINVAL;
	CALL_OP(pmksa_set, ifindex, pmksa);
}

int driver_pmksa_del(struct driver *drv, uint32_t ifindex, const uint8_t *bssid,
		     const uint8_t pmkid[DRIVER_PMKID_LEN])
{
	CALL_OP(pmksa_del, ifindex, bssid, pmkid);
}

int driver_pmksa_flush(struct driver *drv, uint32_t ifindex)
{
	CALL_OP(pmksa_flush, ifindex);
}

int driver_external_auth_done(struct driver *drv, uint32_t ifindex, const uint8_t *bssid,
			      uint16_t status)
{
	CALL_OP(external_auth_done, ifindex, bssid, status);
}

const char *driver_key_type_name(enum driver_key_type type)
{
	switch (type) {
	case DRIVER_KEY_PAIRWISE: return "pairwise";
	case DRIVER_KEY_GROUP: return "group";
	case DRIVER_KEY_IGTK: return "igtk";
	case DRIVER_KEY_BIGTK: return "bigtk";
	}
	return "unknown";
}

int driver_port_authorize(struct driver *drv, uint32_t ifindex, const uint8_t *peer,
			  bool authorized)
{
	CALL_OP(port_authorize, ifindex, peer, authorized);
}

int driver_tx_eapol(struct driver *drv, uint32_t ifindex, const uint8_t *dst,
		    const uint8_t *body, size_t len, bool unencrypted, uint64_t *cookie)
{
	CALL_OP(tx_eapol, ifindex, dst, body, len, unencrypted, cookie);
}

int driver_tx_data(struct driver *drv, uint32_t ifindex, const uint8_t *dst, uint16_t ethertype,
		   const uint8_t *payload, size_t len, uint8_t priority)
{
	CALL_OP(tx_data, ifindex, dst, ethertype, payload, len, priority);
}

int driver_bind_data_plane(struct driver *drv, uint32_t ifindex, const char *os_ifname)
{
	CALL_OP(bind_data_plane, ifindex, os_ifname);
}

int driver_get_regulatory(struct driver *drv, uint32_t radio_id, struct driver_regulatory *reg)
{
	CALL_OP(get_regulatory, radio_id, reg);
}

int driver_set_regulatory(struct driver *drv, const char *alpha2)
{
	CALL_OP(set_regulatory, alpha2);
}

int driver_set_power_save(struct driver *drv, uint32_t ifindex, bool enabled)
{
	CALL_OP(set_power_save, ifindex, enabled);
}

int driver_get_queue_state(struct driver *drv, uint32_t ifindex, struct driver_queue_state *q)
{
	CALL_OP(get_queue_state, ifindex, q);
}

int driver_get_survey(struct driver *drv, uint32_t ifindex, struct driver_survey *out,
		      size_t max, size_t *n)
{
	CALL_OP(get_survey, ifindex, out, max, n);
}

int driver_start_radar_detection(struct driver *drv, uint32_t ifindex,
				 const struct driver_chandef *chandef)
{
	CALL_OP(start_radar_detection, ifindex, chandef);
}

int driver_channel_switch(struct driver *drv, uint32_t ifindex,
			  const struct driver_csa_params *p)
{
	CALL_OP(channel_switch, ifindex, p);
}

const char *driver_radar_kind_name(enum driver_radar_kind kind)
{
	switch (kind) {
	case DRIVER_RADAR_DETECTED:
		return "radar detected";
	case DRIVER_RADAR_CAC_FINISHED:
		return "CAC finished";
	case DRIVER_RADAR_CAC_ABORTED:
		return "CAC aborted";
	case DRIVER_RADAR_NOP_FINISHED:
		return "non-occupancy period over";
	}
	return "unknown radar event";
}
