/* The wired backend: IEEE 802.1X over one Ethernet interface.
 *
 *   wired.c        ops table, open/close, options, the two sockets
 *   wired-parse.c  the bounds-checked parsers of what the kernel hands us:
 *                  an Ethernet frame from the packet socket, rtnetlink
 *                  link messages (exposed here for the fuzz target and the
 *                  unit tests)
 *
 * The model in driver.h terms: one "radio" (the port, id 0, named after the
 * interface) with one interface (the Ethernet netdev, its real ifindex).
 * iface_add hands that interface to the one role that asks (the wired
 * supplicant port); there is nothing to create. See docs/wired.md.
 */
#ifndef WPAD_DRIVERS_WIRED_WIRED_H
#define WPAD_DRIVERS_WIRED_WIRED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WIRED_ETH_HDR_LEN 14
#define WIRED_ETHERTYPE_PAE 0x888e
/* Smallest EAPOL frame: version, type, body length (IEEE 802.1X-2010 11.3). */
#define WIRED_EAPOL_HDR_LEN 4

/* Destination addresses of EAPOL, IEEE 802.1X-2010 Table 11-1: the PAE
 * group address is the default; the other two are what a port configured
 * for them (or a bridge in between) may use. */
extern const uint8_t wired_pae_group_addr[6];       /* 01:80:C2:00:00:03 */
extern const uint8_t wired_bridge_group_addr[6];    /* 01:80:C2:00:00:00 */
extern const uint8_t wired_lldp_group_addr[6];      /* 01:80:C2:00:00:0E */

enum wired_rx_err {
	WIRED_RX_OK = 0,
	WIRED_RX_SHORT = -1,      /* shorter than an Ethernet + EAPOL header */
	WIRED_RX_ETHERTYPE = -2,  /* not 0x888E (a VLAN tag in line, say) */
	WIRED_RX_NOT_FOR_US = -3, /* destination neither us nor an EAPOL group */
	WIRED_RX_FROM_US = -4,    /* our own frame looped back */
	WIRED_RX_BAD_SOURCE = -5, /* a group source address */
};
const char *wired_rx_err_name(enum wired_rx_err err);

struct wired_frame {
	const uint8_t *dst, *src;
	const uint8_t *body; /* the EAPOL frame, header included */
	size_t len;
};

/* Parses one received Ethernet frame for the port whose own address is
 * own. Returns WIRED_RX_OK with *out pointing into buf, or the reason it
 * was dropped. */
enum wired_rx_err wired_parse_frame(const uint8_t *buf, size_t len, const uint8_t own[6],
				    struct wired_frame *out);

enum wired_link_err {
	WIRED_LINK_OK = 0,
	WIRED_LINK_TRUNCATED = -1, /* a header or length past the end */
	WIRED_LINK_ERROR_MSG = -2, /* an NLMSG_ERROR */
};

/* What a batch of rtnetlink messages says about one interface. */
struct wired_link_state {
	bool seen;    /* a NEWLINK/DELLINK for the interface was in the batch */
	bool deleted; /* the last one was a DELLINK */
	bool up, carrier;
	bool has_addr;
	uint8_t addr[6];
};

/* Walks a datagram of rtnetlink messages and folds those about ifindex
 * into *st (the last one wins). Messages about other interfaces and other
 * types are skipped. Returns WIRED_LINK_OK or the first error found. */
enum wired_link_err wired_parse_link(const uint8_t *buf, size_t len, uint32_t ifindex,
				     struct wired_link_state *st);

#endif
