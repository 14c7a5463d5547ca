/* The driver conformance suite: the contract of drivers/driver.h that every
 * backend must honour. Backend-agnostic: it uses only the driver_*()
 * wrappers and hand-built frames.
 *
 * Usage: driver-conformance BACKEND [OPTIONS]   e.g. driver-conformance sim radios=3,netdev=station
 * (the radios need an interface of their own for adopting_an_existing_interface)
 */
#include "tests/support/frames.h"
#include "tests/support/harness.h"
#include "daemon/core/loop.h"

#include <check.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FREQ_CH6 2437
#define FREQ_CH1 2412
static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static struct driver_capa capa_of(size_t radio_index)
{
	struct driver_capa capa;
	memset(&capa, 0, sizeof(capa));
	ck_assert_int_eq(driver_get_capa(H->drv, H->radios[radio_index].id, &capa), 0);
	return capa;
}

static bool scan_has_ssid(uint32_t ifindex, const uint8_t bssid[6], const char *ssid)
{
	struct driver_scan_results res = { 0 };
	bool found = false;
	ck_assert_int_eq(driver_get_scan_results(H->drv, ifindex, &res), 0);
	for (size_t i = 0; i < res.n; i++) {
		char got[33];
		if (memcmp(res.results[i].bssid, bssid, 6) != 0)
			continue;
		if (ies_find_ssid(res.results[i].ies, res.results[i].ies_len, got, sizeof(got)) >= 0 &&
		    strcmp(got, ssid) == 0)
			found = true;
	}
	driver_scan_results_free(&res);
	return found;
}

static void scan_and_wait(uint32_t ifindex, const struct driver_scan_params *p)
{
	ck_assert_int_eq(driver_scan_trigger(H->drv, ifindex, p), 0);
	ck_assert_msg(harness_wait(DRIVER_EV_SCAN_DONE, ifindex, 5000) != NULL,
		      "scan did not finish in 5 s");
}

/* ---- capabilities ---- */

START_TEST(capabilities_are_consistent)
{
	for (size_t r = 0; r < H->n_radios; r++) {
		struct driver_capa capa = capa_of(r);
		ck_assert_msg(capa.iftypes & DRIVER_IFTYPE_STATION, "radio cannot be a station");
		ck_assert_msg(capa.ciphers & DRIVER_CIPHER_CCMP_128, "no CCMP-128");
		ck_assert_uint_gt(capa.max_interfaces, 0);
		size_t channels = 0;
		for (int b = 0; b < DRIVER_BAND_COUNT; b++) {
			const struct driver_band_info *band = &capa.bands[b];
			if (!band->present)
				continue;
			ck_assert_uint_gt(band->n_rates, 0);
			for (size_t c = 0; c < band->n_channels; c++) {
				const struct driver_channel *ch = &band->channels[c];
				uint32_t f = ch->freq_mhz;
				/* Channel numbers follow from frequencies (802.11-2020 Annex E). */
				if (b == DRIVER_BAND_2GHZ && f != 2484)
					ck_assert_uint_eq(ch->number, (f - 2407) / 5);
				if (b == DRIVER_BAND_5GHZ)
					ck_assert_uint_eq(ch->number, (f - 5000) / 5);
				for (size_t d = c + 1; d < band->n_channels; d++)
					ck_assert_uint_ne(f, band->channels[d].freq_mhz);
				channels++;
			}
		}
		ck_assert_uint_gt(channels, 0);
		/* Every advertised interface type can be created. */
		static const enum driver_iftype types[] = { DRIVER_IFTYPE_STATION, DRIVER_IFTYPE_AP,
							    DRIVER_IFTYPE_MONITOR };
		for (size_t t = 0; t < 3; t++) {
			if (!(capa.iftypes & types[t]))
				continue;
			uint32_t ifindex = 0;
			int e = driver_iface_add(H->drv, H->radios[r].id, NULL, types[t], NULL, &ifindex);
			ck_assert_msg(e == 0, "advertised %s cannot be created: %d",
				      driver_iftype_name(types[t]), e);
			ck_assert_int_eq(driver_iface_del(H->drv, ifindex), 0);
		}
	}
	struct driver_capa none;
	ck_assert_int_lt(driver_get_capa(H->drv, 0xdeadbeef, &none), 0);
}
END_TEST

/* Every advertised cipher installs, every other is refused: data ciphers
 * as the AP's group key, BIP suites as its IGTK (and BIGTK with beacon
 * protection). Group keys of a started AP need no peer, so this holds on
 * real hardware too (a pairwise key needs an associated peer: cfg80211
 * refuses one for an absent station, see encrypted_data_flows_both_ways). */
