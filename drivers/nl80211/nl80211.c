/* The nl80211 backend: wpad on Linux Wi-Fi hardware through cfg80211.
 *
 * Options ("key=value,..."):
 *   control_port=1|0  EAPOL over nl80211 when the wiphy offers it (default
 *                     1); 0 forces the AF_PACKET fallback
 *   rx_data=1|0       report received data as DRIVER_EV_RX_DATA while no
 *                     data plane is bound (default 0: the daemon has no use
 *                     for it, and the packet socket would wake it for every
 *                     frame the interface sends or receives; tests set 1)
 *   rfkill=1|0        watch /dev/rfkill (default 1)
 *   ifname=PREFIX     names of interfaces created without one (default
 *                     "wpad": wpad0, wpad1, ...)
 *   phy=NAME          use only the wiphy called NAME (e.g. phy1)
 *
 * See docs/nl80211.md for what maps to what, and nl80211.h for the files.
 */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "drivers/registry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct nl80211_radio *nl80211_radio_find(struct nl80211 *nl, uint32_t id)
{
	for (struct nl80211_radio *r = nl->radios; r; r = r->next)
		if (r->w.id == id)
			return r;
	return NULL;
}

struct nl80211_iface *nl80211_iface_find(struct nl80211 *nl, uint32_t ifindex)
{
	for (struct nl80211_iface *i = nl->ifaces; i; i = i->next)
		if (i->info.ifindex == ifindex)
			return i;
	return NULL;
}

bool nl80211_wants_radio(const struct nl80211 *nl, const char *name)
{
	return !nl->only_phy[0] || strcmp(nl->only_phy, name) == 0;
}

uint64_t nl80211_local_cookie(struct nl80211 *nl)
{
	/* The top bit keeps our cookies apart from the kernel's counters. */
	return (1ull << 63) | ++nl->next_cookie;
}

void nl80211_emit(struct nl80211 *nl, const struct driver_event *ev)
{
	if (!nl->closing)
		driver_emit(nl->drv, ev);
}

void nl80211_schedule(struct nl80211 *nl)
{
	if (nl->idle)
		loop_idle_schedule(nl->idle);
}

void nl80211_defer(struct nl80211 *nl, const struct driver_event *ev)
{
	struct nl80211_deferred *d = calloc(1, sizeof(*d));
	if (!d) {
		log_warn("out of memory: dropped a %s event", driver_event_name(ev->type));
		return;
	}
	d->ev = *ev;
	if (ev->type == DRIVER_EV_BEACON_LOSS && ev->u.peer.addr) {
		memcpy(d->addr, ev->u.peer.addr, DRIVER_ADDR_LEN);
		d->ev.u.peer.addr = d->addr;
	}
	if (nl->dq_tail)
		nl->dq_tail->next = d;
	else
		nl->dq_head = d;
	nl->dq_tail = d;
	nl80211_schedule(nl);
}

static void free_deferred(struct nl80211 *nl)
{
	while (nl->dq_head) {
		struct nl80211_deferred *d = nl->dq_head;
		nl->dq_head = d->next;
		free(d);
	}
	nl->dq_tail = NULL;
}

static void on_idle(struct loop_idle *idle, void *data)
{
	struct nl80211 *nl = data;

	nl80211_enter(nl);
	while (nl->dq_head && !nl->closing) {
		struct nl80211_deferred *d = nl->dq_head;
		nl->dq_head = d->next;
		if (!nl->dq_head)
			nl->dq_tail = NULL;
		nl80211_emit(nl, &d->ev);
		free(d);
	}
	if (!nl->closing)
		nl80211_drain_unsolicited(nl);
	nl80211_leave(nl);
}

/* ---- options ---- */

static int parse_bool(const char *key, const char *v, bool *out)
{
	if (strcmp(v, "1") == 0 || strcmp(v, "yes") == 0)
		*out = true;
	else if (strcmp(v, "0") == 0 || strcmp(v, "no") == 0)
		*out = false;
	else {
		log_error("nl80211 option %s: expected 0 or 1, got '%s'", key, v);
		return -EINVAL;
	}
	return 0;
}

static int parse_option(struct nl80211 *nl, const char *key, const char *v)
{
	if (strcmp(key, "control_port") == 0)
		return parse_bool(key, v, &nl->opt_control_port);
	if (strcmp(key, "rx_data") == 0)
		return parse_bool(key, v, &nl->opt_rx_data);
	if (strcmp(key, "rfkill") == 0)
		return parse_bool(key, v, &nl->opt_rfkill);
	if (strcmp(key, "ifname") == 0) {
		if (!*v || strlen(v) >= sizeof(nl->ifname_prefix)) {
			log_error("nl80211 option ifname: 1..%zu characters",
				  sizeof(nl->ifname_prefix) - 1);
			return -EINVAL;
		}
		strcpy(nl->ifname_prefix, v);
		return 0;
	}
	if (strcmp(key, "phy") == 0) {
		if (!*v || strlen(v) >= sizeof(nl->only_phy)) {
			log_error("nl80211 option phy: a wiphy name such as phy0");
			return -EINVAL;
		}
		strcpy(nl->only_phy, v);
		return 0;
	}
	log_error("nl80211: unknown option '%s'", key);
	return -EINVAL;
}

