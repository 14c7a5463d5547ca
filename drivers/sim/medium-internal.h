/* Internals shared by the medium's files (drivers/sim/medium*.c); nothing
 * outside the medium and its tests includes this.
 *
 *   medium.c          lifecycle, listening socket, public control calls
 *   medium-client.c   one connection: datagram I/O, send queue, dispatch
 *   medium-air.c      channels, airtime, delivery, ACK/retry, TX status
 *   medium-link.c     signal/loss per pair, positions, PRNG
 *   medium-fault.c    fault rules
 *   medium-capture.c  pcap + radiotap writer
 *   medium-ctl.c      the command-line control client (wpad-medium ctl)
 */
#ifndef WPAD_DRIVERS_SIM_MEDIUM_INTERNAL_H
#define WPAD_DRIVERS_SIM_MEDIUM_INTERNAL_H

#include "drivers/sim/medium-proto.h"
#include "drivers/sim/medium.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct loop;
struct loop_io;
struct loop_timer;
struct loop_idle;
struct medium_links;
struct medium_capture;

#define MEDIUM_RADIO_EXTRA_ADDRS 8  /* RADIO_ADDR entries per radio */
#define MEDIUM_CLIENT_QUEUE_MAX 4096 /* queued messages before dropping */
#define MEDIUM_CHANNEL_QUEUE_MAX 1024 /* frames waiting for one channel */
#define MEDIUM_MAX_CHANNELS 256 /* distinct frequencies ever used */

/* ---- clients ---- */

enum medium_client_kind {
	MEDIUM_CLIENT_NEW,     /* connected, said nothing yet */
	MEDIUM_CLIENT_RADIO,   /* sent HELLO */
	MEDIUM_CLIENT_CONTROL, /* sent CTRL_HELLO or a control message */
};

struct medium_outmsg {
	struct medium_outmsg *next;
	size_t len;
	uint8_t data[];
};

struct medium_channel;

/* One connection. Owned by the medium's client list; a dead client keeps
 * its memory until the reaper runs, so pointers held during one callback
 * stay valid. */
struct medium_client {
	struct medium *m;
	struct medium_client *prev, *next;
	int fd;
	struct loop_io *io;
	enum medium_client_kind kind;
	bool dead;
	struct medium_outmsg *out_head, *out_tail;
	size_t out_count;
	/* radio state */
	uint32_t id;
	uint8_t addr[6];
	char name[MEDIUM_NAME_MAX];
	uint8_t extra[MEDIUM_RADIO_EXTRA_ADDRS][6];
	size_t n_extra;
	struct medium_channel *chan; /* NULL: off channel */
	size_t chan_index;           /* slot in chan->radios */
	bool contending;             /* medium-edca.c: its first frame is drawn */
};

/* Queues or sends one encoded message; drops it (counted) when the client's
 * queue is full. Returns true when it was sent or queued. */
bool medium_client_send(struct medium_client *c, const uint8_t *buf, size_t len);
bool medium_client_send_msg(struct medium_client *c, const struct medium_msg *msg);
/* Attaches a connected socket (takes ownership of fd). Returns 0 or -errno. */
int medium_client_attach(struct medium *m, int fd);
/* Marks the client dead now (fd closed, queue dropped); the reaper frees it
 * at the next loop iteration. */
void medium_client_kill(struct medium_client *c, const char *why);
void medium_client_reap(struct medium *m);
bool medium_client_owns_addr(const struct medium_client *c, const uint8_t addr[6]);
int medium_client_addr_update(struct medium_client *c, const uint8_t addr[6], bool add);

/* ---- the air ---- */

/* One transmission: a frame in a channel's queue (the head is on the air
 * while the channel is busy) or held by a DELAY fault. Owned by that list. */
struct medium_tx {
	struct medium_tx *prev, *next;
	struct medium_channel *chan;
	struct medium_client *sender; /* NULL: injected, or cancelled */
	struct medium_client *ctrl;   /* injected: who gets CTRL_REPLY at the end */
	struct loop_timer *delay;     /* armed while a DELAY fault holds it */
	uint8_t sender_addr[6];
	uint64_t cookie;
	uint16_t rate_100kbps;
	uint8_t retry_limit;
	uint8_t attempts;
	bool report_status; /* send TX_STATUS when done */
	bool no_ack_flag;   /* MEDIUM_TX_NO_ACK */
	bool expects_ack;   /* unicast and not NO_ACK */
	bool acked;
	bool dropped;       /* a DROP fault: on the air, heard by nobody */
	bool injected;
	int32_t inject_signal_mbm;
	uint32_t *heard; /* radio ids that received an attempt */
	size_t n_heard, cap_heard;
	size_t len;
	uint8_t frame[];
};

struct medium_tx_list {
	struct medium_tx *head, *tail;
	size_t count;
};