START_TEST(advertised_ciphers_install)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	struct driver_capa capa = capa_of(0);
	harness_start_ap(ap, "ciphers", FREQ_CH6);
	static const struct { uint32_t bit; size_t len; enum driver_key_type type; uint8_t idx; }
	ciphers[] = {
		{ DRIVER_CIPHER_CCMP_128, 16, DRIVER_KEY_GROUP, 1 },
		{ DRIVER_CIPHER_GCMP_256, 32, DRIVER_KEY_GROUP, 1 },
		{ DRIVER_CIPHER_CCMP_256, 32, DRIVER_KEY_GROUP, 1 },
		{ DRIVER_CIPHER_GCMP_128, 16, DRIVER_KEY_GROUP, 1 },
		{ DRIVER_CIPHER_BIP_CMAC_128, 16, DRIVER_KEY_IGTK, 4 },
		{ DRIVER_CIPHER_BIP_CMAC_256, 32, DRIVER_KEY_IGTK, 4 },
		{ DRIVER_CIPHER_BIP_GMAC_128, 16, DRIVER_KEY_IGTK, 4 },
		{ DRIVER_CIPHER_BIP_GMAC_256, 32, DRIVER_KEY_IGTK, 4 },
	};
	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++) {
		struct driver_key k = { .type = ciphers[i].type, .cipher = ciphers[i].bit,
					.key_len = ciphers[i].len, .key_idx = ciphers[i].idx,
					.set_tx = true };
		memset(k.key, 0x5c, k.key_len);
		int e = driver_key_set(H->drv, ap, &k);
		if (capa.ciphers & ciphers[i].bit)
			ck_assert_msg(e == 0, "advertised cipher %#x refused: %d", ciphers[i].bit, e);
		else
			ck_assert_msg(e < 0, "unadvertised cipher %#x accepted", ciphers[i].bit);
		/* mac80211 does not let a key index change its cipher in place
		 * (-EOPNOTSUPP): each key goes before the next comes. */
		if (e == 0)
			ck_assert_int_eq(driver_key_del(H->drv, ap, k.type, k.key_idx, NULL), 0);
	}
	/* The IGTK's sequence counter can be read back (the IPN stations get). */
	uint8_t seq[6];
	if (capa.ciphers & DRIVER_CIPHER_BIP_CMAC_128) {
		struct driver_key k = { .type = DRIVER_KEY_IGTK, .cipher = DRIVER_CIPHER_BIP_CMAC_128,
					.key_len = 16, .key_idx = 5, .set_tx = true };
		ck_assert_int_eq(driver_key_set(H->drv, ap, &k), 0);
		ck_assert_int_eq(driver_key_get_seq(H->drv, ap, DRIVER_KEY_IGTK, 5, NULL, seq), 0);
	}
	/* A BIP suite is not a data cipher, and an IGTK has key index 4 or 5. */
	struct driver_key bad = { .type = DRIVER_KEY_IGTK, .cipher = DRIVER_CIPHER_BIP_CMAC_128,
				  .key_len = 16, .key_idx = 1 };
	ck_assert_int_lt(driver_key_set(H->drv, ap, &bad), 0);
	if (capa.ext_features & DRIVER_EXT_BEACON_PROTECTION) {
		struct driver_key b = { .type = DRIVER_KEY_BIGTK, .cipher = DRIVER_CIPHER_BIP_CMAC_128,
					.key_len = 16, .key_idx = 6, .set_tx = true };
		ck_assert_int_eq(driver_key_set(H->drv, ap, &b), 0);
	}
}
END_TEST

/* The security capabilities agree with each other and with the ops. */
START_TEST(security_capabilities_are_consistent)
{
	uint32_t sta = harness_iface(0, DRIVER_IFTYPE_STATION);
	struct driver_capa capa = capa_of(0);
	ck_assert_msg(capa.auth_algs & DRIVER_AUTH_BIT(DRIVER_AUTH_OPEN),
		      "Open System authentication not listed");
	ck_assert_msg(capa.akms & DRIVER_AKM_PSK, "WPA2-Personal AKM not listed");
	if (capa.ext_features & DRIVER_EXT_MFP)
		ck_assert_msg(capa.ciphers & DRIVER_CIPHER_BIP_CMAC_128,
			      "MFP without BIP-CMAC-128, the mandatory group management cipher");
	if (capa.akms & DRIVER_AKM_PSK_SHA256)
		ck_assert_msg(capa.ext_features & DRIVER_EXT_MFP, "PSK-SHA256 needs MFP");
	if (capa.ext_features & DRIVER_EXT_BEACON_PROTECTION)
		ck_assert(capa.ext_features & DRIVER_EXT_MFP);
	/* The device's PMKSA cache is there exactly when advertised. */
	struct driver_pmksa p = { .bssid = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 } };
	int r = driver_pmksa_set(H->drv, sta, &p);
	if (capa.ext_features & DRIVER_EXT_PMKSA_CACHE) {
		ck_assert_int_eq(r, 0);
		ck_assert_int_eq(driver_pmksa_flush(H->drv, sta), 0);
	} else {
		ck_assert_int_eq(r, -EOPNOTSUPP);
	}
	r = driver_external_auth_done(H->drv, sta, p.bssid, 0);
	if (!(capa.ext_features & DRIVER_EXT_EXTERNAL_AUTH))
		ck_assert_int_lt(r, 0);
}
END_TEST

/* ---- interfaces ---- */

