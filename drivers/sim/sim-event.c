/* The deferred event queue of the sim backend.
 *
 * Every event the backend raises is deep-copied into a FIFO and delivered
 * from an idle callback of the loop. So an op never calls back into the
 * code that called it (iface_add returns before IFACE_NEW arrives), events
 * keep the order they were raised in, and an event may outlive the
 * interface it names. The callback may call any op, including driver_close:
 * the drain loop notices and stops touching the instance.
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <stdlib.h>
#include <string.h>

struct sim_event_entry {
	struct sim_event_entry *next;
	struct driver_event ev;
	uint8_t data[]; /* copies of everything ev points to */
};

/* A borrowed buffer of ev, by reference, so one routine can size and copy
 * them all. */
struct ev_ref {
	const uint8_t **ptr;
	size_t len;
};

static size_t ev_refs(struct driver_event *ev, struct ev_ref refs[3])
{
	switch (ev->type) {
	case DRIVER_EV_RX_MGMT:
	case DRIVER_EV_AUTH:
	case DRIVER_EV_ASSOC:
	case DRIVER_EV_DEAUTH:
	case DRIVER_EV_DISASSOC:
	case DRIVER_EV_UNPROT_DEAUTH:
	case DRIVER_EV_UNPROT_DISASSOC:
		refs[0] = (struct ev_ref){ &ev->u.mgmt.frame, ev->u.mgmt.len };
		return 1;
	case DRIVER_EV_TX_STATUS:
	case DRIVER_EV_EAPOL_TX_STATUS:
	case DRIVER_EV_AUTH_TX_STATUS:
		refs[0] = (struct ev_ref){ &ev->u.tx_status.frame, ev->u.tx_status.len };
		return 1;
	case DRIVER_EV_RX_EAPOL:
	case DRIVER_EV_RX_DATA:
		refs[0] = (struct ev_ref){ &ev->u.data.src, SIM_ADDR_LEN };
		refs[1] = (struct ev_ref){ &ev->u.data.dst, SIM_ADDR_LEN };
		refs[2] = (struct ev_ref){ &ev->u.data.body, ev->u.data.len };
		return 3;
	case DRIVER_EV_BEACON_LOSS:
	case DRIVER_EV_STA_INACTIVE:
	case DRIVER_EV_MIC_FAILURE:
		refs[0] = (struct ev_ref){ &ev->u.peer.addr, SIM_ADDR_LEN };
		return 1;
	case DRIVER_EV_EXTERNAL_AUTH:
		refs[0] = (struct ev_ref){ &ev->u.external_auth.bssid, SIM_ADDR_LEN };
		return 1;
	case DRIVER_EV_RADIO_NEW:
	case DRIVER_EV_RADIO_DEL:
	case DRIVER_EV_IFACE_NEW:
	case DRIVER_EV_IFACE_DEL:
	case DRIVER_EV_SCAN_STARTED:
	case DRIVER_EV_SCAN_DONE:
	case DRIVER_EV_SCAN_ABORTED:
	case DRIVER_EV_QUEUE_STOPPED:
	case DRIVER_EV_QUEUE_WOKEN:
	case DRIVER_EV_REG_CHANGE:
	case DRIVER_EV_RADAR:
	case DRIVER_EV_CH_SWITCHED:
	case DRIVER_EV_RADIO_ERROR: /* detail is always a string literal */
	case DRIVER_EV_LINK_CHANGE: /* no pointers */
	case DRIVER_EV_PROBE_STATUS: /* no frame: cookie and ack only */
		return 0;
	}
	return 0;
}

void sim_emit(struct sim *sim, const struct driver_event *ev)
{
	struct driver_event copy = *ev;
	struct ev_ref refs[3];
	size_t n = ev_refs(&copy, refs), total = 0;

	for (size_t i = 0; i < n; i++)
		if (*refs[i].ptr)
			total += refs[i].len;
	struct sim_event_entry *e = malloc(sizeof(*e) + total);
	if (!e) {
		log_error("out of memory: event %s lost", driver_event_name(ev->type));
		return;
	}
	size_t off = 0;
	for (size_t i = 0; i < n; i++) {
		if (!*refs[i].ptr)
			continue;
		memcpy(e->data + off, *refs[i].ptr, refs[i].len);
		*refs[i].ptr = e->data + off;
		off += refs[i].len;
	}
	e->ev = copy;
	e->next = NULL;
	if (sim->ev_tail)
		sim->ev_tail->next = e;
	else
		sim->ev_head = e;
	sim->ev_tail = e;
	loop_idle_schedule(sim->ev_idle);
}

static void drain(struct loop_idle *idle, void *data)
{
	struct sim *sim = data;
	/* Deliver what is queued now; events raised by the callbacks wait for
	 * the next iteration, so a chatty peer cannot starve the loop. */
	struct sim_event_entry *last = sim->ev_tail;
	sim->draining = true;
	while (sim->ev_head) {
		struct sim_event_entry *e = sim->ev_head;
		sim->ev_head = e->next;
		if (!sim->ev_head)
			sim->ev_tail = NULL;
		bool was_last = e == last;
		driver_emit(sim->drv, &e->ev);
		free(e);
		if (sim->closed) {
			/* driver_close() ran inside the callback: it tore
			 * everything down but the instance itself. */
			free(sim);
			return;
		}
		if (was_last)
			break;
	}
	sim->draining = false;
	if (sim->ev_head)
		loop_idle_schedule(sim->ev_idle);
}

int sim_events_init(struct sim *sim)
{
	sim->ev_idle = loop_idle_new(sim->loop, drain, sim);
	return sim->ev_idle ? 0 : -1;
}

void sim_events_free(struct sim *sim)
{
	while (sim->ev_head) {
		struct sim_event_entry *e = sim->ev_head;
		sim->ev_head = e->next;
		free(e);
	}
	sim->ev_tail = NULL;
	loop_idle_free(sim->ev_idle);
	sim->ev_idle = NULL;
}
