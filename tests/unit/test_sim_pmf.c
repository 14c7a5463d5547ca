/* Management frame protection in the sim backend (IEEE 802.11-2020 12.6.19,
 * 12.5.4): an AP and a station associated with MFP and keyed through the
 * driver ops as the roles would (pairwise key, IGTK on both ends), a
 * monitor on the channel to see what went on the air, and the medium's
 * hostile injection for spoofed frames:
 *   - unicast robust frames (SA Query, deauthentication) go CCMP-protected
 *     and arrive decrypted;
 *   - a spoofed unprotected deauthentication is reported as
 *     DRIVER_EV_UNPROT_DEAUTH and the link keeps carrying data;
 *   - group-addressed robust frames carry an MMIE; a wrong MIC, a replayed
 *     IPN or a missing MMIE is dropped and counted, a valid one is obeyed;
 *   - tshark decodes the MMIE of the capture. */
#include "tests/unit/test_sim_fixture.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/pmf.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/crypto.h"
#include "drivers/sim/medium.h"
#include "drivers/sim/sim.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

#define IGTK_FILL 0x3c
#define IGTK_START_IPN 10

struct mfp {
	uint32_t ap, sta, mon;
	uint8_t ap_addr[6], sta_addr[6];
};

static void install_igtk(uint32_t ifindex, bool tx, uint64_t ipn)
{
	struct driver_key k = { .type = DRIVER_KEY_IGTK, .cipher = DRIVER_CIPHER_BIP_CMAC_128,
				.key_idx = 4, .key_len = 16, .set_tx = tx };
	memset(k.key, IGTK_FILL, 16);
	for (int i = 0; i < 6; i++)
		k.seq[i] = (uint8_t)(ipn >> (8 * i));
	ck_assert_int_eq(driver_key_set(T->drv, ifindex, &k), 0);
}

/* Associated with MFP on both ends, pairwise key and IGTK installed. */
static struct mfp mfp_link(void)
{
	struct mfp b;
	b.ap = simt_iface(0, DRIVER_IFTYPE_AP);
	b.sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	b.mon = simt_iface(2, DRIVER_IFTYPE_MONITOR);
	simt_addr(b.ap, b.ap_addr);
	simt_addr(b.sta, b.sta_addr);
	simt_start_ap(b.ap, "pmf", SIMT_CH6);
	T->connect_mfp = true;
	simt_connect(b.sta, b.ap, "pmf", SIMT_CH6);
	simt_install_ptk(b.sta, b.ap, 0x42);
	ck_assert_int_eq(driver_sta_set_flags(T->drv, b.ap, b.sta_addr, DRIVER_STA_MFP, 0), 0);
	install_igtk(b.ap, true, IGTK_START_IPN);
	install_igtk(b.sta, false, IGTK_START_IPN - 1); /* receive: IPNs above 9 */
	ck_assert_int_eq(driver_set_channel(T->drv, b.mon, SIMT_CH6), 0);
	static const uint8_t saq = WLAN_ACTION_SA_QUERY;
	ck_assert_int_eq(driver_register_mgmt(T->drv, b.sta, 0x00d0, &saq, 1), 0);
	simt_forget();
	return b;
}

static size_t leave_frame(uint8_t *f, uint16_t fc, const uint8_t *da, const uint8_t *sa,
			  uint16_t reason)
{
	size_t n = simt_mgmt(f, fc, da, sa, sa);
	f[n++] = (uint8_t)reason;
	f[n++] = (uint8_t)(reason >> 8);
	return n;
}

/* A group-addressed deauthentication signed with BIP-CMAC-128. */
static size_t bip_deauth(uint8_t *f, const uint8_t *ap, uint64_t ipn, uint8_t key_fill)
{
	uint8_t key[16];
	size_t n = leave_frame(f, 0x00c0, bcast, ap, WLAN_REASON_UNSPECIFIED);
	struct wbuf w = wbuf_init(f + n, 64);
	ck_assert_int_eq(mmie_build(&w, 4, ipn, 8), 0);
	n += w.len;
	memset(key, key_fill, sizeof(key));
	ck_assert_int_eq(bip_sign(BIP_CMAC_128, key, 16, f, n), 0);
	return n;
}

