/* The two netlink sockets and the one place that waits for the kernel.
 *
 * `cmd` carries requests. nl80211_request() sends one and polls the socket
 * for its answer with a deadline (NL80211_REQ_TIMEOUT_MS): the only blocking
 * wait in the backend, and a bounded one. The kernel also delivers unicast
 * messages on cmd (received frames we registered for, control-port EAPOL):
 * those met while waiting are queued and handled from an idle callback, so
 * no event reaches the roles from inside an op; between requests the loop
 * reads cmd like any other socket.
 *
 * `ev` joins the multicast groups "config", "scan", "regulatory", "mlme" and
 * (when the kernel has it) "vendor", and is read by the loop only.
 *
 * Errors: the kernel's NLMSG_ERROR code is a negative errno and is returned
 * as is (so -ENOPKG for missing firmware stays -ENOPKG); the extended ACK
 * text (NLMSGERR_ATTR_MSG), when the kernel gives one, is logged. libnl's
 * own failures map to -ENOMEM, -ETIMEDOUT or -EIO.
 */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/nl80211.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define SOCK_BUF_BYTES (1024 * 1024)

static int nl_to_errno(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case NLE_NOMEM: return -ENOMEM;
	case NLE_AGAIN: return -EAGAIN;
	case NLE_DUMP_INTR: return -EAGAIN;
	case NLE_OBJ_NOTFOUND: return -ENOENT;
	case NLE_MSGSIZE: return -EMSGSIZE;
	case NLE_PERM: return -EPERM;
	case NLE_BUSY: return -EBUSY;
	default: return -EIO;
	}
}

struct nl_msg *nl80211_cmd(struct nl80211 *nl, uint8_t cmd, int flags)
{
	return nl80211_msg_new(nl->family, cmd, flags);
}

/* ---- unsolicited messages on cmd ---- */

static void queue_unsolicited(struct nl80211 *nl, struct nl_msg *msg)
{
	if (nl->n_unsolicited == nl->cap_unsolicited) {
		size_t cap = nl->cap_unsolicited ? 2 * nl->cap_unsolicited : 16;
		struct nl_msg **grown = realloc(nl->unsolicited, cap * sizeof(*grown));
		if (!grown) {
			log_warn("out of memory: dropped an unsolicited nl80211 message");
			return;
		}
		nl->unsolicited = grown;
		nl->cap_unsolicited = cap;
	}
	nlmsg_get(msg);
	nl->unsolicited[nl->n_unsolicited++] = msg;
}

void nl80211_drain_unsolicited(struct nl80211 *nl)
{
	size_t i = 0;
	/* Handlers may send requests, which may queue more: walk by index. */
	while (i < nl->n_unsolicited && !nl->closing) {
		struct nl_msg *msg = nl->unsolicited[i++];
		nl80211_handle_event(nl, msg);
		nlmsg_free(msg);
	}
	for (; i < nl->n_unsolicited; i++)
		nlmsg_free(nl->unsolicited[i]);
	nl->n_unsolicited = 0;
}

/* ---- callbacks ---- */

static int cb_seq_ok(struct nl_msg *msg, void *arg)
{
	return NL_OK;
}

static bool is_answer(struct nl80211 *nl, const struct nlmsghdr *h)
{
	return nl->req.active && h->nlmsg_seq == nl->req.seq;
}

static int cb_cmd_valid(struct nl_msg *msg, void *arg)
{
	struct nl80211 *nl = arg;

	if (is_answer(nl, nlmsg_hdr(msg))) {
		if (nl->req.handler)
			nl->req.handler(msg, nl->req.arg);
		return NL_OK;
	}
	queue_unsolicited(nl, msg);
	return NL_OK;
}

static int cb_cmd_ack(struct nl_msg *msg, void *arg)
{
	struct nl80211 *nl = arg;
	if (is_answer(nl, nlmsg_hdr(msg)))
		nl->req.done = true;
	return NL_STOP;
}

static int cb_cmd_finish(struct nl_msg *msg, void *arg)
{
	struct nl80211 *nl = arg;
	struct nlmsghdr *h = nlmsg_hdr(msg);

	if (!is_answer(nl, h))
		return NL_SKIP;
	/* A dump that failed midway says so in NLMSG_DONE's payload. */
	if (nlmsg_datalen(h) >= (int)sizeof(int)) {
		int code;
		memcpy(&code, nlmsg_data(h), sizeof(code));
		if (code < 0)
			nl->req.err = code;
	}
	nl->req.done = true;
	return NL_STOP;
}

