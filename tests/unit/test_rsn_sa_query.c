/* The SA Query procedure (IEEE 802.11-2020 11.13): requests answered with
 * their identifier, a matching response ends the query (peer alive), a
 * response with an identifier never sent is ignored, retries every retry
 * timeout under fresh identifiers until the maximum timeout ends it (peer
 * gone). On the virtual clock, with the default timeouts
 * (dot11AssociationSAQueryRetryTimeout 201 ms, ...MaximumTimeout 1000 ms,
 * the MIB defaults of 802.11-2020 Annex C), so times are exact. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/rsn/sa_query.h"

#define MAX_SENT 64

struct rec {
	struct loop *loop;
	struct sa_query *q;
	uint8_t sent[MAX_SENT][4];
	size_t n_sent;
	int done_calls;
	bool alive;
	bool free_in_done;
	int fail_sends;
};

static struct rec R;

static int rec_send(void *ctx, const uint8_t *action, size_t len)
{
	struct rec *r = ctx;
	ck_assert_uint_eq(len, 4);
	if (r->fail_sends > 0) {
		r->fail_sends--;
		return -ENOBUFS;
	}
	ck_assert_uint_lt(r->n_sent, MAX_SENT);
	memcpy(r->sent[r->n_sent++], action, 4);
	return 0;
}

static void rec_done(void *ctx, bool alive)
{
	struct rec *r = ctx;
	r->done_calls++;
	r->alive = alive;
	if (r->free_in_done) {
		sa_query_free(r->q);
		r->q = NULL;
	}
}

static const struct sa_query_ops ops = { .send = rec_send, .done = rec_done };

static void setup(void)
{
	memset(&R, 0, sizeof(R));
	R.loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	ck_assert_ptr_nonnull(R.loop);
	R.q = sa_query_new(R.loop, &ops, &R, NULL);
	ck_assert_ptr_nonnull(R.q);
}

static void teardown(void)
{
	sa_query_free(R.q);
	loop_free(R.loop);
}

static void run_until_done(int limit_ms)
{
	uint64_t end = loop_now_us(R.loop) + (uint64_t)limit_ms * 1000;
	while (!R.done_calls && loop_now_us(R.loop) < end)
		loop_iterate(R.loop, 5);
}

static void run_ms(int ms)
{
	uint64_t end = loop_now_us(R.loop) + (uint64_t)ms * 1000;
	while (loop_now_us(R.loop) < end)
		loop_iterate(R.loop, 5);
}

static enum sa_query_rx_result rx(uint8_t action, const uint8_t id[2])
{
	uint8_t f[4] = { WLAN_ACTION_SA_QUERY, action, id[0], id[1] };
	return sa_query_rx(R.q, f, sizeof(f));
}

START_TEST(requests_are_answered_with_their_identifier)
{
	const uint8_t id[2] = { 0xbe, 0xef };
	ck_assert_int_eq(rx(SA_QUERY_ACTION_REQUEST, id), SA_QUERY_RX_ANSWERED);
	ck_assert_uint_eq(R.n_sent, 1);
	const uint8_t want[4] = { WLAN_ACTION_SA_QUERY, SA_QUERY_ACTION_RESPONSE, 0xbe, 0xef };
	ck_assert_mem_eq(R.sent[0], want, 4);
	ck_assert_int_eq(sa_query_state(R.q), SA_QUERY_IDLE);
	ck_assert_uint_eq(sa_query_stats(R.q)->responses_sent, 1);
	/* Also while querying, without disturbing the query. */
	ck_assert_int_eq(sa_query_start(R.q), 0);
	ck_assert_int_eq(rx(SA_QUERY_ACTION_REQUEST, id), SA_QUERY_RX_ANSWERED);
	ck_assert_int_eq(sa_query_state(R.q), SA_QUERY_QUERYING);
	R.fail_sends = 1;
	ck_assert_int_eq(rx(SA_QUERY_ACTION_REQUEST, id), SA_QUERY_RX_SEND_FAILED);
}
END_TEST

START_TEST(matching_response_keeps_the_peer)
{
	ck_assert_int_eq(sa_query_start(R.q), 0);
	ck_assert_int_eq(sa_query_state(R.q), SA_QUERY_QUERYING);
	ck_assert_uint_eq(R.n_sent, 1);
	ck_assert_uint_eq(R.sent[0][0], WLAN_ACTION_SA_QUERY);
	ck_assert_uint_eq(R.sent[0][1], SA_QUERY_ACTION_REQUEST);
	ck_assert_int_eq(sa_query_start(R.q), -EALREADY);
	ck_assert_int_eq(rx(SA_QUERY_ACTION_RESPONSE, R.sent[0] + 2), SA_QUERY_RX_CONFIRMED);
	ck_assert_int_eq(R.done_calls, 1);
	ck_assert(R.alive);
	ck_assert_int_eq(sa_query_state(R.q), SA_QUERY_IDLE);
	/* Timers are gone: nothing more is sent, done is not called again. */
	run_ms(1500);
	ck_assert_uint_eq(R.n_sent, 1);
	ck_assert_int_eq(R.done_calls, 1);
	/* The same response again is now unmatched. */
	ck_assert_int_eq(rx(SA_QUERY_ACTION_RESPONSE, R.sent[0] + 2), SA_QUERY_RX_UNMATCHED);
}
END_TEST

