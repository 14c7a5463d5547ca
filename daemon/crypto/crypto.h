/* Public interface of the wpad crypto module (OpenSSL 3 EVP underneath).
 *
 * Include this one header. Conventions everywhere:
 *   - lengths are size_t byte counts; output buffers are sized by the
 *     caller as each function documents;
 *   - functions return 0 on success or a negative errno:
 *       -EINVAL  bad arguments or lengths (also malformed frames),
 *       -EBADMSG authentication failure: MIC/tag mismatch on decrypt,
 *                unwrap integrity failure, EAPOL-Key MIC mismatch,
 *       -ENOMEM  allocation failure,
 *       -EIO     OpenSSL reported an error;
 *   - intermediate secrets are wiped with crypto_zero() before return, and
 *     nothing here logs.
 *
 *   secure.h     crypto_memeq, crypto_zero, crypto_random
 *   hash.h       SHA-1/256/384 digests, HMAC
 *   kdf.h        PBKDF2-SHA1, passphrase->PSK, 802.11 PRF-SHA1, KDF-SHA256/384
 *   aes.h        AES-CMAC
 *   keywrap.h    RFC 3394 AES key wrap / unwrap
 *   aead.h       AES-CCM and AES-GCM cores
 *   ccmp.h       CCMP-128/256 MPDU encrypt/decrypt, AAD and nonce
 *   gcmp.h       GCMP-128/256 MPDU encrypt/decrypt
 *   eapol_mic.h  EAPOL-Key MIC compute/verify
 *   ptk.h        pairwise key expansion into KCK/KEK/TK/KDK
 *   bip.h        BIP-CMAC/GMAC MIC of group-addressed management frames
 */
#ifndef WPAD_CRYPTO_CRYPTO_H
#define WPAD_CRYPTO_CRYPTO_H

#include "daemon/crypto/aead.h"
#include "daemon/crypto/aes.h"
#include "daemon/crypto/bip.h"
#include "daemon/crypto/ccmp.h"
#include "daemon/crypto/eapol_mic.h"
#include "daemon/crypto/gcmp.h"
#include "daemon/crypto/hash.h"
#include "daemon/crypto/kdf.h"
#include "daemon/crypto/keywrap.h"
#include "daemon/crypto/ptk.h"
#include "daemon/crypto/secure.h"

#endif /* WPAD_CRYPTO_CRYPTO_H */
