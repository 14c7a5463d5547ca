/* The blob registry (cred_blob.h): a small array, looked up by name. */
#include "daemon/crypto/cred_blob.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto/secure.h"

struct blob {
	char *name;
	uint8_t *data;
	size_t len;
};

static struct blob blobs[CRED_BLOB_MAX_COUNT];

static struct blob *find(const char *name)
{
	for (size_t i = 0; i < CRED_BLOB_MAX_COUNT; i++)
		if (blobs[i].name && strcmp(blobs[i].name, name) == 0)
			return &blobs[i];
	return NULL;
}

static void release(struct blob *b)
{
	free(b->name);
	if (b->data) {
		crypto_zero(b->data, b->len);
		free(b->data);
	}
	memset(b, 0, sizeof(*b));
}

int cred_blob_put(const char *name, const uint8_t *data, size_t len)
{
	size_t n = strlen(name);
	if (!n || n > CRED_BLOB_NAME_MAX || len > CRED_BLOB_MAX_BYTES)
		return -EINVAL;
	struct blob *b = find(name);
	for (size_t i = 0; !b && i < CRED_BLOB_MAX_COUNT; i++)
		if (!blobs[i].name)
			b = &blobs[i];
	if (!b)
		return -ENOSPC;
	uint8_t *copy = malloc(len ? len : 1);
	char *nm = b->name ? NULL : strdup(name);
	if (!copy || (!b->name && !nm)) {
		free(copy);
		free(nm);
		return -ENOMEM;
	}
	if (len)
		memcpy(copy, data, len);
	if (b->data) {
		crypto_zero(b->data, b->len);
		free(b->data);
	}
	if (nm)
		b->name = nm;
	b->data = copy;
	b->len = len;
	return 0;
}

int cred_blob_drop(const char *name)
{
	struct blob *b = find(name);
	if (!b)
		return -ENOENT;
	release(b);
	return 0;
}

void cred_blob_drop_prefix(const char *prefix)
{
	size_t n = strlen(prefix);
	for (size_t i = 0; i < CRED_BLOB_MAX_COUNT; i++)
		if (blobs[i].name && strncmp(blobs[i].name, prefix, n) == 0)
			release(&blobs[i]);
}

const uint8_t *cred_blob_get(const char *name, size_t *len)
{
	struct blob *b = find(name);
	if (!b)
		return NULL;
	*len = b->len;
	return b->data;
}

bool cred_blob_ref(const char *path, const char **name)
{
	size_t n = strlen(CRED_BLOB_PREFIX);
	if (!path || strncmp(path, CRED_BLOB_PREFIX, n) != 0)
		return false;
	*name = path + n;
	return true;
}
