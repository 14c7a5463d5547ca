/* EAP-TTLS AVP codec (eap_ttls_avp.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto/secure.h"
#include "eap/eap_ttls_avp.h"

int ttls_avp_put(struct eap_buf *b, uint32_t code, uint32_t vendor, bool mandatory,
		 const void *data, size_t len)
{
	static const uint8_t zeros[3];
	size_t hdr = vendor ? 12 : 8;
	uint8_t flags = (uint8_t)((vendor ? TTLS_AVP_FLAG_VENDOR : 0) |
				  (mandatory ? TTLS_AVP_FLAG_MANDATORY : 0));
	size_t total = hdr + len;
	int r;

	if (total > 0xffffff)
		return -EMSGSIZE;
	r = eap_buf_put_be32(b, code);
	r = r ? r : eap_buf_put_u8(b, flags);
	r = r ? r : eap_buf_put_u8(b, (uint8_t)(total >> 16));
	r = r ? r : eap_buf_put_be16(b, (uint16_t)total);
	if (vendor)
		r = r ? r : eap_buf_put_be32(b, vendor);
	r = r ? r : eap_buf_put(b, data, len);
	if ((total & 3) != 0)
		r = r ? r : eap_buf_put(b, zeros, 4 - (total & 3));
	return r;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int ttls_avp_next(struct ttls_avp_iter *it, struct ttls_avp *avp, char *err, size_t err_len)
{
	size_t total, hdr, padded;

	if (it->left == 0)
		return 0;
	if (it->left < 8) {
		snprintf(err, err_len, "AVP header truncated (%zu octets)", it->left);
		return -EBADMSG;
	}
	avp->code = be32(it->p);
	avp->flags = it->p[4];
	total = (size_t)it->p[5] << 16 | (size_t)it->p[6] << 8 | it->p[7];
	hdr = (avp->flags & TTLS_AVP_FLAG_VENDOR) ? 12 : 8;
	if (avp->flags & 0x3f) {
		snprintf(err, err_len, "AVP %u: reserved flag bits 0x%02x", avp->code, avp->flags);
		return -EBADMSG;
	}
	if (total < hdr || total > it->left) {
		snprintf(err, err_len, "AVP %u: length %zu %s", avp->code, total,
			 total < hdr ? "below its header" : "past the end");
		return -EBADMSG;
	}
	avp->vendor = hdr == 12 ? be32(it->p + 8) : 0;
	avp->data = it->p + hdr;
	avp->len = total - hdr;
	/* The last AVP may come without its padding. */
	padded = (total + 3) & ~(size_t)3;
	if (padded > it->left)
		padded = it->left;
	it->p += padded;
	it->left -= padded;
	return 1;
}

void ttls_avps_free(struct ttls_avps *a)
{
	if (a->eap)
		crypto_zero(a->eap, a->eap_len);
	free(a->eap);
	memset(a, 0, sizeof(*a));
}

static int append_eap(struct ttls_avps *out, const struct ttls_avp *avp, char *err,
		      size_t err_len)
{
	uint8_t *n;

	if (out->eap_len + avp->len > TTLS_EAP_MAX) {
		snprintf(err, err_len, "EAP-Message AVPs over %u octets", TTLS_EAP_MAX);
		return -EBADMSG;
	}
	if (avp->len == 0)
		return 0;
	n = realloc(out->eap, out->eap_len + avp->len);
	if (!n)
		return -ENOMEM;
	memcpy(n + out->eap_len, avp->data, avp->len);
	out->eap = n;
	out->eap_len += avp->len;
	return 0;
}

int ttls_avps_parse(const uint8_t *data, size_t len, struct ttls_avps *out, char *err,
		    size_t err_len)
{
	struct ttls_avp_iter it = { data, len };
	struct ttls_avp avp;
	int r;

	memset(out, 0, sizeof(*out));
	while ((r = ttls_avp_next(&it, &avp, err, err_len)) > 0) {
		if (avp.vendor == 0 && avp.code == TTLS_AVP_EAP_MESSAGE) {
			r = append_eap(out, &avp, err, err_len);
		} else if (avp.vendor == 0 && avp.code == TTLS_AVP_REPLY_MESSAGE) {
			out->reply = avp.data;
			out->reply_len = avp.len;
		} else if (avp.vendor == TTLS_VENDOR_MICROSOFT && avp.code == TTLS_MS_CHAP2_SUCCESS) {
			out->ms_success = avp.data;
			out->ms_success_len = avp.len;
		} else if (avp.vendor == TTLS_VENDOR_MICROSOFT && avp.code == TTLS_MS_CHAP_ERROR) {
			out->ms_error = avp.data;
			out->ms_error_len = avp.len;
		} else if (avp.flags & TTLS_AVP_FLAG_MANDATORY) {
			snprintf(err, err_len, "unsupported mandatory AVP %u (vendor %u)", avp.code,
				 avp.vendor);
			r = -EBADMSG;
		}
		if (r < 0)
			break;
	}
	if (r < 0) {
		ttls_avps_free(out);
		return r;
	}
	return 0;
}

size_t ttls_ms_chap_error_text(const uint8_t *d, size_t len, uint8_t ident, const uint8_t **text)
{
	if (len > 2 && d[0] == ident && d[1] == 'E' && d[2] == '=') {
		d++;
		len--;
	}
	*text = d;
	return len;
}
