/* PEAPv0 Extensions TLVs and cryptobinding keys (eap_peap_tlv.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/crypto/hash.h"
#include "daemon/crypto/secure.h"
#include "eap/eap_peap_tlv.h"

int peap_tlv_parse(const uint8_t *data, size_t len, struct peap_tlvs *out, char *err,
		   size_t err_len)
{
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len) {
		uint16_t hdr, type, tlen;

		if (len - pos < 4) {
			snprintf(err, err_len, "TLV header truncated at offset %zu", pos);
			return -EBADMSG;
		}
		hdr = (uint16_t)(data[pos] << 8 | data[pos + 1]);
		tlen = (uint16_t)(data[pos + 2] << 8 | data[pos + 3]);
		type = hdr & PEAP_TLV_TYPE_MASK;
		if (tlen > len - pos - 4) {
			snprintf(err, err_len, "TLV %u length %u past the end (%zu left)", type, tlen,
				 len - pos - 4);
			return -EBADMSG;
		}
		switch (type) {
		case PEAP_TLV_RESULT:
			if (out->has_result || tlen != 2) {
				snprintf(err, err_len, "Result TLV %s",
					 out->has_result ? "twice" : "not 2 octets");
				return -EBADMSG;
			}
			out->has_result = true;
			out->result = (uint16_t)(data[pos + 4] << 8 | data[pos + 5]);
			break;
		case PEAP_TLV_CRYPTO_BINDING:
			if (out->has_binding || tlen != PEAP_BINDING_LEN) {
				snprintf(err, err_len, "Crypto-Binding TLV %s",
					 out->has_binding ? "twice" : "not 56 octets");
				return -EBADMSG;
			}
			out->has_binding = true;
			memcpy(out->binding, data + pos, PEAP_BINDING_TLV_LEN);
			break;
		default:
			if (hdr & PEAP_TLV_MANDATORY) {
				snprintf(err, err_len, "unknown mandatory TLV %u", type);
				return -EBADMSG;
			}
			break; /* optional: ignored */
		}
		pos += 4 + (size_t)tlen;
	}
	return 0;
}

int peap_prf_plus(const uint8_t *key, size_t key_len, const uint8_t *seed, size_t seed_len,
		  uint8_t *out, size_t out_len)
{
	uint8_t t[CRYPTO_SHA1_LEN];
	uint8_t tail[3] = { 0, 0, 0 };
	size_t done = 0;
	int r = 0;

	for (unsigned n = 1; done < out_len; n++) {
		struct crypto_iov parts[3] = {
			{ t, n == 1 ? 0 : sizeof(t) },
			{ seed, seed_len },
			{ tail, sizeof(tail) },
		};
		size_t take = out_len - done < sizeof(t) ? out_len - done : sizeof(t);

		if (n > 255)
			return -EINVAL;
		tail[0] = (uint8_t)n;
		r = crypto_hmac_vec(CRYPTO_HASH_SHA1, key, key_len, parts, 3, t);
		if (r < 0)
			break;
		memcpy(out + done, t, take);
		done += take;
	}
	crypto_zero(t, sizeof(t));
	return r;
}

int peap_derive_cmk(const uint8_t tk[40], const uint8_t isk[32], uint8_t ipmk[40],
		    uint8_t cmk[20])
{
	static const char label[] = "Inner Methods Compound Keys";
	uint8_t seed[sizeof(label) - 1 + 32], imck[60];
	int r;

	memcpy(seed, label, sizeof(label) - 1);
	memcpy(seed + sizeof(label) - 1, isk, 32);
	r = peap_prf_plus(tk, 40, seed, sizeof(seed), imck, sizeof(imck));
	if (r == 0) {
		memcpy(ipmk, imck, 40);
		memcpy(cmk, imck + 40, 20);
	}
	crypto_zero(seed, sizeof(seed));
	crypto_zero(imck, sizeof(imck));
	return r;
}

int peap_compound_mac(const uint8_t cmk[20], const uint8_t tlv[PEAP_BINDING_TLV_LEN],
		      uint8_t mac[20])
{
	uint8_t buf[PEAP_BINDING_TLV_LEN + 1];

	memcpy(buf, tlv, PEAP_BINDING_TLV_LEN);
	memset(buf + PEAP_BINDING_TLV_LEN - 20, 0, 20);
	buf[PEAP_BINDING_TLV_LEN] = 25; /* the EAP type of PEAP */
	return crypto_hmac_sha1(cmk, 20, buf, sizeof(buf), mac);
}

int peap_csk(const uint8_t ipmk[40], uint8_t csk[128])
{
	/* The label with its NUL, as [MS-PEAP] 3.1.5.7 says. */
	static const char label[] = "Session Key Generating Function";

	return peap_prf_plus(ipmk, 40, (const uint8_t *)label, sizeof(label), csk, 128);
}

size_t peap_tlv_build_result(uint8_t *out, size_t max, uint16_t status)
{
	if (max < 6)
		return 0;
	out[0] = (PEAP_TLV_MANDATORY | PEAP_TLV_RESULT) >> 8;
	out[1] = PEAP_TLV_RESULT;
	out[2] = 0;
	out[3] = 2;
	out[4] = (uint8_t)(status >> 8);
	out[5] = (uint8_t)status;
	return 6;
}
