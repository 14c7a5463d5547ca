/* Profile -> working configuration: the checks that need the radio's
 * capabilities, key derivation, and the lists read from their files. */
#define LOG_TAG "ap"
#include "daemon/ap/ap_conf.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/codec/kde.h"
#include "daemon/config/ap_profile.h"
#include "daemon/config/macfile.h"
#include "daemon/config/pskfile.h"
#include "daemon/core/log.h"
#include "daemon/crypto/kdf.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/auth_owe.h"
#include "daemon/rsn/suites.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_CHANNEL_2GHZ 6
#define DEFAULT_CHANNEL_5GHZ 36
#define DEFAULT_BEACON_INT 100
#define DEFAULT_DTIM 2
#define DEFAULT_MAX_STATIONS 64

uint32_t ap_channel_to_freq(enum driver_band band, uint8_t channel)
{
	switch (band) {
	case DRIVER_BAND_2GHZ:
		if (channel == 14)
			return 2484;
		return channel >= 1 && channel <= 13 ? 2407 + 5u * channel : 0;
	case DRIVER_BAND_5GHZ:
		return channel >= 1 && channel <= 196 ? 5000 + 5u * channel : 0;
	case DRIVER_BAND_6GHZ:
		return channel >= 1 && channel <= 233 ? 5950 + 5u * channel : 0;
	case DRIVER_BAND_COUNT:
		break;
	}
	return 0;
}

enum driver_band ap_freq_to_band(uint32_t freq)
{
	if (freq >= 2412 && freq <= 2484)
		return DRIVER_BAND_2GHZ;
	if (freq > 5950 && freq <= 7115)
		return DRIVER_BAND_6GHZ;
	if (freq >= 5005 && freq <= 5950)
		return DRIVER_BAND_5GHZ;
	return DRIVER_BAND_COUNT;
}

uint8_t ap_freq_to_channel(uint32_t freq)
{
	switch (ap_freq_to_band(freq)) {
	case DRIVER_BAND_2GHZ:
		return freq == 2484 ? 14 : (uint8_t)((freq - 2407) / 5);
	case DRIVER_BAND_5GHZ:
		return (uint8_t)((freq - 5000) / 5);
	case DRIVER_BAND_6GHZ:
		return (uint8_t)((freq - 5950) / 5);
	case DRIVER_BAND_COUNT:
		break;
	}
	return 0;
}

const struct driver_channel *ap_find_channel(const struct driver_capa *capa,
					     enum driver_band band, uint32_t freq)
{
	if (band >= DRIVER_BAND_COUNT || !capa->bands[band].present)
		return NULL;
	const struct driver_band_info *b = &capa->bands[band];
	for (size_t i = 0; i < b->n_channels && i < DRIVER_MAX_CHANNELS; i++)
		if (b->channels[i].freq_mhz == freq)
			return &b->channels[i];
	return NULL;
}

static int fail(struct wpad_error *err, enum wpad_error_code code, int errnum, const char *what)
{
	wpad_error_set(err, code, errnum, -1, -1, "%s", what);
	log_warn("access point not started: %s", what);
	return errnum;
}

int ap_conf_resolve_width(struct ap_conf *c, const struct driver_capa *capa,
			  struct wpad_error *err)
{
	char text[160];
	const char *why = NULL;
	bool dfs = (capa->flags & DRIVER_CAPA_DFS) != 0; /* radar channels after a CAC */
	int r = ap_chan_pick(capa, c->band, c->freq_mhz, c->want_width, dfs, &c->chandef, &why);
	if (r == 0) {
		log_info("channel %u: %s (center %u MHz)%s", c->channel,
			 ap_chan_width_name(c->chandef.width_mhz), c->chandef.center1_mhz,
			 c->want_width ? "" : ", chosen by Width=auto");
		return 0;
	}
	snprintf(text, sizeof(text), "Width=%s on channel %u: %s",
		 ap_chan_width_name(c->want_width), c->channel, why ? why : "not possible");
	return fail(err,
		    r == -EPERM	       ? WPAD_ERR_REGULATORY_FORBIDDEN
		    : r == -EOPNOTSUPP ? WPAD_ERR_NOT_SUPPORTED
				       : WPAD_ERR_INVALID_ARGUMENTS,
		    r, text);
}

