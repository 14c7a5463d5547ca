/* RSNE, WPA element and RSNXE. */
#include "daemon/codec/ie_rsn.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"

#define SUITE_LEN 4

/* Count (2) then count * 4-octet selectors. */
static int read_suite_list(struct rbuf *r, uint32_t *list, size_t *n)
{
	if (rbuf_left(r) < 2)
		return CODEC_E_TRUNCATED;
	uint16_t count = rbuf_le16(r);
	if ((size_t)count * SUITE_LEN > rbuf_left(r))
		return CODEC_E_OVERRUN;
	/* A present list must name at least one suite. */
	if (count == 0)
		return CODEC_E_MALFORMED;
	if (count > IE_RSN_MAX_SUITES)
		return CODEC_E_UNSUPPORTED;
	for (size_t i = 0; i < count; i++)
		list[i] = rbuf_be32(r);
	*n = count;
	return CODEC_OK;
}

static int read_pmkid_list(struct rbuf *r, struct ie_rsn *out)
{
	if (rbuf_left(r) < 2)
		return CODEC_E_TRUNCATED;
	uint16_t count = rbuf_le16(r);
	if ((size_t)count * PMKID_LEN > rbuf_left(r))
		return CODEC_E_OVERRUN;
	out->n_pmkid = count;
	out->pmkids = rbuf_take(r, (size_t)count * PMKID_LEN);
	return CODEC_OK;
}

/* Reads the optional fields after Version, stopping cleanly at a field
 * boundary or after `last`. Each step raises out->present. */
static int read_optional_fields(struct rbuf *r, struct ie_rsn *out, enum ie_rsn_present last)
{
	int err;

	if (rbuf_left(r) == 0)
		return CODEC_OK;
	if (rbuf_left(r) < SUITE_LEN)
		return CODEC_E_TRUNCATED;
	out->group_cipher = rbuf_be32(r);
	out->present = IE_RSN_UPTO_GROUP;

	if (rbuf_left(r) == 0)
		return CODEC_OK;
	if ((err = read_suite_list(r, out->pairwise, &out->n_pairwise)))
		return err;
	out->present = IE_RSN_UPTO_PAIRWISE;

	if (rbuf_left(r) == 0)
		return CODEC_OK;
	if ((err = read_suite_list(r, out->akm, &out->n_akm)))
		return err;
	out->present = IE_RSN_UPTO_AKM;

	if (rbuf_left(r) == 0)
		return CODEC_OK;
	if (rbuf_left(r) < 2)
		return CODEC_E_TRUNCATED;
	out->capab = rbuf_le16(r);
	out->present = IE_RSN_UPTO_CAPAB;
	if (last == IE_RSN_UPTO_CAPAB || rbuf_left(r) == 0)
		return CODEC_OK;

	if ((err = read_pmkid_list(r, out)))
		return err;
	out->present = IE_RSN_UPTO_PMKID;

	if (rbuf_left(r) == 0)
		return CODEC_OK;
	if (rbuf_left(r) < SUITE_LEN)
		return CODEC_E_TRUNCATED;
	out->group_mgmt_cipher = rbuf_be32(r);
	out->present = IE_RSN_UPTO_GROUP_MGMT;
	return CODEC_OK;
}

static void set_defaults(struct ie_rsn *out, uint32_t cipher, uint32_t akm)
{
	*out = (struct ie_rsn){ 0 };
	out->group_cipher = cipher;
	out->pairwise[0] = cipher;
	out->n_pairwise = 1;
	out->akm[0] = akm;
	out->n_akm = 1;
	out->group_mgmt_cipher = RSN_CIPHER_BIP_CMAC_128;
}

static void keep_extra(struct rbuf *r, struct ie_rsn *out)
{
	out->extra_len = rbuf_left(r);
	out->extra = out->extra_len ? rbuf_take(r, out->extra_len) : NULL;
}

int ie_parse_rsn(const uint8_t *body, size_t len, struct ie_rsn *out)
{
	struct rbuf r = rbuf_init(body, len);

	if (len < 2)
		return CODEC_E_BAD_LENGTH;
	set_defaults(out, RSN_CIPHER_CCMP_128, RSN_AKM_8021X);
	out->version = rbuf_le16(&r);
	if (out->version != IE_RSN_VERSION)
		return CODEC_E_MALFORMED;
	int err = read_optional_fields(&r, out, IE_RSN_UPTO_GROUP_MGMT);
	if (err)
		return err;
	keep_extra(&r, out);
	return CODEC_OK;
}

int ie_parse_wpa(const uint8_t *body, size_t len, struct ie_rsn *out)
{
	struct rbuf r = rbuf_init(body, len);

	if (len < 6)
		return CODEC_E_BAD_LENGTH;
	uint32_t oui_type = rbuf_be32(&r);
	if (oui_type != SUITE_SELECTOR(OUI_MICROSOFT, VENDOR_TYPE_WPA))
		return CODEC_E_MALFORMED;
	set_defaults(out, WPA_CIPHER_TKIP, WPA_AKM_8021X);
	out->version = rbuf_le16(&r);
	if (out->version != IE_WPA_VERSION)
		return CODEC_E_MALFORMED;
	int err = read_optional_fields(&r, out, IE_RSN_UPTO_CAPAB);
	if (err)
		return err;
	keep_extra(&r, out);
	return CODEC_OK;
}

static int write_suite_list(struct wbuf *w, const uint32_t *list, size_t n)
{
	if (n < 1 || n > IE_RSN_MAX_SUITES)
		return CODEC_E_INVALID_ARG;
	wbuf_le16(w, (uint16_t)n);
	for (size_t i = 0; i < n; i++)
		wbuf_be32(w, list[i]);
	return CODEC_OK;
}

