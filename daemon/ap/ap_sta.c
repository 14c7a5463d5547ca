/* Stations of the BSS: creation, the per-station state machine, AIDs,
 * expiry and inactivity.
 *
 * A station leaves through ap_sta_enter_state(NONE), which undoes whatever
 * the states it went through set up (driver entry, AID, authenticator).
 * The entry is then unlinked from the table at once but freed only from an
 * idle callback, so a caller up the stack (a callback, a frame handler)
 * that still holds the pointer can check sta->state == AP_STA_NONE instead
 * of touching freed memory.
 */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/rsn/auth_proto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INACTIVITY_POLL_MIN_MS 250

const char *ap_sta_state_to_string(enum ap_sta_state state)
{
	switch (state) {
	case AP_STA_NONE:
		return "none";
	case AP_STA_AUTHENTICATED:
		return "authenticated";
	case AP_STA_ASSOCIATED:
		return "associated";
	case AP_STA_AUTHORIZED:
		return "authorized";
	}
	return "invalid";
}

const char *ap_addr_str(const uint8_t addr[6], char buf[AP_ADDR_STR_LEN])
{
	return log_addr_str(addr, buf);
}

uint16_t ap_aid_alloc(struct ap *ap)
{
	for (uint16_t aid = 1; aid <= AP_MAX_AID; aid++) {
		uint32_t bit = 1u << (aid % 32);
		if (!(ap->aid_used[aid / 32] & bit)) {
			ap->aid_used[aid / 32] |= bit;
			return aid;
		}
	}
	return 0;
}

void ap_aid_free(struct ap *ap, uint16_t aid)
{
	if (aid >= 1 && aid <= AP_MAX_AID)
		ap->aid_used[aid / 32] &= ~(1u << (aid % 32));
}

static void sta_timer_fired(struct loop_timer *timer, void *data);

struct ap_sta *ap_sta_new(struct ap *ap, const uint8_t addr[6])
{
	struct ap_sta *sta = calloc(1, sizeof(*sta));
	if (!sta)
		return NULL;
	memcpy(sta->addr, addr, 6);
	sta->ap = ap;
	sta->state = AP_STA_NONE;
	sta->timer = loop_timer_new(ap->loop, sta_timer_fired, sta);
	if (!sta->timer || sta_table_insert(&ap->stas, sta) < 0) {
		loop_timer_free(sta->timer);
		free(sta);
		return NULL;
	}
	return sta;
}

struct ap_sta *ap_sta_find(struct ap *ap, const uint8_t addr[6])
{
	return sta_table_find(&ap->stas, addr);
}

void ap_sta_arm_timer(struct ap_sta *sta, uint64_t ms)
{
	loop_timer_arm_ms(sta->timer, ms);
}

/* Takes the station out of the driver and releases its association:
 * authenticator, keys (the driver drops them with the entry), AID. */
static void leave_association(struct ap_sta *sta)
{
	struct ap *ap = sta->ap;
	ap_keys_sta_stop(sta);
	ap_pmf_sta_left(sta);
	sta->pmf.mfp = false;
	sta->assoc_resp_pending = false;
	if (sta->in_driver) {
		driver_sta_del(ap->drv, ap->ifindex, sta->addr);
		sta->in_driver = false;
	}
	ap_aid_free(ap, sta->aid);
	sta->aid = 0;
	sta->assoc_time_us = 0;
}

/* Entry actions for leaving an association (to AUTHENTICATED or NONE). */
static void was_associated(struct ap_sta *sta, enum ap_sta_state old)
{
	struct ap *ap = sta->ap;
	char a[AP_ADDR_STR_LEN];
	if (old != AP_STA_ASSOCIATED && old != AP_STA_AUTHORIZED)
		return;
	ap->n_assoc--;
	log_info("%s left (reason %u: %s), %zu associated", ap_addr_str(sta->addr, a),
		 sta->leave_reason, ieee80211_reason_name(sta->leave_reason), ap->n_assoc);
	if (ap->cb.station_removed)
		ap->cb.station_removed(ap->cb.ctx, sta->addr, sta->leave_reason);
	if (ap_is_running(ap))
		ap_keys_sta_left(ap);
}

