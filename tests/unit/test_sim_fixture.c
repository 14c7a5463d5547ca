/* Fixture of the sim backend's unit tests; see test_sim_fixture.h. */
#include "tests/unit/test_sim_fixture.h"
#include "daemon/core/loop.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

struct simt *T;

/* Events are allocated one by one so pointers handed to tests stay valid
 * while more events arrive. */
static struct simt_event *new_event(void)
{
	if (T->n_ev == T->cap_ev) {
		size_t cap = T->cap_ev ? T->cap_ev * 2 : 256;
		struct simt_event **e = realloc(T->ev, cap * sizeof(*e));
		if (!e)
			return NULL;
		T->ev = e;
		T->cap_ev = cap;
	}
	struct simt_event *r = calloc(1, sizeof(*r));
	if (r)
		T->ev[T->n_ev++] = r;
	return r;
}

static void copy_data(struct simt_event *r, const uint8_t *p, size_t len)
{
	if (!p)
		return;
	r->len = len < SIMT_FRAME_MAX ? len : SIMT_FRAME_MAX;
	memcpy(r->data, p, r->len);
}

static void respond(const struct driver_event *ev);

static void record(void *ctx, const struct driver_event *ev)
{
	struct simt_event *r = new_event();
	ck_assert_ptr_nonnull(r);
	r->type = ev->type;
	r->radio_id = ev->radio_id;
	r->ifindex = ev->ifindex;
	switch (ev->type) {
	case DRIVER_EV_RX_MGMT:
	case DRIVER_EV_AUTH:
	case DRIVER_EV_ASSOC:
	case DRIVER_EV_DEAUTH:
	case DRIVER_EV_DISASSOC:
	case DRIVER_EV_UNPROT_DEAUTH:
	case DRIVER_EV_UNPROT_DISASSOC:
		r->timed_out = ev->u.mgmt.timed_out;
		r->locally_generated = ev->u.mgmt.locally_generated;
		copy_data(r, ev->u.mgmt.frame, ev->u.mgmt.len);
		break;
	case DRIVER_EV_TX_STATUS:
	case DRIVER_EV_EAPOL_TX_STATUS:
	case DRIVER_EV_AUTH_TX_STATUS:
		r->cookie = ev->u.tx_status.cookie;
		r->acked = ev->u.tx_status.acked;
		copy_data(r, ev->u.tx_status.frame, ev->u.tx_status.len);
		break;
	case DRIVER_EV_RX_EAPOL:
	case DRIVER_EV_RX_DATA:
		memcpy(r->src, ev->u.data.src, 6);
		memcpy(r->dst, ev->u.data.dst, 6);
		r->ethertype = ev->u.data.ethertype;
		r->priority = ev->u.data.priority;
		r->was_encrypted = ev->u.data.was_encrypted;
		copy_data(r, ev->u.data.body, ev->u.data.len);
		break;
	case DRIVER_EV_BEACON_LOSS:
	case DRIVER_EV_STA_INACTIVE:
	case DRIVER_EV_MIC_FAILURE:
		memcpy(r->addr, ev->u.peer.addr, 6);
		break;
	case DRIVER_EV_QUEUE_STOPPED:
	case DRIVER_EV_QUEUE_WOKEN:
		r->ac = ev->u.queue.ac;
		break;
	case DRIVER_EV_RADIO_ERROR:
		r->radio_error = ev->u.radio_error.kind;
		r->err = ev->u.radio_error.err;
		break;
	default:
		break;
	}
	respond(ev);
}

void simt_open(const char *options)
{
	int err = 0;
	T = calloc(1, sizeof(*T));
	ck_assert_ptr_nonnull(T);
	T->next_aid = 1;
	T->loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	ck_assert_ptr_nonnull(T->loop);
	T->drv = driver_open("sim", T->loop, options, record, T, &err);
	ck_assert_msg(T->drv != NULL, "driver_open(sim, %s): %d", options, err);
	ck_assert_int_eq(driver_list_radios(T->drv, T->radios, 16, &T->n_radios), 0);
}

void simt_setup(void)
{
	simt_open("radios=3");
}

void simt_teardown(void)
{
	if (!T)
		return;
	driver_close(T->drv);
	loop_free(T->loop);
	for (size_t i = 0; i < T->n_ev; i++)
		free(T->ev[i]);
	free(T->ev);
	free(T);
	T = NULL;
}

static struct simt_event *find(enum driver_event_type type, uint32_t ifindex)
{
	for (size_t i = 0; i < T->n_ev; i++) {
		struct simt_event *r = T->ev[i];
		if (!r->consumed && r->type == type && (!ifindex || r->ifindex == ifindex)) {
			r->consumed = true;
			return r;
		}
	}
	return NULL;
}