static void inject(const uint8_t *f, size_t len)
{
	ck_assert_int_eq(medium_inject(sim_driver_medium(T->drv), SIMT_CH6, -3000, f, len), 0);
}

static struct sim_rx_counters counters(uint32_t ifindex)
{
	struct sim_rx_counters c;
	ck_assert_int_eq(sim_driver_rx_counters(T->drv, ifindex, &c), 0);
	return c;
}

/* The link still carries data, both ways. */
static void assert_link_up(const struct mfp *b)
{
	ck_assert_int_eq(driver_tx_data(T->drv, b->ap, b->sta_addr, 0x88b5,
					(const uint8_t *)"still", 5, 0), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_RX_DATA, b->sta, 1000);
	ck_assert_msg(ev && ev->len == 5 && memcmp(ev->data, "still", 5) == 0,
		      "no data over the link");
}

/* The first frame the monitor heard of this type from src. */
static struct simt_event *heard(const struct mfp *b, uint16_t fc_type, const uint8_t *src)
{
	for (int i = 0; i < 64; i++) {
		struct simt_event *ev = simt_wait(DRIVER_EV_RX_MGMT, b->mon, 1000);
		if (!ev)
			return NULL;
		if ((simt_fc(ev->data) & 0x00fc) == fc_type && memcmp(ev->data + 10, src, 6) == 0)
			return ev;
	}
	return NULL;
}

START_TEST(unicast_sa_query_goes_encrypted)
{
	struct mfp b = mfp_link();
	uint8_t f[64];
	size_t n = simt_mgmt(f, 0x00d0, b.sta_addr, b.ap_addr, b.ap_addr);
	const uint8_t tid[2] = { 0x12, 0x34 };
	struct wbuf w = wbuf_init(f + n, sizeof(f) - n);
	ck_assert_int_eq(sa_query_build(&w, SA_QUERY_ACTION_REQUEST, tid), 0);
	n += w.len;
	ck_assert_int_eq(driver_tx_mgmt(T->drv, b.ap, SIMT_CH6, f, n, false, NULL), 0);

	struct simt_event *ev = simt_wait(DRIVER_EV_RX_MGMT, b.sta, 1000);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(ev->len, n); /* decrypted: header and plaintext body */
	ck_assert_uint_eq(ev->data[1] & 0x40, 0);
	ck_assert_mem_eq(ev->data + 24, f + 24, n - 24);
	/* On the air: Protected, CCMP header + ciphertext + MIC. */
	ev = heard(&b, 0x00d0, b.ap_addr);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(ev->data[1] & 0x40, 0x40);
	ck_assert_uint_eq(ev->len, n + 16);
	ck_assert_uint_eq(ev->data[27] & 0x20, 0x20); /* Ext IV */
	ck_assert(memcmp(ev->data + 32, f + 24, 4) != 0);

	/* The same request sent unprotected (spoofed) is dropped. */
	simt_forget();
	inject(f, n);
	simt_run(50);
	ck_assert_uint_eq(simt_count(DRIVER_EV_RX_MGMT, b.sta), 0);
	ck_assert_uint_eq(counters(b.sta).unprot_mgmt, 1);
}
END_TEST