START_TEST(interface_lifecycle)
{
	uint32_t ifindex = 0;
	uint8_t addr[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	ck_assert_int_eq(driver_iface_add(H->drv, H->radios[0].id, "conf0", DRIVER_IFTYPE_STATION,
					  addr, &ifindex), 0);
	ck_assert_uint_ne(ifindex, 0);
	struct recorded_event *ev = harness_wait(DRIVER_EV_IFACE_NEW, ifindex, 1000);
	ck_assert_ptr_nonnull(ev);

	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(H->drv, ifindex, &info), 0);
	ck_assert_str_eq(info.name, "conf0");
	ck_assert_mem_eq(info.addr, addr, 6);
	ck_assert_uint_eq(info.radio_id, H->radios[0].id);
	ck_assert_int_eq(info.iftype, DRIVER_IFTYPE_STATION);

	struct driver_iface_info list[16];
	size_t n = 0;
	bool listed = false;
	ck_assert_int_eq(driver_list_ifaces(H->drv, list, 16, &n), 0);
	for (size_t i = 0; i < n; i++)
		listed |= list[i].ifindex == ifindex;
	ck_assert(listed);

	ck_assert_int_eq(driver_iface_set_up(H->drv, ifindex, true), 0);
	ck_assert_int_eq(driver_iface_info(H->drv, ifindex, &info), 0);
	ck_assert(info.up);
	ck_assert_int_eq(driver_iface_set_type(H->drv, ifindex, DRIVER_IFTYPE_AP), 0);
	ck_assert_int_eq(driver_iface_info(H->drv, ifindex, &info), 0);
	ck_assert_int_eq(info.iftype, DRIVER_IFTYPE_AP);
	ck_assert_int_eq(driver_iface_set_up(H->drv, ifindex, false), 0);

	ck_assert_int_eq(driver_iface_del(H->drv, ifindex), 0);
	ck_assert_ptr_nonnull(harness_wait(DRIVER_EV_IFACE_DEL, ifindex, 1000));
	ck_assert_int_lt(driver_iface_info(H->drv, ifindex, &info), 0);
	ck_assert_int_lt(driver_iface_del(H->drv, ifindex), 0);
}
END_TEST

/* The system's interfaces of radio 0 (the kernel's wlanN; the sim's with
 * netdev=station): there when the suite starts, made by nobody here. */
static bool system_iface(struct driver_iface_info *out)
{
	struct driver_iface_info list[16];
	size_t n = 0;
	ck_assert_int_eq(driver_list_ifaces(H->drv, list, 16, &n), 0);
	for (size_t i = 0; i < n; i++) {
		if (list[i].radio_id == H->radios[0].id && list[i].iftype == DRIVER_IFTYPE_STATION &&
		    strncmp(list[i].name, "conf", 4) != 0) {
			*out = list[i];
			return true;
		}
	}
	return false;
}

START_TEST(adopting_an_existing_interface)
{
	uint32_t r0 = H->radios[0].id, ifindex = 0;
	ck_assert_int_eq(driver_iface_adopt(H->drv, r0, "nosuch-if9", DRIVER_IFTYPE_STATION, NULL),
			 -ENODEV);
	/* An interface made through this driver is its user's: not adoptable. */
	ck_assert_int_eq(driver_iface_add(H->drv, r0, "conf1", DRIVER_IFTYPE_STATION, NULL, &ifindex),
			 0);
	ck_assert_int_eq(driver_iface_adopt(H->drv, r0, "conf1", DRIVER_IFTYPE_STATION, NULL),
			 -EBUSY);
	ck_assert_int_eq(driver_iface_release(H->drv, ifindex), -EINVAL); /* never adopted */
	ck_assert_int_eq(driver_iface_del(H->drv, ifindex), 0);

	struct driver_iface_info found, now;
	/* The suite runs where the radios have interfaces of their own (the sim
	 * with netdev=station, the hwsim VM's wlanN). */
	ck_assert_msg(system_iface(&found), "radio 0 has no interface of its own to adopt");
	ck_assert_int_eq(driver_iface_adopt(H->drv, r0, found.name, DRIVER_IFTYPE_AP, &ifindex), 0);
	ck_assert_uint_eq(ifindex, found.ifindex);
	ck_assert_int_eq(driver_iface_info(H->drv, ifindex, &now), 0);
	ck_assert_int_eq(now.iftype, DRIVER_IFTYPE_AP);
	ck_assert_int_eq(driver_iface_adopt(H->drv, r0, found.name, DRIVER_IFTYPE_AP, NULL), -EBUSY);
	ck_assert_int_eq(driver_iface_del(H->drv, ifindex), -EBUSY);
	ck_assert_int_eq(driver_iface_set_up(H->drv, ifindex, true), 0);
	ck_assert_int_eq(driver_iface_release(H->drv, ifindex), 0);
	ck_assert_int_eq(driver_iface_info(H->drv, ifindex, &now), 0);
	ck_assert_int_eq(now.iftype, found.iftype);
	ck_assert_int_eq(now.up, found.up);
}
END_TEST

START_TEST(unknown_interface_is_an_error_not_a_crash)
{
	const uint32_t bogus = 987654;
	struct driver_scan_params sp = { 0 };
	struct driver_queue_state q;
	struct driver_sta_info si;
	uint8_t seq[6], frame[64];
	uint64_t cookie;
	ck_assert_int_lt(driver_scan_trigger(H->drv, bogus, &sp), 0);
	ck_assert_int_lt(driver_tx_mgmt(H->drv, bogus, 0, frame, 24, false, &cookie), 0);
	ck_assert_int_lt(driver_stop_ap(H->drv, bogus), 0);
	ck_assert_int_lt(driver_get_queue_state(H->drv, bogus, &q), 0);
	ck_assert_int_lt(driver_sta_info(H->drv, bogus, bcast, &si), 0);
	ck_assert_int_lt(driver_key_get_seq(H->drv, bogus, DRIVER_KEY_GROUP, 1, NULL, seq), 0);
	ck_assert_int_lt(driver_tx_data(H->drv, bogus, bcast, 0x0800, frame, 10, 0), 0);
}
END_TEST

/* ---- scanning ---- */

