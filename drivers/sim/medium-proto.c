/* Encoder and decoder of the medium wire protocol (see medium-proto.h).
 *
 * Field layouts after the 4-byte header, little-endian:
 *   HELLO         addr[6] name[16] (NUL-terminated, NUL-padded)
 *   SET_CHANNEL   freq u32
 *   TX            cookie u64, rate u16, flags u8, retry_limit u8, frame
 *   RADIO_ADDR    addr[6], add u8
 *   RX            freq u32, signal s32, rate u16, frame
 *   TX_STATUS     cookie u64, acked u8, attempts u8
 *   WELCOME       radio_id u32
 *   CTRL_HELLO, CLEAR_FAULTS, GET_STATS: nothing
 *   SET_LINK      addr_a[6], addr_b[6], signal s32, loss u8
 *   SET_POSITION  addr[6], x_cm s32, y_cm s32
 *   CAPTURE       path[256] (NUL-terminated, NUL-padded; empty: stop)
 *   FAULT         frame_type u16, source[6], nth u32, count u32, action u8,
 *                 param u32
 *   INJECT        freq u32, signal s32, frame
 *   CTRL_REPLY    status s32
 *   STATS         frames_tx, delivered, lost, faulted, bad u64, radios u32,
 *                 acked, retries, injected, rx_overflow u64
 */
#include "drivers/sim/medium-proto.h"

#include "daemon/core/bytes.h"

#include <errno.h>
#include <string.h>

#define HEADER_LEN 4

/* ---- decoding ---- */

static bool has_nul(const char *s, size_t n)
{
	return memchr(s, '\0', n) != NULL;
}

/* Reads a fixed NUL-padded string field; false when unterminated. */
static bool read_string(struct rbuf *r, char *out, size_t n)
{
	if (!rbuf_copy(r, out, n))
		return false;
	return has_nul(out, n);
}

static void read_stats(struct rbuf *r, struct medium_stats *st)
{
	st->frames_tx = rbuf_le64(r);
	st->frames_delivered = rbuf_le64(r);
	st->frames_lost = rbuf_le64(r);
	st->frames_faulted = rbuf_le64(r);
	st->bad_messages = rbuf_le64(r);
	st->radios = rbuf_le32(r);
	st->frames_acked = rbuf_le64(r);
	st->retries = rbuf_le64(r);
	st->frames_injected = rbuf_le64(r);
	st->rx_overflow = rbuf_le64(r);
}

static void read_fault(struct rbuf *r, struct medium_fault_spec *f)
{
	f->frame_type = rbuf_le16(r);
	rbuf_copy(r, f->source, 6);
	f->nth = rbuf_le32(r);
	f->count = rbuf_le32(r);
	f->action = rbuf_u8(r);
	f->param = rbuf_le32(r);
}

/* Reads the fixed fields of a radio-side type. Returns false for a type it
 * does not know; short reads latch r->bad. Sets *has_frame for
 * frame-carrying types and *str_ok false for an unterminated string. */
