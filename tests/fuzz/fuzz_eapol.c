/* Fuzz eapol_parse, eapol_key_parse and kde_parse on the key data.
 *
 * Input: byte 0 picks the MIC length (16, 24, 0, 32), the rest is the
 * EAPOL frame. Oracle: a parsed EAPOL-Key frame builds back to exactly the
 * input's header and body.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/eapol.h"
#include "daemon/codec/kde.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t mic_lens[] = { 16, 24, 0, 32 };
	static uint8_t out[70000];
	struct eapol_hdr h;
	struct eapol_key k;
	struct kde_set kd;

	if (size < 1 || size > 4096)
		return 0;
	size_t mic_len = mic_lens[data[0] & 3];
	const uint8_t *frame = data + 1;
	size_t len = size - 1;

	if (eapol_parse(frame, len, &h) != CODEC_OK)
		return 0;
	if (EAPOL_HDR_LEN + h.body_len + h.padding_len != len)
		abort();
	if (h.type != EAPOL_TYPE_KEY || eapol_key_parse(h.body, h.body_len, mic_len, &k) != CODEC_OK)
		return 0;
	(void)kde_parse(k.key_data, k.key_data_len, &kd);

	struct wbuf w = wbuf_init(out, sizeof(out));
	size_t mic_off;
	if (eapol_key_frame_build(&w, h.version, &k, &mic_off) != CODEC_OK)
		abort();
	if (w.len != EAPOL_HDR_LEN + h.body_len || memcmp(out, frame, w.len) != 0)
		abort();
	if (mic_len && (size_t)(k.mic - frame) != mic_off)
		abort();
	return 0;
}
