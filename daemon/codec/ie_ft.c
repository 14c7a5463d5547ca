/* Mobility Domain element and Fast BSS Transition element. */
#include "daemon/codec/ie_ft.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"

#define FTE_GTK_FIXED 11  /* key info 2, key length 1, RSC 8 */
#define FTE_IGTK_FIXED 9  /* key id 2, IPN 6, key length 1 */
#define WRAPPED_MIN 24
#define WRAPPED_MAX 40
#define OCI_MIN_LEN 3

int ie_parse_mde(const uint8_t *body, size_t len, struct ie_mde *out)
{
	if (len != IE_MDE_LEN)
		return CODEC_E_BAD_LENGTH;
	out->mdid = get_le16(body);
	out->ft_capab = body[2];
	return CODEC_OK;
}

int ie_build_mde(struct wbuf *w, const struct ie_mde *mde)
{
	size_t start = ie_begin(w, WLAN_EID_MOBILITY_DOMAIN);
	wbuf_le16(w, mde->mdid);
	wbuf_u8(w, mde->ft_capab);
	return ie_end(w, start);
}

/* AES key wrap output is the key rounded up to 8 plus an 8-octet block. */
static bool wrapped_fits(size_t wrapped_len, size_t key_len)
{
	return wrapped_len % 8 == 0 && wrapped_len >= key_len + 8;
}

static int parse_gtk_sub(const uint8_t *p, size_t len, struct ie_fte_gtk *g)
{
	if (len < FTE_GTK_FIXED + WRAPPED_MIN || len > FTE_GTK_FIXED + WRAPPED_MAX)
		return CODEC_E_BAD_LENGTH;
	g->key_info = get_le16(p);
	g->key_len = p[2];
	g->rsc = p + 3;
	g->wrapped = p + FTE_GTK_FIXED;
	g->wrapped_len = (uint8_t)(len - FTE_GTK_FIXED);
	return wrapped_fits(g->wrapped_len, g->key_len) ? CODEC_OK : CODEC_E_MALFORMED;
}

static int parse_igtk_sub(const uint8_t *p, size_t len, struct ie_fte_igtk *g)
{
	if (len < FTE_IGTK_FIXED + WRAPPED_MIN || len > FTE_IGTK_FIXED + WRAPPED_MAX)
		return CODEC_E_BAD_LENGTH;
	g->key_id = get_le16(p);
	g->ipn = p + 2;
	g->key_len = p[8];
	g->wrapped = p + FTE_IGTK_FIXED;
	g->wrapped_len = (uint8_t)(len - FTE_IGTK_FIXED);
	return wrapped_fits(g->wrapped_len, g->key_len) ? CODEC_OK : CODEC_E_MALFORMED;
}

static int parse_subelem(uint8_t id, const uint8_t *p, uint8_t len, struct ie_fte *out)
{
	switch (id) {
	case FTE_SUB_R1KH_ID:
		if (out->r1kh_id)
			return CODEC_E_DUPLICATE;
		if (len != FT_R1KH_ID_LEN)
			return CODEC_E_BAD_LENGTH;
		out->r1kh_id = p;
		return CODEC_OK;
	case FTE_SUB_R0KH_ID:
		if (out->r0kh_id)
			return CODEC_E_DUPLICATE;
		if (len < 1 || len > FT_R0KH_ID_MAX_LEN)
			return CODEC_E_BAD_LENGTH;
		out->r0kh_id = p;
		out->r0kh_id_len = len;
		return CODEC_OK;
	case FTE_SUB_GTK:
		if (out->has_gtk)
			return CODEC_E_DUPLICATE;
		out->has_gtk = true;
		return parse_gtk_sub(p, len, &out->gtk);
	case FTE_SUB_IGTK:
		if (out->has_igtk)
			return CODEC_E_DUPLICATE;
		out->has_igtk = true;
		return parse_igtk_sub(p, len, &out->igtk);
	case FTE_SUB_BIGTK:
		if (out->has_bigtk)
			return CODEC_E_DUPLICATE;
		out->has_bigtk = true;
		return parse_igtk_sub(p, len, &out->bigtk);
	case FTE_SUB_OCI:
		if (out->oci)
			return CODEC_E_DUPLICATE;
		if (len < OCI_MIN_LEN)
			return CODEC_E_BAD_LENGTH;
		out->oci = p;
		out->oci_len = len;
		return CODEC_OK;
	default:
		return CODEC_OK; /* unknown subelements are skipped */
	}
}

static int mic_len_from_subfield(uint8_t ctrl0, size_t *mic_len)
{
	static const size_t lens[] = { 16, 24, 32 };
	unsigned code = (ctrl0 & FTE_MIC_CTRL_MIC_LEN_MASK) >> FTE_MIC_CTRL_MIC_LEN_SHIFT;

	if (code >= sizeof(lens) / sizeof(lens[0]))
		return CODEC_E_MALFORMED;
	*mic_len = lens[code];
	return CODEC_OK;
}

