/* The medium with fake radios on raw sockets: who hears what, ACKs and
 * retries, loss, range, positions, airtime, robustness against garbage and
 * disconnects. */
#include "tests/unit/test_medium_fixture.h"

#include "daemon/core/loop.h"
#include "drivers/sim/medium-internal.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const uint8_t A[6] = { 0x02, 0, 0, 0, 0, 0x0a };
static const uint8_t B[6] = { 0x02, 0, 0, 0, 0, 0x0b };
static const uint8_t C[6] = { 0x02, 0, 0, 0, 0, 0x0c };
static const uint8_t NOBODY[6] = { 0x02, 0, 0, 0, 0, 0xee };

static struct mfix fx;

static void setup(void)
{
	mfix_setup(&fx);
}

static void teardown(void)
{
	mfix_teardown(&fx);
}

static struct medium_stats stats(void)
{
	struct medium_stats st;
	medium_get_stats(fx.m, &st);
	return st;
}

START_TEST(hello_gets_welcome_and_counts)
{
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 0);
	ck_assert_uint_eq(stats().radios, 2);
	close(a);
	close(b);
	mfix_run(&fx, 5);
	ck_assert_uint_eq(stats().radios, 0);
}
END_TEST

START_TEST(delivers_to_same_channel_only)
{
	uint8_t frame[64];
	struct mrecv r;
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	int c = mfix_radio(&fx, C, 2437);
	size_t len = mfix_data_frame(frame, mfix_bcast, A, 1, 20);

	struct medium_msg st = mfix_tx_wait(&fx, a, 7, 3, frame, len);
	ck_assert_uint_eq(st.u.tx_status.acked, 1); /* group: acked after airtime */
	ck_assert_uint_eq(st.u.tx_status.attempts, 1);
	ck_assert(mfix_recv(&fx, b, &r, 100));
	ck_assert_int_eq(r.msg.type, MEDIUM_MSG_RX);
	ck_assert_uint_eq(r.msg.u.rx.freq_mhz, 2412);
	ck_assert_int_eq(r.msg.u.rx.signal_mbm, MEDIUM_DEFAULT_SIGNAL_MBM);
	ck_assert_uint_eq(r.msg.u.rx.rate_100kbps, 540);
	ck_assert_uint_eq(r.msg.frame_len, len);
	ck_assert_mem_eq(r.msg.frame, frame, len);
	mfix_run(&fx, 5);
	ck_assert(mfix_quiet(b));
	ck_assert(mfix_quiet(c)); /* other channel */
	ck_assert(mfix_quiet(a)); /* never its own frame */
	close(a);
	close(b);
	close(c);
}
END_TEST

START_TEST(unicast_to_present_radio_is_acked)
{
	uint8_t frame[64];
	struct mrecv r;
	int a = mfix_radio(&fx, A, 5180);
	int b = mfix_radio(&fx, B, 5180);
	size_t len = mfix_data_frame(frame, B, A, 2, 10);

	struct medium_msg st = mfix_tx_wait(&fx, a, 8, 3, frame, len);
	ck_assert_uint_eq(st.u.tx_status.acked, 1);
	ck_assert_uint_eq(st.u.tx_status.attempts, 1);
	ck_assert(mfix_recv(&fx, b, &r, 100));
	ck_assert_mem_eq(r.msg.frame, frame, len);
	ck_assert_uint_eq(stats().frames_acked, 1);
	close(a);
	close(b);
}
END_TEST

/* Nobody owns addr1: every attempt goes out, a bystander hears it once. */
START_TEST(unicast_to_nobody_retries_to_limit)
{
	uint8_t frame[64];
	struct mrecv r;
	int a = mfix_radio(&fx, A, 2412);
	int c = mfix_radio(&fx, C, 2412);
	size_t len = mfix_data_frame(frame, NOBODY, A, 3, 10);

	struct medium_msg st = mfix_tx_wait(&fx, a, 9, 4, frame, len);
	ck_assert_uint_eq(st.u.tx_status.acked, 0);
	ck_assert_uint_eq(st.u.tx_status.attempts, 5);
	ck_assert_uint_eq(stats().retries, 4);
	ck_assert(mfix_recv(&fx, c, &r, 100));
	ck_assert_mem_eq(r.msg.frame, frame, len);
	ck_assert(mfix_quiet(c)); /* no duplicate from the retries */
	close(a);
	close(c);
}
END_TEST

