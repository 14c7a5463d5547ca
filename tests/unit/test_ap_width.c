/* Beacons for each channel width: the AP's templates built for 20/40 MHz
 * on 2.4 GHz and 20/40/80/160 MHz on 5 GHz, parsed back with the codec
 * (HT Operation secondary channel and width, VHT Operation width and
 * segments, HE Capabilities/Operation) and decoded by tshark from a pcap;
 * the station's HT/VHT/HE capabilities passed to the driver. */
#include "daemon/ap/ap_internal.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint8_t bssid[6] = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x07 };

/* The sim radio's figures (drivers/sim/radio-chan.c): HT40, VHT 160 MHz
 * with MCS 0-9 on two streams, HE 40/80/160. */
static void fill_band(struct driver_band_info *b, bool five)
{
	static const uint16_t r24[] = { 10, 20, 55, 110, 60, 90, 120, 180, 240, 360, 480, 540 };
	static const uint16_t r5[] = { 60, 90, 120, 180, 240, 360, 480, 540 };
	static const uint8_t map2ss[4] = { 0xfa, 0xff, 0xfa, 0xff };
	memset(b, 0, sizeof(*b));
	b->present = true;
	if (five) {
		for (uint16_t c = 36; c <= 64; c += 4)
			b->channels[b->n_channels++] = (struct driver_channel){
				.freq_mhz = 5000 + 5u * c, .number = c, .max_power_dbm = 23 };
		memcpy(b->rates_100kbps, r5, sizeof(r5));
		b->n_rates = 8;
		b->vht = true;
		b->vht_capab = (1u << 2) | (1u << 5);
		memcpy(b->vht_mcs, map2ss, 2);
		memcpy(b->vht_mcs + 4, map2ss, 2);
		b->he_phy_cap[0] = 0x0c;
		memcpy(b->he_mcs + 4, map2ss, 4);
	} else {
		for (uint16_t c = 1; c <= 13; c++)
			b->channels[b->n_channels++] = (struct driver_channel){
				.freq_mhz = 2407 + 5u * c, .number = c, .max_power_dbm = 20 };
		memcpy(b->rates_100kbps, r24, sizeof(r24));
		b->n_rates = 12;
		b->he_phy_cap[0] = 0x02;
	}
	b->ht = true;
	b->ht_capab = 0x016e;
	b->ht_mcs_rx[0] = 0xff;
	b->ht_mcs_rx[1] = 0xff;
	b->he = true;
	memcpy(b->he_mcs, map2ss, 4);
}

static struct ap *width_ap(enum driver_band band, uint8_t channel, unsigned width)
{
	struct ap *ap = calloc(1, sizeof(*ap));
	ck_assert_ptr_nonnull(ap);
	memcpy(ap->addr, bssid, 6);
	fill_band(&ap->capa.bands[DRIVER_BAND_2GHZ], false);
	fill_band(&ap->capa.bands[DRIVER_BAND_5GHZ], true);
	memcpy(ap->conf.ssid, "wpad-wide", 9);
	ap->conf.ssid_len = 9;
	ap->conf.band = band;
	ap->conf.channel = channel;
	ap->conf.freq_mhz = ap_channel_to_freq(band, channel);
	ap->conf.beacon_int = 100;
	ap->conf.dtim_period = 2;
	ap->conf.want_width = width;
	ck_assert_int_eq(ap_conf_resolve_width(&ap->conf, &ap->capa, NULL), 0);
	ck_assert_uint_eq(ap->conf.chandef.width_mhz, width);
	return ap;
}

