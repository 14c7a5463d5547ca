/* Acceptance: hostile peers, end to end over the air. wpad's AP role and
 * station role, each on a simulated radio of its own on one in-process
 * medium, connect with WPA2-PSK while the medium corrupts, duplicates and
 * injects EAPOL-Key frames:
 *   - message 3 cut short on the air (its EAPOL length claims more bytes
 *     than the frame holds): dropped, the AP's retransmission completes;
 *   - message 3 with a wrong replay counter on the air: its MIC fails, it is
 *     dropped, the retransmission completes (no wrong-passphrase verdict);
 *   - message 3 duplicated on the air, then replayed later by a hostile
 *     radio (as captured, and cut at many lengths): never a second PTK
 *     install;
 *   - a flood of forged message 1 frames from the AP's address (replays of
 *     the real one and fresh ANonces): rejected or answered harmlessly,
 *     logged, the connection stays up;
 *   - a stale message 2 (the station's, from its previous association)
 *     replayed to the AP while a new handshake waits for message 2: not
 *     taken for a wrong passphrase.
 * After each: both ends still connected, exactly one PTK installed, data
 * flows both ways, and tshark, given only the passphrase, decrypts the
 * capture and finds no packet number used twice by any transmitter (no
 * key or nonce reuse). */
#include "daemon/ap/ap.h"
#include "daemon/config/ap_profile.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "drivers/driver.h"
#include "drivers/sim/medium.h"
#include "drivers/sim/sim.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SSID "hostile-e2e"
#define PASSPHRASE "hostile passphrase 7"
#define FREQ 2437
#define ETHERTYPE_TEST 0x88b5
#define FC_QOS_DATA 0x0088
#define MAX_LINES 20000
/* The supplicant's debug line for an EAPOL-Key frame it refused as a replay. */
#define REPLAY_DROP "dropped EAPOL-Key frame in established: replay counter not acceptable"

/* EAPOL-Key Key Information bits (IEEE 802.11-2020 12.7.2). */
#define KI_PAIRWISE 0x0008
#define KI_INSTALL 0x0040
#define KI_ACK 0x0080
#define KI_MIC 0x0100
/* Offsets in the EAPOL frame (802.1X header, then the key descriptor). */
#define EAPOL_OFF_LEN 2
#define EAPOL_OFF_KEY_INFO 5
#define EAPOL_OFF_REPLAY 9
#define EAPOL_OFF_NONCE 17
/* Our QoS Data frames: 26-byte header, then 8 bytes of LLC/SNAP. */
#define DATA_HDR_LEN 26
#define EAPOL_IN_FRAME (DATA_HDR_LEN + 8)

static const uint8_t ap_addr[6] = { 0x02, 0x0a, 0, 0, 0, 0 };
static const uint8_t sta_addr[6] = { 0x02, 0x5a, 0, 0, 0, 0 };

static struct {
	struct loop *loop;
	struct driver *ap_drv, *sta_drv;
	struct medium *m;
	uint32_t ap_if, sta_if;
	struct ap *ap;
	struct station *st;
	char capture[64];
	/* what happened */
	unsigned connect_done, disconnected, authorized, removed;
	bool connect_ok;
	struct wpad_error err;
	uint8_t msg1[512], msg2[512], msg3[512];
	size_t msg1_len, msg2_len, msg3_len;
	bool inject_msg2_on_msg1;
	unsigned sta_rx_data, ap_rx_data;
	uint8_t sta_last_tag, ap_last_tag;
	/* a fault armed for the moment the AP receives message 2 */
	bool arm_on_msg2;
	struct medium_fault_spec fault;
	uint16_t inject_seq;
	/* log lines */
	char *lines[MAX_LINES];
	size_t n_lines;
} W;

static void sink(enum log_level level, const char *tag, const char *line, void *data)
{
	if (W.n_lines < MAX_LINES) {
		size_t n = strlen(tag) + strlen(line) + 3;
		W.lines[W.n_lines] = malloc(n);
		if (W.lines[W.n_lines])
			snprintf(W.lines[W.n_lines++], n, "%s: %s", tag, line);
	}
	if (level <= WLOG_INFO || getenv("E2E_VERBOSE"))
		printf("    %s: %s\n", tag, line);
}

static unsigned log_count(const char *needle)
{
	unsigned n = 0;
	for (size_t i = 0; i < W.n_lines; i++)
		n += strstr(W.lines[i], needle) != NULL;
	return n;
}

