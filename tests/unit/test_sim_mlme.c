/* The sim backend's station MLME against a sim AP played by the test's
 * responder: the frames it builds, retries and timeouts, rejections, the
 * BSS leaving us, beacon loss, SAE exchanges, AP station inactivity, and
 * removal of an interface in the middle of an authentication. */
#include "tests/unit/test_sim_fixture.h"
#include "drivers/sim/medium.h"
#include "drivers/sim/sim.h"
#include "daemon/core/loop.h"

#include <check.h>
#include <errno.h>
#include <string.h>

/* The element with this id in a management frame body after skip fixed
 * octets, or NULL; *len gets its length. */
static const uint8_t *element(const struct simt_event *ev, size_t skip, uint8_t id, size_t *len)
{
	size_t pos = 24 + skip;
	while (pos + 2 <= ev->len) {
		uint8_t eid = ev->data[pos], elen = ev->data[pos + 1];
		if (pos + 2 + elen > ev->len)
			return NULL;
		if (eid == id) {
			*len = elen;
			return ev->data + pos + 2;
		}
		pos += 2u + elen;
	}
	return NULL;
}

static size_t element_pos(const struct simt_event *ev, size_t skip, uint8_t id)
{
	size_t len;
	const uint8_t *e = element(ev, skip, id, &len);
	return e ? (size_t)(e - ev->data) : 0;
}

static void auth_params(struct driver_auth_params *a, uint32_t ap, enum driver_auth_alg alg)
{
	memset(a, 0, sizeof(*a));
	simt_addr(ap, a->bssid);
	a->freq_mhz = SIMT_CH6;
	a->alg = alg;
	a->ssid.len = 4;
	memcpy(a->ssid.ssid, "mlme", 4);
}

START_TEST(authentication_and_association_frames)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6], sta_addr[6];
	simt_addr(ap, ap_addr);
	simt_addr(sta, sta_addr);
	simt_start_ap(ap, "mlme", SIMT_CH6);
	simt_responder(ap);

	struct driver_auth_params a;
	auth_params(&a, ap, DRIVER_AUTH_OPEN);
	ck_assert_int_eq(driver_authenticate(T->drv, sta, &a), 0);
	struct simt_event *req = simt_wait(DRIVER_EV_RX_MGMT, ap, 1000);
	ck_assert_ptr_nonnull(req);
	ck_assert_uint_eq(simt_fc(req->data), 0x00b0);
	ck_assert_mem_eq(req->data + 4, ap_addr, 6);
	ck_assert_mem_eq(req->data + 10, sta_addr, 6);
	ck_assert_uint_eq(req->data[24] | req->data[25] << 8, 0); /* open system */
	ck_assert_uint_eq(req->data[26] | req->data[27] << 8, 1); /* transaction 1 */
	struct simt_event *ev = simt_wait(DRIVER_EV_AUTH, sta, 1000);
	ck_assert(ev && !ev->timed_out);
	ck_assert_uint_eq(ev->data[26], 2);

	/* An RSN element from the caller, WMM asked for. */
	static const uint8_t rsn[] = { 48, 20, 1, 0, 0x00, 0x0f, 0xac, 4, 1, 0, 0x00, 0x0f, 0xac,
				       4, 1, 0, 0x00, 0x0f, 0xac, 2, 0, 0 };
	static const uint8_t extcap[] = { 127, 1, 0x04 };
	uint8_t ies[sizeof(rsn) + sizeof(extcap)];
	memcpy(ies, extcap, sizeof(extcap)); /* out of order on purpose */
	memcpy(ies + sizeof(extcap), rsn, sizeof(rsn));
	struct driver_assoc_params p = { .freq_mhz = SIMT_CH6, .ies = ies, .ies_len = sizeof(ies),
					 .wmm = true };
	memcpy(p.bssid, ap_addr, 6);
	p.ssid = a.ssid;
	ck_assert_int_eq(driver_associate(T->drv, sta, &p), 0);
	req = simt_wait(DRIVER_EV_RX_MGMT, ap, 1000);
	ck_assert_ptr_nonnull(req);
	ck_assert_uint_eq(simt_fc(req->data), 0x0000);
	ck_assert_uint_eq(req->data[24] & 0x11, 0x11); /* ESS | Privacy (RSN) */
	size_t len;
	const uint8_t *ssid = element(req, 4, 0, &len);
	ck_assert(ssid && len == 4 && memcmp(ssid, "mlme", 4) == 0);
	ck_assert_ptr_nonnull(element(req, 4, 1, &len)); /* Supported Rates */
	ck_assert_ptr_nonnull(element(req, 4, 50, &len)); /* Extended Supported Rates */
	size_t rsn_at = element_pos(req, 4, 48), ht_at = element_pos(req, 4, 45);
	size_t ext_at = element_pos(req, 4, 127), wmm_at = element_pos(req, 4, 221);
	ck_assert(rsn_at && ht_at && ext_at && wmm_at);
	ck_assert(rsn_at < ht_at && ht_at < ext_at && ext_at < wmm_at);
	ck_assert_uint_eq(req->data[wmm_at + 3], 2); /* WMM information element */

	ev = simt_wait(DRIVER_EV_ASSOC, sta, 1000);
	ck_assert(ev && !ev->timed_out);
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(T->drv, sta, &info), 0);
	ck_assert_uint_eq(info.freq_mhz, SIMT_CH6);
	struct driver_sta_info si;
	ck_assert_int_eq(driver_sta_info(T->drv, sta, ap_addr, &si), 0);
	ck_assert(si.flags & DRIVER_STA_ASSOCIATED);
	ck_assert_int_eq(driver_sta_info(T->drv, ap, sta_addr, &si), 0);
	ck_assert(si.flags & DRIVER_STA_ASSOCIATED);
	ck_assert_int_eq(si.signal_mbm, -4000);
}
END_TEST