void ap_sta_enter_state(struct ap_sta *sta, enum ap_sta_state new_state)
{
	struct ap *ap = sta->ap;
	enum ap_sta_state old = sta->state;
	char a[AP_ADDR_STR_LEN];

	if (old == new_state)
		return;
	log_debug("station %s: %s -> %s", ap_addr_str(sta->addr, a),
		  ap_sta_state_to_string(old), ap_sta_state_to_string(new_state));
	sta->state = new_state;
	switch (new_state) {
	case AP_STA_NONE:
		loop_timer_disarm(sta->timer);
		leave_association(sta);
		was_associated(sta, old);
		break;
	case AP_STA_AUTHENTICATED:
		leave_association(sta);
		ap_sta_arm_timer(sta, AP_AUTH_EXPIRY_MS);
		was_associated(sta, old);
		break;
	case AP_STA_ASSOCIATED:
		loop_timer_disarm(sta->timer);
		ap->n_assoc++;
		sta->assoc_time_us = loop_now_us(ap->loop);
		log_info("%s associated with AID %u, %zu associated", ap_addr_str(sta->addr, a),
			 sta->aid, ap->n_assoc);
		if (ap->cb.station_added)
			ap->cb.station_added(ap->cb.ctx, sta->addr);
		if (sta->state == AP_STA_ASSOCIATED)
			ap_keys_sta_associated(sta);
		break;
	case AP_STA_AUTHORIZED:
		log_info("%s authorized%s", ap_addr_str(sta->addr, a),
			 ap->conf.rsn ? ": 4-way handshake done" : " (open network)");
		if (ap->cb.station_authorized)
			ap->cb.station_authorized(ap->cb.ctx, sta->addr);
		break;
	}
}

static void reaper_run(struct loop_idle *idle, void *data)
{
	ap_sta_reap(data);
}

void ap_sta_reap(struct ap *ap)
{
	while (ap->dead) {
		struct ap_sta *sta = ap->dead;
		ap->dead = sta->lnext;
		loop_timer_free(sta->timer);
		ap_pmf_sta_free(sta);
		auth_sess_free(sta->auth); /* wipes any PMK it produced */
		memset(sta, 0, sizeof(*sta)); /* the RSNE copy and counters */
		free(sta);
	}
}

void ap_sta_remove(struct ap_sta *sta, uint16_t reason, bool notify_peer)
{
	struct ap *ap = sta->ap;
	if (sta->removed)
		return; /* already on its way out */
	sta->removed = true;
	/* Unlinked first: callbacks run by the state change may walk the
	 * table (ap_stop) or look the address up again. */
	sta_table_remove(&ap->stas, sta);
	if (notify_peer)
		ap_send_deauth(ap, sta->addr, reason, NULL);
	sta->leave_reason = reason;
	ap_sta_enter_state(sta, AP_STA_NONE);
	ap_sae_park(ap, sta); /* its late SAE frames still meet their instance */
	sta->lnext = ap->dead;
	ap->dead = sta;
	if (ap->reaper)
		loop_idle_schedule(ap->reaper);
}

void ap_sta_remove_all(struct ap *ap, uint16_t reason, bool notify_peer)
{
	struct ap_sta *sta;
	while ((sta = sta_table_first(&ap->stas)))
		ap_sta_remove(sta, reason, notify_peer);
}

void ap_sta_disassociate(struct ap_sta *sta, uint16_t reason)
{
	if (!ap_sta_is_associated(sta) && !sta->assoc_resp_pending && !sta->in_driver)
		return;
	sta->leave_reason = reason;
	if (sta->state == AP_STA_AUTHENTICATED)
		leave_association(sta); /* response still in flight */
	else
		ap_sta_enter_state(sta, AP_STA_AUTHENTICATED);
}