/* Writes Version and the optional fields up to rsn->present. */
static int write_fields(struct wbuf *w, const struct ie_rsn *rsn)
{
	int err;

	wbuf_le16(w, rsn->version);
	if (rsn->present >= IE_RSN_UPTO_GROUP)
		wbuf_be32(w, rsn->group_cipher);
	if (rsn->present >= IE_RSN_UPTO_PAIRWISE &&
	    (err = write_suite_list(w, rsn->pairwise, rsn->n_pairwise)))
		return err;
	if (rsn->present >= IE_RSN_UPTO_AKM && (err = write_suite_list(w, rsn->akm, rsn->n_akm)))
		return err;
	if (rsn->present >= IE_RSN_UPTO_CAPAB)
		wbuf_le16(w, rsn->capab);
	if (rsn->present >= IE_RSN_UPTO_PMKID) {
		if (rsn->n_pmkid && !rsn->pmkids)
			return CODEC_E_INVALID_ARG;
		if (rsn->n_pmkid > 0xffff)
			return CODEC_E_BAD_LENGTH;
		wbuf_le16(w, (uint16_t)rsn->n_pmkid);
		wbuf_put(w, rsn->pmkids, rsn->n_pmkid * PMKID_LEN);
	}
	if (rsn->present >= IE_RSN_UPTO_GROUP_MGMT)
		wbuf_be32(w, rsn->group_mgmt_cipher);
	return CODEC_OK;
}

int ie_build_rsn(struct wbuf *w, const struct ie_rsn *rsn)
{
	if (rsn->present > IE_RSN_UPTO_GROUP_MGMT)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_RSN);
	int err = write_fields(w, rsn);
	if (err)
		return codec_fail(w, err);
	return ie_end(w, start);
}

int ie_build_wpa(struct wbuf *w, const struct ie_rsn *wpa)
{
	if (wpa->present > IE_RSN_UPTO_CAPAB)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_VENDOR_SPECIFIC);
	wbuf_be32(w, SUITE_SELECTOR(OUI_MICROSOFT, VENDOR_TYPE_WPA));
	int err = write_fields(w, wpa);
	if (err)
		return codec_fail(w, err);
	return ie_end(w, start);
}

void ie_rsn_init(struct ie_rsn *rsn, uint32_t akm)
{
	set_defaults(rsn, RSN_CIPHER_CCMP_128, akm);
	rsn->version = IE_RSN_VERSION;
	rsn->present = IE_RSN_UPTO_AKM;
}

static bool list_has(const uint32_t *list, size_t n, uint32_t suite)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == suite)
			return true;
	return false;
}

bool ie_rsn_has_akm(const struct ie_rsn *rsn, uint32_t akm)
{
	return list_has(rsn->akm, rsn->n_akm, akm);
}

bool ie_rsn_has_pairwise(const struct ie_rsn *rsn, uint32_t cipher)
{
	return list_has(rsn->pairwise, rsn->n_pairwise, cipher);
}

int rsn_akm_mic_len(uint32_t akm)
{
	switch (akm) {
	case RSN_AKM_8021X_SUITE_B_192:
	case RSN_AKM_FT_8021X_SHA384:
	case RSN_AKM_FT_PSK_SHA384:
	case RSN_AKM_PSK_SHA384:
	case RSN_AKM_8021X_SHA384:
		return 24;
	case RSN_AKM_FILS_SHA256:
	case RSN_AKM_FILS_SHA384:
	case RSN_AKM_FT_FILS_SHA256:
	case RSN_AKM_FT_FILS_SHA384:
		return 0;
	case RSN_AKM_SAE_EXT_KEY:
	case RSN_AKM_FT_SAE_EXT_KEY:
		return -1;
	default:
		break;
	}
	if ((akm >> 8) == OUI_IEEE80211 && (akm & 0xff) >= 1 && (akm & 0xff) <= 21)
		return 16;
	if (akm == WPA_AKM_8021X || akm == WPA_AKM_PSK)
		return 16;
	return -1;
}

int ie_parse_rsnxe(const uint8_t *body, size_t len, struct ie_rsnxe *out)
{
	if (len < 1)
		return CODEC_E_BAD_LENGTH;
	/* The low nibble of the first octet states the field length - 1. */
	if ((size_t)(body[0] & RSNX_CAPAB_FIELD_LEN_MASK) + 1 != len)
		return CODEC_E_MALFORMED;
	out->octets = body;
	out->len = (uint8_t)len;
	out->capab = 0;
	for (size_t i = 0; i < len && i < 4; i++)
		out->capab |= (uint32_t)body[i] << (8 * i);
	return CODEC_OK;
}

bool ie_rsnxe_has(const struct ie_rsnxe *x, unsigned bit)
{
	if (!x->octets || bit / 8 >= x->len)
		return false;
	return x->octets[bit / 8] & (1u << (bit % 8));
}

int ie_build_rsnxe(struct wbuf *w, uint32_t capab)
{
	uint8_t octets[4];
	size_t n = 1;

	capab &= ~(uint32_t)RSNX_CAPAB_FIELD_LEN_MASK;
	for (size_t i = 0; i < 4; i++) {
		octets[i] = (uint8_t)(capab >> (8 * i));
		if (octets[i])
			n = i + 1;
	}
	octets[0] |= (uint8_t)(n - 1);
	return ie_build(w, WLAN_EID_RSNX, octets, n);
}