START_TEST(mismatched_identifier_is_ignored_then_timeout)
{
	uint64_t t0 = loop_now_us(R.loop);
	ck_assert_int_eq(sa_query_start(R.q), 0);
	uint8_t wrong[2] = { (uint8_t)(R.sent[0][2] ^ 0x01), R.sent[0][3] };
	ck_assert_int_eq(rx(SA_QUERY_ACTION_RESPONSE, wrong), SA_QUERY_RX_UNMATCHED);
	ck_assert_int_eq(sa_query_state(R.q), SA_QUERY_QUERYING);
	ck_assert_int_eq(R.done_calls, 0);
	ck_assert_uint_eq(sa_query_stats(R.q)->unmatched, 1);
	run_until_done(2000);
	ck_assert_int_eq(R.done_calls, 1);
	ck_assert(!R.alive);
	ck_assert_uint_eq(loop_now_us(R.loop) - t0, 1000 * 1000);
}
END_TEST

START_TEST(retries_under_fresh_identifiers_until_the_maximum)
{
	uint64_t t0 = loop_now_us(R.loop);
	ck_assert_int_eq(sa_query_start(R.q), 0);
	run_until_done(2000);
	ck_assert_int_eq(R.done_calls, 1);
	ck_assert(!R.alive);
	ck_assert_uint_eq(loop_now_us(R.loop) - t0, 1000 * 1000);
	/* At 0, 201, 402, 603 and 804 ms; the one due at 1005 ms never goes.
	 * Each under its own identifier. */
	ck_assert_uint_eq(R.n_sent, 5);
	ck_assert_uint_eq(sa_query_stats(R.q)->requests_sent, R.n_sent);
	for (size_t i = 0; i < R.n_sent; i++)
		for (size_t j = i + 1; j < R.n_sent; j++)
			ck_assert(memcmp(R.sent[i] + 2, R.sent[j] + 2, 2) != 0 || i == j);
	/* A response after the end is too late. */
	ck_assert_int_eq(rx(SA_QUERY_ACTION_RESPONSE, R.sent[0] + 2), SA_QUERY_RX_UNMATCHED);
	ck_assert_int_eq(R.done_calls, 1);
}
END_TEST

START_TEST(response_to_an_earlier_request_counts)
{
	ck_assert_int_eq(sa_query_start(R.q), 0);
	while (R.n_sent < 2)
		loop_iterate(R.loop, 5);
	ck_assert_int_eq(R.done_calls, 0);
	ck_assert_int_eq(rx(SA_QUERY_ACTION_RESPONSE, R.sent[0] + 2), SA_QUERY_RX_CONFIRMED);
	ck_assert(R.alive);
}
END_TEST

START_TEST(failed_sends_are_retried)
{
	R.fail_sends = 1;
	ck_assert_int_eq(sa_query_start(R.q), 0);
	ck_assert_uint_eq(R.n_sent, 0);
	while (R.n_sent < 1 && !R.done_calls)
		loop_iterate(R.loop, 5);
	ck_assert_uint_eq(R.n_sent, 1);
	ck_assert_int_eq(rx(SA_QUERY_ACTION_RESPONSE, R.sent[0] + 2), SA_QUERY_RX_CONFIRMED);
}
END_TEST

START_TEST(stop_and_free_inside_done)
{
	ck_assert_int_eq(sa_query_start(R.q), 0);
	sa_query_stop(R.q);
	run_ms(1500);
	ck_assert_int_eq(R.done_calls, 0);
	ck_assert_uint_eq(R.n_sent, 1);
	R.free_in_done = true;
	ck_assert_int_eq(sa_query_start(R.q), 0);
	run_until_done(2000);
	ck_assert_int_eq(R.done_calls, 1);
	ck_assert_ptr_null(R.q);
}
END_TEST

START_TEST(malformed_frames_are_ignored)
{
	const uint8_t short_f[3] = { WLAN_ACTION_SA_QUERY, 1, 0 };
	const uint8_t other[4] = { WLAN_ACTION_PUBLIC, 1, 0, 0 };
	const uint8_t bad_action[4] = { WLAN_ACTION_SA_QUERY, 7, 0, 0 };
	ck_assert_int_eq(sa_query_rx(R.q, short_f, 3), SA_QUERY_RX_MALFORMED);
	ck_assert_int_eq(sa_query_rx(R.q, other, 4), SA_QUERY_RX_MALFORMED);
	ck_assert_int_eq(sa_query_rx(R.q, bad_action, 4), SA_QUERY_RX_MALFORMED);
	ck_assert_int_eq(sa_query_rx(R.q, NULL, 0), SA_QUERY_RX_MALFORMED);
	ck_assert_uint_eq(sa_query_stats(R.q)->malformed, 4);
	ck_assert_uint_eq(R.n_sent, 0);
	ck_assert_str_eq(sa_query_state_to_string(SA_QUERY_QUERYING), "querying");
}
END_TEST

Suite *make_rsn_sa_query_suite(void)
{
	Suite *s = suite_create("rsn_sa_query");
	TCase *tc = tcase_create("sa_query");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, requests_are_answered_with_their_identifier);
	tcase_add_test(tc, matching_response_keeps_the_peer);
	tcase_add_test(tc, mismatched_identifier_is_ignored_then_timeout);
	tcase_add_test(tc, retries_under_fresh_identifiers_until_the_maximum);
	tcase_add_test(tc, response_to_an_earlier_request_counts);
	tcase_add_test(tc, failed_sends_are_retried);
	tcase_add_test(tc, stop_and_free_inside_done);
	tcase_add_test(tc, malformed_frames_are_ignored);
	suite_add_tcase(s, tc);
	return s;
}