struct simt_event *simt_wait(enum driver_event_type type, uint32_t ifindex, int timeout_ms)
{
	uint64_t deadline = loop_now_us(T->loop) + (uint64_t)timeout_ms * 1000u;
	for (;;) {
		struct simt_event *r = find(type, ifindex);
		if (r)
			return r;
		uint64_t now = loop_now_us(T->loop);
		if (now >= deadline)
			return NULL;
		int left = (int)((deadline - now + 999) / 1000);
		loop_iterate(T->loop, left < 10 ? left : 10);
	}
}

void simt_run(int ms)
{
	uint64_t deadline = loop_now_us(T->loop) + (uint64_t)ms * 1000u;
	while (loop_now_us(T->loop) < deadline)
		loop_iterate(T->loop, 5);
}

size_t simt_count(enum driver_event_type type, uint32_t ifindex)
{
	size_t n = 0;
	for (size_t i = 0; i < T->n_ev; i++)
		if (!T->ev[i]->consumed && T->ev[i]->type == type &&
		    (!ifindex || T->ev[i]->ifindex == ifindex))
			n++;
	return n;
}

void simt_forget(void)
{
	for (size_t i = 0; i < T->n_ev; i++)
		T->ev[i]->consumed = true;
}

uint32_t simt_iface(size_t radio_index, enum driver_iftype type)
{
	uint32_t ifindex = 0;
	ck_assert_uint_lt(radio_index, T->n_radios);
	int err = driver_iface_add(T->drv, T->radios[radio_index].id, NULL, type, NULL, &ifindex);
	ck_assert_msg(err == 0, "iface_add: %d", err);
	ck_assert_int_eq(driver_iface_set_up(T->drv, ifindex, true), 0);
	return ifindex;
}

void simt_addr(uint32_t ifindex, uint8_t addr[6])
{
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(T->drv, ifindex, &info), 0);
	memcpy(addr, info.addr, 6);
}

uint16_t simt_fc(const uint8_t *frame)
{
	return (uint16_t)(frame[0] | frame[1] << 8);
}

size_t simt_mgmt(uint8_t *out, uint16_t fc, const uint8_t *da, const uint8_t *sa,
		 const uint8_t *bssid)
{
	out[0] = (uint8_t)fc;
	out[1] = (uint8_t)(fc >> 8);
	out[2] = out[3] = 0;
	memcpy(out + 4, da, 6);
	memcpy(out + 10, sa, 6);
	memcpy(out + 16, bssid, 6);
	out[22] = out[23] = 0;
	return 24;
}

size_t simt_beacon_head(uint8_t *out, const uint8_t bssid[6], const char *ssid, uint32_t freq,
			uint16_t fc)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };
	size_t n = simt_mgmt(out, fc, bcast, bssid, bssid);
	size_t len = strlen(ssid);
	memset(out + n, 0, 8); /* timestamp */
	n += 8;
	out[n++] = 100; /* beacon interval */
	out[n++] = 0;
	out[n++] = 0x01; /* ESS */
	out[n++] = 0x00;
	out[n++] = 0;
	out[n++] = (uint8_t)len;
	memcpy(out + n, ssid, len);
	n += len;
	out[n++] = 1;
	out[n++] = sizeof(rates);
	memcpy(out + n, rates, sizeof(rates));
	n += sizeof(rates);
	out[n++] = 3;
	out[n++] = 1;
	out[n++] = (uint8_t)(freq >= 5000 ? (freq - 5000) / 5 : (freq - 2407) / 5);
	return n;
}

void simt_start_ap(uint32_t ap, const char *ssid, uint32_t freq)
{
	uint8_t bssid[6], head[256];
	simt_addr(ap, bssid);
	struct driver_ap_params p = { .freq_mhz = freq, .beacon_interval = 100, .dtim_period = 2,
				      .beacon_head = head };
	p.beacon_head_len = simt_beacon_head(head, bssid, ssid, freq, 0x0080);
	p.ssid.len = (uint8_t)strlen(ssid);
	memcpy(p.ssid.ssid, ssid, p.ssid.len);
	int err = driver_start_ap(T->drv, ap, &p);
	ck_assert_msg(err == 0, "start_ap: %d", err);
	static const uint16_t types[] = { 0x00b0, 0x0000, 0x0020, 0x00d0, 0x00c0, 0x00a0, 0x0040 };
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		ck_assert_int_eq(driver_register_mgmt(T->drv, ap, types[i], NULL, 0), 0);
}

