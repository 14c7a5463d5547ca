/* The access point role: lifecycle, the BSS state machine, driver event
 * routing, channel moves, station queries. See ap.h. */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/config/ap_profile.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/rsn/suites.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *ap_state_to_string(enum ap_state state)
{
	switch (state) {
	case AP_STATE_STOPPED:
		return "stopped";
	case AP_STATE_STARTING:
		return "starting";
	case AP_STATE_STARTED:
		return "started";
	case AP_STATE_STOPPING:
		return "stopping";
	case AP_STATE_CAC:
		return "cac";
	case AP_STATE_SWITCHING:
		return "switching";
	}
	return "invalid";
}

static void stop_timer_fired(struct loop_timer *t, void *data);

struct ap *ap_new(struct loop *loop, struct driver *drv, uint32_t ifindex,
		  const struct ap_callbacks *cb)
{
	struct ap *ap = calloc(1, sizeof(*ap));
	if (!ap)
		return NULL;
	ap->loop = loop;
	ap->drv = drv;
	ap->ifindex = ifindex;
	if (cb)
		ap->cb = *cb;
	ap->state = AP_STATE_STOPPED;
	ap->reaper = ap_sta_reaper_new(ap);
	ap->stop_timer = loop_timer_new(loop, stop_timer_fired, ap);
	if (!ap->reaper || !ap->stop_timer) {
		ap_free(ap);
		return NULL;
	}
	return ap;
}

uint32_t ap_ifindex(const struct ap *ap)
{
	return ap->ifindex;
}

enum ap_state ap_get_state(const struct ap *ap)
{
	return ap->state;
}

void ap_set_rsn_timing(struct ap *ap, const struct rsn_timing *t)
{
	ap->rsn_timing = *t;
}

/* Everything a running BSS holds, released; the driver told to stop. */
static void release_bss(struct ap *ap)
{
	ap_inactivity_stop(ap);
	loop_timer_disarm(ap->stop_timer);
	ap_sta_remove_all(ap, WLAN_REASON_DEAUTH_LEAVING, false);
	ap_keys_stop(ap);
	if (ap->beaconing || ap->csa.cac_running) { /* stop_ap also ends a CAC */
		driver_stop_ap(ap->drv, ap->ifindex);
		ap->beaconing = false;
	}
	ap->csa.cac_running = false;
	ap->csa.in_beacon = false;
	ap_sta_reap(ap);
	sta_table_release(&ap->stas);
	ap_sae_stop(ap);
	if (ap->has_conf)
		ap_conf_clear(&ap->conf);
	ap->has_conf = false;
	ap->n_assoc = 0;
	memset(ap->aid_used, 0, sizeof(ap->aid_used));
	ap->rsne_len = 0;
}

/* STOPPING: say goodbye to every station, then stop once the frames are
 * out (their TX status came back) or AP_STOP_WAIT_MS passed. */
static void begin_stopping(struct ap *ap)
{
	ap_inactivity_stop(ap);
	ap->stop_pending = 0;
	struct ap_sta *sta;
	while ((sta = sta_table_first(&ap->stas))) {
		uint64_t cookie;
		if (ap_sta_is_associated(sta) &&
		    ap_send_deauth(ap, sta->addr, WLAN_REASON_DEAUTH_LEAVING, &cookie) == 0)
			ap->stop_pending++;
		ap_sta_remove(sta, WLAN_REASON_DEAUTH_LEAVING, false);
	}
	/* Finished from the loop, never from inside this transition. */
	loop_timer_arm_ms(ap->stop_timer, ap->stop_pending ? AP_STOP_WAIT_MS : 0);
}

void ap_enter_state(struct ap *ap, enum ap_state new_state)
{
	enum ap_state old = ap->state;
	if (old == new_state)
		return;
	log_info("access point %u: %s -> %s", ap->ifindex, ap_state_to_string(old),
		 ap_state_to_string(new_state));
	ap->state = new_state;
	ap->acl_gen++; /* the access lists come and go with the BSS */
	/* Entry actions first, so a callback sees the state complete and may
	 * act on it (restart from STOPPED, stop from STARTED). */
	switch (new_state) {
	case AP_STATE_STOPPED:
		release_bss(ap);
		break;
	case AP_STATE_STARTING:
		break;
	case AP_STATE_STARTED:
		ap_inactivity_start(ap);
		break;
	case AP_STATE_STOPPING:
		begin_stopping(ap);
		break;
	case AP_STATE_CAC:
	case AP_STATE_SWITCHING:
		break; /* ap_dfs.c did the work before entering */
	}
	if (ap->cb.state_changed)
		ap->cb.state_changed(ap->cb.ctx, old, new_state);
}

