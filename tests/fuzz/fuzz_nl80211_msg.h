/* Shared by the nl80211 fuzz targets: the input is one generic netlink
 * message without its headers -- octet 0 is the nl80211 command, the rest
 * the attributes -- so the fuzzer spends its effort on attributes. The seed
 * corpora are written by the unit suite nl80211_seeds
 * (WPAD_NL80211_SEED_DIR=tests/fuzz/corpus build/tests/unit-tests nl80211_seeds). */
#ifndef WPAD_TESTS_FUZZ_NL80211_MSG_H
#define WPAD_TESTS_FUZZ_NL80211_MSG_H

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NL80211_FAMILY 0x1c
#define FUZZ_NL80211_MAX 65000

/* A malloc'ed message whose nlmsg_len covers exactly the buffer. */
static inline struct nlmsghdr *fuzz_nl80211_msg(const uint8_t *data, size_t size,
						uint16_t type, uint16_t flags)
{
	if (size < 1 || size > FUZZ_NL80211_MAX)
		return NULL;
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN + size - 1;
	struct nlmsghdr *h = malloc(len);
	if (!h)
		return NULL;
	h->nlmsg_len = (uint32_t)len;
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = 1;
	h->nlmsg_pid = 0;
	struct genlmsghdr *g = (struct genlmsghdr *)((uint8_t *)h + NLMSG_HDRLEN);
	g->cmd = data[0];
	g->version = 1;
	g->reserved = 0;
	memcpy((uint8_t *)g + GENL_HDRLEN, data + 1, size - 1);
	return h;
}

#endif