static int cb_cmd_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct nl80211 *nl = arg;
	struct nlmsghdr *h = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	char text[256];

	if (!nl->req.active || e->msg.nlmsg_seq != nl->req.seq)
		return NL_SKIP;
	nl->req.err = e->error < 0 ? e->error : -EIO;
	nl->req.done = true;
	if (nl80211_parse_ext_ack(h, text, sizeof(text)) == 0)
		log_warn("kernel refused the request: %s (%s)", text, strerror(-nl->req.err));
	return NL_STOP;
}

static int cb_ev_valid(struct nl_msg *msg, void *arg)
{
	struct nl80211 *nl = arg;
	if (!nl->closing)
		nl80211_handle_event(nl, msg);
	return NL_OK;
}

/* ---- requests ---- */

/* Reads first and polls only when nothing is queued: generic netlink
 * runs a command in the sender's context, so its answer is on the socket
 * by the time the send returns, and a poll before every read was a
 * syscall per request for nothing (issue 21). nl_recvmsgs_report counts
 * the messages read: 0 or -NLE_AGAIN (by libnl version) is "nothing yet". */
static int wait_answer(struct nl80211 *nl)
{
	/* The clock is read only when the answer is not queued yet: a
	 * clock_gettime per request is a system call where the clock has
	 * no vDSO (qemu's HPET), and the answer is nearly always there. */
	uint64_t deadline = 0;
	struct pollfd pfd = { .fd = nl_socket_get_fd(nl->cmd), .events = POLLIN };

	for (;;) {
		int r = nl_recvmsgs_report(nl->cmd, nl->cmd_cb);
		/* A refusal ends the read with libnl's code for it: the
		 * kernel's own errno is in req.err. */
		if (nl->req.done)
			break;
		if (r < 0 && r != -NLE_AGAIN)
			return nl_to_errno(r);
		if (r > 0)
			continue; /* read something (queued for later, or part of a dump): read on */
		uint64_t now = loop_now_us(nl->loop);
		if (!deadline)
			deadline = now + (uint64_t)NL80211_REQ_TIMEOUT_MS * 1000u;
		if (now >= deadline)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)((deadline - now + 999) / 1000));
		if (r < 0 && errno != EINTR)
			return -errno;
	}
	return nl->req.err;
}

int nl80211_request(struct nl80211 *nl, struct nl_msg *msg,
		    int (*handler)(struct nl_msg *msg, void *arg), void *arg)
{
	if (!msg)
		return -ENOMEM;
	if (nl->req.active || nl->closing) {
		nlmsg_free(msg);
		return nl->closing ? -ESHUTDOWN : -EBUSY;
	}
	int r = nl_send_auto(nl->cmd, msg);
	uint32_t seq = nlmsg_hdr(msg)->nlmsg_seq;
	uint8_t cmd = ((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(msg)))->cmd;
	nlmsg_free(msg);
	if (r < 0)
		return nl_to_errno(r);
	nl->req.active = true;
	nl->req.seq = seq;
	nl->req.done = false;
	nl->req.err = 0;
	nl->req.handler = handler;
	nl->req.arg = arg;
	r = wait_answer(nl);
	nl->req.active = false;
	if (r == -ETIMEDOUT)
		log_warn("nl80211 command %u: no answer in %d ms", cmd, NL80211_REQ_TIMEOUT_MS);
	else if (r < 0)
		log_debug("nl80211 command %u: %s", cmd, strerror(-r));
	if (nl->n_unsolicited)
		nl80211_schedule(nl);
	return r;
}

static int cookie_handler(struct nl_msg *msg, void *arg)
{
	struct nl80211_event e;
	uint64_t *cookie = arg;
	if (nl80211_parse_event(nlmsg_hdr(msg), &e) == 0 && e.has_cookie)
		*cookie = e.cookie;
	return NL_OK;
}

/* Sends a message an nl80211_build_*() filled; built is that builder's
 * result (-ENOMEM when nl80211_cmd() gave no message). A failed build is
 * freed here, so every caller owns the message up to this one call. */
int nl80211_request_built(struct nl80211 *nl, struct nl_msg *msg, int built,
			  int (*handler)(struct nl_msg *msg, void *arg), void *arg)
{
	if (built < 0) {
		nlmsg_free(msg);
		return built;
	}
	return nl80211_request(nl, msg, handler, arg);
}

int nl80211_request_cookie(struct nl80211 *nl, struct nl_msg *msg, uint64_t *cookie)
{
	*cookie = 0;
	return nl80211_request(nl, msg, cookie_handler, cookie);
}

/* ---- loop integration ---- */

static void cmd_readable(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct nl80211 *nl = data;

	nl80211_enter(nl);
	int r = nl_recvmsgs(nl->cmd, nl->cmd_cb);
	if (r < 0 && r != -NLE_AGAIN)
		log_debug("reading the command socket: %s", nl_geterror(r));
	nl80211_drain_unsolicited(nl);
	nl80211_leave(nl);
}

