/* One SSL_CTX per TLS policy, reused while its inputs stay the same
 * (tls_ctx.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "daemon/crypto/cred_blob.h"
#include "daemon/crypto/lib.h"
#include "daemon/crypto/secure.h"
#include "eap/tls_ctx.h"

#define FP_LEN 32 /* SHA-256 */

static struct cached_ctx {
	uint8_t fp[FP_LEN];
	SSL_CTX *ctx; /* NULL: a free slot */
	unsigned long age;
} cache[TLS_CTX_CACHE_SIZE];
static unsigned long cache_clock, n_built, n_reused;
static bool exit_hook;

static void fp_bytes(EVP_MD_CTX *h, const void *d, size_t len)
{
	uint64_t n = len;

	/* Length first: ("ab", "c") and ("a", "bc") must differ. */
	EVP_DigestUpdate(h, &n, sizeof(n));
	EVP_DigestUpdate(h, d, len);
}

static void fp_str(EVP_MD_CTX *h, const char *s)
{
	const uint8_t none = 0xff; /* absent differs from "" */

	if (s)
		fp_bytes(h, s, strlen(s));
	else
		fp_bytes(h, &none, 1);
}

/* A named file's identity, or a blob's content: what the context read. */
static void fp_source(EVP_MD_CTX *h, const char *path)
{
	const char *name;
	struct stat sb;

	fp_str(h, path);
	if (!path)
		return;
	if (cred_blob_ref(path, &name)) {
		size_t len = 0;
		const uint8_t *b = cred_blob_get(name, &len);

		fp_bytes(h, b ? b : (const uint8_t *)"", b ? len : 0);
		return;
	}
	if (stat(path, &sb) < 0)
		memset(&sb, 0, sizeof(sb)); /* the build will say why */
	const int64_t id[] = { (int64_t)sb.st_dev, (int64_t)sb.st_ino, (int64_t)sb.st_size,
			       (int64_t)sb.st_mtim.tv_sec, (int64_t)sb.st_mtim.tv_nsec };
	fp_bytes(h, id, sizeof(id));
}

/* Everything the build reads from p and from disk. The passphrase goes
 * in as well: a context built with one passphrase never answers for
 * another. */
static int fingerprint(const struct eap_tls_policy *p, uint8_t out[FP_LEN])
{
	EVP_MD *md = crypto_alg_md(CRYPTO_HASH_SHA256);
	EVP_MD_CTX *h = md ? EVP_MD_CTX_new() : NULL;
	const int32_t nums[] = { p->min_version, p->max_version, p->ca_system,
				 p->allow_unverified, p->server_name != NULL,
				 p->domain_suffix != NULL };
	unsigned int n = 0;
	int r = -EIO;

	if (!h || EVP_DigestInit_ex(h, md, NULL) != 1)
		goto out;
	fp_bytes(h, nums, sizeof(nums));
	fp_source(h, p->ca_file);
	fp_source(h, p->ca_dir);
	fp_source(h, p->client_cert);
	fp_source(h, p->private_key);
	fp_str(h, p->key_passphrase);
	if (EVP_DigestFinal_ex(h, out, &n) == 1 && n == FP_LEN)
		r = 0;
out:
	EVP_MD_CTX_free(h); /* cleanses the state */
	ERR_clear_error();
	return r;
}

static void drop(struct cached_ctx *e)
{
	SSL_CTX_free(e->ctx);
	memset(e, 0, sizeof(*e));
}

void tls_ctx_cache_flush(void)
{
	for (size_t i = 0; i < TLS_CTX_CACHE_SIZE; i++)
		if (cache[i].ctx)
			drop(&cache[i]);
}

void tls_ctx_cache_stats(unsigned long *built, unsigned long *reused)
{
	*built = n_built;
	*reused = n_reused;
}

static void keep(const uint8_t fp[FP_LEN], SSL_CTX *ctx)
{
	struct cached_ctx *e = &cache[0];

	for (size_t i = 1; i < TLS_CTX_CACHE_SIZE && e->ctx; i++)
		if (!cache[i].ctx || cache[i].age < e->age)
			e = &cache[i];
	if (e->ctx)
		drop(e);
	if (SSL_CTX_up_ref(ctx) != 1)
		return;
	if (!exit_hook) {
		/* Registered after OpenSSL's own handler: runs before it. */
		exit_hook = atexit(tls_ctx_cache_flush) == 0;
	}
	memcpy(e->fp, fp, FP_LEN);
	e->ctx = ctx;
	e->age = ++cache_clock;
}

SSL_CTX *tls_ctx_get(const struct eap_tls_policy *p, tls_ctx_build_fn build,
		     struct tls_conn_status *st)
{
	uint8_t fp[FP_LEN];
	SSL_CTX *ctx;

	if (fingerprint(p, fp) < 0)
		return build(p, st); /* not kept: nothing to find it by */
	for (size_t i = 0; i < TLS_CTX_CACHE_SIZE; i++) {
		if (cache[i].ctx && crypto_memeq(cache[i].fp, fp, FP_LEN) &&
		    SSL_CTX_up_ref(cache[i].ctx) == 1) {
			cache[i].age = ++cache_clock;
			n_reused++;
			return cache[i].ctx;
		}
	}
	ctx = build(p, st);
	if (ctx) {
		n_built++;
		keep(fp, ctx);
	}
	return ctx;
}