START_TEST(authentication_is_retried_then_times_out)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	simt_start_ap(ap, "mlme", SIMT_CH6);
	simt_responder(ap);
	T->responder_silent = true; /* hears, acks, never answers */
	struct driver_auth_params a;
	auth_params(&a, ap, DRIVER_AUTH_OPEN);
	uint64_t start = loop_now_us(T->loop);
	ck_assert_int_eq(driver_authenticate(T->drv, sta, &a), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_AUTH, sta, 3000);
	ck_assert_ptr_nonnull(ev);
	ck_assert(ev->timed_out);
	ck_assert_uint_eq(ev->len, 0);
	ck_assert_uint_ge(loop_now_us(T->loop) - start, 3 * 200 * 1000 - 20000); /* three full waits */
	ck_assert_uint_eq(simt_count(DRIVER_EV_RX_MGMT, ap), 3);
	/* Back to idle: association is refused. */
	struct driver_assoc_params p = { .freq_mhz = SIMT_CH6 };
	memcpy(p.bssid, a.bssid, 6);
	ck_assert_int_eq(driver_associate(T->drv, sta, &p), -ENOLINK);
}
END_TEST

START_TEST(authentication_to_nobody_gives_up_quickly)
{
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_auth_params a = { .freq_mhz = SIMT_CH1, .alg = DRIVER_AUTH_OPEN,
					.bssid = { 0x02, 0xde, 0xad, 0xbe, 0xef, 0x01 } };
	uint64_t start = loop_now_us(T->loop);
	ck_assert_int_eq(driver_authenticate(T->drv, sta, &a), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_AUTH, sta, 3000);
	ck_assert(ev && ev->timed_out);
	/* No ACK: retries come after 20 ms, not after the 200 ms wait. */
	ck_assert_uint_lt(loop_now_us(T->loop) - start, 500 * 1000);
	ck_assert_int_eq(driver_authenticate(T->drv, sta, &(struct driver_auth_params){
							 .freq_mhz = 1234 }), -EINVAL);
	a.alg = DRIVER_AUTH_SHARED_KEY;
	ck_assert_int_eq(driver_authenticate(T->drv, sta, &a), -EOPNOTSUPP);
}
END_TEST

START_TEST(association_rejection_is_reported)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6];
	simt_addr(ap, ap_addr);
	simt_start_ap(ap, "mlme", SIMT_CH6);
	simt_responder(ap);
	struct driver_auth_params a;
	auth_params(&a, ap, DRIVER_AUTH_OPEN);
	ck_assert_int_eq(driver_authenticate(T->drv, sta, &a), 0);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_AUTH, sta, 1000));
	T->responder_status = 17; /* AP unable to handle another station */
	struct driver_assoc_params p = { .freq_mhz = SIMT_CH6 };
	memcpy(p.bssid, ap_addr, 6);
	ck_assert_int_eq(driver_associate(T->drv, sta, &p), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_ASSOC, sta, 1000);
	ck_assert(ev && !ev->timed_out);
	ck_assert_uint_eq(ev->data[26], 17);
	uint8_t x = 0;
	ck_assert_int_eq(driver_tx_data(T->drv, sta, ap_addr, 0x0800, &x, 1, 0), -ENOTCONN);
	/* Still authenticated: a second try may follow. */
	T->responder_status = 0;
	ck_assert_int_eq(driver_associate(T->drv, sta, &p), 0);
	ev = simt_wait(DRIVER_EV_ASSOC, sta, 1000);
	ck_assert(ev && !ev->timed_out && ev->data[26] == 0);
}
END_TEST