static int resolve_channel(struct ap_conf *c, const struct ap_profile *p,
			   const struct driver_capa *capa, struct wpad_error *err)
{
	char text[128];
	c->want_width = p->width_mhz;
	c->channel_auto = p->channel_auto;
	c->band = p->band == AP_BAND_5GHZ ? DRIVER_BAND_5GHZ : DRIVER_BAND_2GHZ;
	c->channel = p->channel ? p->channel
				: (c->band == DRIVER_BAND_5GHZ ? DEFAULT_CHANNEL_5GHZ
							      : DEFAULT_CHANNEL_2GHZ);
	c->freq_mhz = ap_channel_to_freq(c->band, c->channel);
	if (!capa->bands[c->band].present)
		return fail(err, WPAD_ERR_NOT_SUPPORTED, -EOPNOTSUPP,
			    c->band == DRIVER_BAND_5GHZ ? "the radio has no 5 GHz band"
							: "the radio has no 2.4 GHz band");
	if (c->channel_auto)
		return 0; /* the channel and its width come after the choice */
	const struct driver_channel *ch = ap_find_channel(capa, c->band, c->freq_mhz);
	if (!ch) {
		snprintf(text, sizeof(text), "the radio has no channel %u (%u MHz)", c->channel,
			 c->freq_mhz);
		return fail(err, WPAD_ERR_NOT_SUPPORTED, -EINVAL, text);
	}
	uint32_t forbidden = DRIVER_CHAN_DISABLED | DRIVER_CHAN_DFS_UNAVAILABLE;
	if (ch->flags & DRIVER_CHAN_RADAR) {
		if (!(capa->flags & DRIVER_CAPA_DFS) && !(ch->flags & DRIVER_CHAN_DFS_AVAILABLE))
			forbidden |= DRIVER_CHAN_RADAR;
	} else {
		forbidden |= DRIVER_CHAN_NO_IR;
	}
	if (ch->flags & forbidden) {
		snprintf(text, sizeof(text),
			 "channel %u (%u MHz) may not be used to beacon here (%s)", c->channel,
			 c->freq_mhz,
			 ch->flags & DRIVER_CHAN_DISABLED ? "disabled"
			 : ch->flags & DRIVER_CHAN_DFS_UNAVAILABLE
				 ? "radar was detected there; the non-occupancy period runs"
			 : ch->flags & DRIVER_CHAN_RADAR  ? "radar detection required"
							  : "no initiating radiation");
		return fail(err, WPAD_ERR_REGULATORY_FORBIDDEN, -EPERM, text);
	}
	return ap_conf_resolve_width(c, capa, err);
}

static bool passphrase_ok(const char *s)
{
	size_t n = strnlen(s, 64);
	if (n < CRYPTO_PASSPHRASE_MIN || n > CRYPTO_PASSPHRASE_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < 32 || s[i] > 126)
			return false;
	return true;
}

/* Copies the PSK file's entries: a station's own PSK for listed
 * addresses; the first wildcard entry is the default when the profile
 * has no Passphrase/PSK of its own. */
static int take_psk_entries(struct ap_conf *c, const struct pskfile *pf)
{
	c->sta_psk = calloc(pf->n_entries ? pf->n_entries : 1, sizeof(*c->sta_psk));
	if (!c->sta_psk)
		return -ENOMEM;
	for (size_t i = 0; i < pf->n_entries; i++) {
		const struct pskfile_entry *e = &pf->entries[i];
		uint8_t psk[32];
		if (e->has_psk)
			memcpy(psk, e->psk, 32);
		else if (crypto_psk_from_passphrase(e->passphrase, c->ssid, c->ssid_len, psk) < 0)
			return -EINVAL;
		if (e->any) {
			if (!c->has_default_psk)
				memcpy(c->psk, psk, 32);
			c->has_default_psk = true;
		} else {
			struct ap_sta_psk *s = &c->sta_psk[c->n_sta_psk++];
			memcpy(s->addr, e->mac, 6);
			memcpy(s->psk, psk, 32);
		}
		crypto_zero(psk, sizeof(psk));
	}
	return 0;
}

static int load_psk_file(struct ap_conf *c, const struct ap_profile *p, struct wpad_error *err)
{
	struct pskfile *own = NULL;
	struct cfg_error ce = { 0 };
	const struct pskfile *pf = p->psks;

	if (!pf) {
		int r = pskfile_load(p->psk_file, &own, &ce);
		if (r < 0 || (r = pskfile_derive(own, c->ssid, c->ssid_len)) < 0) {
			pskfile_free(own);
			return fail(err, ce.code == CFG_E_IO ? WPAD_ERR_NOT_FOUND
							     : WPAD_ERR_INVALID_FORMAT,
				    -EINVAL, ce.msg[0] ? ce.msg : "the PSK file cannot be used");
		}
		pf = own;
	}
	int r = take_psk_entries(c, pf);
	pskfile_free(own);
	if (r < 0)
		return fail(err, r == -ENOMEM ? WPAD_ERR_FAILED : WPAD_ERR_INVALID_FORMAT, r,
			    "a passphrase of the PSK file cannot be used");
	return 0;
}

