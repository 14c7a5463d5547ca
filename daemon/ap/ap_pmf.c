/* The access point's part of management frame protection: SA Query
 * (IEEE 802.11-2020 11.13) and the association comeback of 11.3.5.3.
 *
 * A station with MFP in use (sta->pmf.mfp, set by the negotiation, with
 * keys installed) that sends an Authentication or (Re)Association Request
 * while associated may be a restarted station that lost its keys, or
 * someone spoofing it. The association is therefore not dropped: an
 * Authentication is answered without touching it, and a (Re)Association
 * is refused with status 30 (association rejected temporarily) and a
 * Timeout Interval element giving the comeback time, while an SA Query
 * (protected, with the keys of the association) asks the real station. If
 * it answers, the association stays; if it stays silent for the SA Query
 * maximum timeout (1 s), the old association is released without a frame,
 * and the station's next (Re)Association Request after its comeback time
 * is admitted: a station restarted without deauthentication is back in
 * within comeback time + one retry, about 1-2 s.
 *
 * SA Query requests from associated MFP stations are answered.
 */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include <errno.h>
#include <string.h>

#include "daemon/codec/frame.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/pmf.h"
#include "daemon/core/log.h"
#include "daemon/rsn/sa_query.h"

#define PMF_FRAME_MAX 128

/* Only an association whose 4-way handshake completed has the security
 * association MFP protects (11.13): before that there is no PTK, so no
 * protected SA Query could reach the station and none could come back. A
 * station that re-authenticates or re-associates while its handshake is
 * still pending (it gave up on our late association response) replaces
 * that association instead of being told to come back later. */
bool ap_pmf_protected(const struct ap_sta *sta)
{
	return sta->pmf.mfp && sta->state == AP_STA_AUTHORIZED && sta->in_driver;
}

static int send_action(void *ctx, const uint8_t *action, size_t len)
{
	struct ap_sta *sta = ctx;
	struct ap *ap = sta->ap;
	uint8_t buf[PMF_FRAME_MAX];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	uint64_t cookie;

	if (mgmt_build_action(&w, sta->addr, ap->addr, ap->addr, action, len) < 0)
		return -EINVAL;
	return driver_tx_mgmt(ap->drv, ap->ifindex, 0, buf, w.len, false, &cookie);
}

static void sa_query_done(void *ctx, bool alive)
{
	struct ap_sta *sta = ctx;
	char a[AP_ADDR_STR_LEN];

	if (alive || !ap_sta_is_associated(sta))
		return;
	log_info("%s: no SA Query response: its old association is released, it may "
		 "associate again",
		 ap_addr_str(sta->addr, a));
	/* No frame: the station has lost the keys a protected one needs. */
	ap_sta_disassociate(sta, WLAN_REASON_PREV_AUTH_NOT_VALID);
}

static const struct sa_query_ops sa_query_ops = { .send = send_action, .done = sa_query_done };

static struct sa_query *sta_sa_query(struct ap_sta *sta)
{
	if (!sta->pmf.sa_query)
		sta->pmf.sa_query = sa_query_new(sta->ap->loop, &sa_query_ops, sta, NULL);
	return sta->pmf.sa_query;
}

static void send_comeback(struct ap *ap, struct ap_sta *sta, bool reassoc)
{
	uint8_t ies[16], buf[PMF_FRAME_MAX];
	struct wbuf iw = wbuf_init(ies, sizeof(ies));
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct mgmt_frame f;
	uint64_t cookie;

	ie_build_timeout_interval(&iw, TIMEOUT_ASSOC_COMEBACK, AP_PMF_COMEBACK_TU);
	mgmt_init(&f, reassoc ? IEEE80211_STYPE_REASSOC_RESP : IEEE80211_STYPE_ASSOC_RESP,
		  sta->addr, ap->addr, ap->addr);
	f.u.assoc_resp.capab = ap_capability(ap);
	f.u.assoc_resp.status = WLAN_STATUS_ASSOC_REJECTED_TEMPORARILY;
	f.ies = ies;
	f.ies_len = iw.len;
	if (mgmt_build(&w, &f) < 0 ||
	    driver_tx_mgmt(ap->drv, ap->ifindex, 0, buf, w.len, false, &cookie) < 0)
		log_warn("association comeback response not sent");
}

bool ap_pmf_assoc_comeback(struct ap *ap, struct ap_sta *sta, bool reassoc)
{
	char a[AP_ADDR_STR_LEN];

	if (!ap_pmf_protected(sta))
		return false;
	struct sa_query *q = sta_sa_query(sta);
	if (!q)
		return false; /* no memory: fall back to replacing the association */
	log_info("%s: %s while associated with MFP: refused with status 30 (comeback in "
		 "%u TU), checking the old association with SA Query",
		 ap_addr_str(sta->addr, a), reassoc ? "reassociation" : "association",
		 AP_PMF_COMEBACK_TU);
	send_comeback(ap, sta, reassoc);
	int err = sa_query_start(q);
	if (err < 0 && err != -EALREADY)
		log_warn("SA Query not started: %s", strerror(-err));
	return true;
}

bool ap_pmf_rx_action(struct ap *ap, const struct mgmt_frame *f)
{
	if (f->subtype != IEEE80211_STYPE_ACTION || f->u.action.category != WLAN_ACTION_SA_QUERY)
		return false;
	struct ap_sta *sta = ap_sta_find(ap, f->sa);
	/* The driver decrypted it; an MFP station's unprotected ones were
	 * dropped below us. Others have no SA to query. */
	if (!sta || !ap_pmf_protected(sta))
		return true;
	struct sa_query *q = sta_sa_query(sta);
	if (q)
		(void)sa_query_rx(q, f->body, f->body_len);
	return true;
}

void ap_pmf_sta_left(struct ap_sta *sta)
{
	if (sta->pmf.sa_query)
		sa_query_stop(sta->pmf.sa_query);
}

void ap_pmf_sta_free(struct ap_sta *sta)
{
	sa_query_free(sta->pmf.sa_query);
	sta->pmf.sa_query = NULL;
}
