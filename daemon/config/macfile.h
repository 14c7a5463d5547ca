/* MAC address sets and the allow/deny list files that fill them.
 *
 * File format: one MAC address (aa:bb:cc:dd:ee:ff, either case) per line;
 * blank lines and lines starting with '#' are ignored. Group (multicast)
 * addresses are refused, they can never be a station. Duplicates are
 * harmless.
 *
 * The set is a sorted array searched by binary search over all six octets,
 * so no crafted list can pile its entries onto one hash bucket.
 *
 * Ownership: mac_set_new() and macfile_*() return a set the caller owns
 * and frees with mac_set_free().
 */
#ifndef WPAD_CONFIG_MACFILE_H
#define WPAD_CONFIG_MACFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/config/cfg_error.h"

#define MAC_SET_MAX 65536

struct mac_set;

struct mac_set *mac_set_new(void);
void mac_set_free(struct mac_set *set);
/* Adds mac (a no-op if present). Returns 0, CFG_E_TOO_MANY or CFG_E_NOMEM. */
int mac_set_add(struct mac_set *set, const uint8_t mac[6]);
bool mac_set_contains(const struct mac_set *set, const uint8_t mac[6]);
size_t mac_set_count(const struct mac_set *set);
/* Removes mac; true when it was there. */
bool mac_set_remove(struct mac_set *set, const uint8_t mac[6]);
/* The i-th address in sorted order, NULL past the end. */
const uint8_t *mac_set_at(const struct mac_set *set, size_t i);

/* Parses a list from a buffer; file names it in messages. Returns 0 and a
 * new *out, or CFG_E_BAD_MAC / CFG_E_TOO_MANY / a line check failure with
 * the line number in err. */
int macfile_parse(const char *buf, size_t len, const char *file, struct mac_set **out,
		  struct cfg_error *err);
/* macfile_parse() of the file at path. */
int macfile_load(const char *path, struct mac_set **out, struct cfg_error *err);

#endif