START_TEST(out_of_range_hears_nothing_and_no_ack)
{
	uint8_t frame[64];
	ck_assert_int_eq(medium_set_link(fx.m, A, B, MEDIUM_NO_SIGNAL_MBM, 0), 0);
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	size_t len = mfix_data_frame(frame, B, A, 4, 10);

	struct medium_msg st = mfix_tx_wait(&fx, a, 10, 2, frame, len);
	ck_assert_uint_eq(st.u.tx_status.acked, 0);
	ck_assert_uint_eq(st.u.tx_status.attempts, 3);
	len = mfix_data_frame(frame, mfix_bcast, A, 5, 10);
	mfix_tx_wait(&fx, a, 11, 2, frame, len);
	mfix_run(&fx, 2);
	ck_assert(mfix_quiet(b));
	ck_assert_uint_eq(stats().frames_lost, 4);
	close(a);
	close(b);
}
END_TEST

/* Links are keyed by address: set before the radios attach, symmetric. */
START_TEST(link_signal_is_reported_both_ways)
{
	uint8_t frame[64];
	struct mrecv r;
	ck_assert_int_eq(medium_set_link(fx.m, B, A, -6150, 0), 0);
	ck_assert_int_eq(medium_set_link(fx.m, A, C, -3000, 101), -EINVAL);
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	size_t len = mfix_data_frame(frame, mfix_bcast, A, 6, 4);

	mfix_tx_wait(&fx, a, 1, 0, frame, len);
	ck_assert(mfix_recv(&fx, b, &r, 100));
	ck_assert_int_eq(r.msg.u.rx.signal_mbm, -6150);
	len = mfix_data_frame(frame, A, B, 7, 4);
	ck_assert_uint_eq(mfix_tx_wait(&fx, b, 2, 0, frame, len).u.tx_status.acked, 1);
	ck_assert(mfix_recv(&fx, a, &r, 100));
	ck_assert_int_eq(r.msg.u.rx.signal_mbm, -6150);
	close(a);
	close(b);
}
END_TEST

START_TEST(total_loss_never_delivers)
{
	uint8_t frame[64];
	ck_assert_int_eq(medium_set_link(fx.m, A, B, -5000, 100), 0);
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);

	for (uint16_t i = 0; i < 5; i++) {
		size_t len = mfix_data_frame(frame, i % 2 ? B : mfix_bcast, A, i, 8);
		struct medium_msg st = mfix_tx_wait(&fx, a, i + 1, 3, frame, len);
		ck_assert_uint_eq(st.u.tx_status.acked, i % 2 ? 0 : 1);
	}
	mfix_run(&fx, 2);
	ck_assert(mfix_quiet(b));
	close(a);
	close(b);
}
END_TEST

/* Runs 30 unicast frames over a 50% link; returns the attempts of each. */
static void lossy_run(uint64_t seed, uint8_t attempts[30], int *received, int *acked)
{
	uint8_t frame[64];
	medium_set_seed(fx.m, seed);
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);

	*received = *acked = 0;
	for (uint16_t i = 0; i < 30; i++) {
		size_t len = mfix_data_frame(frame, B, A, i, 8);
		struct medium_msg st = mfix_tx_wait(&fx, a, i + 1, 7, frame, len);
		attempts[i] = st.u.tx_status.attempts;
		*acked += st.u.tx_status.acked;
		*received += mfix_drain_rx(b);
	}
	close(a);
	close(b);
	mfix_run(&fx, 2);
}

START_TEST(half_loss_retries_reproducibly)
{
	uint8_t first[30], second[30];
	int received, acked, received2, acked2, retried = 0;

	ck_assert_int_eq(medium_set_link(fx.m, A, B, -5000, 50), 0);
	lossy_run(42, first, &received, &acked);
	for (int i = 0; i < 30; i++)
		retried += first[i] > 1;
	ck_assert_int_gt(retried, 3);
	ck_assert_int_lt(retried, 30);
	/* Each frame reached B at most once, and exactly when it was ACKed. */
	ck_assert_int_eq(received, acked);
	lossy_run(42, second, &received2, &acked2);
	ck_assert_mem_eq(first, second, sizeof(first));
	ck_assert_int_eq(received2, received);
}
END_TEST

START_TEST(default_loss_applies_without_a_link)
{
	uint8_t frame[64];
	ck_assert_int_eq(medium_set_default_loss(fx.m, 101), -EINVAL);
	ck_assert_int_eq(medium_set_default_loss(fx.m, 100), 0);
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	size_t len = mfix_data_frame(frame, B, A, 1, 8);
	ck_assert_uint_eq(mfix_tx_wait(&fx, a, 1, 1, frame, len).u.tx_status.acked, 0);
	ck_assert(mfix_quiet(b));
	close(a);
	close(b);
}
END_TEST