/* The per-station timer: an association response that never got a TX
 * status, or an authenticated station that never associated. */
static void sta_timer_fired(struct loop_timer *timer, void *data)
{
	struct ap_sta *sta = data;
	char a[AP_ADDR_STR_LEN];
	if (sta->assoc_resp_pending) {
		log_info("%s: no TX status for the association response", ap_addr_str(sta->addr, a));
		leave_association(sta);
		ap_sta_arm_timer(sta, AP_AUTH_EXPIRY_MS);
		return;
	}
	if (sta->state == AP_STA_AUTHENTICATED) {
		log_info("%s authenticated but did not associate: removed",
			 ap_addr_str(sta->addr, a));
		ap_sta_remove(sta, WLAN_REASON_PREV_AUTH_NOT_VALID, true);
	} else if (sta->state == AP_STA_NONE && sta->auth) {
		log_info("%s did not finish authentication (%s): removed",
			 ap_addr_str(sta->addr, a), sta->auth->proto->name);
		ap_sta_remove(sta, WLAN_REASON_PREV_AUTH_NOT_VALID, false);
	}
}

void ap_sta_fill_info(struct ap_sta *sta, struct ap_station_info *info, bool ask_driver)
{
	struct ap *ap = sta->ap;
	struct driver_sta_info di;
	memset(info, 0, sizeof(*info));
	memcpy(info->addr, sta->addr, 6);
	info->state = sta->state;
	info->aid = ap_sta_is_associated(sta) ? sta->aid : 0;
	info->signal_mbm = sta->signal_mbm;
	if (ask_driver && sta->in_driver &&
	    driver_sta_info(ap->drv, ap->ifindex, sta->addr, &di) == 0 && di.signal_mbm)
		info->signal_mbm = di.signal_mbm;
	if (sta->assoc_time_us && ap_sta_is_associated(sta))
		info->connected_s = (uint32_t)((loop_now_us(ap->loop) - sta->assoc_time_us) / 1000000u);
	info->mic_failures = sta->mic_failures;
	info->pairwise_cipher = sta->pairwise;
	info->akm = sta->akm;
	info->handshakes = ap_keys_sta_handshakes(sta);
}

/* ---- inactivity ---- */

void ap_sta_inactive(struct ap *ap, const uint8_t addr[6])
{
	struct ap_sta *sta = ap_sta_find(ap, addr);
	char a[AP_ADDR_STR_LEN];
	if (!sta || !ap_sta_is_associated(sta))
		return;
	log_info("%s inactive for %u s: deauthenticating", ap_addr_str(addr, a),
		 ap->conf.inactivity_s);
	ap_sta_remove(sta, WLAN_REASON_DISASSOC_DUE_TO_INACTIVITY, true);
}

void ap_sta_idle(struct ap *ap, const uint8_t addr[6])
{
	struct ap_sta *sta = ap_sta_find(ap, addr);
	char a[AP_ADDR_STR_LEN];
	if (!sta || !ap_sta_is_associated(sta) || sta->probing)
		return;
	int r = driver_probe_client(ap->drv, ap->ifindex, addr, &sta->probe_cookie);
	if (r < 0) {
		if (r != -EOPNOTSUPP)
			log_debug("%s: cannot poll it (%s)", ap_addr_str(addr, a), strerror(-r));
		ap_sta_inactive(ap, addr);
		return;
	}
	sta->probing = true;
	sta->probe_sent_us = loop_now_us(ap->loop);
	log_debug("%s idle for %u s: polling it", ap_addr_str(addr, a), ap->conf.inactivity_s);
}

