/* Small security primitives shared by the crypto module and its callers:
 * constant-time comparison, wiping of secrets, and the random source.
 *
 * Error convention of the whole crypto module: functions return 0 on
 * success or a negative errno: -EINVAL (bad arguments or lengths),
 * -EBADMSG (MIC / tag / integrity check failed), -ENOMEM (allocation),
 * -EIO (OpenSSL failed).
 */
#ifndef WPAD_CRYPTO_SECURE_H
#define WPAD_CRYPTO_SECURE_H

#include <stdbool.h>
#include <stddef.h>

/* Compare len bytes of a and b in time that depends only on len.
 * Returns true when equal (and true for len == 0). */
bool crypto_memeq(const void *a, const void *b, size_t len);

/* Overwrite len bytes at p with zeros in a way the compiler cannot drop.
 * Use on every buffer that held key material. p may be NULL if len is 0. */
void crypto_zero(void *p, size_t len);

/* Fill buf with len bytes from the OpenSSL DRBG (RAND_bytes).
 * Returns 0, -EINVAL (buf NULL with len > 0) or -EIO (DRBG failure). */
int crypto_random(void *buf, size_t len);

#endif /* WPAD_CRYPTO_SECURE_H */
