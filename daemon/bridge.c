/* Bridges over raw rtnetlink; see bridge.h. */
#define LOG_TAG "bridge"
#include "daemon/bridge.h"
#include "daemon/bridge_msg.h"

#include "daemon/core/log.h"

#include <errno.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define RTNL_BUF 8192

/* One request and its answer: the link it describes into *out, or only
 * the ACK's status when out is NULL. */
static int rtnl_talk(const void *req, size_t len, struct bridge_link *out)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 2 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	int r = 0;
	if (sendto(fd, req, len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0) {
		r = -errno;
		goto out;
	}
	static uint8_t buf[RTNL_BUF];
	ssize_t n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0) {
		r = -errno;
		goto out;
	}
	r = bridge_msg_parse_reply(buf, (size_t)n, out);
out:
	close(fd);
	return r;
}

int bridge_lookup(const char *name, uint32_t *ifindex, bool *is_bridge)
{
	uint8_t req[256];
	size_t len = bridge_msg_getlink(req, sizeof(req), name, 0);
	if (!len)
		return -EINVAL;
	struct bridge_link link;
	int r = rtnl_talk(req, len, &link);
	if (r < 0)
		return r;
	if (!link.found)
		return -ENODEV;
	*ifindex = link.ifindex;
	if (is_bridge)
		*is_bridge = link.is_bridge;
	return 0;
}

int bridge_master_of(uint32_t ifindex, uint32_t *master)
{
	uint8_t req[256];
	size_t len = bridge_msg_getlink(req, sizeof(req), NULL, ifindex);
	struct bridge_link link;
	int r = len ? rtnl_talk(req, len, &link) : -EINVAL;
	if (r < 0)
		return r;
	if (!link.found)
		return -ENODEV;
	*master = link.master;
	return 0;
}

static int set_master(uint32_t port, uint32_t master)
{
	uint8_t req[256];
	size_t len = bridge_msg_setmaster(req, sizeof(req), port, master);
	return len ? rtnl_talk(req, len, NULL) : -EINVAL;
}

static int create(const char *name)
{
	uint8_t req[256];
	size_t len = bridge_msg_newbridge(req, sizeof(req), name);
	return len ? rtnl_talk(req, len, NULL) : -EINVAL;
}

static int set_up(uint32_t ifindex)
{
	uint8_t req[256];
	size_t len = bridge_msg_setup(req, sizeof(req), ifindex);
	return len ? rtnl_talk(req, len, NULL) : -EINVAL;
}

static int del_link(uint32_t ifindex)
{
	uint8_t req[256];
	size_t len = bridge_msg_dellink(req, sizeof(req), ifindex);
	return len ? rtnl_talk(req, len, NULL) : -EINVAL;
}

/* err filled and logged; the errno returned. */
static int logged(const struct wpad_error *err, int e)
{
	log_warn("%s", err->text);
	return e;
}
#define FAIL(err, code, e, ...) logged(wpad_error_set((err), (code), (e), -1, -1, __VA_ARGS__), (e))

static enum wpad_error_code code_of(int e)
{
	return e == -EPERM || e == -EACCES ? WPAD_ERR_PERMISSION_DENIED : WPAD_ERR_NOT_BRIDGEABLE;
}

/* The bridge's index: looked up, or created (and brought up). */
static int find_or_create(struct bridge_port *bp, bool want_create, struct wpad_error *err)
{
	bool is_bridge = false;
	int r = bridge_lookup(bp->bridge, &bp->bridge_ifindex, &is_bridge);
	if (r == -ENODEV && want_create) {
		if ((r = create(bp->bridge)) < 0)
			return FAIL(err, code_of(r), r, "cannot create bridge %s: %s", bp->bridge,
				    strerror(-r));
		bp->created = true;
		log_info("created bridge %s", bp->bridge);
		r = bridge_lookup(bp->bridge, &bp->bridge_ifindex, &is_bridge);
		if (r == 0 && (r = set_up(bp->bridge_ifindex)) < 0)
			log_warn("bridge %s stays down: %s", bp->bridge, strerror(-r));
		r = r == -ENODEV ? r : 0;
	}
	if (r == -ENODEV)
		return FAIL(err, WPAD_ERR_BRIDGE_NOT_FOUND, r,
			    "bridge %s does not exist; create it or set BridgeCreate=true",
			    bp->bridge);
	if (r < 0)
		return FAIL(err, code_of(r), r, "bridge %s: %s", bp->bridge, strerror(-r));
	if (!is_bridge)
		return FAIL(err, WPAD_ERR_NOT_BRIDGEABLE, -ENOTTY,
			    "%s is not a bridge (Bridge= must name a bridge device)", bp->bridge);
	return 0;
}

int bridge_port_join(struct bridge_port *bp, const char *bridge, bool want_create,
		     const char *port, struct wpad_error *err)
{
	memset(bp, 0, sizeof(*bp));
	snprintf(bp->bridge, sizeof(bp->bridge), "%s", bridge);
	snprintf(bp->port, sizeof(bp->port), "%s", port);
	int r = find_or_create(bp, want_create, err);
	if (r < 0) {
		bridge_port_leave(bp);
		return r;
	}
	if ((r = bridge_lookup(bp->port, &bp->port_ifindex, NULL)) < 0) {
		FAIL(err, WPAD_ERR_NOT_BRIDGEABLE, r, "interface %s cannot be bridged: %s", bp->port,
		     strerror(-r));
		bridge_port_leave(bp);
		return r;
	}
	uint32_t master = 0;
	if (bridge_master_of(bp->port_ifindex, &master) == 0 && master == bp->bridge_ifindex) {
		log_info("%s is already a port of %s", bp->port, bp->bridge);
		return 0; /* not ours to take out again */
	}
	if ((r = set_master(bp->port_ifindex, bp->bridge_ifindex)) < 0) {
		FAIL(err, code_of(r), r, "%s cannot join bridge %s: %s", bp->port, bp->bridge,
		     strerror(-r));
		bridge_port_leave(bp);
		return r;
	}
	bp->joined = true;
	log_info("%s joined bridge %s", bp->port, bp->bridge);
	return 0;
}

void bridge_port_leave(struct bridge_port *bp)
{
	uint32_t master = 0;
	if (bp->joined && bridge_master_of(bp->port_ifindex, &master) == 0 &&
	    master == bp->bridge_ifindex) {
		int r = set_master(bp->port_ifindex, 0);
		if (r < 0)
			log_warn("%s cannot leave bridge %s: %s", bp->port, bp->bridge, strerror(-r));
		else
			log_info("%s left bridge %s", bp->port, bp->bridge);
	}
	bp->joined = false;
	if (bp->created) {
		int r = del_link(bp->bridge_ifindex);
		if (r < 0 && r != -ENODEV)
			log_warn("cannot delete bridge %s: %s", bp->bridge, strerror(-r));
		else
			log_info("deleted bridge %s", bp->bridge);
		bp->created = false;
	}
}
