/* Grouping BSSes into networks and ranking them; see network.h. */
#include "daemon/station/network.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int32_t network_bss_score(const struct station_bss *b)
{
	int32_t bonus = b->band == DRIVER_BAND_2GHZ ? 0 : NETWORK_BAND_BONUS_MBM;
	return b->signal_mbm + bonus;
}

static int ssid_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int c = memcmp(a, b, n);
	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

bool network_ranks_before(const struct station_network *a, const struct station_network *b)
{
	if (a->security != b->security)
		return a->security > b->security;
	if (a->score != b->score)
		return a->score > b->score;
	return ssid_cmp(a->ssid, a->ssid_len, b->ssid, b->ssid_len) < 0;
}

static bool bss_ranks_before(const struct station_bss *a, const struct station_bss *b)
{
	bool a_ok = a->support == BSS_OK, b_ok = b->support == BSS_OK;
	if (a_ok != b_ok)
		return a_ok;
	return network_bss_score(a) > network_bss_score(b);
}

void network_list_init(struct network_list *nl)
{
	memset(nl, 0, sizeof(*nl));
}

void network_list_release(struct network_list *nl)
{
	free(nl->nets);
	network_list_init(nl);
}

static struct station_network *find_mut(struct network_list *nl, const uint8_t *ssid,
					size_t ssid_len, enum bss_security security)
{
	for (size_t i = 0; i < nl->n; i++) {
		struct station_network *n = &nl->nets[i];
		if (n->security == security && n->ssid_len == ssid_len &&
		    memcmp(n->ssid, ssid, ssid_len) == 0)
			return n;
	}
	return NULL;
}

/* Inserts b into n's ranked BSS array; a full array keeps the best. */
static void network_add_bss(struct station_network *n, const struct station_bss *b)
{
	size_t pos = n->n_bss;
	while (pos > 0 && bss_ranks_before(b, n->bss[pos - 1]))
		pos--;
	if (pos >= NETWORK_MAX_BSS)
		return;
	size_t last = n->n_bss < NETWORK_MAX_BSS ? n->n_bss : NETWORK_MAX_BSS - 1;
	memmove(&n->bss[pos + 1], &n->bss[pos], (last - pos) * sizeof(n->bss[0]));
	n->bss[pos] = b;
	if (n->n_bss < NETWORK_MAX_BSS)
		n->n_bss++;
	if (b->last_seen_us > n->last_seen_us)
		n->last_seen_us = b->last_seen_us;
	n->support = n->bss[0]->support; /* joinable BSSes sort first */
	n->signal_mbm = n->bss[0]->signal_mbm;
	n->score = network_bss_score(n->bss[0]);
}

static struct station_network *network_new(struct network_list *nl, const struct station_bss *b)
{
	if (nl->n == nl->cap) {
		size_t cap = nl->cap ? nl->cap * 2 : 16;
		struct station_network *nets = realloc(nl->nets, cap * sizeof(*nets));
		if (!nets)
			return NULL;
		nl->nets = nets;
		nl->cap = cap;
	}
	struct station_network *n = &nl->nets[nl->n++];
	memset(n, 0, sizeof(*n));
	memcpy(n->ssid, b->ssid, b->ssid_len);
	n->ssid_len = b->ssid_len;
	n->security = b->security;
	return n;
}

static int net_cmp(const void *pa, const void *pb)
{
	const struct station_network *a = pa, *b = pb;
	if (network_ranks_before(a, b))
		return -1;
	return network_ranks_before(b, a) ? 1 : 0;
}

int network_list_build(struct network_list *nl, struct bss_list *bl)
{
	nl->n = 0;
	for (size_t i = 0; i < bss_list_count(bl); i++) {
		const struct station_bss *b = bss_list_at(bl, i);
		if (b->hidden || b->ssid_len == 0)
			continue;
		struct station_network *n = find_mut(nl, b->ssid, b->ssid_len, b->security);
		if (!n)
			n = network_new(nl, b);
		if (!n)
			return -ENOMEM;
		network_add_bss(n, b);
	}
	if (nl->n > 1)
		qsort(nl->nets, nl->n, sizeof(nl->nets[0]), net_cmp);
	return 0;
}

const struct station_network *network_list_find(const struct network_list *nl,
						 const uint8_t *ssid, size_t ssid_len,
						 enum bss_security security)
{
	return find_mut((struct network_list *)nl, ssid, ssid_len, security);
}

const struct station_network *network_list_find_known(const struct network_list *nl,
						       const uint8_t *ssid, size_t ssid_len,
						       enum bss_security security)
{
	/* An open network's entry fits its OWE form (an upgrade), which is
	 * preferred when both are in view. */
	if (security == BSS_SECURITY_OPEN) {
		const struct station_network *owe =
			network_list_find(nl, ssid, ssid_len, BSS_SECURITY_OWE);
		if (owe)
			return owe;
	}
	const struct station_network *n = network_list_find(nl, ssid, ssid_len, security);
	if (!n && security == BSS_SECURITY_PSK)
		n = network_list_find(nl, ssid, ssid_len, BSS_SECURITY_SAE);
	return n;
}

const struct station_network *network_list_find_ssid(const struct network_list *nl,
						      const uint8_t *ssid, size_t ssid_len)
{
	for (size_t i = 0; i < nl->n; i++) {
		const struct station_network *n = &nl->nets[i];
		if (n->ssid_len == ssid_len && memcmp(n->ssid, ssid, ssid_len) == 0)
			return n; /* the list is ranked: the first match is the best */
	}
	return NULL;
}