START_TEST(spoofed_unprotected_deauth_is_reported_not_obeyed)
{
	struct mfp b = mfp_link();
	uint8_t f[64];
	size_t n = leave_frame(f, 0x00c0, b.sta_addr, b.ap_addr, WLAN_REASON_UNSPECIFIED);
	inject(f, n);
	struct simt_event *ev = simt_wait(DRIVER_EV_UNPROT_DEAUTH, b.sta, 1000);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(ev->len, n);
	ck_assert_mem_eq(ev->data + 10, b.ap_addr, 6);
	ck_assert_uint_eq(simt_count(DRIVER_EV_DEAUTH, b.sta), 0);
	ck_assert_uint_eq(counters(b.sta).unprot_mgmt, 1);
	assert_link_up(&b);

	/* The same for a disassociation, and towards the AP. */
	n = leave_frame(f, 0x00a0, b.sta_addr, b.ap_addr, WLAN_REASON_UNSPECIFIED);
	inject(f, n);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_UNPROT_DISASSOC, b.sta, 1000));
	n = simt_mgmt(f, 0x00c0, b.ap_addr, b.sta_addr, b.ap_addr);
	f[n++] = 3;
	f[n++] = 0;
	inject(f, n);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_UNPROT_DEAUTH, b.ap, 1000));
	ck_assert_uint_eq(simt_count(DRIVER_EV_RX_MGMT, b.ap), 0);
	assert_link_up(&b);
}
END_TEST

START_TEST(protected_deauth_ends_the_link)
{
	struct mfp b = mfp_link();
	uint8_t f[64];
	size_t n = leave_frame(f, 0x00c0, b.sta_addr, b.ap_addr, WLAN_REASON_DEAUTH_LEAVING);
	ck_assert_int_eq(driver_tx_mgmt(T->drv, b.ap, SIMT_CH6, f, n, false, NULL), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_DEAUTH, b.sta, 1000);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(ev->len, n);
	ck_assert_uint_eq(ev->data[24], WLAN_REASON_DEAUTH_LEAVING);
	ck_assert_uint_eq(simt_count(DRIVER_EV_UNPROT_DEAUTH, b.sta), 0);
	ev = heard(&b, 0x00c0, b.ap_addr);
	ck_assert(ev && (ev->data[1] & 0x40));
}
END_TEST

START_TEST(group_deauth_needs_a_valid_bip_mic_and_a_fresh_ipn)
{
	struct mfp b = mfp_link();
	uint8_t f[96];

	/* Wrong key: wrong MIC. */
	inject(f, bip_deauth(f, b.ap_addr, 20, IGTK_FILL ^ 1));
	simt_run(50);
	ck_assert_uint_eq(counters(b.sta).bip_bad_mic, 1);
	/* Right key, but an IPN not above the receive counter (9). */
	inject(f, bip_deauth(f, b.ap_addr, 9, IGTK_FILL));
	simt_run(50);
	ck_assert_uint_eq(counters(b.sta).bip_replay, 1);
	/* No MMIE at all: an unprotected broadcast deauth. */
	size_t n = leave_frame(f, 0x00c0, bcast, b.ap_addr, WLAN_REASON_UNSPECIFIED);
	inject(f, n);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_UNPROT_DEAUTH, b.sta, 1000));
	ck_assert_uint_eq(simt_count(DRIVER_EV_DEAUTH, b.sta), 0);
	assert_link_up(&b);

	/* A valid one is obeyed, the MMIE removed; replaying it is dropped. */
	uint8_t good[96];
	size_t good_len = bip_deauth(good, b.ap_addr, 30, IGTK_FILL);
	inject(good, good_len);
	struct simt_event *ev = simt_wait(DRIVER_EV_DEAUTH, b.sta, 1000);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(ev->len, 26);
	ck_assert_uint_eq(counters(b.sta).bip_replay, 1);
}
END_TEST

