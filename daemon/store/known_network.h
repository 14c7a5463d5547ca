/* One known network and its file format.
 *
 *   [Security]  Passphrase=8..63 printable ASCII      (.psk)
 *               PreSharedKey=64 hex                   (.psk; the PBKDF2 cache,
 *               PreSharedKeyCheck=32 hex               or given alone)
 *   [Settings]  AutoConnect=true|false (true), Hidden=true|false (false)
 *   [State]     LastConnected=unix time, Frequencies=MHz,... (newest first)
 *
 * PreSharedKeyCheck binds a cached PreSharedKey to the passphrase and SSID
 * it was computed from: HMAC-SHA256 keyed with the PSK over a label, the
 * SSID and the passphrase, first 16 bytes. A cache whose check does not
 * match (the passphrase was edited, the file renamed to another SSID, no
 * check at all) is ignored and recomputed. A PreSharedKey without a
 * Passphrase is the user's own key and used as it is.
 *
 * Keys and sections this code does not know (an .8021x file's EAP
 * settings, an iwd [IPv4] section) are kept as `extras` and written back.
 *
 * Ownership: the caller owns the struct; known_network_clear() frees the
 * extras and wipes the secrets.
 */
#ifndef WPAD_STORE_KNOWN_NETWORK_H
#define WPAD_STORE_KNOWN_NETWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/config/cfg_error.h"
#include "daemon/config/ini.h"
#include "daemon/store/ssid_name.h"

#define KNOWN_FREQS_MAX 5

struct known_extra {
	char *section;
	char *key;
	char *value; /* wiped on clear: may be an EAP password */
};

struct known_network {
	uint8_t ssid[KNOWN_SSID_MAX];
	size_t ssid_len;
	enum known_security security;
	bool has_passphrase;
	char passphrase[64];
	bool psk_valid; /* psk holds the key for the passphrase (or the given key) */
	uint8_t psk[32];
	bool autoconnect;
	bool hidden;
	/* Security policy, "" for the default ([Settings] in the file):
	 * ManagementFrameProtection disabled|optional|required; AKMs and
	 * Ciphers as suite names separated by spaces ("psk psk-sha256",
	 * "ccmp-128 gcmp-256"), checked by the station that uses them. */
	char pmf[12];
	char akms[96];
	char ciphers[96];
	/* SAE password element method: hunt-and-peck|h2e|both ("": both,
	 * H2E where the AP offers it). */
	char sae_pwe[16];
	uint64_t last_connected; /* unix time, 0 = never */
	uint32_t freqs[KNOWN_FREQS_MAX]; /* MHz, most recent first */
	size_t n_freqs;
	/* The store's bookkeeping (known_store.h): LastConnected as the file
	 * has it, and whether [State] changed since the file was written. */
	uint64_t saved_last_connected;
	bool state_unsaved;
	struct known_extra *extras;
	size_t n_extras;
	/* 802.1X secrets given over D-Bus for this run only (the profile did
	 * not ask to store them): never written, wiped on clear. NULL: none. */
	char *mem_password;
	char *mem_key_passphrase;
};

/* Defaults (AutoConnect=true) for the SSID; len must be 1..32. */
void known_network_init(struct known_network *net, const uint8_t *ssid, size_t len,
			enum known_security sec);
void known_network_clear(struct known_network *net);
/* Deep copy into dst (uninitialised). Returns 0 or -ENOMEM. */
int known_network_copy(struct known_network *dst, const struct known_network *src);

/* Sets the passphrase (8..63 printable ASCII) and drops the cached PSK.
 * Returns 0 or -EINVAL. */
int known_network_set_passphrase(struct known_network *net, const char *passphrase);
/* Uses a raw 32-byte PSK and no passphrase. */
void known_network_set_psk(struct known_network *net, const uint8_t psk[32]);
/* Records a connection: last_connected = now, freq moved to the front.
 * Returns true when freq was not in the list yet (a new frequency). */
bool known_network_touch(struct known_network *net, uint32_t freq, uint64_t now);

/* Adds one key of a section the store keeps as it is (an .8021x file's
 * [EAP] keys). Returns 0 or -ENOMEM. */
int known_network_add_extra(struct known_network *net, const char *section, const char *key,
			    const char *value);
/* Drops every kept key of section (wiping the values). */
void known_network_drop_section(struct known_network *net, const char *section);
/* Sets (value NULL: drops) a memory-only 802.1X secret: which is
 * "Password" or "PrivateKeyPassphrase". Returns 0, -EINVAL or -ENOMEM. */
int known_network_set_mem_secret(struct known_network *net, const char *which, const char *value);

/* The check value of (psk, ssid, passphrase). Returns 0 or a negative errno. */
int known_psk_check(const struct known_network *net, uint8_t out[16]);

/* Fills net (already initialised with its SSID and security) from a parsed
 * file. Returns 0 or a negative enum cfg_err with err filled. */
int known_network_from_ini(struct known_network *net, const struct ini *ini, struct cfg_error *err);
struct eap_conf;
/* The network's [EAP] section (extras) read by the one [EAP] reader
 * (daemon/config/eap_conf.h), with a memory-only secret filling a secret
 * the file lacks. Returns 0, -ENOENT (no [EAP] section) or a negative
 * enum cfg_err with err filled; out is the caller's (eap_conf_clear). */
int known_network_eap(const struct known_network *net, struct eap_conf *out,
		      struct cfg_error *err);

/* The file text of net, appended to sb (wipe it with strbuf_free_secret).
 * Returns 0 or a negative errno. */
int known_network_format(const struct known_network *net, struct strbuf *sb);

#endif