static void stop_timer_fired(struct loop_timer *t, void *data)
{
	struct ap *ap = data;
	if (ap->state == AP_STATE_STOPPING)
		ap_enter_state(ap, AP_STATE_STOPPED);
}

void ap_free(struct ap *ap)
{
	if (!ap)
		return;
	if (ap->state != AP_STATE_STOPPED) {
		ap->cb = (struct ap_callbacks){ 0 }; /* nobody is listening now */
		ap->state = AP_STATE_STOPPED;
		release_bss(ap);
	}
	ap_sta_reap(ap);
	loop_idle_free(ap->reaper);
	loop_timer_free(ap->stop_timer);
	loop_timer_free(ap->inact_timer);
	free(ap);
}

/* ---- starting ---- */

struct templates {
	uint8_t head[AP_TEMPLATE_MAX];
	uint8_t tail[AP_TEMPLATE_MAX];
};

static int fill_params(struct ap *ap, struct driver_ap_params *p, struct templates *t);

int ap_fill_params(struct ap *ap, struct driver_ap_params *p, uint8_t *head, uint8_t *tail)
{
	struct templates *t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	int r = fill_params(ap, p, t);
	memcpy(head, t->head, p->beacon_head_len);
	memcpy(tail, t->tail, p->beacon_tail_len);
	p->beacon_head = head;
	p->beacon_tail = tail;
	free(t);
	return r;
}

static int fill_params(struct ap *ap, struct driver_ap_params *p, struct templates *t)
{
	memset(p, 0, sizeof(*p));
	int r = ap_build_beacon(ap, t->head, sizeof(t->head), &p->beacon_head_len, t->tail,
				sizeof(t->tail), &p->beacon_tail_len);
	if (r < 0)
		return r;
	p->beacon_head = t->head;
	p->beacon_tail = t->tail;
	p->ssid.len = (uint8_t)ap->conf.ssid_len;
	memcpy(p->ssid.ssid, ap->conf.ssid, ap->conf.ssid_len);
	p->hidden_ssid = ap->conf.hidden;
	p->freq_mhz = ap->conf.freq_mhz;
	ap_chan_to_driver(&ap->conf.chandef, &p->chandef);
	p->beacon_interval = ap->conf.beacon_int;
	p->dtim_period = ap->conf.dtim_period;
	p->ap_isolate = ap->conf.isolate;
	p->inactivity_timeout_s = ap->conf.inactivity_s > UINT16_MAX ? UINT16_MAX
								      : (uint16_t)ap->conf.inactivity_s;
	return 0;
}

/* The interface as an access point, up. */
static int prepare_iface(struct ap *ap, const struct driver_iface_info *info)
{
	int r;
	if (info->iftype != DRIVER_IFTYPE_AP) {
		if (info->up && (r = driver_iface_set_up(ap->drv, ap->ifindex, false)) < 0)
			return r;
		if ((r = driver_iface_set_type(ap->drv, ap->ifindex, DRIVER_IFTYPE_AP)) < 0)
			return r;
	}
	if (info->iftype != DRIVER_IFTYPE_AP || !info->up)
		return driver_iface_set_up(ap->drv, ap->ifindex, true);
	return 0;
}

static void pick_country(struct ap *ap, uint32_t radio_id)
{
	struct driver_regulatory reg;
	memset(ap->country, 0, sizeof(ap->country));
	if (ap->conf.country[0])
		memcpy(ap->country, ap->conf.country, 2);
	else if (driver_get_regulatory(ap->drv, radio_id, &reg) == 0)
		memcpy(ap->country, reg.alpha2, 2);
}

