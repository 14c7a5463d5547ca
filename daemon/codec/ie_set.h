/* Parse a whole element list (beacon, probe, association body, ...) into
 * one struct of decoded elements.
 *
 * Policy:
 *  - framing errors anywhere stop the parse (see ie.h for the codes);
 *  - each element we decode is checked; a bad one fails the whole list,
 *    and bad_id/bad_ext_id say which element it was;
 *  - the decoded elements are singletons: a second SSID, RSNE, HT
 *    Capabilities, WMM info/param, WPA element, ... gives
 *    CODEC_E_DUPLICATE (the standard allows one; two means a broken or
 *    hostile sender, and picking either one would be a guess);
 *  - elements we do not decode, and vendor elements other than WPA and
 *    WMM info/param, are skipped and may repeat; vendor bodies are opaque.
 * FTE is only length-checked here, because its MIC length depends on the
 * AKM: decode set->fte with ie_parse_fte() once the AKM is known.
 */
#ifndef WPAD_CODEC_IE_SET_H
#define WPAD_CODEC_IE_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/codec/ie_basic.h"
#include "daemon/codec/ie_csa.h"
#include "daemon/codec/ie_ft.h"
#include "daemon/codec/ie_ht.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ie_wmm.h"

struct ie_set {
	bool has_ssid;
	struct ie_ssid ssid;
	bool has_supp_rates;
	struct ie_rates supp_rates;
	bool has_ext_rates;
	struct ie_rates ext_rates;
	bool has_ds;
	uint8_t ds_channel;
	bool has_tim;
	struct ie_tim tim;
	bool has_country;
	struct ie_country country;

	/* RSN/WPA: decoded, plus the whole element (header included) since
	 * the 4-way handshake compares elements octet for octet. */
	bool has_rsn;
	struct ie_rsn rsn;
	const uint8_t *rsn_elem;
	size_t rsn_elem_len;
	bool has_wpa;
	struct ie_rsn wpa;
	const uint8_t *wpa_elem;
	size_t wpa_elem_len;
	bool has_rsnxe;
	struct ie_rsnxe rsnxe;
	const uint8_t *rsnxe_elem;
	size_t rsnxe_elem_len;

	bool has_wmm;
	struct ie_wmm wmm;
	bool has_ht_cap;
	struct ie_ht_cap ht_cap;
	bool has_ht_op;
	struct ie_ht_op ht_op;
	bool has_vht_cap;
	struct ie_vht_cap vht_cap;
	bool has_vht_op;
	struct ie_vht_op vht_op;
	bool has_he_cap;
	struct ie_he_cap he_cap;
	bool has_he_op;
	struct ie_he_op he_op;
	bool has_csa;          /* Channel Switch Announcement */
	struct ie_csa csa;
	bool has_ecsa;         /* Extended Channel Switch Announcement */
	struct ie_csa ecsa;
	bool has_csw;          /* Channel Switch Wrapper (its width in wide_bw_cs if found) */
	bool has_wide_bw_cs;
	struct ie_wide_bw_cs wide_bw_cs;
	bool has_ext_capab;
	struct ie_ext_capab ext_capab;
	bool has_mde;
	struct ie_mde mde;
	const uint8_t *fte; /* body, for ie_parse_fte() */
	uint8_t fte_len;

	size_t n_elems;  /* every element seen, decoded or not */
	size_t n_vendor; /* vendor-specific elements seen */

	/* On error: the element that failed (id 255 uses bad_ext_id). */
	uint8_t bad_id;
	uint8_t bad_ext_id;
};

int ie_parse(const uint8_t *buf, size_t len, struct ie_set *set);

#endif
