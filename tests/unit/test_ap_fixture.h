/* Shared fixture of the AP role's tests over the simulated radio: one sim
 * driver with an AP interface on radio 0, hand-played or MLME-driven
 * station interfaces on radio 1, a monitor on radio 2, and a record of
 * every event the non-AP interfaces see. A station may run the RSN
 * supplicant of daemon/rsn for the 4-way handshake. */
#ifndef WPAD_TESTS_UNIT_AP_FIXTURE_H
#define WPAD_TESTS_UNIT_AP_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/ap/ap.h"
#include "daemon/config/ap_profile.h"
#include "drivers/driver.h"

#define APT_MAX_STA 8
#define APT_MAX_EV 2048
#define APT_FRAME_MAX 2400
#define APT_SSID "wpad-test"
#define APT_PASSPHRASE "correct horse battery"
#define APT_FREQ 2437

struct rsn_supp;

struct apt_event {
	enum driver_event_type type;
	uint32_t ifindex;
	bool consumed;
	bool timed_out;
	bool locally_generated;
	uint8_t frame[APT_FRAME_MAX]; /* mgmt frame, or data/EAPOL body */
	size_t len;
	uint8_t src[6];
	uint16_t ethertype;
};

struct apt_sta {
	uint32_t ifindex;
	uint8_t addr[6];
	struct rsn_supp *supp;
	bool supp_done;
	bool supp_failed;
	uint16_t supp_fail_reason;
	bool ptk_installed;
	unsigned gtk_installs;
	uint8_t last_gtk_idx;
	uint8_t rsne[64];
	size_t rsne_len;
	/* The RSNXE apt_supp_start's supplicant puts in message 2 (none when
	 * empty); the test puts what it likes in the association request. */
	uint8_t msg2_rsnxe[16];
	size_t msg2_rsnxe_len;
	uint8_t last_resp[APT_FRAME_MAX]; /* the last association response */
	size_t last_resp_len;
};

struct apt {
	struct loop *loop;
	struct driver *drv;
	struct ap *ap;
	uint32_t ap_if;
	struct ap *ap2; /* a second BSS on radio 2, when a test makes one */
	uint32_t ap2_if;
	uint8_t ap2_addr[6];
	uint32_t mon_if;
	uint8_t ap_addr[6];
	struct driver_radio_info radios[4];
	size_t n_radios;
	struct apt_sta sta[APT_MAX_STA];
	size_t n_sta;
	struct apt_event *ev;
	size_t n_ev;
	/* ap_callbacks record */
	unsigned added, authorized, removed, mic_failures;
	uint8_t last_removed[6];
	uint16_t last_reason;
	unsigned last_mic_count;
	enum ap_state states[16];
	size_t n_states;
	/* Re-entrancy checks: station_removed calls ap_stop(); entering
	 * STOPPED calls ap_start() with this profile (once). */
	bool stop_on_removed;
	const struct ap_profile *restart_with;
	int restart_result;
	/* Sees every non-AP event before it is recorded (e2e: the station). */
	void (*hook)(const struct driver_event *ev);
};

extern struct apt *APT;

void apt_setup(void);
void apt_teardown(void);

/* A profile with the test defaults: SSID, channel 6, WPA2-PSK with
 * APT_PASSPHRASE (or open), no rekey timer, no inactivity timeout. */
void apt_profile(struct ap_profile *p, bool wpa2);
/* ap_start(); asserts success. Handshake timers are shortened. */
void apt_start(const struct ap_profile *p);

/* A station interface on radio 1 (tuned to APT_FREQ, registered for the
 * AP's answers). */
struct apt_sta *apt_sta_add(void);
/* The same on another radio (0: the AP's own radio). */
struct apt_sta *apt_sta_add_on(size_t radio);
/* Starts APT->ap2 on radio 2 with this profile. */
void apt_start_second(const struct ap_profile *p);
/* A monitor interface on radio 2 tuned to freq. */
void apt_monitor(uint32_t freq);

/* Loop helpers. */
void apt_run(int ms);
bool apt_wait_for(bool (*cond)(void *), void *arg, int timeout_ms);
/* First unconsumed event of type on ifindex (0: any), waiting up to
 * timeout_ms; marks it consumed. NULL on timeout. */
struct apt_event *apt_wait(enum driver_event_type type, uint32_t ifindex, int timeout_ms);
/* A management frame of subtype heard on ifindex (RX_MGMT). */
struct apt_event *apt_wait_mgmt(uint8_t subtype, uint32_t ifindex, int timeout_ms);

/* The station MLME path (driver_authenticate + driver_associate).
 * Returns the status of the association response (or of a refused
 * authentication), -1 on a timeout; *aid gets the AID. ies: extra
 * elements (an RSN element), remembered as the station's RSNE. Without
 * ies (an open network) the station's port is opened on success. */
int apt_connect(struct apt_sta *s, const uint8_t *ies, size_t ies_len, bool wmm, uint16_t *aid);
int apt_connect_bss(struct apt_sta *s, const uint8_t bssid[6], uint32_t freq, const uint8_t *ies,
		    size_t ies_len, bool wmm, uint16_t *aid);
/* The RSN element of a WPA2-PSK CCMP station. */
size_t apt_sta_rsne(uint8_t *out, size_t cap);
/* Starts the RSN supplicant on s with this passphrase (call before
 * apt_connect so message 1 is not missed). */
void apt_supp_start(struct apt_sta *s, const char *passphrase);

/* Hand-played frames: sends frame from the station interface. */
void apt_tx(struct apt_sta *s, const uint8_t *frame, size_t len);
size_t apt_auth_frame(const struct apt_sta *s, uint16_t alg, uint16_t seq, uint8_t *out,
		      size_t cap);
size_t apt_assoc_frame(const struct apt_sta *s, const uint8_t *rates, size_t n_rates,
		       const uint8_t *ies, size_t ies_len, uint8_t *out, size_t cap);
uint16_t apt_resp_status(const struct apt_event *e); /* auth or assoc response */
uint16_t apt_reason(const struct apt_event *e);      /* deauth or disassoc */

/* The AP's view of a station's state, AP_STA_NONE when unknown. */
enum ap_sta_state apt_ap_sta_state(const uint8_t addr[6]);

#endif
