/* Wire protocol between simulated radios (and test/control clients) and the
 * shared medium. One message per SOCK_SEQPACKET datagram over a UNIX socket:
 * the medium listens on DIR/medium.sock; the in-process medium hands out
 * socketpair() ends, so both setups run the same code.
 *
 * Every message starts with a 4-byte header:
 *   u8 version (MEDIUM_PROTO_VERSION), u8 type (enum medium_msg_type),
 *   u16 reserved (0)
 * followed by the type's fields, little-endian, then (for frame-carrying
 * messages) the 802.11 frame without FCS up to the end of the datagram.
 *
 * The decoder is a parser of outside bytes: it is bounds-checked, rejects
 * unknown types, short fields, and frames longer than MEDIUM_MAX_FRAME, and
 * has a fuzz target (tests/fuzz/fuzz_medium_msg.c).
 */
#ifndef WPAD_DRIVERS_SIM_MEDIUM_PROTO_H
#define WPAD_DRIVERS_SIM_MEDIUM_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MEDIUM_PROTO_VERSION 1
#define MEDIUM_MAX_FRAME 2352 /* IEEE 802.11 MPDU limit we simulate (no A-MSDU) */
#define MEDIUM_MAX_MSG (64 + MEDIUM_MAX_FRAME)
#define MEDIUM_SOCKET_NAME "medium.sock"
#define MEDIUM_NAME_MAX 16
#define MEDIUM_PATH_MAX 256

enum medium_msg_type {
	/* radio -> medium */
	MEDIUM_MSG_HELLO = 1,       /* attach a radio: addr, name */
	MEDIUM_MSG_SET_CHANNEL = 2, /* freq_mhz (0: off channel, hears nothing) */
	MEDIUM_MSG_TX = 3,          /* cookie, rate, flags, retry limit, frame */
	MEDIUM_MSG_RADIO_ADDR = 4,  /* add/remove an extra address the radio ACKs
				     * (a second virtual interface) */
	/* medium -> radio */
	MEDIUM_MSG_RX = 16,         /* freq, signal, rate, frame */
	MEDIUM_MSG_TX_STATUS = 17,  /* cookie, acked, attempts */
	MEDIUM_MSG_WELCOME = 18,    /* the medium's reply to HELLO: radio id */
	/* control client -> medium (tests, wpad-medium's peers) */
	MEDIUM_MSG_CTRL_HELLO = 32,    /* attach as a control client */
	MEDIUM_MSG_SET_LINK = 33,      /* addr_a, addr_b, signal, loss per pair */
	MEDIUM_MSG_SET_POSITION = 34,  /* addr, x, y (metres) */
	MEDIUM_MSG_CAPTURE = 35,       /* start (path) or stop (empty path) */
	MEDIUM_MSG_FAULT = 36,         /* add a fault rule */
	MEDIUM_MSG_INJECT = 37,        /* transmit a raw frame as a hostile radio */
	MEDIUM_MSG_CLEAR_FAULTS = 38,
	MEDIUM_MSG_GET_STATS = 39,     /* answered by STATS */
	MEDIUM_MSG_CTRL_REPLY = 48,    /* status (0 or -errno) */
	MEDIUM_MSG_STATS = 49,         /* struct medium_stats */
};

enum medium_tx_flag {
	MEDIUM_TX_NO_ACK = 1u << 0, /* do not wait for or report an ACK */
};

enum medium_fault_action {
	MEDIUM_FAULT_DROP = 1,
	MEDIUM_FAULT_DELAY = 2,   /* param: milliseconds */
	MEDIUM_FAULT_CORRUPT = 3, /* param: byte offset to XOR with 0xff */
	MEDIUM_FAULT_DUPLICATE = 4,
};

/* Counters of a medium (medium_get_stats, or GET_STATS over the socket). */
struct medium_stats {
	uint64_t frames_tx;       /* frames radios asked to send */
	uint64_t frames_delivered; /* RX messages handed to radios */
	uint64_t frames_lost;     /* per-receiver losses (range or loss rate) */
	uint64_t frames_faulted;  /* dropped/corrupted/delayed by a fault rule */
	uint64_t bad_messages;    /* undecodable datagrams refused */
	uint32_t radios;          /* attached now */
	/* extensions */
	uint64_t frames_acked;    /* unicast frames that got their ACK */
	uint64_t retries;         /* attempts after the first, all frames */
	uint64_t frames_injected; /* INJECT frames put on the air */
	uint64_t rx_overflow;     /* messages dropped: a client's queue was full */
};

