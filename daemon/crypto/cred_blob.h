/* Credentials held in memory instead of a file: wpa_supplicant's blobs
 * (AddBlob), named in a TLS policy as "blob://NAME" where a path would be
 * (CA file, client certificate, private key).
 *
 * One registry for the process; the program that stores a blob (the
 * fi.w1.wpa_supplicant1 front) chooses unique names and drops its blobs
 * when they go. Values are copied in and wiped when dropped (a blob may
 * hold a private key).
 */
#ifndef WPAD_CRYPTO_CRED_BLOB_H
#define WPAD_CRYPTO_CRED_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CRED_BLOB_PREFIX "blob://"
#define CRED_BLOB_NAME_MAX 160
#define CRED_BLOB_MAX_BYTES (1u << 20)
#define CRED_BLOB_MAX_COUNT 64

/* Stores (or replaces) a copy. Returns 0, -EINVAL (name, size), -ENOSPC
 * (too many) or -ENOMEM. */
int cred_blob_put(const char *name, const uint8_t *data, size_t len);
/* Drops one (0 or -ENOENT); cred_blob_drop_prefix drops every name that
 * begins with prefix. */
int cred_blob_drop(const char *name);
void cred_blob_drop_prefix(const char *prefix);
/* The bytes of a blob, valid until it is dropped; NULL if unknown. */
const uint8_t *cred_blob_get(const char *name, size_t *len);
/* "blob://NAME": true with *name pointing at NAME. */
bool cred_blob_ref(const char *path, const char **name);

#endif
