/* wpad-medium's control mode: turn one command line into one control
 * message, send it, and report the medium's answer (see medium-ctl.h). */
#include "drivers/sim/medium-ctl.h"
#include "drivers/sim/medium-proto.h"
#include "drivers/sim/medium.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define REPLY_TIMEOUT_MS 5000

void medium_ctl_usage(FILE *out)
{
	fprintf(out,
		"Control commands (wpad-medium -D DIR ctl COMMAND ...):\n"
		"  set-link ADDR_A ADDR_B SIGNAL_DBM|none LOSS_PCT\n"
		"  set-position ADDR X_M Y_M\n"
		"  capture FILE | capture-stop\n"
		"  fault [type=FC_TYPE] [src=ADDR] [nth=N] [count=N] drop|delay MS|corrupt OFFSET|duplicate\n"
		"  clear-faults\n"
		"  inject FREQ_MHZ SIGNAL_DBM HEXFRAME\n"
		"  spoof-deauth FREQ_MHZ SIGNAL_DBM FROM TO [REASON] [disassoc]\n"
		"  stats\n");
}

bool medium_parse_addr(const char *s, uint8_t addr[6])
{
	unsigned v[6];
	char tail;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &tail) != 6)
		return false;
	for (int i = 0; i < 6; i++) {
		if (v[i] > 0xff)
			return false;
		addr[i] = (uint8_t)v[i];
	}
	return true;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long medium_parse_hex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;

	while (*s) {
		if (*s == ':' || *s == ' ') {
			s++;
			continue;
		}
		int hi = hex_digit(s[0]);
		int lo = hi < 0 ? -1 : hex_digit(s[1]);
		if (lo < 0 || n == cap)
			return -1;
		out[n++] = (uint8_t)(hi << 4 | lo);
		s += 2;
	}
	return (long)n;
}

static bool parse_long(const char *s, long long min, long long max, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* Decimal number times scale, rounded: "-60.5" dBm -> -6050 mBm. */
static bool parse_scaled(const char *s, double scale, int32_t *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || fabs(v * scale) > 2e9)
		return false;
	*out = (int32_t)lround(v * scale);
	return true;
}

/* ---- building the message ---- */

static int build_set_link(int argc, char **argv, struct medium_msg *msg)
{
	long long loss;

	msg->type = MEDIUM_MSG_SET_LINK;
	if (argc != 5 || !medium_parse_addr(argv[1], msg->u.set_link.addr_a) ||
	    !medium_parse_addr(argv[2], msg->u.set_link.addr_b) ||
	    !parse_long(argv[4], 0, 100, &loss))
		return -1;
	if (strcmp(argv[3], "none") == 0)
		msg->u.set_link.signal_mbm = MEDIUM_NO_SIGNAL_MBM;
	else if (!parse_scaled(argv[3], 100, &msg->u.set_link.signal_mbm))
		return -1;
	msg->u.set_link.loss_pct = (uint8_t)loss;
	return 0;
}

static int build_set_position(int argc, char **argv, struct medium_msg *msg)
{
	msg->type = MEDIUM_MSG_SET_POSITION;
	if (argc != 4 || !medium_parse_addr(argv[1], msg->u.set_position.addr) ||
	    !parse_scaled(argv[2], 100, &msg->u.set_position.x_cm) ||
	    !parse_scaled(argv[3], 100, &msg->u.set_position.y_cm))
		return -1;
	return 0;
}

static int build_capture(int argc, char **argv, struct medium_msg *msg)
{
	msg->type = MEDIUM_MSG_CAPTURE;
	if (strcmp(argv[0], "capture-stop") == 0)
		return argc == 1 ? 0 : -1;
	if (argc != 2 || strlen(argv[1]) >= sizeof(msg->u.capture.path))
		return -1;
	strcpy(msg->u.capture.path, argv[1]);
	return 0;
}