START_TEST(broadcast_reaches_every_radio)
{
	enum { N = 40 };
	int fds[N];
	uint8_t addr[6] = { 0x02, 0, 0, 0, 1, 0 }, frame[128];
	struct mrecv r;
	int ap = mfix_radio(&fx, A, 2462);

	for (int i = 0; i < N; i++) {
		addr[5] = (uint8_t)i;
		fds[i] = mfix_radio(&fx, addr, 2462);
	}
	size_t len = mfix_beacon(frame, A, "many");
	mfix_tx_wait(&fx, ap, 1, 0, frame, len);
	for (int i = 0; i < N; i++) {
		ck_assert_msg(mfix_recv(&fx, fds[i], &r, 100), "radio %d missed it", i);
		ck_assert_mem_eq(r.msg.frame, frame, len);
		close(fds[i]);
	}
	ck_assert_uint_eq(stats().frames_delivered, N);
	close(ap);
}
END_TEST

/* Real time, for the one case that measures the medium's own cost (the
 * fixture's loop runs on the virtual clock). */
static uint64_t wall_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* 200 radios and one AP beaconing: the medium's part must stay cheap. */
START_TEST(two_hundred_radios_one_beaconing_ap)
{
	enum { N = 200, BEACONS = 50 };
	int fds[N];
	uint8_t addr[6] = { 0x02, 0, 0, 0, 2, 0 }, frame[128];
	int ap = mfix_radio(&fx, A, 2412);

	for (int i = 0; i < N; i++) {
		addr[4] = (uint8_t)(2 + i / 256);
		addr[5] = (uint8_t)i;
		fds[i] = mfix_radio(&fx, addr, 2412);
	}
	size_t len = mfix_beacon(frame, A, "crowd");
	uint64_t start = loop_now_us(fx.loop), wall_start = wall_us();
	for (int b = 0; b < BEACONS; b++) {
		mfix_tx_wait(&fx, ap, (uint64_t)b + 1, 0, frame, len);
		for (int i = 0; i < N; i++)
			ck_assert_int_eq(mfix_drain_rx(fds[i]), 1);
	}
	/* The loop's (virtual) clock saw the airtime, one beacon after the
	 * other; the real clock sees the medium's work plus the test reading
	 * 200 sockets, which is what must stay cheap. */
	uint64_t airtime = medium_airtime_us(2412, 540, len, false);
	ck_assert_uint_ge(loop_now_us(fx.loop) - start, BEACONS * airtime);
	uint64_t elapsed = wall_us() - wall_start;
	ck_assert_msg(elapsed < 3000000, "%d beacons to %d radios took %llu us", BEACONS, N,
		      (unsigned long long)elapsed);
	ck_assert_uint_eq(stats().frames_delivered, (uint64_t)N * BEACONS);
	for (int i = 0; i < N; i++)
		close(fds[i]);
	close(ap);
}
END_TEST

/* The path loss model computed without libm gives what the documented
 * formula gives through libm's log10, to the mBm. */
START_TEST(path_loss_matches_the_formula)
{
	static const uint32_t freqs[] = { 0, 2412, 2484, 5180, 5885, 5955, 7115 };
	for (size_t i = 0; i < sizeof(freqs) / sizeof(freqs[0]); i++) {
		double f = freqs[i] ? freqs[i] : 2437;
		for (double d = 0.25; d < 2000.0; d *= 1.0173) {
			double dbm = 20.0 - (20.0 * log10(f) - 27.55) - 30.0 * log10(d < 1 ? 1 : d);
			double want = floor(dbm * 100.0 + 0.5);
			if (want <= MEDIUM_NO_SIGNAL_MBM)
				want = MEDIUM_NO_SIGNAL_MBM;
			ck_assert_int_eq(medium_path_signal_mbm(d, freqs[i]), (int32_t)want);
		}
	}
}
END_TEST

