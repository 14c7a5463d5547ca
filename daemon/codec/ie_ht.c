/* HT/VHT/HE elements. */
#include "daemon/codec/ie_ht.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"

#include <string.h>

int ie_parse_ht_cap(const uint8_t *body, size_t len, struct ie_ht_cap *out)
{
	struct rbuf r = rbuf_init(body, len);

	if (len != IE_HT_CAP_LEN)
		return CODEC_E_BAD_LENGTH;
	out->cap_info = rbuf_le16(&r);
	out->ampdu_params = rbuf_u8(&r);
	rbuf_copy(&r, out->mcs_set, sizeof(out->mcs_set));
	out->ext_cap = rbuf_le16(&r);
	out->txbf_cap = rbuf_le32(&r);
	out->asel_cap = rbuf_u8(&r);
	return r.bad ? CODEC_E_TRUNCATED : CODEC_OK;
}

int ie_build_ht_cap(struct wbuf *w, const struct ie_ht_cap *ht)
{
	size_t start = ie_begin(w, WLAN_EID_HT_CAP);
	wbuf_le16(w, ht->cap_info);
	wbuf_u8(w, ht->ampdu_params);
	wbuf_put(w, ht->mcs_set, sizeof(ht->mcs_set));
	wbuf_le16(w, ht->ext_cap);
	wbuf_le32(w, ht->txbf_cap);
	wbuf_u8(w, ht->asel_cap);
	return ie_end(w, start);
}

int ie_parse_ht_op(const uint8_t *body, size_t len, struct ie_ht_op *out)
{
	struct rbuf r = rbuf_init(body, len);

	if (len != IE_HT_OP_LEN)
		return CODEC_E_BAD_LENGTH;
	out->primary_channel = rbuf_u8(&r);
	rbuf_copy(&r, out->op_info, sizeof(out->op_info));
	rbuf_copy(&r, out->basic_mcs_set, sizeof(out->basic_mcs_set));
	if (r.bad)
		return CODEC_E_TRUNCATED;
	out->sec_chan_offset = out->op_info[0] & HT_OP_SEC_CHAN_MASK;
	out->sta_chan_width_any = out->op_info[0] & HT_OP_STA_CHAN_WIDTH_ANY;
	if (out->sec_chan_offset == 2)
		return CODEC_E_MALFORMED;
	return CODEC_OK;
}

int ie_build_ht_op(struct wbuf *w, const struct ie_ht_op *op)
{
	if (op->sec_chan_offset > HT_OP_SEC_CHAN_MASK || op->sec_chan_offset == 2)
		return CODEC_E_INVALID_ARG;
	uint8_t info0 = op->op_info[0] & ~(HT_OP_SEC_CHAN_MASK | HT_OP_STA_CHAN_WIDTH_ANY);
	info0 |= op->sec_chan_offset;
	if (op->sta_chan_width_any)
		info0 |= HT_OP_STA_CHAN_WIDTH_ANY;

	size_t start = ie_begin(w, WLAN_EID_HT_OPERATION);
	wbuf_u8(w, op->primary_channel);
	wbuf_u8(w, info0);
	wbuf_put(w, op->op_info + 1, sizeof(op->op_info) - 1);
	wbuf_put(w, op->basic_mcs_set, sizeof(op->basic_mcs_set));
	return ie_end(w, start);
}

int ie_parse_vht_cap(const uint8_t *body, size_t len, struct ie_vht_cap *out)
{
	struct rbuf r = rbuf_init(body, len);

	if (len != IE_VHT_CAP_LEN)
		return CODEC_E_BAD_LENGTH;
	out->cap_info = rbuf_le32(&r);
	out->rx_mcs_map = rbuf_le16(&r);
	out->rx_highest = rbuf_le16(&r);
	out->tx_mcs_map = rbuf_le16(&r);
	out->tx_highest = rbuf_le16(&r);
	return r.bad ? CODEC_E_TRUNCATED : CODEC_OK;
}