void ap_sta_probe_status(struct ap *ap, const struct driver_event *ev)
{
	char a[AP_ADDR_STR_LEN];
	for (struct ap_sta *s = sta_table_first(&ap->stas); s; s = sta_table_next(s)) {
		if (!s->probing || s->probe_cookie != ev->u.tx_status.cookie)
			continue;
		s->probing = false;
		if (ev->u.tx_status.acked) {
			s->probe_acked_us = loop_now_us(ap->loop);
			log_debug("%s answered the poll: still here", ap_addr_str(s->addr, a));
			return;
		}
		log_info("%s did not answer the poll", ap_addr_str(s->addr, a));
		ap_sta_inactive(ap, s->addr);
		return;
	}
}

/* Every associated station's idle time, from the driver (drivers that
 * report DRIVER_EV_STA_INACTIVE themselves get the same treatment): an
 * idle one is polled, one whose poll went unanswered for AP_PROBE_WAIT_MS
 * is dropped. A driver without sta_info ends the poll (inactivity is then
 * the driver's job alone). The next look is when the first station can
 * reach the limit, not a fixed period: an idle AP wakes once per limit
 * (issue 21), and a silent station goes on time. */
static void inactivity_poll(struct loop_timer *timer, void *data)
{
	struct ap *ap = data;
	uint32_t limit_ms = ap->conf.inactivity_s * 1000u;
	uint64_t now = loop_now_us(ap->loop);
	uint64_t next_ms = limit_ms;
	struct ap_sta *sta = sta_table_first(&ap->stas);
	while (sta && ap_is_running(ap)) {
		struct ap_sta *next = sta_table_next(sta);
		struct driver_sta_info di;
		if (ap_sta_is_associated(sta) && sta->in_driver) {
			if (sta->probing) {
				uint64_t waited_ms = (now - sta->probe_sent_us) / 1000u;
				if (waited_ms >= AP_PROBE_WAIT_MS)
					ap_sta_inactive(ap, sta->addr);
				else if (AP_PROBE_WAIT_MS - waited_ms < next_ms)
					next_ms = AP_PROBE_WAIT_MS - waited_ms;
				sta = next;
				continue;
			}
			int r = driver_sta_info(ap->drv, ap->ifindex, sta->addr, &di);
			if (r == -EOPNOTSUPP)
				return;
			/* An acknowledged poll is activity, whether or not the
			 * driver counts ACKs in its idle time (mac80211 does). */
			if (r == 0 && sta->probe_acked_us &&
			    (now - sta->probe_acked_us) / 1000u < di.inactive_ms)
				di.inactive_ms = (uint32_t)((now - sta->probe_acked_us) / 1000u);
			if (r == 0 && di.inactive_ms >= limit_ms) {
				ap_sta_idle(ap, sta->addr);
				if (AP_PROBE_WAIT_MS < next_ms) /* its answer, or not */
					next_ms = AP_PROBE_WAIT_MS;
			} else if (r == 0 && limit_ms - di.inactive_ms < next_ms) {
				next_ms = limit_ms - di.inactive_ms;
			}
		}
		sta = next;
	}
	if (next_ms < INACTIVITY_POLL_MIN_MS)
		next_ms = INACTIVITY_POLL_MIN_MS;
	if (ap_is_running(ap)) /* a callback may have stopped us */
		loop_timer_arm_ms(timer, next_ms);
}

/* A station that joins later cannot reach the limit before it has passed
 * once from now: the first look is then. */
void ap_inactivity_start(struct ap *ap)
{
	if (!ap->conf.inactivity_s)
		return;
	if (!ap->inact_timer)
		ap->inact_timer = loop_timer_new(ap->loop, inactivity_poll, ap);
	if (ap->inact_timer)
		loop_timer_arm_ms(ap->inact_timer, (uint64_t)ap->conf.inactivity_s * 1000u);
}

void ap_inactivity_stop(struct ap *ap)
{
	if (ap->inact_timer)
		loop_timer_disarm(ap->inact_timer);
}

struct loop_idle *ap_sta_reaper_new(struct ap *ap)
{
	return loop_idle_new(ap->loop, reaper_run, ap);
}
