/* The access-point profile: what an AP needs to start, from the
 * configuration ([AccessPoint NAME] or a profile file) or from D-Bus
 * (AccessPoint.Start with a dictionary of the same keys).
 *
 * Keys (text form, as in the files):
 *   SSID                1..32 bytes                       (required)
 *   Hidden              true|false                        false
 *   Band                2.4|5                             2.4
 *   Channel             1..13 (14 with Country=JP) in 2.4; 36..177 in 5
 *                                                         6 in 2.4, 36 in 5
 *   BeaconInterval      TU, 15..65535                     100
 *   DTIMPeriod          1..255                            2
 *   Security            open|wpa2-psk                     wpa2-psk
 *   Passphrase          8..63 printable ASCII
 *   PSK                 64 hex digits
 *   PskFile             hostapd wpa_psk_file (see pskfile.h)
 *   MaxStations         1..2007                           64
 *   MacAllowFile        one MAC per line: only these may join
 *   MacDenyFile         one MAC per line: these may not join
 *   ClientIsolation     true|false                        false
 *   GroupRekeySeconds   0 (off) or 30..31536000           86400
 *   RekeyOnStationLeave true|false                        false
 *   InactivityTimeout   seconds, 0 (never) or 10..31536000 300
 *   Country             ISO 3166 alpha-2 or 00            [General] Country
 *   ManagementFrameProtection disabled|optional|required  optional
 *   AKMs                suite names: psk psk-sha256       psk
 *   Ciphers             pairwise suite names: ccmp-128 gcmp-256  ccmp-128
 *                       (AKMs and Ciphers are checked when the AP starts,
 *                       against daemon/rsn/suites.c)
 *   Width               20|40|80|160|auto (MHz)              auto
 *                       auto: the widest the radio, the regulatory domain
 *                       and the band allow (20 MHz on 2.4 GHz)
 *   Channel=auto        automatic channel selection (daemon/ap/ap_acs.h)
 *   Bridge              a Linux bridge (1..15 chars) the AP's interface
 *                       joins on start and leaves on stop  (none)
 *   BridgeCreate        true: create Bridge when missing   false
 * wpa2-psk needs Passphrase or PSK (not both), or a PskFile.
 *
 * Every failure has its own code (enum ap_err), which ap_err_to_wpad()
 * maps onto the error catalogue (daemon/core/error.h) for D-Bus: values of
 * the wrong shape (passphrase, PSK, SSID, country, boolean) are
 * InvalidFormat, out-of-range and inconsistent settings InvalidArguments,
 * an unknown Security NotSupported, unusable files Failed.
 *
 * Ownership: the caller owns the struct (ap_profile_init() before use,
 * ap_profile_clear() after); the profile owns its path strings and the
 * lists ap_profile_load_files() reads. ap_profile_clear() wipes the keys.
 */
#ifndef WPAD_CONFIG_AP_PROFILE_H
#define WPAD_CONFIG_AP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/config/cfg_error.h"
#include "daemon/config/ini.h"
#include "daemon/core/error.h"

struct mac_set;
struct pskfile;

