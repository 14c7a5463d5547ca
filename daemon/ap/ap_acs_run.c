/* Channel=auto and the 2.4 GHz 40 MHz check, against the air: the radio's
 * survey and the BSSs its last scan heard, fed to ap_acs.c / ap_chan.c. */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/ap/ap_acs.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* HT Capabilities Info bit 14: Forty MHz Intolerant. */
#define HT_CAP_40_INTOLERANT 0x4000

/* The primary channel a BSS announces (DS Parameter Set, else HT
 * Operation), else the frequency it was heard on. */
static uint32_t bss_primary(const struct driver_scan_result *r, const struct ie_set *s,
			    enum driver_band band)
{
	uint8_t ch = s->has_ds ? s->ds_channel : s->has_ht_op ? s->ht_op.primary_channel : 0;
	uint32_t f = ch ? ap_channel_to_freq(band, ch) : 0;
	return f ? f : r->freq_mhz;
}

/* The neighbours in band from the driver's scan results (may be none). */
static size_t neighbours(struct ap *ap, enum driver_band band, struct ap_acs_bss **acs,
			 struct ap_obss **obss)
{
	struct driver_scan_results res = { 0 };
	*acs = NULL;
	*obss = NULL;
	if (driver_get_scan_results(ap->drv, ap->ifindex, &res) < 0 || !res.n)
		return 0;
	*acs = calloc(res.n, sizeof(**acs));
	*obss = calloc(res.n, sizeof(**obss));
	size_t n = 0;
	for (size_t i = 0; *acs && *obss && i < res.n; i++) {
		const struct driver_scan_result *r = &res.results[i];
		struct ie_set s;
		if (ap_freq_to_band(r->freq_mhz) != band)
			continue;
		if (ie_parse(r->ies, r->ies_len, &s) != 0)
			memset(&s, 0, sizeof(s));
		uint32_t pri = bss_primary(r, &s, band);
		(*acs)[n] = (struct ap_acs_bss){ .freq_mhz = pri, .signal_mbm = r->signal_mbm };
		(*obss)[n].pri_mhz = pri;
		if (s.has_ht_op && s.ht_op.sec_chan_offset == HT_OP_SEC_CHAN_ABOVE)
			(*obss)[n].sec_mhz = pri + 20;
		else if (s.has_ht_op && s.ht_op.sec_chan_offset == HT_OP_SEC_CHAN_BELOW)
			(*obss)[n].sec_mhz = pri - 20;
		(*obss)[n].intolerant = s.has_ht_cap && (s.ht_cap.cap_info & HT_CAP_40_INTOLERANT);
		n++;
	}
	driver_scan_results_free(&res);
	return n;
}

int ap_acs_run(struct ap *ap, struct wpad_error *err)
{
	struct driver_survey *sv = calloc(DRIVER_MAX_SURVEY, sizeof(*sv));
	struct ap_acs_result *res = calloc(1, sizeof(*res));
	struct ap_acs_bss *bss;
	struct ap_obss *obss;
	size_t n_sv = 0;
	int r = -ENOMEM;
	if (!sv || !res)
		goto out;
	if (driver_get_survey(ap->drv, ap->ifindex, sv, DRIVER_MAX_SURVEY, &n_sv) < 0)
		n_sv = 0; /* choose from the scan alone */
	size_t n_bss = neighbours(ap, ap->conf.band, &bss, &obss);
	struct ap_acs_input in = { .capa = &ap->capa, .band = ap->conf.band,
				   .width_mhz = ap->conf.want_width, .survey = sv, .n_survey = n_sv,
				   .bss = bss, .n_bss = n_bss };
	r = ap_acs_choose(&in, res);
	free(bss);
	free(obss);
	for (size_t i = 0; i < res->n; i++)
		log_debug("channel selection: %s", res->cand[i].why);
	if (r < 0) {
		wpad_error_set(err, WPAD_ERR_REGULATORY_FORBIDDEN, ENOENT, -1, -1,
			       "Channel=auto: %s", res->summary);
		log_warn("access point %u: Channel=auto: %s", ap->ifindex, res->summary);
		goto out;
	}
	log_info("access point %u: Channel=auto chose %s (survey of %zu channels, %zu BSSs heard)",
		 ap->ifindex, res->summary, n_sv, n_bss);
	ap->conf.freq_mhz = res->freq_mhz;
	ap->conf.channel = ap_freq_to_channel(res->freq_mhz);
	ap->conf.chandef = res->cand[res->chosen].chandef;
	snprintf(ap->channel_choice, sizeof(ap->channel_choice), "%s", res->summary);
out:
	free(sv);
	free(res);
	if (r == -ENOMEM)
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory");
	return r;
}

void ap_obss_check(struct ap *ap)
{
	struct ap_chandef *cd = &ap->conf.chandef;
	struct ap_acs_bss *bss;
	struct ap_obss *obss;
	const char *why = NULL;
	if (ap->conf.band != DRIVER_BAND_2GHZ || cd->width_mhz != 40)
		return;
	size_t n = neighbours(ap, DRIVER_BAND_2GHZ, &bss, &obss);
	bool ok = ap_chan_2g4_40_allowed(cd, obss, n, &why);
	free(bss);
	free(obss);
	if (ok)
		return;
	log_warn("access point %u: 20/40 coexistence (IEEE 802.11-2020 11.16.3): %s; using 20 MHz",
		 ap->ifindex, why);
	ap_chan_pick(&ap->capa, DRIVER_BAND_2GHZ, ap->conf.freq_mhz, 20, false, cd, NULL);
}

const char *ap_channel_choice(const struct ap *ap)
{
	return ap->channel_choice;
}

unsigned ap_channel_width(const struct ap *ap)
{
	return ap->state == AP_STATE_STOPPED ? 0 : ap->conf.chandef.width_mhz;
}

int ap_rescan_channel(struct ap *ap)
{
	struct wpad_error err;
	if (ap->state != AP_STATE_STARTED)
		return -ENOTCONN;
	if (!ap->conf.channel_auto)
		return -EOPNOTSUPP;
	uint32_t old = ap->conf.freq_mhz;
	struct ap_chandef old_cd = ap->conf.chandef;
	int r = ap_acs_run(ap, &err);
	if (r < 0)
		return r;
	uint32_t chosen = ap->conf.freq_mhz;
	struct ap_chandef cd = ap->conf.chandef;
	if (chosen == old)
		return 0;
	/* The move starts from the old definition. */
	ap->conf.freq_mhz = old;
	ap->conf.channel = ap_freq_to_channel(old);
	ap->conf.chandef = old_cd;
	/* Announced (stations follow) where the driver can switch channels
	 * with a CSA, else retuned or restarted (ap_move decides). */
	return ap_move(ap, chosen, &cd, AP_MOVE_RESCAN);
}