static int parse_options(struct nl80211 *nl, const char *options)
{
	char buf[256];

	if (strlen(options) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, options);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq) {
			log_error("nl80211 option '%s': expected key=value", tok);
			return -EINVAL;
		}
		*eq = '\0';
		int r = parse_option(nl, tok, eq + 1);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- open and close ---- */

static void teardown(struct nl80211 *nl)
{
	nl80211_rfkill_close(nl);
	while (nl->ifaces)
		nl80211_iface_forget(nl, nl->ifaces, false);
	while (nl->radios)
		nl80211_radio_remove(nl, nl->radios, false);
	nl80211_sock_close(nl);
	free_deferred(nl);
	loop_idle_free(nl->idle);
	nl->idle = NULL;
	if (nl->ioctl_fd >= 0)
		close(nl->ioctl_fd);
	nl->ioctl_fd = -1;
}

void nl80211_enter(struct nl80211 *nl)
{
	nl->depth++;
}

void nl80211_leave(struct nl80211 *nl)
{
	if (--nl->depth == 0 && nl->closing) {
		teardown(nl);
		free(nl);
	}
}

static void *op_open(struct driver *drv, struct loop *loop, const char *options, int *err)
{
	struct nl80211 *nl = calloc(1, sizeof(*nl));
	if (!nl) {
		*err = -ENOMEM;
		return NULL;
	}
	nl->drv = drv;
	nl->loop = loop;
	nl->rfkill_fd = -1;
	nl->opt_control_port = nl->opt_rfkill = true;
	strcpy(nl->ifname_prefix, "wpad");
	nl->ioctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	nl->idle = loop_idle_new(loop, on_idle, nl);
	int r = parse_options(nl, options);
	if (r == 0 && (nl->ioctl_fd < 0 || !nl->idle))
		r = -ENOMEM;
	if (r == 0)
		r = nl80211_sock_open(nl);
	if (r == 0)
		r = nl80211_discover(nl);
	if (r == 0 && nl->opt_rfkill && nl80211_rfkill_open(nl) < 0)
		log_info("no /dev/rfkill: radio kill switches are not watched");
	if (r < 0) {
		teardown(nl);
		free(nl);
		*err = r;
		return NULL;
	}
	return nl;
}

static void op_close(void *priv)
{
	struct nl80211 *nl = priv;

	nl->closing = true;
	if (nl->depth == 0) {
		teardown(nl);
		free(nl);
	}
}

const struct wpad_driver_ops nl80211_driver_ops = {
	.name = "nl80211",
	.description = "Linux cfg80211/mac80211 devices through nl80211",
	.open = op_open,
	.close = op_close,
	.list_radios = nl80211_op_list_radios,
	.get_capa = nl80211_op_get_capa,
	.list_ifaces = nl80211_op_list_ifaces,
	.iface_info = nl80211_op_iface_info,
	.iface_add = nl80211_op_iface_add,
	.iface_del = nl80211_op_iface_del,
	.iface_set_type = nl80211_op_iface_set_type,
	.iface_set_up = nl80211_op_iface_set_up,
	.iface_adopt = nl80211_op_iface_adopt,
	.iface_release = nl80211_op_iface_release,
	.scan_trigger = nl80211_op_scan_trigger,
	.scan_abort = nl80211_op_scan_abort,
	.get_scan_results = nl80211_op_get_scan_results,
	.register_mgmt = nl80211_op_register_mgmt,
	.tx_mgmt = nl80211_op_tx_mgmt,
	.set_channel = nl80211_op_set_channel,
	.authenticate = nl80211_op_authenticate,
	.associate = nl80211_op_associate,
	.deauthenticate = nl80211_op_deauthenticate,
	.connect = nl80211_op_connect,
	.start_ap = nl80211_op_start_ap,
	.set_beacon = nl80211_op_set_beacon,
	.stop_ap = nl80211_op_stop_ap,
	.sta_add = nl80211_op_sta_add,
	.sta_set_flags = nl80211_op_sta_set_flags,
	.sta_del = nl80211_op_sta_del,
	.sta_info = nl80211_op_sta_info,
	.probe_client = nl80211_op_probe_client,
	.key_set = nl80211_op_key_set,
	.key_del = nl80211_op_key_del,
	.key_get_seq = nl80211_op_key_get_seq,
	.port_authorize = nl80211_op_port_authorize,
	.set_pmk = nl80211_op_set_pmk,
	.del_pmk = nl80211_op_del_pmk,
	.pmksa_set = nl80211_op_pmksa_set,
	.pmksa_del = nl80211_op_pmksa_del,
	.pmksa_flush = nl80211_op_pmksa_flush,
	.external_auth_done = nl80211_op_external_auth_done,
	.tx_eapol = nl80211_op_tx_eapol,
	.tx_data = nl80211_op_tx_data,
	.bind_data_plane = nl80211_op_bind_data_plane,
	.get_regulatory = nl80211_op_get_regulatory,
	.set_regulatory = nl80211_op_set_regulatory,
	.set_power_save = nl80211_op_set_power_save,
	/* .get_queue_state: the kernel's queues are not visible per AC */
	.get_survey = nl80211_op_get_survey,
	.start_radar_detection = nl80211_op_start_radar_detection,
	.channel_switch = nl80211_op_channel_switch,
};
