/* Station table: SipHash-2-4 over the whole MAC address, chained buckets
 * that double past 3/4 load, plus an insertion-ordered list for walking. */
#include "daemon/ap/ap_sta_table.h"

#include "daemon/ap/ap_internal.h"
#include "daemon/crypto/secure.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_MIN_BUCKETS 16

static inline uint64_t rotl64(uint64_t x, unsigned b)
{
	return x << b | x >> (64 - b);
}

struct sip_state {
	uint64_t v0, v1, v2, v3;
};

static void sip_round(struct sip_state *s)
{
	s->v0 += s->v1;
	s->v1 = rotl64(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = rotl64(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = rotl64(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = rotl64(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = rotl64(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = rotl64(s->v2, 32);
}

/* SipHash-2-4 of a message shorter than eight octets (a MAC address is
 * six): the only block is the final one, carrying the length on top. */
uint64_t sta_table_hash(const struct sta_table *t, const uint8_t addr[6])
{
	struct sip_state s = {
		.v0 = t->k0 ^ 0x736f6d6570736575ull,
		.v1 = t->k1 ^ 0x646f72616e646f6dull,
		.v2 = t->k0 ^ 0x6c7967656e657261ull,
		.v3 = t->k1 ^ 0x7465646279746573ull,
	};
	uint64_t m = (uint64_t)6 << 56;
	for (unsigned i = 0; i < 6; i++)
		m |= (uint64_t)addr[i] << (8 * i);
	s.v3 ^= m;
	sip_round(&s);
	sip_round(&s);
	s.v0 ^= m;
	s.v2 ^= 0xff;
	for (unsigned i = 0; i < 4; i++)
		sip_round(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

static uint64_t load_le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

int sta_table_init(struct sta_table *t, const uint8_t *key)
{
	uint8_t k[16];
	memset(t, 0, sizeof(*t));
	if (key) {
		memcpy(k, key, sizeof(k));
	} else {
		int r = crypto_random(k, sizeof(k));
		if (r < 0)
			return r;
	}
	t->k0 = load_le64(k);
	t->k1 = load_le64(k + 8);
	crypto_zero(k, sizeof(k));
	t->buckets = calloc(TABLE_MIN_BUCKETS, sizeof(*t->buckets));
	if (!t->buckets)
		return -ENOMEM;
	t->n_buckets = TABLE_MIN_BUCKETS;
	return 0;
}

void sta_table_release(struct sta_table *t)
{
	struct ap_sta *s = t->head;
	while (s) {
		struct ap_sta *next = s->lnext;
		s->hnext = s->lnext = s->lprev = NULL;
		s = next;
	}
	free(t->buckets);
	memset(t, 0, sizeof(*t));
}

static size_t bucket_of(const struct sta_table *t, const uint8_t addr[6])
{
	return (size_t)(sta_table_hash(t, addr) & (t->n_buckets - 1));
}

struct ap_sta *sta_table_find(const struct sta_table *t, const uint8_t addr[6])
{
	if (!t->buckets)
		return NULL;
	for (struct ap_sta *s = t->buckets[bucket_of(t, addr)]; s; s = s->hnext)
		if (memcmp(s->addr, addr, 6) == 0)
			return s;
	return NULL;
}

/* Rehashes every entry into twice as many buckets. */
static int grow(struct sta_table *t)
{
	size_t n = t->n_buckets * 2;
	struct ap_sta **b = calloc(n, sizeof(*b));
	if (!b)
		return -ENOMEM;
	free(t->buckets);
	t->buckets = b;
	t->n_buckets = n;
	for (struct ap_sta *s = t->head; s; s = s->lnext) {
		size_t i = bucket_of(t, s->addr);
		s->hnext = b[i];
		b[i] = s;
	}
	return 0;
}

int sta_table_insert(struct sta_table *t, struct ap_sta *sta)
{
	if (!t->buckets)
		return -EINVAL;
	if (sta_table_find(t, sta->addr))
		return -EEXIST;
	if ((t->count + 1) * 4 > t->n_buckets * 3) {
		int r = grow(t);
		if (r < 0)
			return r;
	}
	size_t i = bucket_of(t, sta->addr);
	sta->hnext = t->buckets[i];
	t->buckets[i] = sta;
	sta->lnext = NULL;
	sta->lprev = t->tail;
	if (t->tail)
		t->tail->lnext = sta;
	else
		t->head = sta;
	t->tail = sta;
	t->count++;
	return 0;
}

void sta_table_remove(struct sta_table *t, struct ap_sta *sta)
{
	if (!t->buckets)
		return;
	struct ap_sta **pp = &t->buckets[bucket_of(t, sta->addr)];
	while (*pp && *pp != sta)
		pp = &(*pp)->hnext;
	if (!*pp)
		return; /* not linked here */
	*pp = sta->hnext;
	if (sta->lprev)
		sta->lprev->lnext = sta->lnext;
	else
		t->head = sta->lnext;
	if (sta->lnext)
		sta->lnext->lprev = sta->lprev;
	else
		t->tail = sta->lprev;
	sta->hnext = sta->lnext = sta->lprev = NULL;
	t->count--;
}

struct ap_sta *sta_table_first(const struct sta_table *t)
{
	return t->head;
}

struct ap_sta *sta_table_next(const struct ap_sta *sta)
{
	return sta->lnext;
}

void sta_table_get_stats(const struct sta_table *t, struct sta_table_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->n_buckets = t->n_buckets;
	st->count = t->count;
	for (size_t i = 0; i < t->n_buckets; i++) {
		size_t chain = 0;
		for (const struct ap_sta *s = t->buckets[i]; s; s = s->hnext)
			chain++;
		if (chain)
			st->used_buckets++;
		if (chain > st->max_chain)
			st->max_chain = chain;
	}
}
