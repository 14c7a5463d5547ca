/* The PT of hash-to-element (IEEE 802.11-2020 12.4.4.2.3) depends only on
 * the group, the SSID, the password and its identifier, and costs two
 * hash-to-curve maps: derive it once and keep it. A handful of entries is
 * plenty (one AP's passwords, a station's recent networks); the oldest is
 * replaced. The key material is kept to compare against and wiped with
 * the entry. */
#include "daemon/rsn/auth_sae.h"

#include "daemon/crypto/sae.h"
#include "daemon/crypto/secure.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PT_CACHE_SIZE 8

struct pt_entry {
	struct sae_pt *pt;
	int group;
	uint8_t ssid[32];
	size_t ssid_len;
	struct sae_password pw;
	unsigned long used;
};

struct sae_pt_cache {
	struct pt_entry e[PT_CACHE_SIZE];
	unsigned long clock;
	unsigned derivations;
};

struct sae_pt_cache *sae_pt_cache_new(void)
{
	return calloc(1, sizeof(struct sae_pt_cache));
}

static void drop(struct pt_entry *e)
{
	sae_pt_free(e->pt);
	crypto_zero(e, sizeof(*e));
}

void sae_pt_cache_free(struct sae_pt_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < PT_CACHE_SIZE; i++)
		drop(&c->e[i]);
	free(c);
}

unsigned sae_pt_cache_derivations(const struct sae_pt_cache *c)
{
	return c ? c->derivations : 0;
}

static bool same_key(const struct pt_entry *e, int group, const uint8_t *ssid, size_t ssid_len,
		     const struct sae_password *pw)
{
	return e->pt && e->group == group && e->ssid_len == ssid_len &&
	       memcmp(e->ssid, ssid, ssid_len) == 0 && e->pw.password_len == pw->password_len &&
	       crypto_memeq(e->pw.password, pw->password, pw->password_len) &&
	       e->pw.has_id == pw->has_id && e->pw.id_len == pw->id_len &&
	       memcmp(e->pw.id, pw->id, pw->id_len) == 0;
}

const struct sae_pt *sae_pt_cache_get(struct sae_pt_cache *c, int group, const uint8_t *ssid,
				      size_t ssid_len, const struct sae_password *pw, int *err)
{
	struct pt_entry *victim = &c->e[0];

	if (ssid_len > sizeof(victim->ssid)) {
		*err = -EINVAL;
		return NULL;
	}
	for (size_t i = 0; i < PT_CACHE_SIZE; i++) {
		struct pt_entry *e = &c->e[i];
		if (same_key(e, group, ssid, ssid_len, pw)) {
			e->used = ++c->clock;
			return e->pt;
		}
		if (!e->pt || (victim->pt && e->used < victim->used))
			victim = e;
	}
	struct sae_pt *pt = sae_pt_derive(group, ssid, ssid_len, pw->password, pw->password_len,
					  pw->has_id ? pw->id : NULL, pw->id_len, err);
	if (!pt)
		return NULL;
	c->derivations++;
	drop(victim);
	victim->pt = pt;
	victim->group = group;
	memcpy(victim->ssid, ssid, ssid_len);
	victim->ssid_len = ssid_len;
	victim->pw = *pw;
	victim->used = ++c->clock;
	return pt;
}
