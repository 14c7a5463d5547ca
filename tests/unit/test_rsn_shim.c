/* In-memory supplicant <-> authenticator link for the RSN unit tests. */
#include "tests/unit/test_rsn_shim.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/bytes.h"
#include "daemon/crypto/secure.h"

const uint8_t shim_ap_addr[6] = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x00 };
const uint8_t shim_sta_addr[6] = { 0x02, 0x00, 0x00, 0x00, 0x02, 0x00 };

uint16_t kf_key_info(const uint8_t *f)
{
	return get_be16(f + KF_KEY_INFO);
}

uint64_t kf_replay(const uint8_t *f)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | f[KF_REPLAY + i];
	return v;
}

void kf_set_replay(uint8_t *f, uint64_t v)
{
	for (int i = 7; i >= 0; i--) {
		f[KF_REPLAY + i] = (uint8_t)v;
		v >>= 8;
	}
}

/* ---- ops -------------------------------------------------------------- */

static int op_send(void *ctx, const uint8_t *body, size_t len)
{
	struct shim_side *side = ctx;
	struct shim *s = side->shim;

	ck_assert_uint_le(len, SHIM_FRAME_MAX);
	if (side->sent < SHIM_SENDS)
		side->send_us[side->sent] = loop_now_us(s->loop);
	memmove(side->frames[1], side->frames[0], (SHIM_LOG - 1) * SHIM_FRAME_MAX);
	memmove(&side->frame_len[1], &side->frame_len[0], (SHIM_LOG - 1) * sizeof(size_t));
	memcpy(side->frames[0], body, len);
	side->frame_len[0] = len;
	side->sent++;
	if (s->q_count == SHIM_QUEUE) {
		s->overflow++;
		return 0;
	}
	unsigned int slot = (s->q_head + s->q_count++) % SHIM_QUEUE;
	s->q[slot].to_ap = !side->is_ap;
	s->q[slot].len = len;
	memcpy(s->q[slot].buf, body, len);
	return 0;
}

static int op_install_ptk(void *ctx, uint32_t cipher, const uint8_t *tk, size_t tk_len)
{
	struct shim_side *side = ctx;

	if (side->install_result)
		return side->install_result;
	ck_assert_uint_le(tk_len, sizeof(side->tk));
	side->ptk_installs++;
	side->tk_cipher = cipher;
	memcpy(side->tk, tk, tk_len);
	side->tk_len = tk_len;
	return 0;
}

static int op_install_gtk(void *ctx, uint8_t key_idx, uint32_t cipher, const uint8_t *gtk,
			  size_t len, const uint8_t rsc[6])
{
	struct shim_side *side = ctx;

	if (side->install_result)
		return side->install_result;
	ck_assert_uint_le(len, sizeof(side->gtk));
	side->gtk_installs++;
	side->gtk_idx = key_idx;
	memcpy(side->gtk, gtk, len);
	side->gtk_len = len;
	memcpy(side->gtk_rsc, rsc, 6);
	return 0;
}

static int op_install_igtk(void *ctx, uint16_t key_idx, uint32_t cipher, const uint8_t *igtk,
			   size_t len, const uint8_t ipn[6])
{
	struct shim_side *side = ctx;

	ck_assert_uint_le(len, sizeof(side->igtk));
	side->igtk_installs++;
	side->igtk_idx = key_idx;
	memcpy(side->igtk, igtk, len);
	side->igtk_len = len;
	return 0;
}

static void op_authorize(void *ctx, bool authorized)
{
	struct shim_side *side = ctx;

	side->authorized = authorized;
	side->authorize_calls++;
}

static int op_gtk_seq(void *ctx, uint8_t idx, uint8_t seq[6])
{
	/* a PN the station must see as the GTK's receive sequence counter */
	static const uint8_t pn[6] = { 0x34, 0x12, 0, 0, 0, 0 };

	memcpy(seq, pn, 6);
	return 0;
}

static void op_complete(void *ctx)
{
	struct shim_side *side = ctx;

	side->completes++;
	if (!side->free_on_complete)
		return;
	if (side->is_ap) {
		rsn_auth_free(side->shim->ap);
		side->shim->ap = NULL;
	} else {
		rsn_supp_free(side->shim->sta);
		side->shim->sta = NULL;
	}
}

static void op_group_complete(void *ctx)
{
	struct shim_side *side = ctx;

	side->group_completes++;
}

static void op_failure(void *ctx, const struct rsn_failure *f)
{
	struct shim_side *side = ctx;

	side->failures++;
	side->failure = *f;
	side->failure_us = loop_now_us(side->shim->loop);
	if (!side->free_on_failure)
		return;
	if (side->is_ap) {
		rsn_auth_free(side->shim->ap);
		side->shim->ap = NULL;
	} else {
		rsn_supp_free(side->shim->sta);
		side->shim->sta = NULL;
	}
}

