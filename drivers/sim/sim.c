/* The simulated radio backend: the ops table, the instance with its radios
 * and interfaces, and the test hooks of sim.h. See radio.h for the map of
 * the other files and docs/sim.md for the model.
 */
#define LOG_TAG "sim"
#include "drivers/sim/sim.h"
#include "drivers/sim/medium.h"
#include "drivers/sim/radio.h"
#include "drivers/registry.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const uint8_t sim_bcast[SIM_ADDR_LEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* Interface indexes are unique in the process, as the kernel's are, so two
 * sim instances never hand out the same one. */
static uint32_t next_ifindex = 100;
static unsigned instances_opened;

/* medium=shared: one in-process medium for every instance of the process. */
static struct {
	struct medium *m;
	struct loop *loop;
	unsigned refs;
} shared;

/* ---- lookups ---- */

struct sim_iface *sim_iface_find(struct sim *sim, uint32_t ifindex)
{
	for (struct sim_iface *i = sim->ifaces; i; i = i->next)
		if (i->ifindex == ifindex)
			return i;
	return NULL;
}

struct sim_radio *sim_radio_find(struct sim *sim, uint32_t id)
{
	for (struct sim_radio *r = sim->radios; r; r = r->next)
		if (r->id == id)
			return r;
	return NULL;
}

void sim_emit_simple(struct sim_iface *ifc, enum driver_event_type type)
{
	struct driver_event ev = { .type = type, .radio_id = ifc->radio->id,
				   .ifindex = ifc->ifindex };
	sim_emit(ifc->sim, &ev);
}

static bool holds_channel(const struct sim_iface *o)
{
	return o->oper_freq && (o->ap.started || sim_mlme_connected(o));
}

uint32_t sim_radio_busy_freq(struct sim_iface *ifc, enum driver_iftype type)
{
	for (struct sim_iface *o = ifc->sim->ifaces; o; o = o->next) {
		if (o == ifc || o->radio != ifc->radio || !holds_channel(o))
			continue;
		/* An AP follows its radio's station, so only stations bind a
		 * station; an AP is bound by everyone. */
		if (type == DRIVER_IFTYPE_STATION && o->type != DRIVER_IFTYPE_STATION)
			continue;
		return o->oper_freq;
	}
	return 0;
}

void sim_iface_set_home(struct sim_iface *ifc, uint32_t freq)
{
	ifc->oper_freq = freq;
	if (ifc->up && !ifc->scan)
		sim_link_tune(ifc, freq);
	if (ifc->type == DRIVER_IFTYPE_STATION && freq)
		for (struct sim_iface *o = ifc->sim->ifaces; o; o = o->next)
			if (o != ifc && o->radio == ifc->radio && o->type == DRIVER_IFTYPE_AP)
				sim_ap_follow(o, freq);
	sim_tx_kick(ifc);
}

/* ---- addresses ---- */

/* Address n of the instance: the base plus n * 00:00:00:01:01:01, so
 * consecutive addresses differ in their last three octets. */
static void derive_addr(const struct sim *sim, unsigned n, uint8_t out[SIM_ADDR_LEN])
{
	uint64_t v = 0;
	for (int i = 0; i < SIM_ADDR_LEN; i++)
		v = v << 8 | sim->opts.base_addr[i];
	v += (uint64_t)n * 0x010101u;
	for (int i = SIM_ADDR_LEN - 1; i >= 0; i--, v >>= 8)
		out[i] = (uint8_t)v;
	out[0] = sim->opts.base_addr[0]; /* keep the locally administered unicast octet */
}

static bool addr_in_use(const struct sim *sim, const uint8_t *addr)
{
	for (const struct sim_iface *i = sim->ifaces; i; i = i->next)
		if (memcmp(i->addr, addr, SIM_ADDR_LEN) == 0)
			return true;
	return false;
}

/* A free address for a new interface of radio r: the radio's own address
 * first, then the following ones of its block. */
