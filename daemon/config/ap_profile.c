/* AP profile: defaults, whole-profile validation, error classes. */
#include "daemon/config/ap_profile.h"

#include <stdlib.h>
#include <string.h>

#include "daemon/config/macfile.h"
#include "daemon/config/pskfile.h"
#include "daemon/crypto/secure.h"

const char *const ap_profile_keys[AP_KEY_COUNT + 1] = {
	[AP_KEY_SSID] = "SSID",
	[AP_KEY_HIDDEN] = "Hidden",
	[AP_KEY_BAND] = "Band",
	[AP_KEY_CHANNEL] = "Channel",
	[AP_KEY_BEACON_INTERVAL] = "BeaconInterval",
	[AP_KEY_DTIM_PERIOD] = "DTIMPeriod",
	[AP_KEY_SECURITY] = "Security",
	[AP_KEY_PASSPHRASE] = "Passphrase",
	[AP_KEY_PSK] = "PSK",
	[AP_KEY_PSK_FILE] = "PskFile",
	[AP_KEY_MAX_STATIONS] = "MaxStations",
	[AP_KEY_MAC_ALLOW_FILE] = "MacAllowFile",
	[AP_KEY_MAC_DENY_FILE] = "MacDenyFile",
	[AP_KEY_CLIENT_ISOLATION] = "ClientIsolation",
	[AP_KEY_GROUP_REKEY] = "GroupRekeySeconds",
	[AP_KEY_REKEY_ON_LEAVE] = "RekeyOnStationLeave",
	[AP_KEY_INACTIVITY] = "InactivityTimeout",
	[AP_KEY_COUNTRY] = "Country",
	[AP_KEY_PMF] = "ManagementFrameProtection",
	[AP_KEY_AKMS] = "AKMs",
	[AP_KEY_CIPHERS] = "Ciphers",
	[AP_KEY_SAE_PWE] = "SAEPWE",
	[AP_KEY_OWE_TRANS_BSSID] = "OWETransitionBSSID",
	[AP_KEY_OWE_TRANS_SSID] = "OWETransitionSSID",
	[AP_KEY_WIDTH] = "Width",
	[AP_KEY_BRIDGE] = "Bridge",
	[AP_KEY_BRIDGE_CREATE] = "BridgeCreate",
	[AP_KEY_TRANSITION_DISABLE] = "TransitionDisable",
	[AP_KEY_COUNT] = NULL,
};

void ap_profile_init(struct ap_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->band = AP_BAND_2GHZ;
	p->beacon_interval = 100;
	p->dtim_period = 2;
	p->security = AP_SECURITY_WPA2_PSK;
	p->max_stations = 64;
	p->group_rekey_s = 86400;
	p->inactivity_s = 300;
}

void ap_profile_clear(struct ap_profile *p)
{
	free(p->mac_allow_file);
	free(p->mac_deny_file);
	free(p->psk_file);
	for (size_t i = 0; i < AP_KEY_COUNT; i++)
		free(p->key_file[i]);
	mac_set_free(p->allow);
	mac_set_free(p->deny);
	pskfile_free(p->psks);
	crypto_zero(p, sizeof(*p));
}

static const uint8_t channels_5ghz[] = {
	36,  40,  44,  48,  52,	 56,  60,  64,	100, 104, 108, 112, 116, 120,
	124, 128, 132, 136, 140, 144, 149, 153, 157, 161, 165, 169, 173, 177,
};

bool ap_channel_valid(enum ap_band band, unsigned channel, const char *country)
{
	switch (band) {
	case AP_BAND_2GHZ:
		/* Channel 14 (DSSS only) is allowed in Japan alone. */
		if (channel == 14)
			return country && strcmp(country, "JP") == 0;
		return channel >= 1 && channel <= 13;
	case AP_BAND_5GHZ:
		for (size_t i = 0; i < sizeof(channels_5ghz); i++)
			if (channels_5ghz[i] == channel)
				return true;
		return false;
	}
	return false;
}

uint32_t ap_profile_frequency(const struct ap_profile *p)
{
	if (p->band == AP_BAND_5GHZ)
		return 5000 + 5 * (uint32_t)p->channel;
	if (p->channel == 14)
		return 2484;
	return 2407 + 5 * (uint32_t)p->channel;
}

/* Message location of a key: where it was set, else the section. */
#define KEY_FAIL(p, k, file, line, code, ...)                                                      \
	cfg_fail(err, code, (p)->key_line[k] ? (p)->key_file[k] : (file),                          \
		 (p)->key_line[k] ? (p)->key_line[k] : (line), __VA_ARGS__)

static int validate_keys(struct ap_profile *p, const char *file, unsigned line,
			 struct cfg_error *err)
{
	bool any_key = p->has_passphrase || p->has_psk || p->psk_file;

	if (p->security == AP_SECURITY_OPEN && any_key) {
		enum ap_key k = p->has_passphrase ? AP_KEY_PASSPHRASE
				: p->has_psk	  ? AP_KEY_PSK
						  : AP_KEY_PSK_FILE;
		return KEY_FAIL(p, k, file, line, AP_E_KEY_WITH_OPEN,
				"%s is set but Security=open (remove it, or use Security=wpa2-psk)",
				ap_profile_keys[k]);
	}
	if (p->security == AP_SECURITY_WPA2_PSK && !any_key)
		return KEY_FAIL(p, AP_KEY_SECURITY, file, line, AP_E_NO_KEY,
				"Security=wpa2-psk needs Passphrase, PSK or PskFile "
				"(or set Security=open)");
	return 0;
}

int ap_profile_validate(struct ap_profile *p, const char *file, unsigned line,
			struct cfg_error *err)
{
	const char *cc = p->country[0] ? p->country : NULL;

	if (p->ssid_len == 0)
		return cfg_fail(err, AP_E_SSID, file, line, "SSID is required (1..32 bytes)");
	if (p->channel == 0)
		p->channel = p->band == AP_BAND_5GHZ ? 36 : 6;
	if (!p->channel_auto && !ap_channel_valid(p->band, p->channel, cc)) {
		if (p->band == AP_BAND_2GHZ)
			return KEY_FAIL(p, AP_KEY_CHANNEL, file, line, AP_E_CHANNEL,
					"channel %u is not a 2.4 GHz channel (1..13; 14 only "
					"with Country=JP)",
					p->channel);
		return KEY_FAIL(p, AP_KEY_CHANNEL, file, line, AP_E_CHANNEL,
				"channel %u is not a 5 GHz channel (36..64, 100..144 or "
				"149..177, in steps of 4)",
				p->channel);
	}
	if (p->bridge_create && !p->bridge[0])
		return KEY_FAIL(p, AP_KEY_BRIDGE_CREATE, file, line, AP_E_BRIDGE,
				"BridgeCreate=true needs Bridge=NAME");
	return validate_keys(p, file, line, err);
}

enum wpad_error_code ap_err_to_wpad(int code)
{
	switch (code) {
	case AP_OK:
		return WPAD_OK;
	case AP_E_SSID:
	case AP_E_PASSPHRASE:
	case AP_E_PSK:
	case AP_E_COUNTRY:
	case AP_E_BOOL:
		return WPAD_ERR_INVALID_FORMAT;
	case AP_E_SECURITY:
		return WPAD_ERR_NOT_SUPPORTED;
	case AP_E_MAC_FILE:
	case AP_E_PSK_FILE:
	case AP_E_NOMEM:
	case AP_E_PROFILE_FILE:
		return WPAD_ERR_FAILED;
	default:
		return WPAD_ERR_INVALID_ARGUMENTS;
	}
}
