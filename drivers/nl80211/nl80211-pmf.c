/* Security capabilities of a wiphy for the driver contract: AKMs,
 * extended features (MFP, beacon protection, SAE and 4-way offload, control
 * port, external authentication, PMKSA cache) and authentication algorithms.
 *
 * mac80211 drivers with software crypto (mac80211_hwsim among them) do
 * management frame protection in mac80211: BIP-CMAC-128 is then in the
 * cipher list, and a station flagged MFP gets robust frames protected and
 * unprotected deauth/disassoc reported as NL80211_CMD_UNPROT_DEAUTHENTICATE
 * (net/wireless/mlme.c cfg80211_rx_unprot_mlme_mgmt). MFP is read from the
 * BIP cipher, since nl80211 has no explicit flag for it (MFP_OPTIONAL is
 * about the connect command of full-MAC drivers).
 */
#include "drivers/nl80211/nl80211-parse.h"

#include <linux/nl80211.h>

static const struct { uint32_t suite, bit; } akm_map[] = {
	{ 0x000fac01, DRIVER_AKM_8021X },	  { 0x000fac02, DRIVER_AKM_PSK },
	{ 0x000fac03, DRIVER_AKM_FT_8021X },	  { 0x000fac04, DRIVER_AKM_FT_PSK },
	{ 0x000fac05, DRIVER_AKM_8021X_SHA256 }, { 0x000fac06, DRIVER_AKM_PSK_SHA256 },
	{ 0x000fac08, DRIVER_AKM_SAE },	  { 0x000fac09, DRIVER_AKM_FT_SAE },
	{ 0x000fac0b, DRIVER_AKM_8021X_SUITE_B }, { 0x000fac0c, DRIVER_AKM_8021X_SUITE_B_192 },
	{ 0x000fac12, DRIVER_AKM_OWE },	  { 0x000fac18, DRIVER_AKM_SAE_EXT_KEY },
};

uint32_t nl80211_akm_from_suite(uint32_t suite)
{
	for (size_t i = 0; i < sizeof(akm_map) / sizeof(akm_map[0]); i++)
		if (akm_map[i].suite == suite)
			return akm_map[i].bit;
	return 0;
}

static const struct { unsigned feature; uint32_t bit; } ext_map[] = {
	{ NL80211_EXT_FEATURE_BEACON_PROTECTION, DRIVER_EXT_BEACON_PROTECTION },
	{ NL80211_EXT_FEATURE_BEACON_PROTECTION_CLIENT, DRIVER_EXT_BEACON_PROTECTION_CLIENT },
	{ NL80211_EXT_FEATURE_SAE_OFFLOAD, DRIVER_EXT_SAE_OFFLOAD_STA },
	{ NL80211_EXT_FEATURE_SAE_OFFLOAD_AP, DRIVER_EXT_SAE_OFFLOAD_AP },
	{ NL80211_EXT_FEATURE_4WAY_HANDSHAKE_STA_PSK, DRIVER_EXT_4WAY_OFFLOAD_STA },
	{ NL80211_EXT_FEATURE_4WAY_HANDSHAKE_AP_PSK, DRIVER_EXT_4WAY_OFFLOAD_AP },
	{ NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211, DRIVER_EXT_CONTROL_PORT },
	{ NL80211_EXT_FEATURE_CONTROL_PORT_NO_PREAUTH, DRIVER_EXT_CONTROL_PORT_NO_PREAUTH },
	{ NL80211_EXT_FEATURE_OPERATING_CHANNEL_VALIDATION, DRIVER_EXT_OCV },
};

void nl80211_wiphy_pmf_capa(struct nl80211_wiphy *w)
{
	struct driver_capa *c = &w->capa;
	bool user_sme = c->flags & DRIVER_CAPA_USER_SME;

	c->ext_features = 0;
	for (size_t i = 0; i < sizeof(ext_map) / sizeof(ext_map[0]); i++)
		if (nl80211_wiphy_ext_feature(w, ext_map[i].feature))
			c->ext_features |= ext_map[i].bit;
	if (c->ciphers & DRIVER_CIPHER_BIP_CMAC_128)
		c->ext_features |= DRIVER_EXT_MFP | DRIVER_EXT_UNPROT_DEAUTH_EVENT;
	if (w->cmd_external_auth)
		c->ext_features |= DRIVER_EXT_EXTERNAL_AUTH;
	if (w->cmd_set_pmksa)
		c->ext_features |= DRIVER_EXT_PMKSA_CACHE;

	c->auth_algs = DRIVER_AUTH_BIT(DRIVER_AUTH_OPEN) | DRIVER_AUTH_BIT(DRIVER_AUTH_SHARED_KEY);
	if (user_sme)
		c->auth_algs |= DRIVER_AUTH_BIT(DRIVER_AUTH_FT);
	if (w->features & NL80211_FEATURE_SAE)
		c->auth_algs |= DRIVER_AUTH_BIT(DRIVER_AUTH_SAE);

	if (w->akm_bits) {
		c->akms = w->akm_bits;
		return;
	}
	/* Not reported (mac80211 drivers): what a user-space SME can run over
	 * the ciphers the device has. */
	c->akms = DRIVER_AKM_PSK | DRIVER_AKM_8021X | DRIVER_AKM_FT_PSK | DRIVER_AKM_FT_8021X |
		  DRIVER_AKM_OWE;
	if (c->ext_features & DRIVER_EXT_MFP)
		c->akms |= DRIVER_AKM_PSK_SHA256 | DRIVER_AKM_8021X_SHA256;
	if (c->auth_algs & DRIVER_AUTH_BIT(DRIVER_AUTH_SAE))
		c->akms |= DRIVER_AKM_SAE | DRIVER_AKM_FT_SAE | DRIVER_AKM_SAE_EXT_KEY;
}
