/* Fuzz the RSNE, WPA element and RSNXE body parsers.
 *
 * Input: byte 0 picks the parser (RSN, WPA, RSNXE), the rest is the
 * element body. Oracle: whatever parses builds back; without unknown
 * trailing octets the rebuilt body equals the input; the rebuilt element
 * parses to the same fields.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_rsn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool same_rsn(const struct ie_rsn *a, const struct ie_rsn *b)
{
	return a->version == b->version && a->present == b->present &&
	       a->group_cipher == b->group_cipher && a->n_pairwise == b->n_pairwise &&
	       !memcmp(a->pairwise, b->pairwise, sizeof(a->pairwise[0]) * a->n_pairwise) &&
	       a->n_akm == b->n_akm && !memcmp(a->akm, b->akm, sizeof(a->akm[0]) * a->n_akm) &&
	       a->capab == b->capab && a->n_pmkid == b->n_pmkid &&
	       (!a->n_pmkid || !memcmp(a->pmkids, b->pmkids, a->n_pmkid * PMKID_LEN)) &&
	       a->group_mgmt_cipher == b->group_mgmt_cipher;
}

static void check_rsn(const uint8_t *body, size_t len, bool wpa)
{
	static uint8_t out[512];
	struct ie_rsn rsn, again;
	struct ie_elem e;

	int err = wpa ? ie_parse_wpa(body, len, &rsn) : ie_parse_rsn(body, len, &rsn);
	if (err != CODEC_OK)
		return;
	struct wbuf w = wbuf_init(out, sizeof(out));
	if ((wpa ? ie_build_wpa(&w, &rsn) : ie_build_rsn(&w, &rsn)) != CODEC_OK)
		abort();
	if (!ie_find(out, w.len, wpa ? 221 : 48, &e))
		abort();
	if (rsn.extra_len == 0 && (e.len != len || memcmp(e.data, body, len) != 0))
		abort();
	err = wpa ? ie_parse_wpa(e.data, e.len, &again) : ie_parse_rsn(e.data, e.len, &again);
	if (err != CODEC_OK || !same_rsn(&rsn, &again))
		abort();
}

static void check_rsnxe(const uint8_t *body, size_t len)
{
	static uint8_t out[16];
	struct ie_rsnxe x, again;

	if (ie_parse_rsnxe(body, len, &x) != CODEC_OK)
		return;
	struct wbuf w = wbuf_init(out, sizeof(out));
	if (ie_build_rsnxe(&w, x.capab) != CODEC_OK)
		abort();
	if (ie_parse_rsnxe(out + 2, w.len - 2, &again) != CODEC_OK)
		abort();
	/* bits above the first four octets are not carried by the builder */
	for (unsigned bit = 4; bit < 32; bit++)
		if (ie_rsnxe_has(&x, bit) != ie_rsnxe_has(&again, bit))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 1 + 255) /* an element body is at most 255 */
		return 0;
	switch (data[0] % 3) {
	case 0:
		check_rsn(data + 1, size - 1, false);
		break;
	case 1:
		check_rsn(data + 1, size - 1, true);
		break;
	default:
		check_rsnxe(data + 1, size - 1);
		break;
	}
	return 0;
}
