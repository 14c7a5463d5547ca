/* Per-station passphrases: hostapd's wpa_psk_file format.
 *
 *     # comment
 *     00:00:00:00:00:00 a passphrase anyone may use
 *     02:11:22:33:44:55 this station's own passphrase
 *     02:22:33:44:55:66 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
 *     keyid=guest vlanid=3 00:00:00:00:00:00 guest passphrase
 *
 * A line is: optional "keyid=ID", "vlanid=N" and "wps=0|1" words, a MAC
 * address, blanks, then the key. The key is everything up to the line end
 * (spaces included, as hostapd reads it): 64 hex digits are a raw PSK,
 * anything else must be an 8..63 character printable ASCII passphrase.
 * 00:00:00:00:00:00 matches every station.
 *
 * Ownership: pskfile_parse()/pskfile_load() return a struct pskfile the
 * caller owns; pskfile_free() wipes every key and passphrase.
 */
#ifndef WPAD_CONFIG_PSKFILE_H
#define WPAD_CONFIG_PSKFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/config/cfg_error.h"

#define PSKFILE_MAX_ENTRIES 1024 /* each passphrase costs one PBKDF2 run */
#define PSKFILE_KEYID_MAX 32

struct pskfile_entry {
	uint8_t mac[6];
	bool any; /* 00:00:00:00:00:00: every station */
	bool has_psk; /* psk[] holds the key (raw, or derived) */
	char passphrase[64]; /* "" when the line gave a raw PSK or after derive */
	uint8_t psk[32];
	char keyid[PSKFILE_KEYID_MAX + 1]; /* "" when absent */
	uint16_t vlan_id; /* 0 when absent */
	bool wps;
	unsigned line;
};

struct pskfile {
	struct pskfile_entry *entries;
	size_t n_entries;
};

int pskfile_parse(const char *buf, size_t len, const char *file, struct pskfile **out,
		  struct cfg_error *err);
/* pskfile_parse() of the file at path; the read buffer is wiped. */
int pskfile_load(const char *path, struct pskfile **out, struct cfg_error *err);
void pskfile_free(struct pskfile *pf);

/* Stretches every passphrase into its PSK for this SSID (PBKDF2, once per
 * entry) and wipes the passphrase. Returns 0 or a negative errno. */
int pskfile_derive(struct pskfile *pf, const uint8_t *ssid, size_t ssid_len);

/* The entries a station may be using, at most max of them: those naming
 * its address first, in file order, then the wildcard ones. The AP tries
 * each PSK against the MIC of message 2. Returns how many were stored. */
size_t pskfile_match(const struct pskfile *pf, const uint8_t sta[6],
		     const struct pskfile_entry **out, size_t max);

#endif
