/* BIP: integrity of group-addressed robust management frames
 * (IEEE 802.11-2020 12.5.4): BIP-CMAC-128/256 (AES-CMAC, MIC truncated to
 * 8 / 16 octets) and BIP-GMAC-128/256 (AES-GMAC, 16-octet MIC, nonce
 * A2 || IPN).
 *
 * Every function takes a whole MPDU without FCS: the 24-octet management
 * header, the body, and as its last element the MMIE (element 76: Key ID 2,
 * IPN 6 little-endian, MIC 8 or 16 octets). The MIC is computed over
 *     AAD = FC (Retry, PwrMgt, MoreData masked) || A1 || A2 || A3
 * followed by the body with the MMIE's MIC field taken as zero, so the MIC
 * octets in the frame are ignored on compute. The element framing itself is
 * parsed in daemon/codec (mmie.h); these functions only read the IPN at its
 * fixed place in front of the MIC. Lengths in octets.
 */
#ifndef WPAD_CRYPTO_BIP_H
#define WPAD_CRYPTO_BIP_H

#include <stddef.h>
#include <stdint.h>

enum bip_cipher {
	BIP_CMAC_128,
	BIP_CMAC_256,
	BIP_GMAC_128,
	BIP_GMAC_256,
};

#define BIP_MIC_MAX_LEN 16
#define BIP_MGMT_HDR_LEN 24

/* MIC length in the MMIE (8 for BIP-CMAC-128, else 16); 0 if unknown. */
size_t bip_mic_len(enum bip_cipher c);
/* IGTK length (16 for the -128 suites, 32 for the -256 ones); 0 if unknown. */
size_t bip_key_len(enum bip_cipher c);
const char *bip_cipher_name(enum bip_cipher c);

/* mic = the MIC of frame (len octets, MMIE last). key_len must equal
 * bip_key_len(c); mic holds bip_mic_len(c) octets. Returns 0, -EINVAL
 * (bad lengths: a frame shorter than header + MMIE), -ENOMEM or -EIO. */
int bip_compute_mic(enum bip_cipher c, const uint8_t *key, size_t key_len,
		    const uint8_t *frame, size_t len, uint8_t *mic);

/* Writes the MIC into the MMIE's MIC field of frame (in place).
 * Returns as bip_compute_mic(). */
int bip_sign(enum bip_cipher c, const uint8_t *key, size_t key_len, uint8_t *frame, size_t len);

/* Checks the MMIE's MIC in constant time. Returns 0, -EBADMSG on a wrong
 * MIC, or as bip_compute_mic(). The IPN replay check is the caller's
 * (it needs the receive state). */
int bip_verify(enum bip_cipher c, const uint8_t *key, size_t key_len, const uint8_t *frame,
	       size_t len);

#endif /* WPAD_CRYPTO_BIP_H */
