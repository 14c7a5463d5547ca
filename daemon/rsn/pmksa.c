/* The PMKID and the PMKSA cache; see pmksa.h. A small array searched
 * linearly: a station caches a few APs, an AP a few dozen stations, and
 * the bound keeps a flood of authentications from growing it. */
#define LOG_TAG "pmksa"
#include "daemon/rsn/pmksa.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/hash.h"
#include "daemon/crypto/secure.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PMK_MIN_LEN 16

static int pmkid_hash(uint32_t akm, enum crypto_hash_alg *alg)
{
	switch (akm) {
	case RSN_AKM_8021X:
	case RSN_AKM_PSK:
		*alg = CRYPTO_HASH_SHA1;
		return 0;
	case RSN_AKM_8021X_SHA256:
	case RSN_AKM_PSK_SHA256:
	case RSN_AKM_8021X_SUITE_B:
		*alg = CRYPTO_HASH_SHA256;
		return 0;
	case RSN_AKM_8021X_SUITE_B_192:
	case RSN_AKM_8021X_SHA384:
		*alg = CRYPTO_HASH_SHA384;
		return 0;
	default:
		return -ENOTSUP;
	}
}

bool rsn_akm_uses_pmksa(uint32_t akm)
{
	switch (akm) {
	case RSN_AKM_8021X:
	case RSN_AKM_8021X_SHA256:
	case RSN_AKM_8021X_SUITE_B:
	case RSN_AKM_8021X_SUITE_B_192:
	case RSN_AKM_8021X_SHA384:
	case RSN_AKM_SAE:
	case RSN_AKM_SAE_EXT_KEY:
	case RSN_AKM_OWE:
		return true;
	default:
		return false;
	}
}

int rsn_pmkid(uint32_t akm, const uint8_t *pmk, size_t pmk_len, const uint8_t aa[RSN_ADDR_LEN],
	      const uint8_t spa[RSN_ADDR_LEN], uint8_t pmkid[RSN_PMKID_LEN])
{
	static const char label[] = "PMK Name";
	enum crypto_hash_alg alg;
	uint8_t mac[CRYPTO_HASH_MAX_LEN];

	if (!pmk || pmk_len < PMK_MIN_LEN || pmk_len > RSN_PMK_MAX_LEN || !aa || !spa)
		return -EINVAL;
	int ret = pmkid_hash(akm, &alg);
	if (ret)
		return ret;
	const struct crypto_iov parts[] = {
		{ label, sizeof(label) - 1 },
		{ aa, RSN_ADDR_LEN },
		{ spa, RSN_ADDR_LEN },
	};
	ret = crypto_hmac_vec(alg, pmk, pmk_len, parts, 3, mac);
	if (ret == 0)
		memcpy(pmkid, mac, RSN_PMKID_LEN);
	crypto_zero(mac, sizeof(mac));
	return ret ? -EIO : 0;
}

struct pmksa_cache {
	struct pmksa *entries;
	bool *used;
	size_t max;
	struct loop *loop;
	struct pmksa_cache_stats stats;
};

struct pmksa_cache *pmksa_cache_new(struct loop *loop, size_t max_entries)
{
	if (!loop)
		return NULL;
	struct pmksa_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->max = max_entries ? max_entries : PMKSA_DEFAULT_MAX;
	c->entries = calloc(c->max, sizeof(*c->entries));
	c->used = calloc(c->max, sizeof(*c->used));
	c->loop = loop;
	if (!c->entries || !c->used) {
		free(c->entries);
		free(c->used);
		free(c);
		return NULL;
	}
	return c;
}

static void drop_slot(struct pmksa_cache *c, size_t i)
{
	crypto_zero(&c->entries[i], sizeof(c->entries[i]));
	c->used[i] = false;
}

void pmksa_cache_flush(struct pmksa_cache *c)
{
	for (size_t i = 0; i < c->max; i++)
		if (c->used[i]) {
			drop_slot(c, i);
			c->stats.flushed++;
		}
}

void pmksa_cache_free(struct pmksa_cache *c)
{
	if (!c)
		return;
	pmksa_cache_flush(c);
	free(c->entries);
	free(c->used);
	free(c);
}

/* Drops every expired entry; returns the clock it used. */
static uint64_t expire(struct pmksa_cache *c)
{
	uint64_t now = loop_now_us(c->loop);
	for (size_t i = 0; i < c->max; i++)
		if (c->used[i] && now >= c->entries[i].expires_us) {
			drop_slot(c, i);
			c->stats.expired++;
		}
	return now;
}

static bool same_key(const struct pmksa *e, const struct pmksa_add *a)
{
	return e->akm == a->akm && !memcmp(e->own_addr, a->own_addr, RSN_ADDR_LEN) &&
	       !memcmp(e->peer_addr, a->peer_addr, RSN_ADDR_LEN) &&
	       e->network_len == a->network_len &&
	       !memcmp(e->network, a->network, a->network_len);
}

/* The slot for a new entry: the one with the same key, a free one, or the
 * oldest, evicted. */
static size_t pick_slot(struct pmksa_cache *c, const struct pmksa_add *a)
{
	size_t free_slot = c->max, oldest = 0;
	for (size_t i = 0; i < c->max; i++) {
		if (!c->used[i]) {
			if (free_slot == c->max)
				free_slot = i;
			continue;
		}
		if (same_key(&c->entries[i], a))
			return i;
		if (c->entries[i].added_us < c->entries[oldest].added_us || !c->used[oldest])
			oldest = i;
	}
	if (free_slot < c->max)
		return free_slot;
	c->stats.evicted++;
	log_debug("cache full (%zu): evicting the oldest entry", c->max);
	return oldest;
}