static int op_random(void *ctx, uint8_t *buf, size_t len)
{
	struct shim_side *side = ctx;

	if (!side->nonces || len != 32)
		return crypto_random(buf, len);
	ck_assert_uint_lt(side->nonce_next, side->n_nonces);
	memcpy(buf, side->nonces + 32 * side->nonce_next++, 32);
	return 0;
}

static void op_transition_disable(void *ctx, uint8_t bitmap)
{
	struct shim_side *side = ctx;
	side->transition_disable_calls++;
	side->transition_disable = bitmap;
}

const struct rsn_ops shim_ops = {
	.send_eapol = op_send,
	.install_ptk = op_install_ptk,
	.install_gtk = op_install_gtk,
	.install_igtk = op_install_igtk,
	.set_port_authorized = op_authorize,
	.get_gtk_seq = op_gtk_seq,
	.on_complete = op_complete,
	.on_group_complete = op_group_complete,
	.on_failure = op_failure,
	.get_random = op_random,
	.on_transition_disable = op_transition_disable,
};

/* ---- setup ------------------------------------------------------------ */

size_t shim_rsne(uint8_t *out, uint32_t akm, uint32_t pairwise, uint16_t capab,
		 uint32_t group_mgmt)
{
	struct ie_rsn rsn;
	struct wbuf w = wbuf_init(out, 64);

	ie_rsn_init(&rsn, akm);
	rsn.pairwise[0] = pairwise;
	rsn.capab = capab;
	rsn.present = IE_RSN_UPTO_CAPAB;
	if (group_mgmt) {
		rsn.group_mgmt_cipher = group_mgmt;
		rsn.n_pmkid = 0;
		rsn.present = IE_RSN_UPTO_GROUP_MGMT;
	}
	ck_assert_int_eq(ie_build_rsn(&w, &rsn), 0);
	return w.len;
}

/* An RSNXE with capab, or nothing for 0. out holds 8. */
static size_t shim_rsnxe(uint8_t *out, uint32_t capab)
{
	struct wbuf w = wbuf_init(out, 8);

	if (!capab)
		return 0;
	ck_assert_int_eq(ie_build_rsnxe(&w, capab), 0);
	return w.len;
}

void shim_cfg_default(struct shim_cfg *c, uint32_t akm)
{
	*c = (struct shim_cfg){
		.akm = akm,
		.pairwise = RSN_CIPHER_CCMP_128,
		.sta_pmk_byte = 0x5a,
		.ap_pmk_byte = 0x5a,
		.timing = {
			.handshake_timeout_ms = 400,
			.retry_first_ms = 10,
			.retry_ms = 30,
			.group_retry_first_ms = 15,
			.max_attempts = 4,
		},
	};
}

