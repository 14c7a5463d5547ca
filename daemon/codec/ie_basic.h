/* Simple elements: SSID, Supported/Extended Supported Rates, DS Parameter
 * Set, TIM, Country, Extended Capabilities.
 *
 * Each parse_* takes an element body (after ID and Length) and fills a
 * struct whose pointers refer into that body. Each build_* writes the
 * whole element, header included.
 */
#ifndef WPAD_CODEC_IE_BASIC_H
#define WPAD_CODEC_IE_BASIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

#define IE_SSID_MAX_LEN 32
#define IE_SUPP_RATES_MAX 8
#define IE_TIM_MIN_LEN 4
#define IE_TIM_PVB_MAX 251
#define IE_COUNTRY_STRING_LEN 3
#define IE_COUNTRY_TRIPLET_LEN 3
#define IE_COUNTRY_OP_EXT_MIN 201 /* first octet >= 201: operating extension */

struct ie_ssid {
	const uint8_t *ssid; /* not NUL-terminated; may be empty (wildcard) */
	uint8_t len;
};

struct ie_rates {
	const uint8_t *rates; /* bit 7 = basic, low 7 bits = 500 kb/s units */
	uint8_t n;
};

struct ie_tim {
	uint8_t dtim_count;
	uint8_t dtim_period;
	uint8_t bitmap_ctrl; /* bit 0: group traffic buffered; bits 1-7: offset */
	const uint8_t *pvb;  /* partial virtual bitmap, 1..251 octets */
	uint8_t pvb_len;
};

struct ie_country_triplet {
	bool is_op_ext; /* operating extension triplet rather than a subband */
	uint8_t first;  /* first channel, or operating extension identifier */
	uint8_t second; /* number of channels, or operating class */
	uint8_t third;  /* max transmit power (dBm), or coverage class */
};

struct ie_country {
	const uint8_t *country;  /* 2 letters + environment octet */
	const uint8_t *triplets; /* n_triplets * 3 octets */
	uint8_t n_triplets;
	bool padded; /* a zero pad octet made the length even */
};

struct ie_ext_capab {
	const uint8_t *bits; /* bit n is octet n/8, bit n%8 */
	uint8_t len;
};

int ie_parse_ssid(const uint8_t *body, size_t len, struct ie_ssid *out);
int ie_build_ssid(struct wbuf *w, const uint8_t *ssid, size_t len);

/* Supported Rates holds 1..8 rates, Extended Supported Rates 1..255. */
int ie_parse_supp_rates(const uint8_t *body, size_t len, struct ie_rates *out);
int ie_parse_ext_rates(const uint8_t *body, size_t len, struct ie_rates *out);
/* Both builders take the full rate list: the first writes up to eight,
 * the second writes the rest (nothing when there are eight or fewer). */
int ie_build_supp_rates(struct wbuf *w, const uint8_t *rates, size_t n);
int ie_build_ext_rates(struct wbuf *w, const uint8_t *rates, size_t n);
bool ie_rate_is_membership_selector(uint8_t rate);
static inline unsigned ie_rate_kbps(uint8_t rate)
{
	return (rate & 0x7fu) * 500u;
}

int ie_parse_ds(const uint8_t *body, size_t len, uint8_t *channel);
int ie_build_ds(struct wbuf *w, uint8_t channel);

int ie_parse_tim(const uint8_t *body, size_t len, struct ie_tim *out);
int ie_build_tim(struct wbuf *w, const struct ie_tim *tim);

/* Country string, one or more triplets, and a zero pad octet where needed
 * to keep the length even; an odd length is CODEC_E_BAD_LENGTH. */
int ie_parse_country(const uint8_t *body, size_t len, struct ie_country *out);
struct ie_country_triplet ie_country_get(const struct ie_country *c, size_t i);
/* triplets: n * 3 raw octets. A pad octet is added to keep length even. */
int ie_build_country(struct wbuf *w, const uint8_t country[3], const uint8_t *triplets,
		     size_t n_triplets);

int ie_parse_ext_capab(const uint8_t *body, size_t len, struct ie_ext_capab *out);
bool ie_ext_capab_has(const struct ie_ext_capab *c, unsigned bit);
int ie_build_ext_capab(struct wbuf *w, const uint8_t *bits, size_t len);

#endif
