/* Conformance harness; see harness.h. */
#include "tests/support/harness.h"
#include "tests/support/frames.h"
#include "daemon/core/loop.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *conformance_backend = "sim";
const char *conformance_options = "radios=3";
struct harness *H;
bool (*harness_event_hook)(const struct driver_event *ev);

/* The APs the harness started, so it can answer probe requests the way an
 * AP role would (a real driver needs that for an active scan to find us). */
#define HARNESS_MAX_APS 8
static struct {
	uint32_t ifindex;
	uint8_t bssid[6];
	char ssid[33];
	uint32_t freq;
} started_aps[HARNESS_MAX_APS];
static size_t n_started_aps;
static size_t probes_answered;

size_t harness_probes_answered(void)
{
	return probes_answered;
}

static uint8_t channel_of(uint32_t freq)
{
	return freq >= 5000 ? (uint8_t)((freq - 5000) / 5) : (uint8_t)((freq - 2407) / 5);
}

static bool answer_probe(struct harness *h, const struct driver_event *ev)
{
	if (ev->type != DRIVER_EV_RX_MGMT || !ev->u.mgmt.frame || ev->u.mgmt.len < 24 ||
	    (frame_fc(ev->u.mgmt.frame) & 0x00fc) != FC_PROBE_REQ)
		return false;
	for (size_t i = 0; i < n_started_aps; i++) {
		if (started_aps[i].ifindex != ev->ifindex)
			continue;
		uint8_t resp[256];
		uint64_t cookie;
		size_t n = frame_beacon_head(resp, started_aps[i].bssid, started_aps[i].ssid,
					     channel_of(started_aps[i].freq), 100);
		resp[0] = (uint8_t)FC_PROBE_RESP;
		memcpy(resp + 4, frame_addr2(ev->u.mgmt.frame), 6);
		driver_tx_mgmt(h->drv, ev->ifindex, 0, resp, n, false, &cookie);
		probes_answered++;
		return true;
	}
	return false;
}

static void record(void *ctx, const struct driver_event *ev)
{
	struct harness *h = ctx;
	if (harness_event_hook && harness_event_hook(ev))
		return;
	if (answer_probe(h, ev))
		return;
	if (h->n_events >= HARNESS_MAX_EVENTS)
		return; /* a flood test may fill it; later waits then time out */
	struct recorded_event *r = &h->events[h->n_events++];
	memset(r, 0, sizeof(*r));
	r->type = ev->type;
	r->radio_id = ev->radio_id;
	r->ifindex = ev->ifindex;
	switch (ev->type) {
	case DRIVER_EV_RX_MGMT:
	case DRIVER_EV_AUTH:
	case DRIVER_EV_ASSOC:
	case DRIVER_EV_DEAUTH:
	case DRIVER_EV_DISASSOC:
		r->timed_out = ev->u.mgmt.timed_out;
		if (ev->u.mgmt.frame && ev->u.mgmt.len <= HARNESS_MAX_FRAME) {
			memcpy(r->frame, ev->u.mgmt.frame, ev->u.mgmt.len);
			r->frame_len = ev->u.mgmt.len;
			r->has_frame = true;
		}
		break;
	case DRIVER_EV_TX_STATUS:
	case DRIVER_EV_EAPOL_TX_STATUS:
	case DRIVER_EV_PROBE_STATUS:
	case DRIVER_EV_AUTH_TX_STATUS:
		r->cookie = ev->u.tx_status.cookie;
		r->acked = ev->u.tx_status.acked;
		break;
	case DRIVER_EV_RX_EAPOL:
	case DRIVER_EV_RX_DATA:
		if (ev->u.data.src)
			memcpy(r->src, ev->u.data.src, 6);
		r->ethertype = ev->u.data.ethertype;
		r->was_encrypted = ev->u.data.was_encrypted;
		r->priority = ev->u.data.priority;
		if (ev->u.data.body && ev->u.data.len <= HARNESS_MAX_FRAME) {
			memcpy(r->frame, ev->u.data.body, ev->u.data.len);
			r->frame_len = ev->u.data.len;
			r->has_frame = true;
		}
		break;
	case DRIVER_EV_QUEUE_STOPPED:
	case DRIVER_EV_QUEUE_WOKEN:
		r->ac = ev->u.queue.ac;
		break;
	case DRIVER_EV_RADIO_ERROR:
		r->radio_error = ev->u.radio_error.kind;
		break;
	default:
		break;
	}
}

