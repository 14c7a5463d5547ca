/* CCMP data/management frame protection (IEEE 802.11-2020 12.5.3):
 * CCMP-128 (AES-128-CCM, M = 8, L = 2) and CCMP-256 (AES-256-CCM, M = 16).
 *
 * A protected MPDU is laid out as
 *     MAC header (hdr_len) | CCMP header (8) | ciphertext | MIC (8 or 16)
 * The caller passes the MAC header length; it must equal the length the
 * Frame Control field implies (24, +6 for A4, +2 for QoS Control, +4 for
 * HT Control when Order is set in a QoS Data or Management frame), else
 * -EINVAL. Only Data and Management frames of protocol version 0 are
 * accepted. PNs are 48-bit, key IDs 0..3. All lengths are in bytes.
 * Output buffers must not overlap the inputs.
 */
#ifndef WPAD_CRYPTO_CCMP_H
#define WPAD_CRYPTO_CCMP_H

#include <stddef.h>
#include <stdint.h>

#define CCMP_HDR_LEN 8
#define CCMP_MIC_LEN 8
#define CCMP256_MIC_LEN 16
#define CCMP_NONCE_LEN 13
#define CCMP_AAD_MAX_LEN 30
#define CCMP_PN_MAX 0xffffffffffffULL

/* Protect one MPDU with CCMP-128. hdr is the plaintext MAC header (the
 * Protected bit is set in the copy written to out). out holds
 * hdr_len + 8 + plain_len + 8 bytes; *out_len gets that length.
 * Returns 0, -EINVAL (bad header/length/PN/key id), -ENOMEM or -EIO. */
int ccmp_encrypt(const uint8_t tk[16], const uint8_t *hdr, size_t hdr_len, uint64_t pn,
		 uint8_t key_id, const uint8_t *plain, size_t plain_len, uint8_t *out,
		 size_t *out_len);

/* Check and decrypt one CCMP-128 MPDU of len bytes whose MAC header is
 * hdr_len bytes. plain holds len - hdr_len - 16 bytes; *plain_len gets that
 * length; *pn_out (may be NULL) the received PN -- replay checking is the
 * caller's job. Returns 0, -EBADMSG (MIC failure; plain is zeroed),
 * -EINVAL (malformed: short, bad header, Ext IV bit clear), -ENOMEM or -EIO. */
int ccmp_decrypt(const uint8_t tk[16], const uint8_t *frame, size_t len, size_t hdr_len,
		 uint8_t *plain, size_t *plain_len, uint64_t *pn_out);

/* CCMP-256: as ccmp_encrypt() with a 32-byte TK and a 16-byte MIC; out
 * holds hdr_len + 8 + plain_len + 16 bytes. */
int ccmp256_encrypt(const uint8_t tk[32], const uint8_t *hdr, size_t hdr_len, uint64_t pn,
		    uint8_t key_id, const uint8_t *plain, size_t plain_len, uint8_t *out,
		    size_t *out_len);

/* CCMP-256: as ccmp_decrypt(); plain holds len - hdr_len - 24 bytes. */
int ccmp256_decrypt(const uint8_t tk[32], const uint8_t *frame, size_t len, size_t hdr_len,
		    uint8_t *plain, size_t *plain_len, uint64_t *pn_out);

/* Build the AAD of 802.11-2020 12.5.3.3.3 from a MAC header (shared by
 * CCMP and GCMP): FC with Retry/PwrMgt/MoreData cleared, Protected set,
 * subtype bits 4-6 cleared in Data frames, Order cleared in QoS Data
 * frames (Order is kept in Management and non-QoS Data frames); A1 A2 A3;
 * SC with only the fragment number; A4 if present; QC with only the TID
 * (bits 4-15 zero: the SPP A-MSDU variant that keeps bit 7 is not
 * supported); HT Control never. aad holds CCMP_AAD_MAX_LEN bytes; *aad_len
 * gets 22, 24, 28 or 30. Returns 0 or -EINVAL. */
int ccmp_build_aad(const uint8_t *hdr, size_t hdr_len, uint8_t aad[CCMP_AAD_MAX_LEN],
		   size_t *aad_len);

/* Build the 13-byte CCM nonce of 802.11-2020 12.5.3.3.4:
 * Nonce Flags (priority = QC TID or 0; bit 4 set for Management frames) |
 * A2 | PN (big-endian, 6 bytes). Returns 0 or -EINVAL. */
int ccmp_build_nonce(const uint8_t *hdr, size_t hdr_len, uint64_t pn,
		     uint8_t nonce[CCMP_NONCE_LEN]);

/* Write the 8-byte CCMP/GCMP header: PN0 PN1 0 (ExtIV | KeyID << 6) PN2..PN5.
 * Returns 0 or -EINVAL (pn > CCMP_PN_MAX or key_id > 3). */
int ccmp_put_header(uint64_t pn, uint8_t key_id, uint8_t out[CCMP_HDR_LEN]);

/* Read the PN (and key ID, may be NULL) from an 8-byte CCMP/GCMP header.
 * Returns 0 or -EINVAL if the Ext IV bit is clear. */
int ccmp_get_header(const uint8_t in[CCMP_HDR_LEN], uint64_t *pn, uint8_t *key_id);

#endif /* WPAD_CRYPTO_CCMP_H */
