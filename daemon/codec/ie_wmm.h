/* WMM vendor element (00-50-F2, type 2): Information (subtype 0, 7 octets
 * of body) and Parameter (subtype 1, 24 octets of body) elements.
 *
 * Parameter element body: OUI (3) | type (1) | subtype (1) | version (1) |
 * QoS Info (1) | reserved (1) | 4 x AC record (ACI/AIFSN, ECWmin/max,
 * TXOP limit LE16). The four records must carry four distinct ACIs.
 */
#ifndef WPAD_CODEC_IE_WMM_H
#define WPAD_CODEC_IE_WMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

#define IE_WMM_INFO_LEN 7
#define IE_WMM_PARAM_LEN 24
#define IE_WMM_NUM_AC 4

enum wmm_ac {
	WMM_AC_BE = 0,
	WMM_AC_BK = 1,
	WMM_AC_VI = 2,
	WMM_AC_VO = 3,
};

/* QoS Info, sent by an AP: bits 0-3 parameter set count, bit 7 U-APSD */
#define WMM_QOSINFO_AP_PARAM_COUNT_MASK 0x0f
#define WMM_QOSINFO_AP_UAPSD 0x80

struct ie_wmm_ac {
	uint8_t aci;      /* enum wmm_ac */
	bool acm;         /* admission control mandatory */
	uint8_t aifsn;
	uint8_t ecw_min;  /* CWmin = 2^ecw_min - 1 */
	uint8_t ecw_max;
	uint16_t txop_limit; /* units of 32 us */
};

struct ie_wmm {
	uint8_t subtype; /* WMM_SUBTYPE_INFO or WMM_SUBTYPE_PARAM */
	uint8_t version;
	uint8_t qos_info;
	struct ie_wmm_ac ac[IE_WMM_NUM_AC]; /* parameter element only, wire order */
};

/* body starts at the OUI. Subtypes other than info/param are
 * CODEC_E_UNSUPPORTED. */
int ie_parse_wmm(const uint8_t *body, size_t len, struct ie_wmm *out);
/* Writes an info or parameter element according to wmm->subtype. */
int ie_build_wmm(struct wbuf *w, const struct ie_wmm *wmm);

#endif