void harness_setup(void)
{
	int err = 0;
	H = calloc(1, sizeof(*H));
	ck_assert_ptr_nonnull(H);
	H->events = calloc(HARNESS_MAX_EVENTS, sizeof(*H->events));
	ck_assert_ptr_nonnull(H->events);
	n_started_aps = 0;
	probes_answered = 0;
	H->loop = loop_new();
	ck_assert_ptr_nonnull(H->loop);
	H->drv = driver_open(conformance_backend, H->loop, conformance_options, record, H, &err);
	ck_assert_msg(H->drv != NULL, "driver_open(%s, %s) failed: %d", conformance_backend,
		      conformance_options, err);
	ck_assert_int_eq(driver_list_radios(H->drv, H->radios, 8, &H->n_radios), 0);
	ck_assert_msg(H->n_radios >= 2, "the suite needs at least two radios, got %zu",
		      H->n_radios);
}

void harness_teardown(void)
{
	if (!H)
		return;
	driver_close(H->drv);
	loop_free(H->loop);
	free(H->events);
	free(H);
	H = NULL;
}

static struct recorded_event *find(uint32_t type, uint32_t ifindex, bool by_cookie,
				   uint64_t cookie)
{
	for (size_t i = 0; i < H->n_events; i++) {
		struct recorded_event *r = &H->events[i];
		if (r->consumed || r->type != type)
			continue;
		if (ifindex && r->ifindex != ifindex)
			continue;
		if (by_cookie && r->cookie != cookie)
			continue;
		r->consumed = true;
		return r;
	}
	return NULL;
}

static struct recorded_event *wait_for(uint32_t type, uint32_t ifindex, bool by_cookie,
				       uint64_t cookie, int timeout_ms)
{
	uint64_t deadline = loop_now_us(H->loop) + (uint64_t)timeout_ms * 1000u;
	for (;;) {
		struct recorded_event *r = find(type, ifindex, by_cookie, cookie);
		if (r)
			return r;
		uint64_t now = loop_now_us(H->loop);
		if (now >= deadline)
			return NULL;
		int left_ms = (int)((deadline - now + 999) / 1000);
		loop_iterate(H->loop, left_ms < 20 ? left_ms : 20);
	}
}

struct recorded_event *harness_wait(uint32_t type, uint32_t ifindex, int timeout_ms)
{
	return wait_for(type, ifindex, false, 0, timeout_ms);
}

struct recorded_event *harness_wait_cookie(uint32_t type, uint32_t ifindex, uint64_t cookie,
					   int timeout_ms)
{
	return wait_for(type, ifindex, true, cookie, timeout_ms);
}

void harness_run_for(int ms)
{
	uint64_t deadline = loop_now_us(H->loop) + (uint64_t)ms * 1000u;
	while (loop_now_us(H->loop) < deadline)
		loop_iterate(H->loop, 10);
}

size_t harness_count(uint32_t type, uint32_t ifindex)
{
	size_t n = 0;
	for (size_t i = 0; i < H->n_events; i++)
		if (!H->events[i].consumed && H->events[i].type == type &&
		    (!ifindex || H->events[i].ifindex == ifindex))
			n++;
	return n;
}

uint32_t harness_iface(size_t radio_index, enum driver_iftype type)
{
	uint32_t ifindex = 0;
	ck_assert_uint_lt(radio_index, H->n_radios);
	int r = driver_iface_add(H->drv, H->radios[radio_index].id, NULL, type, NULL, &ifindex);
	ck_assert_msg(r == 0, "iface_add(%s) on radio %zu: %d", driver_iftype_name(type),
		      radio_index, r);
	ck_assert_int_eq(driver_iface_set_up(H->drv, ifindex, true), 0);
	return ifindex;
}

void harness_iface_addr(uint32_t ifindex, uint8_t addr[6])
{
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(H->drv, ifindex, &info), 0);
	memcpy(addr, info.addr, 6);
}

void harness_start_ap(uint32_t ifindex, const char *ssid, uint32_t freq_mhz)
{
	uint8_t addr[6], head[256];
	harness_iface_addr(ifindex, addr);
	struct driver_ap_params p = {
		.freq_mhz = freq_mhz,
		.beacon_interval = 100,
		.dtim_period = 2,
		.beacon_head = head,
		.beacon_head_len = frame_beacon_head(head, addr, ssid, channel_of(freq_mhz), 100),
	};
	p.ssid.len = (uint8_t)strlen(ssid);
	memcpy(p.ssid.ssid, ssid, p.ssid.len);
	int r = driver_start_ap(H->drv, ifindex, &p);
	ck_assert_msg(r == 0, "start_ap: %d", r);
	if (n_started_aps < HARNESS_MAX_APS) {
		started_aps[n_started_aps].ifindex = ifindex;
		memcpy(started_aps[n_started_aps].bssid, addr, 6);
		snprintf(started_aps[n_started_aps].ssid, 33, "%s", ssid);
		started_aps[n_started_aps].freq = freq_mhz;
		n_started_aps++;
	}
	static const uint16_t wanted[] = { FC_AUTH, FC_ASSOC_REQ, FC_ACTION, FC_DEAUTH,
					   FC_DISASSOC, FC_PROBE_REQ };
	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
		ck_assert_int_eq(driver_register_mgmt(H->drv, ifindex, wanted[i], NULL, 0), 0);
}

