/* Harness for the driver conformance suite: opens the backend under test,
 * records every event it emits (copying the borrowed data), and waits for
 * events by running the event loop with a deadline. */
#ifndef WPAD_TESTS_DRIVER_HARNESS_H
#define WPAD_TESTS_DRIVER_HARNESS_H

#include "drivers/driver.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HARNESS_MAX_EVENTS 4096
#define HARNESS_MAX_FRAME 2400

struct recorded_event {
	enum driver_event_type type;
	uint32_t radio_id;
	uint32_t ifindex;
	bool consumed;
	/* mgmt */
	uint8_t frame[HARNESS_MAX_FRAME];
	size_t frame_len;
	bool has_frame;
	bool timed_out;
	/* tx status */
	uint64_t cookie;
	bool acked;
	/* data */
	uint8_t src[6];
	uint16_t ethertype;
	bool was_encrypted;
	uint8_t priority;
	/* queue */
	enum driver_ac ac;
	enum driver_radio_error radio_error;
};

struct harness {
	struct loop *loop;
	struct driver *drv;
	struct recorded_event *events; /* HARNESS_MAX_EVENTS */
	size_t n_events;
	size_t n_radios;
	struct driver_radio_info radios[8];
};

/* Set by main() from the command line: the backend and its options. */
extern const char *conformance_backend;
extern const char *conformance_options;

/* Optional: sees every event first; returning true keeps it out of the
 * record (load tests that would overflow it). */
extern bool (*harness_event_hook)(const struct driver_event *ev);

/* The per-test fixture: a fresh loop and driver in each forked test. */
extern struct harness *H;
void harness_setup(void);
void harness_teardown(void);

/* Runs the loop until an unconsumed event of this type (and ifindex, unless
 * 0) arrives or timeout_ms passes; marks it consumed. NULL on timeout. */
struct recorded_event *harness_wait(uint32_t type, uint32_t ifindex, int timeout_ms);
/* Like harness_wait, but for the TX status of one frame: its interface
 * and cookie. Both are needed: the kernel numbers cookies per wiphy
 * (mac80211's roc_cookie_counter), so two radios hand out the same
 * values. */
struct recorded_event *harness_wait_cookie(uint32_t type, uint32_t ifindex, uint64_t cookie,
					   int timeout_ms);
/* Runs the loop for ms milliseconds, collecting events. */
void harness_run_for(int ms);
/* Counts unconsumed events of a type for an ifindex (0: any). */
size_t harness_count(uint32_t type, uint32_t ifindex);

/* Probe requests the harness answered for its APs (as an AP role would). */
size_t harness_probes_answered(void);

/* Creates an interface of the given type on radio index i, brought up. */
uint32_t harness_iface(size_t radio_index, enum driver_iftype type);
void harness_iface_addr(uint32_t ifindex, uint8_t addr[6]);

/* Starts a beaconing open (or "RSN"-advertising) BSS on ifindex. */
void harness_start_ap(uint32_t ifindex, const char *ssid, uint32_t freq_mhz);
/* Runs authentication + association of sta_if to ap_if, playing the AP
 * role's part by hand (RX_MGMT → tx_mgmt, sta_add). Returns the AID. */
uint16_t harness_connect(uint32_t sta_if, uint32_t ap_if, const char *ssid, uint32_t freq);
/* Installs the same CCMP pairwise key on both ends and opens both ports. */
void harness_install_pairwise(uint32_t sta_if, uint32_t ap_if, uint8_t fill);

#endif