static bool add_valid(const struct pmksa_add *a)
{
	return a->own_addr && a->peer_addr && a->pmk && a->pmk_len >= PMK_MIN_LEN &&
	       a->pmk_len <= RSN_PMK_MAX_LEN && a->network_len <= PMKSA_NETWORK_MAX &&
	       (a->network || !a->network_len) && a->reauth_pct <= 100;
}

const struct pmksa *pmksa_cache_add(struct pmksa_cache *c, const struct pmksa_add *a)
{
	uint8_t pmkid[RSN_PMKID_LEN];

	if (!add_valid(a))
		return NULL;
	if (a->pmkid)
		memcpy(pmkid, a->pmkid, RSN_PMKID_LEN);
	else if (rsn_pmkid(a->akm, a->pmk, a->pmk_len, a->own_is_aa ? a->own_addr : a->peer_addr,
			   a->own_is_aa ? a->peer_addr : a->own_addr, pmkid))
		return NULL;
	uint64_t now = expire(c);
	size_t i = pick_slot(c, a);
	drop_slot(c, i);
	struct pmksa *e = &c->entries[i];
	memcpy(e->own_addr, a->own_addr, RSN_ADDR_LEN);
	memcpy(e->peer_addr, a->peer_addr, RSN_ADDR_LEN);
	e->akm = a->akm;
	if (a->network_len)
		memcpy(e->network, a->network, a->network_len);
	e->network_len = a->network_len;
	memcpy(e->pmk, a->pmk, a->pmk_len);
	e->pmk_len = a->pmk_len;
	memcpy(e->pmkid, pmkid, RSN_PMKID_LEN);
	uint64_t life_us = (uint64_t)(a->lifetime_s ? a->lifetime_s : PMKSA_DEFAULT_LIFETIME_S) *
			   1000000u;
	unsigned pct = a->reauth_pct ? a->reauth_pct : PMKSA_DEFAULT_REAUTH_PCT;
	e->added_us = now;
	e->expires_us = now + life_us;
	e->reauth_us = now + life_us / 100 * pct;
	c->used[i] = true;
	c->stats.added++;
	return e;
}

static const struct pmksa *found(struct pmksa_cache *c, const struct pmksa *e)
{
	if (e)
		c->stats.hits++;
	else
		c->stats.misses++;
	return e;
}

const struct pmksa *pmksa_cache_get(struct pmksa_cache *c, const uint8_t own[RSN_ADDR_LEN],
				    const uint8_t peer[RSN_ADDR_LEN], uint32_t akm)
{
	const struct pmksa *best = NULL;
	expire(c);
	for (size_t i = 0; i < c->max; i++) {
		const struct pmksa *e = &c->entries[i];
		if (!c->used[i] || memcmp(e->own_addr, own, RSN_ADDR_LEN) ||
		    memcmp(e->peer_addr, peer, RSN_ADDR_LEN) || (akm && e->akm != akm))
			continue;
		if (!best || e->added_us >= best->added_us)
			best = e;
	}
	return found(c, best);
}

const struct pmksa *pmksa_cache_get_by_pmkid(struct pmksa_cache *c, const uint8_t *peer,
					     const uint8_t pmkid[RSN_PMKID_LEN])
{
	expire(c);
	for (size_t i = 0; i < c->max; i++) {
		const struct pmksa *e = &c->entries[i];
		if (c->used[i] && (!peer || !memcmp(e->peer_addr, peer, RSN_ADDR_LEN)) &&
		    crypto_memeq(e->pmkid, pmkid, RSN_PMKID_LEN))
			return found(c, e);
	}
	return found(c, NULL);
}

bool pmksa_needs_reauth(const struct pmksa_cache *c, const struct pmksa *e)
{
	return loop_now_us(c->loop) >= e->reauth_us;
}

void pmksa_cache_remove(struct pmksa_cache *c, const struct pmksa *e)
{
	if (e < c->entries || e >= c->entries + c->max)
		return;
	size_t i = (size_t)(e - c->entries);
	if (c->used[i]) {
		drop_slot(c, i);
		c->stats.flushed++;
	}
}

size_t pmksa_cache_flush_matching(struct pmksa_cache *c, const uint8_t *network,
				  size_t network_len, const uint8_t *peer)
{
	size_t n = 0;
	for (size_t i = 0; i < c->max; i++) {
		const struct pmksa *e = &c->entries[i];
		if (!c->used[i] ||
		    (network && (e->network_len != network_len ||
				 memcmp(e->network, network, network_len))) ||
		    (peer && memcmp(e->peer_addr, peer, RSN_ADDR_LEN)))
			continue;
		drop_slot(c, i);
		n++;
	}
	c->stats.flushed += (unsigned)n;
	return n;
}

size_t pmksa_cache_flush_network(struct pmksa_cache *c, const uint8_t *network,
				 size_t network_len)
{
	/* An empty network is a network too (entries added without one). */
	static const uint8_t none;
	return pmksa_cache_flush_matching(c, network ? network : &none, network_len, NULL);
}

size_t pmksa_cache_flush_peer(struct pmksa_cache *c, const uint8_t peer[RSN_ADDR_LEN])
{
	return pmksa_cache_flush_matching(c, NULL, 0, peer);
}

size_t pmksa_cache_count(struct pmksa_cache *c)
{
	size_t n = 0;
	expire(c);
	for (size_t i = 0; i < c->max; i++)
		n += c->used[i];
	return n;
}

const struct pmksa_cache_stats *pmksa_cache_stats(const struct pmksa_cache *c)
{
	return &c->stats;
}