static void ap_sends(uint32_t ap, uint16_t fc, const uint8_t *da, uint16_t reason)
{
	uint8_t frame[32], bssid[6];
	uint64_t cookie;
	simt_addr(ap, bssid);
	size_t n = simt_mgmt(frame, fc, da, bssid, bssid);
	frame[n++] = (uint8_t)reason;
	frame[n++] = (uint8_t)(reason >> 8);
	ck_assert_int_eq(driver_tx_mgmt(T->drv, ap, 0, frame, n, false, &cookie), 0);
}

START_TEST(the_bss_can_send_us_away)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t sta_addr[6], ap_addr[6];
	simt_addr(sta, sta_addr);
	simt_addr(ap, ap_addr);
	simt_start_ap(ap, "away", SIMT_CH6);
	simt_connect(sta, ap, "away", SIMT_CH6);
	ap_sends(ap, 0x00a0, sta_addr, 8);
	struct simt_event *ev = simt_wait(DRIVER_EV_DISASSOC, sta, 1000);
	ck_assert(ev && !ev->locally_generated);
	ck_assert_uint_eq(ev->data[24], 8);
	struct driver_sta_info si;
	ck_assert_int_eq(driver_sta_info(T->drv, sta, ap_addr, &si), -ENOENT);

	ck_assert_int_eq(driver_sta_del(T->drv, ap, sta_addr), 0);
	simt_connect(sta, ap, "away", SIMT_CH6);
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	ap_sends(ap, 0x00c0, bcast, 3); /* to everyone */
	ev = simt_wait(DRIVER_EV_DEAUTH, sta, 1000);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(ev->len, 26);
	uint8_t x = 0;
	ck_assert_int_eq(driver_tx_data(T->drv, sta, ap_addr, 0x0800, &x, 1, 0), -ENOTCONN);
}
END_TEST

START_TEST(local_deauthentication)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6];
	simt_addr(ap, ap_addr);
	simt_start_ap(ap, "bye", SIMT_CH6);
	simt_connect(sta, ap, "bye", SIMT_CH6);
	simt_forget();
	ck_assert_int_eq(driver_deauthenticate(T->drv, sta, ap_addr, 3), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_DEAUTH, sta, 1000);
	ck_assert(ev && ev->locally_generated);
	ev = simt_wait(DRIVER_EV_RX_MGMT, ap, 1000);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(simt_fc(ev->data), 0x00c0);
	ck_assert_uint_eq(ev->data[24], 3);
	ck_assert_int_eq(driver_deauthenticate(T->drv, sta, ap_addr, 3), -ENOTCONN);
}
END_TEST

START_TEST(beacon_loss_after_moving_out_of_range)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6], sta_addr[6];
	simt_addr(ap, ap_addr);
	simt_addr(sta, sta_addr);
	simt_start_ap(ap, "far", SIMT_CH6);
	simt_connect(sta, ap, "far", SIMT_CH6);
	simt_run(300);
	ck_assert_uint_eq(simt_count(DRIVER_EV_BEACON_LOSS, sta), 0); /* beacons keep coming */
	struct medium *m = sim_driver_medium(T->drv);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(medium_set_link(m, ap_addr, sta_addr, MEDIUM_NO_SIGNAL_MBM, 0), 0);
	uint64_t gone = loop_now_us(T->loop);
	simt_run(500);
	ck_assert_uint_eq(simt_count(DRIVER_EV_BEACON_LOSS, sta), 0); /* 7 intervals not yet */
	struct simt_event *ev = simt_wait(DRIVER_EV_BEACON_LOSS, sta, 2000);
	ck_assert_ptr_nonnull(ev);
	ck_assert_mem_eq(ev->addr, ap_addr, 6);
	uint64_t after = loop_now_us(T->loop) - gone;
	ck_assert_uint_ge(after, 7 * 102400 - 110000);
	ck_assert_uint_le(after, 12 * 102400); /* slack for a loaded machine */
	simt_run(500);
	ck_assert_uint_eq(simt_count(DRIVER_EV_BEACON_LOSS, sta), 0); /* once */
}
END_TEST