START_TEST(positions_give_path_loss)
{
	uint8_t frame[64];
	struct mrecv r;
	ck_assert_int_eq(medium_set_position(fx.m, A, 0, 0), 0);
	ck_assert_int_eq(medium_set_position(fx.m, B, 1000, 0), 0);     /* 10 m */
	ck_assert_int_eq(medium_set_position(fx.m, C, 0, 100000), 0);   /* 1 km */
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	int c = mfix_radio(&fx, C, 2412);
	size_t len = mfix_data_frame(frame, mfix_bcast, A, 1, 8);

	mfix_tx_wait(&fx, a, 1, 0, frame, len);
	ck_assert(mfix_recv(&fx, b, &r, 100));
	/* 20 dBm - 40.1 dB (1 m at 2412 MHz) - 30 dB (10 m, exponent 3) */
	ck_assert_int_eq(r.msg.u.rx.signal_mbm, medium_path_signal_mbm(10.0, 2412));
	ck_assert_int_ge(r.msg.u.rx.signal_mbm, -5020);
	ck_assert_int_le(r.msg.u.rx.signal_mbm, -5000);
	ck_assert(mfix_quiet(c));
	ck_assert_int_eq(medium_path_signal_mbm(1000.0, 2412), MEDIUM_NO_SIGNAL_MBM);
	ck_assert_int_eq(medium_path_signal_mbm(0.1, 2412), medium_path_signal_mbm(1.0, 2412));
	/* An explicit link wins over positions. */
	ck_assert_int_eq(medium_set_link(fx.m, A, C, -7000, 0), 0);
	mfix_tx_wait(&fx, a, 2, 0, frame, len);
	ck_assert(mfix_recv(&fx, c, &r, 100));
	ck_assert_int_eq(r.msg.u.rx.signal_mbm, -7000);
	close(a);
	close(b);
	close(c);
}
END_TEST

START_TEST(airtime_model_numbers)
{
	/* 100 bytes + FCS at 1 Mb/s: DIFS 28 + preamble 192 + 832 */
	ck_assert_uint_eq(medium_airtime_us(2412, 10, 100, false), 1052);
	/* + SIFS 10 + ACK (192 + 112) */
	ck_assert_uint_eq(medium_airtime_us(2412, 10, 100, true), 1052 + 10 + 304);
	/* 5 GHz, rate 0 = 6 Mb/s: DIFS 34 + 20 + ceil(832 / 6) = 139 */
	ck_assert_uint_eq(medium_airtime_us(5180, 0, 100, false), 34 + 20 + 139);
	ck_assert_uint_eq(medium_effective_rate(2412, 0), 10);
	ck_assert_uint_eq(medium_effective_rate(5180, 0), 60);
	ck_assert_uint_eq(medium_effective_rate(5180, 3), 10);
}
END_TEST

/* Two senders on one channel: the second frame waits for the first. */
START_TEST(channel_serializes_transmissions)
{
	uint8_t frame[1600];
	struct mrecv r;
	int a = mfix_radio(&fx, A, 2412);
	int c = mfix_radio(&fx, C, 2412);
	int b = mfix_radio(&fx, B, 2412);
	size_t len = mfix_data_frame(frame, mfix_bcast, A, 1, 1400);
	uint64_t one = medium_airtime_us(2412, 10, len, false);
	uint64_t start = loop_now_us(fx.loop);

	mfix_tx(a, 1, 0, 0, 10, frame, len);
	mfix_tx(c, 2, 0, 0, 10, frame, len);
	ck_assert(mfix_recv_type(&fx, a, MEDIUM_MSG_TX_STATUS, &r, 1000));
	ck_assert_uint_ge(loop_now_us(fx.loop) - start, one);
	ck_assert(mfix_recv_type(&fx, c, MEDIUM_MSG_TX_STATUS, &r, 1000));
	ck_assert_uint_ge(loop_now_us(fx.loop) - start, 2 * one);
	ck_assert_int_eq(mfix_drain_rx(b), 2);
	close(a);
	close(b);
	close(c);
}
END_TEST

/* An Authentication frame ta -> ra in the BSS bssid (24-octet header,
 * algorithm, transaction, status). */
static size_t auth_frame(uint8_t *buf, const uint8_t ra[6], const uint8_t ta[6],
			 const uint8_t bssid[6])
{
	memset(buf, 0, 30);
	buf[0] = 0xb0; /* management, Authentication */
	memcpy(buf + 4, ra, 6);
	memcpy(buf + 10, ta, 6);
	memcpy(buf + 16, bssid, 6);
	buf[26] = 1; /* transaction 1 */
	return 30;
}

/* Frames waiting for the channel contend as EDCA has them (medium-edca.c):
 * the AP's management frame (AC_VO, the AP's AIFSN 1) against twenty
 * stations' (AC_VO, AIFSN 2) queued before it goes out among the first,
 * not last as in arrival order; the stations' own frames all go too. */
