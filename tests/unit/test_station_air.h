/* Test bench for the station role: a sim driver instance, one station
 * interface driven by struct station, and access points played by hand on
 * other radios through the driver API (beacons from start_ap, answers to
 * authentication and association with tx_mgmt, EAPOL by hand), each with
 * knobs to misbehave. Shared by the test_station*.c files. */
#ifndef WPAD_TESTS_UNIT_STATION_AIR_H
#define WPAD_TESTS_UNIT_STATION_AIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/error.h"
#include "daemon/station/station.h"
#include "drivers/driver.h"

struct medium;
struct known_store;

#define AIR_MAX_AP 3

/* Time bounds on the simulated air. The fixture's loop runs on the virtual
 * clock, so they measure the protocol's timeline (airtime, dwells, timers),
 * not how fast the code runs: the same bound holds under the sanitizers. */
#define WARM_CONNECT_MAX_MS 50
#define KNOWN_FREQ_CONNECT_MAX_MS 500

/* How an AP advertises itself. akm 0 with psk: RSN_AKM_PSK; ciphers 0:
 * CCMP-128. */
struct air_ap_conf {
	const char *ssid;
	uint32_t freq;
	bool psk;
	uint32_t akm;
	uint32_t pairwise;
	uint32_t group;
	uint16_t rsn_capab;
	bool hidden;
	uint16_t beacon_int;   /* TU; 0: 100 */
};

struct air_ap {
	uint32_t ifindex;
	struct air_ap_conf conf;
	uint8_t addr[6];
	uint32_t freq;
	char ssid[33];
	bool psk;
	/* behaviour */
	bool ignore_auth;      /* never answer authentication */
	bool ignore_assoc;
	uint16_t auth_status;  /* answer with this status */
	uint16_t assoc_status;
	bool send_msg1;        /* after association, send a 4-way message 1 */
	/* answer this many association requests with status 30 and an
	 * association comeback time of comeback_tu (PMF), then as usual */
	unsigned comebacks;
	uint32_t comeback_tu;
	bool send_eap_identity; /* after association, send EAP-Request/Identity (802.1X) */
	uint16_t deauth_on_msg2; /* reason to deauthenticate with on message 2 (0: no) */
	/* what it saw */
	unsigned n_auth, n_assoc, n_eapol, n_deauth;
	uint8_t last_assoc_ies[256];
	size_t last_assoc_ies_len;
};

struct air {
	struct loop *loop;
	struct driver *drv;
	struct medium *medium;
	struct station *st;
	uint32_t sta_if;
	uint8_t sta_addr[6];
	struct driver_radio_info radios[8];
	size_t n_radios;
	struct air_ap ap[AIR_MAX_AP];
	size_t n_ap;
	struct known_store *store;
	char store_dir[64];

	/* Every driver event also goes here (another role under test). */
	void (*hook)(void *ctx, const struct driver_event *ev);
	void *hook_ctx;
	unsigned n_rx_data;    /* data frames the station's interface received */
	uint8_t last_rx_data[64];

	/* station callbacks seen */
	unsigned n_connect_done;
	bool connect_ok;
	struct wpad_error connect_err;
	uint64_t connect_done_us;
	unsigned n_scan_done;
	unsigned n_disconnected;
	struct wpad_error disc_err;
	enum station_state states[256];
	size_t n_states;
};

/* A sim driver with `radios` radios, a station on the first; with_store:
 * a known-network store in a fresh temporary directory. */
void air_setup(struct air *a, unsigned radios, bool with_store);
/* The same with extra sim options ("country=..,passive_dwell=.."); air_setup
 * uses "country=US,active_dwell=60". */
void air_setup_opts(struct air *a, unsigned radios, bool with_store, const char *extra);
void air_teardown(struct air *a);
/* A daemon restart as the station sees it: the station is freed and made
 * again, the store read back from its files (the interface and the air
 * stay). */
void air_restart_station(struct air *a);
/* Starts a hand-played AP on radio index r. */
struct air_ap *air_add_ap(struct air *a, size_t r, const char *ssid, uint32_t freq, bool psk);
struct air_ap *air_add_ap_conf(struct air *a, size_t r, const struct air_ap_conf *conf);
/* A bare interface of the given type on radio r, up (for another role). */
uint32_t air_iface(struct air *a, size_t r, enum driver_iftype type);
void air_stop_ap(struct air *a, struct air_ap *ap);
/* Runs the loop until done(a) or timeout; returns done(a). */
bool air_run_until(struct air *a, bool (*done)(struct air *), int timeout_ms);
void air_run_for(struct air *a, int ms);
/* Moves the AP out of range of the station (or back). */
void air_link(struct air *a, const struct air_ap *ap, bool in_range);

bool air_connect_done(struct air *a);
bool air_scan_done(struct air *a);
bool air_disconnected(struct air *a);
bool air_connected(struct air *a);
/* How many times the station entered state s. */
size_t air_count_state(const struct air *a, enum station_state s);

int air_connect(struct air *a, const char *ssid, const char *passphrase, bool hidden);
/* On-demand scans (at most `tries`) until the network `ssid` shows at least
 * min_bss BSSes: the premise of a test, made robust against a probe
 * response that a loaded host delayed past the channel visit. */
bool air_scan_for(struct air *a, const char *ssid, size_t min_bss, unsigned tries);
/* Connects `tries` times to a network whose scan result is fresh (the
 * station disconnects between tries), checking each succeeds without a
 * scan; returns the fastest time in ms. The best of a few, because the
 * simulated air runs in real time and a loaded host delays some runs. */
uint64_t air_warm_connect_ms(struct air *a, const char *ssid, unsigned tries);

#endif
