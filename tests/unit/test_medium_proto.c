/* The medium wire protocol: every message type round-trips, and a table of
 * malformed datagrams is refused, each with its own errno. */
#include "drivers/sim/medium-ctl.h"
#include "drivers/sim/medium-proto.h"

#include <check.h>
#include <errno.h>
#include <string.h>

static const uint8_t frame[] = { 0x80, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
				 0xff, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

/* One filled-in message of every type, values chosen to catch swapped or
 * truncated fields (distinct bytes, negative numbers, high bits). */
static struct medium_msg sample(enum medium_msg_type type)
{
	struct medium_msg m = { .type = type };
	switch (type) {
	case MEDIUM_MSG_HELLO:
		memcpy(m.u.hello.addr, "\x02\x11\x22\x33\x44\x55", 6);
		strcpy(m.u.hello.name, "simradio15chars");
		break;
	case MEDIUM_MSG_SET_CHANNEL:
		m.u.set_channel.freq_mhz = 5955;
		break;
	case MEDIUM_MSG_TX:
		m.u.tx.cookie = 0x0102030405060708ull;
		m.u.tx.rate_100kbps = 540;
		m.u.tx.flags = MEDIUM_TX_NO_ACK;
		m.u.tx.retry_limit = 7;
		break;
	case MEDIUM_MSG_RADIO_ADDR:
		memcpy(m.u.radio_addr.addr, "\x06\x00\x00\x00\x00\x01", 6);
		m.u.radio_addr.add = 1;
		break;
	case MEDIUM_MSG_RX:
		m.u.rx.freq_mhz = 2484;
		m.u.rx.signal_mbm = -8765;
		m.u.rx.rate_100kbps = 55;
		break;
	case MEDIUM_MSG_TX_STATUS:
		m.u.tx_status.cookie = 0xfedcba9876543210ull;
		m.u.tx_status.acked = 1;
		m.u.tx_status.attempts = 255;
		break;
	case MEDIUM_MSG_WELCOME:
		m.u.welcome.radio_id = 0x80000001u;
		break;
	case MEDIUM_MSG_SET_LINK:
		memcpy(m.u.set_link.addr_a, "\x02\x00\x00\x00\x00\x0a", 6);
		memcpy(m.u.set_link.addr_b, "\x02\x00\x00\x00\x00\x0b", 6);
		m.u.set_link.signal_mbm = MEDIUM_NO_SIGNAL_MBM;
		m.u.set_link.loss_pct = 37;
		break;
	case MEDIUM_MSG_SET_POSITION:
		memcpy(m.u.set_position.addr, "\x02\x00\x00\x00\x00\x0c", 6);
		m.u.set_position.x_cm = -123456;
		m.u.set_position.y_cm = 7890;
		break;
	case MEDIUM_MSG_CAPTURE:
		strcpy(m.u.capture.path, "/tmp/capture.pcap");
		break;
	case MEDIUM_MSG_FAULT:
		m.u.fault.frame_type = 0x00b0;
		memcpy(m.u.fault.source, "\x02\x00\x00\x00\x00\x0d", 6);
		m.u.fault.nth = 3;
		m.u.fault.count = 0x01020304;
		m.u.fault.action = MEDIUM_FAULT_CORRUPT;
		m.u.fault.param = 0xa0b0c0d0;
		break;
	case MEDIUM_MSG_INJECT:
		m.u.inject.freq_mhz = 5180;
		m.u.inject.signal_mbm = -4200;
		break;
	case MEDIUM_MSG_CTRL_REPLY:
		m.u.ctrl_reply.status = -EINVAL;
		break;
	case MEDIUM_MSG_STATS:
		m.u.stats = (struct medium_stats){ 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xffffffffffffffffull };
		break;
	case MEDIUM_MSG_CTRL_HELLO:
	case MEDIUM_MSG_CLEAR_FAULTS:
	case MEDIUM_MSG_GET_STATS:
		break;
	}
	if (type == MEDIUM_MSG_TX || type == MEDIUM_MSG_RX || type == MEDIUM_MSG_INJECT) {
		m.frame = frame;
		m.frame_len = sizeof(frame);
	}
	return m;
}

static const enum medium_msg_type all_types[] = {
	MEDIUM_MSG_HELLO,	 MEDIUM_MSG_SET_CHANNEL, MEDIUM_MSG_TX,
	MEDIUM_MSG_RADIO_ADDR,	 MEDIUM_MSG_RX,		 MEDIUM_MSG_TX_STATUS,
	MEDIUM_MSG_WELCOME,	 MEDIUM_MSG_CTRL_HELLO,	 MEDIUM_MSG_SET_LINK,
	MEDIUM_MSG_SET_POSITION, MEDIUM_MSG_CAPTURE,	 MEDIUM_MSG_FAULT,
	MEDIUM_MSG_INJECT,	 MEDIUM_MSG_CLEAR_FAULTS, MEDIUM_MSG_GET_STATS,
	MEDIUM_MSG_CTRL_REPLY,	 MEDIUM_MSG_STATS,
};

static void assert_same_ctrl(const struct medium_msg *a, const struct medium_msg *b);

/* Compares the fields a type uses (the union has padding; no memcmp). */
static void assert_same(const struct medium_msg *a, const struct medium_msg *b)
{
	ck_assert_int_eq(a->type, b->type);
	ck_assert_uint_eq(a->frame_len, b->frame_len);
	if (a->frame_len)
		ck_assert_mem_eq(a->frame, b->frame, a->frame_len);
	switch (a->type) {
	case MEDIUM_MSG_HELLO:
		ck_assert_mem_eq(a->u.hello.addr, b->u.hello.addr, 6);
		ck_assert_str_eq(a->u.hello.name, b->u.hello.name);
		break;
	case MEDIUM_MSG_SET_CHANNEL:
		ck_assert_uint_eq(a->u.set_channel.freq_mhz, b->u.set_channel.freq_mhz);
		break;
	case MEDIUM_MSG_TX:
		ck_assert_uint_eq(a->u.tx.cookie, b->u.tx.cookie);
		ck_assert_uint_eq(a->u.tx.rate_100kbps, b->u.tx.rate_100kbps);
		ck_assert_uint_eq(a->u.tx.flags, b->u.tx.flags);
		ck_assert_uint_eq(a->u.tx.retry_limit, b->u.tx.retry_limit);
		break;
	case MEDIUM_MSG_RADIO_ADDR:
		ck_assert_mem_eq(a->u.radio_addr.addr, b->u.radio_addr.addr, 6);
		ck_assert_uint_eq(a->u.radio_addr.add, b->u.radio_addr.add);
		break;
	case MEDIUM_MSG_RX:
		ck_assert_uint_eq(a->u.rx.freq_mhz, b->u.rx.freq_mhz);
		ck_assert_int_eq(a->u.rx.signal_mbm, b->u.rx.signal_mbm);
		ck_assert_uint_eq(a->u.rx.rate_100kbps, b->u.rx.rate_100kbps);
		break;
	case MEDIUM_MSG_TX_STATUS:
		ck_assert_uint_eq(a->u.tx_status.cookie, b->u.tx_status.cookie);
		ck_assert_uint_eq(a->u.tx_status.acked, b->u.tx_status.acked);
		ck_assert_uint_eq(a->u.tx_status.attempts, b->u.tx_status.attempts);
		break;
	case MEDIUM_MSG_WELCOME:
		ck_assert_uint_eq(a->u.welcome.radio_id, b->u.welcome.radio_id);
		break;
	default:
		assert_same_ctrl(a, b);
		break;
	}
}

static void assert_same_ctrl(const struct medium_msg *a, const struct medium_msg *b)
{
	switch (a->type) {
	case MEDIUM_MSG_SET_LINK:
		ck_assert_mem_eq(a->u.set_link.addr_a, b->u.set_link.addr_a, 6);
		ck_assert_mem_eq(a->u.set_link.addr_b, b->u.set_link.addr_b, 6);
		ck_assert_int_eq(a->u.set_link.signal_mbm, b->u.set_link.signal_mbm);
		ck_assert_uint_eq(a->u.set_link.loss_pct, b->u.set_link.loss_pct);
		break;
	case MEDIUM_MSG_SET_POSITION:
		ck_assert_mem_eq(a->u.set_position.addr, b->u.set_position.addr, 6);
		ck_assert_int_eq(a->u.set_position.x_cm, b->u.set_position.x_cm);
		ck_assert_int_eq(a->u.set_position.y_cm, b->u.set_position.y_cm);
		break;
	case MEDIUM_MSG_CAPTURE:
		ck_assert_str_eq(a->u.capture.path, b->u.capture.path);
		break;
	case MEDIUM_MSG_FAULT:
		ck_assert_uint_eq(a->u.fault.frame_type, b->u.fault.frame_type);
		ck_assert_mem_eq(a->u.fault.source, b->u.fault.source, 6);
		ck_assert_uint_eq(a->u.fault.nth, b->u.fault.nth);
		ck_assert_uint_eq(a->u.fault.count, b->u.fault.count);
		ck_assert_uint_eq(a->u.fault.action, b->u.fault.action);
		ck_assert_uint_eq(a->u.fault.param, b->u.fault.param);
		break;
	case MEDIUM_MSG_INJECT:
		ck_assert_uint_eq(a->u.inject.freq_mhz, b->u.inject.freq_mhz);
		ck_assert_int_eq(a->u.inject.signal_mbm, b->u.inject.signal_mbm);
		break;
	case MEDIUM_MSG_CTRL_REPLY:
		ck_assert_int_eq(a->u.ctrl_reply.status, b->u.ctrl_reply.status);
		break;
	case MEDIUM_MSG_STATS:
		ck_assert_uint_eq(a->u.stats.frames_tx, b->u.stats.frames_tx);
		ck_assert_uint_eq(a->u.stats.frames_delivered, b->u.stats.frames_delivered);
		ck_assert_uint_eq(a->u.stats.frames_lost, b->u.stats.frames_lost);
		ck_assert_uint_eq(a->u.stats.frames_faulted, b->u.stats.frames_faulted);
		ck_assert_uint_eq(a->u.stats.bad_messages, b->u.stats.bad_messages);
		ck_assert_uint_eq(a->u.stats.radios, b->u.stats.radios);
		ck_assert_uint_eq(a->u.stats.frames_acked, b->u.stats.frames_acked);
		ck_assert_uint_eq(a->u.stats.retries, b->u.stats.retries);
		ck_assert_uint_eq(a->u.stats.frames_injected, b->u.stats.frames_injected);
		ck_assert_uint_eq(a->u.stats.rx_overflow, b->u.stats.rx_overflow);
		break;
	default:
		break;
	}
}

START_TEST(every_type_round_trips)
{
	enum medium_msg_type type = all_types[_i];
	struct medium_msg in = sample(type), out;
	uint8_t buf[MEDIUM_MAX_MSG], again[MEDIUM_MAX_MSG];

	int n = medium_msg_encode(&in, buf, sizeof(buf));
	ck_assert_int_gt(n, 0);
	ck_assert_uint_eq(buf[0], MEDIUM_PROTO_VERSION);
	ck_assert_uint_eq(buf[1], type);
	ck_assert_int_eq(medium_msg_decode(buf, (size_t)n, &out), 0);
	assert_same(&in, &out);
	if (out.frame_len)
		ck_assert_ptr_eq(out.frame, buf + n - out.frame_len); /* points into buf */
	ck_assert_int_eq(medium_msg_encode(&out, again, sizeof(again)), n);
	ck_assert_mem_eq(buf, again, (size_t)n);
	ck_assert_str_ne(medium_msg_type_name(type), "UNKNOWN");
}
END_TEST

START_TEST(largest_frame_fits_largest_message)
{
	static uint8_t big[MEDIUM_MAX_FRAME + 1];
	uint8_t buf[MEDIUM_MAX_MSG];
	struct medium_msg out;

	for (size_t i = 0; i < sizeof(all_types) / sizeof(all_types[0]); i++) {
		struct medium_msg m = sample(all_types[i]);
		if (!m.frame)
			continue;
		m.frame = big;
		m.frame_len = MEDIUM_MAX_FRAME;
		int n = medium_msg_encode(&m, buf, sizeof(buf));
		ck_assert_int_gt(n, 0);
		ck_assert_int_eq(medium_msg_decode(buf, (size_t)n, &out), 0);
		ck_assert_uint_eq(out.frame_len, MEDIUM_MAX_FRAME);
		m.frame_len = MEDIUM_MAX_FRAME + 1;
		ck_assert_int_eq(medium_msg_encode(&m, buf, sizeof(buf)), -EMSGSIZE);
	}
}
END_TEST

START_TEST(encoder_refuses_bad_arguments)
{
	uint8_t buf[MEDIUM_MAX_MSG];
	struct medium_msg m = sample(MEDIUM_MSG_HELLO);

	memset(m.u.hello.name, 'x', sizeof(m.u.hello.name)); /* no NUL */
	ck_assert_int_eq(medium_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	m = sample(MEDIUM_MSG_CAPTURE);
	memset(m.u.capture.path, 'p', sizeof(m.u.capture.path));
	ck_assert_int_eq(medium_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	m = sample(MEDIUM_MSG_TX);
	m.frame = NULL;
	ck_assert_int_eq(medium_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	m = sample(MEDIUM_MSG_TX);
	m.frame_len = 0;
	ck_assert_int_eq(medium_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	m = sample(MEDIUM_MSG_TX);
	ck_assert_int_eq(medium_msg_encode(&m, buf, 10), -ENOBUFS);
	m.type = (enum medium_msg_type)99;
	ck_assert_int_eq(medium_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(medium_msg_encode(NULL, buf, sizeof(buf)), -EINVAL);
	ck_assert_str_eq(medium_msg_type_name((enum medium_msg_type)99), "UNKNOWN");
}
END_TEST

START_TEST(rx_signal_patch)
{
	uint8_t buf[MEDIUM_MAX_MSG];
	struct medium_msg m = sample(MEDIUM_MSG_RX), out;
	int n = medium_msg_encode(&m, buf, sizeof(buf));

	medium_msg_patch_rx_signal(buf, -9999);
	ck_assert_int_eq(medium_msg_decode(buf, (size_t)n, &out), 0);
	ck_assert_int_eq(out.u.rx.signal_mbm, -9999);
	ck_assert_uint_eq(out.u.rx.freq_mhz, 2484);
	ck_assert_uint_eq(out.u.rx.rate_100kbps, 55);
}
END_TEST

/* ---- malformed datagrams ---- */

struct bad_case {
	const char *what;
	uint8_t bytes[48];
	size_t len;
	int err;
};

#define V MEDIUM_PROTO_VERSION
static const struct bad_case bad_cases[] = {
	{ "empty", { 0 }, 0, -EBADMSG },
	{ "short header", { V, MEDIUM_MSG_CTRL_HELLO, 0 }, 3, -EBADMSG },
	{ "wrong version", { V + 1, MEDIUM_MSG_CTRL_HELLO, 0, 0 }, 4, -EBADMSG },
	{ "version 0", { 0, MEDIUM_MSG_CTRL_HELLO, 0, 0 }, 4, -EBADMSG },
	{ "reserved not zero", { V, MEDIUM_MSG_CTRL_HELLO, 0, 1 }, 4, -EBADMSG },
	{ "unknown type", { V, 99, 0, 0 }, 4, -EPROTO },
	{ "type zero", { V, 0, 0, 0 }, 4, -EPROTO },
	{ "type 255", { V, 255, 0, 0, 1, 2, 3 }, 7, -EPROTO },
	{ "truncated set_channel", { V, MEDIUM_MSG_SET_CHANNEL, 0, 0, 0x6c, 0x09 }, 6, -EBADMSG },
	{ "trailing byte", { V, MEDIUM_MSG_SET_CHANNEL, 0, 0, 0x6c, 0x09, 0, 0, 0 }, 9, -EBADMSG },
	{ "ctrl_hello with payload", { V, MEDIUM_MSG_CTRL_HELLO, 0, 0, 0 }, 5, -EBADMSG },
	{ "truncated tx fields", { V, MEDIUM_MSG_TX, 0, 0, 1, 2, 3, 4, 5 }, 9, -EBADMSG },
	{ "tx without frame", { V, MEDIUM_MSG_TX, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 3 },
	  16, -EBADMSG },
	{ "rx without frame", { V, MEDIUM_MSG_RX, 0, 0, 0x6c, 9, 0, 0, 0, 0, 0, 0, 10, 0 },
	  14, -EBADMSG },
	{ "truncated hello", { V, MEDIUM_MSG_HELLO, 0, 0, 2, 0, 0, 0, 0, 1, 'a', 0 }, 12,
	  -EBADMSG },
	{ "unterminated name",
	  { V, MEDIUM_MSG_HELLO, 0, 0, 2, 0, 0, 0, 0, 1, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',
	    'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p' },
	  26, -EBADMSG },
	{ "truncated set_link", { V, MEDIUM_MSG_SET_LINK, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8 }, 12,
	  -EBADMSG },
	{ "truncated fault", { V, MEDIUM_MSG_FAULT, 0, 0, 0x80, 0, 0xff, 0xff }, 8, -EBADMSG },
	{ "truncated tx_status", { V, MEDIUM_MSG_TX_STATUS, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 1 },
	  13, -EBADMSG },
	{ "truncated stats", { V, MEDIUM_MSG_STATS, 0, 0, 1, 0, 0, 0 }, 8, -EBADMSG },
	{ "truncated capture", { V, MEDIUM_MSG_CAPTURE, 0, 0, '/', 't', 0 }, 7, -EBADMSG },
	{ "truncated inject", { V, MEDIUM_MSG_INJECT, 0, 0, 0x6c, 9, 0, 0, 0 }, 9, -EBADMSG },
};
#undef V

START_TEST(malformed_is_refused)
{
	const struct bad_case *c = &bad_cases[_i];
	struct medium_msg msg;
	ck_assert_msg(medium_msg_decode(c->bytes, c->len, &msg) == c->err, "%s: got %d, want %d",
		      c->what, medium_msg_decode(c->bytes, c->len, &msg), c->err);
}
END_TEST

START_TEST(malformed_long_fields)
{
	static uint8_t buf[MEDIUM_MAX_MSG + 64];
	struct medium_msg msg = sample(MEDIUM_MSG_CAPTURE);
	int n;

	/* An unterminated capture path, full length. */
	n = medium_msg_encode(&msg, buf, sizeof(buf));
	ck_assert_int_gt(n, 0);
	memset(buf + 4, 'p', MEDIUM_PATH_MAX);
	ck_assert_int_eq(medium_msg_decode(buf, (size_t)n, &msg), -EBADMSG);
	/* Frames one byte too long, for every frame-carrying type. */
	static const enum medium_msg_type with_frame[] = { MEDIUM_MSG_TX, MEDIUM_MSG_RX,
							    MEDIUM_MSG_INJECT };
	for (size_t i = 0; i < 3; i++) {
		msg = sample(with_frame[i]);
		n = medium_msg_encode(&msg, buf, sizeof(buf));
		size_t fixed = (size_t)n - msg.frame_len;
		ck_assert_int_eq(medium_msg_decode(buf, fixed + MEDIUM_MAX_FRAME, &msg), 0);
		ck_assert_int_eq(medium_msg_decode(buf, fixed + MEDIUM_MAX_FRAME + 1, &msg),
				 -EMSGSIZE);
	}
	ck_assert_int_eq(medium_msg_decode(NULL, 0, &msg), -EBADMSG);
}
END_TEST

/* The command-line parsers of wpad-medium ctl. */
START_TEST(ctl_parsers)
{
	uint8_t addr[6], buf[4];

	ck_assert(medium_parse_addr("02:00:0a:FF:00:01", addr));
	ck_assert_mem_eq(addr, "\x02\x00\x0a\xff\x00\x01", 6);
	ck_assert(!medium_parse_addr("02:00:0a:ff:00", addr));
	ck_assert(!medium_parse_addr("02:00:0a:ff:00:01:", addr));
	ck_assert(!medium_parse_addr("02:00:0a:ff:00:100", addr));
	ck_assert(!medium_parse_addr("nonsense", addr));
	ck_assert_int_eq(medium_parse_hex("80 00:ab", buf, sizeof(buf)), 3);
	ck_assert_mem_eq(buf, "\x80\x00\xab", 3);
	ck_assert_int_eq(medium_parse_hex("800", buf, sizeof(buf)), -1);  /* odd */
	ck_assert_int_eq(medium_parse_hex("8g", buf, sizeof(buf)), -1);   /* not hex */
	ck_assert_int_eq(medium_parse_hex("0102030405", buf, 4), -1);     /* too long */
	ck_assert_int_eq(medium_parse_hex("", buf, sizeof(buf)), 0);
}
END_TEST

Suite *make_medium_proto_suite(void)
{
	Suite *s = suite_create("medium_proto");
	TCase *tc = tcase_create("codec");
	tcase_add_loop_test(tc, every_type_round_trips, 0,
			    (int)(sizeof(all_types) / sizeof(all_types[0])));
	tcase_add_test(tc, largest_frame_fits_largest_message);
	tcase_add_test(tc, encoder_refuses_bad_arguments);
	tcase_add_test(tc, rx_signal_patch);
	tcase_add_loop_test(tc, malformed_is_refused, 0,
			    (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	tcase_add_test(tc, malformed_long_fields);
	tcase_add_test(tc, ctl_parsers);
	suite_add_tcase(s, tc);
	return s;
}