/* A fault rule (FAULT message, medium_add_fault()). A frame matches when its
 * type/subtype and transmitter match; the nth matching frame and the `count`
 * after it get the action. Injected frames are never matched. */
struct medium_fault_spec {
	uint16_t frame_type; /* FC type/subtype bits (FC & 0x00fc); 0xffff: any */
	uint8_t source[6];   /* the transmitting radio's address; ff:..:ff: any */
	uint32_t nth;        /* act on the nth matching frame, 1-based */
	uint32_t count;      /* then on this many more (0: once) */
	uint8_t action;      /* enum medium_fault_action */
	uint32_t param;
};

#define MEDIUM_FAULT_ANY_TYPE 0xffff

/* Signal given to a pair with no explicit link and no positions. */
#define MEDIUM_DEFAULT_SIGNAL_MBM (-4000)
/* At or below this a frame is never received (out of range). */
#define MEDIUM_NO_SIGNAL_MBM (-10000)

struct medium_msg {
	enum medium_msg_type type;
	union {
		struct {
			uint8_t addr[6];
			char name[MEDIUM_NAME_MAX]; /* NUL-terminated */
		} hello;
		struct {
			uint32_t radio_id;
		} welcome;
		struct {
			uint32_t freq_mhz;
		} set_channel;
		struct {
			uint64_t cookie;
			uint16_t rate_100kbps; /* 0: lowest basic rate */
			uint8_t flags;         /* enum medium_tx_flag */
			uint8_t retry_limit;   /* attempts after the first */
		} tx;
		struct {
			uint32_t freq_mhz;
			int32_t signal_mbm;
			uint16_t rate_100kbps;
		} rx;
		struct {
			uint64_t cookie;
			uint8_t acked;
			uint8_t attempts;
		} tx_status;
		struct {
			uint8_t addr_a[6];
			uint8_t addr_b[6];
			int32_t signal_mbm;  /* MEDIUM_NO_SIGNAL_MBM: out of range */
			uint8_t loss_pct;    /* 0..100 per attempt */
		} set_link;
		struct {
			uint8_t addr[6];
			int32_t x_cm, y_cm;
		} set_position;
		struct {
			char path[MEDIUM_PATH_MAX]; /* empty: stop */
		} capture;
		struct medium_fault_spec fault;
		struct {
			uint32_t freq_mhz;
			int32_t signal_mbm;
		} inject;
		struct {
			int32_t status;
		} ctrl_reply;
		struct {
			uint8_t addr[6];
			uint8_t add; /* 1: add, 0: remove */
		} radio_addr;
		struct medium_stats stats;
	} u;
	const uint8_t *frame; /* TX, RX, INJECT: points into the datagram */
	size_t frame_len;
};

/* Decodes one datagram. Returns 0, or -EBADMSG (bad version, short or
 * oversize fields, unterminated strings), -EPROTO (unknown type), -EMSGSIZE
 * (frame too long). On success msg->frame points into buf.
 * Details: the reserved header bytes must be 0; fixed-size messages must
 * have no trailing bytes; frame-carrying messages (TX, RX, INJECT) need at
 * least one frame byte; all of these are -EBADMSG. Values are not range
 * checked here (loss_pct > 100, fault action): the medium refuses those with
 * a CTRL_REPLY of -EINVAL. */
int medium_msg_decode(const uint8_t *buf, size_t len, struct medium_msg *msg);

/* Encodes into out (at least MEDIUM_MAX_MSG bytes). Returns the length, or
 * -EMSGSIZE if the frame is too long, -EINVAL for bad arguments (unknown
 * type, missing or empty frame, unterminated name or path), -ENOBUFS if cap
 * is too small for this message. */
int medium_msg_encode(const struct medium_msg *msg, uint8_t *out, size_t cap);

/* An encoded RX message carries the signal at this offset, so the medium
 * encodes a frame once and patches the signal for each receiver. */
#define MEDIUM_RX_SIGNAL_OFFSET 8
void medium_msg_patch_rx_signal(uint8_t *encoded_rx, int32_t signal_mbm);

const char *medium_msg_type_name(enum medium_msg_type type);

#endif
