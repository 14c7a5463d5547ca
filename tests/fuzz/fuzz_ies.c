/* Fuzz ie_parse over a whole element list, and ie_parse_fte on any FTE.
 *
 * Oracle: every element ie_parse decoded can be rebuilt with its builder;
 * the rebuilt list parses, and rebuilding that gives identical octets.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define OUT_MAX 8192

static void must(int err)
{
	if (err != CODEC_OK)
		abort();
}

static void rebuild_basic(struct wbuf *w, const struct ie_set *s)
{
	if (s->has_ssid)
		must(ie_build_ssid(w, s->ssid.ssid, s->ssid.len));
	if (s->has_supp_rates)
		must(ie_build_supp_rates(w, s->supp_rates.rates, s->supp_rates.n));
	if (s->has_ext_rates)
		must(ie_build(w, WLAN_EID_EXT_SUPP_RATES, s->ext_rates.rates, s->ext_rates.n));
	if (s->has_ds)
		must(ie_build_ds(w, s->ds_channel));
	if (s->has_tim)
		must(ie_build_tim(w, &s->tim));
	if (s->has_country)
		must(ie_build_country(w, s->country.country, s->country.triplets,
				      s->country.n_triplets));
	if (s->has_ext_capab)
		must(ie_build_ext_capab(w, s->ext_capab.bits, s->ext_capab.len));
}

static void rebuild_rest(struct wbuf *w, const struct ie_set *s)
{
	if (s->has_rsn)
		must(ie_build_rsn(w, &s->rsn));
	if (s->has_wpa)
		must(ie_build_wpa(w, &s->wpa));
	if (s->has_rsnxe)
		must(ie_build_rsnxe(w, s->rsnxe.capab));
	if (s->has_wmm)
		must(ie_build_wmm(w, &s->wmm));
	if (s->has_ht_cap)
		must(ie_build_ht_cap(w, &s->ht_cap));
	if (s->has_ht_op)
		must(ie_build_ht_op(w, &s->ht_op));
	if (s->has_vht_cap)
		must(ie_build_vht_cap(w, &s->vht_cap));
	if (s->has_vht_op)
		must(ie_build_vht_op(w, &s->vht_op));
	if (s->has_he_cap)
		must(ie_build_he_cap(w, &s->he_cap));
	if (s->has_he_op)
		must(ie_build_he_op(w, &s->he_op));
	if (s->has_csa)
		must(ie_build_csa(w, &s->csa));
	if (s->has_ecsa)
		must(ie_build_ecsa(w, &s->ecsa));
	if (s->has_wide_bw_cs)
		must(ie_build_csw_wrapper(w, &s->wide_bw_cs));
	if (s->has_mde)
		must(ie_build_mde(w, &s->mde));
}

static size_t rebuild(const struct ie_set *s, uint8_t *out)
{
	struct wbuf w = wbuf_init(out, OUT_MAX);
	rebuild_basic(&w, s);
	rebuild_rest(&w, s);
	return w.len;
}

static void check_fte(const uint8_t *body, size_t len)
{
	static const size_t mic_lens[] = { 0, 16, 24, 32 };
	static uint8_t out[512], again[512];
	struct ie_fte fte, fte2;

	for (size_t i = 0; i < sizeof(mic_lens) / sizeof(mic_lens[0]); i++) {
		if (ie_parse_fte(body, len, mic_lens[i], &fte) != CODEC_OK)
			continue;
		struct wbuf w = wbuf_init(out, sizeof(out));
		must(ie_build_fte(&w, &fte, NULL));
		must(ie_parse_fte(out + 2, w.len - 2, fte.mic_len, &fte2));
		struct wbuf w2 = wbuf_init(again, sizeof(again));
		must(ie_build_fte(&w2, &fte2, NULL));
		if (w2.len != w.len || memcmp(out, again, w.len) != 0)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t first[OUT_MAX], second[OUT_MAX];
	struct ie_set s, s2;

	if (ie_parse(data, size, &s) != CODEC_OK)
		return 0;
	if (s.fte)
		check_fte(s.fte, s.fte_len);
	size_t n1 = rebuild(&s, first);
	if (ie_parse(first, n1, &s2) != CODEC_OK)
		abort();
	size_t n2 = rebuild(&s2, second);
	if (n1 != n2 || memcmp(first, second, n1) != 0)
		abort();
	return 0;
}