START_TEST(ap_frame_contends_with_the_ap_edca_parameters)
{
	enum { STAS = 20 };
	uint8_t frame[1600], addr[STAS][6];
	struct mrecv r;
	int sta[STAS];
	int ap = mfix_radio(&fx, A, 2412);
	int mon = mfix_radio(&fx, C, 2412);
	for (int i = 0; i < STAS; i++) {
		memcpy(addr[i], B, 6);
		addr[i][4] = (uint8_t)(i + 1);
		sta[i] = mfix_radio(&fx, addr[i], 2412);
	}
	/* One long frame holds the channel while the others queue up. */
	size_t len = mfix_data_frame(frame, mfix_bcast, C, 1, 1400);
	mfix_tx(mon, 1, 0, 0, 10, frame, len);
	mfix_run(&fx, 1);
	for (int i = 0; i < STAS; i++) {
		len = auth_frame(frame, A, addr[i], A);
		mfix_tx(sta[i], 10 + (uint64_t)i, MEDIUM_TX_NO_ACK, 0, 10, frame, len);
		mfix_run(&fx, 0);
	}
	len = auth_frame(frame, B, A, A); /* the AP: its own BSSID */
	mfix_tx(ap, 99, MEDIUM_TX_NO_ACK, 0, 10, frame, len);
	int ap_at = -1, heard = 0;
	while (heard < STAS + 1 && mfix_recv_type(&fx, mon, MEDIUM_MSG_RX, &r, 1000)) {
		if (r.msg.frame_len >= 16 && memcmp(r.msg.frame + 10, A, 6) == 0)
			ap_at = heard;
		heard++;
	}
	ck_assert_int_eq(heard, STAS + 1);
	ck_assert_int_ge(ap_at, 0);
	ck_assert_msg(ap_at < STAS / 2, "the AP's frame went out %dth of %d", ap_at + 1,
		      STAS + 1);
	close(ap);
	close(mon);
	for (int i = 0; i < STAS; i++)
		close(sta[i]);
}
END_TEST

START_TEST(no_ack_flag_and_off_channel_status)
{
	uint8_t frame[64];
	struct mrecv r;
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	int off = mfix_radio(&fx, C, 0);
	size_t len = mfix_data_frame(frame, B, A, 1, 8);

	mfix_tx(a, 5, MEDIUM_TX_NO_ACK, 7, 0, frame, len);
	ck_assert(mfix_recv_type(&fx, a, MEDIUM_MSG_TX_STATUS, &r, 1000));
	ck_assert_uint_eq(r.msg.u.tx_status.acked, 0);
	ck_assert_uint_eq(r.msg.u.tx_status.attempts, 1);
	ck_assert_int_eq(mfix_drain_rx(b), 1);
	mfix_tx(off, 6, 0, 7, 0, frame, len);
	ck_assert(mfix_recv_type(&fx, off, MEDIUM_MSG_TX_STATUS, &r, 1000));
	ck_assert_uint_eq(r.msg.u.tx_status.cookie, 6);
	ck_assert_uint_eq(r.msg.u.tx_status.acked, 0);
	ck_assert_uint_eq(r.msg.u.tx_status.attempts, 0);
	close(a);
	close(b);
	close(off);
}
END_TEST

START_TEST(extra_radio_address_is_acked)
{
	static const uint8_t VIF[6] = { 0x06, 0, 0, 0, 0, 0x0b };
	uint8_t frame[64];
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	struct medium_msg add = { .type = MEDIUM_MSG_RADIO_ADDR };
	memcpy(add.u.radio_addr.addr, VIF, 6);
	add.u.radio_addr.add = 1;
	mfix_send(b, &add);
	size_t len = mfix_data_frame(frame, VIF, A, 1, 8);

	ck_assert_uint_eq(mfix_tx_wait(&fx, a, 1, 2, frame, len).u.tx_status.acked, 1);
	add.u.radio_addr.add = 0;
	mfix_send(b, &add);
	ck_assert_uint_eq(mfix_tx_wait(&fx, a, 2, 2, frame, len).u.tx_status.acked, 0);
	close(a);
	close(b);
}
END_TEST