/* SAE frames: auth_data is transaction sequence, status, then the body. */
static void sae_step(uint32_t sta, uint32_t ap, uint16_t seq, const char *body)
{
	struct driver_auth_params a;
	uint8_t data[64] = { (uint8_t)seq, 0, 0, 0 };
	size_t n = strlen(body);
	memcpy(data + 4, body, n);
	auth_params(&a, ap, DRIVER_AUTH_SAE);
	a.auth_data = data;
	a.auth_data_len = 4 + n;
	ck_assert_int_eq(driver_authenticate(T->drv, sta, &a), 0);
	struct simt_event *req = simt_wait(DRIVER_EV_RX_MGMT, ap, 1000);
	ck_assert_ptr_nonnull(req);
	ck_assert_uint_eq(req->data[24], 3);   /* SAE */
	/* The SME hears that the AP has it (it times SAE from this). */
	struct simt_event *st = simt_wait(DRIVER_EV_AUTH_TX_STATUS, sta, 100);
	ck_assert(st && st->acked);
	ck_assert_uint_eq(st->len, req->len);
	ck_assert_mem_eq(st->data + 24, req->data + 24, req->len - 24);
	ck_assert_uint_eq(req->data[26], seq);
	ck_assert_uint_eq(req->len, 30 + n);
	ck_assert_mem_eq(req->data + 30, body, n);
	/* The AP's own frame of the same transaction. */
	uint8_t frame[64], bssid[6];
	uint64_t cookie;
	simt_addr(ap, bssid);
	size_t len = simt_mgmt(frame, 0x00b0, req->data + 10, bssid, bssid);
	uint8_t fixed[6] = { 3, 0, (uint8_t)seq, 0, 0, 0 };
	memcpy(frame + len, fixed, 6);
	memcpy(frame + len + 6, "peer", 4);
	ck_assert_int_eq(driver_tx_mgmt(T->drv, ap, 0, frame, len + 10, false, &cookie), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_AUTH, sta, 1000);
	ck_assert(ev && !ev->timed_out);
	ck_assert_uint_eq(ev->data[26], seq);
}

START_TEST(sae_commit_and_confirm_go_through_the_sme)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6];
	simt_addr(ap, ap_addr);
	simt_start_ap(ap, "mlme", SIMT_CH6);
	sae_step(sta, ap, 1, "commit");
	/* After the peer's commit the MLME waits for the SME: no retries. */
	simt_run(700);
	ck_assert_uint_eq(simt_count(DRIVER_EV_RX_MGMT, ap), 0);
	ck_assert_uint_eq(simt_count(DRIVER_EV_AUTH, sta), 0);
	sae_step(sta, ap, 2, "confirm");
	/* Authenticated: association may follow. */
	struct driver_sta_params sp = { .flags = DRIVER_STA_AUTHENTICATED };
	simt_addr(sta, sp.addr);
	ck_assert_int_eq(driver_sta_add(T->drv, ap, &sp), 0);
	simt_responder(ap);
	struct driver_assoc_params p = { .freq_mhz = SIMT_CH6 };
	memcpy(p.bssid, ap_addr, 6);
	ck_assert_int_eq(driver_associate(T->drv, sta, &p), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_ASSOC, sta, 1000);
	ck_assert(ev && !ev->timed_out);
	struct driver_auth_params bad;
	auth_params(&bad, ap, DRIVER_AUTH_SAE);
	ck_assert_int_eq(driver_authenticate(T->drv, sta, &bad), -EINVAL); /* no auth_data */
	/* A refused request leaves the association alone. */
	simt_run(20);
	ck_assert_uint_eq(simt_count(DRIVER_EV_DEAUTH, sta), 0);
	struct driver_sta_info si;
	ck_assert_int_eq(driver_sta_info(T->drv, sta, ap_addr, &si), 0);
	ck_assert(si.flags & DRIVER_STA_ASSOCIATED);
}
END_TEST