static bool read_radio_fields(struct rbuf *r, uint8_t type, struct medium_msg *msg, bool *has_frame,
			bool *str_ok)
{
	*has_frame = false;
	*str_ok = true;
	/* Switch on the raw byte: an unknown value never lands in the enum. */
	switch (type) {
	case MEDIUM_MSG_HELLO:
		rbuf_copy(r, msg->u.hello.addr, 6);
		*str_ok = read_string(r, msg->u.hello.name, sizeof(msg->u.hello.name));
		return true;
	case MEDIUM_MSG_SET_CHANNEL:
		msg->u.set_channel.freq_mhz = rbuf_le32(r);
		return true;
	case MEDIUM_MSG_TX:
		msg->u.tx.cookie = rbuf_le64(r);
		msg->u.tx.rate_100kbps = rbuf_le16(r);
		msg->u.tx.flags = rbuf_u8(r);
		msg->u.tx.retry_limit = rbuf_u8(r);
		*has_frame = true;
		return true;
	case MEDIUM_MSG_RADIO_ADDR:
		rbuf_copy(r, msg->u.radio_addr.addr, 6);
		msg->u.radio_addr.add = rbuf_u8(r);
		return true;
	case MEDIUM_MSG_RX:
		msg->u.rx.freq_mhz = rbuf_le32(r);
		msg->u.rx.signal_mbm = (int32_t)rbuf_le32(r);
		msg->u.rx.rate_100kbps = rbuf_le16(r);
		*has_frame = true;
		return true;
	case MEDIUM_MSG_TX_STATUS:
		msg->u.tx_status.cookie = rbuf_le64(r);
		msg->u.tx_status.acked = rbuf_u8(r);
		msg->u.tx_status.attempts = rbuf_u8(r);
		return true;
	case MEDIUM_MSG_WELCOME:
		msg->u.welcome.radio_id = rbuf_le32(r);
		return true;
	}
	return false;
}

/* The control-client messages and their replies. */
static bool read_ctrl_fields(struct rbuf *r, uint8_t type, struct medium_msg *msg,
			     bool *has_frame, bool *str_ok)
{
	switch (type) {
	case MEDIUM_MSG_CTRL_HELLO:
	case MEDIUM_MSG_CLEAR_FAULTS:
	case MEDIUM_MSG_GET_STATS:
		return true;
	case MEDIUM_MSG_SET_LINK:
		rbuf_copy(r, msg->u.set_link.addr_a, 6);
		rbuf_copy(r, msg->u.set_link.addr_b, 6);
		msg->u.set_link.signal_mbm = (int32_t)rbuf_le32(r);
		msg->u.set_link.loss_pct = rbuf_u8(r);
		return true;
	case MEDIUM_MSG_SET_POSITION:
		rbuf_copy(r, msg->u.set_position.addr, 6);
		msg->u.set_position.x_cm = (int32_t)rbuf_le32(r);
		msg->u.set_position.y_cm = (int32_t)rbuf_le32(r);
		return true;
	case MEDIUM_MSG_CAPTURE:
		*str_ok = read_string(r, msg->u.capture.path, sizeof(msg->u.capture.path));
		return true;
	case MEDIUM_MSG_FAULT:
		read_fault(r, &msg->u.fault);
		return true;
	case MEDIUM_MSG_INJECT:
		msg->u.inject.freq_mhz = rbuf_le32(r);
		msg->u.inject.signal_mbm = (int32_t)rbuf_le32(r);
		*has_frame = true;
		return true;
	case MEDIUM_MSG_CTRL_REPLY:
		msg->u.ctrl_reply.status = (int32_t)rbuf_le32(r);
		return true;
	case MEDIUM_MSG_STATS:
		read_stats(r, &msg->u.stats);
		return true;
	}
	return false;
}

int medium_msg_decode(const uint8_t *buf, size_t len, struct medium_msg *msg)
{
	struct rbuf r = rbuf_init(buf, len);
	bool has_frame, str_ok;

	memset(msg, 0, sizeof(*msg));
	uint8_t version = rbuf_u8(&r);
	uint8_t type = rbuf_u8(&r);
	uint16_t reserved = rbuf_le16(&r);
	if (r.bad || version != MEDIUM_PROTO_VERSION || reserved != 0)
		return -EBADMSG;
	if (!read_radio_fields(&r, type, msg, &has_frame, &str_ok) &&
	    !read_ctrl_fields(&r, type, msg, &has_frame, &str_ok))
		return -EPROTO;
	msg->type = (enum medium_msg_type)type;
	if (r.bad || !str_ok)
		return -EBADMSG;
	if (!has_frame)
		return rbuf_left(&r) == 0 ? 0 : -EBADMSG;
	msg->frame_len = rbuf_left(&r);
	if (msg->frame_len == 0)
		return -EBADMSG;
	if (msg->frame_len > MEDIUM_MAX_FRAME)
		return -EMSGSIZE;
	msg->frame = rbuf_take(&r, msg->frame_len);
	return 0;
}