/* control channel, width, HT secondary offset, VHT width/seg0/seg1 */
static const struct width_case {
	enum driver_band band;
	uint8_t channel;
	unsigned width;
	uint8_t ht_sec;
	uint8_t vht_w, seg0, seg1;
} cases[] = {
	{ DRIVER_BAND_2GHZ, 6, 20, HT_OP_SEC_CHAN_NONE, 0, 0, 0 },
	{ DRIVER_BAND_2GHZ, 6, 40, HT_OP_SEC_CHAN_ABOVE, 0, 0, 0 },
	{ DRIVER_BAND_5GHZ, 36, 20, HT_OP_SEC_CHAN_NONE, 0, 0, 0 },
	{ DRIVER_BAND_5GHZ, 40, 40, HT_OP_SEC_CHAN_BELOW, 0, 38, 0 },
	{ DRIVER_BAND_5GHZ, 44, 80, HT_OP_SEC_CHAN_ABOVE, 1, 42, 0 },
	{ DRIVER_BAND_5GHZ, 36, 160, HT_OP_SEC_CHAN_ABOVE, 1, 42, 50 },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static size_t beacon_of(struct ap *ap, uint8_t *frame, size_t cap, size_t *tail_off)
{
	uint8_t head[AP_TEMPLATE_MAX], tail[AP_TEMPLATE_MAX];
	size_t hl, tl;
	ck_assert_int_eq(ap_build_beacon(ap, head, sizeof(head), &hl, tail, sizeof(tail), &tl), 0);
	ck_assert_uint_le(hl + tl, cap);
	memcpy(frame, head, hl);
	memcpy(frame + hl, tail, tl);
	*tail_off = hl;
	return hl + tl;
}

START_TEST(beacon_elements_per_width)
{
	const struct width_case *c = &cases[_i];
	struct ap *ap = width_ap(c->band, c->channel, c->width);
	uint8_t frame[2 * AP_TEMPLATE_MAX];
	size_t off, len = beacon_of(ap, frame, sizeof(frame), &off);
	struct ie_set s;
	ck_assert_int_eq(ie_parse(frame + off, len - off, &s), 0);

	ck_assert(s.has_ht_cap && s.has_ht_op);
	ck_assert_uint_eq(s.ht_op.primary_channel, c->channel);
	ck_assert_uint_eq(s.ht_op.sec_chan_offset, c->ht_sec);
	ck_assert(s.ht_op.sta_chan_width_any == (c->width >= 40));
	if (c->band == DRIVER_BAND_5GHZ) {
		ck_assert(s.has_vht_cap && s.has_vht_op);
		ck_assert_uint_eq(s.vht_cap.cap_info, (1u << 2) | (1u << 5));
		ck_assert_uint_eq(s.vht_cap.rx_mcs_map, 0xfffa);
		ck_assert_uint_eq(s.vht_op.chan_width, c->vht_w);
		ck_assert_uint_eq(s.vht_op.center_seg0, c->seg0);
		ck_assert_uint_eq(s.vht_op.center_seg1, c->seg1);
		ck_assert_uint_eq(s.vht_op.basic_mcs_map, 0xfffc);
	} else {
		ck_assert(!s.has_vht_cap && !s.has_vht_op);
	}
	ck_assert(s.has_he_cap && s.has_he_op);
	ck_assert_uint_eq(s.he_cap.phy_cap[0], c->band == DRIVER_BAND_5GHZ ? 0x0c : 0x02);
	ck_assert_uint_eq(s.he_cap.mcs_nss_len, c->band == DRIVER_BAND_5GHZ ? 8 : 4);
	ck_assert_uint_eq(s.he_op.bss_color_info & HE_OP_BSS_COLOR_MASK, 1 + 7 % 63);
	ck_assert_uint_eq(s.he_op.basic_mcs_nss, 0xfffc);

	/* The driver gets the same definition. */
	struct driver_ap_params p;
	struct driver_chandef *d = &p.chandef;
	ap_chan_to_driver(&ap->conf.chandef, d);
	ck_assert_uint_eq(d->width_mhz, c->width);
	ck_assert_uint_eq(d->control_mhz, ap->conf.freq_mhz);
	free(ap);
}
END_TEST

static void put_le32(FILE *f, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	ck_assert_uint_eq(fwrite(b, 1, 4, f), 4);
}

/* Every case's beacon into one pcap (link type 105, 802.11 without
 * radiotap); tshark's reading of HT/VHT/HE fields, one line per beacon. */
START_TEST(tshark_decodes_each_width)
{
	char path[] = "/tmp/ap-phy-widthXXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "wb");
	ck_assert_ptr_nonnull(f);
	put_le32(f, 0xa1b2c3d4);
	put_le32(f, 0x00040002); /* version 2.4 */
	put_le32(f, 0);
	put_le32(f, 0);
	put_le32(f, 65535);
	put_le32(f, 105);
	for (size_t i = 0; i < N_CASES; i++) {
		struct ap *ap = width_ap(cases[i].band, cases[i].channel, cases[i].width);
		uint8_t frame[2 * AP_TEMPLATE_MAX];
		size_t off, len = beacon_of(ap, frame, sizeof(frame), &off);
		put_le32(f, (uint32_t)i);
		put_le32(f, 0);
		put_le32(f, (uint32_t)len);
		put_le32(f, (uint32_t)len);
		ck_assert_uint_eq(fwrite(frame, 1, len, f), len);
		free(ap);
	}
	ck_assert_int_eq(fclose(f), 0);

	ck_assert_msg(system("command -v tshark >/dev/null") == 0, "tshark is not installed");
	char cmd[512], line[256];
	snprintf(cmd, sizeof(cmd),
		 "tshark -r %s -T fields -E 'separator=;' -e wlan.ht.info.primarychannel "
		 "-e wlan.ht.info.secchanoffset -e wlan.ht.info.chanwidth "
		 "-e wlan.vht.op.channelwidth -e wlan.vht.op.channelcenter0 "
		 "-e wlan.vht.op.channelcenter1 -e wlan.ext_tag.number -e _ws.malformed "
		 "2>/dev/null",
		 path);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < N_CASES; i++) {
		const struct width_case *c = &cases[i];
		char want[128];
		ck_assert_msg(fgets(line, sizeof(line), p) != NULL, "tshark gave %zu lines", i);
		line[strcspn(line, "\n")] = '\0';
		/* tshark prints flags as 0x.. or decimal depending on version:
		 * compare through numbers. */
		unsigned pri, sec, wide, vw = 0, s0 = 0, s1 = 0;
		char tail[64] = "";
		int n = sscanf(line, "%u;%i;%i;", &pri, (int *)&sec, (int *)&wide);
		ck_assert_msg(n == 3, "line %zu: %s", i, line);
		ck_assert_uint_eq(pri, c->channel);
		ck_assert_uint_eq(sec, c->ht_sec);
		ck_assert_uint_eq(wide, c->width >= 40);
		const char *rest = line;
		for (int k = 0; k < 3; k++)
			rest = strchr(rest, ';') + 1;
		if (c->band == DRIVER_BAND_5GHZ) {
			ck_assert_msg(sscanf(rest, "%u;%u;%u;%63s", &vw, &s0, &s1, tail) == 4,
				      "line %zu: %s", i, line);
			ck_assert_uint_eq(vw, c->vht_w);
			ck_assert_uint_eq(s0, c->seg0);
			ck_assert_uint_eq(s1, c->seg1);
		} else {
			ck_assert_msg(strncmp(rest, ";;;", 3) == 0, "line %zu: %s", i, line);
			snprintf(tail, sizeof(tail), "%s", rest + 3);
		}
		/* HE Capabilities (35) and HE Operation (36); nothing malformed. */
		snprintf(want, sizeof(want), "35,36;");
		ck_assert_msg(strcmp(tail, want) == 0 || strcmp(tail, "35,36") == 0,
			      "line %zu: ext tags/malformed '%s'", i, tail);
	}
	ck_assert_ptr_null(fgets(line, sizeof(line), p));
	ck_assert_int_eq(pclose(p), 0);
	unlink(path);
}
END_TEST

