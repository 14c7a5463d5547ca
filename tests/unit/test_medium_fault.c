/* Fault rules (drop, delay, corrupt, duplicate; matching by type, source,
 * nth and count), frame injection, and the control messages over a socket. */
#include "tests/unit/test_medium_fixture.h"

#include "daemon/core/loop.h"

#include <check.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

static const uint8_t A[6] = { 0x02, 0, 0, 0, 0, 0x0a };
static const uint8_t B[6] = { 0x02, 0, 0, 0, 0, 0x0b };
static const uint8_t C[6] = { 0x02, 0, 0, 0, 0, 0x0c };

static struct mfix fx;
static int ra, rb, rc;

static void setup(void)
{
	mfix_setup(&fx);
	ra = mfix_radio(&fx, A, 2412);
	rb = mfix_radio(&fx, B, 2412);
	rc = mfix_radio(&fx, C, 2412);
}

static void teardown(void)
{
	close(ra);
	close(rb);
	close(rc);
	mfix_teardown(&fx);
}

static struct medium_fault_spec rule(uint16_t type, uint32_t nth, uint32_t count, uint8_t action,
				     uint32_t param)
{
	struct medium_fault_spec f = { .frame_type = type, .nth = nth, .count = count,
				       .action = action, .param = param };
	memset(f.source, 0xff, 6);
	return f;
}

/* Sends data frame seq from fd (group addressed) and waits for its status. */
static void send_seq(int fd, const uint8_t *sa, const uint8_t *da, uint16_t seq)
{
	uint8_t frame[64];
	size_t len = mfix_data_frame(frame, da, sa, seq, 8);
	mfix_tx_wait(&fx, fd, seq, 2, frame, len);
}

/* The sequence numbers B received, in order; returns how many. */
static int received_seqs(int fd, uint16_t *seqs, int max)
{
	struct mrecv r;
	int n = 0;
	while (n < max && mfix_recv(&fx, fd, &r, 20)) {
		ck_assert_int_eq(r.msg.type, MEDIUM_MSG_RX);
		seqs[n++] = (uint16_t)(r.msg.frame[22] >> 4 | r.msg.frame[23] << 4);
	}
	return n;
}

static uint64_t faulted(void)
{
	struct medium_stats st;
	medium_get_stats(fx.m, &st);
	return st.frames_faulted;
}

START_TEST(drop_the_nth_matching_frame)
{
	struct medium_fault_spec f = rule(0x0008, 2, 0, MEDIUM_FAULT_DROP, 0);
	uint16_t seqs[8];

	ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	send_seq(rc, C, mfix_bcast, 100); /* a match too: C's frame is the 1st */
	for (uint16_t i = 1; i <= 3; i++)
		send_seq(ra, A, mfix_bcast, i);
	ck_assert_int_eq(received_seqs(rb, seqs, 8), 3);
	ck_assert_uint_eq(seqs[0], 100);
	ck_assert_uint_eq(seqs[1], 2);
	ck_assert_uint_eq(seqs[2], 3);
	ck_assert_uint_eq(faulted(), 1);
}
END_TEST

START_TEST(dropped_unicast_is_never_acked)
{
	struct medium_fault_spec f = rule(MEDIUM_FAULT_ANY_TYPE, 1, 0, MEDIUM_FAULT_DROP, 0);
	uint8_t frame[64];
	size_t len = mfix_data_frame(frame, B, A, 1, 8);

	ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	struct medium_msg st = mfix_tx_wait(&fx, ra, 1, 3, frame, len);
	ck_assert_uint_eq(st.u.tx_status.acked, 0);
	ck_assert_uint_eq(st.u.tx_status.attempts, 4);
	ck_assert_int_eq(mfix_drain_rx(rb) + mfix_drain_rx(rc), 0);
	/* The rule acted once; the next frame goes through. */
	st = mfix_tx_wait(&fx, ra, 2, 3, frame, len);
	ck_assert_uint_eq(st.u.tx_status.acked, 1);
}
END_TEST

START_TEST(source_and_type_select_frames)
{
	struct medium_fault_spec f = rule(0x0008, 1, 10, MEDIUM_FAULT_DROP, 0);
	uint8_t beacon[64];
	uint16_t seqs[8];
	memcpy(f.source, C, 6);

	ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	send_seq(ra, A, mfix_bcast, 1);   /* other source */
	send_seq(rc, C, mfix_bcast, 2);   /* dropped */
	size_t len = mfix_beacon(beacon, C, "x");
	mfix_tx_wait(&fx, rc, 3, 0, beacon, len); /* other type */
	ck_assert_int_eq(received_seqs(rb, seqs, 8), 2);
	ck_assert_uint_eq(seqs[0], 1);
	ck_assert_uint_eq(faulted(), 1);
	f.frame_type = 0x0081; /* not a type/subtype value */
	ck_assert_int_eq(medium_add_fault(fx.m, &f), -EINVAL);
}
END_TEST

