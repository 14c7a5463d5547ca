/* pcap writer: LINKTYPE_IEEE802_11_RADIOTAP, one record per attempt on the
 * air. The radiotap header carries, in field order:
 *   Flags (1)          0: no FCS at the end, long preamble
 *   Rate (2)           500 kb/s units
 *   Channel (3)        frequency, flags 2 GHz/5 GHz and CCK/OFDM
 *   dBm antsignal (5)  see medium.h for which signal a record shows
 * Everything is little-endian, as radiotap requires; the pcap header is
 * written little-endian too, which readers detect from the magic. */
#include "drivers/sim/medium-internal.h"

#include "daemon/core/bytes.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LINKTYPE_IEEE802_11_RADIOTAP 127
#define PCAP_SNAPLEN 65535
#define RADIOTAP_LEN 15
#define RT_PRESENT_FLAGS (1u << 1)
#define RT_PRESENT_RATE (1u << 2)
#define RT_PRESENT_CHANNEL (1u << 3)
#define RT_PRESENT_DBM_ANTSIGNAL (1u << 5)
#define RT_CHAN_CCK 0x0020
#define RT_CHAN_OFDM 0x0040
#define RT_CHAN_2GHZ 0x0080
#define RT_CHAN_5GHZ 0x0100

/* Record times are the date the capture opened plus the loop's time since:
 * on a virtual clock (unit tests) the gaps are the simulated airtime, and a
 * capture never goes back in time when the wall clock is set. */
struct medium_capture {
	FILE *f;
	const struct loop *loop;
	uint64_t date_at_open_us;
	uint64_t loop_at_open_us;
};

static bool write_all(struct medium_capture *cap, const void *p, size_t n)
{
	return fwrite(p, 1, n, cap->f) == n;
}

struct medium_capture *medium_capture_open(const char *path, const struct loop *loop, int *err)
{
	uint8_t hdr[24];
	struct wbuf w = wbuf_init(hdr, sizeof(hdr));
	struct medium_capture *cap = calloc(1, sizeof(*cap));

	if (!cap) {
		*err = -ENOMEM;
		return NULL;
	}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	cap->date_at_open_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
	cap->loop = loop;
	cap->loop_at_open_us = loop_now_us(loop);
	cap->f = fopen(path, "wbe");
	if (!cap->f) {
		*err = -errno;
		free(cap);
		return NULL;
	}
	wbuf_le32(&w, 0xa1b2c3d4); /* microsecond timestamps */
	wbuf_le16(&w, 2);
	wbuf_le16(&w, 4);
	wbuf_le32(&w, 0); /* thiszone */
	wbuf_le32(&w, 0); /* sigfigs */
	wbuf_le32(&w, PCAP_SNAPLEN);
	wbuf_le32(&w, LINKTYPE_IEEE802_11_RADIOTAP);
	if (!write_all(cap, hdr, w.len) || fflush(cap->f) != 0) {
		*err = -EIO;
		medium_capture_close(cap);
		return NULL;
	}
	return cap;
}

void medium_capture_close(struct medium_capture *cap)
{
	if (!cap)
		return;
	fclose(cap->f);
	free(cap);
}

static bool is_cck_rate(uint16_t rate_100kbps)
{
	return rate_100kbps == 10 || rate_100kbps == 20 || rate_100kbps == 55 ||
	       rate_100kbps == 110;
}

static void put_radiotap(struct wbuf *w, uint32_t freq_mhz, uint16_t rate_100kbps,
			 int32_t signal_mbm)
{
	uint16_t chan_flags;
	int32_t dbm = signal_mbm >= 0 ? (signal_mbm + 50) / 100 : (signal_mbm - 50) / 100;

	if (freq_mhz < 3000)
		chan_flags = RT_CHAN_2GHZ | (is_cck_rate(rate_100kbps) ? RT_CHAN_CCK : RT_CHAN_OFDM);
	else
		chan_flags = RT_CHAN_5GHZ | RT_CHAN_OFDM; /* radiotap has no 6 GHz flag */
	if (dbm < -128)
		dbm = -128;
	if (dbm > 127)
		dbm = 127;
	wbuf_u8(w, 0); /* version */
	wbuf_u8(w, 0); /* pad */
	wbuf_le16(w, RADIOTAP_LEN);
	wbuf_le32(w, RT_PRESENT_FLAGS | RT_PRESENT_RATE | RT_PRESENT_CHANNEL |
			     RT_PRESENT_DBM_ANTSIGNAL);
	wbuf_u8(w, 0); /* flags: FCS not included */
	wbuf_u8(w, (uint8_t)(rate_100kbps / 5 > 255 ? 255 : rate_100kbps / 5));
	wbuf_le16(w, (uint16_t)freq_mhz);
	wbuf_le16(w, chan_flags);
	wbuf_u8(w, (uint8_t)(int8_t)dbm);
}

int medium_capture_write(struct medium_capture *cap, uint32_t freq_mhz, uint16_t rate_100kbps,
			 int32_t signal_mbm, const uint8_t *frame, size_t len)
{
	uint8_t hdr[16 + RADIOTAP_LEN];
	struct wbuf w = wbuf_init(hdr, sizeof(hdr));
	uint32_t caplen = (uint32_t)(RADIOTAP_LEN + len);
	uint64_t t = cap->date_at_open_us + (loop_now_us(cap->loop) - cap->loop_at_open_us);

	wbuf_le32(&w, (uint32_t)(t / 1000000u));
	wbuf_le32(&w, (uint32_t)(t % 1000000u));
	wbuf_le32(&w, caplen);
	wbuf_le32(&w, caplen);
	put_radiotap(&w, freq_mhz, rate_100kbps, signal_mbm);
	/* Flush per record: a reader (or a crash) sees whole records. */
	if (!write_all(cap, hdr, w.len) || !write_all(cap, frame, len) || fflush(cap->f) != 0)
		return -EIO;
	return 0;
}
