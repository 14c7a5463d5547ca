/* The AP's SAE state (IEEE 802.11-2020 12.4), one per BSS: the
 * configuration every station's SAE session reads (password, groups,
 * which password element methods are accepted), the anti-clogging state
 * (pending commits, the token secret on the loop's clock), the PT cache of
 * hash-to-element, and the RSNXE that advertises SAE H2E. The sessions
 * themselves live on the station entries (ap_mgmt.c), and a while after
 * an entry goes, here (ap_sae_park). */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/codec/frame.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/auth_proto.h"
#include "daemon/rsn/auth_sae.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static uint64_t sae_clock(void *data)
{
	return loop_now_us(data);
}

/* RSNXE (9.4.2.241): one octet of capabilities, field length 0 (one
 * octet), SAE H2E set when the BSS takes H2E commits. */
static void build_rsnxe(struct ap *ap)
{
	ap->rsnxe_len = 0;
	if (!ap->conf.sae || ap->conf.sae_pwe == SAE_PWE_HUNT_AND_PECK)
		return;
	ap->rsnxe[0] = WLAN_EID_RSNX;
	ap->rsnxe[1] = 1;
	ap->rsnxe[2] = 1u << RSNX_CAPAB_SAE_H2E;
	ap->rsnxe_len = 3;
}

int ap_sae_start(struct ap *ap)
{
	ap_sae_stop(ap);
	build_rsnxe(ap);
	if (!ap->conf.rsn || !ap->conf.sae)
		return 0;
	auth_sae_conf_init(&ap->sae);
	memcpy(ap->sae.ssid, ap->conf.ssid, ap->conf.ssid_len);
	ap->sae.ssid_len = ap->conf.ssid_len;
	ap->sae.pwe = ap->conf.sae_pwe;
	if (auth_sae_conf_add_password(&ap->sae, ap->conf.sae_password, NULL) < 0)
		return -EINVAL;
	if (ap->sae_pw_id[0] &&
	    auth_sae_conf_add_password(&ap->sae, ap->conf.sae_password, ap->sae_pw_id) < 0)
		return -EINVAL;
	ap->sae_pt = sae_pt_cache_new();
	if (!ap->sae_pt)
		return -ENOMEM;
	ap->sae.pt_cache = ap->sae_pt;
	sae_clog_init(&ap->clog, sae_clock, ap->loop);
	if (ap->sae_clog_threshold)
		ap->clog.threshold = ap->sae_clog_threshold;
	ap->sae.clog = &ap->clog;
	ap->sae_on = true;
	log_info("SAE: %s, anti-clogging from %u pending commits",
		 sae_pwe_mode_name(ap->sae.pwe), ap->clog.threshold);
	return 0;
}

static void parked_free(struct ap_sae_parked *k)
{
	auth_sess_free(k->sess);
	memset(k, 0, sizeof(*k));
}

/* Kept instances past their time are freed: one still committed counts
 * toward the anti-clogging threshold while it is kept. */
static void parked_expire(struct ap *ap)
{
	uint64_t now = loop_now_us(ap->loop);
	for (size_t i = 0; i < AP_SAE_PARKED_MAX; i++)
		if (ap->sae_parked[i].sess && now >= ap->sae_parked[i].until_us)
			parked_free(&ap->sae_parked[i]);
}

static struct ap_sae_parked *parked_find(struct ap *ap, const uint8_t addr[6])
{
	for (size_t i = 0; i < AP_SAE_PARKED_MAX; i++)
		if (ap->sae_parked[i].sess && !memcmp(ap->sae_parked[i].addr, addr, 6))
			return &ap->sae_parked[i];
	return NULL;
}

/* Why keep an instance past its station entry: the entry goes on a timer
 * (authenticated but did not associate, an exchange that did not finish),
 * while copies of the station's commit and confirm may still be in the
 * air or in its queue. A new instance made from such a copy draws a new
 * commit of ours; the station, already on its next exchange, can take
 * that commit for the answer to its new one, and the copy of its old
 * confirm that follows fails against it: status 15, which the station
 * reads as a wrong password (issue 15, 100 stations under load). Kept,
 * the accepted instance drops those copies as it did while the station
 * had an entry (12.4.8.6: a commit repeating the accepted scalar is
 * discarded), and one still under way answers with the same commit. */
void ap_sae_park(struct ap *ap, struct ap_sta *sta)
{
	struct auth_sess *s = sta->auth;
	enum sae_state st = auth_sae_state(s);
	if (!ap->sae_on || !s || s->proto != &auth_sae ||
	    (st != SAE_STATE_COMMITTED && st != SAE_STATE_ACCEPTED))
		return;
	parked_expire(ap);
	struct ap_sae_parked *k = parked_find(ap, sta->addr);
	for (size_t i = 0; !k && i < AP_SAE_PARKED_MAX; i++)
		if (!ap->sae_parked[i].sess)
			k = &ap->sae_parked[i];
	if (!k) { /* full: the one that ends first makes room */
		k = &ap->sae_parked[0];
		for (size_t i = 1; i < AP_SAE_PARKED_MAX; i++)
			if (ap->sae_parked[i].until_us < k->until_us)
				k = &ap->sae_parked[i];
	}
	if (k->sess)
		parked_free(k);
	auth_sae_park(s);
	memcpy(k->addr, sta->addr, 6);
	k->sess = s;
	k->until_us = loop_now_us(ap->loop) + AP_SAE_PARK_MS * 1000ull;
	sta->auth = NULL;
}

struct auth_sess *ap_sae_unpark(struct ap *ap, const struct mgmt_frame *f, bool *drop)
{
	*drop = false;
	parked_expire(ap);
	struct ap_sae_parked *k = parked_find(ap, f->sa);
	if (!k)
		return NULL;
	bool ours = f->u.auth.seq == 2 ||
		    (f->u.auth.seq == 1 &&
		     auth_sae_same_commit(k->sess, f->u.auth.sae_body, f->u.auth.sae_len));
	if (ours && auth_sae_state(k->sess) == SAE_STATE_ACCEPTED) {
		*drop = true;
		return NULL;
	}
	struct auth_sess *s = ours ? k->sess : NULL;
	if (s)
		k->sess = NULL;
	parked_free(k);
	return s;
}

void ap_sae_stop(struct ap *ap)
{
	if (!ap->sae_on)
		return;
	for (size_t i = 0; i < AP_SAE_PARKED_MAX; i++)
		parked_free(&ap->sae_parked[i]);
	ap->sae_on = false;
	auth_sae_conf_clear(&ap->sae);
	ap->sae.clog = NULL;
	ap->sae.pt_cache = NULL;
	sae_clog_clear(&ap->clog);
	sae_pt_cache_free(ap->sae_pt);
	ap->sae_pt = NULL;
}

void *ap_sae_ctx(struct ap *ap)
{
	return ap->sae_on ? &ap->sae : NULL;
}

void ap_set_sae_for_test(struct ap *ap, unsigned clog_threshold, const char *password_id)
{
	ap->sae_clog_threshold = clog_threshold;
	snprintf(ap->sae_pw_id, sizeof(ap->sae_pw_id), "%s", password_id ? password_id : "");
}

const struct sae_clog *ap_sae_clog(const struct ap *ap)
{
	return ap->sae_on ? &ap->clog : NULL;
}