/* The station's HT/VHT/HE capability bodies reach the driver's station
 * entry on a 5 GHz BSS; on 2.4 GHz there is no VHT. */
START_TEST(station_caps_to_driver)
{
	struct ap *ap = width_ap(DRIVER_BAND_5GHZ, 36, 80);
	uint8_t frame[2 * AP_TEMPLATE_MAX];
	size_t off, len = beacon_of(ap, frame, sizeof(frame), &off);
	struct ie_set s; /* a station with our own capabilities */
	ck_assert_int_eq(ie_parse(frame + off, len - off, &s), 0);
	struct driver_sta_params p = { 0 };
	uint8_t buf[AP_STA_CAP_BUF];
	ap_sta_phy_caps(ap, &s, &p, buf, sizeof(buf));
	ck_assert_ptr_nonnull(p.ht_cap);
	ck_assert_ptr_nonnull(p.vht_cap);
	ck_assert_ptr_nonnull(p.he_cap);
	struct ie_elem e;
	ck_assert(ie_find(frame + off, len - off, WLAN_EID_HT_CAP, &e));
	ck_assert_mem_eq(p.ht_cap, e.data, 26);
	ck_assert(ie_find(frame + off, len - off, WLAN_EID_VHT_CAP, &e));
	ck_assert_mem_eq(p.vht_cap, e.data, 12);
	ck_assert_uint_eq(p.he_cap_len, 6 + 11 + 8);
	ck_assert_mem_eq(p.he_cap, s.he_cap.mac_cap, p.he_cap_len);

	ap->conf.band = DRIVER_BAND_2GHZ;
	memset(&p, 0, sizeof(p));
	ap_sta_phy_caps(ap, &s, &p, buf, sizeof(buf));
	ck_assert_ptr_nonnull(p.ht_cap);
	ck_assert_ptr_null(p.vht_cap);
	/* A station without HT gets nothing. */
	s.has_ht_cap = false;
	memset(&p, 0, sizeof(p));
	ap_sta_phy_caps(ap, &s, &p, buf, sizeof(buf));
	ck_assert_ptr_null(p.ht_cap);
	ck_assert_ptr_null(p.he_cap);
	free(ap);
}
END_TEST

Suite *make_ap_width_suite(void)
{
	Suite *s = suite_create("ap_width");
	TCase *tc = tcase_create("width");
	tcase_set_timeout(tc, 60); /* tshark takes a while to start */
	tcase_add_loop_test(tc, beacon_elements_per_width, 0, N_CASES);
	tcase_add_test(tc, tshark_decodes_each_width);
	tcase_add_test(tc, station_caps_to_driver);
	suite_add_tcase(s, tc);
	return s;
}
