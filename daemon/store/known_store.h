/* The known-networks store: one file per network in the state directory
 * (names from ssid_name.h, contents from known_network.h), iwd-like.
 *
 * The directory is created mode 0700 (and tightened to 0700 if it is
 * looser); files are written mode 0600 through atomic_write(), so a crash
 * leaves either the old or the new file. Loading skips, and logs, any file
 * it cannot use, and deletes temporary files a crash left behind.
 *
 * A passphrase is stretched (PBKDF2, 4096 rounds) once per network: the
 * result is cached in the file with a check value tying it to the
 * passphrase and SSID, and reused until either changes.
 *
 * Ownership: the store owns every struct known_network it returns;
 * pointers stay valid until known_store_forget() of that network,
 * known_store_load() or known_store_free() (which write what is unsaved
 * first). Secrets are wiped on release.
 */
#ifndef WPAD_STORE_KNOWN_STORE_H
#define WPAD_STORE_KNOWN_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/store/known_network.h"

struct known_store;

/* The passphrase->PSK function; crypto_psk_from_passphrase by default. */
typedef int (*known_psk_fn)(const char *passphrase, const uint8_t *ssid, size_t ssid_len,
			    uint8_t psk[32]);

/* Opens (creating it if needed) the store directory. Loads nothing.
 * Returns 0 and a new *out, or a negative errno. */
int known_store_open(const char *dir, struct known_store **out);
void known_store_free(struct known_store *store);
const char *known_store_dir(const struct known_store *store);

/* Test hook: replace the PBKDF2 function (NULL restores the default). */
void known_store_set_psk_fn(struct known_store *store, known_psk_fn fn);

/* Drops what is in memory and reads every network file. Returns the number
 * of networks loaded, or a negative errno if the directory is unreadable;
 * a bad file never fails the load. */
int known_store_load(struct known_store *store);
size_t known_store_count(const struct known_store *store);

struct known_network *known_store_get(struct known_store *store, const uint8_t *ssid,
				      size_t ssid_len, enum known_security sec);

/* Adds or replaces the network with net's SSID and security (a deep copy
 * is stored; net stays the caller's) and writes its file. *saved (may be
 * NULL) receives the store's copy; a pointer to the network it replaced
 * (even net itself, if it was the store's) is invalid afterwards. Returns
 * 0 or a negative errno; on failure memory and disk are unchanged. */
int known_store_save(struct known_store *store, const struct known_network *net,
		     struct known_network **saved);

/* Deletes the network and its file. Returns 0 or -ENOENT. */
int known_store_forget(struct known_store *store, const uint8_t *ssid, size_t ssid_len,
		       enum known_security sec);

/* A successful connection on freq (MHz; 0: unknown) at unix time now (0:
 * the current time): updates LastConnected and Frequencies. The file is
 * written when it gains a frequency or when its LastConnected would fall
 * out of order with another network's file; a reconnect to the network
 * connected last (a new time, a frequency moved to the front) is written
 * with the network's next change, by known_store_flush() or at
 * known_store_free(): a crash loses at most those, never the networks'
 * order. These two setters change memory even when the write fails (the
 * error is returned and logged; the next write catches up). */
int known_store_touch_connected(struct known_store *store, struct known_network *net, uint32_t freq,
				uint64_t now);
/* Writes every network whose state changed since its file was written.
 * Returns 0 or the first write's negative errno (the others are tried). */
int known_store_flush(struct known_store *store);
int known_store_set_autoconnect(struct known_store *store, struct known_network *net,
				bool autoconnect);
/* Sets one policy string of [Settings] ("ManagementFrameProtection",
 * "AKMs" or "Ciphers"; "" restores the default) and writes the file.
 * The caller checked the value. Returns 0, -EINVAL (unknown key, too long)
 * or a write error (the value is set in memory anyway). */
int known_store_set_policy(struct known_store *store, struct known_network *net, const char *key,
			   const char *value);

/* The PSK of a .psk network into psk: the cached value when it is valid,
 * else computed now and written back. Returns 0, -EINVAL (not a PSK
 * network, or no key) or a negative errno. The caller wipes psk. */
int known_store_get_psk(struct known_store *store, struct known_network *net, uint8_t psk[32]);

/* All networks by preference: AutoConnect ones first, then most recently
 * connected first, then by SSID. *out is a new array (free() it; the
 * networks stay the store's). Returns 0 or -ENOMEM. */
int known_store_list(struct known_store *store, struct known_network ***out, size_t *n);

#endif