START_TEST(count_extends_the_rule)
{
	struct medium_fault_spec f = rule(MEDIUM_FAULT_ANY_TYPE, 2, 2, MEDIUM_FAULT_DROP, 0);
	uint16_t seqs[8];

	ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	for (uint16_t i = 1; i <= 6; i++)
		send_seq(ra, A, mfix_bcast, i);
	ck_assert_int_eq(received_seqs(rb, seqs, 8), 3);
	ck_assert_uint_eq(seqs[0], 1);
	ck_assert_uint_eq(seqs[1], 5);
	ck_assert_uint_eq(seqs[2], 6);
	ck_assert_uint_eq(faulted(), 3);
}
END_TEST

START_TEST(clear_faults_stops_them)
{
	struct medium_fault_spec f = rule(MEDIUM_FAULT_ANY_TYPE, 1, 100, MEDIUM_FAULT_DROP, 0);
	uint16_t seqs[8];

	ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	send_seq(ra, A, mfix_bcast, 1);
	medium_clear_faults(fx.m);
	send_seq(ra, A, mfix_bcast, 2);
	ck_assert_int_eq(received_seqs(rb, seqs, 8), 1);
	ck_assert_uint_eq(seqs[0], 2);
}
END_TEST

/* The delayed frame is overtaken by the next one and arrives late. */
START_TEST(delay_holds_a_frame)
{
	struct medium_fault_spec f = rule(MEDIUM_FAULT_ANY_TYPE, 1, 0, MEDIUM_FAULT_DELAY, 60);
	uint8_t frame[64];
	struct mrecv r;
	uint64_t start = loop_now_us(fx.loop);

	ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	size_t len = mfix_data_frame(frame, mfix_bcast, A, 1, 8);
	mfix_tx(ra, 1, 0, 0, 540, frame, len);
	len = mfix_data_frame(frame, mfix_bcast, A, 2, 8);
	mfix_tx(ra, 2, 0, 0, 540, frame, len);
	ck_assert(mfix_recv(&fx, rb, &r, 1000));
	ck_assert_uint_eq(r.msg.frame[22] >> 4, 2);
	ck_assert_uint_lt(loop_now_us(fx.loop) - start, 60000);
	ck_assert(mfix_recv(&fx, rb, &r, 1000));
	ck_assert_uint_eq(r.msg.frame[22] >> 4, 1);
	ck_assert_uint_ge(loop_now_us(fx.loop) - start, 60000);
	/* Both statuses come, the delayed one last. */
	ck_assert(mfix_recv_type(&fx, ra, MEDIUM_MSG_TX_STATUS, &r, 100));
	ck_assert_uint_eq(r.msg.u.tx_status.cookie, 2);
	ck_assert(mfix_recv_type(&fx, ra, MEDIUM_MSG_TX_STATUS, &r, 100));
	ck_assert_uint_eq(r.msg.u.tx_status.cookie, 1);
}
END_TEST

START_TEST(corrupt_flips_a_byte)
{
	struct medium_fault_spec f = rule(MEDIUM_FAULT_ANY_TYPE, 1, 0, MEDIUM_FAULT_CORRUPT, 24);
	uint8_t frame[64];
	struct mrecv r;
	size_t len = mfix_data_frame(frame, mfix_bcast, A, 1, 8);

	ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	mfix_tx_wait(&fx, ra, 1, 0, frame, len);
	ck_assert(mfix_recv(&fx, rb, &r, 100));
	ck_assert_uint_eq(r.msg.frame[24], frame[24] ^ 0xff);
	ck_assert_mem_eq(r.msg.frame, frame, 24);
	ck_assert_mem_eq(r.msg.frame + 25, frame + 25, len - 25);
	/* An offset past the end corrupts the last byte. A new rule counts
	 * from the frames after it was added. */
	f = rule(MEDIUM_FAULT_ANY_TYPE, 1, 0, MEDIUM_FAULT_CORRUPT, 100000);
	ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	mfix_tx_wait(&fx, ra, 2, 0, frame, len);
	ck_assert(mfix_recv(&fx, rb, &r, 100));
	ck_assert_uint_eq(r.msg.frame[len - 1], frame[len - 1] ^ 0xff);
	ck_assert_mem_eq(r.msg.frame, frame, len - 1);
}
END_TEST