static int parse_fault_action(int argc, char **argv, int i, struct medium_fault_spec *f)
{
	static const char *const names[] = { NULL, "drop", "delay", "corrupt", "duplicate" };
	long long param = 0;

	for (uint8_t a = MEDIUM_FAULT_DROP; a <= MEDIUM_FAULT_DUPLICATE; a++)
		if (strcmp(argv[i], names[a]) == 0)
			f->action = a;
	if (!f->action)
		return -1;
	bool wants_param = f->action == MEDIUM_FAULT_DELAY || f->action == MEDIUM_FAULT_CORRUPT;
	if (argc != i + 1 + wants_param)
		return -1;
	if (wants_param && !parse_long(argv[i + 1], 0, UINT32_MAX, &param))
		return -1;
	f->param = (uint32_t)param;
	return 0;
}

static int build_fault(int argc, char **argv, struct medium_msg *msg)
{
	struct medium_fault_spec *f = &msg->u.fault;
	long long v;
	int i = 1;

	msg->type = MEDIUM_MSG_FAULT;
	f->frame_type = MEDIUM_FAULT_ANY_TYPE;
	memset(f->source, 0xff, 6);
	f->nth = 1;
	for (; i < argc && strchr(argv[i], '='); i++) {
		const char *val = strchr(argv[i], '=') + 1;
		if (strncmp(argv[i], "type=", 5) == 0 && parse_long(val, 0, 0xffff, &v))
			f->frame_type = (uint16_t)v;
		else if (strncmp(argv[i], "src=", 4) == 0 && medium_parse_addr(val, f->source))
			continue;
		else if (strncmp(argv[i], "nth=", 4) == 0 && parse_long(val, 1, UINT32_MAX, &v))
			f->nth = (uint32_t)v;
		else if (strncmp(argv[i], "count=", 6) == 0 && parse_long(val, 0, UINT32_MAX, &v))
			f->count = (uint32_t)v;
		else
			return -1;
	}
	return i < argc ? parse_fault_action(argc, argv, i, f) : -1;
}

/* The frame lives in buf, which must outlive the message. */
static int build_inject(int argc, char **argv, struct medium_msg *msg, uint8_t *buf)
{
	long long freq;
	long n;

	msg->type = MEDIUM_MSG_INJECT;
	if (argc != 4 || !parse_long(argv[1], 1, UINT32_MAX, &freq) ||
	    !parse_scaled(argv[2], 100, &msg->u.inject.signal_mbm))
		return -1;
	n = medium_parse_hex(argv[3], buf, MEDIUM_MAX_FRAME);
	if (n <= 0)
		return -1;
	msg->u.inject.freq_mhz = (uint32_t)freq;
	msg->frame = buf;
	msg->frame_len = (size_t)n;
	return 0;
}

/* An unprotected Deauthentication (or Disassociation) that claims to come
 * from FROM (transmitter and BSSID) to TO: the spoof management frame
 * protection is about. Injected like any frame; reason 7 by default. */
static int build_spoof_deauth(int argc, char **argv, struct medium_msg *msg, uint8_t *buf)
{
	long long freq, reason = 7;
	bool disassoc = false;
	uint8_t from[6], to[6];

	msg->type = MEDIUM_MSG_INJECT;
	if (argc < 5 || argc > 7 || !parse_long(argv[1], 1, UINT32_MAX, &freq) ||
	    !parse_scaled(argv[2], 100, &msg->u.inject.signal_mbm) ||
	    !medium_parse_addr(argv[3], from) || !medium_parse_addr(argv[4], to))
		return -1;
	for (int i = 5; i < argc; i++) {
		if (strcmp(argv[i], "disassoc") == 0)
			disassoc = true;
		else if (!parse_long(argv[i], 0, 0xffff, &reason))
			return -1;
	}
	memset(buf, 0, 26);
	buf[0] = disassoc ? 0xa0 : 0xc0;
	memcpy(buf + 4, to, 6);
	memcpy(buf + 10, from, 6);
	memcpy(buf + 16, from, 6);
	buf[24] = (uint8_t)reason;
	buf[25] = (uint8_t)(reason >> 8);
	msg->u.inject.freq_mhz = (uint32_t)freq;
	msg->frame = buf;
	msg->frame_len = 26;
	return 0;
}