/* Undecodable or misdirected datagrams are counted; the client lives on. */
START_TEST(garbage_is_counted_not_fatal)
{
	static const uint8_t junk[] = { 0xde, 0xad, 0xbe, 0xef, 0x00 };
	static const uint8_t short_hdr[] = { MEDIUM_PROTO_VERSION, MEDIUM_MSG_TX };
	static const uint8_t bad_type[] = { MEDIUM_PROTO_VERSION, 200, 0, 0 };
	static uint8_t huge[MEDIUM_MAX_MSG + 100];
	struct medium_msg rx = { .type = MEDIUM_MSG_RX, .frame = junk, .frame_len = 5 };
	uint8_t frame[64] = { 0 };
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	int ctl = medium_connect_local(fx.m);

	mfix_send_raw(a, junk, sizeof(junk));
	mfix_send_raw(a, short_hdr, sizeof(short_hdr));
	mfix_send_raw(a, bad_type, sizeof(bad_type));
	mfix_send_raw(a, huge, sizeof(huge)); /* longer than any message */
	mfix_send_raw(a, junk, 0);            /* an empty datagram */
	mfix_send(a, &rx);                    /* only the medium sends RX */
	mfix_tx(ctl, 1, 0, 0, 0, frame, 30);  /* TX before HELLO */
	mfix_run(&fx, 5);
	ck_assert_uint_eq(stats().bad_messages, 7);
	ck_assert_uint_eq(stats().radios, 2);
	size_t len = mfix_data_frame(frame, B, A, 1, 8);
	ck_assert_uint_eq(mfix_tx_wait(&fx, a, 3, 0, frame, len).u.tx_status.acked, 1);
	ck_assert_int_eq(mfix_drain_rx(b), 1);
	close(a);
	close(b);
	close(ctl);
}
END_TEST

/* A sender vanishes with a frame on the air and more queued: nothing of
 * it is delivered, the channel moves on, the others keep working. */
START_TEST(sender_disconnect_cancels_its_frames)
{
	uint8_t frame[1600];
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	int c = mfix_radio(&fx, C, 2412);
	size_t len = mfix_data_frame(frame, NOBODY, A, 1, 1400);

	for (int i = 0; i < 5; i++)
		mfix_tx(a, (uint64_t)i + 1, 0, 15, 10, frame, len);
	mfix_run(&fx, 2); /* the first is on the air now: ~12 ms per attempt */
	close(a);
	mfix_run(&fx, 5);
	ck_assert_uint_eq(stats().radios, 2);
	ck_assert_int_eq(mfix_drain_rx(b), 0);
	len = mfix_data_frame(frame, B, C, 2, 8);
	ck_assert_uint_eq(mfix_tx_wait(&fx, c, 9, 0, frame, len).u.tx_status.acked, 1);
	ck_assert_int_eq(mfix_drain_rx(b), 1);
	close(b);
	close(c);
}
END_TEST

/* Sends n group-addressed data frames from fd in batches, waiting for each
 * batch's statuses, so neither our socket nor the channel queue fills. */
static void send_batches(int fd, const uint8_t *sa, int n, size_t payload)
{
	static uint8_t frame[MEDIUM_MAX_FRAME];
	struct mrecv r;

	for (int i = 0; i < n; i += 50) {
		for (int k = i; k < n && k < i + 50; k++) {
			size_t len = mfix_data_frame(frame, mfix_bcast, sa, (uint16_t)k, payload);
			mfix_tx(fd, (uint64_t)k + 1, 0, 0, 540, frame, len);
		}
		for (int k = i; k < n && k < i + 50; k++)
			ck_assert(mfix_recv_type(&fx, fd, MEDIUM_MSG_TX_STATUS, &r, 2000));
	}
}

/* A receiver that stops reading backs up into its send queue (beyond the
 * socket buffer) and later gets everything in order; one that goes away
 * with messages queued is detached without disturbing anyone. */
START_TEST(slow_and_vanishing_receivers)
{
	enum { FRAMES = 2000 }; /* ~2.9 MB: more than any socket buffer here */
	struct mrecv r;
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	int c = mfix_radio(&fx, C, 2412);

	send_batches(a, A, FRAMES, 1400);
	close(c); /* never read a thing */
	for (int i = 0; i < FRAMES; i++) {
		ck_assert_msg(mfix_recv(&fx, b, &r, 1000), "frame %d missing", i);
		ck_assert_uint_eq(r.msg.frame[22] >> 4 | r.msg.frame[23] << 4, i & 0xfff);
	}
	mfix_run(&fx, 2);
	ck_assert_uint_eq(stats().radios, 2);
	ck_assert_uint_eq(stats().rx_overflow, 0);
	ck_assert_uint_eq(stats().frames_delivered, 2 * FRAMES);
	close(a);
	close(b);
}
END_TEST

/* Past its queue limit a receiver loses the newest messages, counted; what
 * it gets is an in-order prefix, and once it reads again frames flow. */