START_TEST(duplicate_delivers_twice_one_status)
{
	struct medium_fault_spec f = rule(0x0008, 1, 0, MEDIUM_FAULT_DUPLICATE, 0);
	uint8_t frame[64];
	struct mrecv r1, r2, st;
	size_t len = mfix_data_frame(frame, B, A, 9, 8);

	ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	ck_assert_uint_eq(mfix_tx_wait(&fx, ra, 1, 0, frame, len).u.tx_status.acked, 1);
	ck_assert(mfix_recv(&fx, rb, &r1, 100));
	ck_assert(mfix_recv(&fx, rb, &r2, 100));
	ck_assert_uint_eq(r1.len, r2.len);
	ck_assert_mem_eq(r1.buf, r2.buf, r1.len);
	ck_assert_mem_eq(r1.msg.frame, frame, len);
	mfix_run(&fx, 5);
	ck_assert(!mfix_recv(&fx, ra, &st, 5)); /* no status for the copy */
	ck_assert_uint_eq(faulted(), 1);
}
END_TEST

START_TEST(bad_rules_are_refused)
{
	struct medium_fault_spec f = rule(MEDIUM_FAULT_ANY_TYPE, 0, 0, MEDIUM_FAULT_DROP, 0);
	ck_assert_int_eq(medium_add_fault(fx.m, &f), -EINVAL); /* nth is 1-based */
	f = rule(MEDIUM_FAULT_ANY_TYPE, 1, 0, 9, 0);
	ck_assert_int_eq(medium_add_fault(fx.m, &f), -EINVAL);
	f = rule(MEDIUM_FAULT_ANY_TYPE, 1, 0, MEDIUM_FAULT_DELAY, 3600000);
	ck_assert_int_eq(medium_add_fault(fx.m, &f), -EINVAL);
	f = rule(MEDIUM_FAULT_ANY_TYPE, 1, 0, MEDIUM_FAULT_DROP, 0);
	for (int i = 0; i < MEDIUM_MAX_FAULTS; i++)
		ck_assert_int_eq(medium_add_fault(fx.m, &f), 0);
	ck_assert_int_eq(medium_add_fault(fx.m, &f), -ENOSPC);
}
END_TEST

/* A hostile radio's frames: truncated, oversize, at a chosen signal. */
START_TEST(inject_reaches_all_on_the_frequency)
{
	static uint8_t big[MEDIUM_MAX_FRAME];
	static const uint8_t stub[3] = { 0xb0, 0x00, 0x3a };
	struct mrecv r;
	int ctl = mfix_control(&fx);
	int other = mfix_radio(&fx, (const uint8_t[6]){ 2, 0, 0, 0, 0, 0x0f }, 2437);
	struct medium_msg inj = { .type = MEDIUM_MSG_INJECT, .frame = stub, .frame_len = 3 };
	inj.u.inject.freq_mhz = 2412;
	inj.u.inject.signal_mbm = -7300;

	ck_assert_int_eq(mfix_ctrl(&fx, ctl, &inj), 0);
	int fds[3] = { ra, rb, rc };
	for (int i = 0; i < 3; i++) { /* no transmitter: all three hear it */
		ck_assert(mfix_recv(&fx, fds[i], &r, 100));
		ck_assert_uint_eq(r.msg.frame_len, 3);
		ck_assert_int_eq(r.msg.u.rx.signal_mbm, -7300);
		ck_assert_mem_eq(r.msg.frame, stub, 3);
	}
	ck_assert(mfix_quiet(other));
	memset(big, 0xa5, sizeof(big));
	inj.frame = big;
	inj.frame_len = sizeof(big);
	ck_assert_int_eq(mfix_ctrl(&fx, ctl, &inj), 0);
	ck_assert(mfix_recv(&fx, rb, &r, 100));
	ck_assert_uint_eq(r.msg.frame_len, MEDIUM_MAX_FRAME);
	inj.u.inject.freq_mhz = 0;
	ck_assert_int_eq(mfix_ctrl(&fx, ctl, &inj), -EINVAL);
	ck_assert_int_eq(medium_inject(fx.m, 2412, -5000, stub, 0), -EINVAL);
	close(ctl);
	close(other);
}
END_TEST