static int pick_addr(struct sim *sim, const struct sim_radio *r, uint8_t out[SIM_ADDR_LEN])
{
	for (unsigned j = 0; j < SIM_MAX_IFACES_PER_RADIO; j++) {
		derive_addr(sim, r->serial * SIM_MAX_IFACES_PER_RADIO + j, out);
		if (!addr_in_use(sim, out))
			return 0;
	}
	return -EADDRINUSE;
}

/* ---- radios ---- */

static void report_firmware_missing(struct sim *sim, struct sim_radio *r)
{
	struct driver_event ev = {
		.type = DRIVER_EV_RADIO_ERROR,
		.radio_id = r->id,
		.u.radio_error = { .kind = DRIVER_RADIO_ERR_FIRMWARE_MISSING, .err = -ENOENT,
				   .detail = "firmware file sim-radio.fw not found "
					     "(fault injected with fail=firmware)" },
	};
	log_error("%s: firmware missing; the radio stays down", r->name);
	sim_emit(sim, &ev);
}

static struct sim_radio *radio_add(struct sim *sim)
{
	unsigned count = 0;
	for (struct sim_radio *r = sim->radios; r; r = r->next)
		count++;
	if (count >= SIM_MAX_RADIOS)
		return NULL;
	struct sim_radio *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->sim = sim;
	r->id = sim->next_radio_id++;
	r->serial = r->id;
	snprintf(r->name, sizeof(r->name), "%s%u", sim->opts.name, r->id);
	derive_addr(sim, r->serial * SIM_MAX_IFACES_PER_RADIO, r->perm_addr);
	r->dead = sim->opts.fail_firmware;
	struct sim_radio **pp = &sim->radios;
	while (*pp)
		pp = &(*pp)->next;
	*pp = r;
	if (r->dead)
		report_firmware_missing(sim, r);
	return r;
}

/* ---- interfaces ---- */

static int iface_init(struct sim_iface *ifc)
{
	int err;
	ifc->link.fd = -1;
	if ((err = sim_tx_init(ifc)) || (err = sim_mlme_init(ifc)) || (err = sim_ap_init(ifc)))
		return err;
	return sim_link_open(ifc);
}

/* Ends everything in flight on ifc. With emit, each pending operation gets
 * its event (scan aborted, MLME timed out or deauthenticated, TX status
 * not acked), as a removed netdev does. */
static void iface_quiesce(struct sim_iface *ifc, bool emit)
{
	sim_scan_cancel(ifc, emit);
	sim_mlme_stop(ifc, emit);
	sim_ap_stop(ifc);
	if (emit)
		sim_tx_flush(ifc);
}

static void iface_free(struct sim_iface *ifc)
{
	iface_quiesce(ifc, false);
	sim_tx_flush(ifc);
	sim_tap_close(ifc);
	sim_link_close(ifc);
	sim_tx_free(ifc);
	sim_mlme_free(ifc);
	sim_ap_free(ifc);
	sim_peers_flush(ifc);
	sim_keys_wipe_group(ifc);
	sim_bss_free_all(ifc);
	sim_regs_free(ifc);
	free(ifc);
}

static void iface_unlink(struct sim *sim, struct sim_iface *ifc)
{
	for (struct sim_iface **pp = &sim->ifaces; *pp; pp = &(*pp)->next) {
		if (*pp == ifc) {
			*pp = ifc->next;
			return;
		}
	}
}

static void iface_remove(struct sim *sim, struct sim_iface *ifc)
{
	uint32_t ifindex = ifc->ifindex, radio_id = ifc->radio->id;
	log_info("%s: removed", ifc->name);
	iface_quiesce(ifc, true);
	iface_unlink(sim, ifc);
	iface_free(ifc);
	struct driver_event ev = { .type = DRIVER_EV_IFACE_DEL, .radio_id = radio_id,
				   .ifindex = ifindex };
	sim_emit(sim, &ev);
}

