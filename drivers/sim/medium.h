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

#include "drivers/sim/medium-proto.h" /* struct medium_stats, medium_fault_spec */

struct loop;
struct medium;

/* Creates a medium on the loop. dir: folder to listen in (DIR/medium.sock),
 * or NULL for an in-process medium reachable only via medium_connect_local().
 * The caller owns the result. Returns NULL with *err set on failure. */
struct medium *medium_new(struct loop *loop, const char *dir, int *err);
/* Closes every client and removes DIR/medium.sock. Free it before its loop. */
void medium_free(struct medium *m);

/* Returns one end of a fresh socketpair attached to the medium as if a client
 * had connected; the caller owns the fd (blocking, close-on-exec). Returns
 * -errno on failure. */
int medium_connect_local(struct medium *m);

/* Connects to a medium served at DIR/medium.sock. Returns an fd (blocking,
 * close-on-exec) or -errno. */
int medium_connect_path(const char *dir);

void medium_get_stats(const struct medium *m, struct medium_stats *st);

/* Direct control for in-process tests (the same as the control messages). */
int medium_set_link(struct medium *m, const uint8_t a[6], const uint8_t b[6],
		    int32_t signal_mbm, uint8_t loss_pct);
int medium_capture_start(struct medium *m, const char *pcap_path);
void medium_capture_stop(struct medium *m);

/* Extensions, each the same as its control message. */
int medium_set_position(struct medium *m, const uint8_t addr[6], int32_t x_cm, int32_t y_cm);
/* Loss for pairs without a SET_LINK entry (wpad-medium --loss). 0..100. */
int medium_set_default_loss(struct medium *m, uint8_t loss_pct);
/* Reseeds the loss PRNG. medium_new() seeds from $WPAD_MEDIUM_SEED when set
 * (decimal or 0x hex), else from the clock. */
void medium_set_seed(struct medium *m, uint64_t seed);
/* Returns 0, -EINVAL (bad action, nth 0), -ENOSPC (MEDIUM_MAX_FAULTS). */
int medium_add_fault(struct medium *m, const struct medium_fault_spec *f);
void medium_clear_faults(struct medium *m);
/* Puts a raw frame (1..MEDIUM_MAX_FRAME bytes, any content) on the air of
 * freq as a hostile radio with no address would: every radio on freq hears it
 * at signal_mbm (no loss, no ACK, never faulted). */
int medium_inject(struct medium *m, uint32_t freq_mhz, int32_t signal_mbm, const uint8_t *frame,
		  size_t len);
/* n copies of frame from n spoofed transmitters (addr2 rewritten to
 * 02:f1:00:00:hi:lo, i = 0..n-1), injected like medium_inject: a flood of
 * management frames (an SAE commit flood). */
int medium_inject_flood(struct medium *m, uint32_t freq_mhz, int32_t signal_mbm,
			const uint8_t *frame, size_t len, unsigned n);

#define MEDIUM_MAX_FAULTS 64

/*
 * The model, in short (details next to the code in medium-air.c and
 * medium-link.c):
 *
 * Airtime. Each frequency is one shared channel; its transmissions run one
 * after another. When the channel frees, the frames waiting for it contend
 * (medium-edca.c): each transmitter's first frame draws AIFSN + 0..CWmin
 * slots for its access category (the AP's EDCA table for a frame from the
 * AP, IEEE 802.11-2020 Table 9-155 for a station's) and the smallest draw
 * goes; ties and a transmitter's own frames keep arrival order; no
 * collisions. One attempt lasts
 *     DIFS + preamble + (len + 4 FCS) * 8 / rate  [+ SIFS + ACK if unicast]
 * with SIFS 10 us (2.4 GHz) / 16 us (5 GHz+), slot 9 us, DIFS = SIFS + 2
 * slots, preamble 192 us for DSSS/CCK rates (1, 2, 5.5, 11 Mb/s) else 20 us,
 * ACK = 14 bytes at 1 Mb/s (CCK data) or 6 Mb/s (OFDM). Rate 0 means 1 Mb/s
 * on 2.4 GHz, 6 Mb/s elsewhere. RX and TX_STATUS go out when an attempt's
 * airtime ends.
 *
 * Reception. At the end of an attempt every other radio on the channel with
 * pair signal > MEDIUM_NO_SIGNAL_MBM receives it unless the pair's loss
 * roll (per attempt, seedable PRNG) loses it. A radio receives a frame once:
 * a retry is delivered only to radios that missed the earlier attempts, with
 * the Retry bit set, as a receiver's duplicate filter would leave it.
 *
 * ACK. A frame with a unicast addr1 and without MEDIUM_TX_NO_ACK is ACKed
 * when a radio owning addr1 (HELLO or RADIO_ADDR address) received it;
 * otherwise it is retried up to retry_limit times. TX_STATUS (always sent,
 * after the last attempt):
 *   unicast:                acked = got an ACK, attempts = attempts used
 *   group addressed (or a frame shorter than FC+duration+addr1), with or
 *   without MEDIUM_TX_NO_ACK: acked = 1, attempts = 1 (no ACK exists)
 *   unicast MEDIUM_TX_NO_ACK: acked = 0, attempts = 1 (sent once, no ACK
 *                           asked for; the radio may ignore this status)
 * A frame from a radio that is off channel (freq 0), or beyond 1024 frames
 * waiting for one channel, is refused at once with acked = 0, attempts = 0.
 * Retry limits above 254 count as 254 (attempts must fit a u8).
 *
 * Signal. SET_LINK pair entry (symmetric, keyed by HELLO addresses so it may
 * be set before the radios attach), else log-distance path loss when both
 * radios have a position, else MEDIUM_DEFAULT_SIGNAL_MBM. Loss: the pair
 * entry's, else the default loss.
 *
 * Capture. One pcap record per attempt on the air (the transmitter's view),
 * radiotap: flags (no FCS), rate, channel, and dBm signal = the strongest
 * signal at any radio that heard the attempt, or MEDIUM_DEFAULT_SIGNAL_MBM
 * when nobody did (injected frames: their given signal).
 *
 * Faults apply to radio TX frames when the medium accepts them: DROP puts the
 * frame on the air (airtime, capture, retries) but no radio receives it, so
 * a unicast one ends acked = 0 after retry_limit + 1 attempts;
 * DELAY holds it param ms before it joins the channel queue; CORRUPT XORs
 * byte param (or the last byte) with 0xff before it goes on the air;
 * DUPLICATE sends a byte-identical copy right after it (no status for the
 * copy).
 *
 * Disconnect. A radio that goes away is detached at once: messages queued
 * to it are dropped, and its frames that have not finished their airtime are
 * cancelled (never delivered, no status).
 */

#endif