static uint16_t key_info(const uint8_t *eapol, size_t len)
{
	return len > EAPOL_OFF_KEY_INFO + 1
		       ? (uint16_t)(eapol[EAPOL_OFF_KEY_INFO] << 8 | eapol[EAPOL_OFF_KEY_INFO + 1])
		       : 0;
}

/* ---- event routing (the daemon's job, done here to reach the radios) ---- */

static void inject_eapol_to_ap(const uint8_t *eapol, size_t len);

static void on_ap_event(void *ctx, const struct driver_event *ev)
{
	if (ev->type == DRIVER_EV_RX_EAPOL && !W.msg2_len && ev->u.data.len <= sizeof(W.msg2)) {
		memcpy(W.msg2, ev->u.data.body, ev->u.data.len);
		W.msg2_len = ev->u.data.len;
	}
	if (ev->type == DRIVER_EV_RX_EAPOL && W.arm_on_msg2) {
		/* Message 2 is in: the AP's next data frame is message 3. */
		W.arm_on_msg2 = false;
		ck_assert_int_eq(medium_add_fault(W.m, &W.fault), 0);
	}
	if (ev->type == DRIVER_EV_RX_DATA && ev->u.data.ethertype == ETHERTYPE_TEST &&
	    ev->u.data.len > 0) {
		W.ap_rx_data++;
		W.ap_last_tag = ev->u.data.body[0];
	}
	if (W.ap && (ev->ifindex == W.ap_if || ev->ifindex == 0))
		ap_handle_event(W.ap, ev);
}

static void on_sta_event(void *ctx, const struct driver_event *ev)
{
	if (ev->type == DRIVER_EV_RX_EAPOL && ev->u.data.len <= sizeof(W.msg1)) {
		uint16_t ki = key_info(ev->u.data.body, ev->u.data.len);
		bool pairwise_ack = (ki & (KI_PAIRWISE | KI_ACK)) == (KI_PAIRWISE | KI_ACK);
		if (pairwise_ack && !(ki & KI_MIC) && !W.msg1_len) {
			memcpy(W.msg1, ev->u.data.body, ev->u.data.len);
			W.msg1_len = ev->u.data.len;
		}
		if (pairwise_ack && !(ki & KI_MIC) && W.inject_msg2_on_msg1) {
			/* Ahead of the station's own answer. */
			W.inject_msg2_on_msg1 = false;
			inject_eapol_to_ap(W.msg2, W.msg2_len);
		}
		if (pairwise_ack && (ki & KI_MIC) && (ki & KI_INSTALL)) {
			memcpy(W.msg3, ev->u.data.body, ev->u.data.len);
			W.msg3_len = ev->u.data.len;
		}
	}
	if (ev->type == DRIVER_EV_RX_DATA && ev->u.data.ethertype == ETHERTYPE_TEST &&
	    ev->u.data.len > 0) {
		W.sta_rx_data++;
		W.sta_last_tag = ev->u.data.body[0];
	}
	if (W.st && (ev->ifindex == W.sta_if || ev->ifindex == 0))
		station_handle_event(W.st, ev);
}

static void on_connect_done(void *ctx, const struct wpad_error *err)
{
	W.connect_done++;
	W.connect_ok = !err;
	if (err)
		W.err = *err;
}

static void on_disconnected(void *ctx, const struct wpad_error *why)
{
	W.disconnected++;
}

static void on_authorized(void *ctx, const uint8_t addr[6])
{
	W.authorized++;
}

static void on_removed(void *ctx, const uint8_t addr[6], uint16_t reason)
{
	W.removed++;
}

/* ---- running the loop ---- */

static bool run_until(bool (*done)(void), int timeout_ms)
{
	uint64_t deadline = loop_now_us(W.loop) + (uint64_t)timeout_ms * 1000u;
	while (!done()) {
		uint64_t now = loop_now_us(W.loop);
		if (now >= deadline)
			return false;
		int left = (int)((deadline - now + 999) / 1000);
		loop_iterate(W.loop, left < 10 ? left : 10);
	}
	return true;
}

static void run_for(int ms)
{
	uint64_t deadline = loop_now_us(W.loop) + (uint64_t)ms * 1000u;
	while (loop_now_us(W.loop) < deadline)
		loop_iterate(W.loop, 5);
}

