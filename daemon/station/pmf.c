/* The station's part of management frame protection: SA Query
 * (IEEE 802.11-2020 11.13) towards its AP.
 *
 * MFP is in use on a link once an IGTK is installed (the handshake installs
 * one only when MFP was negotiated). Then the driver drops unprotected
 * robust frames and reports an unprotected Deauthentication/Disassociation
 * as DRIVER_EV_UNPROT_DEAUTH/_DISASSOC instead of ending the link: it may be
 * a spoof, or the AP lost our keys (restarted). We ask the AP with SA Query
 * requests (protected); a matching response keeps the link, silence for
 * the maximum timeout (1 s) ends it as if the AP had deauthenticated us.
 * SA Query requests from the AP are answered.
 */
#define LOG_TAG "station"
#include "daemon/station/station_i.h"

#include <errno.h>
#include <string.h>

#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/rsn/sa_query.h"

#define SAQ_FRAME_MAX 64

static bool mfp_in_use(const struct station *st)
{
	return st->state == STATION_CONNECTED && (st->keys_installed & KEY_BIT_PTK) &&
	       (st->keys_installed & (KEY_BIT_IGTK(4) | KEY_BIT_IGTK(5)));
}

static int saq_send(void *ctx, const uint8_t *action, size_t len)
{
	struct station *st = ctx;
	uint8_t buf[SAQ_FRAME_MAX];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	uint64_t cookie;

	if (mgmt_build_action(&w, st->bssid, st->addr, st->bssid, action, len) < 0)
		return -EINVAL;
	return driver_tx_mgmt(st->drv, st->ifindex, 0, buf, w.len, false, &cookie);
}

static void saq_done(void *ctx, bool alive)
{
	struct station *st = ctx;
	char a[18];

	if (alive || st->state != STATION_CONNECTED)
		return;
	struct wpad_error why;
	wpad_error_set(&why, WPAD_ERR_NOT_CONNECTED, ETIMEDOUT, -1, WLAN_REASON_UNSPECIFIED,
		       "the access point %s sent an unprotected deauthentication and did not "
		       "answer SA Query: it has lost this connection's keys",
		       bss_addr_str(st->bssid, a));
	station_link_lost(st, &why);
}

static const struct sa_query_ops saq_ops = { .send = saq_send, .done = saq_done };

static struct sa_query *saq(struct station *st)
{
	if (!st->sa_query)
		st->sa_query = sa_query_new(st->loop, &saq_ops, st, NULL);
	return st->sa_query;
}

/* Without the registration the driver (mac80211) answers SA Query
 * requests itself, but we would never see responses to ours. */
void station_pmf_register(struct station *st)
{
	static const uint8_t category = WLAN_ACTION_SA_QUERY;
	int r = driver_register_mgmt(st->drv, st->ifindex,
				     IEEE80211_FC(IEEE80211_FTYPE_MGMT, IEEE80211_STYPE_ACTION),
				     &category, 1);
	if (r < 0 && r != -EALREADY)
		log_warn("SA Query frames not registered (%s): an unprotected deauthentication "
			 "will end the link after the SA Query timeout",
			 strerror(-r));
}

void station_pmf_unprot_leave(struct station *st, const struct driver_event *ev)
{
	struct mgmt_frame f;
	char a[18];

	if (!ev->u.mgmt.frame || mgmt_parse(ev->u.mgmt.frame, ev->u.mgmt.len, &f) < 0 ||
	    memcmp(f.sa, st->bssid, DRIVER_ADDR_LEN) != 0 || !mfp_in_use(st))
		return;
	log_info("unprotected %s from %s (reason %u): checking the link with SA Query",
		 ev->type == DRIVER_EV_UNPROT_DEAUTH ? "deauthentication" : "disassociation",
		 bss_addr_str(st->bssid, a), f.u.reason);
	struct sa_query *q = saq(st);
	if (!q) {
		log_warn("out of memory: SA Query not started");
		return;
	}
	int err = sa_query_start(q);
	if (err < 0 && err != -EALREADY)
		log_warn("SA Query not started: %s", strerror(-err));
}

bool station_pmf_rx_mgmt(struct station *st, const struct driver_event *ev)
{
	struct mgmt_frame f;

	if (!ev->u.mgmt.frame || mgmt_parse(ev->u.mgmt.frame, ev->u.mgmt.len, &f) < 0 ||
	    f.subtype != IEEE80211_STYPE_ACTION || f.u.action.category != WLAN_ACTION_SA_QUERY)
		return false;
	/* Only from our AP, and only over a protected link (the driver
	 * decrypted it; unprotected ones were dropped below us). */
	if (memcmp(f.sa, st->bssid, DRIVER_ADDR_LEN) != 0 || !mfp_in_use(st))
		return true;
	struct sa_query *q = saq(st);
	if (q)
		(void)sa_query_rx(q, f.body, f.body_len);
	return true;
}

/* The longest comeback time honoured (TU); an AP asking for more is
 * treated as a refusal. */
#define STATION_PMF_MAX_COMEBACK_TU 10000

bool station_pmf_comeback(struct station *st, const struct mgmt_frame *resp)
{
	struct ie_elem e;
	struct ie_timeout_interval ti;
	char a[18];

	if (st->conn.assoc_tries >= STATION_ASSOC_TRIES || !resp->ies ||
	    !ie_find(resp->ies, resp->ies_len, WLAN_EID_TIMEOUT_INTERVAL, &e) ||
	    ie_parse_timeout_interval(e.data, e.len, &ti) != 0 ||
	    ti.type != TIMEOUT_ASSOC_COMEBACK || ti.value > STATION_PMF_MAX_COMEBACK_TU)
		return false;
	uint32_t ms = (uint32_t)(((uint64_t)ti.value * 1024 + 999) / 1000);
	log_info("%s still has an association with us under management frame protection: "
		 "coming back in %u ms (status 30)",
		 bss_addr_str(resp->bssid, a), ms);
	station_arm_timer(st, ms);
	return true;
}

void station_pmf_stop(struct station *st)
{
	if (st->sa_query)
		sa_query_stop(st->sa_query);
}

void station_pmf_free(struct station *st)
{
	sa_query_free(st->sa_query);
	st->sa_query = NULL;
}