static size_t count_type(struct sim *sim, struct sim_radio *r, enum driver_iftype type)
{
	size_t n = 0;
	for (struct sim_iface *i = sim->ifaces; i; i = i->next)
		if (i->radio == r && (type == DRIVER_IFTYPE_UNSPEC || i->type == type))
			n++;
	return n;
}

static int iface_add_check(struct sim *sim, struct sim_radio *r, enum driver_iftype type,
			   const char *name)
{
	if (type != DRIVER_IFTYPE_STATION && type != DRIVER_IFTYPE_AP &&
	    type != DRIVER_IFTYPE_MONITOR)
		return -EOPNOTSUPP;
	if (name && (!*name || strlen(name) >= DRIVER_IFNAME_MAX))
		return -EINVAL;
	if (count_type(sim, r, DRIVER_IFTYPE_UNSPEC) >= SIM_MAX_IFACES_PER_RADIO ||
	    (type == DRIVER_IFTYPE_AP && count_type(sim, r, type) >= sim->opts.ap_ifaces))
		return -EBUSY;
	return 0;
}

static int op_iface_add(void *priv, uint32_t radio_id, const char *name,
			enum driver_iftype type, const uint8_t *addr, uint32_t *ifindex)
{
	struct sim *sim = priv;
	struct sim_radio *r = sim_radio_find(sim, radio_id);
	if (!r)
		return -ENODEV;
	int err = iface_add_check(sim, r, type, name);
	if (err)
		return err;
	struct sim_iface *ifc = calloc(1, sizeof(*ifc));
	if (!ifc)
		return -ENOMEM;
	ifc->sim = sim;
	ifc->radio = r;
	ifc->type = type;
	ifc->ifindex = next_ifindex++;
	if (addr && (sim_addr_is_group(addr) || addr_in_use(sim, addr)))
		err = sim_addr_is_group(addr) ? -EINVAL : -EADDRINUSE;
	else if (addr)
		memcpy(ifc->addr, addr, SIM_ADDR_LEN);
	else
		err = pick_addr(sim, r, ifc->addr);
	snprintf(ifc->name, sizeof(ifc->name), "%s", name ? name : "");
	if (!name)
		snprintf(ifc->name, sizeof(ifc->name), "wlan%u", ifc->ifindex);
	if (err || (err = iface_init(ifc)) < 0) {
		iface_free(ifc);
		return err;
	}
	ifc->next = NULL;
	struct sim_iface **pp = &sim->ifaces;
	while (*pp)
		pp = &(*pp)->next;
	*pp = ifc;
	ifc->created = true;
	log_info("%s: new %s interface on %s", ifc->name, driver_iftype_name(type), r->name);
	sim_emit_simple(ifc, DRIVER_EV_IFACE_NEW);
	if (ifindex)
		*ifindex = ifc->ifindex;
	return 0;
}

static int op_iface_del(void *priv, uint32_t ifindex)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (ifc->adopted)
		return -EBUSY; /* the system's: iface_release gives it back */
	iface_remove(sim, ifc);
	return 0;
}

static int op_iface_set_type(void *priv, uint32_t ifindex, enum driver_iftype type)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (type == ifc->type)
		return 0;
	int err = iface_add_check(sim, ifc->radio, type, NULL);
	if (err)
		return err;
	if (ifc->scan || ifc->ap.started || sim_mlme_connected(ifc))
		return -EBUSY;
	/* A new role starts clean, as cfg80211 purges on a type change. */
	sim_peers_flush(ifc);
	sim_keys_wipe_group(ifc);
	sim_regs_free(ifc);
	ifc->type = type;
	return 0;
}

