/* The main configuration file, /etc/wpad/wpad.conf (path from -c).
 *
 *   [General]          StateDirectory, RuntimeDirectory, Country, LogLevel
 *   [Radio NAME]       Driver=sim|nl80211|wired (required), Options=...
 *   [Station NAME]     Radio=NAME (required), AutoConnect=true|false,
 *                      DataInterface=IFNAME, Interface=IFNAME (an existing
 *                      netdev taken over instead of creating one)
 *   [AccessPoint NAME] Radio=NAME (required), Profile=NAME-or-path,
 *                      DataInterface=IFNAME, and any AP profile key
 *                      (ap_profile.h), which override the profile file's
 *   [Wired NAME]       Radio=NAME (a Driver=wired radio, required), the
 *                      EAP keys of eap_conf.h, StartPeriod=, MaxStart=,
 *                      AuthPeriod=, HeldPeriod=: an 802.1X supplicant port
 * See docs/wpad.conf.md for every key. Errors carry "file:line:".
 *
 * Ownership: wpad_conf_load*() return a struct wpad_conf the caller owns
 * and frees with wpad_conf_free(); everything inside belongs to it.
 */
#ifndef WPAD_CONFIG_WPAD_CONF_H
#define WPAD_CONFIG_WPAD_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/config/ap_profile.h"
#include "daemon/config/cfg_error.h"
#include "daemon/config/eap_conf.h"
#include "daemon/core/log.h"

#define WPAD_CONF_DEFAULT_PATH "/etc/wpad/wpad.conf"
#define WPAD_CONF_DEFAULT_STATE_DIR "/var/lib/wpad"
#define WPAD_CONF_DEFAULT_RUNTIME_DIR "/run/wpad"

enum wpad_driver_kind {
	WPAD_DRIVER_SIM,
	WPAD_DRIVER_NL80211,
	WPAD_DRIVER_WIRED,
};

struct wpad_conf_radio {
	char *name;
	enum wpad_driver_kind driver;
	char *options; /* backend options, "" when not given */
	unsigned line;
};

/* Longest DataInterface= name (a Linux network interface name). */
#define WPAD_CONF_IFNAME_MAX 15

struct wpad_conf_station {
	char *name;
	char *radio; /* names a struct wpad_conf_radio */
	bool autoconnect;
	char *data_interface; /* DataInterface=: the OS netdev for data, or NULL */
	/* Interface=: the radio's existing netdev (the kernel's wlan0) to take
	 * over instead of creating one; NULL: create. */
	char *adopt_ifname;
	unsigned line;
};

struct wpad_conf_ap {
	char *name;
	char *radio;
	char *profile_path; /* resolved Profile=, or NULL */
	char *data_interface; /* DataInterface=, or NULL */
	struct ap_profile profile; /* validated; list files loaded */
	unsigned line;
};

/* [Wired NAME]: an IEEE 802.1X supplicant on a wired radio's port. */
struct wpad_conf_wired {
	char *name;
	char *radio;
	struct eap_conf eap;
	/* IEEE 802.1X-2010 supplicant timers (seconds; 0: the standard's
	 * default): StartPeriod= (30), MaxStart= (3 EAPOL-Starts), AuthPeriod=
	 * (30), HeldPeriod= (60). */
	uint32_t start_period_s, max_start, auth_period_s, held_period_s;
	unsigned line;
};

struct wpad_conf {
	char *path;
	char *state_dir;
	char *runtime_dir;
	char country[3]; /* "" when not set */
	enum log_level log_level;
	bool log_level_set;
	struct wpad_conf_radio *radios;
	size_t n_radios;
	struct wpad_conf_station *stations;
	size_t n_stations;
	struct wpad_conf_ap *aps;
	size_t n_aps;
	struct wpad_conf_wired *wireds;
	size_t n_wireds;
};

/* Reads the file at path. Returns 0 and *out, or a negative code (enum
 * cfg_err, or enum ap_err from an [AccessPoint] section) with err->msg
 * ready to print. Profile names and relative paths are resolved against
 * the file's directory. */
int wpad_conf_load(const char *path, struct wpad_conf **out, struct cfg_error *err);
/* The same from a buffer; file names it in messages, base_dir stands for
 * its directory. An empty buffer gives all defaults. */
int wpad_conf_load_buffer(const char *buf, size_t len, const char *file, const char *base_dir,
			  struct wpad_conf **out, struct cfg_error *err);
void wpad_conf_free(struct wpad_conf *conf);

const struct wpad_conf_radio *wpad_conf_find_radio(const struct wpad_conf *conf, const char *name);
const char *wpad_driver_kind_name(enum wpad_driver_kind kind);

#endif