static bool connect_finished(void)
{
	return W.connect_done > 0;
}

static bool ap_authorized(void)
{
	return W.authorized > 0;
}

/* ---- set-up ---- */

static uint32_t add_iface(struct driver *drv, enum driver_iftype type)
{
	struct driver_radio_info radio;
	size_t n = 0;
	uint32_t ifindex = 0;
	ck_assert_int_eq(driver_list_radios(drv, &radio, 1, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(driver_iface_add(drv, radio.id, NULL, type, NULL, &ifindex), 0);
	ck_assert_int_eq(driver_iface_set_up(drv, ifindex, true), 0);
	return ifindex;
}

static void setup(void)
{
	static const struct ap_callbacks ap_cb = { .station_authorized = on_authorized,
						   .station_removed = on_removed };
	static const struct station_callbacks sta_cb = { .connect_done = on_connect_done,
							 .disconnected = on_disconnected };
	int err = 0;

	memset(&W, 0, sizeof(W));
	W.inject_seq = 3000;
	log_set_level(WLOG_DEBUG);
	log_set_sink(sink, NULL);
	W.loop = loop_new();
	ck_assert_ptr_nonnull(W.loop);
	W.ap_drv = driver_open("sim", W.loop, "medium=shared,addr=02:0a:00:00:00:00", on_ap_event,
			       NULL, &err);
	ck_assert_msg(W.ap_drv, "sim: %d", err);
	W.sta_drv = driver_open("sim", W.loop, "medium=shared,addr=02:5a:00:00:00:00",
				on_sta_event, NULL, &err);
	ck_assert_msg(W.sta_drv, "sim: %d", err);
	W.m = sim_driver_medium(W.ap_drv);
	ck_assert_ptr_nonnull(W.m);
	ck_assert_ptr_eq(sim_driver_medium(W.sta_drv), W.m);
	strcpy(W.capture, "/tmp/wpad-hostile-XXXXXX");
	int fd = mkstemp(W.capture);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(medium_capture_start(W.m, W.capture), 0);

	W.ap_if = add_iface(W.ap_drv, DRIVER_IFTYPE_AP);
	W.sta_if = add_iface(W.sta_drv, DRIVER_IFTYPE_STATION);
	W.ap = ap_new(W.loop, W.ap_drv, W.ap_if, &ap_cb);
	ck_assert_ptr_nonnull(W.ap);
	W.st = station_new(W.loop, W.sta_drv, W.sta_if, NULL, &sta_cb);
	ck_assert_ptr_nonnull(W.st);

	struct ap_profile p;
	struct wpad_error e;
	ap_profile_init(&p);
	memcpy(p.ssid, SSID, strlen(SSID));
	p.ssid_len = strlen(SSID);
	p.channel = 6;
	p.group_rekey_s = 0;
	p.inactivity_s = 0;
	p.security = AP_SECURITY_WPA2_PSK;
	p.has_passphrase = true;
	strcpy(p.passphrase, PASSPHRASE);
	ck_assert_msg(ap_start(W.ap, &p, &e) == 0, "ap_start: %s", e.text);
	ap_profile_clear(&p);
}

static void teardown(void)
{
	station_free(W.st);
	if (W.ap) {
		ap_stop(W.ap);
		ap_free(W.ap);
	}
	medium_capture_stop(W.m);
	driver_close(W.sta_drv);
	driver_close(W.ap_drv);
	loop_free(W.loop);
	log_set_sink(NULL, NULL);
	for (size_t i = 0; i < W.n_lines; i++)
		free(W.lines[i]);
	unlink(W.capture);
	memset(&W, 0, sizeof(W));
}

/* ---- steps ---- */

static void connect(void)
{
	ck_assert_int_eq(station_connect(W.st, (const uint8_t *)SSID, strlen(SSID), PASSPHRASE,
					 false),
			 0);
	ck_assert_msg(run_until(connect_finished, 20000), "connect never finished");
	ck_assert_msg(W.connect_ok, "connect failed: %s: %s", wpad_error_name(W.err.code),
		      W.err.text);
	ck_assert_msg(run_until(ap_authorized, 5000), "the AP never authorized the station");
	ck_assert_uint_eq(W.msg1_len > 0, 1);
	ck_assert_uint_eq(W.msg3_len > 0, 1);
}

/* Puts an unprotected EAPOL frame (QoS Data, TID 7) on the air from a
 * hostile radio, the medium's injection: from the AP to the station (From
 * DS) or from the station to the AP (To DS). */
static void inject_eapol_dir(const uint8_t *eapol, size_t len, bool to_ap)
{
	uint8_t f[DATA_HDR_LEN + 8 + 512];
	static const uint8_t llc[8] = { 0xaa, 0xaa, 0x03, 0, 0, 0, 0x88, 0x8e };
	ck_assert_uint_le(len, 512);
	memset(f, 0, DATA_HDR_LEN);
	f[0] = 0x88; /* QoS Data */
	f[1] = to_ap ? 0x01 : 0x02;
	memcpy(f + 4, to_ap ? ap_addr : sta_addr, 6);
	memcpy(f + 10, to_ap ? sta_addr : ap_addr, 6);
	memcpy(f + 16, ap_addr, 6);
	uint16_t sc = (uint16_t)(W.inject_seq++ << 4);
	f[22] = (uint8_t)sc;
	f[23] = (uint8_t)(sc >> 8);
	f[24] = 7; /* TID */
	memcpy(f + DATA_HDR_LEN, llc, sizeof(llc));
	memcpy(f + EAPOL_IN_FRAME, eapol, len);
	ck_assert_int_eq(medium_inject(W.m, FREQ, -3000, f, EAPOL_IN_FRAME + len), 0);
}

static void inject_eapol(const uint8_t *eapol, size_t len)
{
	inject_eapol_dir(eapol, len, false);
}

static void inject_eapol_to_ap(const uint8_t *eapol, size_t len)
{
	inject_eapol_dir(eapol, len, true);
}

static unsigned want_tag_count;
static bool sta_got_tag(void)
{
	return W.sta_rx_data >= want_tag_count;
}
static bool ap_got_tag(void)
{
	return W.ap_rx_data >= want_tag_count;
}

/* Data both ways, protected with the PTK the handshake installed. */
static void check_data(uint8_t tag)
{
	uint8_t payload[64];
	memset(payload, tag, sizeof(payload));
	want_tag_count = W.sta_rx_data + 1;
	ck_assert_int_eq(driver_tx_data(W.ap_drv, W.ap_if, sta_addr, ETHERTYPE_TEST, payload,
					sizeof(payload), 0),
			 0);
	ck_assert_msg(run_until(sta_got_tag, 3000), "AP to station data lost");
	ck_assert_uint_eq(W.sta_last_tag, tag);
	want_tag_count = W.ap_rx_data + 1;
	payload[0] = (uint8_t)(tag + 1);
	ck_assert_int_eq(driver_tx_data(W.sta_drv, W.sta_if, ap_addr, ETHERTYPE_TEST, payload,
					sizeof(payload), 0),
			 0);
	ck_assert_msg(run_until(ap_got_tag, 3000), "station to AP data lost");
	ck_assert_uint_eq(W.ap_last_tag, (uint8_t)(tag + 1));
}

/* Still connected at both ends, one PTK ever installed, data flows. */
static void check_link(uint8_t tag)
{
	struct ap_station_info info;
	ck_assert_int_eq(station_state(W.st), STATION_CONNECTED);
	ck_assert_uint_eq(W.disconnected, 0);
	ck_assert_uint_eq(W.removed, 0);
	ck_assert_int_eq(ap_get_station(W.ap, sta_addr, &info), 0);
	ck_assert_int_eq(info.state, AP_STA_AUTHORIZED);
	ck_assert_uint_eq(info.mic_failures, 0);
	ck_assert_uint_eq(log_count("station: pairwise key installed"), 1);
	ck_assert_uint_eq(log_count("handshake failed"), 0);
	check_data(tag);
}

/* tshark decrypts the capture with the passphrase: the test frames are
 * readable, and no transmitter used a CCMP packet number twice (first
 * transmissions only: a retry repeats its frame's PN by design). */
static void check_capture(unsigned min_test_frames)
{
	char cmd[512];
	medium_capture_stop(W.m);
	snprintf(cmd, sizeof(cmd),
		 "tshark -r %s -o wlan.enable_decryption:TRUE "
		 "-o 'uat:80211_keys:\"wpa-pwd\",\"" PASSPHRASE ":" SSID "\"' "
		 "-Y 'wlan.fc.protected == 1 && wlan.fc.retry == 0' "
		 "-T fields -e wlan.ta -e wlan.ccmp.extiv -e llc.type 2>/dev/null",
		 W.capture);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	static char seen[4096][64];
	size_t n_seen = 0;
	unsigned test_frames = 0, protected_frames = 0;
	char line[256];
	while (fgets(line, sizeof(line), p)) {
		char ta[32] = "", pn[32] = "", type[32] = "";
		if (sscanf(line, "%31s %31s %31s", ta, pn, type) < 2)
			continue;
		protected_frames++;
		if (strcmp(type, "0x88b5") == 0)
			test_frames++;
		char key[64];
		snprintf(key, sizeof(key), "%s/%s", ta, pn);
		for (size_t i = 0; i < n_seen; i++)
			ck_assert_msg(strcmp(seen[i], key) != 0, "packet number reused: %s", key);
		if (n_seen < 4096)
			strcpy(seen[n_seen++], key);
	}
	int rc = pclose(p);
	ck_assert_msg(rc == 0, "tshark failed (%d): is it installed?", rc);
	printf("capture: %u protected frames, %u decrypted test frames, no PN reused\n",
	       protected_frames, test_frames);
	ck_assert_uint_ge(test_frames, min_test_frames);
}

/* ---- the tests ---- */

/* The EAPOL length of message 3 says 0xffxx: far more than the frame. */
START_TEST(msg3_cut_short_on_the_air)
{
	W.fault = (struct medium_fault_spec){ .frame_type = FC_QOS_DATA,
					      .nth = 1,
					      .action = MEDIUM_FAULT_CORRUPT,
					      .param = EAPOL_IN_FRAME + EAPOL_OFF_LEN };
	memcpy(W.fault.source, ap_addr, 6);
	W.arm_on_msg2 = true;
	connect();
	struct medium_stats st;
	medium_get_stats(W.m, &st);
	ck_assert_uint_ge(st.frames_faulted, 1);
	/* The station's EAPOL port drops it before the handshake sees it. */
	ck_assert_uint_ge(log_count("malformed EAPOL frame dropped: length runs past end"), 1);
	check_link(0x10);
	check_capture(2);
}
END_TEST

/* The last octet of message 3's replay counter flipped: the MIC covers
 * it, so the frame fails its MIC and is dropped; the AP's retransmission
 * is good, and the connect succeeds (a forged frame is no verdict on the
 * passphrase). */
START_TEST(msg3_wrong_replay_counter_on_the_air)
{
	W.fault = (struct medium_fault_spec){ .frame_type = FC_QOS_DATA,
					      .nth = 1,
					      .action = MEDIUM_FAULT_CORRUPT,
					      .param = EAPOL_IN_FRAME + EAPOL_OFF_REPLAY + 7 };
	memcpy(W.fault.source, ap_addr, 6);
	W.arm_on_msg2 = true;
	connect();
	ck_assert_uint_ge(log_count("message 3 MIC does not verify"), 1);
	check_link(0x20);
	check_capture(2);
}
END_TEST

/* Message 3 twice on the air (the medium's duplicate: a byte-identical
 * copy); later the hostile radio replays it as captured, with a fresh
 * sequence number, and cut at many lengths. One PTK install, ever. */
START_TEST(msg3_duplicated_and_replayed)
{
	W.fault = (struct medium_fault_spec){ .frame_type = FC_QOS_DATA,
					      .nth = 1,
					      .action = MEDIUM_FAULT_DUPLICATE };
	memcpy(W.fault.source, ap_addr, 6);
	W.arm_on_msg2 = true;
	connect();
	struct medium_stats st;
	medium_get_stats(W.m, &st);
	ck_assert_uint_ge(st.frames_faulted, 1);
	/* The copy is no retransmission (no Retry bit), so the MAC passes it
	 * up; the supplicant has used its replay counter. */
	ck_assert_uint_ge(log_count(REPLAY_DROP), 1);
	check_link(0x30);

	/* The replay, whole. */
	unsigned replays = log_count(REPLAY_DROP);
	inject_eapol(W.msg3, W.msg3_len);
	run_for(200);
	ck_assert_uint_eq(log_count(REPLAY_DROP), replays + 1);
	/* Cut copies: never a crash, never accepted. */
	for (size_t len = 1; len < W.msg3_len; len += len < 100 ? 7 : 1)
		inject_eapol(W.msg3, len);
	/* The replay with a higher replay counter: the MIC no longer fits. */
	uint8_t bumped[512];
	memcpy(bumped, W.msg3, W.msg3_len);
	bumped[EAPOL_OFF_REPLAY + 7] ^= 0x80;
	bumped[EAPOL_OFF_REPLAY] = 0x7f;
	unsigned mic = log_count("message 3 MIC does not verify");
	inject_eapol(bumped, W.msg3_len);
	run_for(500);
	ck_assert_uint_eq(log_count("message 3 MIC does not verify"), mic + 1);
	check_link(0x40);
	check_capture(4);
}
END_TEST

/* 100 replays of the real message 1 and 100 forged ones with fresh
 * ANonces and ever higher replay counters. */
START_TEST(msg1_flood)
{
	connect();
	check_link(0x50);
	unsigned replays = log_count(REPLAY_DROP);
	for (int i = 0; i < 100; i++) {
		inject_eapol(W.msg1, W.msg1_len);
		if (i % 10 == 9)
			run_for(20);
	}
	uint8_t forged[512];
	memcpy(forged, W.msg1, W.msg1_len);
	for (int i = 0; i < 100; i++) {
		uint64_t rc = 1000 + (uint64_t)i;
		for (int b = 0; b < 8; b++)
			forged[EAPOL_OFF_REPLAY + b] = (uint8_t)(rc >> (56 - 8 * b));
		for (int b = 0; b < 32; b++)
			forged[EAPOL_OFF_NONCE + b] = (uint8_t)(i * 7 + b);
		inject_eapol(forged, W.msg1_len);
		if (i % 10 == 9)
			run_for(20);
	}
	run_for(300);
	/* The replays were rejected and logged... */
	ck_assert_uint_ge(log_count(REPLAY_DROP), replays + 100);
	/* ...the forged ones started a PTK rekey that no message 3 completes:
	 * the station keeps its PTK once the rekey times out. */
	unsigned kept = log_count("PTK rekey did not complete; keeping the current PTK");
	run_for(3000);
	ck_assert_uint_gt(log_count("PTK rekey did not complete; keeping the current PTK"), kept);
	ck_assert_uint_eq(log_count("PTK rekeyed"), 0);
	/* The AP dropped the 100 unasked-for message 2s our station sent. */
	ck_assert_uint_ge(log_count("dropped pairwise EAPOL-Key frame in ptkinitdone"), 100);
	check_link(0x60);
	check_capture(4);
}
END_TEST

static bool ap_removed(void)
{
	return W.removed > 0;
}

static bool ap_authorized_twice(void)
{
	return W.authorized > 1;
}

/* The station leaves and comes back; while the AP's new handshake waits
 * for message 2, the station's message 2 of the first association arrives
 * (replayed, or merely late). Its replay counter belongs to the old
 * handshake: it is dropped as such, not counted as a MIC failure (a
 * wrong-passphrase hint to the AP's owner). */
START_TEST(stale_msg2_after_reassociation)
{
	connect();
	ck_assert_uint_gt(W.msg2_len, 0);
	ck_assert_int_eq(station_disconnect(W.st), 0);
	ck_assert(run_until(ap_removed, 3000));
	W.connect_done = 0;
	W.inject_msg2_on_msg1 = true;
	ck_assert_int_eq(station_connect(W.st, (const uint8_t *)SSID, strlen(SSID), PASSPHRASE,
					 false),
			 0);
	ck_assert(run_until(connect_finished, 20000));
	ck_assert_msg(W.connect_ok, "reconnect failed: %s", W.err.text);
	ck_assert(run_until(ap_authorized_twice, 5000));
	ck_assert(!W.inject_msg2_on_msg1);
	run_for(200);
	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(W.ap, sta_addr, &info), 0);
	ck_assert_msg(info.mic_failures == 0 && log_count("MIC failure") == 0,
		      "a stale message 2 was counted as a MIC failure (%u)", info.mic_failures);
	ck_assert_uint_ge(log_count("dropped message 2 in ptkstart: replay counter"), 1);
	check_data(0x70);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("e2e-hostile");
	TCase *tc = tcase_create("eapol");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, msg3_cut_short_on_the_air);
	tcase_add_test(tc, msg3_wrong_replay_counter_on_the_air);
	tcase_add_test(tc, msg3_duplicated_and_replayed);
	tcase_add_test(tc, msg1_flood);
	tcase_add_test(tc, stale_msg2_after_reassociation);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
