/* PMK security associations: the PMKID of a PMK, and a bounded cache of
 * PMKSAs that both roles use (IEEE 802.11-2020 12.6.10.2, 12.7.1.3).
 *
 * An entry is keyed by (own address, peer address, AKM, network); the
 * network is the SSID, so a change of credential can flush every entry of
 * one network at once. Each entry holds the PMK, its PMKID, when it expires
 * and when it should be refreshed (the reauthentication threshold).
 *
 * Time is the loop's clock (monotonic in the daemon, virtual in the unit
 * tests); expired entries are dropped when a lookup meets them, so no
 * timer runs. The cache is bounded: adding to a
 * full cache evicts the oldest entry. Every PMK leaving the cache (expiry,
 * eviction, replacement, flush, free) is wiped.
 *
 * PMKSA caching is not used for PSK: its PMK is the credential itself.
 * SAE, OWE and 802.1X fill the cache; see docs/architecture.md.
 *
 * Ownership: pmksa_cache_new() returns a cache the caller frees with
 * pmksa_cache_free(). Entries returned by lookups are borrowed: valid until
 * the next call that changes the cache.
 */
#ifndef WPAD_RSN_PMKSA_H
#define WPAD_RSN_PMKSA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/rsn/rsn_types.h"

#define PMKSA_NETWORK_MAX 32	     /* an SSID */
#define PMKSA_DEFAULT_LIFETIME_S 43200 /* dot11RSNAConfigPMKLifetime */
#define PMKSA_DEFAULT_REAUTH_PCT 70    /* dot11RSNAConfigPMKReauthThreshold */
#define PMKSA_DEFAULT_MAX 32

/* PMKID = Truncate-128(HMAC-H(PMK, "PMK Name" || AA || SPA)), IEEE
 * 802.11-2020 12.7.1.3: H is SHA-1 for the AKMs 00-0F-AC:1 and :2,
 * SHA-256 for :5, :6 and :11, SHA-384 for :12 and :23. aa is the
 * authenticator's address, spa the supplicant's. SAE (12.4.5.4) and OWE
 * (12.14.2) derive their PMKID from their own exchange, FT names its keys
 * otherwise: -ENOTSUP for those and any AKM not listed; they hand the
 * PMKID to pmksa_cache_add().
 * Returns 0, -ENOTSUP, -EINVAL or -EIO. */
int rsn_pmkid(uint32_t akm, const uint8_t *pmk, size_t pmk_len, const uint8_t aa[RSN_ADDR_LEN],
	      const uint8_t spa[RSN_ADDR_LEN], uint8_t pmkid[RSN_PMKID_LEN]);

/* Whether PMKSA caching applies to the AKM: 802.1X (all hashes and Suite
 * B), SAE and OWE. Not PSK, whose PMK is the credential itself, nor FT,
 * which names its keys its own way (12.7.1.6). A station offers PMKIDs in
 * its RSNE, and an AP looks them up, only for these. */
bool rsn_akm_uses_pmksa(uint32_t akm);

struct pmksa {
	uint8_t own_addr[RSN_ADDR_LEN];
	uint8_t peer_addr[RSN_ADDR_LEN];
	uint32_t akm;
	uint8_t network[PMKSA_NETWORK_MAX];
	size_t network_len;
	uint8_t pmk[RSN_PMK_MAX_LEN];
	size_t pmk_len;
	uint8_t pmkid[RSN_PMKID_LEN];
	uint64_t added_us;   /* cache clock */
	uint64_t reauth_us;  /* refresh from here on */
	uint64_t expires_us; /* unusable from here on */
};

struct loop;
struct pmksa_cache;

/* loop: whose clock times the entries (it must outlive the cache).
 * max_entries 0: PMKSA_DEFAULT_MAX. */
struct pmksa_cache *pmksa_cache_new(struct loop *loop, size_t max_entries);
/* Wipes every entry. NULL is allowed. */
void pmksa_cache_free(struct pmksa_cache *c);

/* What pmksa_cache_add() takes: the key, the PMK (copied), the PMKID (NULL:
 * computed with rsn_pmkid(); own_is_aa tells which address is the AA), the
 * lifetime in seconds (0: PMKSA_DEFAULT_LIFETIME_S) and the reauthentication
 * threshold in percent of it (0: PMKSA_DEFAULT_REAUTH_PCT). */
struct pmksa_add {
	const uint8_t *own_addr;
	const uint8_t *peer_addr;
	bool own_is_aa;
	uint32_t akm;
	const uint8_t *network;
	size_t network_len;
	const uint8_t *pmk;
	size_t pmk_len;
	const uint8_t *pmkid;
	uint32_t lifetime_s;
	unsigned reauth_pct;
};

/* Adds or replaces the entry with the same key; a full cache evicts its
 * oldest entry first. Returns the entry, or NULL on bad arguments (errno
 * is not set; the cache is unchanged). */
const struct pmksa *pmksa_cache_add(struct pmksa_cache *c, const struct pmksa_add *a);

/* The live entry for this peer and AKM (akm 0: any AKM, the newest). */
const struct pmksa *pmksa_cache_get(struct pmksa_cache *c, const uint8_t own[RSN_ADDR_LEN],
				    const uint8_t peer[RSN_ADDR_LEN], uint32_t akm);
/* The live entry of this peer with this PMKID (peer NULL: any peer). */
const struct pmksa *pmksa_cache_get_by_pmkid(struct pmksa_cache *c,
					     const uint8_t *peer,
					     const uint8_t pmkid[RSN_PMKID_LEN]);
/* Whether e is past its reauthentication threshold. */
bool pmksa_needs_reauth(const struct pmksa_cache *c, const struct pmksa *e);

/* Removes one entry (an entry pointer from a lookup). */
void pmksa_cache_remove(struct pmksa_cache *c, const struct pmksa *e);
/* Removes every entry of one network, e.g. when its credential changes.
 * Returns how many went. */
size_t pmksa_cache_flush_network(struct pmksa_cache *c, const uint8_t *network,
				 size_t network_len);
/* Removes every entry with this peer. Returns how many went. */
size_t pmksa_cache_flush_peer(struct pmksa_cache *c, const uint8_t peer[RSN_ADDR_LEN]);
/* Removes every entry of this network (NULL: any network) with this peer
 * (NULL: any peer); both NULL: everything. Returns how many went. */
size_t pmksa_cache_flush_matching(struct pmksa_cache *c, const uint8_t *network,
				  size_t network_len, const uint8_t *peer);
/* Removes everything. */
void pmksa_cache_flush(struct pmksa_cache *c);

/* Live entries (expired ones not yet met by a lookup are dropped first). */
size_t pmksa_cache_count(struct pmksa_cache *c);

struct pmksa_cache_stats {
	unsigned added, hits, misses, expired, evicted, flushed;
};
const struct pmksa_cache_stats *pmksa_cache_stats(const struct pmksa_cache *c);

#endif