enum ap_err {
	AP_OK = 0,
	AP_E_SSID = -100, /* missing, or not 1..32 bytes */
	AP_E_BAND = -101, /* not 2.4 or 5 */
	AP_E_CHANNEL = -102, /* not a channel of the band (and country) */
	AP_E_BEACON_INTERVAL = -103,
	AP_E_DTIM_PERIOD = -104,
	AP_E_SECURITY = -105, /* not open or wpa2-psk */
	AP_E_PASSPHRASE = -106, /* not 8..63 printable ASCII */
	AP_E_PSK = -107, /* not 64 hex digits */
	AP_E_NO_KEY = -108, /* wpa2-psk without Passphrase, PSK or PskFile */
	AP_E_KEY_CONFLICT = -109, /* Passphrase and PSK in one section */
	AP_E_KEY_WITH_OPEN = -110, /* a key or PskFile with Security=open */
	AP_E_MAX_STATIONS = -111,
	AP_E_MAC_FILE = -112, /* MacAllowFile/MacDenyFile bad path or content */
	AP_E_PSK_FILE = -113, /* PskFile bad path or content */
	AP_E_GROUP_REKEY = -114,
	AP_E_INACTIVITY = -115,
	AP_E_COUNTRY = -116,
	AP_E_BOOL = -117, /* Hidden, ClientIsolation, ... not true|false */
	AP_E_UNKNOWN_KEY = -118,
	AP_E_NOMEM = -119,
	AP_E_PROFILE_FILE = -120, /* the profile file cannot be read or parsed */
	AP_E_PMF = -121, /* ManagementFrameProtection not disabled|optional|required */
	AP_E_SUITES = -122, /* AKMs or Ciphers too long */
	AP_E_SAE_PWE = -123, /* SAEPWE not hunt-and-peck, h2e or both */
	AP_E_OWE_TRANSITION = -124, /* OWETransitionBSSID/SSID malformed */
	AP_E_TRANSITION_DISABLE = -125, /* TransitionDisable names an unknown mode */
	AP_E_WIDTH = -130, /* Width not 20|40|80|160|auto */
	AP_E_BRIDGE = -131, /* Bridge not a valid interface name */
};

enum ap_band {
	AP_BAND_2GHZ,
	AP_BAND_5GHZ,
};

enum ap_pmf {
	AP_PMF_OPTIONAL = 0, /* the default */
	AP_PMF_DISABLED,
	AP_PMF_REQUIRED,
};

enum ap_security {
	AP_SECURITY_OPEN,
	AP_SECURITY_WPA2_PSK,
};

/* Indexes of ap_profile_keys[]; also used to remember where a key was set. */
enum ap_key {
	AP_KEY_SSID,
	AP_KEY_HIDDEN,
	AP_KEY_BAND,
	AP_KEY_CHANNEL,
	AP_KEY_BEACON_INTERVAL,
	AP_KEY_DTIM_PERIOD,
	AP_KEY_SECURITY,
	AP_KEY_PASSPHRASE,
	AP_KEY_PSK,
	AP_KEY_PSK_FILE,
	AP_KEY_MAX_STATIONS,
	AP_KEY_MAC_ALLOW_FILE,
	AP_KEY_MAC_DENY_FILE,
	AP_KEY_CLIENT_ISOLATION,
	AP_KEY_GROUP_REKEY,
	AP_KEY_REKEY_ON_LEAVE,
	AP_KEY_INACTIVITY,
	AP_KEY_COUNTRY,
	AP_KEY_PMF,
	AP_KEY_AKMS,
	AP_KEY_CIPHERS,
	AP_KEY_SAE_PWE,
	AP_KEY_OWE_TRANS_BSSID,
	AP_KEY_OWE_TRANS_SSID,
	AP_KEY_WIDTH,
	AP_KEY_BRIDGE,
	AP_KEY_BRIDGE_CREATE,
	AP_KEY_TRANSITION_DISABLE,
	AP_KEY_COUNT,
};

/* The key names, indexed by enum ap_key, NULL-terminated. */
extern const char *const ap_profile_keys[AP_KEY_COUNT + 1];

struct ap_profile {
	uint8_t ssid[32];
	size_t ssid_len;
	bool hidden;
	enum ap_band band;
	uint8_t channel; /* 0: the band's default, filled by validate */
	uint16_t beacon_interval;
	uint8_t dtim_period;
	enum ap_security security;
	bool has_passphrase;
	char passphrase[64];
	bool has_psk;
	uint8_t psk[32];
	uint32_t max_stations;
	char *mac_allow_file; /* absolute paths or NULL, owned */
	char *mac_deny_file;
	char *psk_file;
	bool client_isolation;
	uint32_t group_rekey_s;
	bool rekey_on_sta_leave;
	uint32_t inactivity_s;
	char country[3]; /* "" = not set here */
	enum ap_pmf pmf;
	char akms[96];    /* "" = the default */
	char ciphers[96]; /* "" = the default */
	char sae_pwe[16]; /* SAE password element method; "" = both */
	/* OWE transition mode (WFA OWE v1.1): the other BSS of the pair, named
	 * in an OWE Transition Mode element; ssid_len 0: none. */
	uint8_t owe_trans_bssid[6];
	uint8_t owe_trans_ssid[32];
	size_t owe_trans_ssid_len;
	uint16_t width_mhz; /* 20, 40, 80, 160; 0 = auto */
	bool channel_auto;  /* Channel=auto: chosen when the AP starts */
	char bridge[16];  /* "" = not bridged */
	bool bridge_create;
	/* Transition Disable (WPA3 Specification): the KDE_TD_* bits the AP
	 * sends in message 3; 0: none. */
	uint8_t transition_disable;