int ie_build_vht_cap(struct wbuf *w, const struct ie_vht_cap *vht)
{
	size_t start = ie_begin(w, WLAN_EID_VHT_CAP);
	wbuf_le32(w, vht->cap_info);
	wbuf_le16(w, vht->rx_mcs_map);
	wbuf_le16(w, vht->rx_highest);
	wbuf_le16(w, vht->tx_mcs_map);
	wbuf_le16(w, vht->tx_highest);
	return ie_end(w, start);
}

int ie_parse_vht_op(const uint8_t *body, size_t len, struct ie_vht_op *out)
{
	struct rbuf r = rbuf_init(body, len);

	if (len != IE_VHT_OP_LEN)
		return CODEC_E_BAD_LENGTH;
	out->chan_width = rbuf_u8(&r);
	out->center_seg0 = rbuf_u8(&r);
	out->center_seg1 = rbuf_u8(&r);
	out->basic_mcs_map = rbuf_le16(&r);
	if (r.bad)
		return CODEC_E_TRUNCATED;
	if (out->chan_width > 3)
		return CODEC_E_MALFORMED;
	return CODEC_OK;
}

int ie_build_vht_op(struct wbuf *w, const struct ie_vht_op *op)
{
	if (op->chan_width > 3)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_VHT_OPERATION);
	wbuf_u8(w, op->chan_width);
	wbuf_u8(w, op->center_seg0);
	wbuf_u8(w, op->center_seg1);
	wbuf_le16(w, op->basic_mcs_map);
	return ie_end(w, start);
}

size_t ie_he_mcs_nss_len(const uint8_t *phy_cap)
{
	/* <= 80 MHz map always; one more map each for 160 and 80+80. */
	size_t n = 4;
	if (phy_cap[0] & HE_PHY_CAP0_WIDTH_160_5G)
		n += 4;
	if (phy_cap[0] & HE_PHY_CAP0_WIDTH_80P80_5G)
		n += 4;
	return n;
}

size_t ie_he_ppe_len(uint8_t first)
{
	/* NSTS (3 bits) + RU index bitmask (4 bits), then a PPET16/PPET8
	 * pair (6 bits) per spatial stream per RU in the bitmask. */
	unsigned nss = (first & 0x07u) + 1;
	unsigned rus = (unsigned)__builtin_popcount((first >> 3) & 0x0fu);
	size_t bits = 7 + (size_t)nss * rus * 6;
	return (bits + 7) / 8;
}

int ie_parse_he_cap(const uint8_t *body, size_t len, struct ie_he_cap *out)
{
	struct rbuf r = rbuf_init(body, len);

	if (len < IE_HE_MAC_CAP_LEN + IE_HE_PHY_CAP_LEN + 4)
		return CODEC_E_BAD_LENGTH;
	out->mac_cap = rbuf_take(&r, IE_HE_MAC_CAP_LEN);
	out->phy_cap = rbuf_take(&r, IE_HE_PHY_CAP_LEN);
	out->mcs_nss_len = (uint8_t)ie_he_mcs_nss_len(out->phy_cap);
	out->mcs_nss = rbuf_take(&r, out->mcs_nss_len);
	if (!out->mcs_nss)
		return CODEC_E_TRUNCATED;
	out->ppe = NULL;
	out->ppe_len = 0;
	if (out->phy_cap[6] & HE_PHY_CAP6_PPE_THRESHOLDS) {
		if (rbuf_left(&r) < 1)
			return CODEC_E_TRUNCATED;
		size_t ppe_len = ie_he_ppe_len(r.data[r.pos]);
		if (rbuf_left(&r) != ppe_len)
			return rbuf_left(&r) < ppe_len ? CODEC_E_TRUNCATED : CODEC_E_BAD_LENGTH;
		out->ppe_len = (uint8_t)ppe_len;
		out->ppe = rbuf_take(&r, ppe_len);
	}
	if (rbuf_left(&r) != 0)
		return CODEC_E_BAD_LENGTH;
	return CODEC_OK;
}

