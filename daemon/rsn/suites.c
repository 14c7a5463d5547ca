/* The suite tables; see suites.h.
 *
 * AKM rows: IEEE 802.11-2020 Table 9-151 (AKM suite selectors) with the
 * key lengths of Table 12-11 (KCK, KEK, MIC per AKM); suites 23-25 come
 * from later amendments (802.11be drafts) and are listed so a BSS offering
 * them is named, not "unknown". pmf_required follows the WPA3
 * Specification v3.x (SAE, OWE and Suite B connections need PMF). */
#include "daemon/rsn/suites.h"

#include "daemon/codec/ieee80211.h"
#include "drivers/driver.h"

#include <stdio.h>
#include <string.h>

#define ROW(sel, nm, fam, hash, mic, kck, kek, isft, pmf, impl) \
	{ .suite = (sel), .name = (nm), .family = (fam), .kdf = (hash), .mic_len = (mic), \
	  .kck_len = (kck), .kek_len = (kek), .ft = (isft), .pmf_required = (pmf), \
	  .implemented = (impl) }

static const struct rsn_akm_info akms[] = {
	ROW(RSN_AKM_8021X, "8021x", RSN_AKM_FAMILY_8021X, RSN_KDF_SHA1, 16, 16, 16, false, false, true),
	ROW(RSN_AKM_PSK, "psk", RSN_AKM_FAMILY_PSK, RSN_KDF_SHA1, 16, 16, 16, false, false, true),
	ROW(RSN_AKM_FT_8021X, "ft-8021x", RSN_AKM_FAMILY_8021X, RSN_KDF_SHA256, 16, 16, 16, true, false, false),
	ROW(RSN_AKM_FT_PSK, "ft-psk", RSN_AKM_FAMILY_PSK, RSN_KDF_SHA256, 16, 16, 16, true, false, false),
	ROW(RSN_AKM_8021X_SHA256, "8021x-sha256", RSN_AKM_FAMILY_8021X, RSN_KDF_SHA256, 16, 16, 16, false, false, true),
	ROW(RSN_AKM_PSK_SHA256, "psk-sha256", RSN_AKM_FAMILY_PSK, RSN_KDF_SHA256, 16, 16, 16, false, false, true),
	ROW(RSN_AKM_TDLS, "tdls", RSN_AKM_FAMILY_OTHER, RSN_KDF_SHA256, 16, 16, 16, false, false, false),
	ROW(RSN_AKM_SAE, "sae", RSN_AKM_FAMILY_SAE, RSN_KDF_SHA256, 16, 16, 16, false, true, false),
	ROW(RSN_AKM_FT_SAE, "ft-sae", RSN_AKM_FAMILY_SAE, RSN_KDF_SHA256, 16, 16, 16, true, true, false),
	ROW(RSN_AKM_AP_PEER_KEY, "ap-peerkey", RSN_AKM_FAMILY_OTHER, RSN_KDF_SHA256, 16, 16, 16, false, false, false),
	ROW(RSN_AKM_8021X_SUITE_B, "8021x-suite-b", RSN_AKM_FAMILY_8021X, RSN_KDF_SHA256, 16, 16, 16, false, true, false),
	ROW(RSN_AKM_8021X_SUITE_B_192, "8021x-suite-b-192", RSN_AKM_FAMILY_8021X, RSN_KDF_SHA384, 24, 24, 32, false, true, false),
	ROW(RSN_AKM_FT_8021X_SHA384, "ft-8021x-sha384", RSN_AKM_FAMILY_8021X, RSN_KDF_SHA384, 24, 24, 32, true, false, false),
	ROW(RSN_AKM_FILS_SHA256, "fils-sha256", RSN_AKM_FAMILY_FILS, RSN_KDF_SHA256, 0, 0, 32, false, false, false),
	ROW(RSN_AKM_FILS_SHA384, "fils-sha384", RSN_AKM_FAMILY_FILS, RSN_KDF_SHA384, 0, 0, 64, false, false, false),
	ROW(RSN_AKM_FT_FILS_SHA256, "ft-fils-sha256", RSN_AKM_FAMILY_FILS, RSN_KDF_SHA256, 0, 0, 32, true, false, false),
	ROW(RSN_AKM_FT_FILS_SHA384, "ft-fils-sha384", RSN_AKM_FAMILY_FILS, RSN_KDF_SHA384, 0, 0, 64, true, false, false),
	ROW(RSN_AKM_OWE, "owe", RSN_AKM_FAMILY_OWE, RSN_KDF_SHA256, 16, 16, 16, false, true, false),
	ROW(RSN_AKM_FT_PSK_SHA384, "ft-psk-sha384", RSN_AKM_FAMILY_PSK, RSN_KDF_SHA384, 24, 24, 32, true, false, false),
	ROW(RSN_AKM_PSK_SHA384, "psk-sha384", RSN_AKM_FAMILY_PSK, RSN_KDF_SHA384, 24, 24, 32, false, false, false),
	ROW(RSN_AKM_PASN, "pasn", RSN_AKM_FAMILY_OTHER, RSN_KDF_SHA256, 16, 16, 16, false, false, false),
	ROW(RSN_AKM_8021X_SHA384, "8021x-sha384", RSN_AKM_FAMILY_8021X, RSN_KDF_SHA384, 24, 24, 32, false, false, false),
	ROW(RSN_AKM_SAE_EXT_KEY, "sae-ext-key", RSN_AKM_FAMILY_SAE, RSN_KDF_AKM_DEFINED, 0, 0, 0, false, true, false),
	ROW(RSN_AKM_FT_SAE_EXT_KEY, "ft-sae-ext-key", RSN_AKM_FAMILY_SAE, RSN_KDF_AKM_DEFINED, 0, 0, 0, true, true, false),
};