struct medium_channel {
	struct medium *m;
	uint32_t freq_mhz;
	struct medium_client **radios; /* attached radios tuned here */
	size_t n_radios, cap_radios;
	struct medium_tx_list queue;
	bool busy; /* queue.head is on the air */
	struct loop_timer *timer;
};

/* The channel of freq, created on first use; NULL when out of memory or
 * past MEDIUM_MAX_CHANNELS (a radio must not grow the medium without end). */
struct medium_channel *medium_channel_get(struct medium *m, uint32_t freq_mhz);
/* Tunes a radio (freq 0: off channel). Returns 0 or -ENOSPC. */
int medium_channel_tune(struct medium_client *c, uint32_t freq_mhz);
/* Takes a TX message from a radio. Always answers with TX_STATUS eventually
 * (or at once when refused). */
void medium_air_submit(struct medium_client *c, const struct medium_msg *msg);
int medium_air_inject(struct medium *m, struct medium_client *ctrl, uint32_t freq_mhz,
		      int32_t signal_mbm, const uint8_t *frame, size_t len);
/* Cancels the frames a client sent and forgets it as a CTRL_REPLY target. */
void medium_air_forget(struct medium *m, struct medium_client *c);
/* medium-edca.c: the frame of queue that wins the channel next (EDCA
 * backoff draws per access category and role); NULL for an empty queue. */
void medium_edca_seed(struct medium *m);
struct medium_tx *medium_edca_pick(struct medium *m, const struct medium_tx_list *queue);
void medium_air_free(struct medium *m);
/* Airtime of one attempt in microseconds (see medium.h). */
uint64_t medium_airtime_us(uint32_t freq_mhz, uint16_t rate_100kbps, size_t frame_len,
			   bool with_ack);
uint16_t medium_effective_rate(uint32_t freq_mhz, uint16_t rate_100kbps);

/* ---- links, positions, randomness ---- */

struct medium_links *medium_links_new(void);
void medium_links_free(struct medium_links *l);
int medium_links_set(struct medium_links *l, const uint8_t a[6], const uint8_t b[6],
		     int32_t signal_mbm, uint8_t loss_pct);
int medium_links_set_position(struct medium_links *l, const uint8_t addr[6], int32_t x_cm,
			      int32_t y_cm);
/* Signal and loss between two addresses on freq (see medium.h). */
void medium_links_get(const struct medium_links *l, const uint8_t a[6], const uint8_t b[6],
		      uint32_t freq_mhz, uint8_t default_loss, int32_t *signal_mbm,
		      uint8_t *loss_pct);
/* Log-distance path loss model: received signal at distance_m on freq. */
int32_t medium_path_signal_mbm(double distance_m, uint32_t freq_mhz);
uint64_t medium_prng_next(uint64_t *state);
void medium_prng_seed(uint64_t *state, uint64_t seed);

/* ---- faults ---- */

struct medium_fault_rule {
	struct medium_fault_spec spec;
	uint32_t seen; /* matching frames so far */
};

struct medium_fault_verdict {
	bool hit; /* at least one rule acted */
	bool drop;
	bool duplicate;
	uint32_t delay_ms;
};

/* Runs a radio's frame through the rules; applies CORRUPT in place. */
void medium_fault_check(struct medium *m, const uint8_t src[6], uint8_t *frame, size_t len,
			struct medium_fault_verdict *v);

/* ---- capture ---- */

struct medium_capture *medium_capture_open(const char *path, const struct loop *loop, int *err);
void medium_capture_close(struct medium_capture *cap);
int medium_capture_write(struct medium_capture *cap, uint32_t freq_mhz, uint16_t rate_100kbps,
			 int32_t signal_mbm, const uint8_t *frame, size_t len);

/* ---- control ---- */

/* Handles a control message from any client; replies CTRL_REPLY or STATS. */
void medium_ctrl_handle(struct medium_client *c, const struct medium_msg *msg);
void medium_ctrl_reply(struct medium_client *c, int status);

/* ---- the medium ---- */

struct medium {
	struct loop *loop;
	char *sock_path; /* NULL for an in-process medium */
	int listen_fd;
	struct loop_io *listen_io;
	struct medium_client clients; /* list sentinel */
	struct loop_idle *reaper;
	struct medium_channel **chans;
	size_t n_chans, cap_chans;
	struct medium_tx_list delayed;
	struct medium_links *links;
	uint8_t default_loss;
	uint64_t prng;
	uint64_t edca_rng; /* contention draws (medium-edca.c), fixed seed */
	struct medium_capture *capture;
	struct medium_fault_rule faults[MEDIUM_MAX_FAULTS];
	size_t n_faults;
	struct medium_stats stats;
	uint32_t next_radio_id;
	uint8_t in_buf[MEDIUM_MAX_MSG + 1];
	uint8_t out_buf[MEDIUM_MAX_MSG];
	uint8_t rx_buf[MEDIUM_MAX_MSG]; /* one RX encoded per attempt */
};

#endif