uint16_t harness_connect(uint32_t sta_if, uint32_t ap_if, const char *ssid, uint32_t freq)
{
	uint8_t sta_addr[6], ap_addr[6], buf[256];
	uint64_t cookie = 0;
	harness_iface_addr(sta_if, sta_addr);
	harness_iface_addr(ap_if, ap_addr);

	struct driver_auth_params auth = { .freq_mhz = freq, .alg = DRIVER_AUTH_OPEN };
	memcpy(auth.bssid, ap_addr, 6);
	auth.ssid.len = (uint8_t)strlen(ssid);
	memcpy(auth.ssid.ssid, ssid, auth.ssid.len);
	ck_assert_int_eq(driver_authenticate(H->drv, sta_if, &auth), 0);

	struct recorded_event *ev = harness_wait(DRIVER_EV_RX_MGMT, ap_if, 2000);
	ck_assert_msg(ev != NULL, "AP never received the authentication frame");
	ck_assert_uint_eq(frame_fc(ev->frame) & 0x00fc, FC_AUTH);
	ck_assert_mem_eq(frame_addr2(ev->frame), sta_addr, 6);
	struct driver_sta_params sp = { .aid = 1, .flags = DRIVER_STA_AUTHENTICATED,
					.listen_interval = 10 };
	memcpy(sp.addr, sta_addr, 6);
	ck_assert_int_eq(driver_sta_add(H->drv, ap_if, &sp), 0);
	size_t n = frame_auth(buf, sta_addr, ap_addr, ap_addr, 0, 2, 0);
	ck_assert_int_eq(driver_tx_mgmt(H->drv, ap_if, 0, buf, n, false, &cookie), 0);

	ev = harness_wait(DRIVER_EV_AUTH, sta_if, 2000);
	ck_assert_msg(ev != NULL, "station got no authentication result");
	ck_assert(!ev->timed_out);
	ck_assert_uint_eq(frame_auth_status(ev->frame, ev->frame_len), 0);

	struct driver_assoc_params assoc = { .freq_mhz = freq };
	memcpy(assoc.bssid, ap_addr, 6);
	assoc.ssid = auth.ssid;
	ck_assert_int_eq(driver_associate(H->drv, sta_if, &assoc), 0);
	ev = harness_wait(DRIVER_EV_RX_MGMT, ap_if, 2000);
	ck_assert_msg(ev != NULL, "AP never received the association request");
	ck_assert_uint_eq(frame_fc(ev->frame) & 0x00fc, FC_ASSOC_REQ);
	ck_assert_int_eq(driver_sta_set_flags(H->drv, ap_if, sta_addr, DRIVER_STA_ASSOCIATED, 0), 0);
	n = frame_assoc_resp(buf, sta_addr, ap_addr, 0, 1);
	ck_assert_int_eq(driver_tx_mgmt(H->drv, ap_if, 0, buf, n, false, &cookie), 0);

	ev = harness_wait(DRIVER_EV_ASSOC, sta_if, 2000);
	ck_assert_msg(ev != NULL, "station got no association result");
	ck_assert(!ev->timed_out);
	ck_assert_uint_eq(frame_assoc_resp_status(ev->frame, ev->frame_len), 0);
	return 1;
}

void harness_install_pairwise(uint32_t sta_if, uint32_t ap_if, uint8_t fill)
{
	uint8_t sta_addr[6], ap_addr[6];
	harness_iface_addr(sta_if, sta_addr);
	harness_iface_addr(ap_if, ap_addr);
	struct driver_key k = { .type = DRIVER_KEY_PAIRWISE, .cipher = DRIVER_CIPHER_CCMP_128,
				.key_idx = 0, .key_len = 16, .set_tx = true };
	memset(k.key, fill, 16);
	memcpy(k.addr, ap_addr, 6);
	ck_assert_int_eq(driver_key_set(H->drv, sta_if, &k), 0);
	memcpy(k.addr, sta_addr, 6);
	ck_assert_int_eq(driver_key_set(H->drv, ap_if, &k), 0);
	ck_assert_int_eq(driver_port_authorize(H->drv, sta_if, ap_addr, true), 0);
	ck_assert_int_eq(driver_port_authorize(H->drv, ap_if, sta_addr, true), 0);
}
