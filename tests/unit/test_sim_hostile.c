/* Hostile input to the sim backend's receive path: truncated, oversize,
 * malformed and random frames, into every role and state, straight into
 * the RX path and over the medium from an injecting "hostile radio". The
 * radios must count and drop them and keep working. */
#include "tests/unit/test_sim_fixture.h"
#include "drivers/sim/medium.h"
#include "drivers/sim/sim.h"
#include "daemon/core/loop.h"

#include <check.h>
#include <string.h>

struct bss {
	uint32_t ap, sta, mon;
	uint8_t ap_addr[6], sta_addr[6];
};

static struct bss setup_bss(void)
{
	struct bss b;
	b.ap = simt_iface(0, DRIVER_IFTYPE_AP);
	b.sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	b.mon = simt_iface(2, DRIVER_IFTYPE_MONITOR);
	simt_addr(b.ap, b.ap_addr);
	simt_addr(b.sta, b.sta_addr);
	simt_start_ap(b.ap, "hostile", SIMT_CH6);
	simt_connect(b.sta, b.ap, "hostile", SIMT_CH6);
	simt_install_ptk(b.sta, b.ap, 0x42);
	ck_assert_int_eq(driver_set_channel(T->drv, b.mon, SIMT_CH6), 0);
	simt_forget();
	return b;
}

/* Data still flows both ways after the abuse. */
static void still_works(const struct bss *b)
{
	simt_forget();
	ck_assert_int_eq(driver_tx_data(T->drv, b->sta, b->ap_addr, 0x88b5,
					(const uint8_t *)"alive", 5, 0), 0);
	ck_assert_int_eq(driver_tx_data(T->drv, b->ap, b->sta_addr, 0x88b5,
					(const uint8_t *)"alive", 5, 0), 0);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_RX_DATA, b->ap, 1000));
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_RX_DATA, b->sta, 1000));
}

static void inject_all(const struct bss *b, const uint8_t *f, size_t len)
{
	ck_assert_int_eq(sim_driver_inject_rx(T->drv, b->ap, f, len, 0, -5000), 0);
	ck_assert_int_eq(sim_driver_inject_rx(T->drv, b->sta, f, len, 0, -5000), 0);
	ck_assert_int_eq(sim_driver_inject_rx(T->drv, b->mon, f, len, 0, -5000), 0);
}

/* Well-formed frames of each kind the RX path handles specially. */
static size_t sample(int kind, const struct bss *b, uint8_t *out)
{
	size_t n;
	switch (kind) {
	case 0: /* beacon with elements */
		return simt_beacon_head(out, b->ap_addr, "hostile", SIMT_CH6, 0x0080);
	case 1: /* authentication response */
		n = simt_mgmt(out, 0x00b0, b->sta_addr, b->ap_addr, b->ap_addr);
		memcpy(out + n, "\0\0\2\0\0\0", 6);
		return n + 6;
	case 2: /* association response */
		n = simt_mgmt(out, 0x0010, b->sta_addr, b->ap_addr, b->ap_addr);
		memcpy(out + n, "\1\0\0\0\1\xc0\1\1\x82", 9);
		return n + 9;
	case 3: /* protected QoS data to the AP */
		n = simt_mgmt(out, 0x4188, b->ap_addr, b->sta_addr, b->ap_addr);
		memcpy(out + n, "\0\0\1\0\0\x20\0\0\0\0ciphertext-and-mic", 28);
		return n + 28;
	case 4: /* protected QoS data from the AP */
		n = simt_mgmt(out, 0x4288, b->sta_addr, b->ap_addr, b->ap_addr);
		memcpy(out + n, "\5\0\1\0\0\x60\0\0\0\0ciphertext-and-mic", 28);
		return n + 28;
	case 5: /* plaintext data with LLC/SNAP */
		n = simt_mgmt(out, 0x0188, b->ap_addr, b->sta_addr, b->ap_addr);
		memcpy(out + n, "\0\0\xaa\xaa\3\0\0\0\x88\x8e\2\3\0\0", 14);
		return n + 14;
	case 6: /* deauthentication */
		n = simt_mgmt(out, 0x00c0, b->sta_addr, b->ap_addr, b->ap_addr);
		memcpy(out + n, "\3\0", 2);
		return n + 2;
	default: /* probe request */
		n = simt_mgmt(out, 0x0040, (const uint8_t *)"\xff\xff\xff\xff\xff\xff", b->sta_addr,
			      (const uint8_t *)"\xff\xff\xff\xff\xff\xff");
		memcpy(out + n, "\0\7hostile\1\1\x82", 12);
		return n + 12;
	}
}

START_TEST(truncated_frames_are_counted_and_dropped)
{
	struct bss b = setup_bss();
	uint8_t f[256];
	for (int kind = 0; kind < 8; kind++) {
		size_t full = sample(kind, &b, f);
		for (size_t len = 0; len < full; len++)
			inject_all(&b, f, len);
	}
	/* The deauthentication sample, whole, still ends the association:
	 * prove it last. Everything shorter was refused. */
	struct sim_rx_counters c;
	ck_assert_int_eq(sim_driver_rx_counters(T->drv, b.sta, &c), 0);
	ck_assert_uint_gt(c.malformed, 8 * 10);
	ck_assert_int_eq(sim_driver_rx_counters(T->drv, b.ap, &c), 0);
	ck_assert_uint_gt(c.malformed, 8 * 10);
	simt_run(30);
	ck_assert_uint_eq(simt_count(DRIVER_EV_DEAUTH, b.sta), 0);
	ck_assert_uint_eq(simt_count(DRIVER_EV_RX_DATA, 0), 0);
	still_works(&b);
}
END_TEST