START_TEST(active_scan_finds_beaconing_bss)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t bssid[6];
	harness_iface_addr(ap, bssid);
	harness_start_ap(ap, "conformance", FREQ_CH6);

	struct driver_scan_params p = { .n_ssids = 1, .n_freqs = 1, .freqs = { FREQ_CH6 } };
	p.ssids[0].len = 11;
	memcpy(p.ssids[0].ssid, "conformance", 11);
	scan_and_wait(sta, &p);
	ck_assert_msg(scan_has_ssid(sta, bssid, "conformance"), "BSS not in scan results");
	ck_assert_msg(harness_probes_answered() > 0, "an active scan sent no probe request");

	struct driver_scan_results res = { 0 };
	ck_assert_int_eq(driver_get_scan_results(H->drv, sta, &res), 0);
	for (size_t i = 0; i < res.n; i++) {
		if (memcmp(res.results[i].bssid, bssid, 6) != 0)
			continue;
		ck_assert_uint_eq(res.results[i].freq_mhz, FREQ_CH6);
		ck_assert_uint_eq(res.results[i].beacon_interval, 100);
		ck_assert_int_lt(res.results[i].signal_mbm, 0);
	}
	driver_scan_results_free(&res);
}
END_TEST

START_TEST(passive_scan_hears_beacons)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t bssid[6];
	harness_iface_addr(ap, bssid);
	harness_start_ap(ap, "quiet", FREQ_CH1);
	struct driver_scan_params p = { .passive = true, .n_freqs = 1, .freqs = { FREQ_CH1 } };
	scan_and_wait(sta, &p);
	ck_assert(scan_has_ssid(sta, bssid, "quiet"));
	/* A passive scan sends nothing: the AP got no probe request. */
	ck_assert_uint_eq(harness_count(DRIVER_EV_RX_MGMT, ap), 0);
	ck_assert_uint_eq(harness_probes_answered(), 0);
}
END_TEST

START_TEST(scan_of_other_channel_does_not_find_bss)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t bssid[6];
	harness_iface_addr(ap, bssid);
	harness_start_ap(ap, "elsewhere", FREQ_CH6);
	struct driver_scan_params p = { .n_freqs = 1, .freqs = { FREQ_CH1 } };
	scan_and_wait(sta, &p);
	ck_assert(!scan_has_ssid(sta, bssid, "elsewhere"));
}
END_TEST

START_TEST(scan_abort_reports_aborted)
{
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_scan_params p = { .passive = true }; /* all channels: long */
	ck_assert_int_eq(driver_scan_trigger(H->drv, sta, &p), 0);
	ck_assert_ptr_nonnull(harness_wait(DRIVER_EV_SCAN_STARTED, sta, 1000));
	ck_assert_int_eq(driver_scan_abort(H->drv, sta), 0);
	ck_assert_ptr_nonnull(harness_wait(DRIVER_EV_SCAN_ABORTED, sta, 1000));
	/* The interface is usable again at once. */
	struct driver_scan_params quick = { .n_freqs = 1, .freqs = { FREQ_CH1 } };
	scan_and_wait(sta, &quick);
}
END_TEST

START_TEST(beacon_update_and_stop)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint32_t fresh = harness_iface(2, DRIVER_IFTYPE_STATION);
	uint8_t bssid[6], head[256];
	harness_iface_addr(ap, bssid);
	harness_start_ap(ap, "before", FREQ_CH6);

	struct driver_ap_params p = { .freq_mhz = FREQ_CH6, .beacon_interval = 100,
				      .dtim_period = 2, .beacon_head = head };
	p.beacon_head_len = frame_beacon_head(head, bssid, "after", 6, 100);
	p.ssid.len = 5;
	memcpy(p.ssid.ssid, "after", 5);
	ck_assert_int_eq(driver_set_beacon(H->drv, ap, &p), 0);
	struct driver_scan_params sp = { .passive = true, .n_freqs = 1, .freqs = { FREQ_CH6 } };
	scan_and_wait(sta, &sp);
	ck_assert_msg(scan_has_ssid(sta, bssid, "after"), "set_beacon not applied");

	ck_assert_int_eq(driver_stop_ap(H->drv, ap), 0);
	harness_run_for(50);
	scan_and_wait(fresh, &sp); /* a radio that never heard the BSS */
	ck_assert_msg(!scan_has_ssid(fresh, bssid, "after"), "beacons continue after stop_ap");
}
END_TEST

/* ---- management frames ---- */

/* Management TX status and RX registration, with what the kernel lets each
 * role send (net/wireless/mlme.c cfg80211_mlme_mgmt_tx): a station sends
 * non-Public action frames only to the AP it is connected to, Public ones
 * anywhere. */