int ie_parse_fte(const uint8_t *body, size_t len, size_t mic_len, struct ie_fte *out)
{
	struct rbuf r = rbuf_init(body, len);
	int err;

	if (mic_len != 0 && mic_len != 16 && mic_len != 24 && mic_len != 32)
		return CODEC_E_INVALID_ARG;
	if (len < 2)
		return CODEC_E_BAD_LENGTH;
	*out = (struct ie_fte){ 0 };
	uint8_t ctrl0 = rbuf_u8(&r);
	out->element_count = rbuf_u8(&r);
	out->rsnxe_used = ctrl0 & FTE_MIC_CTRL_RSNXE_USED;
	if (mic_len == 0 && (err = mic_len_from_subfield(ctrl0, &mic_len)))
		return err;
	if (rbuf_left(&r) < mic_len + 2 * FT_NONCE_LEN)
		return CODEC_E_BAD_LENGTH;
	out->mic_len = (uint8_t)mic_len;
	out->mic = rbuf_take(&r, mic_len);
	out->anonce = rbuf_take(&r, FT_NONCE_LEN);
	out->snonce = rbuf_take(&r, FT_NONCE_LEN);

	while (rbuf_left(&r) > 0) {
		if (rbuf_left(&r) < 2)
			return CODEC_E_TRUNCATED;
		uint8_t id = rbuf_u8(&r);
		uint8_t sub_len = rbuf_u8(&r);
		const uint8_t *p = rbuf_take(&r, sub_len);
		if (!p)
			return CODEC_E_OVERRUN;
		if ((err = parse_subelem(id, p, sub_len, out)))
			return err;
	}
	return CODEC_OK;
}

static int mic_len_code(size_t mic_len, uint8_t *code)
{
	switch (mic_len) {
	case 16:
		*code = 0;
		return CODEC_OK;
	case 24:
		*code = 1;
		return CODEC_OK;
	case 32:
		*code = 2;
		return CODEC_OK;
	default:
		return CODEC_E_INVALID_ARG;
	}
}

static void write_sub(struct wbuf *w, uint8_t id, const uint8_t *p, size_t n)
{
	wbuf_u8(w, id);
	wbuf_u8(w, (uint8_t)n);
	wbuf_put(w, p, n);
}

static int write_igtk_sub(struct wbuf *w, uint8_t id, const struct ie_fte_igtk *g)
{
	if (!g->ipn || !g->wrapped || g->wrapped_len < WRAPPED_MIN || g->wrapped_len > WRAPPED_MAX)
		return CODEC_E_INVALID_ARG;
	wbuf_u8(w, id);
	wbuf_u8(w, (uint8_t)(FTE_IGTK_FIXED + g->wrapped_len));
	wbuf_le16(w, g->key_id);
	wbuf_put(w, g->ipn, 6);
	wbuf_u8(w, g->key_len);
	wbuf_put(w, g->wrapped, g->wrapped_len);
	return CODEC_OK;
}

static int write_gtk_sub(struct wbuf *w, const struct ie_fte_gtk *g)
{
	if (!g->rsc || !g->wrapped || g->wrapped_len < WRAPPED_MIN || g->wrapped_len > WRAPPED_MAX)
		return CODEC_E_INVALID_ARG;
	wbuf_u8(w, FTE_SUB_GTK);
	wbuf_u8(w, (uint8_t)(FTE_GTK_FIXED + g->wrapped_len));
	wbuf_le16(w, g->key_info);
	wbuf_u8(w, g->key_len);
	wbuf_put(w, g->rsc, 8);
	wbuf_put(w, g->wrapped, g->wrapped_len);
	return CODEC_OK;
}

static int write_subelems(struct wbuf *w, const struct ie_fte *fte)
{
	int err;

	if (fte->r1kh_id)
		write_sub(w, FTE_SUB_R1KH_ID, fte->r1kh_id, FT_R1KH_ID_LEN);
	if (fte->has_gtk && (err = write_gtk_sub(w, &fte->gtk)))
		return err;
	if (fte->r0kh_id) {
		if (fte->r0kh_id_len < 1 || fte->r0kh_id_len > FT_R0KH_ID_MAX_LEN)
			return CODEC_E_INVALID_ARG;
		write_sub(w, FTE_SUB_R0KH_ID, fte->r0kh_id, fte->r0kh_id_len);
	}
	if (fte->has_igtk && (err = write_igtk_sub(w, FTE_SUB_IGTK, &fte->igtk)))
		return err;
	if (fte->oci) {
		if (fte->oci_len < OCI_MIN_LEN)
			return CODEC_E_INVALID_ARG;
		write_sub(w, FTE_SUB_OCI, fte->oci, fte->oci_len);
	}
	if (fte->has_bigtk && (err = write_igtk_sub(w, FTE_SUB_BIGTK, &fte->bigtk)))
		return err;
	return CODEC_OK;
}

int ie_build_fte(struct wbuf *w, const struct ie_fte *fte, size_t *mic_offset)
{
	uint8_t code;
	int err;

	if ((err = mic_len_code(fte->mic_len, &code)))
		return err;
	size_t start = ie_begin(w, WLAN_EID_FAST_BSS_TRANSITION);
	wbuf_u8(w, (uint8_t)((fte->rsnxe_used ? FTE_MIC_CTRL_RSNXE_USED : 0) |
			     code << FTE_MIC_CTRL_MIC_LEN_SHIFT));
	wbuf_u8(w, fte->element_count);
	if (mic_offset)
		*mic_offset = w->len;
	codec_put_or_zero(w, fte->mic, fte->mic_len);
	codec_put_or_zero(w, fte->anonce, FT_NONCE_LEN);
	codec_put_or_zero(w, fte->snonce, FT_NONCE_LEN);
	if ((err = write_subelems(w, fte)))
		return codec_fail(w, err);
	return ie_end(w, start);
}