	/* Where each key was last set, for messages after the fact (owned
	 * copies; NULL when the key came from D-Bus or was never set). */
	char *key_file[AP_KEY_COUNT];
	unsigned key_line[AP_KEY_COUNT];

	/* Read by ap_profile_load_files(); owned; NULL when not configured. */
	struct mac_set *allow;
	struct mac_set *deny;
	struct pskfile *psks;
};

/* Where a key's text comes from: file and line for messages (file NULL for
 * D-Bus), and the directory that relative paths are relative to (NULL:
 * paths must be absolute). */
struct ap_source {
	const char *file;
	unsigned line;
	const char *base_dir;
};

void ap_profile_init(struct ap_profile *p);
void ap_profile_clear(struct ap_profile *p);

/* Sets one key from its text form. Returns 0 or an enum ap_err with err
 * filled ("file:line: Passphrase must be ..."). Passphrase and PSK replace
 * each other. */
int ap_profile_set(struct ap_profile *p, const char *key, const char *value,
		   const struct ap_source *src, struct cfg_error *err);
/* Sets the SSID from bytes (D-Bus gives an array of bytes). */
int ap_profile_set_ssid(struct ap_profile *p, const uint8_t *ssid, size_t len,
			struct cfg_error *err);

/* Applies every key of section s. Keys listed in `also` (NULL-terminated,
 * may be NULL) belong to the caller and are skipped; any other unknown key
 * is AP_E_UNKNOWN_KEY with a suggestion. Passphrase and PSK together in
 * one section are AP_E_KEY_CONFLICT. */
int ap_profile_apply_section(struct ap_profile *p, const struct ini *ini,
			     const struct ini_section *s, const char *base_dir,
			     const char *const *also, struct cfg_error *err);

/* Checks the profile as a whole and fills defaults (channel). file and
 * line name the section for messages about keys that were never set.
 * Returns 0 or an enum ap_err. */
int ap_profile_validate(struct ap_profile *p, const char *file, unsigned line,
			struct cfg_error *err);

/* Reads MacAllowFile, MacDenyFile and PskFile (stretching the PSK file's
 * passphrases for the SSID). Call after ap_profile_validate(). Returns 0,
 * AP_E_MAC_FILE, AP_E_PSK_FILE or AP_E_NOMEM. */
int ap_profile_load_files(struct ap_profile *p, struct cfg_error *err);

/* A profile file: one [AccessPoint] section with the keys above. Parses
 * and applies (no validation, no list files), so a caller can add keys
 * on top before ap_profile_validate(). Relative paths in the file are
 * relative to base_dir (read_file: the file's own directory). Returns 0,
 * an enum ap_err, or AP_E_PROFILE_FILE when the text is not a valid
 * profile file (the INI error is in err->msg). */
int ap_profile_read_buffer(struct ap_profile *p, const char *buf, size_t len, const char *file,
			   const char *base_dir, struct cfg_error *err);
int ap_profile_read_file(struct ap_profile *p, const char *path, struct cfg_error *err);

/* Centre frequency in MHz of the (validated) channel. */
uint32_t ap_profile_frequency(const struct ap_profile *p);
/* True when channel is a valid 20 MHz channel of band for country ("" or
 * NULL: no country restriction beyond the band). */
bool ap_channel_valid(enum ap_band band, unsigned channel, const char *country);

/* The catalogue code of an enum ap_err (WPAD_OK for 0). */
enum wpad_error_code ap_err_to_wpad(int code);

#endif