START_TEST(overflowing_receiver_drops_newest)
{
	/* The queue plus a 2 MB socket buffer of small messages, and more. */
	enum { FRAMES = MEDIUM_CLIENT_QUEUE_MAX * 2 + 2048 };
	struct mrecv r;
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	int got = 0;

	send_batches(a, A, FRAMES, 40);
	uint64_t dropped = stats().rx_overflow;
	ck_assert_uint_gt(dropped, 0);
	while (mfix_recv(&fx, b, &r, 50)) {
		ck_assert_uint_eq(r.msg.frame[22] >> 4 | r.msg.frame[23] << 4, got & 0xfff);
		got++;
	}
	ck_assert_uint_eq((uint64_t)got + dropped, FRAMES);
	send_batches(a, A, 1, 10);
	ck_assert(mfix_recv(&fx, b, &r, 100));
	close(a);
	close(b);
}
END_TEST

/* A radio cannot grow the channel table without end; the medium is freed
 * with frames on the air, queued and held by a delay (no leak: valgrind). */
START_TEST(channel_limit_and_teardown_with_frames_pending)
{
	struct medium_fault_spec f = { .frame_type = MEDIUM_FAULT_ANY_TYPE, .nth = 3, .count = 5,
				       .action = MEDIUM_FAULT_DELAY, .param = 10000,
				       .source = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
	struct medium_msg ch = { .type = MEDIUM_MSG_SET_CHANNEL };
	uint8_t frame[1600];
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 0);

	for (uint32_t i = 0; i < MEDIUM_MAX_CHANNELS + 20; i++) {
		ch.u.set_channel.freq_mhz = 4000 + i;
		mfix_send(b, &ch);
	}
	mfix_run(&fx, 5);
	ck_assert_uint_eq(fx.m->n_chans, MEDIUM_MAX_CHANNELS);
	ck_assert_int_eq(medium_inject(fx.m, 7000, -5000, frame, 10), -ENOSPC);
	ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	memset(frame, 0, sizeof(frame));
	size_t len = mfix_data_frame(frame, mfix_bcast, A, 1, 1400);
	for (int i = 0; i < 8; i++)
		mfix_tx(a, (uint64_t)i + 1, 0, 0, 10, frame, len);
	mfix_run(&fx, 3);
	ck_assert_uint_eq(fx.m->delayed.count, 6);
	ck_assert_uint_eq(fx.m->chans[0]->queue.count, 2);
	close(a);
	close(b);
	/* teardown frees the medium with all of that pending */
}
END_TEST

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random message: raw bytes, a valid header over random bytes, or a
 * well-formed message of a random type with random field values. CAPTURE
 * is left out: it would create files with random names. */
static size_t random_datagram(uint64_t *s, uint8_t *buf)
{
	static const uint8_t types[] = { 1, 2, 3, 4, 16, 17, 18, 32, 33, 34, 36, 37, 38, 39, 48, 49 };
	size_t len = rnd(s) % 96;

	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)rnd(s);
	if (rnd(s) % 3 == 0)
		return len;
	buf[0] = MEDIUM_PROTO_VERSION;
	buf[1] = types[rnd(s) % sizeof(types)];
	buf[2] = buf[3] = 0;
	if (rnd(s) % 2 == 0 && len >= 4)
		return len;
	struct medium_msg msg;
	memset(&msg, 0, sizeof(msg));
	for (size_t i = 0; i < sizeof(msg.u); i++)
		((uint8_t *)&msg.u)[i] = (uint8_t)rnd(s);
	msg.type = (enum medium_msg_type)buf[1];
	msg.u.hello.name[3] = '\0';
	msg.frame = buf + 128;
	msg.frame_len = 1 + rnd(s) % 300;
	for (size_t i = 0; i < msg.frame_len; i++)
		buf[128 + i] = (uint8_t)rnd(s);
	uint8_t out[MEDIUM_MAX_MSG];
	int n = medium_msg_encode(&msg, out, sizeof(out));
	ck_assert_int_gt(n, 0);
	memcpy(buf, out, (size_t)n);
	return (size_t)n;
}

/* Thousands of random datagrams from radios, control clients and fresh
 * connections; then the medium must still work normally. */
