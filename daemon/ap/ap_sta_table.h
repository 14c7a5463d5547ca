/* The access point's station table: stations keyed by their whole MAC
 * address.
 *
 * Lookup hashes all six octets with SipHash-2-4 under a per-table random
 * key, so neither sequential addresses (hwsim's 02:00:00:00:NN:00 style,
 * which all share the last octet) nor addresses an attacker picks can pile
 * stations into one bucket. hostapd hashes only the last octet; this table
 * does not have that weakness. The bucket array doubles when the load
 * passes 3/4, so chains stay short at any size.
 *
 * Iteration goes over a separate insertion-ordered list, and is safe
 * against removal of the current entry when the caller saves the next
 * pointer first (sta_table_next() before acting).
 *
 * The table does not own its entries: callers allocate and free them; the
 * table only links them (struct ap_sta's hnext/lnext/lprev fields).
 */
#ifndef WPAD_AP_STA_TABLE_H
#define WPAD_AP_STA_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ap_sta;

struct sta_table {
	struct ap_sta **buckets;
	size_t n_buckets; /* a power of two */
	size_t count;
	struct ap_sta *head, *tail; /* insertion order */
	uint64_t k0, k1;            /* SipHash key */
};

struct sta_table_stats {
	size_t n_buckets;
	size_t count;
	size_t used_buckets; /* buckets with at least one entry */
	size_t max_chain;    /* longest chain */
};

/* key: 16 random octets, or NULL to draw them from the crypto DRBG.
 * Returns 0 or -ENOMEM / -EIO. */
int sta_table_init(struct sta_table *t, const uint8_t *key);
/* Unlinks everything (entries are not freed) and releases the buckets. */
void sta_table_release(struct sta_table *t);

struct ap_sta *sta_table_find(const struct sta_table *t, const uint8_t addr[6]);
/* Links sta (whose addr is set). -EEXIST if the address is present,
 * -ENOMEM if the table needed to grow and could not (sta is then not
 * linked). */
int sta_table_insert(struct sta_table *t, struct ap_sta *sta);
void sta_table_remove(struct sta_table *t, struct ap_sta *sta);

static inline size_t sta_table_count(const struct sta_table *t)
{
	return t->count;
}

struct ap_sta *sta_table_first(const struct sta_table *t);
struct ap_sta *sta_table_next(const struct ap_sta *sta);

void sta_table_get_stats(const struct sta_table *t, struct sta_table_stats *st);

/* The bucket hash, exposed for tests. */
uint64_t sta_table_hash(const struct sta_table *t, const uint8_t addr[6]);

#endif