static int op_iface_set_up(void *priv, uint32_t ifindex, bool up)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (up == ifc->up)
		return 0;
	if (up && ifc->radio->dead) {
		log_error("%s: cannot bring up: firmware for %s is missing", ifc->name,
			  ifc->radio->name);
		return -EIO;
	}
	if (!up) {
		iface_quiesce(ifc, true);
		if (ifc->type == DRIVER_IFTYPE_AP)
			ifc->oper_freq = 0;
	}
	ifc->up = up;
	sim_link_tune(ifc, up ? ifc->oper_freq : 0);
	sim_tap_set_up(ifc, up);
	sim_tx_kick(ifc);
	return 0;
}

static struct sim_iface *iface_by_name(struct sim *sim, const char *name)
{
	for (struct sim_iface *i = sim->ifaces; i; i = i->next)
		if (strcmp(i->name, name) == 0)
			return i;
	return NULL;
}

/* The sim has no netdevs but its own: a name it does not know is
 * -ENODEV, another radio's interface -EMEDIUMTYPE. */
static int op_iface_adopt(void *priv, uint32_t radio_id, const char *name,
			  enum driver_iftype type, uint32_t *ifindex)
{
	struct sim *sim = priv;
	struct sim_radio *r = sim_radio_find(sim, radio_id);
	if (!r)
		return -ENODEV;
	if (!name || !*name || strlen(name) >= DRIVER_IFNAME_MAX)
		return -EINVAL;
	struct sim_iface *ifc = iface_by_name(sim, name);
	if (!ifc)
		return -ENODEV;
	if (ifc->radio != r)
		return -EMEDIUMTYPE;
	if (ifc->created || ifc->adopted || ifc->scan || ifc->ap.started || sim_mlme_connected(ifc))
		return -EBUSY;
	enum driver_iftype was = ifc->type;
	int err = op_iface_set_type(sim, ifc->ifindex, type);
	if (err)
		return err;
	ifc->adopted = true;
	ifc->found_type = was;
	ifc->found_up = ifc->up;
	log_info("%s: adopted (was %s, %s)", ifc->name, driver_iftype_name(was),
		 ifc->found_up ? "up" : "down");
	if (ifindex)
		*ifindex = ifc->ifindex;
	return 0;
}

static int op_iface_release(void *priv, uint32_t ifindex)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (!ifc->adopted)
		return -EINVAL;
	op_iface_set_up(sim, ifindex, false); /* ends what its user left running */
	int err = op_iface_set_type(sim, ifindex, ifc->found_type);
	if (ifc->found_up)
		op_iface_set_up(sim, ifindex, true);
	ifc->adopted = false;
	log_info("%s: given back (%s, %s)", ifc->name, driver_iftype_name(ifc->type),
		 ifc->up ? "up" : "down");
	return err;
}

static void fill_info(const struct sim_iface *ifc, struct driver_iface_info *info)
{
	memset(info, 0, sizeof(*info));
	info->ifindex = ifc->ifindex;
	info->radio_id = ifc->radio->id;
	memcpy(info->name, ifc->name, sizeof(info->name));
	memcpy(info->addr, ifc->addr, SIM_ADDR_LEN);
	info->iftype = ifc->type;
	info->freq_mhz = ifc->oper_freq;
	info->up = ifc->up;
}

static int op_iface_info(void *priv, uint32_t ifindex, struct driver_iface_info *info)
{
	struct sim_iface *ifc = sim_iface_find(priv, ifindex);
	if (!ifc)
		return -ENODEV;
	if (!info)
		return -EINVAL;
	fill_info(ifc, info);
	return 0;
}

static int op_list_ifaces(void *priv, struct driver_iface_info *out, size_t max, size_t *n)
{
	struct sim *sim = priv;
	size_t k = 0;
	for (struct sim_iface *i = sim->ifaces; i && k < max; i = i->next)
		fill_info(i, &out[k++]);
	if (n)
		*n = k;
	return 0;
}