/* The control messages over a socket do what the direct calls do. */
START_TEST(control_messages_over_a_socket)
{
	struct mrecv r;
	int ctl = mfix_control(&fx);
	struct medium_msg m = { .type = MEDIUM_MSG_SET_LINK };
	uint8_t frame[64];

	memcpy(m.u.set_link.addr_a, A, 6);
	memcpy(m.u.set_link.addr_b, B, 6);
	m.u.set_link.signal_mbm = -6600;
	ck_assert_int_eq(mfix_ctrl(&fx, ctl, &m), 0);
	m.u.set_link.loss_pct = 150;
	ck_assert_int_eq(mfix_ctrl(&fx, ctl, &m), -EINVAL);
	m = (struct medium_msg){ .type = MEDIUM_MSG_FAULT };
	m.u.fault = rule(MEDIUM_FAULT_ANY_TYPE, 1, 0, MEDIUM_FAULT_DUPLICATE, 0);
	ck_assert_int_eq(mfix_ctrl(&fx, ctl, &m), 0);
	size_t len = mfix_data_frame(frame, mfix_bcast, A, 1, 8);
	mfix_tx_wait(&fx, ra, 1, 0, frame, len);
	ck_assert(mfix_recv(&fx, rb, &r, 100));
	ck_assert_int_eq(r.msg.u.rx.signal_mbm, -6600);
	ck_assert(mfix_recv(&fx, rb, &r, 100)); /* the duplicate */
	ck_assert_int_eq(r.msg.type, MEDIUM_MSG_RX);
	m = (struct medium_msg){ .type = MEDIUM_MSG_CLEAR_FAULTS };
	ck_assert_int_eq(mfix_ctrl(&fx, ctl, &m), 0);
	m = (struct medium_msg){ .type = MEDIUM_MSG_SET_POSITION };
	memcpy(m.u.set_position.addr, C, 6);
	ck_assert_int_eq(mfix_ctrl(&fx, ctl, &m), 0);
	m = (struct medium_msg){ .type = MEDIUM_MSG_CAPTURE }; /* empty path: stop */
	ck_assert_int_eq(mfix_ctrl(&fx, ctl, &m), 0);
	strcpy(m.u.capture.path, "/nonexistent-dir/x.pcap");
	ck_assert_int_eq(mfix_ctrl(&fx, ctl, &m), -ENOENT);
	m = (struct medium_msg){ .type = MEDIUM_MSG_GET_STATS };
	mfix_send(ctl, &m);
	ck_assert(mfix_recv(&fx, ctl, &r, 1000));
	ck_assert_int_eq(r.msg.type, MEDIUM_MSG_STATS);
	ck_assert_uint_eq(r.msg.u.stats.radios, 3);
	ck_assert_uint_eq(r.msg.u.stats.frames_tx, 1);
	ck_assert_uint_eq(r.msg.u.stats.frames_faulted, 1);
	/* A control client is not a radio. */
	struct medium_msg hello = { .type = MEDIUM_MSG_HELLO };
	mfix_send(ctl, &hello);
	mfix_run(&fx, 2);
	mfix_send(ctl, &m);
	ck_assert(mfix_recv(&fx, ctl, &r, 1000));
	ck_assert_uint_eq(r.msg.u.stats.bad_messages, 1);
	close(ctl);
}
END_TEST

/* The control client goes away before its INJECT is on the air. */
START_TEST(inject_client_gone_before_reply)
{
	static const uint8_t stub[12] = { 0x40 };
	int ctl = mfix_control(&fx);
	struct medium_msg inj = { .type = MEDIUM_MSG_INJECT, .frame = stub, .frame_len = 12 };
	inj.u.inject.freq_mhz = 2412;
	inj.u.inject.signal_mbm = -5000;
	mfix_send(ctl, &inj);
	mfix_run(&fx, 0);
	loop_iterate(fx.loop, 0);
	close(ctl);
	mfix_run(&fx, 10);
	ck_assert_int_eq(mfix_drain_rx(rb), 1);
}
END_TEST

Suite *make_medium_fault_suite(void)
{
	Suite *s = suite_create("medium_fault");
	TCase *tc = tcase_create("faults");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, drop_the_nth_matching_frame);
	tcase_add_test(tc, dropped_unicast_is_never_acked);
	tcase_add_test(tc, source_and_type_select_frames);
	tcase_add_test(tc, count_extends_the_rule);
	tcase_add_test(tc, clear_faults_stops_them);
	tcase_add_test(tc, delay_holds_a_frame);
	tcase_add_test(tc, corrupt_flips_a_byte);
	tcase_add_test(tc, duplicate_delivers_twice_one_status);
	tcase_add_test(tc, bad_rules_are_refused);
	tcase_add_test(tc, inject_reaches_all_on_the_frequency);
	tcase_add_test(tc, control_messages_over_a_socket);
	tcase_add_test(tc, inject_client_gone_before_reply);
	suite_add_tcase(s, tc);
	return s;
}
