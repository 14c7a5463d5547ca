/* The AP role's working copy of its configuration, resolved from the AP
 * profile at ap_start(): the channel turned into a frequency and checked
 * against the radio, the passphrase turned into a PSK, the MAC lists and
 * the per-station PSK file read (from their paths, so a restart picks up
 * edits). Nothing here changes while the BSS runs, except the channel
 * (ap_set_channel).
 */
#ifndef WPAD_AP_AP_CONF_H
#define WPAD_AP_AP_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/ap/ap_chan.h"
#include "daemon/core/error.h"
#include "daemon/rsn/auth_sae.h"
#include "daemon/rsn/negotiate.h"
#include "drivers/driver.h"

struct ap_profile;
struct mac_set;

/* One station's own PSK from the PSK file. */
struct ap_sta_psk {
	uint8_t addr[6];
	uint8_t psk[32];
};

struct ap_conf {
	uint8_t ssid[32];
	size_t ssid_len;
	bool hidden;
	enum driver_band band;
	uint8_t channel;
	uint32_t freq_mhz;
	uint16_t beacon_int;    /* TU */
	uint8_t dtim_period;
	char country[3];        /* "" when the profile names none */

	bool rsn;               /* WPA2-PSK; else open */
	bool akm_psk_sha256;    /* also offer 00-0F-AC:6 */
	bool owe;               /* an open profile with AKMs=owe: OWE only */
	uint32_t owe_groups;    /* OWE groups taken, bit n: group n */
	/* The other BSS of an OWE transition pair (ssid_len 0: none). */
	uint8_t owe_trans_bssid[6];
	uint8_t owe_trans_ssid[32];
	size_t owe_trans_ssid_len;
	/* PMF, AKMs and pairwise ciphers (ManagementFrameProtection, AKMs,
	 * Ciphers); the offer made from it is ap->offer. */
	struct rsn_policy policy;
	bool has_default_psk;
	uint8_t psk[32];        /* the default PMK */
	size_t n_sta_psk;
	struct ap_sta_psk *sta_psk; /* owned; secrets */
	/* SAE (AKMs has sae): the passphrase is its password; pwe is what
	 * the AP accepts (SAEPWE, default both). */
	bool sae;
	enum sae_pwe_mode sae_pwe;
	char sae_password[64]; /* secret */
	/* Transition Disable bits (KDE_TD_*) for message 3; each names a
	 * mode this BSS runs (resolve_transition_disable). */
	uint8_t transition_disable;

	uint16_t max_stations;
	struct mac_set *allow;  /* owned; NULL: everyone */
	struct mac_set *deny;   /* owned; NULL: nobody refused */
	char *allow_path;       /* owned copies of MacAllowFile/MacDenyFile, */
	char *deny_path;        /* re-read by ap_acl_reload(); NULL: none */
	bool isolate;
	uint32_t gtk_rekey_s;   /* 0: no timed rekey */
	bool rekey_on_leave;
	uint32_t inactivity_s;  /* 0: never */

	unsigned want_width;    /* Width: 20, 40, 80, 160; 0 auto */
	bool channel_auto;      /* Channel=auto: chosen by daemon/ap/ap_acs.c */
	struct ap_chandef chandef; /* the operating channel, from ap_chan_pick */
};

/* Fills conf from the profile, checking it against capa (the radio's).
 * Returns 0, or a negative errno with *err filled as ap_start() documents. */
int ap_conf_from_profile(struct ap_conf *conf, const struct ap_profile *p,
			 const struct driver_capa *capa, struct wpad_error *err);
/* conf->chandef for conf->freq_mhz at conf->want_width (ap_chan_pick);
 * ap_conf_from_profile does it, and the AP again once Channel=auto chose.
 * Errors: NotSupported (the radio), RegulatoryForbidden, InvalidArguments. */
int ap_conf_resolve_width(struct ap_conf *c, const struct driver_capa *capa,
			  struct wpad_error *err);
/* Wipes secrets and frees what conf owns. */
void ap_conf_clear(struct ap_conf *conf);

/* The PMK for a station: its own PSK if the PSK file lists it, else the
 * default (Passphrase/PSK, or the file's first wildcard entry). */
const uint8_t *ap_conf_pmk_for(const struct ap_conf *conf, const uint8_t addr[6]);
/* May this address join? Not on the deny list, and on the allow list when
 * there is one. */
bool ap_conf_acl_allows(const struct ap_conf *conf, const uint8_t addr[6]);

/* Channel number <-> frequency. 0 when out of range. */
uint32_t ap_channel_to_freq(enum driver_band band, uint8_t channel);
uint8_t ap_freq_to_channel(uint32_t freq_mhz);
/* The band of a frequency; DRIVER_BAND_COUNT when none. */
enum driver_band ap_freq_to_band(uint32_t freq_mhz);
/* The radio's channel entry for freq_mhz in band, or NULL. */
const struct driver_channel *ap_find_channel(const struct driver_capa *capa,
					     enum driver_band band, uint32_t freq_mhz);

#endif