static int resolve_keys(struct ap_conf *c, const struct ap_profile *p, struct wpad_error *err)
{
	c->rsn = p->security == AP_SECURITY_WPA2_PSK;
	if (!c->rsn)
		return 0;
	if (p->has_passphrase) {
		if (!passphrase_ok(p->passphrase))
			return fail(err, WPAD_ERR_INVALID_FORMAT, -EINVAL,
				    "the passphrase must be 8..63 printable ASCII characters");
		if (crypto_psk_from_passphrase(p->passphrase, c->ssid, c->ssid_len, c->psk) < 0)
			return fail(err, WPAD_ERR_FAILED, -EIO, "PSK derivation failed");
		c->has_default_psk = true;
	} else if (p->has_psk) {
		memcpy(c->psk, p->psk, 32);
		c->has_default_psk = true;
	}
	if (p->psk_file || p->psks) {
		int r = load_psk_file(c, p, err);
		if (r < 0)
			return r;
	}
	if (!c->has_default_psk && !c->n_sta_psk)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "WPA2-PSK needs a Passphrase, a PSK or a PSK file");
	return 0;
}

/* "psk psk-sha256" into a mask; an unknown name fails the start. */
static int suite_names(const char *list, uint32_t (*lookup)(const char *), const char *key,
		       uint32_t *mask, struct wpad_error *err)
{
	char buf[128], *save = NULL;
	*mask = 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
		uint32_t bit = RSN_SUITE_BIT(lookup(t));
		if (!bit) {
			char text[96];
			snprintf(text, sizeof(text), "%s: unknown suite '%.32s'", key, t);
			return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL, text);
		}
		*mask |= bit;
	}
	return 0;
}

/* SAE: the passphrase is the password; PMF is required with SAE alone
 * (WPA3-Personal) and at least optional next to PSK (transition mode). */
static int resolve_sae(struct ap_conf *c, const struct ap_profile *p, struct wpad_error *err)
{
	uint32_t sae = RSN_SUITE_BIT(RSN_AKM_SAE);
	uint32_t psk = RSN_SUITE_BIT(RSN_AKM_PSK) | RSN_SUITE_BIT(RSN_AKM_PSK_SHA256);
	c->sae = (c->policy.akms & sae) != 0;
	if (!c->sae)
		return 0;
	if (!p->has_passphrase)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "SAE needs a Passphrase (a PSK or PSK file cannot be an SAE password)");
	snprintf(c->sae_password, sizeof(c->sae_password), "%s", p->passphrase);
	c->sae_pwe = SAE_PWE_BOTH;
	if (p->sae_pwe[0] && sae_pwe_mode_parse(p->sae_pwe, &c->sae_pwe) < 0)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "SAEPWE must be hunt-and-peck, h2e or both");
	if (c->policy.pmf == RSN_PMF_DISABLED)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "SAE needs management frame protection (ManagementFrameProtection "
			    "optional or required)");
	if (!(c->policy.akms & psk) && c->policy.pmf != RSN_PMF_REQUIRED) {
		log_info("SAE without PSK: management frame protection required");
		c->policy.pmf = RSN_PMF_REQUIRED;
	}
	return 0;
}

/* OWE (RFC 8110) is an open profile with AKMs=owe, alone: it has no
 * passphrase, and PMF is required with it (WFA OWE Specification; the
 * WPA3 Specification's Enhanced Open). */
static int resolve_owe(struct ap_conf *c, const struct ap_profile *p, struct wpad_error *err)
{
	uint32_t owe = RSN_SUITE_BIT(RSN_AKM_OWE);
	if (!(c->policy.akms & owe))
		return 0;
	if (p->security != AP_SECURITY_OPEN || c->policy.akms != owe)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "AKMs=owe goes alone, on an open profile (Security=open)");
	if (c->policy.pmf == RSN_PMF_DISABLED)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "OWE needs management frame protection");
	c->policy.pmf = RSN_PMF_REQUIRED;
	c->rsn = c->owe = true;
	c->owe_groups = AUTH_OWE_AP_GROUPS_DEFAULT;
	return 0;
}