static int driver_fail(struct wpad_error *err, int r, const char *what)
{
	wpad_error_set(err, wpad_error_code_from_errno(r), r, -1, -1, "%s: %s", what,
		       strerror(-r));
	log_warn("access point not started: %s: %s", what, strerror(-r));
	return r;
}

/* The security policy against this radio's ciphers, before anything
 * starts: PMF required without BIP, ciphers the driver lacks. */
static int check_policy(struct ap *ap, struct wpad_error *err)
{
	struct rsn_policy policy = ap_rsn_policy(ap);
	struct rsn_offer offer;
	const char *why = NULL;
	if (!ap->conf.rsn || rsn_offer(&policy, ap->capa.ciphers, &offer, &why) == 0)
		return 0;
	wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, EOPNOTSUPP, -1, -1,
		       "the security settings cannot be met on this radio: %s (change "
		       "ManagementFrameProtection, AKMs or Ciphers)", why);
	log_warn("access point not started: %s", why);
	return -EOPNOTSUPP;
}

/* STARTING's work: interface, templates, start_ap, frames, keys. */
static int start_bss(struct ap *ap, struct driver_iface_info *info, struct wpad_error *err)
{
	int r;

	if ((r = prepare_iface(ap, info)) < 0)
		return driver_fail(err, r, "cannot make the interface an access point");
	if ((r = driver_iface_info(ap->drv, ap->ifindex, info)) < 0)
		return driver_fail(err, r, "interface lookup");
	memcpy(ap->addr, info->addr, 6);
	pick_country(ap, info->radio_id);
	ap->channel_choice[0] = '\0';
	if (ap->conf.channel_auto && (r = ap_acs_run(ap, err)) < 0)
		return r;
	ap_obss_check(ap);
	if ((r = sta_table_init(&ap->stas, NULL)) < 0)
		return driver_fail(err, r, "station table");
	if ((r = ap_build_rsne(ap)) < 0 || (r = ap_sae_start(ap)) < 0)
		return driver_fail(err, r, "beacon templates");
	if (ap->conf.chandef.radar)
		return ap_dfs_start_cac(ap, err); /* beaconing comes with CAC_FINISHED */
	return ap_start_beaconing(ap, err);
}

/* Beaconing on conf.chandef: start_ap, frames, keys (STARTING or CAC). */
int ap_start_beaconing(struct ap *ap, struct wpad_error *err)
{
	struct driver_ap_params p;
	struct templates t;
	int r;
	if ((r = fill_params(ap, &p, &t)) < 0)
		return driver_fail(err, r, "beacon templates");
	if ((r = driver_start_ap(ap->drv, ap->ifindex, &p)) < 0)
		return driver_fail(err, r, r == -EPERM ? "the regulatory domain forbids the channel"
						       : "the driver cannot start the BSS");
	ap->beaconing = true;
	if ((r = ap_mgmt_register(ap)) < 0)
		return driver_fail(err, r, "management frame registration");
	if ((r = ap_keys_start(ap)) < 0)
		return driver_fail(err, r, "group key installation");
	return 0;
}

int ap_start(struct ap *ap, const struct ap_profile *profile, struct wpad_error *err)
{
	struct wpad_error local;
	struct driver_iface_info info;
	int r;

	if (!err)
		err = &local;
	wpad_error_clear(err);
	if (ap->state != AP_STATE_STOPPED) {
		wpad_error_set(err, WPAD_ERR_BUSY, EBUSY, -1, -1, "the access point is %s",
			       ap_state_to_string(ap->state));
		return -EBUSY;
	}
	if ((r = driver_iface_info(ap->drv, ap->ifindex, &info)) < 0)
		return driver_fail(err, r, "interface lookup");
	if ((r = driver_get_capa(ap->drv, info.radio_id, &ap->capa)) < 0)
		return driver_fail(err, r, "radio capabilities");
	if ((r = ap_conf_from_profile(&ap->conf, profile, &ap->capa, err)) < 0)
		return r;
	ap->has_conf = true;
	if ((r = check_policy(ap, err)) < 0)
		return r;
	ap_enter_state(ap, AP_STATE_STARTING);
	r = start_bss(ap, &info, err);
	if (r < 0) {
		ap_enter_state(ap, AP_STATE_STOPPED);
		return r;
	}
	if (ap->state == AP_STATE_CAC)
		return 0;
	ap_started_log(ap);
	ap_enter_state(ap, AP_STATE_STARTED);
	return 0;
}