START_TEST(mgmt_tx_status_and_registration)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6], sta_addr[6], frame[64];
	static const uint8_t nobody[6] = { 0x02, 0xde, 0xad, 0x00, 0x00, 0x01 };
	uint64_t cookie = 0;
	harness_iface_addr(ap, ap_addr);
	harness_iface_addr(sta, sta_addr);
	harness_start_ap(ap, "mgmt", FREQ_CH6);
	harness_connect(sta, ap, "mgmt", FREQ_CH6);

	size_t n = frame_action(frame, ap_addr, sta_addr, ap_addr, 7);
	ck_assert_int_eq(driver_tx_mgmt(H->drv, sta, FREQ_CH6, frame, n, false, &cookie), 0);
	struct recorded_event *st = harness_wait_cookie(DRIVER_EV_TX_STATUS, sta, cookie, 2000);
	ck_assert_msg(st != NULL, "no TX status for an action frame");
	ck_assert_msg(st->acked, "frame to a present peer not acked");
	struct recorded_event *rx;
	do
		rx = harness_wait(DRIVER_EV_RX_MGMT, ap, 2000);
	while (rx && (rx->frame_len != n || rx->frame[24] != 127));
	ck_assert_msg(rx != NULL, "registered action frame not delivered");
	ck_assert_uint_eq(rx->frame[n - 1], 7);

	uint64_t cookie2 = 0;
	n = frame_action(frame, nobody, sta_addr, nobody, 8);
	frame[24] = 4; /* Public: a station may send it outside its BSS */
	ck_assert_int_eq(driver_tx_mgmt(H->drv, sta, FREQ_CH6, frame, n, false, &cookie2), 0);
	ck_assert_uint_ne(cookie2, cookie); /* unique per interface */
	st = harness_wait_cookie(DRIVER_EV_TX_STATUS, sta, cookie2, 3000);
	ck_assert_msg(st != NULL, "no TX status for a frame to nobody");
	ck_assert_msg(!st->acked, "frame to an absent peer was acked");

	/* A frame type the AP did not register for does not come up. */
	harness_run_for(50);
	size_t before = harness_count(DRIVER_EV_RX_MGMT, ap);
	n = frame_auth(frame, ap_addr, sta_addr, ap_addr, 0, 1, 0);
	frame[0] = 0x70; /* reserved management subtype 7 */
	int r = driver_tx_mgmt(H->drv, sta, FREQ_CH6, frame, n, false, &cookie);
	ck_assert_msg(r == 0 || r == -EINVAL, "reserved subtype: %d", r);
	harness_run_for(100);
	ck_assert_uint_eq(harness_count(DRIVER_EV_RX_MGMT, ap), before);
}
END_TEST

/* ---- station MLME and the AP station table ---- */

START_TEST(station_authenticates_and_associates)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t sta_addr[6];
	harness_iface_addr(sta, sta_addr);
	harness_start_ap(ap, "join", FREQ_CH6);
	harness_connect(sta, ap, "join", FREQ_CH6);

	struct driver_sta_info si;
	ck_assert_int_eq(driver_sta_info(H->drv, ap, sta_addr, &si), 0);
	ck_assert_mem_eq(si.addr, sta_addr, 6);
	ck_assert(si.flags & DRIVER_STA_ASSOCIATED);
	ck_assert(!(si.flags & DRIVER_STA_AUTHORIZED));
	ck_assert_int_eq(driver_sta_set_flags(H->drv, ap, sta_addr, DRIVER_STA_AUTHORIZED, 0), 0);
	ck_assert_int_eq(driver_sta_info(H->drv, ap, sta_addr, &si), 0);
	ck_assert(si.flags & DRIVER_STA_AUTHORIZED);

	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(H->drv, sta, &info), 0);
	ck_assert_uint_eq(info.freq_mhz, FREQ_CH6);
}
END_TEST

/* probe_client (the AP's inactivity poll): an associated station that is
 * there acknowledges the null frame; an unknown one is an error at once. */
START_TEST(probe_client_is_acknowledged)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t sta_addr[6];
	uint64_t cookie = 0;
	harness_iface_addr(sta, sta_addr);
	harness_start_ap(ap, "poll", FREQ_CH6);
	harness_connect(sta, ap, "poll", FREQ_CH6);
	int r = driver_probe_client(H->drv, ap, sta_addr, &cookie);
	if (r == -EOPNOTSUPP)
		return; /* optional op: the AP then drops idle stations unpolled */
	ck_assert_int_eq(r, 0);
	struct recorded_event *st = harness_wait_cookie(DRIVER_EV_PROBE_STATUS, ap, cookie, 3000);
	ck_assert_msg(st != NULL, "no PROBE_STATUS for cookie %llu", (unsigned long long)cookie);
	ck_assert_msg(st->acked, "a present station did not acknowledge the poll");
	ck_assert_int_lt(driver_probe_client(H->drv, ap, bcast, &cookie), 0);
}
END_TEST

START_TEST(authentication_times_out_without_ap)
{
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_auth_params auth = { .freq_mhz = FREQ_CH6, .alg = DRIVER_AUTH_OPEN,
					   .bssid = { 0x02, 0xba, 0xd0, 0, 0, 1 } };
	auth.ssid.len = 4;
	memcpy(auth.ssid.ssid, "void", 4);
	ck_assert_int_eq(driver_authenticate(H->drv, sta, &auth), 0);
	struct recorded_event *ev = harness_wait(DRIVER_EV_AUTH, sta, 5000);
	ck_assert_msg(ev != NULL, "no authentication timeout event");
	ck_assert(ev->timed_out);
}
END_TEST

START_TEST(deauthentication_reaches_the_ap)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6], sta_addr[6], frame[64];
	uint64_t cookie;
	harness_iface_addr(ap, ap_addr);
	harness_iface_addr(sta, sta_addr);
	harness_start_ap(ap, "bye", FREQ_CH6);
	harness_connect(sta, ap, "bye", FREQ_CH6);

	ck_assert_int_eq(driver_deauthenticate(H->drv, sta, ap_addr, 3), 0);
	struct recorded_event *ev = harness_wait(DRIVER_EV_RX_MGMT, ap, 2000);
	ck_assert_msg(ev != NULL, "AP did not receive the deauthentication");
	ck_assert_uint_eq(frame_fc(ev->frame) & 0x00fc, FC_DEAUTH);
	ck_assert_ptr_nonnull(harness_wait(DRIVER_EV_DEAUTH, sta, 1000));
	ck_assert_int_eq(driver_sta_del(H->drv, ap, sta_addr), 0);
	struct driver_sta_info si;
	ck_assert_int_lt(driver_sta_info(H->drv, ap, sta_addr, &si), 0);

	/* And the other direction: the AP deauthenticates a station. */
	harness_connect(sta, ap, "bye", FREQ_CH6);
	size_t n = frame_deauth(frame, sta_addr, ap_addr, ap_addr, 2);
	ck_assert_int_eq(driver_tx_mgmt(H->drv, ap, 0, frame, n, false, &cookie), 0);
	ev = harness_wait(DRIVER_EV_DEAUTH, sta, 2000);
	ck_assert_msg(ev != NULL, "station did not report the AP's deauthentication");
	ck_assert(ev->has_frame);
}
END_TEST

