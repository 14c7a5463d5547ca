/* The wired backend's parsers; see wired.h. Everything here reads bytes the
 * kernel passed on from the wire or from rtnetlink, so every length is
 * checked before it is used and nothing is read through a cast pointer
 * (the buffers need not be aligned). */
#include "drivers/wired/wired.h"

#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>

const uint8_t wired_pae_group_addr[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x03 };
const uint8_t wired_bridge_group_addr[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 };
const uint8_t wired_lldp_group_addr[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e };

const char *wired_rx_err_name(enum wired_rx_err err)
{
	switch (err) {
	case WIRED_RX_OK: return "ok";
	case WIRED_RX_SHORT: return "shorter than an Ethernet and EAPOL header";
	case WIRED_RX_ETHERTYPE: return "not an EAPOL EtherType";
	case WIRED_RX_NOT_FOR_US: return "destination is neither us nor an EAPOL group address";
	case WIRED_RX_FROM_US: return "our own frame";
	case WIRED_RX_BAD_SOURCE: return "group source address";
	}
	return "unknown";
}

static bool is_eapol_group(const uint8_t *a)
{
	return memcmp(a, wired_pae_group_addr, 6) == 0 ||
	       memcmp(a, wired_bridge_group_addr, 6) == 0 ||
	       memcmp(a, wired_lldp_group_addr, 6) == 0;
}

enum wired_rx_err wired_parse_frame(const uint8_t *buf, size_t len, const uint8_t own[6],
				    struct wired_frame *out)
{
	if (!buf || len < WIRED_ETH_HDR_LEN + WIRED_EAPOL_HDR_LEN)
		return WIRED_RX_SHORT;
	uint16_t type = (uint16_t)(buf[12] << 8 | buf[13]);
	if (type != WIRED_ETHERTYPE_PAE)
		return WIRED_RX_ETHERTYPE;
	const uint8_t *dst = buf, *src = buf + 6;
	if (src[0] & 0x01)
		return WIRED_RX_BAD_SOURCE;
	if (memcmp(src, own, 6) == 0)
		return WIRED_RX_FROM_US;
	if (memcmp(dst, own, 6) != 0 && !is_eapol_group(dst))
		return WIRED_RX_NOT_FOR_US;
	out->dst = dst;
	out->src = src;
	out->body = buf + WIRED_ETH_HDR_LEN;
	out->len = len - WIRED_ETH_HDR_LEN;
	return WIRED_RX_OK;
}

/* Reads little-endian-host fields of netlink headers without aliasing. */
static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* The attributes after an ifinfomsg: only IFLA_ADDRESS is of use. */
static enum wired_link_err parse_link_attrs(const uint8_t *p, size_t len,
					    struct wired_link_state *st)
{
	while (len >= sizeof(struct rtattr)) {
		uint16_t alen = rd16(p + offsetof(struct rtattr, rta_len));
		uint16_t atype = rd16(p + offsetof(struct rtattr, rta_type));
		if (alen < sizeof(struct rtattr) || alen > len)
			return WIRED_LINK_TRUNCATED;
		if ((atype & NLA_TYPE_MASK) == IFLA_ADDRESS && alen == RTA_LENGTH(6)) {
			memcpy(st->addr, p + RTA_LENGTH(0), 6);
			st->has_addr = true;
		}
		size_t step = RTA_ALIGN(alen);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return WIRED_LINK_OK;
}

static enum wired_link_err parse_one(uint16_t type, const uint8_t *p, size_t len,
				     uint32_t ifindex, struct wired_link_state *st)
{
	if (type == NLMSG_ERROR)
		return WIRED_LINK_ERROR_MSG;
	if (type != RTM_NEWLINK && type != RTM_DELLINK)
		return WIRED_LINK_OK;
	if (len < sizeof(struct ifinfomsg))
		return WIRED_LINK_TRUNCATED;
	int32_t index;
	memcpy(&index, p + offsetof(struct ifinfomsg, ifi_index), sizeof(index));
	if (index <= 0 || (uint32_t)index != ifindex)
		return WIRED_LINK_OK;
	uint32_t flags = rd32(p + offsetof(struct ifinfomsg, ifi_flags));
	st->seen = true;
	st->deleted = type == RTM_DELLINK;
	st->up = !st->deleted && (flags & IFF_UP);
	st->carrier = st->up && (flags & IFF_LOWER_UP);
	return parse_link_attrs(p + NLMSG_ALIGN(sizeof(struct ifinfomsg)),
				len - NLMSG_ALIGN(sizeof(struct ifinfomsg)), st);
}

enum wired_link_err wired_parse_link(const uint8_t *buf, size_t len, uint32_t ifindex,
				     struct wired_link_state *st)
{
	while (len > 0) {
		if (len < sizeof(struct nlmsghdr))
			return WIRED_LINK_TRUNCATED;
		uint32_t mlen = rd32(buf + offsetof(struct nlmsghdr, nlmsg_len));
		uint16_t type = rd16(buf + offsetof(struct nlmsghdr, nlmsg_type));
		if (mlen < sizeof(struct nlmsghdr) || mlen > len)
			return WIRED_LINK_TRUNCATED;
		enum wired_link_err e = parse_one(type, buf + NLMSG_HDRLEN, mlen - NLMSG_HDRLEN,
						  ifindex, st);
		if (e != WIRED_LINK_OK)
			return e;
		size_t step = NLMSG_ALIGN(mlen);
		if (step >= len)
			break;
		buf += step;
		len -= step;
	}
	return WIRED_LINK_OK;
}