static int build(int argc, char **argv, struct medium_msg *msg, uint8_t *frame_buf)
{
	const char *cmd = argv[0];

	memset(msg, 0, sizeof(*msg));
	if (strcmp(cmd, "set-link") == 0)
		return build_set_link(argc, argv, msg);
	if (strcmp(cmd, "set-position") == 0)
		return build_set_position(argc, argv, msg);
	if (strcmp(cmd, "capture") == 0 || strcmp(cmd, "capture-stop") == 0)
		return build_capture(argc, argv, msg);
	if (strcmp(cmd, "fault") == 0)
		return build_fault(argc, argv, msg);
	if (strcmp(cmd, "inject") == 0)
		return build_inject(argc, argv, msg, frame_buf);
	if (strcmp(cmd, "spoof-deauth") == 0)
		return build_spoof_deauth(argc, argv, msg, frame_buf);
	msg->type = strcmp(cmd, "clear-faults") == 0 ? MEDIUM_MSG_CLEAR_FAULTS
		    : strcmp(cmd, "stats") == 0      ? MEDIUM_MSG_GET_STATS
						       : 0;
	return msg->type && argc == 1 ? 0 : -1;
}

/* ---- talking to the medium ---- */

static int send_msg(int fd, const struct medium_msg *msg)
{
	uint8_t buf[MEDIUM_MAX_MSG];
	int n = medium_msg_encode(msg, buf, sizeof(buf));
	if (n < 0)
		return n;
	return send(fd, buf, (size_t)n, MSG_NOSIGNAL) == n ? 0 : -errno;
}

static int recv_msg(int fd, struct medium_msg *msg, uint8_t *buf, size_t cap)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r = poll(&p, 1, REPLY_TIMEOUT_MS);
	if (r == 0)
		return -ETIMEDOUT;
	if (r < 0)
		return -errno;
	ssize_t n = recv(fd, buf, cap, 0);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ECONNRESET;
	return medium_msg_decode(buf, (size_t)n, msg);
}

static void print_stats(const struct medium_stats *st)
{
	printf("radios %" PRIu32 "\nframes_tx %" PRIu64 "\nframes_delivered %" PRIu64
	       "\nframes_lost %" PRIu64 "\nframes_faulted %" PRIu64 "\nbad_messages %" PRIu64
	       "\nframes_acked %" PRIu64 "\nretries %" PRIu64 "\nframes_injected %" PRIu64
	       "\nrx_overflow %" PRIu64 "\n",
	       st->radios, st->frames_tx, st->frames_delivered, st->frames_lost,
	       st->frames_faulted, st->bad_messages, st->frames_acked, st->retries,
	       st->frames_injected, st->rx_overflow);
}

/* Sends msg and waits for its answer. Returns the medium's status. */
static int exchange(int fd, const struct medium_msg *msg)
{
	uint8_t buf[MEDIUM_MAX_MSG];
	struct medium_msg reply;
	int r = send_msg(fd, msg);

	if (r < 0)
		return r;
	r = recv_msg(fd, &reply, buf, sizeof(buf));
	if (r < 0)
		return r;
	if (reply.type == MEDIUM_MSG_STATS && msg->type == MEDIUM_MSG_GET_STATS) {
		print_stats(&reply.u.stats);
		return 0;
	}
	return reply.type == MEDIUM_MSG_CTRL_REPLY ? reply.u.ctrl_reply.status : -EPROTO;
}

int medium_ctl_main(const char *dir, int argc, char **argv)
{
	static uint8_t frame[MEDIUM_MAX_FRAME];
	struct medium_msg msg, hello = { .type = MEDIUM_MSG_CTRL_HELLO };

	if (argc < 1 || build(argc, argv, &msg, frame) < 0) {
		medium_ctl_usage(stderr);
		return 2;
	}
	int fd = medium_connect_path(dir);
	if (fd < 0) {
		fprintf(stderr, "wpad-medium ctl: cannot reach the medium in %s: %s\n", dir,
			strerror(-fd));
		return 1;
	}
	int r = exchange(fd, &hello);
	if (r == 0)
		r = exchange(fd, &msg);
	close(fd);
	if (r < 0) {
		fprintf(stderr, "wpad-medium ctl %s: %s\n", argv[0], strerror(-r));
		return 1;
	}
	return 0;
}
