/* Fuzz mgmt_parse (and ie_parse on the element list it finds), and
 * mgmt_parse_decrypted.
 *
 * Oracle: anything that parses must build again; the rebuilt frame equals
 * the input except for the AID top bits of (re)association responses; and
 * parse -> build is idempotent. mgmt_parse_decrypted agrees with
 * mgmt_parse on every unprotected frame, and on a protected one that it
 * accepts, mgmt_parse accepts it too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FRAME 4096

static bool aid_may_differ(uint8_t subtype)
{
	return subtype == IEEE80211_STYPE_ASSOC_RESP || subtype == IEEE80211_STYPE_REASSOC_RESP;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t first[MAX_FRAME], second[MAX_FRAME];
	struct mgmt_frame f, again;
	struct ie_set set;

	if (size > MAX_FRAME)
		return 0;
	int plain = mgmt_parse_decrypted(data, size, &f);
	if (plain == CODEC_OK && f.ies)
		(void)ie_parse(f.ies, f.ies_len, &set);
	int err = mgmt_parse(data, size, &f);
	if (plain == CODEC_OK && err != CODEC_OK)
		abort();
	if (err == CODEC_OK && !f.protected_frame && plain != CODEC_OK)
		abort();
	if (err != CODEC_OK)
		return 0;
	if (f.ies)
		(void)ie_parse(f.ies, f.ies_len, &set);

	struct wbuf w1 = wbuf_init(first, sizeof(first));
	if (mgmt_build(&w1, &f) != CODEC_OK)
		abort();
	if (!aid_may_differ(f.subtype) && (w1.len != size || memcmp(first, data, size) != 0))
		abort();
	if (mgmt_parse(first, w1.len, &again) != CODEC_OK)
		abort();
	struct wbuf w2 = wbuf_init(second, sizeof(second));
	if (mgmt_build(&w2, &again) != CODEC_OK || w2.len != w1.len ||
	    memcmp(first, second, w1.len) != 0)
		abort();
	return 0;
}
