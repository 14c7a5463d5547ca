/* Linux bridges for access points (Bridge=, BridgeCreate=): the AP's
 * network interface joins a bridge when the BSS starts and leaves it when
 * the BSS stops, so stations reach the wired LAN (and its DHCP server)
 * through the kernel's bridge, as with hostapd's bridge=.
 *
 * Raw rtnetlink (RTM_GETLINK / RTM_NEWLINK / RTM_DELLINK over a
 * NETLINK_ROUTE socket opened per call): four small requests do not
 * justify a second library, and wpad stays on libnl-3 + libnl-genl-3.
 *
 * Errors are negative errno values; bridge_error() turns one into the
 * catalogue entry a user sees (BridgeNotFound, NotBridgeable, ...).
 *
 * Ownership: struct bridge_port lives in its caller (one per AP device);
 * bridge_port_leave() undoes exactly what bridge_port_join() did (the
 * bridge is deleted only when this port created it).
 */
#ifndef WPAD_BRIDGE_H
#define WPAD_BRIDGE_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/core/error.h"

#define BRIDGE_NAME_MAX 16

struct bridge_port {
	char bridge[BRIDGE_NAME_MAX];
	char port[BRIDGE_NAME_MAX]; /* the AP's OS interface */
	uint32_t bridge_ifindex;
	uint32_t port_ifindex;
	bool joined;  /* we set the port's master */
	bool created; /* we created the bridge */
};

/* The interface called name: 0 and its index (and whether its link kind
 * is "bridge"), -ENODEV when there is none. */
int bridge_lookup(const char *name, uint32_t *ifindex, bool *is_bridge);

/* Puts the OS interface port into bridge (creating the bridge, up, when
 * create is set and it does not exist). Returns 0 or a negative errno with
 * *err filled:
 *   BridgeNotFound  no such interface and !create
 *   NotBridgeable   the name is not a bridge; the kernel refused the port
 *                   (EOPNOTSUPP: e.g. a station interface without 4addr,
 *                   EBUSY: held by another master, ELOOP)
 *   PermissionDenied without CAP_NET_ADMIN */
int bridge_port_join(struct bridge_port *bp, const char *bridge, bool create, const char *port,
		     struct wpad_error *err);
/* Takes the port out (if it is still in our bridge) and deletes a bridge
 * we created. Safe to call when not joined. */
void bridge_port_leave(struct bridge_port *bp);

/* The master (bridge) index of an interface, 0 when it has none. */
int bridge_master_of(uint32_t ifindex, uint32_t *master);

#endif
