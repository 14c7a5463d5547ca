/* The RSN suites wpad knows, in one place: every AKM of IEEE 802.11-2020
 * Table 9-151 with what its key hierarchy needs (KDF hash, MIC, KCK and KEK
 * lengths, whether it mandates management frame protection) and whether
 * wpad implements it yet; and the one map from cipher suite selectors to
 * the driver's cipher bits. Roles and the negotiation ask here instead of
 * keeping their own lists. */
#ifndef WPAD_RSN_SUITES_H
#define WPAD_RSN_SUITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A suite of the 00-0F-AC OUI as one bit of a mask, for policies: bit n is
 * suite type n (types 0..31). Other OUIs have no bit. */
#define RSN_SUITE_BIT(suite) (((suite) >> 8) == 0x000fac && ((suite) & 0xff) < 32 \
				      ? 1u << ((suite) & 0xff) : 0u)

enum rsn_kdf_hash {
	RSN_KDF_SHA1 = 1, /* PRF-384 with HMAC-SHA-1 (12.7.1.2) */
	RSN_KDF_SHA256,
	RSN_KDF_SHA384,
	RSN_KDF_AKM_DEFINED, /* SAE-EXT-KEY: follows the SAE group */
};

enum rsn_akm_family {
	RSN_AKM_FAMILY_PSK,
	RSN_AKM_FAMILY_SAE,
	RSN_AKM_FAMILY_8021X,
	RSN_AKM_FAMILY_FILS,
	RSN_AKM_FAMILY_OWE,
	RSN_AKM_FAMILY_OTHER, /* TDLS, peer key, PASN: no association AKM */
};

struct rsn_akm_info {
	uint32_t suite;
	const char *name;           /* as in wpactl and D-Bus: "psk", "psk-sha256" */
	enum rsn_akm_family family;
	enum rsn_kdf_hash kdf;
	uint8_t mic_len;            /* EAPOL-Key MIC octets (0: AEAD, FILS) */
	uint8_t kck_len, kek_len;
	bool ft;                    /* fast BSS transition */
	bool pmf_required;          /* the AKM mandates MFPC=1 (SAE, OWE, ...) */
	bool implemented;           /* wpad runs its authentication and keys */
};

/* The entry of an AKM suite, or NULL when not in Table 9-151. */
const struct rsn_akm_info *rsn_akm_info(uint32_t suite);
/* Every entry, for listings (capabilities, docs). */
const struct rsn_akm_info *rsn_akm_table(size_t *n);
bool rsn_akm_implemented(uint32_t suite);
/* Names: "psk", "ccmp-128", ...; "unknown" for anything else. */
const char *rsn_akm_name(uint32_t suite);
const char *rsn_cipher_name(uint32_t suite);
/* Suite by name (as rsn_*_name gives it); 0 when unknown. */
uint32_t rsn_akm_from_name(const char *name);
uint32_t rsn_cipher_from_name(const char *name);

/* The driver cipher bit (enum driver_cipher) of a cipher or BIP suite,
 * 0 when the driver contract has none. */
uint32_t rsn_cipher_to_driver(uint32_t suite);
/* True for the group-addressed management (BIP) suites. */
bool rsn_cipher_is_bip(uint32_t suite);
/* The BIP suite that goes with a data cipher: BIP-GMAC-256 with GCMP-256,
 * BIP-CMAC-256 with CCMP-256, BIP-CMAC-128 otherwise. */
uint32_t rsn_bip_for_cipher(uint32_t data_cipher);

/* Mask (RSN_SUITE_BIT) of the AKMs wpad implements. */
uint32_t rsn_akms_implemented(void);
/* Formats the suites of a mask as "psk psk-sha256" into buf. Returns buf. */
char *rsn_akm_mask_str(uint32_t mask, char *buf, size_t cap);
char *rsn_cipher_mask_str(uint32_t mask, char *buf, size_t cap);

#endif