/* ---- encoding ---- */

static void write_stats(struct wbuf *w, const struct medium_stats *st)
{
	wbuf_le64(w, st->frames_tx);
	wbuf_le64(w, st->frames_delivered);
	wbuf_le64(w, st->frames_lost);
	wbuf_le64(w, st->frames_faulted);
	wbuf_le64(w, st->bad_messages);
	wbuf_le32(w, st->radios);
	wbuf_le64(w, st->frames_acked);
	wbuf_le64(w, st->retries);
	wbuf_le64(w, st->frames_injected);
	wbuf_le64(w, st->rx_overflow);
}

static void write_fault(struct wbuf *w, const struct medium_fault_spec *f)
{
	wbuf_le16(w, f->frame_type);
	wbuf_put(w, f->source, 6);
	wbuf_le32(w, f->nth);
	wbuf_le32(w, f->count);
	wbuf_u8(w, f->action);
	wbuf_le32(w, f->param);
}

/* The control-client messages and their replies; see write_fields(). */
static int write_ctrl_fields(struct wbuf *w, const struct medium_msg *msg)
{
	switch (msg->type) {
	case MEDIUM_MSG_CTRL_HELLO:
	case MEDIUM_MSG_CLEAR_FAULTS:
	case MEDIUM_MSG_GET_STATS:
		return 0;
	case MEDIUM_MSG_SET_LINK:
		wbuf_put(w, msg->u.set_link.addr_a, 6);
		wbuf_put(w, msg->u.set_link.addr_b, 6);
		wbuf_le32(w, (uint32_t)msg->u.set_link.signal_mbm);
		wbuf_u8(w, msg->u.set_link.loss_pct);
		return 0;
	case MEDIUM_MSG_SET_POSITION:
		wbuf_put(w, msg->u.set_position.addr, 6);
		wbuf_le32(w, (uint32_t)msg->u.set_position.x_cm);
		wbuf_le32(w, (uint32_t)msg->u.set_position.y_cm);
		return 0;
	case MEDIUM_MSG_CAPTURE:
		if (!has_nul(msg->u.capture.path, sizeof(msg->u.capture.path)))
			return -EINVAL;
		wbuf_put(w, msg->u.capture.path, sizeof(msg->u.capture.path));
		return 0;
	case MEDIUM_MSG_FAULT:
		write_fault(w, &msg->u.fault);
		return 0;
	case MEDIUM_MSG_INJECT:
		wbuf_le32(w, msg->u.inject.freq_mhz);
		wbuf_le32(w, (uint32_t)msg->u.inject.signal_mbm);
		return 1;
	case MEDIUM_MSG_CTRL_REPLY:
		wbuf_le32(w, (uint32_t)msg->u.ctrl_reply.status);
		return 0;
	case MEDIUM_MSG_STATS:
		write_stats(w, &msg->u.stats);
		return 0;
	default:
		return -EINVAL;
	}
}

/* Writes the fixed fields. Returns 1 when the type carries a frame, 0 when
 * not, -EINVAL for an unknown type or an unterminated string. */