void ap_started_log(struct ap *ap)
{
	log_info("access point %u: BSS '%.*s' on channel %u (%u MHz, %s), %s%s, up to %u stations",
		 ap->ifindex, (int)ap->conf.ssid_len, (const char *)ap->conf.ssid, ap->conf.channel,
		 ap->conf.freq_mhz, ap_chan_width_name(ap->conf.chandef.width_mhz),
		 !ap->conf.rsn ? "open" : ap->conf.owe ? "OWE" : !ap->conf.sae ? "WPA2-PSK"
		 : ap_rsn_policy(ap).akms & RSN_SUITE_BIT(RSN_AKM_PSK) ? "WPA2/WPA3-Personal"
		 : "WPA3-Personal",
		 ap->conf.hidden ? ", hidden" : "", ap->conf.max_stations);
}

int ap_stop(struct ap *ap)
{
	if (ap->state == AP_STATE_STOPPED || ap->state == AP_STATE_STOPPING)
		return -EALREADY;
	ap_enter_state(ap, AP_STATE_STOPPING);
	return 0;
}

/* ---- events ---- */

/* The interface or its radio went away: nothing can be sent any more. */
static void lost_interface(struct ap *ap, const char *why)
{
	if (ap->state == AP_STATE_STOPPED)
		return;
	log_warn("access point %u: %s; stopping", ap->ifindex, why);
	ap->beaconing = false;
	ap_sta_remove_all(ap, WLAN_REASON_DEAUTH_LEAVING, false);
	ap_enter_state(ap, AP_STATE_STOPPED);
}

static void tx_status(struct ap *ap, const struct driver_event *ev)
{
	if (ap->state == AP_STATE_STOPPING) {
		if (ap->stop_pending && --ap->stop_pending == 0)
			ap_enter_state(ap, AP_STATE_STOPPED);
		return;
	}
	ap_mgmt_tx_status(ap, ev);
}

/* Whether a BSS already beaconing may stay on a channel with these flags
 * after a regulatory change. A radar channel is the kernel's to judge: it
 * keeps NO_IR and RADAR on it, and a new regulatory hint (a station's
 * Country element, iw reg set) re-runs the rules and may report it
 * DFS-usable again although our CAC passed; the kernel itself stops the
 * BSS (a STOP_AP / radar event) when the channel really becomes unusable.
 * Stopping on RADAR without DFS_AVAILABLE here dropped every station the
 * moment one associated (hwsim wpad-ap-wpas-dfs). */
bool ap_chan_still_allowed(uint32_t flags)
{
	if (flags & (DRIVER_CHAN_DISABLED | DRIVER_CHAN_DFS_UNAVAILABLE))
		return false;
	if (flags & DRIVER_CHAN_RADAR)
		return true;
	return !(flags & DRIVER_CHAN_NO_IR);
}

/* The country changed: stop if our channel is no longer ours to beacon
 * on, else refresh the Country element. */
static void regulatory_changed(struct ap *ap, uint32_t radio_id)
{
	struct driver_iface_info info;
	struct driver_capa capa;
	struct driver_ap_params p;
	struct templates t;
	if (ap->state != AP_STATE_STARTED || driver_iface_info(ap->drv, ap->ifindex, &info) < 0 ||
	    info.radio_id != radio_id || driver_get_capa(ap->drv, radio_id, &capa) < 0)
		return;
	const struct driver_channel *ch = ap_find_channel(&capa, ap->conf.band, ap->conf.freq_mhz);
	if (!ch || !ap_chan_still_allowed(ch->flags)) {
		log_warn("access point %u: the new regulatory domain forbids channel %u; stopping",
			 ap->ifindex, ap->conf.channel);
		ap_stop(ap);
		return;
	}
	ap->capa = capa;
	pick_country(ap, radio_id);
	if (fill_params(ap, &p, &t) == 0)
		driver_set_beacon(ap->drv, ap->ifindex, &p);
}

