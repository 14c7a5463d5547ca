/* HT, VHT and HE capability/operation elements: the fields wpad uses.
 *
 * HT Capabilities (45, 26 octets), HT Operation (61, 22 octets),
 * VHT Capabilities (191, 12 octets), VHT Operation (192, 5 octets) have
 * fixed lengths; any other length is CODEC_E_BAD_LENGTH. HE Capabilities
 * is extension element 255/35 whose MCS map and PPE thresholds vary in
 * size with bits of the PHY capabilities; those sizes are checked.
 */
#ifndef WPAD_CODEC_IE_HT_H
#define WPAD_CODEC_IE_HT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

#define IE_HT_CAP_LEN 26
#define IE_HT_OP_LEN 22
#define IE_HT_MCS_SET_LEN 16
#define IE_HT_OP_INFO_LEN 5
#define IE_VHT_CAP_LEN 12
#define IE_VHT_OP_LEN 5
#define IE_HE_MAC_CAP_LEN 6
#define IE_HE_PHY_CAP_LEN 11

/* HE PHY capabilities octet 0: channel widths that add MCS map octets */
#define HE_PHY_CAP0_WIDTH_160_5G 0x08
#define HE_PHY_CAP0_WIDTH_80P80_5G 0x10
/* HE PHY capabilities octet 6: PPE Thresholds field follows */
#define HE_PHY_CAP6_PPE_THRESHOLDS 0x80

struct ie_ht_cap {
	uint16_t cap_info;
	uint8_t ampdu_params; /* bits 0-1 max A-MPDU length exp, 2-4 min spacing */
	uint8_t mcs_set[IE_HT_MCS_SET_LEN];
	uint16_t ext_cap;
	uint32_t txbf_cap;
	uint8_t asel_cap;
};

struct ie_ht_op {
	uint8_t primary_channel;
	uint8_t sec_chan_offset; /* HT_OP_SEC_CHAN_*; from op_info[0] */
	bool sta_chan_width_any; /* 40 MHz allowed; from op_info[0] */
	uint8_t op_info[IE_HT_OP_INFO_LEN];
	uint8_t basic_mcs_set[IE_HT_MCS_SET_LEN];
};

struct ie_vht_cap {
	uint32_t cap_info;
	uint16_t rx_mcs_map;
	uint16_t rx_highest;
	uint16_t tx_mcs_map;
	uint16_t tx_highest;
};

struct ie_vht_op {
	uint8_t chan_width; /* 0: 20/40, 1: 80/160/80+80, 2-3: deprecated */
	uint8_t center_seg0;
	uint8_t center_seg1;
	uint16_t basic_mcs_map;
};

struct ie_he_cap {
	const uint8_t *mac_cap; /* 6 octets */
	const uint8_t *phy_cap; /* 11 octets */
	const uint8_t *mcs_nss; /* 4, 8 or 12 octets */
	uint8_t mcs_nss_len;
	const uint8_t *ppe;     /* PPE thresholds, or NULL */
	uint8_t ppe_len;
};

/* HE Operation (extension element 255/36, IEEE 802.11ax-2021 9.4.2.249):
 * 3 octets of parameters, BSS Color Information, Basic HE-MCS And NSS Set,
 * then optional fields announced by parameter bits. */
#define IE_HE_OP_MIN_LEN 6
#define HE_OP_VHT_OP_INFO_PRESENT (1u << 14)
#define HE_OP_CO_HOSTED_BSS (1u << 15)
#define HE_OP_6GHZ_OP_INFO_PRESENT (1u << 17)
#define HE_OP_TXOP_RTS_SHIFT 4
#define HE_OP_TXOP_RTS_DISABLED (1023u << HE_OP_TXOP_RTS_SHIFT)
#define HE_OP_BSS_COLOR_MASK 0x3f

struct ie_he_op {
	uint32_t params;        /* 24 bits */
	uint8_t bss_color_info; /* bits 0-5 color, 6 partial, 7 disabled */
	uint16_t basic_mcs_nss;
	uint8_t vht_op_info[3]; /* when params has HE_OP_VHT_OP_INFO_PRESENT */
	uint8_t max_cohosted;   /* when params has HE_OP_CO_HOSTED_BSS */
	uint8_t op_6ghz[5];     /* when params has HE_OP_6GHZ_OP_INFO_PRESENT */
};

int ie_parse_ht_cap(const uint8_t *body, size_t len, struct ie_ht_cap *out);
int ie_build_ht_cap(struct wbuf *w, const struct ie_ht_cap *ht);

/* A secondary channel offset of 2 is reserved: CODEC_E_MALFORMED. */
int ie_parse_ht_op(const uint8_t *body, size_t len, struct ie_ht_op *out);
/* Octet 0 of op_info is composed from sec_chan_offset and
 * sta_chan_width_any; the other op_info bits are written as given. */
int ie_build_ht_op(struct wbuf *w, const struct ie_ht_op *op);

int ie_parse_vht_cap(const uint8_t *body, size_t len, struct ie_vht_cap *out);
int ie_build_vht_cap(struct wbuf *w, const struct ie_vht_cap *vht);

/* Channel widths above 3 are reserved: CODEC_E_MALFORMED. */
int ie_parse_vht_op(const uint8_t *body, size_t len, struct ie_vht_op *out);
int ie_build_vht_op(struct wbuf *w, const struct ie_vht_op *op);

/* body: extension element body after the Element ID Extension octet. */
int ie_parse_he_cap(const uint8_t *body, size_t len, struct ie_he_cap *out);
int ie_build_he_cap(struct wbuf *w, const struct ie_he_cap *he);
/* body: after the Element ID Extension octet. The length must be exactly
 * what the parameter bits announce (CODEC_E_BAD_LENGTH otherwise); bits
 * 18-23 are reserved and ignored. */
int ie_parse_he_op(const uint8_t *body, size_t len, struct ie_he_op *out);
int ie_build_he_op(struct wbuf *w, const struct ie_he_op *op);
/* Size of the MCS/NSS field and the PPE field implied by PHY caps. */
size_t ie_he_mcs_nss_len(const uint8_t *phy_cap);
size_t ie_he_ppe_len(uint8_t ppe_first_octet);

#endif
