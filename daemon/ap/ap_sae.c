/* The AP's SAE state (IEEE 802.11-2020 12.4), one per BSS: the
 * configuration every station's SAE session reads (password, groups,
 * which password element methods are accepted), the anti-clogging state
 * (pending commits, the token secret on the loop's clock), the PT cache of
 * hash-to-element, and the RSNXE that advertises SAE H2E. The sessions
 * themselves live on the station entries (ap_mgmt.c). */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/secure.h"

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

void ap_sae_stop(struct ap *ap)
{
	if (!ap->sae_on)
		return;
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