static void ev_readable(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct nl80211 *nl = data;

	nl80211_enter(nl);
	int r = nl_recvmsgs(nl->ev, nl->ev_cb);
	if (r == -NLE_NOMEM)
		log_warn("event socket overrun: some nl80211 events were lost");
	else if (r < 0 && r != -NLE_AGAIN)
		log_debug("reading the event socket: %s", nl_geterror(r));
	nl80211_leave(nl);
}

static int join_groups(struct nl80211 *nl)
{
	static const struct { const char *name; bool required; } groups[] = {
		{ "config", true }, { "scan", true }, { "regulatory", false },
		{ "mlme", true },   { "vendor", false },
	};
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		int id = genl_ctrl_resolve_grp(nl->cmd, "nl80211", groups[i].name);
		if (id < 0) {
			if (groups[i].required) {
				log_error("nl80211 has no multicast group '%s'", groups[i].name);
				return -ENOENT;
			}
			continue;
		}
		int r = nl_socket_add_membership(nl->ev, id);
		if (r < 0)
			return nl_to_errno(r);
		if (strcmp(groups[i].name, "regulatory") == 0)
			nl->reg_events = true;
	}
	return 0;
}

static struct nl_cb *make_cb(struct nl80211 *nl, bool cmd)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_CUSTOM);
	if (!cb)
		return NULL;
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, cb_seq_ok, NULL);
	if (!cmd) {
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, cb_ev_valid, nl);
		return cb;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, cb_cmd_valid, nl);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, cb_cmd_ack, nl);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, cb_cmd_finish, nl);
	nl_cb_err(cb, NL_CB_CUSTOM, cb_cmd_error, nl);
	return cb;
}

static int connect_sockets(struct nl80211 *nl)
{
	int one = 1;

	nl->cmd = nl_socket_alloc();
	nl->ev = nl_socket_alloc();
	if (!nl->cmd || !nl->ev)
		return -ENOMEM;
	if (genl_connect(nl->cmd) < 0 || genl_connect(nl->ev) < 0)
		return -EAFNOSUPPORT;
	nl->family = genl_ctrl_resolve(nl->cmd, "nl80211");
	if (nl->family < 0) {
		log_error("the kernel has no nl80211 (cfg80211 not loaded?)");
		return -ENOENT;
	}
	/* Extended ACK: the kernel says why it refused; capped: without an
	 * echo of our request. */
	setsockopt(nl_socket_get_fd(nl->cmd), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->cmd), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	nl_socket_set_buffer_size(nl->cmd, SOCK_BUF_BYTES, SOCK_BUF_BYTES);
	nl_socket_set_buffer_size(nl->ev, SOCK_BUF_BYTES, SOCK_BUF_BYTES);
	nl_socket_disable_seq_check(nl->ev);
	return join_groups(nl);
}

int nl80211_sock_open(struct nl80211 *nl)
{
	int r = connect_sockets(nl);
	if (r < 0)
		return r;
	nl->cmd_cb = make_cb(nl, true);
	nl->ev_cb = make_cb(nl, false);
	if (!nl->cmd_cb || !nl->ev_cb)
		return -ENOMEM;
	if (nl_socket_set_nonblocking(nl->cmd) < 0 || nl_socket_set_nonblocking(nl->ev) < 0)
		return -EIO;
	nl->cmd_io = loop_io_new(nl->loop, nl_socket_get_fd(nl->cmd), EPOLLIN, cmd_readable, nl);
	nl->ev_io = loop_io_new(nl->loop, nl_socket_get_fd(nl->ev), EPOLLIN, ev_readable, nl);
	if (!nl->cmd_io || !nl->ev_io)
		return -ENOMEM;
	return 0;
}

void nl80211_sock_close(struct nl80211 *nl)
{
	loop_io_free(nl->cmd_io);
	loop_io_free(nl->ev_io);
	nl->cmd_io = nl->ev_io = NULL;
	for (size_t i = 0; i < nl->n_unsolicited; i++)
		nlmsg_free(nl->unsolicited[i]);
	free(nl->unsolicited);
	nl->unsolicited = NULL;
	nl->n_unsolicited = nl->cap_unsolicited = 0;
	if (nl->cmd_cb)
		nl_cb_put(nl->cmd_cb);
	if (nl->ev_cb)
		nl_cb_put(nl->ev_cb);
	nl->cmd_cb = nl->ev_cb = NULL;
	/* Closing cmd makes the kernel remove the interfaces we created with
	 * SOCKET_OWNER and end the AP/association tied to it. */
	if (nl->cmd)
		nl_socket_free(nl->cmd);
	if (nl->ev)
		nl_socket_free(nl->ev);
	nl->cmd = nl->ev = NULL;
}