static int op_list_radios(void *priv, struct driver_radio_info *out, size_t max, size_t *n)
{
	struct sim *sim = priv;
	size_t k = 0;
	for (struct sim_radio *r = sim->radios; r && k < max; r = r->next, k++) {
		memset(&out[k], 0, sizeof(out[k]));
		out[k].id = r->id;
		memcpy(out[k].name, r->name, sizeof(out[k].name));
		memcpy(out[k].perm_addr, r->perm_addr, SIM_ADDR_LEN);
	}
	if (n)
		*n = k;
	return 0;
}

static int op_set_channel(void *priv, uint32_t ifindex, uint32_t freq)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	int err = sim_chan_check(sim, freq, ifc->type == DRIVER_IFTYPE_AP);
	if (err)
		return err;
	if (freq == ifc->oper_freq)
		return 0;
	if (ifc->scan || ifc->ap.started || sim_mlme_connected(ifc))
		return -EBUSY; /* no channel switch while holding a channel */
	sim_iface_set_home(ifc, freq);
	return 0;
}

static int op_set_power_save(void *priv, uint32_t ifindex, bool enabled)
{
	struct sim_iface *ifc = sim_iface_find(priv, ifindex);
	if (!ifc)
		return -ENODEV;
	if (ifc->type != DRIVER_IFTYPE_STATION)
		return -EOPNOTSUPP;
	/* Stored and reported only: the AP side does not buffer for dozing
	 * stations, so there is nothing else to change. */
	ifc->power_save = enabled;
	return 0;
}

/* ---- open and close ---- */

static int medium_attach(struct sim *sim)
{
	int err = 0;
	switch (sim->opts.medium) {
	case SIM_MEDIUM_INPROC:
		sim->medium = medium_new(sim->loop, NULL, &err);
		return sim->medium ? 0 : (err ? err : -ENOMEM);
	case SIM_MEDIUM_SHARED:
		if (shared.refs && shared.loop != sim->loop) {
			log_error("medium=shared needs every instance on one event loop");
			return -EINVAL;
		}
		if (!shared.refs && !(shared.m = medium_new(sim->loop, NULL, &err)))
			return err ? err : -ENOMEM;
		shared.loop = sim->loop;
		shared.refs++;
		sim->medium = shared.m;
		return 0;
	case SIM_MEDIUM_PATH: {
		/* Fail now, with a clear message, rather than at iface_add. */
		int fd = medium_connect_path(sim->opts.medium_dir);
		if (fd < 0) {
			log_error("no medium at %s/%s: %s", sim->opts.medium_dir,
				  MEDIUM_SOCKET_NAME, strerror(-fd));
			return fd;
		}
		close(fd);
		return 0;
	}
	}
	return -EINVAL;
}

static void medium_detach(struct sim *sim)
{
	if (sim->opts.medium == SIM_MEDIUM_INPROC) {
		medium_free(sim->medium);
	} else if (sim->opts.medium == SIM_MEDIUM_SHARED && sim->medium && --shared.refs == 0) {
		medium_free(shared.m);
		shared.m = NULL;
		shared.loop = NULL;
	}
	sim->medium = NULL;
}

static void default_base(struct sim_opts *o, unsigned instance)
{
	if (o->addr_given)
		return;
	/* Distinct per instance in one process; per process with wpad-medium. */
	o->base_addr[2] = (uint8_t)instance;
	if (o->medium == SIM_MEDIUM_PATH)
		o->base_addr[1] = (uint8_t)getpid();
}

static void sim_free(struct sim *sim)
{
	while (sim->ifaces) {
		struct sim_iface *ifc = sim->ifaces;
		sim->ifaces = ifc->next;
		iface_free(ifc);
	}
	while (sim->radios) {
		struct sim_radio *r = sim->radios;
		sim->radios = r->next;
		free(r);
	}
	medium_detach(sim);
	sim_dfs_free(sim);
	sim_events_free(sim);
}

