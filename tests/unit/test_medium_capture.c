/* The pcap capture: the file is parsed back field by field (pcap header,
 * radiotap flags/rate/channel/signal, the frame) and decoded by tshark. */
#include "tests/unit/test_medium_fixture.h"

#include "daemon/core/bytes.h"
#include "drivers/sim/medium-internal.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint8_t A[6] = { 0x02, 0, 0, 0, 0, 0x0a };
static const uint8_t B[6] = { 0x02, 0, 0, 0, 0, 0x0b };
static const uint8_t NOBODY[6] = { 0x02, 0, 0, 0, 0, 0xee };

struct record {
	uint64_t time_us;
	uint16_t rt_len;
	uint32_t present;
	uint8_t flags, rate;
	uint16_t freq, chan_flags;
	int8_t signal;
	const uint8_t *frame;
	size_t frame_len;
};

static struct mfix fx;
static char path[64];

static void setup(void)
{
	int fd;
	mfix_setup(&fx);
	strcpy(path, "/tmp/wpad-medium-capture-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

static void teardown(void)
{
	mfix_teardown(&fx);
	unlink(path);
}

static size_t read_file(uint8_t *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

/* Parses the pcap header and up to max records. Returns the record count. */
static int parse_pcap(const uint8_t *buf, size_t len, struct record *recs, int max)
{
	struct rbuf r = rbuf_init(buf, len);
	int n = 0;

	ck_assert_uint_eq(rbuf_le32(&r), 0xa1b2c3d4);
	ck_assert_uint_eq(rbuf_le16(&r), 2);
	ck_assert_uint_eq(rbuf_le16(&r), 4);
	rbuf_take(&r, 8); /* thiszone, sigfigs */
	ck_assert_uint_ge(rbuf_le32(&r), MEDIUM_MAX_FRAME + 64); /* snaplen */
	ck_assert_uint_eq(rbuf_le32(&r), 127); /* LINKTYPE_IEEE802_11_RADIOTAP */
	while (rbuf_left(&r) && n < max) {
		uint64_t sec = rbuf_le32(&r), usec = rbuf_le32(&r);
		uint32_t incl = rbuf_le32(&r), orig = rbuf_le32(&r);
		ck_assert_uint_eq(incl, orig);
		ck_assert_uint_lt(usec, 1000000);
		struct rbuf p = rbuf_init(rbuf_take(&r, incl), incl);
		struct record *rec = &recs[n++];
		rec->time_us = sec * 1000000u + usec;
		ck_assert_uint_eq(rbuf_u8(&p), 0); /* radiotap version */
		rbuf_u8(&p);
		rec->rt_len = rbuf_le16(&p);
		rec->present = rbuf_le32(&p);
		rec->flags = rbuf_u8(&p);
		rec->rate = rbuf_u8(&p);
		rec->freq = rbuf_le16(&p);
		rec->chan_flags = rbuf_le16(&p);
		rec->signal = (int8_t)rbuf_u8(&p);
		ck_assert(!p.bad && !r.bad);
		ck_assert_uint_eq(p.pos, rec->rt_len);
		rec->frame_len = rbuf_left(&p);
		rec->frame = rbuf_take(&p, rec->frame_len);
	}
	return n;
}

/* Puts a beacon (1 Mb/s, 2.4 GHz), an injected frame (5 GHz) and a unicast
 * frame nobody ACKs (two attempts) on the air, capturing. */
static void capture_traffic(uint8_t *beacon, size_t *beacon_len)
{
	static const uint8_t stub[10] = { 0xd4, 0x00, 0x00, 0x00, 0x02, 0, 0, 0, 0, 0x0b };
	uint8_t frame[64];
	struct mrecv r;

	ck_assert_int_eq(medium_set_link(fx.m, A, B, -5500, 0), 0);
	int a = mfix_radio(&fx, A, 2412);
	int b = mfix_radio(&fx, B, 2412);
	ck_assert_int_eq(medium_capture_start(fx.m, path), 0);
	*beacon_len = mfix_beacon(beacon, A, "wpad-capture");
	mfix_tx(a, 1, 0, 0, 10, beacon, *beacon_len);
	ck_assert(mfix_recv_type(&fx, a, MEDIUM_MSG_TX_STATUS, &r, 1000));
	ck_assert_int_eq(medium_inject(fx.m, 5180, -7049, stub, sizeof(stub)), 0);
	mfix_run(&fx, 5);
	size_t len = mfix_data_frame(frame, NOBODY, A, 1, 4);
	mfix_tx(a, 2, 0, 1, 540, frame, len);
	ck_assert(mfix_recv_type(&fx, a, MEDIUM_MSG_TX_STATUS, &r, 1000));
	medium_capture_stop(fx.m);
	close(a);
	close(b);
}

START_TEST(pcap_records_carry_radiotap_fields)
{
	static uint8_t buf[16384];
	uint8_t beacon[128];
	size_t beacon_len;
	struct record recs[8];

	capture_traffic(beacon, &beacon_len);
	size_t n = read_file(buf, sizeof(buf));
	ck_assert_int_eq(parse_pcap(buf, n, recs, 8), 4);
	for (int i = 0; i < 4; i++) {
		ck_assert_uint_eq(recs[i].rt_len, 15);
		ck_assert_uint_eq(recs[i].present, 0x2e); /* flags, rate, channel, antsignal */
		ck_assert_uint_eq(recs[i].flags, 0);      /* no FCS */
	}
	/* The beacon: 1 Mb/s CCK on 2.4 GHz, heard by B at -55 dBm. */
	ck_assert_uint_eq(recs[0].rate, 2);
	ck_assert_uint_eq(recs[0].freq, 2412);
	ck_assert_uint_eq(recs[0].chan_flags, 0x0080 | 0x0020);
	ck_assert_int_eq(recs[0].signal, -55);
	ck_assert_uint_eq(recs[0].frame_len, beacon_len);
	ck_assert_mem_eq(recs[0].frame, beacon, beacon_len);
	/* The injected frame: 6 Mb/s OFDM on 5 GHz at its own signal. */
	ck_assert_uint_eq(recs[1].rate, 12);
	ck_assert_uint_eq(recs[1].freq, 5180);
	ck_assert_uint_eq(recs[1].chan_flags, 0x0100 | 0x0040);
	ck_assert_int_eq(recs[1].signal, -70);
	/* Both attempts of the unicast frame, the second with Retry set. */
	ck_assert_uint_eq(recs[2].rate, 108);
	ck_assert_uint_eq(recs[2].chan_flags, 0x0080 | 0x0040);
	ck_assert_uint_eq(recs[2].frame[1] & 0x08, 0);
	ck_assert_uint_eq(recs[3].frame[1] & 0x08, 0x08);
	ck_assert_int_eq(recs[2].signal, -55); /* B overheard it */
	/* Record times follow the loop's clock: the retry went out after the
	 * first attempt's airtime, and the 5 ms run is between beacon and
	 * retries. */
	for (int i = 1; i < 4; i++)
		ck_assert_uint_ge(recs[i].time_us, recs[i - 1].time_us);
	ck_assert_uint_ge(recs[2].time_us - recs[0].time_us, 5000);
	ck_assert_uint_ge(recs[3].time_us - recs[2].time_us,
			  medium_airtime_us(2412, 540, recs[2].frame_len, false));
}
END_TEST

START_TEST(tshark_decodes_the_capture)
{
	static const char cmd_fmt[] =
		"tshark -r %s -T fields -E separator=, -e radiotap.channel.freq -e wlan.ssid "
		"-e radiotap.dbm_antsignal -e radiotap.datarate -e wlan.fc.retry 2>/dev/null";
	char cmd[256], line[256];
	uint8_t beacon[128];
	size_t beacon_len;

	capture_traffic(beacon, &beacon_len);
	ck_assert_msg(system("command -v tshark >/dev/null") == 0, "tshark is not installed");
	snprintf(cmd, sizeof(cmd), cmd_fmt, path);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
	/* tshark prints the SSID as text or, in newer releases, as hex. */
	ck_assert_msg(strcmp(line, "2412,wpad-capture,-55,1,False\n") == 0 ||
			      strcmp(line, "2412,777061642d63617074757265,-55,1,False\n") == 0 ||
			      strcmp(line, "2412,wpad-capture,-55,1,0\n") == 0 ||
			      strcmp(line, "2412,777061642d63617074757265,-55,1,0\n") == 0,
		      "tshark line 1: %s", line);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
	ck_assert_msg(strncmp(line, "5180,,-70,6,", 12) == 0, "tshark line 2: %s", line);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
	ck_assert_msg(strstr(line, ",54,") && (strstr(line, "True") || strstr(line, ",1\n")),
		      "tshark line 4 (the retry): %s", line);
	ck_assert_ptr_null(fgets(line, sizeof(line), p));
	ck_assert_int_eq(pclose(p), 0);
}
END_TEST

START_TEST(capture_start_stop_errors)
{
	ck_assert_int_eq(medium_capture_start(fx.m, "/nonexistent-dir/x.pcap"), -ENOENT);
	ck_assert_int_eq(medium_capture_start(fx.m, ""), -EINVAL);
	ck_assert_int_eq(medium_capture_start(fx.m, "/dev/full"), -EIO);
	medium_capture_stop(fx.m); /* not capturing: harmless */
	/* Restarting replaces the file; teardown frees an active capture. */
	ck_assert_int_eq(medium_capture_start(fx.m, path), 0);
	ck_assert_int_eq(medium_capture_start(fx.m, path), 0);
}
END_TEST

Suite *make_medium_capture_suite(void)
{
	Suite *s = suite_create("medium_capture");
	TCase *tc = tcase_create("pcap");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60); /* tshark takes a while to start */
	tcase_add_test(tc, pcap_records_carry_radiotap_fields);
	tcase_add_test(tc, tshark_decodes_the_capture);
	tcase_add_test(tc, capture_start_stop_errors);
	suite_add_tcase(s, tc);
	return s;
}