START_TEST(random_datagrams_never_hurt)
{
	static uint8_t buf[MEDIUM_MAX_MSG + 512];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	uint8_t frame[64];
	int fds[4] = { mfix_radio(&fx, A, 2412), mfix_radio(&fx, B, 2412), mfix_control(&fx),
		       medium_connect_local(fx.m) };

	for (int i = 0; i < 3000; i++) {
		size_t len = random_datagram(&seed, buf);
		int k = (int)(rnd(&seed) % 4);
		if (send(fds[k], buf, len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
			mfix_run(&fx, 1);
			continue;
		}
		if (i % 50 == 0) {
			mfix_run(&fx, 1);
			for (int j = 0; j < 4; j++)
				while (mfix_recv(&fx, fds[j], &(struct mrecv){ 0 }, 0))
					;
		}
		if (i % 500 == 0) { /* a client comes and goes */
			close(fds[3]);
			fds[3] = medium_connect_local(fx.m);
		}
	}
	for (int j = 0; j < 4; j++)
		close(fds[j]);
	mfix_run(&fx, 2);
	ck_assert_uint_gt(stats().bad_messages, 500);
	medium_clear_faults(fx.m);
	int c = mfix_radio(&fx, C, 5805);
	int d = mfix_radio(&fx, NOBODY, 5805);
	size_t len = mfix_data_frame(frame, NOBODY, C, 1, 8);
	ck_assert_uint_eq(mfix_tx_wait(&fx, c, 1, 0, frame, len).u.tx_status.acked, 1);
	close(c);
	close(d);
}
END_TEST

static uint32_t stats_radios_of(const struct medium *m)
{
	struct medium_stats st;
	medium_get_stats(m, &st);
	return st.radios;
}

START_TEST(served_in_a_folder)
{
	char dir[] = "/tmp/wpad-medium-test-XXXXXX";
	char nested[64];
	int err = 0;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(nested, sizeof(nested), "%s/a/b", dir);
	struct medium *m = medium_new(fx.loop, nested, &err);
	ck_assert_ptr_nonnull(m);
	/* A second medium on the same folder is refused. */
	ck_assert_ptr_null(medium_new(fx.loop, nested, &err));
	ck_assert_int_eq(err, -EADDRINUSE);
	int fd = medium_connect_path(nested);
	ck_assert_int_ge(fd, 0);
	struct medium_msg hello = { .type = MEDIUM_MSG_HELLO };
	memcpy(hello.u.hello.addr, A, 6);
	mfix_send(fd, &hello);
	for (int i = 0; i < 100 && !stats_radios_of(m); i++)
		loop_iterate(fx.loop, 5);
	close(fd);
	medium_free(m);
	ck_assert_int_lt(medium_connect_path(nested), 0); /* socket removed */
	snprintf(nested, sizeof(nested), "%s/a/b", dir);
	rmdir(nested);
	snprintf(nested, sizeof(nested), "%s/a", dir);
	rmdir(nested);
	rmdir(dir);
}
END_TEST

Suite *make_medium_suite(void)
{
	Suite *s = suite_create("medium");
	TCase *tc = tcase_create("air");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, hello_gets_welcome_and_counts);
	tcase_add_test(tc, ap_frame_contends_with_the_ap_edca_parameters);
	tcase_add_test(tc, path_loss_matches_the_formula);
	tcase_add_test(tc, delivers_to_same_channel_only);
	tcase_add_test(tc, unicast_to_present_radio_is_acked);
	tcase_add_test(tc, unicast_to_nobody_retries_to_limit);
	tcase_add_test(tc, out_of_range_hears_nothing_and_no_ack);
	tcase_add_test(tc, link_signal_is_reported_both_ways);
	tcase_add_test(tc, total_loss_never_delivers);
	tcase_add_test(tc, half_loss_retries_reproducibly);
	tcase_add_test(tc, default_loss_applies_without_a_link);
	tcase_add_test(tc, broadcast_reaches_every_radio);
	tcase_add_test(tc, two_hundred_radios_one_beaconing_ap);
	tcase_add_test(tc, positions_give_path_loss);
	tcase_add_test(tc, airtime_model_numbers);
	tcase_add_test(tc, channel_serializes_transmissions);
	tcase_add_test(tc, no_ack_flag_and_off_channel_status);
	tcase_add_test(tc, extra_radio_address_is_acked);
	suite_add_tcase(s, tc);
	tc = tcase_create("robustness");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, garbage_is_counted_not_fatal);
	tcase_add_test(tc, sender_disconnect_cancels_its_frames);
	tcase_add_test(tc, slow_and_vanishing_receivers);
	tcase_add_test(tc, overflowing_receiver_drops_newest);
	tcase_add_test(tc, served_in_a_folder);
	tcase_add_test(tc, random_datagrams_never_hurt);
	tcase_add_test(tc, channel_limit_and_teardown_with_frames_pending);
	suite_add_tcase(s, tc);
	return s;
}
