/* See test_medium_fixture.h. */
#include "tests/unit/test_medium_fixture.h"

#include "daemon/core/loop.h"

#include <check.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

const uint8_t mfix_bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

void mfix_setup(struct mfix *f)
{
	int err = 0;
	f->loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	ck_assert_ptr_nonnull(f->loop);
	f->m = medium_new(f->loop, NULL, &err);
	ck_assert_msg(f->m != NULL, "medium_new: %d", err);
	medium_set_seed(f->m, 1);
}

void mfix_teardown(struct mfix *f)
{
	medium_free(f->m);
	loop_free(f->loop);
}

void mfix_run(struct mfix *f, int ms)
{
	uint64_t end = loop_now_us(f->loop) + (uint64_t)ms * 1000;
	for (uint64_t now = loop_now_us(f->loop); now < end; now = loop_now_us(f->loop)) {
		int left = (int)((end - now + 999) / 1000);
		loop_iterate(f->loop, left < 5 ? left : 5);
	}
}

void mfix_send_raw(int fd, const void *buf, size_t len)
{
	ck_assert_int_eq(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

void mfix_send(int fd, const struct medium_msg *msg)
{
	uint8_t buf[MEDIUM_MAX_MSG];
	int n = medium_msg_encode(msg, buf, sizeof(buf));
	ck_assert_int_gt(n, 0);
	mfix_send_raw(fd, buf, (size_t)n);
}

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

bool mfix_quiet(int fd)
{
	return !readable(fd);
}

bool mfix_recv(struct mfix *f, int fd, struct mrecv *r, int timeout_ms)
{
	uint64_t end = loop_now_us(f->loop) + (uint64_t)timeout_ms * 1000;
	for (;;) {
		if (readable(fd)) {
			ssize_t n = recv(fd, r->buf, sizeof(r->buf), MSG_DONTWAIT);
			ck_assert_int_gt(n, 0);
			r->len = (size_t)n;
			ck_assert_int_eq(medium_msg_decode(r->buf, r->len, &r->msg), 0);
			return true;
		}
		if (loop_now_us(f->loop) >= end)
			return false;
		loop_iterate(f->loop, 2);
	}
}

bool mfix_recv_type(struct mfix *f, int fd, enum medium_msg_type type, struct mrecv *r,
		    int timeout_ms)
{
	uint64_t end = loop_now_us(f->loop) + (uint64_t)timeout_ms * 1000;
	while (loop_now_us(f->loop) < end) {
		int left = (int)((end - loop_now_us(f->loop)) / 1000) + 1;
		if (!mfix_recv(f, fd, r, left))
			return false;
		if (r->msg.type == type)
			return true;
	}
	return false;
}

int mfix_drain_rx(int fd)
{
	uint8_t buf[MEDIUM_MAX_MSG];
	struct medium_msg msg;
	int n = 0;
	while (readable(fd)) {
		ssize_t len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		ck_assert_int_gt(len, 0);
		ck_assert_int_eq(medium_msg_decode(buf, (size_t)len, &msg), 0);
		if (msg.type == MEDIUM_MSG_RX)
			n++;
	}
	return n;
}

int mfix_radio(struct mfix *f, const uint8_t addr[6], uint32_t freq_mhz)
{
	struct medium_msg hello = { .type = MEDIUM_MSG_HELLO };
	struct mrecv r;
	int fd = medium_connect_local(f->m);

	ck_assert_int_ge(fd, 0);
	memcpy(hello.u.hello.addr, addr, 6);
	strcpy(hello.u.hello.name, "test");
	mfix_send(fd, &hello);
	ck_assert(mfix_recv(f, fd, &r, 1000));
	ck_assert_int_eq(r.msg.type, MEDIUM_MSG_WELCOME);
	ck_assert_uint_gt(r.msg.u.welcome.radio_id, 0);
	if (freq_mhz) {
		struct medium_msg ch = { .type = MEDIUM_MSG_SET_CHANNEL };
		ch.u.set_channel.freq_mhz = freq_mhz;
		mfix_send(fd, &ch);
		mfix_run(f, 1);
	}
	return fd;
}

int mfix_ctrl(struct mfix *f, int fd, const struct medium_msg *msg)
{
	struct mrecv r;
	mfix_send(fd, msg);
	ck_assert(mfix_recv_type(f, fd, MEDIUM_MSG_CTRL_REPLY, &r, 2000));
	return r.msg.u.ctrl_reply.status;
}

int mfix_control(struct mfix *f)
{
	struct medium_msg hello = { .type = MEDIUM_MSG_CTRL_HELLO };
	int fd = medium_connect_local(f->m);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(mfix_ctrl(f, fd, &hello), 0);
	return fd;
}

void mfix_tx(int fd, uint64_t cookie, uint8_t flags, uint8_t retry_limit, uint16_t rate,
	     const uint8_t *frame, size_t len)
{
	struct medium_msg tx = { .type = MEDIUM_MSG_TX, .frame = frame, .frame_len = len };
	tx.u.tx.cookie = cookie;
	tx.u.tx.flags = flags;
	tx.u.tx.retry_limit = retry_limit;
	tx.u.tx.rate_100kbps = rate;
	mfix_send(fd, &tx);
}

struct medium_msg mfix_tx_wait(struct mfix *f, int fd, uint64_t cookie, uint8_t retry_limit,
			       const uint8_t *frame, size_t len)
{
	struct mrecv r;
	mfix_tx(fd, cookie, 0, retry_limit, 540, frame, len);
	ck_assert_msg(mfix_recv_type(f, fd, MEDIUM_MSG_TX_STATUS, &r, 3000), "no TX_STATUS");
	ck_assert_uint_eq(r.msg.u.tx_status.cookie, cookie);
	return r.msg;
}

size_t mfix_data_frame(uint8_t *buf, const uint8_t da[6], const uint8_t sa[6], uint16_t seq,
		       size_t payload_len)
{
	memset(buf, 0, 24);
	buf[0] = 0x08; /* data */
	buf[1] = 0x02; /* from DS */
	memcpy(buf + 4, da, 6);
	memcpy(buf + 10, sa, 6);
	memcpy(buf + 16, sa, 6);
	buf[22] = (uint8_t)(seq << 4);
	buf[23] = (uint8_t)(seq >> 4);
	for (size_t i = 0; i < payload_len; i++)
		buf[24 + i] = (uint8_t)(seq + i);
	return 24 + payload_len;
}

size_t mfix_beacon(uint8_t *buf, const uint8_t bssid[6], const char *ssid)
{
	static const uint8_t rates[] = { 0x01, 0x04, 0x82, 0x84, 0x8b, 0x96 };
	size_t n = 0, ssid_len = strlen(ssid);

	memset(buf, 0, 36);
	buf[0] = 0x80; /* beacon */
	memcpy(buf + 4, mfix_bcast, 6);
	memcpy(buf + 10, bssid, 6);
	memcpy(buf + 16, bssid, 6);
	n = 24 + 8;        /* timestamp */
	buf[n++] = 100;    /* beacon interval 100 TU */
	buf[n++] = 0;
	buf[n++] = 0x01;   /* capabilities: ESS */
	buf[n++] = 0;
	buf[n++] = 0;      /* SSID element */
	buf[n++] = (uint8_t)ssid_len;
	memcpy(buf + n, ssid, ssid_len);
	n += ssid_len;
	memcpy(buf + n, rates, sizeof(rates));
	return n + sizeof(rates);
}