void shim_init(struct shim *s, const struct shim_cfg *c)
{
	uint8_t sta_pmk[32], ap_pmk[32];
	uint8_t sta_sent[64], sta_seen[64], ap_sent[64], ap_seen[64];
	uint8_t x_sta_sent[8], x_sta_seen[8], x_ap_sent[8], x_ap_seen[8];
	struct rsn_config sc = {
		.akm = c->akm,
		.pairwise_cipher = c->pairwise,
		.group_cipher = RSN_CIPHER_CCMP_128,
		.group_mgmt_cipher = c->group_mgmt,
		.pmk_len = 32,
		.timing = c->timing,
	};
	struct rsn_config ac = sc;

	memset(s, 0, sizeof(*s));
	s->loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	ck_assert_ptr_nonnull(s->loop);
	s->sta_side = (struct shim_side){ .shim = s, .is_ap = false };
	s->ap_side = (struct shim_side){ .shim = s, .is_ap = true };
	memset(sta_pmk, c->sta_pmk_byte, sizeof(sta_pmk));
	memset(ap_pmk, c->ap_pmk_byte, sizeof(ap_pmk));

	sc.pmk = sta_pmk;
	memcpy(sc.own_addr, shim_sta_addr, 6);
	memcpy(sc.peer_addr, shim_ap_addr, 6);
	sc.sta_rsne = sta_sent;
	sc.sta_rsne_len = shim_rsne(sta_sent, c->akm, c->pairwise, c->sta_capab_sent, c->group_mgmt);
	sc.ap_rsne = ap_seen;
	sc.ap_rsne_len = shim_rsne(ap_seen, c->akm, c->pairwise, c->ap_capab_seen_by_sta,
				   c->group_mgmt);

	sc.sta_rsnxe = x_sta_sent;
	sc.sta_rsnxe_len = shim_rsnxe(x_sta_sent, c->sta_rsnxe_sent);
	sc.ap_rsnxe = x_ap_seen;
	sc.ap_rsnxe_len = shim_rsnxe(x_ap_seen, c->ap_rsnxe_seen_by_sta);

	ac.pmk = ap_pmk;
	ac.sta_rsnxe = x_sta_seen;
	ac.sta_rsnxe_len = shim_rsnxe(x_sta_seen, c->sta_rsnxe_seen_by_ap);
	ac.ap_rsnxe = x_ap_sent;
	ac.ap_rsnxe_len = shim_rsnxe(x_ap_sent, c->ap_rsnxe_sent);
	memcpy(ac.own_addr, shim_ap_addr, 6);
	memcpy(ac.peer_addr, shim_sta_addr, 6);
	ac.sta_rsne = sta_seen;
	ac.sta_rsne_len = shim_rsne(sta_seen, c->akm, c->pairwise, c->sta_capab_seen_by_ap,
				    c->group_mgmt);
	ac.ap_rsne = ap_sent;
	ac.ap_rsne_len = shim_rsne(ap_sent, c->akm, c->pairwise, c->ap_capab_sent, c->group_mgmt);

	sc.pmkid = c->sta_pmkid;
	ac.pmkid = c->ap_pmkid;
	ac.transition_disable = c->ap_transition_disable;
	if (c->late_pmk) {
		sc.pmk = ac.pmk = NULL;
		sc.pmk_len = ac.pmk_len = 0;
	}
	s->group = rsn_group_new(RSN_CIPHER_CCMP_128, c->group_mgmt);
	ck_assert_ptr_nonnull(s->group);
	s->sta = rsn_supp_new(s->loop, &sc, &shim_ops, &s->sta_side);
	ck_assert_ptr_nonnull(s->sta);
	s->ap = rsn_auth_new(s->loop, &ac, &shim_ops, &s->ap_side, s->group);
	ck_assert_ptr_nonnull(s->ap);
}

void shim_free(struct shim *s)
{
	rsn_supp_free(s->sta);
	rsn_auth_free(s->ap);
	rsn_group_free(s->group);
	loop_free(s->loop);
}

void shim_start(struct shim *s)
{
	rsn_supp_start(s->sta);
	ck_assert_int_eq(rsn_auth_start(s->ap), 0);
}

void shim_pump(struct shim *s)
{
	shim_step(s, 100000);
}

void shim_step(struct shim *s, unsigned int n)
{
	unsigned int budget = n;

	while (s->q_count && budget--) {
		uint8_t buf[SHIM_FRAME_MAX];
		unsigned int slot = s->q_head;
		bool to_ap = s->q[slot].to_ap;
		size_t len = s->q[slot].len;

		memcpy(buf, s->q[slot].buf, len);
		s->q_head = (s->q_head + 1) % SHIM_QUEUE;
		s->q_count--;
		if (s->fault && !s->fault(s, to_ap, buf, &len, s->fault_data))
			continue;
		if (to_ap && s->ap)
			s->last_rx_to_ap = rsn_auth_rx_eapol(s->ap, buf, len);
		else if (!to_ap && s->sta)
			s->last_rx_to_sta = rsn_supp_rx_eapol(s->sta, buf, len);
	}
}

bool shim_run(struct shim *s, bool (*cond)(struct shim *s), unsigned int max_ms)
{
	uint64_t end = loop_now_us(s->loop) + (uint64_t)max_ms * 1000;

	shim_pump(s);
	while (!cond(s) && loop_now_us(s->loop) < end) {
		ck_assert_int_ge(loop_iterate(s->loop, 5), 0);
		shim_pump(s);
	}
	return cond(s);
}

bool shim_both_complete(struct shim *s)
{
	return s->sta_side.completes && s->ap_side.completes;
}

bool shim_any_failed(struct shim *s)
{
	return s->sta_side.failures || s->ap_side.failures;
}

bool shim_both_failed(struct shim *s)
{
	return s->sta_side.failures && s->ap_side.failures;
}

const uint8_t *shim_sent(const struct shim_side *side, unsigned int n, size_t *len)
{
	ck_assert_uint_lt(n, SHIM_LOG);
	ck_assert_uint_gt(side->sent, n);
	*len = side->frame_len[n];
	return side->frames[n];
}

size_t shim_copy_sent(const struct shim_side *side, unsigned int n, uint8_t *out)
{
	size_t len;
	const uint8_t *f = shim_sent(side, n, &len);

	memcpy(out, f, len);
	return len;
}
