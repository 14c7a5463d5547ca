/* Fuzz the SAE Authentication frame body parsers (daemon/codec/sae.h).
 *
 * The first input octet picks the parser and form, the rest is the body.
 * Oracle: whatever parses rebuilds with the builders into a body that
 * parses to the same fields (a status-0 commit: to the same scalar,
 * element, token and identifier).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/sae.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_commit(const struct sae_commit_msg *a, const struct sae_commit_msg *b)
{
	if (a->group != b->group || a->token_len != b->token_len ||
	    a->scalar_len != b->scalar_len || a->element_len != b->element_len ||
	    memcmp(a->scalar, b->scalar, a->scalar_len) || memcmp(a->element, b->element,
								  a->element_len) ||
	    (a->token_len && memcmp(a->token, b->token, a->token_len)) ||
	    !a->pw_id != !b->pw_id || a->pw_id_len != b->pw_id_len ||
	    (a->pw_id_len && memcmp(a->pw_id, b->pw_id, a->pw_id_len)) ||
	    a->n_rejected != b->n_rejected ||
	    memcmp(a->rejected, b->rejected, a->n_rejected * sizeof(a->rejected[0])))
		abort();
}

static void commit(const uint8_t *p, size_t n, bool h2e)
{
	static uint8_t out[2048];
	struct sae_commit_msg c, again;
	if (sae_commit_parse(p, n, h2e, &c) != CODEC_OK)
		return;
	struct wbuf w = wbuf_init(out, sizeof(out));
	if (sae_commit_build(&w, &c) != CODEC_OK)
		abort();
	if (sae_commit_parse(out, w.len, h2e, &again) != CODEC_OK)
		abort();
	/* A status-0 token is found by the shortest reading: the rebuilt
	 * body reads the same way. */
	same_commit(&c, &again);
}

static void confirm(const uint8_t *p, size_t n, size_t group)
{
	uint8_t out[128];
	struct sae_confirm_msg m, again;
	if (sae_confirm_parse(p, n, group, &m) != CODEC_OK)
		return;
	struct wbuf w = wbuf_init(out, sizeof(out));
	if (sae_confirm_build(&w, m.send_confirm, m.confirm, m.confirm_len) != CODEC_OK ||
	    sae_confirm_parse(out, w.len, group, &again) != CODEC_OK ||
	    again.send_confirm != m.send_confirm || memcmp(again.confirm, m.confirm, m.confirm_len))
		abort();
}

static void token_req(const uint8_t *p, size_t n, bool h2e)
{
	uint8_t out[512];
	const uint8_t *t, *t2;
	size_t tl, tl2;
	uint16_t g, g2;
	if (sae_token_req_parse(p, n, h2e, &g, &t, &tl) != CODEC_OK)
		return;
	struct wbuf w = wbuf_init(out, sizeof(out));
	if (sae_token_req_build(&w, g, h2e, t, tl) != CODEC_OK ||
	    sae_token_req_parse(out, w.len, h2e, &g2, &t2, &tl2) != CODEC_OK || g2 != g ||
	    tl2 != tl || memcmp(t, t2, tl))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 1500)
		return 0;
	const uint8_t *p = data + 1;
	size_t n = size - 1;
	switch (data[0] % 6) {
	case 0:
		commit(p, n, false);
		break;
	case 1:
		commit(p, n, true);
		break;
	case 2:
		confirm(p, n, (size_t)(32 + 16 * (data[0] / 6 % 3)));
		break;
	case 3:
		token_req(p, n, false);
		break;
	case 4:
		token_req(p, n, true);
		break;
	default:
		break;
	}
	return 0;
}
