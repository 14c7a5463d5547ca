/* The simulated shared medium: radios attach (over UNIX SOCK_SEQPACKET
 * sockets, see medium-proto.h) and every frame one radio transmits is
 * delivered to every other radio tuned to the same channel and in range,
 * with a per-pair signal strength, configurable loss, ACKs and retries like
 * a real MAC, airtime that serializes each channel, an optional pcap capture
 * with radiotap headers, and fault injection for tests.
 *
 * It runs inside any process with an event loop: wpad-medium serves a folder
 * for radios in many processes; a single-process setup creates one in-process
 * and connects its radios with medium_connect_local().
 */
#ifndef WPAD_DRIVERS_SIM_MEDIUM_H
#define WPAD_DRIVERS_SIM_MEDIUM_H

#include <stddef.h>
#include <stdint.h>

struct loop;
struct medium;

struct medium_stats {
	uint64_t frames_tx;       /* frames radios asked to send */
	uint64_t frames_delivered; /* RX messages handed to radios */
	uint64_t frames_lost;     /* per-receiver losses (range or loss rate) */
	uint64_t frames_faulted;  /* dropped/corrupted/delayed by a fault rule */
	uint64_t bad_messages;    /* undecodable datagrams refused */
	uint32_t radios;          /* attached now */
};

/* Creates a medium on the loop. dir: folder to listen in (DIR/medium.sock),
 * or NULL for an in-process medium reachable only via medium_connect_local().
 * The caller owns the result. Returns NULL with *err set on failure. */
struct medium *medium_new(struct loop *loop, const char *dir, int *err);
void medium_free(struct medium *m);

/* Returns one end of a fresh socketpair attached to the medium as if a client
 * had connected; the caller owns the fd. Returns -errno on failure. */
int medium_connect_local(struct medium *m);

/* Connects to a medium served at DIR/medium.sock. Returns an fd or -errno. */
int medium_connect_path(const char *dir);

void medium_get_stats(const struct medium *m, struct medium_stats *st);

/* Direct control for in-process tests (the same as the control messages). */
int medium_set_link(struct medium *m, const uint8_t a[6], const uint8_t b[6],
		    int32_t signal_mbm, uint8_t loss_pct);
int medium_capture_start(struct medium *m, const char *pcap_path);
void medium_capture_stop(struct medium *m);

#endif
