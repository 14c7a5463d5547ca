/* Fixture for the sim backend's unit tests (tests/unit/test_sim_*.c): one
 * driver instance on its own loop and in-process medium per test, every
 * event recorded (with copies of its data), waits that run the loop, and a
 * tiny AP responder that plays hostapd's part of authentication and
 * association through RX_MGMT, sta_add and tx_mgmt. */
#ifndef WPAD_TESTS_UNIT_TEST_SIM_FIXTURE_H
#define WPAD_TESTS_UNIT_TEST_SIM_FIXTURE_H

#include "drivers/driver.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIMT_FRAME_MAX 2400
#define SIMT_CH1 2412
#define SIMT_CH6 2437
#define SIMT_CH36 5180

struct simt_event {
	enum driver_event_type type;
	uint32_t radio_id, ifindex;
	bool consumed;
	bool timed_out, locally_generated;
	uint64_t cookie;
	bool acked;
	uint8_t src[6], dst[6];
	uint16_t ethertype;
	uint8_t priority;
	bool was_encrypted;
	enum driver_ac ac;
	enum driver_radio_error radio_error;
	int err;
	uint8_t addr[6];
	size_t len;
	uint8_t data[SIMT_FRAME_MAX]; /* frame or data body */
};

struct simt {
	struct loop *loop;
	struct driver *drv;
	struct simt_event **ev;
	size_t n_ev, cap_ev;
	struct driver_radio_info radios[16];
	size_t n_radios;
	uint32_t responder_if;   /* AP answering auth/assoc, 0: none */
	uint16_t responder_status; /* status code it answers with */
	bool responder_silent;   /* registered but never answers */
	uint16_t next_aid;
	bool connect_mfp;        /* simt_connect asks for MFP (use_mfp) */
};

extern struct simt *T;

/* Opens "sim" with options (ck_assert on failure). */
void simt_open(const char *options);
/* Checked-fixture entry points: simt_setup opens "radios=3". */
void simt_setup(void);
void simt_teardown(void);

struct simt_event *simt_wait(enum driver_event_type type, uint32_t ifindex, int timeout_ms);
void simt_run(int ms);
size_t simt_count(enum driver_event_type type, uint32_t ifindex);
/* Drops every recorded event not consumed yet. */
void simt_forget(void);

uint32_t simt_iface(size_t radio_index, enum driver_iftype type);
void simt_addr(uint32_t ifindex, uint8_t addr[6]);
/* Beacon head for ssid (header, fixed fields, SSID, rates, DS). */
size_t simt_beacon_head(uint8_t *out, const uint8_t bssid[6], const char *ssid,
			uint32_t freq, uint16_t subtype_fc);
void simt_start_ap(uint32_t ap, const char *ssid, uint32_t freq);
/* Makes ap answer authentication and association requests itself. */
void simt_responder(uint32_t ap);
/* Open-system authentication and association through the responder. */
void simt_connect(uint32_t sta, uint32_t ap, const char *ssid, uint32_t freq);
/* Same CCMP-128 pairwise key on both ends, both ports open. */
void simt_install_ptk(uint32_t sta, uint32_t ap, uint8_t fill);

/* Small frame helpers. */
uint16_t simt_fc(const uint8_t *frame);
size_t simt_mgmt(uint8_t *out, uint16_t fc, const uint8_t *da, const uint8_t *sa,
		 const uint8_t *bssid);

#endif
