/* How wpad starts OpenSSL, and the algorithms it fetches once.
 *
 * crypto_lib_init() is for the daemon's main(): it chooses what OpenSSL
 * loads (see lib.c). Tests and tools that skip it get OpenSSL's defaults,
 * and every function of this module works either way.
 *
 * The crypto_alg_*() getters return algorithms fetched once from the
 * default library context on first use and kept until exit (NULL if
 * OpenSSL cannot provide them): a fetch per call costs a lock, a name
 * lookup and a reference count each time, on every MIC and every PRF.
 */
#ifndef WPAD_CRYPTO_LIB_H
#define WPAD_CRYPTO_LIB_H

#include <openssl/evp.h>

#include "daemon/crypto/hash.h"

int crypto_lib_init(void);

EVP_MD *crypto_alg_md(enum crypto_hash_alg alg);
EVP_MAC *crypto_alg_hmac(void);
/* An HMAC context for alg keyed with the empty key (public state, nothing
 * secret): EVP_MAC_CTX_dup() it and re-key the copy. Setting the digest on
 * a fresh context fetches it by name again on every call. */
const EVP_MAC_CTX *crypto_alg_hmac_template(enum crypto_hash_alg alg);
/* These three are fetched on their own first use (a station with a cached
 * PSK and no CMAC AKM never builds OpenSSL's MAC-by-name and KDF tables). */
EVP_MAC *crypto_alg_cmac(void);
EVP_KDF *crypto_alg_pbkdf2(void);
EVP_KDF *crypto_alg_hkdf(void);

#endif
