/* PEAPv0's Extensions (EAP type 33, inside the tunnel): the TLVs we read
 * and answer ([MS-PEAP] 2.2.8), and the cryptobinding keys
 * ([MS-PEAP] 3.1.5.5, 3.1.5.7).
 *
 * TLV: M (0x8000) | R (0x4000) | Type (14 bits), Length (2), Value.
 *   Result (3): Status, 1 success, 2 failure.
 *   Crypto-Binding (12), 56 octets: Reserved, Version (0), RecvVersion
 *   (0), SubType (0 request, 1 response), Nonce (32), Compound MAC (20).
 */
#ifndef WPAD_EAP_PEAP_TLV_H
#define WPAD_EAP_PEAP_TLV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PEAP_TLV_MANDATORY 0x8000
#define PEAP_TLV_TYPE_MASK 0x3fff
#define PEAP_TLV_RESULT 3
#define PEAP_TLV_CRYPTO_BINDING 12
#define PEAP_RESULT_SUCCESS 1
#define PEAP_RESULT_FAILURE 2
#define PEAP_BINDING_LEN 56 /* value */
#define PEAP_BINDING_TLV_LEN 60 /* with its header */

struct peap_tlvs {
	bool has_result;
	uint16_t result;
	bool has_binding;
	uint8_t binding[PEAP_BINDING_TLV_LEN]; /* the whole TLV, header included */
};

/* The TLVs of one Extensions Request (after the Type octet). Returns 0,
 * or -EBADMSG with err filled: a length past the end, a Result without
 * its status, a Crypto-Binding not 56 octets, a TLV twice, an unknown
 * mandatory TLV. */
int peap_tlv_parse(const uint8_t *data, size_t len, struct peap_tlvs *out, char *err,
		   size_t err_len);

/* [MS-PEAP] 3.1.5.5.2.2: PRF+(K, S, LEN) = T1 | T2 | ..., Tn =
 * HMAC-SHA1(K, Tn-1 | S | n | 0x00 | 0x00) (the PEAPv0 form). */
int peap_prf_plus(const uint8_t *key, size_t key_len, const uint8_t *seed, size_t seed_len,
		  uint8_t *out, size_t out_len);
/* IPMK | CMK = PRF+(first 40 octets of TK, "Inner Methods Compound Keys"
 * | ISK, 60). */
int peap_derive_cmk(const uint8_t tk[40], const uint8_t isk[32], uint8_t ipmk[40],
		    uint8_t cmk[20]);
/* Compound MAC = HMAC-SHA1(CMK, the 60-octet TLV with its MAC zeroed |
 * EAP type 25) ([MS-PEAP] 3.1.5.5.1; no Outer TLVs in PEAPv0 as run). */
int peap_compound_mac(const uint8_t cmk[20], const uint8_t tlv[PEAP_BINDING_TLV_LEN],
		      uint8_t mac[20]);
/* CSK = PRF+(IPMK, "Session Key Generating Function" 0x00, 128); the MSK
 * is its first 64 octets ([MS-PEAP] 3.1.5.7). */
int peap_csk(const uint8_t ipmk[40], uint8_t csk[128]);

/* Our Response TLVs: Result with status, and the Crypto-Binding answer
 * (SubType 1, the request's nonce, our MAC) when binding is not NULL. */
size_t peap_tlv_build_result(uint8_t *out, size_t max, uint16_t status);

#endif