void ap_handle_event(struct ap *ap, const struct driver_event *ev)
{
	if (ev->type == DRIVER_EV_REG_CHANGE) {
		regulatory_changed(ap, ev->radio_id);
		return;
	}
	if (ev->type == DRIVER_EV_RADAR && (!ev->ifindex || ev->ifindex == ap->ifindex)) {
		ap_dfs_radar(ap, ev);
		return;
	}
	if (ev->type == DRIVER_EV_CH_SWITCHED && ev->ifindex == ap->ifindex) {
		ap_dfs_switched(ap, ev);
		return;
	}
	if (ev->type == DRIVER_EV_RADIO_ERROR) {
		struct driver_iface_info info;
		if (driver_iface_info(ap->drv, ap->ifindex, &info) < 0 ||
		    info.radio_id == ev->radio_id)
			lost_interface(ap, "radio error");
		return;
	}
	if (ev->ifindex != ap->ifindex)
		return;
	switch (ev->type) {
	case DRIVER_EV_RX_MGMT:
		ap_mgmt_rx(ap, ev);
		break;
	case DRIVER_EV_DEAUTH:
	case DRIVER_EV_DISASSOC:
		if (!ev->u.mgmt.locally_generated)
			ap_mgmt_rx(ap, ev);
		break;
	case DRIVER_EV_TX_STATUS:
		tx_status(ap, ev);
		break;
	case DRIVER_EV_RX_EAPOL:
		ap_keys_rx_eapol(ap, ev);
		break;
	case DRIVER_EV_EAPOL_TX_STATUS:
		ap_keys_eapol_tx_status(ap, ev);
		break;
	case DRIVER_EV_STA_INACTIVE:
		if (ap_is_running(ap) && ev->u.peer.addr)
			ap_sta_idle(ap, ev->u.peer.addr);
		break;
	case DRIVER_EV_PROBE_STATUS:
		if (ap_is_running(ap))
			ap_sta_probe_status(ap, ev);
		break;
	case DRIVER_EV_MIC_FAILURE:
		log_warn("access point %u: Michael MIC failure reported (no TKIP here)",
			 ap->ifindex);
		break;
	case DRIVER_EV_IFACE_DEL:
		lost_interface(ap, "interface removed");
		break;
	default:
		break;
	}
}

/* ---- channel ---- */

/* The driver cannot retune a beaconing interface: restart the BSS on the
 * new channel. Stations are told (deauthentication, reason 3) since they
 * would lose us anyway without a channel switch announcement. */
static int restart_on(struct ap *ap, const struct driver_ap_params *p)
{
	uint64_t cookie;
	struct ap_sta *sta;
	while ((sta = sta_table_first(&ap->stas))) {
		if (ap_sta_is_associated(sta))
			ap_send_deauth(ap, sta->addr, WLAN_REASON_DEAUTH_LEAVING, &cookie);
		ap_sta_remove(sta, WLAN_REASON_DEAUTH_LEAVING, false);
	}
	driver_stop_ap(ap->drv, ap->ifindex);
	ap->beaconing = false;
	int r = driver_start_ap(ap->drv, ap->ifindex, p);
	if (r < 0)
		return r;
	ap->beaconing = true;
	return ap_keys_reinstall(ap);
}

/* Templates for the new channel; the interface retuned by the driver
 * (already there when the AP follows a station of its radio), by
 * set_channel, or by a restart. */
static int move_to(struct ap *ap, uint32_t freq_mhz)
{
	struct driver_ap_params p;
	struct templates t;
	struct driver_iface_info info;
	int r = fill_params(ap, &p, &t);
	if (r < 0)
		return r;
	if (driver_iface_info(ap->drv, ap->ifindex, &info) == 0 && info.freq_mhz == freq_mhz)
		return driver_set_beacon(ap->drv, ap->ifindex, &p);
	r = driver_set_channel(ap->drv, ap->ifindex, freq_mhz);
	if (r == 0 || r == -EOPNOTSUPP)
		return driver_set_beacon(ap->drv, ap->ifindex, &p);
	if (r == -EBUSY)
		return restart_on(ap, &p);
	return r;
}