/* OWE transition mode: an open BSS names its OWE twin, the OWE BSS
 * (usually hidden) names the open one. Only those two may. */
static int resolve_owe_trans(struct ap_conf *c, const struct ap_profile *p,
			     struct wpad_error *err)
{
	if (!p->owe_trans_ssid_len)
		return 0;
	if (p->security != AP_SECURITY_OPEN)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "OWETransitionSSID goes on an open or OWE profile");
	static const uint8_t zero[6];
	if (!memcmp(p->owe_trans_bssid, zero, 6))
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "OWETransitionSSID needs OWETransitionBSSID");
	memcpy(c->owe_trans_bssid, p->owe_trans_bssid, 6);
	memcpy(c->owe_trans_ssid, p->owe_trans_ssid, p->owe_trans_ssid_len);
	c->owe_trans_ssid_len = p->owe_trans_ssid_len;
	return 0;
}

/* Transition Disable tells a station to use only this mode on the
 * network from now on (it remembers that per SSID). A bit for a mode this
 * BSS does not run would lock the station out of the very BSS that sent
 * it (a PSK-only AP naming WPA3-Personal: the station then demands SAE
 * and PMF, which it can never get here), so each bit must name a mode we
 * offer: WPA3-Personal needs sae in AKMs, Enhanced Open needs owe; wpad's
 * AP has neither SAE-PK nor 802.1X, so those two are refused always. */
static int resolve_transition_disable(struct ap_conf *c, const struct ap_profile *p,
				      struct wpad_error *err)
{
	static const struct {
		uint8_t bit;
		const char *what;
	} unsupported[] = {
		{ KDE_TD_SAE_PK, "sae-pk: the access point does not offer SAE-PK" },
		{ KDE_TD_WPA3_ENTERPRISE, "wpa3-enterprise: the access point has no 802.1X" },
	};
	char text[160];
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (p->transition_disable & unsupported[i].bit) {
			snprintf(text, sizeof(text), "TransitionDisable=%s", unsupported[i].what);
			return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL, text);
		}
	if ((p->transition_disable & KDE_TD_WPA3_PERSONAL) && !c->sae)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "TransitionDisable=wpa3-personal needs SAE (AKMs=sae or \"psk sae\")");
	if ((p->transition_disable & KDE_TD_ENHANCED_OPEN) && !c->owe)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "TransitionDisable=enhanced-open needs OWE (AKMs=owe)");
	c->transition_disable = p->transition_disable;
	return 0;
}

static int resolve_policy(struct ap_conf *c, const struct ap_profile *p, struct wpad_error *err)
{
	static const enum rsn_pmf pmf[] = {
		[AP_PMF_OPTIONAL] = RSN_PMF_OPTIONAL,
		[AP_PMF_DISABLED] = RSN_PMF_DISABLED,
		[AP_PMF_REQUIRED] = RSN_PMF_REQUIRED,
	};
	int r;
	c->policy.pmf = pmf[p->pmf];
	if (p->akms[0] &&
	    (r = suite_names(p->akms, rsn_akm_from_name, "AKMs", &c->policy.akms, err)) < 0)
		return r;
	/* The AP has no 802.1X authenticator yet: PSK family only. */
	uint32_t ap_akms = rsn_akms_implemented() &
			   ~(RSN_SUITE_BIT(RSN_AKM_8021X) | RSN_SUITE_BIT(RSN_AKM_8021X_SHA256));
	if (c->policy.akms & ~ap_akms)
		return fail(err, WPAD_ERR_NOT_SUPPORTED, -EOPNOTSUPP,
			    "AKMs: only psk, psk-sha256, sae and owe are implemented");
	if ((r = resolve_sae(c, p, err)) < 0 || (r = resolve_owe(c, p, err)) < 0 ||
	    (r = resolve_owe_trans(c, p, err)) < 0 ||
	    (r = resolve_transition_disable(c, p, err)) < 0)
		return r;
	if (p->ciphers[0] &&
	    (r = suite_names(p->ciphers, rsn_cipher_from_name, "Ciphers", &c->policy.pairwise,
			     err)) < 0)
		return r;
	return 0;
}

