/* The access point's group keys: the GTK (key IDs 1 and 2, alternating on
 * each rekey) and, with management frame protection, the IGTK (key IDs 4
 * and 5). One rsn_group per BSS, shared by the authenticators of all its
 * stations; the AP role owns it and installs its keys in the driver.
 *
 * Keys come from the crypto DRBG. The receive sequence counter given to
 * stations is the driver's current transmit PN (ops->get_gtk_seq of the
 * authenticator) when available, else the value stored here (zero for a
 * new key, or what the role last set with rsn_group_set_seq()).
 */
#ifndef WPAD_RSN_GROUP_H
#define WPAD_RSN_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/rsn/rsn_types.h"

struct rsn_group_key {
	uint8_t key_idx; /* GTK 1 or 2, IGTK 4 or 5 */
	uint32_t cipher;
	size_t len;
	uint8_t key[RSN_KEY_MAX_LEN];
	uint8_t seq[RSN_SEQ_LEN]; /* little-endian PN */
};

struct rsn_group;

/* group_cipher: CCMP-128/256 or GCMP-128/256; group_mgmt_cipher: a BIP
 * suite or 0 for none. Generates the first GTK (ID 1) and IGTK (ID 4).
 * Returns NULL on a bad cipher, RNG or allocation failure. */
struct rsn_group *rsn_group_new(uint32_t group_cipher, uint32_t group_mgmt_cipher);
/* Wipes the keys and frees. */
void rsn_group_free(struct rsn_group *g);

/* A new GTK (and IGTK) under the other key ID; the generation grows by
 * one. Afterwards send rsn_auth_group_rekey() to every station. Returns 0
 * or -EIO (RNG failure; the old keys stay). */
int rsn_group_rekey(struct rsn_group *g);

const struct rsn_group_key *rsn_group_gtk(const struct rsn_group *g);
/* NULL without management frame protection. */
const struct rsn_group_key *rsn_group_igtk(const struct rsn_group *g);
/* Starts at 1, +1 per rekey. */
unsigned int rsn_group_generation(const struct rsn_group *g);
/* Records the transmit PN of the current GTK. */
void rsn_group_set_seq(struct rsn_group *g, const uint8_t seq[RSN_SEQ_LEN]);

#endif
