/* Networks: the BSSes of the list grouped by SSID and security, ranked.
 *
 * A network is what a person picks ("home", psk); the BSSes are its access
 * points. The list is rebuilt from the BSS list whenever that changes, so a
 * struct station_network (and its BSS pointers) is valid only until the
 * station handles its next event or API call; copy what you keep. The D-Bus
 * layer names a network by SSID and security, never by pointer.
 *
 * Ranking, best first:
 *   1. security, stronger first (enum bss_security order);
 *   2. score of the network's best BSS: signal in mBm plus a bonus for the
 *      5 and 6 GHz bands (NETWORK_BAND_BONUS_MBM): wider channels and less
 *      interference usually beat a few dB of signal;
 *   3. SSID octets, so equal networks keep a stable order.
 * Inside a network BSSes are ordered: ones we can join first, then by score.
 */
#ifndef WPAD_STATION_NETWORK_H
#define WPAD_STATION_NETWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/station/bss.h"

#define NETWORK_MAX_BSS 16
#define NETWORK_BAND_BONUS_MBM 1000 /* 10 dB */

struct station_network {
	uint8_t ssid[BSS_SSID_MAX];
	uint8_t ssid_len;
	enum bss_security security;
	enum bss_support support;  /* BSS_OK if any of its BSSes can be joined */
	int32_t signal_mbm;        /* of the best BSS */
	int32_t score;             /* of the best BSS */
	uint64_t last_seen_us;     /* newest of its BSSes */
	bool known;                /* a known network (filled by the station) */
	size_t n_bss;
	const struct station_bss *bss[NETWORK_MAX_BSS]; /* ranked, best first */
};

struct network_list {
	struct station_network *nets;
	size_t n;
	size_t cap;
};

/* A BSS's ranking score: signal plus the band bonus. */
int32_t network_bss_score(const struct station_bss *b);
/* Orders a before b? (the network ranking above) */
bool network_ranks_before(const struct station_network *a, const struct station_network *b);

void network_list_init(struct network_list *nl);
void network_list_release(struct network_list *nl);
/* Rebuilds nl from the BSS list; BSSes without an SSID (hidden APs not yet
 * probed) belong to no network. Returns 0 or -ENOMEM. */
int network_list_build(struct network_list *nl, struct bss_list *bl);
const struct station_network *network_list_find(const struct network_list *nl,
						 const uint8_t *ssid, size_t ssid_len,
						 enum bss_security security);
/* The network a known network of this security joins: the same security,
 * and for a passphrase (PSK) network also a WPA3-only (SAE) one; an open
 * network's OWE form first when it is in view. One place for connect and
 * autoconnect. */
const struct station_network *network_list_find_known(const struct network_list *nl,
						       const uint8_t *ssid, size_t ssid_len,
						       enum bss_security security);
/* The best-ranked network with this SSID, whatever its security. */
const struct station_network *network_list_find_ssid(const struct network_list *nl,
						      const uint8_t *ssid, size_t ssid_len);

#endif
