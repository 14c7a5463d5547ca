/* The wired backend's parsers (drivers/wired/wired.h): an Ethernet frame
 * from the EAPOL packet socket is accepted only whole, of the EAPOL
 * EtherType, for us or an EAPOL group address, from someone else; an
 * rtnetlink batch is walked with every length checked and the interface's
 * link state folded in. Malformed inputs are a table. */
#include <check.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>

#include "drivers/wired/wired.h"

static const uint8_t own[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t peer[6] = { 0x02, 0, 0, 0, 0, 0x02 };

/* dst, src, EtherType 888E, EAPOL v2 EAP-Packet carrying an EAP-Success. */
static size_t build(uint8_t *b, const uint8_t *dst, const uint8_t *src, uint16_t type)
{
	static const uint8_t eapol[] = { 2, 0, 0, 4, 3, 1, 0, 4 };
	memcpy(b, dst, 6);
	memcpy(b + 6, src, 6);
	b[12] = (uint8_t)(type >> 8);
	b[13] = (uint8_t)type;
	memcpy(b + 14, eapol, sizeof(eapol));
	return 14 + sizeof(eapol);
}

START_TEST(frame_to_group_and_unicast)
{
	uint8_t b[64];
	struct wired_frame f;
	size_t n = build(b, wired_pae_group_addr, peer, 0x888e);
	ck_assert_int_eq(wired_parse_frame(b, n, own, &f), WIRED_RX_OK);
	ck_assert_ptr_eq(f.body, b + 14);
	ck_assert_uint_eq(f.len, 8);
	ck_assert_mem_eq(f.src, peer, 6);
	n = build(b, own, peer, 0x888e);
	ck_assert_int_eq(wired_parse_frame(b, n, own, &f), WIRED_RX_OK);
	n = build(b, wired_bridge_group_addr, peer, 0x888e);
	ck_assert_int_eq(wired_parse_frame(b, n, own, &f), WIRED_RX_OK);
	n = build(b, wired_lldp_group_addr, peer, 0x888e);
	ck_assert_int_eq(wired_parse_frame(b, n, own, &f), WIRED_RX_OK);
}
END_TEST

START_TEST(malformed_frames)
{
	static const uint8_t other[6] = { 0x02, 0, 0, 0, 0, 0x09 };
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t group_src[6] = { 0x03, 0, 0, 0, 0, 0x02 };
	static const struct {
		const char *what;
		const uint8_t *dst, *src;
		uint16_t type;
		size_t cut; /* octets removed from the end */
		enum wired_rx_err want;
	} rows[] = {
		{ "header only", wired_pae_group_addr, peer, 0x888e, 8, WIRED_RX_SHORT },
		{ "EAPOL header cut", wired_pae_group_addr, peer, 0x888e, 5, WIRED_RX_SHORT },
		{ "VLAN tag in line", wired_pae_group_addr, peer, 0x8100, 0, WIRED_RX_ETHERTYPE },
		{ "IPv4", wired_pae_group_addr, peer, 0x0800, 0, WIRED_RX_ETHERTYPE },
		{ "another station's unicast", other, peer, 0x888e, 0, WIRED_RX_NOT_FOR_US },
		{ "broadcast", bcast, peer, 0x888e, 0, WIRED_RX_NOT_FOR_US },
		{ "our own frame", wired_pae_group_addr, own, 0x888e, 0, WIRED_RX_FROM_US },
		{ "group source", wired_pae_group_addr, group_src, 0x888e, 0, WIRED_RX_BAD_SOURCE },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint8_t b[64];
		struct wired_frame f;
		size_t n = build(b, rows[i].dst, rows[i].src, rows[i].type) - rows[i].cut;
		ck_assert_msg(wired_parse_frame(b, n, own, &f) == rows[i].want, "%s", rows[i].what);
		ck_assert_str_ne(wired_rx_err_name(rows[i].want), "unknown");
	}
	struct wired_frame f;
	ck_assert_int_eq(wired_parse_frame(NULL, 0, own, &f), WIRED_RX_SHORT);
}
END_TEST

/* One RTM_*LINK message for ifindex with flags, and an IFLA_ADDRESS. */
static size_t link_msg(uint8_t *b, uint16_t type, int ifindex, unsigned flags, bool addr)
{
	struct nlmsghdr h = { .nlmsg_type = type };
	struct ifinfomsg ifi = { .ifi_index = ifindex, .ifi_flags = flags };
	struct rtattr a = { .rta_len = RTA_LENGTH(6), .rta_type = IFLA_ADDRESS };
	size_t off = NLMSG_HDRLEN;
	memcpy(b + off, &ifi, sizeof(ifi));
	off += NLMSG_ALIGN(sizeof(ifi));
	if (addr) {
		memcpy(b + off, &a, sizeof(a));
		memcpy(b + off + RTA_LENGTH(0), peer, 6);
		off += RTA_SPACE(6);
	}
	h.nlmsg_len = (uint32_t)off;
	memcpy(b, &h, sizeof(h));
	return off;
}

START_TEST(link_up_down)
{
	uint8_t b[256];
	struct wired_link_state st = { 0 };
	size_t n = link_msg(b, RTM_NEWLINK, 7, IFF_UP | IFF_LOWER_UP, true);
	ck_assert_int_eq(wired_parse_link(b, n, 7, &st), WIRED_LINK_OK);
	ck_assert(st.seen && st.up && st.carrier && !st.deleted && st.has_addr);
	ck_assert_mem_eq(st.addr, peer, 6);
	/* Another interface, then ours going down: the last one wins. */
	n = link_msg(b, RTM_NEWLINK, 8, IFF_UP | IFF_LOWER_UP, false);
	n += link_msg(b + n, RTM_NEWLINK, 7, IFF_UP, false);
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(wired_parse_link(b, n, 7, &st), WIRED_LINK_OK);
	ck_assert(st.seen && st.up && !st.carrier);
	n = link_msg(b, RTM_DELLINK, 7, IFF_UP | IFF_LOWER_UP, false);
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(wired_parse_link(b, n, 7, &st), WIRED_LINK_OK);
	ck_assert(st.seen && st.deleted && !st.up && !st.carrier);
	/* Not ours: nothing seen. */
	n = link_msg(b, RTM_NEWLINK, 8, IFF_UP, false);
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(wired_parse_link(b, n, 7, &st), WIRED_LINK_OK);
	ck_assert(!st.seen);
}
END_TEST

START_TEST(malformed_link)
{
	uint8_t b[256];
	struct wired_link_state st = { 0 };
	size_t n = link_msg(b, RTM_NEWLINK, 7, IFF_UP, true);
	uint32_t len;
	/* nlmsg_len past the end */
	memcpy(&len, b, 4);
	len += 4;
	memcpy(b, &len, 4);
	ck_assert_int_eq(wired_parse_link(b, n, 7, &st), WIRED_LINK_TRUNCATED);
	/* nlmsg_len below the header */
	len = 8;
	memcpy(b, &len, 4);
	ck_assert_int_eq(wired_parse_link(b, n, 7, &st), WIRED_LINK_TRUNCATED);
	/* a datagram shorter than a header */
	ck_assert_int_eq(wired_parse_link(b, 10, 7, &st), WIRED_LINK_TRUNCATED);
	/* an ifinfomsg cut short */
	n = link_msg(b, RTM_NEWLINK, 7, IFF_UP, false);
	len = NLMSG_HDRLEN + 8;
	memcpy(b, &len, 4);
	ck_assert_int_eq(wired_parse_link(b, len, 7, &st), WIRED_LINK_TRUNCATED);
	/* an attribute longer than the message */
	n = link_msg(b, RTM_NEWLINK, 7, IFF_UP, true);
	uint16_t alen = 200;
	memcpy(b + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct ifinfomsg)), &alen, 2);
	ck_assert_int_eq(wired_parse_link(b, n, 7, &st), WIRED_LINK_TRUNCATED);
	/* an attribute length below its header */
	alen = 2;
	memcpy(b + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct ifinfomsg)), &alen, 2);
	ck_assert_int_eq(wired_parse_link(b, n, 7, &st), WIRED_LINK_TRUNCATED);
	/* an error message */
	n = link_msg(b, NLMSG_ERROR, 7, 0, false);
	ck_assert_int_eq(wired_parse_link(b, n, 7, &st), WIRED_LINK_ERROR_MSG);
}
END_TEST

Suite *make_wired_parse_suite(void)
{
	Suite *s = suite_create("wired_parse");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, frame_to_group_and_unicast);
	tcase_add_test(tc, malformed_frames);
	tcase_add_test(tc, link_up_down);
	tcase_add_test(tc, malformed_link);
	suite_add_tcase(s, tc);
	return s;
}
