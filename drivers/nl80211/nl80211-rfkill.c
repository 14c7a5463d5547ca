/* Kill switches: /dev/rfkill events for WLAN (or ALL) switches become
 * DRIVER_EV_RADIO_ERROR with kind RFKILL when a radio's switch blocks it.
 * cfg80211 names each wiphy's switch after the wiphy ("phy0"), which is how
 * a switch index maps to a radio (/sys/class/rfkill/rfkillN/name); a switch
 * of no known radio (a laptop's platform switch) blocks them all. */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/rfkill.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct nl80211_radio *radio_of_switch(struct nl80211 *nl, uint32_t idx)
{
	char path[64], name[DRIVER_IFNAME_MAX + 2] = "";

	snprintf(path, sizeof(path), "/sys/class/rfkill/rfkill%u/name", idx);
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	if (!fgets(name, sizeof(name), f))
		name[0] = '\0';
	fclose(f);
	name[strcspn(name, "\n")] = '\0';
	for (struct nl80211_radio *r = nl->radios; r; r = r->next)
		if (strcmp(r->w.name, name) == 0)
			return r;
	return NULL;
}

static void blocked(struct nl80211 *nl, struct nl80211_radio *r, bool hard)
{
	if (r->rfkill_blocked)
		return;
	r->rfkill_blocked = true;
	log_warn("radio %s: blocked by a %s kill switch", r->w.name, hard ? "hardware" : "software");
	struct driver_event ev = { .type = DRIVER_EV_RADIO_ERROR, .radio_id = r->w.id };
	ev.u.radio_error.kind = DRIVER_RADIO_ERR_RFKILL;
	ev.u.radio_error.err = -ERFKILL;
	ev.u.radio_error.detail = hard ? "hard block" : "soft block";
	nl80211_emit(nl, &ev);
}

static void handle(struct nl80211 *nl, const struct rfkill_event *e)
{
	if (e->type != RFKILL_TYPE_WLAN && e->type != RFKILL_TYPE_ALL)
		return;
	bool is_blocked = e->op != RFKILL_OP_DEL && (e->soft || e->hard);
	struct nl80211_radio *only = radio_of_switch(nl, e->idx);
	for (struct nl80211_radio *r = nl->radios; r && !nl->closing; r = r->next) {
		if (only && r != only)
			continue;
		if (is_blocked)
			blocked(nl, r, e->hard);
		else
			r->rfkill_blocked = false;
	}
}

static void readable(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct nl80211 *nl = data;
	/* Newer kernels send longer events; the first 8 octets keep their meaning. */
	uint8_t buf[64];

	nl80211_enter(nl);
	for (int i = 0; i < 32 && !nl->closing; i++) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < (ssize_t)RFKILL_EVENT_SIZE_V1)
			break;
		struct rfkill_event e;
		memset(&e, 0, sizeof(e));
		memcpy(&e, buf, RFKILL_EVENT_SIZE_V1);
		handle(nl, &e);
	}
	nl80211_leave(nl);
}

int nl80211_rfkill_open(struct nl80211 *nl)
{
	nl->rfkill_fd = open("/dev/rfkill", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (nl->rfkill_fd < 0)
		return -errno;
	nl->rfkill_io = loop_io_new(nl->loop, nl->rfkill_fd, EPOLLIN, readable, nl);
	return nl->rfkill_io ? 0 : -ENOMEM;
}

void nl80211_rfkill_close(struct nl80211 *nl)
{
	loop_io_free(nl->rfkill_io);
	nl->rfkill_io = NULL;
	if (nl->rfkill_fd >= 0)
		close(nl->rfkill_fd);
	nl->rfkill_fd = -1;
}
