/* The medium's side of control messages (SET_LINK, CAPTURE, FAULT, ...):
 * each one maps onto the public call of the same name and is answered with
 * CTRL_REPLY carrying its status, or STATS. INJECT is answered once the
 * frame has been on the air, so a client that waits for the reply knows the
 * radios have it. */
#define LOG_TAG "medium"
#include "daemon/core/log.h"
#include "drivers/sim/medium-internal.h"

#include <errno.h>
#include <string.h>

void medium_ctrl_reply(struct medium_client *c, int status)
{
	struct medium_msg reply = { .type = MEDIUM_MSG_CTRL_REPLY };
	reply.u.ctrl_reply.status = status;
	medium_client_send_msg(c, &reply);
}

static void send_stats(struct medium_client *c)
{
	struct medium_msg reply = { .type = MEDIUM_MSG_STATS };
	medium_get_stats(c->m, &reply.u.stats);
	medium_client_send_msg(c, &reply);
}

static int capture(struct medium *m, const char *path)
{
	if (!path[0]) {
		medium_capture_stop(m);
		return 0;
	}
	return medium_capture_start(m, path);
}

void medium_ctrl_handle(struct medium_client *c, const struct medium_msg *msg)
{
	struct medium *m = c->m;
	int r;

	if (c->kind == MEDIUM_CLIENT_NEW)
		c->kind = MEDIUM_CLIENT_CONTROL;
	switch (msg->type) {
	case MEDIUM_MSG_SET_LINK:
		r = medium_set_link(m, msg->u.set_link.addr_a, msg->u.set_link.addr_b,
				    msg->u.set_link.signal_mbm, msg->u.set_link.loss_pct);
		break;
	case MEDIUM_MSG_SET_POSITION:
		r = medium_set_position(m, msg->u.set_position.addr, msg->u.set_position.x_cm,
					msg->u.set_position.y_cm);
		break;
	case MEDIUM_MSG_CAPTURE:
		r = capture(m, msg->u.capture.path);
		break;
	case MEDIUM_MSG_FAULT:
		r = medium_add_fault(m, &msg->u.fault);
		break;
	case MEDIUM_MSG_CLEAR_FAULTS:
		medium_clear_faults(m);
		r = 0;
		break;
	case MEDIUM_MSG_INJECT:
		r = medium_air_inject(m, c, msg->u.inject.freq_mhz, msg->u.inject.signal_mbm,
				      msg->frame, msg->frame_len);
		if (r == 0)
			return; /* answered when the frame has been on the air */
		break;
	case MEDIUM_MSG_GET_STATS:
		send_stats(c);
		return;
	default: /* CTRL_HELLO */
		r = 0;
		break;
	}
	if (r < 0)
		log_debug("client %u: %s refused: %s", c->id, medium_msg_type_name(msg->type),
			  strerror(-r));
	medium_ctrl_reply(c, r);
}
