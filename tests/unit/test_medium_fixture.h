/* Helpers for the medium's unit tests: an in-process medium on its own
 * loop, fake radios on raw socket ends (medium_connect_local), and frame
 * builders. The loop only runs while a helper waits, so a test is a plain
 * sequence of send / wait-for-message steps. */
#ifndef WPAD_TESTS_MEDIUM_FIXTURE_H
#define WPAD_TESTS_MEDIUM_FIXTURE_H

#include "drivers/sim/medium-proto.h"
#include "drivers/sim/medium.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct loop;

struct mfix {
	struct loop *loop;
	struct medium *m;
};

/* A received message with its own copy of the datagram. */
struct mrecv {
	struct medium_msg msg;
	uint8_t buf[MEDIUM_MAX_MSG];
	size_t len;
};

void mfix_setup(struct mfix *f);
void mfix_teardown(struct mfix *f);
/* Runs the loop for about ms milliseconds. */
void mfix_run(struct mfix *f, int ms);

/* Sends one message on a client socket (asserts it went). */
void mfix_send(int fd, const struct medium_msg *msg);
void mfix_send_raw(int fd, const void *buf, size_t len);
/* Runs the loop until fd has a datagram (true) or timeout_ms passes. */
bool mfix_recv(struct mfix *f, int fd, struct mrecv *r, int timeout_ms);
/* Like mfix_recv, but skips messages of other types. */
bool mfix_recv_type(struct mfix *f, int fd, enum medium_msg_type type, struct mrecv *r,
		    int timeout_ms);
/* True when nothing is waiting on fd right now. */
bool mfix_quiet(int fd);
/* Counts RX messages waiting on fd, draining them. */
int mfix_drain_rx(int fd);

/* A radio: connects, HELLO (checks WELCOME), tunes to freq (0: none). */
int mfix_radio(struct mfix *f, const uint8_t addr[6], uint32_t freq_mhz);
int mfix_control(struct mfix *f); /* CTRL_HELLO, checks the reply */
void mfix_tx(int fd, uint64_t cookie, uint8_t flags, uint8_t retry_limit, uint16_t rate,
	     const uint8_t *frame, size_t len);
/* Sends a frame and waits for its TX_STATUS (asserts it came). */
struct medium_msg mfix_tx_wait(struct mfix *f, int fd, uint64_t cookie, uint8_t retry_limit,
			       const uint8_t *frame, size_t len);
/* Sends a control message and returns the CTRL_REPLY status. */
int mfix_ctrl(struct mfix *f, int fd, const struct medium_msg *msg);

/* Frames: a data frame da <- sa with a sequence number and payload byte,
 * and a beacon with an SSID. Return the length. */
size_t mfix_data_frame(uint8_t *buf, const uint8_t da[6], const uint8_t sa[6], uint16_t seq,
		       size_t payload_len);
size_t mfix_beacon(uint8_t *buf, const uint8_t bssid[6], const char *ssid);

extern const uint8_t mfix_bcast[6];

#endif
