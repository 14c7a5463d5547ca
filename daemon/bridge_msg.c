/* rtnetlink requests and replies for bridges; see bridge_msg.h. */
#include "daemon/bridge_msg.h"

#include <errno.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>

struct req {
	uint8_t *buf;
	size_t cap, len;
	bool bad;
};

static void *put(struct req *r, const void *data, size_t n)
{
	size_t padded = NLMSG_ALIGN(n);
	if (r->bad || padded > r->cap - r->len) {
		r->bad = true;
		return NULL;
	}
	void *at = r->buf + r->len;
	memset(at, 0, padded);
	if (data)
		memcpy(at, data, n);
	r->len += padded;
	return at;
}

static void put_attr(struct req *r, uint16_t type, const void *data, size_t n)
{
	struct rtattr a = { .rta_len = (unsigned short)RTA_LENGTH(n), .rta_type = type };
	put(r, &a, sizeof(a));
	put(r, data, n);
}

static void put_str(struct req *r, uint16_t type, const char *s)
{
	size_t n = strnlen(s, IFNAMSIZ);
	if (n == 0 || n >= IFNAMSIZ)
		r->bad = true;
	else
		put_attr(r, type, s, n + 1);
}

/* nlmsghdr + ifinfomsg; finish() fills the length. */
static void begin(struct req *r, uint8_t *buf, size_t cap, uint16_t type, uint16_t flags,
		  uint32_t ifindex)
{
	*r = (struct req){ .buf = buf, .cap = cap };
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = (uint16_t)(NLM_F_REQUEST | flags),
			      .nlmsg_seq = 1 };
	put(r, &h, sizeof(h));
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = (int)ifindex };
	put(r, &ifi, sizeof(ifi));
}

static size_t finish(struct req *r)
{
	if (r->bad || r->len > UINT32_MAX)
		return 0;
	((struct nlmsghdr *)r->buf)->nlmsg_len = (uint32_t)r->len;
	return r->len;
}

size_t bridge_msg_getlink(uint8_t *buf, size_t cap, const char *name, uint32_t ifindex)
{
	struct req r;
	begin(&r, buf, cap, RTM_GETLINK, 0, name ? 0 : ifindex);
	if (name)
		put_str(&r, IFLA_IFNAME, name);
	else if (!ifindex)
		r.bad = true;
	return finish(&r);
}

size_t bridge_msg_setmaster(uint8_t *buf, size_t cap, uint32_t port, uint32_t master)
{
	struct req r;
	begin(&r, buf, cap, RTM_NEWLINK, NLM_F_ACK, port);
	put_attr(&r, IFLA_MASTER, &master, sizeof(master));
	r.bad |= port == 0;
	return finish(&r);
}

size_t bridge_msg_newbridge(uint8_t *buf, size_t cap, const char *name)
{
	static const char kind[] = "bridge";
	struct req r;
	begin(&r, buf, cap, RTM_NEWLINK, NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL, 0);
	put_str(&r, IFLA_IFNAME, name);
	struct rtattr *info = put(&r, NULL, sizeof(struct rtattr));
	size_t start = r.len - sizeof(struct rtattr);
	put_attr(&r, IFLA_INFO_KIND, kind, sizeof(kind));
	if (info) {
		info->rta_type = IFLA_LINKINFO;
		info->rta_len = (unsigned short)(r.len - start);
	}
	return finish(&r);
}

size_t bridge_msg_setup(uint8_t *buf, size_t cap, uint32_t ifindex)
{
	struct req r;
	begin(&r, buf, cap, RTM_NEWLINK, NLM_F_ACK, ifindex);
	if (!r.bad) {
		struct ifinfomsg *ifi = NLMSG_DATA(buf);
		ifi->ifi_flags = IFF_UP;
		ifi->ifi_change = IFF_UP;
	}
	r.bad |= ifindex == 0;
	return finish(&r);
}

size_t bridge_msg_dellink(uint8_t *buf, size_t cap, uint32_t ifindex)
{
	struct req r;
	begin(&r, buf, cap, RTM_DELLINK, NLM_F_ACK, ifindex);
	r.bad |= ifindex == 0;
	return finish(&r);
}

/* ---- replies ---- */

/* IFLA_LINKINFO: is IFLA_INFO_KIND "bridge"? */
static bool kind_is_bridge(const uint8_t *p, size_t len)
{
	static const char want[] = "bridge";
	while (len >= sizeof(struct rtattr)) {
		struct rtattr a;
		memcpy(&a, p, sizeof(a));
		if (a.rta_len < sizeof(a) || a.rta_len > len)
			return false;
		size_t plen = a.rta_len - sizeof(a);
		const uint8_t *data = p + RTA_LENGTH(0);
		if (a.rta_type == IFLA_INFO_KIND)
			return plen >= sizeof(want) - 1 && memcmp(data, want, sizeof(want) - 1) == 0 &&
			       (plen == sizeof(want) - 1 || data[sizeof(want) - 1] == '\0');
		size_t step = RTA_ALIGN(a.rta_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return false;
}

static int parse_link(const uint8_t *p, size_t len, struct bridge_link *out)
{
	struct ifinfomsg ifi;
	if (len < NLMSG_ALIGN(sizeof(ifi)))
		return -EBADMSG;
	memcpy(&ifi, p, sizeof(ifi));
	struct bridge_link l = { .found = true, .ifindex = (uint32_t)ifi.ifi_index };
	p += NLMSG_ALIGN(sizeof(ifi));
	len -= NLMSG_ALIGN(sizeof(ifi));
	while (len >= sizeof(struct rtattr)) {
		struct rtattr a;
		memcpy(&a, p, sizeof(a));
		if (a.rta_len < sizeof(a) || a.rta_len > len)
			return -EBADMSG;
		size_t plen = a.rta_len - sizeof(a);
		const uint8_t *data = p + RTA_LENGTH(0);
		if (a.rta_type == IFLA_MASTER) {
			if (plen < sizeof(uint32_t))
				return -EBADMSG;
			memcpy(&l.master, data, sizeof(uint32_t));
		} else if ((a.rta_type & NLA_TYPE_MASK) == IFLA_LINKINFO) {
			l.is_bridge = kind_is_bridge(data, plen);
		}
		size_t step = RTA_ALIGN(a.rta_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	if (out)
		*out = l;
	return 0;
}

int bridge_msg_parse_reply(const uint8_t *buf, size_t len, struct bridge_link *out)
{
	if (out)
		memset(out, 0, sizeof(*out));
	if (len < sizeof(struct nlmsghdr))
		return -EBADMSG;
	struct nlmsghdr h;
	memcpy(&h, buf, sizeof(h));
	if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
		return -EBADMSG;
	const uint8_t *body = buf + NLMSG_HDRLEN;
	size_t blen = h.nlmsg_len - NLMSG_HDRLEN;
	switch (h.nlmsg_type) {
	case NLMSG_ERROR: {
		struct nlmsgerr e;
		if (blen < sizeof(e))
			return -EBADMSG;
		memcpy(&e, body, sizeof(e));
		if (e.error > 0 || e.error < -4095)
			return -EBADMSG;
		return e.error;
	}
	case RTM_NEWLINK:
		return parse_link(body, blen, out);
	default:
		return -EBADMSG;
	}
}
