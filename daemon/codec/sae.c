/* SAE Authentication frame bodies; see sae.h. */
#include "daemon/codec/sae.h"

#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ieee80211.h"

#include <string.h>

bool sae_codec_group_lens(uint16_t group, size_t *scalar_len, size_t *element_len)
{
	size_t n;
	switch (group) {
	case 19:
		n = 32;
		break;
	case 20:
		n = 48;
		break;
	case 21:
		n = 66;
		break;
	default:
		return false;
	}
	*scalar_len = n;
	*element_len = 2 * n;
	return true;
}

int sae_body_group(const uint8_t *body, size_t len, uint16_t *group)
{
	if (len < 2)
		return CODEC_E_TRUNCATED;
	*group = get_le16(body);
	return CODEC_OK;
}

/* One extension element at p (0xff | len | ext id | body); its total
 * length, or a codec error. */
static int ext_elem(const uint8_t *p, size_t left, uint8_t *ext_id, const uint8_t **body,
		    size_t *body_len)
{
	if (left < 3)
		return CODEC_E_TRUNCATED;
	if (p[0] != WLAN_EID_EXTENSION || p[1] < 1)
		return CODEC_E_MALFORMED;
	if ((size_t)p[1] + 2 > left)
		return CODEC_E_OVERRUN;
	*ext_id = p[2];
	*body = p + 3;
	*body_len = (size_t)p[1] - 1;
	return (int)p[1] + 2;
}

static int take_rejected(struct sae_commit_msg *c, const uint8_t *b, size_t n)
{
	if (n == 0 || n % 2 || n / 2 > SAE_CODEC_MAX_REJECTED)
		return CODEC_E_BAD_LENGTH;
	c->rejected_raw = b;
	c->rejected_raw_len = n;
	c->n_rejected = n / 2;
	for (size_t i = 0; i < c->n_rejected; i++)
		c->rejected[i] = get_le16(b + 2 * i);
	c->has_rejected = true;
	return CODEC_OK;
}

/* The elements after scalar and element: each of ours at most once, the
 * H2E-only ones only in an H2E commit; anything else is an error (an
 * unknown trailing element would make the token boundary ambiguous). */
static int parse_tail(const uint8_t *p, size_t left, bool h2e, struct sae_commit_msg *c)
{
	bool seen_token = false;
	while (left) {
		uint8_t id;
		const uint8_t *b;
		size_t n;
		int total = ext_elem(p, left, &id, &b, &n);
		if (total < 0)
			return total;
		int err = CODEC_OK;
		switch (id) {
		case WLAN_EID_EXT_PASSWORD_IDENTIFIER:
			if (c->pw_id)
				return CODEC_E_DUPLICATE;
			c->pw_id = b;
			c->pw_id_len = n;
			break;
		case WLAN_EID_EXT_REJECTED_GROUPS:
			if (!h2e)
				return CODEC_E_MALFORMED;
			if (c->has_rejected)
				return CODEC_E_DUPLICATE;
			err = take_rejected(c, b, n);
			break;
		case WLAN_EID_EXT_ANTI_CLOGGING_TOKEN:
			if (!h2e)
				return CODEC_E_MALFORMED;
			if (seen_token)
				return CODEC_E_DUPLICATE;
			if (n == 0 || n > SAE_CODEC_MAX_TOKEN)
				return CODEC_E_BAD_LENGTH;
			seen_token = true;
			c->token = b;
			c->token_len = n;
			break;
		default:
			return CODEC_E_MALFORMED;
		}
		if (err)
			return err;
		p += total;
		left -= (size_t)total;
	}
	return CODEC_OK;
}

/* Scalar, element and tail from offset off of the body. */
static int parse_from(const uint8_t *body, size_t len, size_t off, bool h2e, size_t sl,
		      size_t el, struct sae_commit_msg *c)
{
	uint16_t group = c->group;
	memset(c, 0, sizeof(*c));
	c->group = group;
	c->h2e = h2e;
	if (len - off < sl + el)
		return CODEC_E_TRUNCATED;
	c->scalar = body + off;
	c->scalar_len = sl;
	c->element = body + off + sl;
	c->element_len = el;
	return parse_tail(body + off + sl + el, len - off - sl - el, h2e, c);
}

int sae_commit_parse(const uint8_t *body, size_t len, bool h2e, struct sae_commit_msg *out)
{
	size_t sl, el;

	memset(out, 0, sizeof(*out));
	if (len < 2)
		return CODEC_E_TRUNCATED;
	out->group = get_le16(body);
	if (!sae_codec_group_lens(out->group, &sl, &el))
		return CODEC_E_UNSUPPORTED;
	if (len - 2 < sl + el)
		return CODEC_E_TRUNCATED;
	int err = parse_from(body, len, 2, h2e, sl, el, out);
	if (err == CODEC_OK || h2e)
		return err;
	/* Status 0: an anti-clogging token may sit before the scalar. */
	size_t max_token = len - 2 - sl - el;
	if (max_token > SAE_CODEC_MAX_TOKEN)
		max_token = SAE_CODEC_MAX_TOKEN;
	for (size_t t = 1; t <= max_token; t++) {
		if (parse_from(body, len, 2 + t, false, sl, el, out) == CODEC_OK) {
			out->token = body + 2;
			out->token_len = t;
			return CODEC_OK;
		}
	}
	/* Report the error of the reading without a token. */
	return parse_from(body, len, 2, false, sl, el, out);
}

