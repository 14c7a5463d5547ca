/* The known-networks store: memory side (lookup, ordering, updates). */
#define LOG_TAG "store"
#include "daemon/store/known_store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/core/log.h"
#include "daemon/crypto/kdf.h"
#include "daemon/crypto/secure.h"
#include "daemon/store/known_store_internal.h"

void known_store_set_psk_fn(struct known_store *store, known_psk_fn fn)
{
	store->psk_fn = fn ? fn : crypto_psk_from_passphrase;
}

const char *known_store_dir(const struct known_store *store)
{
	return store->dir;
}

size_t known_store_count(const struct known_store *store)
{
	return store->n;
}

ssize_t store_index(const struct known_store *store, const uint8_t *ssid, size_t len,
		    enum known_security sec)
{
	for (size_t i = 0; i < store->n; i++) {
		const struct known_network *net = store->nets[i];
		if (net->security == sec && net->ssid_len == len &&
		    memcmp(net->ssid, ssid, len) == 0)
			return (ssize_t)i;
	}
	return -1;
}

struct known_network *known_store_get(struct known_store *store, const uint8_t *ssid,
				      size_t ssid_len, enum known_security sec)
{
	ssize_t i = store_index(store, ssid, ssid_len, sec);
	return i < 0 ? NULL : store->nets[i];
}

int store_reserve(struct known_store *store)
{
	if (store->n < store->cap)
		return 0;
	size_t cap = store->cap ? store->cap * 2 : 8;
	struct known_network **p = realloc(store->nets, cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	store->nets = p;
	store->cap = cap;
	return 0;
}

void store_release(struct known_network *net)
{
	if (!net)
		return;
	known_network_clear(net);
	free(net);
}

int known_store_save(struct known_store *store, const struct known_network *net,
		     struct known_network **saved)
{
	struct known_network *copy = malloc(sizeof(*copy));
	ssize_t i = store_index(store, net->ssid, net->ssid_len, net->security);
	int ret;

	if (!copy)
		return -ENOMEM;
	if (known_network_copy(copy, net) < 0) {
		free(copy);
		return -ENOMEM;
	}
	/* Room first: once the file is written, memory must follow. */
	ret = i < 0 ? store_reserve(store) : 0;
	if (ret == 0)
		ret = store_write(store, copy);
	if (ret < 0) {
		store_release(copy);
		return ret;
	}
	if (i >= 0) {
		store_release(store->nets[i]);
		store->nets[i] = copy;
	} else {
		store->nets[store->n++] = copy;
	}
	if (saved)
		*saved = copy;
	return 0;
}

int known_store_forget(struct known_store *store, const uint8_t *ssid, size_t ssid_len,
		       enum known_security sec)
{
	ssize_t i = store_index(store, ssid, ssid_len, sec);
	int ret;

	if (i < 0)
		return -ENOENT;
	ret = store_remove_file(store, store->nets[i]);
	if (ret < 0 && ret != -ENOENT)
		return ret;
	store_release(store->nets[i]);
	memmove(&store->nets[i], &store->nets[i + 1], (store->n - (size_t)i - 1) * sizeof(void *));
	store->n--;
	return 0;
}

/* Whether a connection must reach the file now. LastConnected only orders
 * the networks (known_store_list), so a crash may cost its exact value but
 * not the order: a network is written when another one's file has a time
 * as new as its own. Then the order of the files' times stays the order of
 * the times in memory (reconnecting to the network connected last changes
 * no order; the first connect to another one does, and is written). */
static bool order_needs_write(const struct known_store *store, const struct known_network *net)
{
	if (net->saved_last_connected == 0)
		return true;
	for (size_t i = 0; i < store->n; i++)
		if (store->nets[i] != net &&
		    store->nets[i]->saved_last_connected >= net->saved_last_connected)
			return true;
	return false;
}

int known_store_touch_connected(struct known_store *store, struct known_network *net, uint32_t freq,
				uint64_t now)
{
	bool new_freq = known_network_touch(net, freq, now ? now : (uint64_t)time(NULL));

	net->state_unsaved = true;
	if (new_freq || order_needs_write(store, net))
		return store_write(store, net);
	return 0; /* written with the next change or by known_store_flush() */
}

int known_store_flush(struct known_store *store)
{
	int ret = 0;

	for (size_t i = 0; i < store->n; i++) {
		int e = store->nets[i]->state_unsaved ? store_write(store, store->nets[i]) : 0;
		if (e < 0 && ret == 0)
			ret = e;
	}
	return ret;
}

int known_store_set_autoconnect(struct known_store *store, struct known_network *net,
				bool autoconnect)
{
	net->autoconnect = autoconnect;
	return store_write(store, net);
}

int known_store_set_policy(struct known_store *store, struct known_network *net, const char *key,
			   const char *value)
{
	char *dst = strcmp(key, "ManagementFrameProtection") == 0 ? net->pmf
		    : strcmp(key, "AKMs") == 0			  ? net->akms
		    : strcmp(key, "Ciphers") == 0		  ? net->ciphers
								  : NULL;
	size_t cap = dst == net->pmf ? sizeof(net->pmf) : sizeof(net->akms);
	if (!dst || strlen(value) >= cap)
		return -EINVAL;
	memcpy(dst, value, strlen(value) + 1);
	return store_write(store, net);
}

int known_store_get_psk(struct known_store *store, struct known_network *net, uint8_t psk[32])
{
	int ret;

	if (net->security != KNOWN_SEC_PSK || (!net->psk_valid && !net->has_passphrase))
		return -EINVAL;
	if (!net->psk_valid) {
		ret = store->psk_fn(net->passphrase, net->ssid, net->ssid_len, net->psk);
		if (ret < 0) {
			crypto_zero(net->psk, sizeof(net->psk));
			return ret;
		}
		net->psk_valid = true;
		/* A failed write costs only a recomputation next time. */
		if ((ret = store_write(store, net)) < 0)
			log_warn("cannot cache the PSK of a network: %s", strerror(-ret));
	}
	memcpy(psk, net->psk, sizeof(net->psk));
	return 0;
}

static int compare_pref(const void *pa, const void *pb)
{
	const struct known_network *a = *(struct known_network *const *)pa;
	const struct known_network *b = *(struct known_network *const *)pb;
	size_t n = a->ssid_len < b->ssid_len ? a->ssid_len : b->ssid_len;
	int c;

	if (a->autoconnect != b->autoconnect)
		return a->autoconnect ? -1 : 1;
	if (a->last_connected != b->last_connected)
		return a->last_connected > b->last_connected ? -1 : 1;
	if ((c = memcmp(a->ssid, b->ssid, n)) != 0)
		return c;
	if (a->ssid_len != b->ssid_len)
		return a->ssid_len < b->ssid_len ? -1 : 1;
	return (int)a->security - (int)b->security;
}

int known_store_list(struct known_store *store, struct known_network ***out, size_t *n)
{
	struct known_network **list = calloc(store->n + 1, sizeof(*list));

	if (!list)
		return -ENOMEM;
	if (store->n)
		memcpy(list, store->nets, store->n * sizeof(*list));
	qsort(list, store->n, sizeof(*list), compare_pref);
	*out = list;
	*n = store->n;
	return 0;
}