static void *op_open(struct driver *drv, struct loop *loop, const char *options, int *err)
{
	struct sim *sim = calloc(1, sizeof(*sim));
	if (!sim) {
		*err = -ENOMEM;
		return NULL;
	}
	sim->drv = drv;
	sim->loop = loop;
	sim->survey_since_us = loop_now_us(loop);
	if ((*err = sim_opts_parse(options, &sim->opts)) < 0 || (*err = sim_events_init(sim)) ||
	    (*err = medium_attach(sim)) < 0) {
		if (!*err)
			*err = -ENOMEM;
		sim_free(sim);
		free(sim);
		return NULL;
	}
	default_base(&sim->opts, instances_opened++);
	memcpy(sim->country, sim->opts.country, sizeof(sim->country));
	for (uint32_t i = 0; i < sim->opts.radios; i++) {
		if (!radio_add(sim)) {
			*err = -ENOMEM;
			sim_free(sim);
			free(sim);
			return NULL;
		}
	}
	for (struct sim_radio *r = sim->radios; r && sim->opts.netdev_station; r = r->next) {
		char name[DRIVER_IFNAME_MAX];
		uint32_t ifindex = 0;
		snprintf(name, sizeof(name), "%.11s-sta", r->name);
		if ((*err = op_iface_add(sim, r->id, name, DRIVER_IFTYPE_STATION, NULL, &ifindex)) < 0) {
			sim_free(sim);
			free(sim);
			return NULL;
		}
		sim_iface_find(sim, ifindex)->created = false; /* the system's, not the user's */
	}
	log_info("%u radio(s), regulatory domain %s", sim->opts.radios, sim->country);
	return sim;
}

static void op_close(void *priv)
{
	struct sim *sim = priv;
	sim->closed = true;
	sim_free(sim);
	if (!sim->draining)
		free(sim); /* else the event drain loop frees it when it unwinds */
}

const struct wpad_driver_ops sim_driver_ops = {
	.name = "sim",
	.description = "simulated 802.11 radios with a soft MAC on a shared medium",
	.open = op_open,
	.close = op_close,
	.list_radios = op_list_radios,
	.get_capa = sim_get_capa,
	.list_ifaces = op_list_ifaces,
	.iface_info = op_iface_info,
	.iface_add = op_iface_add,
	.iface_del = op_iface_del,
	.iface_set_type = op_iface_set_type,
	.iface_adopt = op_iface_adopt,
	.iface_release = op_iface_release,
	.iface_set_up = op_iface_set_up,
	.scan_trigger = sim_scan_trigger,
	.scan_abort = sim_scan_abort,
	.get_scan_results = sim_get_scan_results,
	.register_mgmt = sim_register_mgmt,
	.tx_mgmt = sim_tx_mgmt,
	.set_channel = op_set_channel,
	.authenticate = sim_authenticate,
	.associate = sim_associate,
	.deauthenticate = sim_deauthenticate,
	/* .connect: a soft MAC leaves the SME to user space */
	.start_ap = sim_start_ap,
	.set_beacon = sim_set_beacon,
	.stop_ap = sim_stop_ap,
	.sta_add = sim_sta_add,
	.sta_set_flags = sim_sta_set_flags,
	.sta_del = sim_sta_del,
	.sta_info = sim_sta_info,
	.probe_client = sim_probe_client,
	.key_set = sim_key_set,
	.key_del = sim_key_del,
	.key_get_seq = sim_key_get_seq,
	.port_authorize = sim_port_authorize,
	.tx_eapol = sim_tx_eapol,
	.tx_data = sim_tx_data,
	.bind_data_plane = sim_bind_data_plane,
	.get_regulatory = sim_get_regulatory,
	.set_regulatory = sim_set_regulatory,
	.set_power_save = op_set_power_save,
	.get_queue_state = sim_get_queue_state,
	.get_survey = sim_get_survey,
	.start_radar_detection = sim_start_radar_detection,
	.channel_switch = sim_channel_switch,
};