#define N_AKMS (sizeof(akms) / sizeof(akms[0]))

struct cipher_row {
	uint32_t suite;
	const char *name;
	uint32_t driver;
};

static const struct cipher_row ciphers[] = {
	{ RSN_CIPHER_WEP40, "wep-40", DRIVER_CIPHER_WEP40 },
	{ RSN_CIPHER_TKIP, "tkip", DRIVER_CIPHER_TKIP },
	{ RSN_CIPHER_CCMP_128, "ccmp-128", DRIVER_CIPHER_CCMP_128 },
	{ RSN_CIPHER_WEP104, "wep-104", DRIVER_CIPHER_WEP104 },
	{ RSN_CIPHER_BIP_CMAC_128, "bip-cmac-128", DRIVER_CIPHER_BIP_CMAC_128 },
	{ RSN_CIPHER_NO_GROUP_TRAFFIC, "no-group-traffic", 0 },
	{ RSN_CIPHER_GCMP_128, "gcmp-128", DRIVER_CIPHER_GCMP_128 },
	{ RSN_CIPHER_GCMP_256, "gcmp-256", DRIVER_CIPHER_GCMP_256 },
	{ RSN_CIPHER_CCMP_256, "ccmp-256", DRIVER_CIPHER_CCMP_256 },
	{ RSN_CIPHER_BIP_GMAC_128, "bip-gmac-128", DRIVER_CIPHER_BIP_GMAC_128 },
	{ RSN_CIPHER_BIP_GMAC_256, "bip-gmac-256", DRIVER_CIPHER_BIP_GMAC_256 },
	{ RSN_CIPHER_BIP_CMAC_256, "bip-cmac-256", DRIVER_CIPHER_BIP_CMAC_256 },
};

#define N_CIPHERS (sizeof(ciphers) / sizeof(ciphers[0]))

const struct rsn_akm_info *rsn_akm_info(uint32_t suite)
{
	for (size_t i = 0; i < N_AKMS; i++)
		if (akms[i].suite == suite)
			return &akms[i];
	return NULL;
}

const struct rsn_akm_info *rsn_akm_table(size_t *n)
{
	*n = N_AKMS;
	return akms;
}

bool rsn_akm_implemented(uint32_t suite)
{
	const struct rsn_akm_info *a = rsn_akm_info(suite);
	return a && a->implemented;
}

const char *rsn_akm_name(uint32_t suite)
{
	const struct rsn_akm_info *a = rsn_akm_info(suite);
	return a ? a->name : "unknown";
}

static const struct cipher_row *cipher_row(uint32_t suite)
{
	for (size_t i = 0; i < N_CIPHERS; i++)
		if (ciphers[i].suite == suite)
			return &ciphers[i];
	return NULL;
}

const char *rsn_cipher_name(uint32_t suite)
{
	const struct cipher_row *c = cipher_row(suite);
	return c ? c->name : "unknown";
}

uint32_t rsn_akm_from_name(const char *name)
{
	for (size_t i = 0; name && i < N_AKMS; i++)
		if (strcmp(akms[i].name, name) == 0)
			return akms[i].suite;
	return 0;
}

uint32_t rsn_cipher_from_name(const char *name)
{
	for (size_t i = 0; name && i < N_CIPHERS; i++)
		if (strcmp(ciphers[i].name, name) == 0)
			return ciphers[i].suite;
	return 0;
}

uint32_t rsn_cipher_to_driver(uint32_t suite)
{
	const struct cipher_row *c = cipher_row(suite);
	return c ? c->driver : 0;
}

bool rsn_cipher_is_bip(uint32_t suite)
{
	return suite == RSN_CIPHER_BIP_CMAC_128 || suite == RSN_CIPHER_BIP_CMAC_256 ||
	       suite == RSN_CIPHER_BIP_GMAC_128 || suite == RSN_CIPHER_BIP_GMAC_256;
}

uint32_t rsn_bip_for_cipher(uint32_t data_cipher)
{
	if (data_cipher == RSN_CIPHER_GCMP_256)
		return RSN_CIPHER_BIP_GMAC_256;
	if (data_cipher == RSN_CIPHER_CCMP_256)
		return RSN_CIPHER_BIP_CMAC_256;
	return RSN_CIPHER_BIP_CMAC_128;
}

uint32_t rsn_akms_implemented(void)
{
	uint32_t m = 0;
	for (size_t i = 0; i < N_AKMS; i++)
		if (akms[i].implemented)
			m |= RSN_SUITE_BIT(akms[i].suite);
	return m;
}

static char *mask_str(uint32_t mask, const char *(*name)(uint32_t), char *buf, size_t cap)
{
	size_t o = 0;
	if (!cap)
		return buf;
	buf[0] = '\0';
	for (unsigned t = 0; t < 32; t++) {
		if (!(mask & (1u << t)))
			continue;
		int n = snprintf(buf + o, cap - o, "%s%s", o ? " " : "", name(RSN_SUITE(t)));
		if (n < 0 || (size_t)n >= cap - o)
			break;
		o += (size_t)n;
	}
	return buf;
}

char *rsn_akm_mask_str(uint32_t mask, char *buf, size_t cap)
{
	return mask_str(mask, rsn_akm_name, buf, cap);
}

char *rsn_cipher_mask_str(uint32_t mask, char *buf, size_t cap)
{
	return mask_str(mask, rsn_cipher_name, buf, cap);
}