/* ---- keys, controlled port, data ---- */

static bool wait_data(uint32_t ifindex, const char *payload, bool want_encrypted)
{
	for (int i = 0; i < 8; i++) {
		struct recorded_event *ev = harness_wait(DRIVER_EV_RX_DATA, ifindex, 1000);
		if (!ev)
			return false;
		if (ev->frame_len == strlen(payload) && memcmp(ev->frame, payload, ev->frame_len) == 0)
			return ev->was_encrypted == want_encrypted;
	}
	return false;
}

START_TEST(encrypted_data_flows_both_ways)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6], sta_addr[6], seq0[6], seq1[6];
	harness_iface_addr(ap, ap_addr);
	harness_iface_addr(sta, sta_addr);
	harness_start_ap(ap, "data", FREQ_CH6);
	harness_connect(sta, ap, "data", FREQ_CH6);
	harness_install_pairwise(sta, ap, 0x5a);
	ck_assert_int_eq(driver_sta_set_flags(H->drv, ap, sta_addr, DRIVER_STA_AUTHORIZED, 0), 0);

	ck_assert_int_eq(driver_key_get_seq(H->drv, sta, DRIVER_KEY_PAIRWISE, 0, ap_addr, seq0), 0);
	const char *up = "uplink payload", *down = "downlink payload";
	ck_assert_int_eq(driver_tx_data(H->drv, sta, ap_addr, 0x88b5, (const uint8_t *)up,
					strlen(up), 0), 0);
	ck_assert_msg(wait_data(ap, up, true), "AP did not get the encrypted uplink frame");
	ck_assert_int_eq(driver_tx_data(H->drv, ap, sta_addr, 0x88b5, (const uint8_t *)down,
					strlen(down), 5), 0);
	ck_assert_msg(wait_data(sta, down, true), "station did not get the encrypted downlink");
	/* The transmit PN moved on (the sequence counter is a 48-bit LE value). */
	ck_assert_int_eq(driver_key_get_seq(H->drv, sta, DRIVER_KEY_PAIRWISE, 0, ap_addr, seq1), 0);
	ck_assert(memcmp(seq0, seq1, 6) != 0);

	/* Removing the receiver's key: encrypted frames are no longer accepted. */
	ck_assert_int_eq(driver_key_del(H->drv, ap, DRIVER_KEY_PAIRWISE, 0, sta_addr), 0);
	ck_assert_int_eq(driver_tx_data(H->drv, sta, ap_addr, 0x88b5, (const uint8_t *)up,
					strlen(up), 0), 0);
	harness_run_for(200);
	ck_assert_uint_eq(harness_count(DRIVER_EV_RX_DATA, ap), 0);
}
END_TEST

START_TEST(group_key_carries_broadcast)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6];
	harness_iface_addr(ap, ap_addr);
	harness_start_ap(ap, "group", FREQ_CH6);
	harness_connect(sta, ap, "group", FREQ_CH6);
	harness_install_pairwise(sta, ap, 0x11);
	struct driver_key gtk = { .type = DRIVER_KEY_GROUP, .cipher = DRIVER_CIPHER_CCMP_128,
				  .key_idx = 1, .key_len = 16, .set_tx = true };
	memset(gtk.key, 0x77, 16);
	ck_assert_int_eq(driver_key_set(H->drv, ap, &gtk), 0);
	gtk.set_tx = false;
	ck_assert_int_eq(driver_key_set(H->drv, sta, &gtk), 0);
	const char *msg = "to everyone";
	ck_assert_int_eq(driver_tx_data(H->drv, ap, bcast, 0x88b5, (const uint8_t *)msg,
					strlen(msg), 0), 0);
	ck_assert_msg(wait_data(sta, msg, true), "broadcast under the GTK not received");
	uint8_t seq[6];
	ck_assert_int_eq(driver_key_get_seq(H->drv, ap, DRIVER_KEY_GROUP, 1, NULL, seq), 0);
}
END_TEST