int ap_chan_target(const struct ap *ap, uint32_t freq_mhz, struct ap_chandef *cd)
{
	enum driver_band band = ap_freq_to_band(freq_mhz);
	const struct driver_channel *ch = ap_find_channel(&ap->capa, band, freq_mhz);
	if (!ch)
		return -EINVAL;
	if (ch->flags & (DRIVER_CHAN_DISABLED | DRIVER_CHAN_DFS_UNAVAILABLE) ||
	    (ch->flags & DRIVER_CHAN_RADAR && !(ch->flags & DRIVER_CHAN_DFS_AVAILABLE)) ||
	    (!(ch->flags & DRIVER_CHAN_RADAR) && ch->flags & DRIVER_CHAN_NO_IR))
		return -EPERM;
	/* The configured width where the new channel allows it, else 20 MHz. */
	if (ap_chan_pick(&ap->capa, band, freq_mhz, ap->conf.want_width, false, cd, NULL) < 0)
		ap_chan_pick(&ap->capa, band, freq_mhz, 20, false, cd, NULL);
	return 0;
}

int ap_set_channel(struct ap *ap, uint32_t freq_mhz)
{
	if (ap->state != AP_STATE_STARTED)
		return -ENOTCONN;
	struct ap_chandef cd;
	int r = ap_chan_target(ap, freq_mhz, &cd);
	if (r < 0)
		return r;
	if (freq_mhz == ap->conf.freq_mhz)
		return 0;

	enum driver_band old_band = ap->conf.band;
	uint32_t old_freq = ap->conf.freq_mhz;
	uint8_t old_channel = ap->conf.channel;
	struct ap_chandef old_cd = ap->conf.chandef;
	ap->conf.band = ap_freq_to_band(freq_mhz);
	ap->conf.freq_mhz = freq_mhz;
	ap->conf.channel = ap_freq_to_channel(freq_mhz);
	ap->conf.chandef = cd;
	r = move_to(ap, freq_mhz);
	if (r < 0) {
		log_warn("access point %u: cannot move to %u MHz: %d", ap->ifindex, freq_mhz, r);
		ap->conf.band = old_band;
		ap->conf.freq_mhz = old_freq;
		ap->conf.channel = old_channel;
		ap->conf.chandef = old_cd;
		if (!ap->beaconing)
			lost_interface(ap, "the BSS could not be restarted");
		return r;
	}
	log_info("access point %u: moved to channel %u (%u MHz)", ap->ifindex, ap->conf.channel,
		 freq_mhz);
	return 0;
}

/* ---- stations ---- */

size_t ap_station_count(const struct ap *ap)
{
	return sta_table_count(&ap->stas);
}

size_t ap_associated_count(const struct ap *ap)
{
	return ap->n_assoc;
}

size_t ap_foreach_station(struct ap *ap, ap_station_fn fn, void *data)
{
	size_t n = 0;
	for (struct ap_sta *s = sta_table_first(&ap->stas); s; s = sta_table_next(s)) {
		struct ap_station_info info;
		/* No driver round trip per station: the walkers (D-Bus's sync
		 * on every station event, a hotspot's stop) read the state. */
		ap_sta_fill_info(s, &info, false);
		n++;
		if (!fn(data, &info))
			break;
	}
	return n;
}

static int get_station(struct ap *ap, const uint8_t addr[6], struct ap_station_info *info,
		       bool ask_driver)
{
	struct ap_sta *sta = ap_sta_find(ap, addr);
	if (!sta)
		return -ENOENT;
	ap_sta_fill_info(sta, info, ask_driver);
	return 0;
}

int ap_get_station(struct ap *ap, const uint8_t addr[6], struct ap_station_info *info)
{
	return get_station(ap, addr, info, true);
}

int ap_peek_station(struct ap *ap, const uint8_t addr[6], struct ap_station_info *info)
{
	return get_station(ap, addr, info, false);
}

int ap_disconnect_station(struct ap *ap, const uint8_t addr[6], uint16_t reason)
{
	char a[AP_ADDR_STR_LEN];
	struct ap_sta *sta = ap_sta_find(ap, addr);
	if (!sta)
		return -ENOENT;
	log_info("%s: disconnecting, reason %u: %s", ap_addr_str(addr, a), reason,
		 ieee80211_reason_name(reason));
	ap_sta_remove(sta, reason, true);
	return 0;
}