static int write_fields(struct wbuf *w, const struct medium_msg *msg)
{
	switch (msg->type) {
	case MEDIUM_MSG_HELLO:
		if (!has_nul(msg->u.hello.name, sizeof(msg->u.hello.name)))
			return -EINVAL;
		wbuf_put(w, msg->u.hello.addr, 6);
		wbuf_put(w, msg->u.hello.name, sizeof(msg->u.hello.name));
		return 0;
	case MEDIUM_MSG_SET_CHANNEL:
		wbuf_le32(w, msg->u.set_channel.freq_mhz);
		return 0;
	case MEDIUM_MSG_TX:
		wbuf_le64(w, msg->u.tx.cookie);
		wbuf_le16(w, msg->u.tx.rate_100kbps);
		wbuf_u8(w, msg->u.tx.flags);
		wbuf_u8(w, msg->u.tx.retry_limit);
		return 1;
	case MEDIUM_MSG_RADIO_ADDR:
		wbuf_put(w, msg->u.radio_addr.addr, 6);
		wbuf_u8(w, msg->u.radio_addr.add);
		return 0;
	case MEDIUM_MSG_RX:
		wbuf_le32(w, msg->u.rx.freq_mhz);
		wbuf_le32(w, (uint32_t)msg->u.rx.signal_mbm);
		wbuf_le16(w, msg->u.rx.rate_100kbps);
		return 1;
	case MEDIUM_MSG_TX_STATUS:
		wbuf_le64(w, msg->u.tx_status.cookie);
		wbuf_u8(w, msg->u.tx_status.acked);
		wbuf_u8(w, msg->u.tx_status.attempts);
		return 0;
	case MEDIUM_MSG_WELCOME:
		wbuf_le32(w, msg->u.welcome.radio_id);
		return 0;
	default:
		return write_ctrl_fields(w, msg);
	}
}

int medium_msg_encode(const struct medium_msg *msg, uint8_t *out, size_t cap)
{
	struct wbuf w = wbuf_init(out, cap);

	if (!msg || !out)
		return -EINVAL;
	wbuf_u8(&w, MEDIUM_PROTO_VERSION);
	wbuf_u8(&w, (uint8_t)msg->type);
	wbuf_le16(&w, 0);
	int with_frame = write_fields(&w, msg);
	if (with_frame < 0)
		return with_frame;
	if (with_frame) {
		if (msg->frame_len > MEDIUM_MAX_FRAME)
			return -EMSGSIZE;
		if (!msg->frame || msg->frame_len == 0)
			return -EINVAL;
		wbuf_put(&w, msg->frame, msg->frame_len);
	}
	if (w.bad)
		return -ENOBUFS;
	return (int)w.len;
}

void medium_msg_patch_rx_signal(uint8_t *encoded_rx, int32_t signal_mbm)
{
	uint32_t v = (uint32_t)signal_mbm;
	put_le16(encoded_rx + MEDIUM_RX_SIGNAL_OFFSET, (uint16_t)v);
	put_le16(encoded_rx + MEDIUM_RX_SIGNAL_OFFSET + 2, (uint16_t)(v >> 16));
}

const char *medium_msg_type_name(enum medium_msg_type type)
{
	switch (type) {
	case MEDIUM_MSG_HELLO:
		return "HELLO";
	case MEDIUM_MSG_SET_CHANNEL:
		return "SET_CHANNEL";
	case MEDIUM_MSG_TX:
		return "TX";
	case MEDIUM_MSG_RADIO_ADDR:
		return "RADIO_ADDR";
	case MEDIUM_MSG_RX:
		return "RX";
	case MEDIUM_MSG_TX_STATUS:
		return "TX_STATUS";
	case MEDIUM_MSG_WELCOME:
		return "WELCOME";
	case MEDIUM_MSG_CTRL_HELLO:
		return "CTRL_HELLO";
	case MEDIUM_MSG_SET_LINK:
		return "SET_LINK";
	case MEDIUM_MSG_SET_POSITION:
		return "SET_POSITION";
	case MEDIUM_MSG_CAPTURE:
		return "CAPTURE";
	case MEDIUM_MSG_FAULT:
		return "FAULT";
	case MEDIUM_MSG_INJECT:
		return "INJECT";
	case MEDIUM_MSG_CLEAR_FAULTS:
		return "CLEAR_FAULTS";
	case MEDIUM_MSG_GET_STATS:
		return "GET_STATS";
	case MEDIUM_MSG_CTRL_REPLY:
		return "CTRL_REPLY";
	case MEDIUM_MSG_STATS:
		return "STATS";
	}
	return "UNKNOWN";
}
