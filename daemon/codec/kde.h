/* EAPOL-Key Key Data: KDEs and the elements carried alongside them.
 *
 * A KDE is a vendor element 0xdd | Length | OUI 00-0F-AC | Data Type |
 * data. Key data may also hold plain elements (RSNE, the WPA element,
 * RSNXE, MDE, FTE, Timeout Interval) and, once decrypted, ends with
 * optional AES key wrap padding: 0xdd followed by zeros. Parse this only
 * after decrypting the key data.
 *
 * Decoded: GTK, IGTK, BIGTK, MAC address, PMKID, Nonce, Key ID, OCI KDEs.
 * The RSNXE is only located (its content is compared, never decoded).
 * Other KDE types and other vendor elements are skipped. Each decoded KDE
 * or element may appear once (RSNE twice: message 3 may carry a second
 * RSNE for the pairwise cipher); more is CODEC_E_DUPLICATE.
 */
#ifndef WPAD_CODEC_KDE_H
#define WPAD_CODEC_KDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

enum kde_type {
	KDE_GTK = 1,
	KDE_MAC_ADDR = 3,
	KDE_PMKID = 4,
	KDE_NONCE = 6,
	KDE_LIFETIME = 7,
	KDE_ERROR = 8,
	KDE_IGTK = 9,
	KDE_KEY_ID = 10,
	KDE_MULTIBAND_GTK = 11,
	KDE_MULTIBAND_KEY_ID = 12,
	KDE_OCI = 13,
	KDE_BIGTK = 14,
};

/* KDEs under the Wi-Fi Alliance OUI 50-6F-9A (the OUI and data type open
 * the vendor element as for 00-0F-AC). Transition Disable: WPA3
 * Specification v3, section 8 (hostapd's WFA_KEY_DATA_TRANSITION_DISABLE),
 * in message 3 of the 4-way handshake (and group message 1), one octet. */
#define KDE_WFA_TRANSITION_DISABLE 0x20

/* Transition Disable bitmap (first octet of the KDE): which transition
 * modes the AP tells the station to stop using for this network. */
#define KDE_TD_WPA3_PERSONAL 0x01
#define KDE_TD_SAE_PK 0x02
#define KDE_TD_WPA3_ENTERPRISE 0x04
#define KDE_TD_ENHANCED_OPEN 0x08

#define KDE_HDR_LEN 6 /* 0xdd, length, OUI (3), data type */
#define KDE_GTK_MIN_KEY 5
#define KDE_GTK_MAX_KEY 32
#define KDE_IPN_LEN 6
#define KDE_PAD_OCTET 0xdd
/* GTK KDE first octet */
#define KDE_GTK_KEY_ID_MASK 0x03
#define KDE_GTK_TX 0x04

struct kde_gtk {
	uint8_t key_id;
	bool tx;
	const uint8_t *key;
	uint8_t key_len;
};

/* IGTK and BIGTK KDEs share a layout: Key ID (2, LE), IPN/BIPN (6), key. */
struct kde_igtk {
	uint16_t key_id;
	const uint8_t *ipn;
	const uint8_t *key;
	uint8_t key_len; /* 16 or 32 */
};

struct kde_set {
	/* Whole elements (header included), as compared in the handshake. */
	const uint8_t *rsn_elem[2];
	size_t rsn_elem_len[2];
	size_t n_rsn;
	const uint8_t *wpa_elem;
	size_t wpa_elem_len;
	const uint8_t *rsnxe_elem;
	size_t rsnxe_elem_len;
	const uint8_t *mde_elem;
	const uint8_t *fte_elem;
	size_t fte_elem_len;
	bool has_timeout;
	uint8_t timeout_type;
	uint32_t timeout_value;

	bool has_gtk;
	struct kde_gtk gtk;
	bool has_igtk;
	struct kde_igtk igtk;
	bool has_bigtk;
	struct kde_igtk bigtk;
	const uint8_t *mac_addr; /* 6 */
	const uint8_t *pmkid;    /* 16 */
	const uint8_t *nonce;    /* 32 */
	bool has_key_id;
	uint8_t key_id;
	const uint8_t *oci;
	uint8_t oci_len;
	bool has_transition_disable;
	uint8_t transition_disable; /* KDE_TD_* bits */

	size_t padding_len; /* 0xdd + zeros at the end, if present */
};

int kde_parse(const uint8_t *key_data, size_t len, struct kde_set *out);

/* Generic KDE with the 00-0F-AC OUI. */
int kde_build(struct wbuf *w, uint8_t type, const void *data, size_t len);
int kde_build_gtk(struct wbuf *w, uint8_t key_id, bool tx, const uint8_t *key, size_t key_len);
int kde_build_igtk(struct wbuf *w, uint16_t key_id, const uint8_t ipn[KDE_IPN_LEN],
		   const uint8_t *key, size_t key_len);
int kde_build_bigtk(struct wbuf *w, uint16_t key_id, const uint8_t bipn[KDE_IPN_LEN],
		    const uint8_t *key, size_t key_len);
int kde_build_pmkid(struct wbuf *w, const uint8_t pmkid[16]);
int kde_build_mac_addr(struct wbuf *w, const uint8_t addr[6]);
/* The Transition Disable KDE (50-6F-9A:0x20) with its bitmap (KDE_TD_*). */
int kde_build_transition_disable(struct wbuf *w, uint8_t bitmap);
/* Pads what was written since `start` for AES key wrap: to a multiple of
 * 8 and at least 16 octets, with 0xdd then zeros; nothing if already so. */
int kde_pad(struct wbuf *w, size_t start);

#endif