START_TEST(ap_signs_group_robust_frames_with_its_igtk)
{
	struct mfp b = mfp_link();
	uint8_t f[64], seq[6];
	size_t n = leave_frame(f, 0x00c0, bcast, b.ap_addr, WLAN_REASON_DEAUTH_LEAVING);
	ck_assert_int_eq(driver_tx_mgmt(T->drv, b.ap, SIMT_CH6, f, n, true, NULL), 0);
	struct simt_event *ev = heard(&b, 0x00c0, b.ap_addr);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(ev->len, n + 18);
	struct mmie mm;
	ck_assert_int_eq(mmie_parse_trailer(ev->data + 24, ev->len - 24, 8, &mm), 0);
	ck_assert_uint_eq(mm.key_id, 4);
	ck_assert_uint_eq(mm.ipn, IGTK_START_IPN);
	uint8_t key[16];
	memset(key, IGTK_FILL, 16);
	ck_assert_int_eq(bip_verify(BIP_CMAC_128, key, 16, ev->data, ev->len), 0);
	ck_assert_int_eq(driver_key_get_seq(T->drv, b.ap, DRIVER_KEY_IGTK, 4, NULL, seq), 0);
	ck_assert_uint_eq(seq[0], IGTK_START_IPN);
	/* The station verified it and obeyed. */
	ev = simt_wait(DRIVER_EV_DEAUTH, b.sta, 1000);
	ck_assert(ev && ev->len == n);
	ck_assert_int_eq(driver_key_get_seq(T->drv, b.sta, DRIVER_KEY_IGTK, 4, NULL, seq), -ENOENT);
}
END_TEST

START_TEST(tshark_decodes_the_mmie)
{
	char path[] = "/tmp/wpad-pmf-XXXXXX.pcap";
	int fd = mkstemps(path, 5);
	ck_assert_int_ge(fd, 0);
	close(fd);
	struct mfp b = mfp_link();
	ck_assert_int_eq(medium_capture_start(sim_driver_medium(T->drv), path), 0);
	uint8_t f[64];
	size_t n = leave_frame(f, 0x00a0, bcast, b.ap_addr, WLAN_REASON_DISASSOC_AP_BUSY);
	ck_assert_int_eq(driver_tx_mgmt(T->drv, b.ap, SIMT_CH6, f, n, true, NULL), 0);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_DISASSOC, b.sta, 1000));
	medium_capture_stop(sim_driver_medium(T->drv));

	ck_assert_msg(system("command -v tshark >/dev/null") == 0, "tshark is not installed");
	char cmd[256], line[256];
	snprintf(cmd, sizeof(cmd),
		 "tshark -r %s -Y wlan.mmie.keyid -T fields -E separator=, -e wlan.fc.subtype "
		 "-e wlan.mmie.keyid -e wlan.mmie.ipn -e wlan.mmie.mic 2>/dev/null",
		 path);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
	/* Disassociation (subtype 10), Key ID 4, IPN 10 (tshark prints the 6
	 * octets as they are on the air), an 8-octet MIC. */
	ck_assert_msg(strncmp(line, "10,4,0a0000000000,", 18) == 0 ||
			      strncmp(line, "0x000a,4,0a0000000000,", 22) == 0 ||
			      strncmp(line, "0x0a,4,0a0000000000,", 20) == 0,
		      "tshark: %s", line);
	ck_assert_uint_eq(strlen(strrchr(line, ',') + 1), 16 + 1);
	ck_assert_ptr_null(fgets(line, sizeof(line), p));
	ck_assert_int_eq(pclose(p), 0);
	unlink(path);
}
END_TEST

Suite *make_sim_pmf_suite(void)
{
	Suite *s = suite_create("sim_pmf");
	TCase *tc = tcase_create("pmf");
	tcase_add_checked_fixture(tc, simt_setup, simt_teardown);
	tcase_set_timeout(tc, 60); /* tshark takes a while to start */
	tcase_add_test(tc, unicast_sa_query_goes_encrypted);
	tcase_add_test(tc, spoofed_unprotected_deauth_is_reported_not_obeyed);
	tcase_add_test(tc, protected_deauth_ends_the_link);
	tcase_add_test(tc, group_deauth_needs_a_valid_bip_mic_and_a_fresh_ipn);
	tcase_add_test(tc, ap_signs_group_robust_frames_with_its_igtk);
	tcase_add_test(tc, tshark_decodes_the_mmie);
	suite_add_tcase(s, tc);
	return s;
}