static void put_ext(struct wbuf *w, uint8_t id, const uint8_t *b, size_t n)
{
	wbuf_u8(w, WLAN_EID_EXTENSION);
	wbuf_u8(w, (uint8_t)(n + 1));
	wbuf_u8(w, id);
	wbuf_put(w, b, n);
}

int sae_commit_build(struct wbuf *w, const struct sae_commit_msg *c)
{
	size_t sl, el;

	if (!sae_codec_group_lens(c->group, &sl, &el) || c->scalar_len != sl ||
	    c->element_len != el || !c->scalar || !c->element ||
	    c->token_len > SAE_CODEC_MAX_TOKEN || (c->token_len && !c->token) ||
	    (c->pw_id && c->pw_id_len > SAE_CODEC_MAX_PW_ID) ||
	    (!c->h2e && c->n_rejected) || c->n_rejected > SAE_CODEC_MAX_REJECTED)
		return codec_fail(w, CODEC_E_INVALID_ARG);
	wbuf_le16(w, c->group);
	if (!c->h2e)
		wbuf_put(w, c->token, c->token_len);
	wbuf_put(w, c->scalar, sl);
	wbuf_put(w, c->element, el);
	if (c->pw_id)
		put_ext(w, WLAN_EID_EXT_PASSWORD_IDENTIFIER, c->pw_id, c->pw_id_len);
	if (c->h2e && c->n_rejected) {
		uint8_t g[2 * SAE_CODEC_MAX_REJECTED];
		for (size_t i = 0; i < c->n_rejected; i++)
			put_le16(g + 2 * i, c->rejected[i]);
		put_ext(w, WLAN_EID_EXT_REJECTED_GROUPS, g, 2 * c->n_rejected);
	}
	if (c->h2e && c->token_len)
		put_ext(w, WLAN_EID_EXT_ANTI_CLOGGING_TOKEN, c->token, c->token_len);
	return codec_wbuf_result(w);
}

int sae_token_req_parse(const uint8_t *body, size_t len, bool h2e, uint16_t *group,
			const uint8_t **token, size_t *token_len)
{
	if (len < 2)
		return CODEC_E_TRUNCATED;
	*group = get_le16(body);
	const uint8_t *p = body + 2;
	size_t left = len - 2;
	if (!h2e) {
		if (left == 0 || left > SAE_CODEC_MAX_TOKEN)
			return left ? CODEC_E_BAD_LENGTH : CODEC_E_TRUNCATED;
		*token = p;
		*token_len = left;
		return CODEC_OK;
	}
	uint8_t id;
	int total = ext_elem(p, left, &id, token, token_len);
	if (total < 0)
		return total;
	if (id != WLAN_EID_EXT_ANTI_CLOGGING_TOKEN || (size_t)total != left)
		return CODEC_E_MALFORMED;
	if (*token_len == 0 || *token_len > SAE_CODEC_MAX_TOKEN)
		return CODEC_E_BAD_LENGTH;
	return CODEC_OK;
}

int sae_token_req_build(struct wbuf *w, uint16_t group, bool h2e, const uint8_t *token,
			size_t token_len)
{
	if (!token || token_len == 0 || token_len > SAE_CODEC_MAX_TOKEN)
		return codec_fail(w, CODEC_E_INVALID_ARG);
	wbuf_le16(w, group);
	if (h2e)
		put_ext(w, WLAN_EID_EXT_ANTI_CLOGGING_TOKEN, token, token_len);
	else
		wbuf_put(w, token, token_len);
	return codec_wbuf_result(w);
}

int sae_confirm_parse(const uint8_t *body, size_t len, size_t n, struct sae_confirm_msg *out)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return CODEC_E_INVALID_ARG;
	if (len < 2 + n)
		return CODEC_E_TRUNCATED;
	if (len != 2 + n)
		return CODEC_E_BAD_LENGTH;
	out->send_confirm = get_le16(body);
	out->confirm = body + 2;
	out->confirm_len = n;
	return CODEC_OK;
}

int sae_confirm_build(struct wbuf *w, uint16_t send_confirm, const uint8_t *confirm, size_t len)
{
	if (!confirm || len == 0)
		return codec_fail(w, CODEC_E_INVALID_ARG);
	wbuf_le16(w, send_confirm);
	wbuf_put(w, confirm, len);
	return codec_wbuf_result(w);
}