START_TEST(unauthorized_port_passes_only_eapol)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6], sta_addr[6];
	uint64_t cookie = 0;
	harness_iface_addr(ap, ap_addr);
	harness_iface_addr(sta, sta_addr);
	harness_start_ap(ap, "port", FREQ_CH6);
	harness_connect(sta, ap, "port", FREQ_CH6);

	const char *data = "not yet";
	ck_assert_int_eq(driver_tx_data(H->drv, sta, ap_addr, 0x0800, (const uint8_t *)data,
					strlen(data), 0), 0);
	harness_run_for(150);
	ck_assert_msg(harness_count(DRIVER_EV_RX_DATA, ap) == 0, "data crossed a closed port");

	static const uint8_t eapol[] = { 0x02, 0x01, 0x00, 0x00 }; /* EAPOL-Start */
	ck_assert_int_eq(driver_tx_eapol(H->drv, sta, ap_addr, eapol, sizeof(eapol), true,
					 &cookie), 0);
	struct recorded_event *ev = harness_wait(DRIVER_EV_RX_EAPOL, ap, 2000);
	ck_assert_msg(ev != NULL, "EAPOL did not pass the closed port");
	ck_assert_mem_eq(ev->src, sta_addr, 6);
	ck_assert_uint_eq(ev->frame_len, sizeof(eapol));
	ck_assert_mem_eq(ev->frame, eapol, sizeof(eapol));
	struct recorded_event *st = harness_wait_cookie(DRIVER_EV_EAPOL_TX_STATUS, sta, cookie, 2000);
	ck_assert_msg(st != NULL && st->acked, "no acked EAPOL TX status");
}
END_TEST

/* ---- queues ---- */

START_TEST(queues_stop_and_wake_per_access_category)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6];
	uint8_t payload[1400];
	harness_iface_addr(ap, ap_addr);
	harness_start_ap(ap, "queues", FREQ_CH6);
	harness_connect(sta, ap, "queues", FREQ_CH6);
	harness_install_pairwise(sta, ap, 0x33);
	memset(payload, 0xab, sizeof(payload));

	struct driver_capa capa = capa_of(1);
	if (!(capa.flags & DRIVER_CAPA_QOS_QUEUES)) {
		struct driver_queue_state q;
		ck_assert_int_eq(driver_get_queue_state(H->drv, sta, &q), -EOPNOTSUPP);
		return;
	}
	/* Fill background (priority 1) until the queue says stop. */
	int r = 0, sent = 0;
	while (sent < 100000 && (r = driver_tx_data(H->drv, sta, ap_addr, 0x0800, payload,
						    sizeof(payload), 1)) == 0)
		sent++;
	ck_assert_int_eq(r, -ENOBUFS);
	struct recorded_event *ev = harness_wait(DRIVER_EV_QUEUE_STOPPED, sta, 100);
	ck_assert_msg(ev != NULL, "no queue-stopped event");
	ck_assert_int_eq(ev->ac, DRIVER_AC_BK);
	struct driver_queue_state q;
	ck_assert_int_eq(driver_get_queue_state(H->drv, sta, &q), 0);
	ck_assert(q.ac[DRIVER_AC_BK].stopped);
	ck_assert(!q.ac[DRIVER_AC_VO].stopped);
	/* Voice still goes out while background is stopped. */
	ck_assert_int_eq(driver_tx_data(H->drv, sta, ap_addr, 0x0800, payload, 64, 6), 0);
	ck_assert_int_eq(driver_get_queue_state(H->drv, sta, &q), 0);
	ck_assert(q.ac[DRIVER_AC_BK].stopped);
	ev = harness_wait(DRIVER_EV_QUEUE_WOKEN, sta, 10000);
	ck_assert_msg(ev != NULL, "background queue never woke");
	ck_assert_int_eq(ev->ac, DRIVER_AC_BK);
	ck_assert_int_eq(driver_get_queue_state(H->drv, sta, &q), 0);
	ck_assert(!q.ac[DRIVER_AC_BK].stopped);
	ck_assert_uint_gt(q.ac[DRIVER_AC_VO].transmitted, 0);
}
END_TEST

/* ---- removal mid-operation ---- */

START_TEST(interface_removed_mid_scan)
{
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_scan_params p = { .passive = true };
	ck_assert_int_eq(driver_scan_trigger(H->drv, sta, &p), 0);
	harness_run_for(30);
	ck_assert_int_eq(driver_iface_del(H->drv, sta), 0);
	ck_assert_ptr_nonnull(harness_wait(DRIVER_EV_IFACE_DEL, sta, 1000));
	harness_run_for(300); /* any stale timer would fire here */
	ck_assert_uint_eq(harness_count(DRIVER_EV_SCAN_DONE, sta), 0);
}
END_TEST

START_TEST(ap_removed_while_station_associated)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	harness_start_ap(ap, "vanish", FREQ_CH6);
	harness_connect(sta, ap, "vanish", FREQ_CH6);
	uint8_t payload[200] = { 0 };
	uint8_t ap_addr[6];
	harness_iface_addr(ap, ap_addr);
	harness_install_pairwise(sta, ap, 0x44);
	for (int i = 0; i < 20; i++)
		driver_tx_data(H->drv, ap, bcast, 0x0800, payload, sizeof(payload), 0);
	ck_assert_int_eq(driver_iface_del(H->drv, ap), 0);
	ck_assert_ptr_nonnull(harness_wait(DRIVER_EV_IFACE_DEL, ap, 1000));
	ck_assert_msg(harness_wait(DRIVER_EV_BEACON_LOSS, sta, 5000) != NULL,
		      "station never noticed its AP was gone");
}
END_TEST

/* ---- channel, regulatory, power ---- */