START_TEST(interface_removed_mid_authentication)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	simt_start_ap(ap, "mlme", SIMT_CH6);
	simt_responder(ap);
	T->responder_silent = true;
	struct driver_auth_params a;
	auth_params(&a, ap, DRIVER_AUTH_OPEN);
	ck_assert_int_eq(driver_authenticate(T->drv, sta, &a), 0);
	simt_run(30);
	ck_assert_int_eq(driver_iface_del(T->drv, sta), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_AUTH, sta, 500);
	ck_assert(ev && ev->timed_out && ev->locally_generated);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_IFACE_DEL, sta, 500));
	size_t before = T->n_ev;
	simt_run(800); /* retries and timeouts would fire here */
	for (size_t i = before; i < T->n_ev; i++)
		ck_assert_uint_ne(T->ev[i]->ifindex, sta);
}
END_TEST

START_TEST(interface_down_deauthenticates_locally)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	simt_start_ap(ap, "down", SIMT_CH6);
	simt_connect(sta, ap, "down", SIMT_CH6);
	ck_assert_int_eq(driver_iface_set_up(T->drv, sta, false), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_DEAUTH, sta, 500);
	ck_assert(ev && ev->locally_generated);
}
END_TEST

START_TEST(ap_reports_inactive_stations)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t bssid[6], sta_addr[6], head[128];
	simt_addr(ap, bssid);
	simt_addr(sta, sta_addr);
	struct driver_ap_params p = { .freq_mhz = SIMT_CH6, .beacon_interval = 100,
				      .dtim_period = 1, .beacon_head = head,
				      .inactivity_timeout_s = 1 };
	p.beacon_head_len = simt_beacon_head(head, bssid, "idle", SIMT_CH6, 0x0080);
	ck_assert_int_eq(driver_start_ap(T->drv, ap, &p), 0);
	ck_assert_int_eq(driver_register_mgmt(T->drv, ap, 0x00b0, NULL, 0), 0);
	ck_assert_int_eq(driver_register_mgmt(T->drv, ap, 0x0000, NULL, 0), 0);
	simt_connect(sta, ap, "idle", SIMT_CH6);
	struct simt_event *ev = simt_wait(DRIVER_EV_STA_INACTIVE, ap, 4000);
	ck_assert_ptr_nonnull(ev);
	ck_assert_mem_eq(ev->addr, sta_addr, 6);
	struct driver_sta_info si;
	ck_assert_int_eq(driver_sta_info(T->drv, ap, sta_addr, &si), 0);
	ck_assert_uint_ge(si.inactive_ms, 1000);
	simt_run(1500);
	ck_assert_uint_eq(simt_count(DRIVER_EV_STA_INACTIVE, ap), 0); /* reported once */
}
END_TEST

START_TEST(stop_ap_flushes_the_station_table)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t sta_addr[6];
	simt_addr(sta, sta_addr);
	simt_start_ap(ap, "flush", SIMT_CH6);
	simt_connect(sta, ap, "flush", SIMT_CH6);
	ck_assert_int_eq(driver_stop_ap(T->drv, ap), 0);
	struct driver_sta_info si;
	ck_assert_int_eq(driver_sta_info(T->drv, ap, sta_addr, &si), -ENOENT);
	ck_assert_int_eq(driver_stop_ap(T->drv, ap), -ENOTCONN);
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(T->drv, ap, &info), 0);
	ck_assert_uint_eq(info.freq_mhz, 0);
	/* The station notices the silence. */
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_BEACON_LOSS, sta, 2000));
}
END_TEST

Suite *make_sim_mlme_suite(void)
{
	Suite *s = suite_create("sim_mlme");
	TCase *tc = tcase_create("mlme");
	tcase_add_checked_fixture(tc, simt_setup, simt_teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, authentication_and_association_frames);
	tcase_add_test(tc, authentication_is_retried_then_times_out);
	tcase_add_test(tc, authentication_to_nobody_gives_up_quickly);
	tcase_add_test(tc, association_rejection_is_reported);
	tcase_add_test(tc, the_bss_can_send_us_away);
	tcase_add_test(tc, local_deauthentication);
	tcase_add_test(tc, beacon_loss_after_moving_out_of_range);
	tcase_add_test(tc, sae_commit_and_confirm_go_through_the_sme);
	tcase_add_test(tc, interface_removed_mid_authentication);
	tcase_add_test(tc, interface_down_deauthenticates_locally);
	tcase_add_test(tc, ap_reports_inactive_stations);
	tcase_add_test(tc, stop_ap_flushes_the_station_table);
	suite_add_tcase(s, tc);
	return s;
}
