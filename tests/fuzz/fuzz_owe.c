/* Fuzz the OWE element parsers (daemon/codec/ie_owe.c) and the peer-key
 * check (daemon/crypto/owe.c).
 *
 * Input: byte 0 picks the target: 0 the DH Parameter element body, 1 the
 * Transition Mode element body, 2 an element list searched for both, 3 a
 * DH body whose key goes to owe_check_peer and, when accepted, to a
 * derivation with a fixed key of its group. Oracle: what parses builds
 * back to the same octets; a key the check accepts derives a PMK.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie_owe.h"
#include "daemon/crypto/owe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void dh_round_trip(const uint8_t *body, size_t len)
{
	static uint8_t out[300];
	struct ie_owe_dh dh;
	if (ie_parse_owe_dh(body, len, &dh) != CODEC_OK)
		return;
	struct wbuf w = wbuf_init(out, sizeof(out));
	if (ie_build_owe_dh(&w, &dh) != CODEC_OK || w.len != len + 3 || memcmp(out + 3, body, len))
		abort();
}

static void trans_round_trip(const uint8_t *body, size_t len)
{
	static uint8_t out[300];
	struct ie_owe_trans t;
	if (ie_parse_owe_trans(body, len, &t) != CODEC_OK)
		return;
	struct wbuf w = wbuf_init(out, sizeof(out));
	if (ie_build_owe_trans(&w, &t) != CODEC_OK || w.len != len + 6 || memcmp(out + 6, body, len))
		abort();
}

static void check_key(const uint8_t *body, size_t len)
{
	static struct owe_key *keys[3];
	struct ie_owe_dh dh;
	struct owe_result r;
	if (ie_parse_owe_dh(body, len, &dh) != CODEC_OK || !owe_group_supported(dh.group))
		return;
	int ok = owe_check_peer(dh.group, dh.key, dh.key_len);
	if (ok != 0)
		return;
	struct owe_key **k = &keys[dh.group - OWE_GROUP_P256];
	if (!*k) {
		static const uint8_t one[1] = { 7 };
		*k = owe_key_from_private(dh.group, one, 1);
	}
	if (!*k || owe_derive(*k, true, dh.key, dh.key_len, &r) != 0 || !r.pmk_len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ie_owe_dh dh;
	struct ie_owe_trans t;

	if (size < 1 || size > 1 + 512)
		return 0;
	const uint8_t *body = data + 1;
	size_t len = size - 1;
	switch (data[0] & 3) {
	case 0:
		if (len <= 254)
			dh_round_trip(body, len);
		break;
	case 1:
		if (len <= 251)
			trans_round_trip(body, len);
		break;
	case 2:
		(void)ie_find_owe_dh(body, len, &dh);
		(void)ie_find_owe_trans(body, len, &t);
		break;
	case 3:
		if (len <= 254)
			check_key(body, len);
		break;
	}
	return 0;
}