int ie_build_he_cap(struct wbuf *w, const struct ie_he_cap *he)
{
	if (!he->mac_cap || !he->phy_cap || !he->mcs_nss)
		return CODEC_E_INVALID_ARG;
	bool want_ppe = he->phy_cap[6] & HE_PHY_CAP6_PPE_THRESHOLDS;
	if (he->mcs_nss_len != ie_he_mcs_nss_len(he->phy_cap) || want_ppe != (he->ppe != NULL))
		return CODEC_E_INVALID_ARG;
	if (he->ppe && (he->ppe_len < 1 || he->ppe_len != ie_he_ppe_len(he->ppe[0])))
		return CODEC_E_INVALID_ARG;

	size_t start = ie_begin(w, WLAN_EID_EXTENSION);
	wbuf_u8(w, WLAN_EID_EXT_HE_CAP);
	wbuf_put(w, he->mac_cap, IE_HE_MAC_CAP_LEN);
	wbuf_put(w, he->phy_cap, IE_HE_PHY_CAP_LEN);
	wbuf_put(w, he->mcs_nss, he->mcs_nss_len);
	if (he->ppe)
		wbuf_put(w, he->ppe, he->ppe_len);
	return ie_end(w, start);
}

static size_t he_op_len(uint32_t params)
{
	return IE_HE_OP_MIN_LEN + (params & HE_OP_VHT_OP_INFO_PRESENT ? 3 : 0) +
	       (params & HE_OP_CO_HOSTED_BSS ? 1 : 0) +
	       (params & HE_OP_6GHZ_OP_INFO_PRESENT ? 5 : 0);
}

int ie_parse_he_op(const uint8_t *body, size_t len, struct ie_he_op *out)
{
	struct rbuf r = rbuf_init(body, len);

	memset(out, 0, sizeof(*out));
	if (len < IE_HE_OP_MIN_LEN)
		return CODEC_E_BAD_LENGTH;
	out->params = (uint32_t)body[0] | (uint32_t)body[1] << 8 | (uint32_t)body[2] << 16;
	if (len != he_op_len(out->params))
		return CODEC_E_BAD_LENGTH;
	rbuf_take(&r, 3);
	out->bss_color_info = rbuf_u8(&r);
	out->basic_mcs_nss = rbuf_le16(&r);
	if (out->params & HE_OP_VHT_OP_INFO_PRESENT)
		rbuf_copy(&r, out->vht_op_info, 3);
	if (out->params & HE_OP_CO_HOSTED_BSS)
		out->max_cohosted = rbuf_u8(&r);
	if (out->params & HE_OP_6GHZ_OP_INFO_PRESENT)
		rbuf_copy(&r, out->op_6ghz, 5);
	return r.bad ? CODEC_E_TRUNCATED : CODEC_OK;
}

int ie_build_he_op(struct wbuf *w, const struct ie_he_op *op)
{
	if (op->params > 0xffffff)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_EXTENSION);
	wbuf_u8(w, WLAN_EID_EXT_HE_OPERATION);
	wbuf_u8(w, (uint8_t)op->params);
	wbuf_u8(w, (uint8_t)(op->params >> 8));
	wbuf_u8(w, (uint8_t)(op->params >> 16));
	wbuf_u8(w, op->bss_color_info);
	wbuf_le16(w, op->basic_mcs_nss);
	if (op->params & HE_OP_VHT_OP_INFO_PRESENT)
		wbuf_put(w, op->vht_op_info, 3);
	if (op->params & HE_OP_CO_HOSTED_BSS)
		wbuf_u8(w, op->max_cohosted);
	if (op->params & HE_OP_6GHZ_OP_INFO_PRESENT)
		wbuf_put(w, op->op_6ghz, 5);
	return ie_end(w, start);
}
