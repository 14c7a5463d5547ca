/* Group key state of an access point: GTK and IGTK generation and rekey. */
#define LOG_TAG "rsn-group"

#include "daemon/rsn/group.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/rsn_key.h"

#define GTK_FIRST_ID 1
#define IGTK_FIRST_ID 4

struct rsn_group {
	struct rsn_group_key gtk;
	struct rsn_group_key igtk;
	bool has_igtk;
	unsigned int generation;
};

static bool group_cipher_ok(uint32_t c)
{
	/* TKIP is accepted from legacy APs, never offered by ours. */
	return c == RSN_CIPHER_CCMP_128 || c == RSN_CIPHER_GCMP_128 || c == RSN_CIPHER_CCMP_256 ||
	       c == RSN_CIPHER_GCMP_256;
}

static bool bip_cipher_ok(uint32_t c)
{
	return c == RSN_CIPHER_BIP_CMAC_128 || c == RSN_CIPHER_BIP_GMAC_128 ||
	       c == RSN_CIPHER_BIP_GMAC_256 || c == RSN_CIPHER_BIP_CMAC_256;
}

/* Fresh key bytes for key ID idx into k; k is untouched on failure. */
static int fresh_key(struct rsn_group_key *k, uint8_t idx, uint32_t cipher)
{
	struct rsn_group_key n = { .key_idx = idx, .cipher = cipher };

	n.len = rsn_cipher_key_len(cipher);
	if (!n.len || crypto_random(n.key, n.len)) {
		crypto_zero(&n, sizeof(n));
		return -EIO;
	}
	crypto_zero(k, sizeof(*k));
	*k = n;
	crypto_zero(&n, sizeof(n));
	return 0;
}

struct rsn_group *rsn_group_new(uint32_t group_cipher, uint32_t group_mgmt_cipher)
{
	struct rsn_group *g;

	if (!group_cipher_ok(group_cipher))
		return NULL;
	if (group_mgmt_cipher && !bip_cipher_ok(group_mgmt_cipher))
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	if (fresh_key(&g->gtk, GTK_FIRST_ID, group_cipher) ||
	    (group_mgmt_cipher && fresh_key(&g->igtk, IGTK_FIRST_ID, group_mgmt_cipher))) {
		rsn_group_free(g);
		return NULL;
	}
	g->has_igtk = group_mgmt_cipher != 0;
	g->generation = 1;
	log_secret_hex("GTK", g->gtk.key, g->gtk.len);
	return g;
}

void rsn_group_free(struct rsn_group *g)
{
	if (!g)
		return;
	crypto_zero(g, sizeof(*g));
	free(g);
}

/* 1 <-> 2 and 4 <-> 5: the old key stays usable for receivers while the
 * stations learn the new one. */
static uint8_t other_idx(uint8_t idx, uint8_t first)
{
	return idx == first ? (uint8_t)(first + 1) : first;
}

int rsn_group_rekey(struct rsn_group *g)
{
	struct rsn_group_key gtk = { 0 }, igtk = { 0 };
	int ret = fresh_key(&gtk, other_idx(g->gtk.key_idx, GTK_FIRST_ID), g->gtk.cipher);

	if (!ret && g->has_igtk)
		ret = fresh_key(&igtk, other_idx(g->igtk.key_idx, IGTK_FIRST_ID), g->igtk.cipher);
	if (!ret) {
		crypto_zero(&g->gtk, sizeof(g->gtk));
		g->gtk = gtk;
		if (g->has_igtk) {
			crypto_zero(&g->igtk, sizeof(g->igtk));
			g->igtk = igtk;
		}
		g->generation++;
		log_info("group key rekeyed: GTK %u, generation %u", g->gtk.key_idx, g->generation);
	}
	crypto_zero(&gtk, sizeof(gtk));
	crypto_zero(&igtk, sizeof(igtk));
	return ret;
}

const struct rsn_group_key *rsn_group_gtk(const struct rsn_group *g)
{
	return &g->gtk;
}

const struct rsn_group_key *rsn_group_igtk(const struct rsn_group *g)
{
	return g->has_igtk ? &g->igtk : NULL;
}

unsigned int rsn_group_generation(const struct rsn_group *g)
{
	return g->generation;
}

void rsn_group_set_seq(struct rsn_group *g, const uint8_t seq[RSN_SEQ_LEN])
{
	memcpy(g->gtk.seq, seq, RSN_SEQ_LEN);
}