/* ---- test hooks (sim.h) ---- */

static struct sim *sim_of(struct driver *drv)
{
	if (!drv || strcmp(driver_name(drv), sim_driver_ops.name) != 0)
		return NULL;
	return driver_priv(drv);
}

int sim_driver_set_survey(struct driver *drv, uint32_t freq, uint8_t busy_pct, int8_t noise_dbm)
{
	struct sim *sim = sim_of(drv);
	if (!sim || busy_pct > 100)
		return -EINVAL;
	size_t i = 0;
	while (i < sim->n_survey && sim->survey[i].freq != freq)
		i++;
	if (i == SIM_MAX_SURVEY_LOAD)
		return -ENOSPC;
	if (i == sim->n_survey)
		sim->n_survey++;
	sim->survey[i] = (struct sim_survey_load){ freq, busy_pct, noise_dbm };
	return 0;
}

int sim_driver_radar(struct driver *drv, uint32_t freq)
{
	struct sim *sim = sim_of(drv);
	return sim ? sim_dfs_radar(sim, freq) : -EINVAL;
}

struct medium *sim_driver_medium(struct driver *drv)
{
	struct sim *sim = sim_of(drv);
	return sim ? sim->medium : NULL;
}

int sim_driver_inject_rx(struct driver *drv, uint32_t ifindex, const uint8_t *frame,
			 size_t len, uint32_t freq, int32_t signal_mbm)
{
	struct sim *sim = sim_of(drv);
	if (!sim)
		return -EINVAL;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	struct sim_rx rx = { .freq = freq, .signal_mbm = signal_mbm };
	sim_rx_frame(ifc, frame, len, &rx);
	return 0;
}

int sim_driver_rx_counters(struct driver *drv, uint32_t ifindex, struct sim_rx_counters *c)
{
	struct sim *sim = sim_of(drv);
	if (!sim || !c)
		return -EINVAL;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	const struct sim_iface_stats *s = &ifc->stats;
	*c = (struct sim_rx_counters){ .frames = s->rx_frames, .malformed = s->rx_malformed,
				       .not_for_us = s->rx_not_for_us, .class3 = s->rx_class3,
				       .duplicate = s->rx_duplicate, .no_key = s->rx_no_key,
				       .replay = s->rx_replay, .bad_mic = s->rx_bad_mic,
				       .unauth = s->rx_unauth, .unprot_mgmt = s->rx_unprot_mgmt,
				       .bip_bad_mic = s->rx_bip_bad_mic,
				       .bip_replay = s->rx_bip_replay };
	return 0;
}

int sim_driver_radio_add(struct driver *drv, uint32_t *radio_id)
{
	struct sim *sim = sim_of(drv);
	if (!sim)
		return -EINVAL;
	struct sim_radio *r = radio_add(sim);
	if (!r)
		return -ENOSPC;
	struct driver_event ev = { .type = DRIVER_EV_RADIO_NEW, .radio_id = r->id };
	sim_emit(sim, &ev);
	if (radio_id)
		*radio_id = r->id;
	return 0;
}

int sim_driver_radio_remove(struct driver *drv, uint32_t radio_id)
{
	struct sim *sim = sim_of(drv);
	if (!sim)
		return -EINVAL;
	struct sim_radio *r = sim_radio_find(sim, radio_id);
	if (!r)
		return -ENODEV;
	for (struct sim_iface *i = sim->ifaces, *next; i; i = next) {
		next = i->next;
		if (i->radio == r)
			iface_remove(sim, i);
	}
	for (struct sim_radio **pp = &sim->radios; *pp; pp = &(*pp)->next) {
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	}
	log_info("%s: unplugged", r->name);
	struct driver_event ev = { .type = DRIVER_EV_RADIO_DEL, .radio_id = radio_id };
	sim_emit(sim, &ev);
	free(r);
	return 0;
}
