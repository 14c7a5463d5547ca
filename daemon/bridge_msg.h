/* The rtnetlink messages of daemon/bridge.c, built and parsed without I/O
 * so unit tests and the fuzz target (tests/fuzz/fuzz_bridge_msg.c) reach
 * the parser directly.
 *
 * Builders write one request into buf (cap bytes) and return its length,
 * 0 when it does not fit or an argument is bad (a name longer than 15).
 */
#ifndef WPAD_BRIDGE_MSG_H
#define WPAD_BRIDGE_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bridge_link {
	bool found;
	uint32_t ifindex;
	uint32_t master;   /* IFLA_MASTER, 0 when none */
	bool is_bridge;    /* IFLA_LINKINFO / IFLA_INFO_KIND "bridge" */
};

/* RTM_GETLINK by name (when name) or by index. */
size_t bridge_msg_getlink(uint8_t *buf, size_t cap, const char *name, uint32_t ifindex);
/* RTM_NEWLINK setting IFLA_MASTER of port (0: no master). */
size_t bridge_msg_setmaster(uint8_t *buf, size_t cap, uint32_t port, uint32_t master);
/* RTM_NEWLINK creating a bridge called name. */
size_t bridge_msg_newbridge(uint8_t *buf, size_t cap, const char *name);
/* RTM_NEWLINK setting IFF_UP. */
size_t bridge_msg_setup(uint8_t *buf, size_t cap, uint32_t ifindex);
/* RTM_DELLINK. */
size_t bridge_msg_dellink(uint8_t *buf, size_t cap, uint32_t ifindex);

/* Parses the kernel's answer (one datagram, len bytes): an NLMSG_ERROR
 * gives its error (0 for an ACK), an RTM_NEWLINK fills *out (out may be
 * NULL). Returns 0 or a negative errno; -EBADMSG for a truncated or
 * malformed message (every length is checked against the datagram). */
int bridge_msg_parse_reply(const uint8_t *buf, size_t len, struct bridge_link *out);

#endif