void simt_responder(uint32_t ap)
{
	T->responder_if = ap;
}

static void answer(uint32_t ap, const uint8_t *req, uint16_t fc, const uint8_t *body, size_t n)
{
	uint8_t frame[128], bssid[6];
	uint64_t cookie;
	struct driver_iface_info info;
	driver_iface_info(T->drv, ap, &info);
	memcpy(bssid, info.addr, 6);
	size_t len = simt_mgmt(frame, fc, req + 10, bssid, bssid);
	memcpy(frame + len, body, n);
	driver_tx_mgmt(T->drv, ap, 0, frame, len + n, false, &cookie);
}

/* The AP role of the tests: open-system authentication and association. */
static void respond(const struct driver_event *ev)
{
	if (!T || ev->type != DRIVER_EV_RX_MGMT || ev->ifindex != T->responder_if ||
	    T->responder_if == 0 || T->responder_silent || ev->u.mgmt.len < 24)
		return;
	const uint8_t *f = ev->u.mgmt.frame;
	uint16_t fc = simt_fc(f) & 0x00fc;
	uint16_t status = T->responder_status;
	if (fc == 0x00b0 && ev->u.mgmt.len >= 30) {
		struct driver_sta_params sp = { .flags = DRIVER_STA_AUTHENTICATED,
						.listen_interval = 10 };
		memcpy(sp.addr, f + 10, 6);
		driver_sta_add(T->drv, T->responder_if, &sp);
		uint8_t body[6] = { f[24], f[25], 2, 0, (uint8_t)status, (uint8_t)(status >> 8) };
		answer(T->responder_if, f, 0x00b0, body, sizeof(body));
	} else if (fc == 0x0000 || fc == 0x0020) {
		uint16_t aid = T->next_aid++;
		if (status == 0)
			driver_sta_set_flags(T->drv, T->responder_if, f + 10, DRIVER_STA_ASSOCIATED, 0);
		uint8_t body[] = { 0x01, 0x00, (uint8_t)status, (uint8_t)(status >> 8), (uint8_t)aid,
				   (uint8_t)(0xc0 | aid >> 8), 1, 4, 0x82, 0x84, 0x8b, 0x96 };
		answer(T->responder_if, f, fc == 0 ? 0x0010 : 0x0030, body, sizeof(body));
	}
}

void simt_connect(uint32_t sta, uint32_t ap, const char *ssid, uint32_t freq)
{
	uint8_t bssid[6];
	simt_addr(ap, bssid);
	simt_responder(ap);
	struct driver_auth_params auth = { .freq_mhz = freq, .alg = DRIVER_AUTH_OPEN };
	memcpy(auth.bssid, bssid, 6);
	auth.ssid.len = (uint8_t)strlen(ssid);
	memcpy(auth.ssid.ssid, ssid, auth.ssid.len);
	ck_assert_int_eq(driver_authenticate(T->drv, sta, &auth), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_AUTH, sta, 2000);
	ck_assert_msg(ev && !ev->timed_out, "authentication failed");
	struct driver_assoc_params assoc = { .freq_mhz = freq, .wmm = true,
					     .use_mfp = T->connect_mfp };
	memcpy(assoc.bssid, bssid, 6);
	assoc.ssid = auth.ssid;
	ck_assert_int_eq(driver_associate(T->drv, sta, &assoc), 0);
	ev = simt_wait(DRIVER_EV_ASSOC, sta, 2000);
	ck_assert_msg(ev && !ev->timed_out, "association failed");
	ck_assert_uint_ge(ev->len, 30);
	ck_assert_uint_eq(ev->data[26] | ev->data[27] << 8, 0);
}

void simt_install_ptk(uint32_t sta, uint32_t ap, uint8_t fill)
{
	uint8_t sta_addr[6], ap_addr[6];
	simt_addr(sta, sta_addr);
	simt_addr(ap, ap_addr);
	struct driver_key k = { .type = DRIVER_KEY_PAIRWISE, .cipher = DRIVER_CIPHER_CCMP_128,
				.key_len = 16, .set_tx = true };
	memset(k.key, fill, 16);
	memcpy(k.addr, ap_addr, 6);
	ck_assert_int_eq(driver_key_set(T->drv, sta, &k), 0);
	memcpy(k.addr, sta_addr, 6);
	ck_assert_int_eq(driver_key_set(T->drv, ap, &k), 0);
	ck_assert_int_eq(driver_port_authorize(T->drv, sta, ap_addr, true), 0);
	ck_assert_int_eq(driver_port_authorize(T->drv, ap, sta_addr, true), 0);
}