START_TEST(set_channel_and_regulatory)
{
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_capa capa = capa_of(1);
	ck_assert_int_eq(driver_set_channel(H->drv, sta, FREQ_CH1), 0);
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(H->drv, sta, &info), 0);
	ck_assert_uint_eq(info.freq_mhz, FREQ_CH1);
	ck_assert_int_lt(driver_set_channel(H->drv, sta, 1234), 0);

	struct driver_regulatory reg;
	if (!(capa.flags & DRIVER_CAPA_REGULATORY)) {
		ck_assert_int_eq(driver_get_regulatory(H->drv, H->radios[1].id, &reg), -EOPNOTSUPP);
		return;
	}
	ck_assert_int_eq(driver_get_regulatory(H->drv, H->radios[1].id, &reg), 0);
	ck_assert_uint_eq(strlen(reg.alpha2), 2);
	ck_assert_uint_gt(reg.n_rules, 0);
	ck_assert_int_eq(driver_set_regulatory(H->drv, "US"), 0);
	ck_assert_ptr_nonnull(harness_wait(DRIVER_EV_REG_CHANGE, 0, 1000));
	ck_assert_int_eq(driver_get_regulatory(H->drv, H->radios[1].id, &reg), 0);
	ck_assert_str_eq(reg.alpha2, "US");
	/* Channel 13 (2472 MHz) is not for beaconing in the US. */
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint8_t addr[6], head[128];
	harness_iface_addr(ap, addr);
	struct driver_ap_params p = { .freq_mhz = 2472, .beacon_interval = 100, .dtim_period = 1,
				      .beacon_head = head };
	p.beacon_head_len = frame_beacon_head(head, addr, "us13", 13, 100);
	p.ssid.len = 4;
	memcpy(p.ssid.ssid, "us13", 4);
	ck_assert_int_eq(driver_start_ap(H->drv, ap, &p), -EPERM);
	ck_assert_int_lt(driver_set_regulatory(H->drv, "Q!"), 0);
}
END_TEST

START_TEST(power_save_and_fullmac_follow_capabilities)
{
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_capa capa = capa_of(1);
	int r = driver_set_power_save(H->drv, sta, true);
	if (capa.flags & DRIVER_CAPA_POWER_SAVE)
		ck_assert_int_eq(r, 0);
	else
		ck_assert_int_eq(r, -EOPNOTSUPP);
	/* No SSID: nothing to connect to. A full-MAC backend refuses it as
	 * cfg80211 does (nl80211_connect needs a non-empty NL80211_ATTR_SSID). */
	struct driver_assoc_params ap = { .freq_mhz = FREQ_CH6 };
	r = driver_connect(H->drv, sta, &ap);
	if (capa.flags & DRIVER_CAPA_FULLMAC_CONNECT)
		ck_assert_msg(r == -EINVAL, "full-MAC connect without an SSID: %d, not -EINVAL", r);
	else
		ck_assert_int_eq(r, -EOPNOTSUPP);
}
END_TEST

START_TEST(data_plane_binds_an_os_interface)
{
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_capa capa = capa_of(1);
	char name[IFNAMSIZ];
	snprintf(name, sizeof(name), "wpconf%d", (int)(getpid() % 10000));
	int r = driver_bind_data_plane(H->drv, sta, name);
	if (!(capa.flags & DRIVER_CAPA_DATA_PLANE)) {
		ck_assert_int_lt(r, 0);
		return;
	}
	ck_assert_msg(r == 0, "bind_data_plane(%s): %d", name, r);
	ck_assert_msg(if_nametoindex(name) != 0, "OS interface %s not present", name);
	ck_assert_int_eq(driver_iface_del(H->drv, sta), 0);
	harness_run_for(20);
	ck_assert_msg(if_nametoindex(name) == 0, "OS interface %s left behind", name);
}
END_TEST

static Suite *make_conformance_suite(void)
{
	Suite *s = suite_create("driver-conformance");
	TCase *tc = tcase_create("contract");
	tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, capabilities_are_consistent);
	tcase_add_test(tc, advertised_ciphers_install);
	tcase_add_test(tc, security_capabilities_are_consistent);
	tcase_add_test(tc, interface_lifecycle);
	tcase_add_test(tc, adopting_an_existing_interface);
	tcase_add_test(tc, unknown_interface_is_an_error_not_a_crash);
	tcase_add_test(tc, active_scan_finds_beaconing_bss);
	tcase_add_test(tc, passive_scan_hears_beacons);
	tcase_add_test(tc, scan_of_other_channel_does_not_find_bss);
	tcase_add_test(tc, scan_abort_reports_aborted);
	tcase_add_test(tc, beacon_update_and_stop);
	tcase_add_test(tc, mgmt_tx_status_and_registration);
	tcase_add_test(tc, station_authenticates_and_associates);
	tcase_add_test(tc, probe_client_is_acknowledged);
	tcase_add_test(tc, authentication_times_out_without_ap);
	tcase_add_test(tc, deauthentication_reaches_the_ap);
	tcase_add_test(tc, encrypted_data_flows_both_ways);
	tcase_add_test(tc, group_key_carries_broadcast);
	tcase_add_test(tc, unauthorized_port_passes_only_eapol);
	tcase_add_test(tc, queues_stop_and_wake_per_access_category);
	tcase_add_test(tc, interface_removed_mid_scan);
	tcase_add_test(tc, ap_removed_while_station_associated);
	tcase_add_test(tc, set_channel_and_regulatory);
	tcase_add_test(tc, power_save_and_fullmac_follow_capabilities);
	tcase_add_test(tc, data_plane_binds_an_os_interface);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		conformance_backend = argv[1];
	if (argc > 2)
		conformance_options = argv[2];
	printf("driver conformance: backend %s, options \"%s\"\n", conformance_backend,
	       conformance_options);
	SRunner *sr = srunner_create(make_conformance_suite());
	srunner_run_all(sr, CK_ENV); /* CK_VERBOSITY=verbose lists each case */
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
