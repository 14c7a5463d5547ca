/* Seed corpora of the nl80211 fuzz targets, from the sample messages.
 *
 * Always: every sample survives the fuzz targets' framing (octet 0 the
 * command, then the attributes) and still parses. With
 * WPAD_NL80211_SEED_DIR=DIR (e.g. tests/fuzz/corpus) the seeds are also
 * written to DIR/fuzz_nl80211_{wiphy,scan,event}/. */
#include "drivers/nl80211/nl80211-parse.h"
#include "tests/fuzz/fuzz_nl80211_msg.h"
#include "tests/unit/test_nl80211_samples.h"

#include <check.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* The fuzz input for a message: command octet, then the attributes. */
static size_t to_input(struct nl_msg *msg, uint8_t *out, size_t cap)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct genlmsghdr *g = nlmsg_data(h);
	size_t attrs = (size_t)genlmsg_attrlen(g, 0);
	ck_assert_uint_le(attrs + 1, cap);
	out[0] = g->cmd;
	memcpy(out + 1, genlmsg_attrdata(g, 0), attrs);
	return attrs + 1;
}

static void save(const char *target, const char *name, const uint8_t *data, size_t len)
{
	const char *dir = getenv("WPAD_NL80211_SEED_DIR");
	char path[512];
	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, target);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s", dir, target, name);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

static uint8_t buf[8192];

START_TEST(wiphy_seeds)
{
	for (int sme = 0; sme <= 1; sme++)
		for (int part = 0; part < SAMPLE_WIPHY_PARTS; part++) {
			struct nl_msg *msg = sample_wiphy_part(part, sme);
			size_t n = to_input(msg, buf, sizeof(buf));
			nlmsg_free(msg);
			struct nlmsghdr *h = fuzz_nl80211_msg(buf, n, FUZZ_NL80211_FAMILY, 0);
			struct nl80211_wiphy w;
			nl80211_wiphy_init(&w);
			ck_assert_int_eq(nl80211_wiphy_parse(&w, h), 0);
			free(h);
			char name[32];
			snprintf(name, sizeof(name), "%s-part%d", sme ? "softmac" : "fullmac", part);
			save("fuzz_nl80211_wiphy", name, buf, n);
		}
}
END_TEST

START_TEST(scan_seeds)
{
	struct nl_msg *msg = sample_scan_result();
	size_t n = to_input(msg, buf, sizeof(buf));
	nlmsg_free(msg);
	struct nlmsghdr *h = fuzz_nl80211_msg(buf, n, FUZZ_NL80211_FAMILY, 0);
	struct driver_scan_result r;
	ck_assert_int_eq(nl80211_parse_scan_result(h, NULL, &r), 0);
	free(r.ies);
	free(h);
	save("fuzz_nl80211_scan", "bss", buf, n);
}
END_TEST

static struct nl_msg *(*const events[])(void) = {
	sample_frame_event,	 sample_tx_status_event, sample_control_port_event,
	sample_assoc_event,	 sample_auth_timeout_event, sample_cqm_event,
	sample_reg_change_event, sample_new_interface,	 sample_sta_info,
	sample_reg,		 sample_key_seq,
};

START_TEST(event_seeds)
{
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		struct nl_msg *msg = events[i]();
		size_t n = to_input(msg, buf, sizeof(buf));
		nlmsg_free(msg);
		struct nlmsghdr *h = fuzz_nl80211_msg(buf, n, FUZZ_NL80211_FAMILY, 0);
		struct nl80211_event e;
		ck_assert_int_eq(nl80211_parse_event(h, &e), 0);
		free(h);
		char name[32];
		snprintf(name, sizeof(name), "event-%02zu", i);
		save("fuzz_nl80211_event", name, buf, n);
	}
	/* Extended ACKs: the NLMSG_ERROR payload, its octets 1-3 dropped (the
	 * framing's genl version and reserved field stand there). */
	for (int capped = 0; capped <= 1; capped++) {
		uint8_t err[256];
		size_t n = sample_ext_ack(err, sizeof(err), capped);
		size_t payload = n - NLMSG_HDRLEN;
		buf[0] = (uint8_t)((err[NLMSG_HDRLEN] & ~1u) | (unsigned)capped);
		memcpy(buf + 1, err + NLMSG_HDRLEN + 4, payload - 4);
		struct nlmsghdr *h = fuzz_nl80211_msg(buf, payload - 3, NLMSG_ERROR,
						      NLM_F_ACK_TLVS | (capped ? NLM_F_CAPPED : 0));
		char text[64];
		ck_assert_int_eq(nl80211_parse_ext_ack(h, text, sizeof(text)), 0);
		ck_assert_str_eq(text, "sample refusal");
		free(h);
		save("fuzz_nl80211_event", capped ? "ext-ack-capped" : "ext-ack", buf, payload - 3);
	}
}
END_TEST

Suite *make_nl80211_seeds_suite(void)
{
	Suite *s = suite_create("nl80211_seeds");
	TCase *tc = tcase_create("seeds");
	tcase_add_test(tc, wiphy_seeds);
	tcase_add_test(tc, scan_seeds);
	tcase_add_test(tc, event_seeds);
	suite_add_tcase(s, tc);
	return s;
}