START_TEST(oversize_and_garbage_frames)
{
	struct bss b = setup_bss();
	static uint8_t big[MEDIUM_MAX_FRAME + 100];
	size_t n = sample(0, &b, big);
	memset(big + n, 0xdd, sizeof(big) - n);
	inject_all(&b, big, sizeof(big));
	/* Elements that run past the end of the beacon. */
	uint8_t f[256];
	n = sample(0, &b, f);
	f[n++] = 48;
	f[n++] = 200;
	inject_all(&b, f, n);
	/* Bad protocol version, control frames, 4-address data, A-MSDU,
	 * reserved TIDs, a CCMP header without Ext IV. */
	static const uint16_t fcs[] = { 0x0001, 0x00d4, 0x00b4, 0x0388, 0x4388, 0x0188 };
	for (size_t i = 0; i < sizeof(fcs) / sizeof(fcs[0]); i++) {
		n = sample(3, &b, f);
		f[0] = (uint8_t)fcs[i];
		f[1] = (uint8_t)(fcs[i] >> 8);
		inject_all(&b, f, n);
	}
	n = sample(3, &b, f);
	f[24] = 0x88; /* TID 8 with the A-MSDU bit */
	inject_all(&b, f, n);
	n = sample(3, &b, f);
	f[29] = 0x00; /* no Ext IV */
	inject_all(&b, f, n);
	inject_all(&b, NULL, 0);
	simt_run(20);
	ck_assert_uint_eq(simt_count(DRIVER_EV_RX_DATA, 0), 0);
	ck_assert_uint_eq(simt_count(DRIVER_EV_RX_EAPOL, 0), 0);
	struct driver_scan_results res = { 0 };
	ck_assert_int_eq(driver_get_scan_results(T->drv, b.sta, &res), 0);
	for (size_t i = 0; i < res.n; i++) { /* only well-formed beacons made it */
		const struct driver_scan_result *r = &res.results[i];
		size_t pos = 0;
		while (pos + 2 <= r->ies_len)
			pos += 2u + r->ies[pos + 1];
		ck_assert_uint_eq(pos, r->ies_len);
	}
	driver_scan_results_free(&res);
	still_works(&b);
}
END_TEST

static uint32_t rng = 0x12345678;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

START_TEST(random_frames_never_crash_the_radio)
{
	struct bss b = setup_bss();
	static uint8_t f[2600];
	for (int i = 0; i < 20000; i++) {
		size_t len = next() % (i % 10 ? 120 : sizeof(f));
		for (size_t j = 0; j < len; j++)
			f[j] = (uint8_t)next();
		if (len >= 24 && i % 3 == 0) {
			/* Aim at our addresses so filters do not stop everything. */
			size_t k = sample((int)(next() % 8), &b, f);
			for (size_t j = 24; j < k && j < len; j++)
				if (next() % 4 == 0)
					f[j] = (uint8_t)next();
			len = len > k ? k + next() % 16 : len;
		}
		inject_all(&b, f, len);
		if (i % 1000 == 0)
			loop_iterate(T->loop, 0);
	}
	simt_run(50);
	/* Whatever happened to the association, the radios still answer. */
	struct driver_queue_state q;
	ck_assert_int_eq(driver_get_queue_state(T->drv, b.sta, &q), 0);
	struct sim_rx_counters c;
	ck_assert_int_eq(sim_driver_rx_counters(T->drv, b.ap, &c), 0);
	ck_assert_uint_ge(c.frames, 20000);
}
END_TEST

START_TEST(hostile_radio_on_the_medium)
{
	struct bss b = setup_bss();
	struct medium *m = sim_driver_medium(T->drv);
	uint8_t f[256];
	for (int kind = 0; kind < 8; kind++) {
		size_t n = sample(kind, &b, f);
		for (size_t len = 1; len < n; len += 3)
			ck_assert_int_eq(medium_inject(m, SIMT_CH6, -3000, f, len), 0);
	}
	simt_run(200);
	ck_assert_uint_eq(simt_count(DRIVER_EV_DEAUTH, b.sta), 0);
	struct sim_rx_counters c;
	ck_assert_int_eq(sim_driver_rx_counters(T->drv, b.sta, &c), 0);
	ck_assert_uint_gt(c.malformed, 0);
	still_works(&b);
}
END_TEST

Suite *make_sim_hostile_suite(void)
{
	Suite *s = suite_create("sim_hostile");
	TCase *tc = tcase_create("hostile");
	tcase_add_checked_fixture(tc, simt_setup, simt_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, truncated_frames_are_counted_and_dropped);
	tcase_add_test(tc, oversize_and_garbage_frames);
	tcase_add_test(tc, random_frames_never_crash_the_radio);
	tcase_add_test(tc, hostile_radio_on_the_medium);
	suite_add_tcase(s, tc);
	return s;
}