static int load_mac_list(const char *path, struct mac_set **out, struct wpad_error *err)
{
	struct cfg_error ce = { 0 };
	if (!path)
		return 0;
	if (macfile_load(path, out, &ce) < 0)
		return fail(err, ce.code == CFG_E_IO ? WPAD_ERR_NOT_FOUND : WPAD_ERR_INVALID_FORMAT,
			    -EINVAL, ce.msg[0] ? ce.msg : "a MAC list file cannot be used");
	return 0;
}

static int check_basics(struct ap_conf *c, const struct ap_profile *p,
			const struct driver_capa *capa, struct wpad_error *err)
{
	if (p->ssid_len < 1 || p->ssid_len > sizeof(c->ssid))
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL, "the SSID must be 1..32 bytes");
	memcpy(c->ssid, p->ssid, p->ssid_len);
	c->ssid_len = p->ssid_len;
	c->hidden = p->hidden;
	c->beacon_int = p->beacon_interval ? p->beacon_interval : DEFAULT_BEACON_INT;
	c->dtim_period = p->dtim_period ? p->dtim_period : DEFAULT_DTIM;
	if (c->beacon_int < 15)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "the beacon interval must be at least 15 TU");
	if (!(capa->iftypes & DRIVER_IFTYPE_AP))
		return fail(err, WPAD_ERR_NOT_SUPPORTED, -EOPNOTSUPP,
			    "the radio cannot be an access point");
	if (p->security == AP_SECURITY_WPA2_PSK && !(capa->ciphers & DRIVER_CIPHER_CCMP_128))
		return fail(err, WPAD_ERR_NOT_SUPPORTED, -EOPNOTSUPP,
			    "the radio has no CCMP cipher, needed for WPA2");
	uint32_t max = p->max_stations ? p->max_stations : DEFAULT_MAX_STATIONS;
	if (max > 2007)
		return fail(err, WPAD_ERR_INVALID_ARGUMENTS, -EINVAL,
			    "at most 2007 stations can be associated");
	if (capa->max_ap_stations && max > capa->max_ap_stations) {
		log_info("MaxStations %u lowered to the radio's limit %u", max,
			 capa->max_ap_stations);
		max = capa->max_ap_stations;
	}
	c->max_stations = (uint16_t)max;
	return 0;
}

int ap_conf_from_profile(struct ap_conf *c, const struct ap_profile *p,
			 const struct driver_capa *capa, struct wpad_error *err)
{
	int r;
	memset(c, 0, sizeof(*c));
	if ((r = check_basics(c, p, capa, err)) < 0 || (r = resolve_channel(c, p, capa, err)) < 0 ||
	    (r = resolve_keys(c, p, err)) < 0 || (r = resolve_policy(c, p, err)) < 0 ||
	    (r = load_mac_list(p->mac_allow_file, &c->allow, err)) < 0 ||
	    (r = load_mac_list(p->mac_deny_file, &c->deny, err)) < 0) {
		ap_conf_clear(c);
		return r;
	}
	if ((p->mac_allow_file && !(c->allow_path = strdup(p->mac_allow_file))) ||
	    (p->mac_deny_file && !(c->deny_path = strdup(p->mac_deny_file)))) {
		ap_conf_clear(c);
		return fail(err, WPAD_ERR_FAILED, -ENOMEM, "out of memory");
	}
	memcpy(c->country, p->country, sizeof(c->country));
	c->country[2] = '\0';
	c->isolate = p->client_isolation;
	c->gtk_rekey_s = p->group_rekey_s;
	c->rekey_on_leave = p->rekey_on_sta_leave;
	c->inactivity_s = p->inactivity_s;
	return 0;
}

void ap_conf_clear(struct ap_conf *c)
{
	if (c->sta_psk) {
		crypto_zero(c->sta_psk, c->n_sta_psk * sizeof(*c->sta_psk));
		free(c->sta_psk);
	}
	mac_set_free(c->allow);
	mac_set_free(c->deny);
	free(c->allow_path);
	free(c->deny_path);
	crypto_zero(c, sizeof(*c));
}

const uint8_t *ap_conf_pmk_for(const struct ap_conf *c, const uint8_t addr[6])
{
	for (size_t i = 0; i < c->n_sta_psk; i++)
		if (memcmp(c->sta_psk[i].addr, addr, 6) == 0)
			return c->sta_psk[i].psk;
	return c->has_default_psk ? c->psk : NULL;
}

bool ap_conf_acl_allows(const struct ap_conf *c, const uint8_t addr[6])
{
	if (c->deny && mac_set_contains(c->deny, addr))
		return false;
	if (c->allow && !mac_set_contains(c->allow, addr))
		return false;
	return true;
}
