/* OpenSSL's start-up options and the fetched-once algorithm table. */
#include "daemon/crypto/lib.h"

#include <errno.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

int crypto_lib_init(void)
{
	/* wpad sets every parameter it uses itself (algorithms by name, TLS
	 * versions per profile), so the system openssl.cnf is not parsed.
	 * libcrypto's error-string tables (about 600 kB resident once
	 * loaded) are not loaded: wpad never prints a libcrypto reason text;
	 * a TLS failure's reason comes from libssl's own table, which the
	 * first TLS context still loads. Must run before any other OpenSSL
	 * call: both choices are made once per process. */
	if (OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS,
				NULL) != 1) {
		ERR_clear_error();
		return -EIO;
	}
	return 0;
}

static const char *const md_names[] = {
	[CRYPTO_HASH_SHA1] = "SHA1",
	[CRYPTO_HASH_SHA256] = "SHA256",
	[CRYPTO_HASH_SHA384] = "SHA384",
	[CRYPTO_HASH_SHA512] = "SHA512",
};
#define N_MD (sizeof(md_names) / sizeof(md_names[0]))

static struct {
	pthread_once_t once;
	EVP_MD *md[N_MD];
	EVP_MAC *hmac, *cmac;
	EVP_MAC_CTX *hmac_tmpl[N_MD];
	EVP_KDF *pbkdf2, *hkdf;
} algs = { .once = PTHREAD_ONCE_INIT };

static void algs_free(void)
{
	for (size_t i = 0; i < N_MD; i++)
		EVP_MD_free(algs.md[i]);
	for (size_t i = 0; i < N_MD; i++)
		EVP_MAC_CTX_free(algs.hmac_tmpl[i]);
	EVP_MAC_free(algs.hmac);
	EVP_MAC_free(algs.cmac);
	EVP_KDF_free(algs.pbkdf2);
	EVP_KDF_free(algs.hkdf);
}

static void algs_fetch(void)
{
	/* OpenSSL registers its exit handler here if it has not yet: ours,
	 * registered below, then runs first and drops our references before
	 * OpenSSL tears the provider down. */
	OPENSSL_init_crypto(0, NULL);
	for (size_t i = 0; i < N_MD; i++)
		algs.md[i] = EVP_MD_fetch(NULL, md_names[i], NULL);
	algs.hmac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	for (size_t i = 0; algs.hmac && i < N_MD; i++) {
		static const unsigned char empty_key;
		OSSL_PARAM p[] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
								    (char *)md_names[i], 0),
				   OSSL_PARAM_construct_end() };
		EVP_MAC_CTX *c = EVP_MAC_CTX_new(algs.hmac);
		/* Non-NULL key pointer: NULL would mean "no key yet". */
		if (c && EVP_MAC_init(c, &empty_key, 0, p) != 1) {
			EVP_MAC_CTX_free(c);
			c = NULL;
		}
		algs.hmac_tmpl[i] = c;
	}
	ERR_clear_error(); /* a missing one is reported by its getter's NULL */
	atexit(algs_free);
}

static bool algs_ready(void)
{
	return pthread_once(&algs.once, algs_fetch) == 0;
}

/* CMAC and the KDFs are fetched on their first use, not with the digests:
 * the first fetch of a kind builds OpenSSL's table of every algorithm of
 * that kind (heap and library pages), and a WPA2-PSK station with its PSK
 * cached never uses them. */
static pthread_once_t cmac_once = PTHREAD_ONCE_INIT, pbkdf2_once = PTHREAD_ONCE_INIT,
		      hkdf_once = PTHREAD_ONCE_INIT;

static void fetch_cmac(void)
{
	algs.cmac = EVP_MAC_fetch(NULL, "CMAC", NULL);
	ERR_clear_error();
}

static void fetch_pbkdf2(void)
{
	algs.pbkdf2 = EVP_KDF_fetch(NULL, "PBKDF2", NULL);
	ERR_clear_error();
}

static void fetch_hkdf(void)
{
	algs.hkdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	ERR_clear_error();
}

/* After algs_ready(): algs_free, registered there, releases it at exit. */
static bool lazy_ready(pthread_once_t *once, void (*fetch)(void))
{
	return algs_ready() && pthread_once(once, fetch) == 0;
}

EVP_MD *crypto_alg_md(enum crypto_hash_alg alg)
{
	if ((size_t)alg >= N_MD || !algs_ready())
		return NULL;
	return algs.md[alg];
}

EVP_MAC *crypto_alg_hmac(void)
{
	return algs_ready() ? algs.hmac : NULL;
}

const EVP_MAC_CTX *crypto_alg_hmac_template(enum crypto_hash_alg alg)
{
	if ((size_t)alg >= N_MD || !algs_ready())
		return NULL;
	return algs.hmac_tmpl[alg];
}

EVP_MAC *crypto_alg_cmac(void)
{
	return lazy_ready(&cmac_once, fetch_cmac) ? algs.cmac : NULL;
}

EVP_KDF *crypto_alg_pbkdf2(void)
{
	return lazy_ready(&pbkdf2_once, fetch_pbkdf2) ? algs.pbkdf2 : NULL;
}

EVP_KDF *crypto_alg_hkdf(void)
{
	return lazy_ready(&hkdf_once, fetch_hkdf) ? algs.hkdf : NULL;
}
