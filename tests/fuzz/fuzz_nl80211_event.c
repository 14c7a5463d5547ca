/* Fuzz every other nl80211 parser with the same message: the event parser
 * (frames, TX status, control port, MLME, CQM, regulatory), interfaces,
 * station information, the regulatory domain, key counters -- and, framed
 * as an NLMSG_ERROR, the extended ACK parser.
 *
 * Oracle: no out-of-bounds access (ASan); pointers the parsers return lie
 * inside the message; lengths stay within it. */
#include "drivers/nl80211/nl80211-parse.h"
#include "tests/fuzz/fuzz_nl80211_msg.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void inside(const struct nlmsghdr *h, const void *p, size_t len)
{
	const uint8_t *lo = (const uint8_t *)h, *hi = lo + h->nlmsg_len;
	if (p && ((const uint8_t *)p < lo || (const uint8_t *)p + len > hi))
		abort();
}

static void event_parsers(struct nlmsghdr *h)
{
	struct nl80211_event e;
	if (nl80211_parse_event(h, &e) == 0) {
		inside(h, e.frame, e.frame_len);
		inside(h, e.mac, 6);
		inside(h, e.req_ie, e.req_ie_len);
		inside(h, e.resp_ie, e.resp_ie_len);
		if (e.alpha2)
			inside(h, e.alpha2, strlen(e.alpha2) + 1);
	}
	struct driver_iface_info info;
	if (nl80211_parse_iface(h, &info) == 0 && !memchr(info.name, 0, sizeof(info.name)))
		abort();
	struct driver_sta_info si;
	nl80211_parse_sta_info(h, &si);
	struct driver_regulatory reg;
	if (nl80211_parse_reg(h, &reg) == 0 && (reg.n_rules > DRIVER_MAX_REG_RULES ||
						 strlen(reg.alpha2) != 2))
		abort();
	uint8_t seq[6];
	nl80211_parse_key_seq(h, seq);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nlmsghdr *h = fuzz_nl80211_msg(data, size, FUZZ_NL80211_FAMILY, 0);
	if (!h)
		return 0;
	event_parsers(h);
	/* The same octets as an error message with TLVs, capped or not. */
	char text[128];
	h->nlmsg_type = NLMSG_ERROR;
	h->nlmsg_flags = NLM_F_ACK_TLVS | ((data[0] & 1) ? NLM_F_CAPPED : 0);
	if (nl80211_parse_ext_ack(h, text, sizeof(text)) == 0 && !memchr(text, 0, sizeof(text)))
		abort();
	free(h);
	return 0;
}
