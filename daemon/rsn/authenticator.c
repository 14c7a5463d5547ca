/* Authenticator side of the 4-way handshake and the group key handshake,
 * for one station.
 *
 * The authenticator drives: it sends message 1, 3 and group message 1 and
 * retransmits them on a timer, a bounded number of times, each send with
 * the next replay counter. The station's answers are matched against the
 * replay counters of the sends of the outstanding message, so an answer to
 * an earlier send still counts.
 *
 * A message 2 whose MIC does not verify is the signature of a wrong
 * passphrase (the station derived another PTK). It is dropped, counted, and
 * logged; the retransmissions continue, and if none is answered with a good
 * MIC the failure says so.
 */
#define LOG_TAG "rsn-auth"

#include "daemon/rsn/authenticator.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/kde.h"
#include "daemon/core/bytes.h"
#include "daemon/core/log.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/rsn_key.h"

#define NONCE_LEN EAPOL_KEY_NONCE_LEN
#define MAX_SENDS 16 /* the cap rsn_conf_copy() puts on max_attempts */

struct rsn_auth {
	struct loop_timer *timer; /* on the loop given at creation */
	struct rsn_conf_store conf;
	struct rsn_suite suite;
	struct rsn_ops ops;
	void *ctx;
	struct rsn_group *group;
	enum rsn_auth_state state;
	char peer[RSN_ADDR_STR_LEN + 4]; /* "STA aa:bb:..." for logs */

	/* The outstanding message: the replay counters of its sends. */
	uint64_t replay_counter; /* last one used */
	uint64_t sent[MAX_SENDS];
	unsigned int n_sent;

	uint8_t anonce[NONCE_LEN];
	struct crypto_ptk ptk; /* verified by message 2 */
	bool have_ptk;
	bool authorized;
	unsigned int hs_mic_failures; /* in the current handshake */
	unsigned int gtk_generation_sent;

	/* Requests from the station carry their own increasing counter. */
	bool have_req_replay;
	uint64_t req_replay;

	struct rsn_auth_stats stats;
	unsigned int depth;
	bool free_pending;
};

const char *rsn_auth_state_name(enum rsn_auth_state state)
{
	switch (state) {
	case RSN_AUTH_STATE_IDLE:
		return "idle";
	case RSN_AUTH_STATE_PTKSTART:
		return "ptkstart";
	case RSN_AUTH_STATE_PTKINITNEGOTIATING:
		return "ptkinitnegotiating";
	case RSN_AUTH_STATE_PTKINITDONE:
		return "ptkinitdone";
	case RSN_AUTH_STATE_REKEYNEGOTIATING:
		return "rekeynegotiating";
	case RSN_AUTH_STATE_FAILED:
		return "failed";
	}
	return "unknown";
}

/* ---- sending ---------------------------------------------------------- */

static uint64_t next_replay(struct rsn_auth *sm)
{
	sm->replay_counter++;
	if (sm->n_sent < MAX_SENDS)
		sm->sent[sm->n_sent++] = sm->replay_counter;
	return sm->replay_counter;
}

static bool replay_outstanding(const struct rsn_auth *sm, uint64_t counter)
{
	for (unsigned int i = 0; i < sm->n_sent; i++)
		if (sm->sent[i] == counter)
			return true;
	return false;
}

static void send_key(struct rsn_auth *sm, const struct rsn_key_tx *tx, const char *what)
{
	uint8_t frame[RSN_FRAME_MAX];
	size_t len;
	uint8_t version = sm->conf.cfg.eapol_version ? sm->conf.cfg.eapol_version
						     : EAPOL_VERSION_2004;
	int ret = rsn_key_build(&sm->suite, version, tx, sm->have_ptk ? &sm->ptk : NULL, frame,
				&len);

	/* A frame that could not be built or sent is handled like a lost one:
	 * the retry timer runs and gives up in the end. */
	if (ret) {
		log_error("%s: cannot build %s (%d)", sm->peer, what, ret);
		return;
	}
	log_debug("%s: sending %s, replay counter %llu", sm->peer, what,
		  (unsigned long long)tx->replay_counter);
	ret = sm->ops.send_eapol(sm->ctx, frame, len);
	if (ret)
		log_warn("%s: sending %s failed (%d)", sm->peer, what, ret);
	crypto_zero(frame, sizeof(frame));
}

/* With a PMKSA, message 1 names it in a PMKID KDE (12.7.6.2), so a
 * station that offered another knows at once that it was not taken. */
static void send_msg1(struct rsn_auth *sm)
{
	uint8_t kd[32];
	struct wbuf w = wbuf_init(kd, sizeof(kd));
	struct rsn_key_tx tx = {
		.key_info = EAPOL_KEY_INFO_PAIRWISE | EAPOL_KEY_INFO_ACK,
		.key_length = (uint16_t)sm->suite.tk_len,
		.replay_counter = next_replay(sm),
		.nonce = sm->anonce,
	};

	if (sm->conf.cfg.pmkid && kde_build_pmkid(&w, sm->conf.cfg.pmkid) == 0) {
		tx.key_data = kd;
		tx.key_data_len = w.len;
	}

	sm->stats.msg1_sent++;
	send_key(sm, &tx, "message 1");
}

/* Key RSC: the current transmit PN of the GTK, from the driver if it can
 * tell, else what the group recorded. */
static void gtk_rsc(struct rsn_auth *sm, const struct rsn_group_key *gtk,
		    uint8_t rsc[EAPOL_KEY_RSC_LEN])
{
	memset(rsc, 0, EAPOL_KEY_RSC_LEN);
	if (!sm->ops.get_gtk_seq || sm->ops.get_gtk_seq(sm->ctx, gtk->key_idx, rsc))
		memcpy(rsc, gtk->seq, RSN_SEQ_LEN);
}

/* GTK KDE and, with management frame protection, IGTK KDE. */
static void put_group_kdes(struct rsn_auth *sm, struct wbuf *w)
{
	const struct rsn_group_key *gtk = rsn_group_gtk(sm->group);
	const struct rsn_group_key *igtk = rsn_group_igtk(sm->group);

	kde_build_gtk(w, gtk->key_idx, false, gtk->key, gtk->len);
	if (sm->suite.igtk_len && igtk)
		kde_build_igtk(w, igtk->key_idx, igtk->seq, igtk->key, igtk->len);
}

static void send_msg3(struct rsn_auth *sm)
{
	uint8_t kd[RSN_KEY_DATA_PLAIN_MAX];
	uint8_t rsc[EAPOL_KEY_RSC_LEN];
	struct wbuf w = wbuf_init(kd, sizeof(kd));

	wbuf_put(&w, sm->conf.cfg.ap_rsne, sm->conf.cfg.ap_rsne_len);
	if (sm->conf.cfg.ap_rsnxe_len)
		wbuf_put(&w, sm->conf.cfg.ap_rsnxe, sm->conf.cfg.ap_rsnxe_len);
	put_group_kdes(sm, &w);
	/* WPA3 Specification: in message 3 only, inside the encrypted Key
	 * Data, so that only the station holding the PTK acts on it. */
	if (sm->conf.cfg.transition_disable)
		kde_build_transition_disable(&w, sm->conf.cfg.transition_disable);
	gtk_rsc(sm, rsn_group_gtk(sm->group), rsc);
	struct rsn_key_tx tx = {
		.key_info = EAPOL_KEY_INFO_PAIRWISE | EAPOL_KEY_INFO_INSTALL | EAPOL_KEY_INFO_ACK |
			    EAPOL_KEY_INFO_MIC | EAPOL_KEY_INFO_SECURE |
			    EAPOL_KEY_INFO_ENCR_KEY_DATA,
		.key_length = (uint16_t)sm->suite.tk_len,
		.replay_counter = next_replay(sm),
		.nonce = sm->anonce,
		.rsc = rsc,
		.key_data = kd,
		.key_data_len = w.len,
	};
	if (w.bad)
		log_error("%s: message 3 key data does not fit", sm->peer);
	else
		send_key(sm, &tx, "message 3");
	if (sm->n_sent == 1)
		sm->gtk_generation_sent = rsn_group_generation(sm->group);
	sm->stats.msg3_sent++;
	crypto_zero(kd, sizeof(kd));
}

static void send_group_msg1(struct rsn_auth *sm)
{
	uint8_t kd[RSN_KEY_DATA_PLAIN_MAX];
	uint8_t rsc[EAPOL_KEY_RSC_LEN];
	struct wbuf w = wbuf_init(kd, sizeof(kd));

	put_group_kdes(sm, &w);
	gtk_rsc(sm, rsn_group_gtk(sm->group), rsc);
	struct rsn_key_tx tx = {
		.key_info = EAPOL_KEY_INFO_ACK | EAPOL_KEY_INFO_MIC | EAPOL_KEY_INFO_SECURE |
			    EAPOL_KEY_INFO_ENCR_KEY_DATA,
		.replay_counter = next_replay(sm),
		.rsc = rsc,
		.key_data = kd,
		.key_data_len = w.len,
	};
	if (w.bad)
		log_error("%s: group message 1 key data does not fit", sm->peer);
	else
		send_key(sm, &tx, "group message 1");
	sm->gtk_generation_sent = rsn_group_generation(sm->group);
	sm->stats.group_msg1_sent++;
	crypto_zero(kd, sizeof(kd));
}

/* ---- states ----------------------------------------------------------- */

static void deauthorize(struct rsn_auth *sm)
{
	if (!sm->authorized)
		return;
	sm->authorized = false;
	sm->ops.set_port_authorized(sm->ctx, false);
}


static void enter_state(struct rsn_auth *sm, enum rsn_auth_state new_state)
{
	enum rsn_auth_state old = sm->state;
	const struct rsn_timing *t = &sm->conf.cfg.timing;

	log_debug("%s: authenticator %s -> %s", sm->peer, rsn_auth_state_name(old),
		  rsn_auth_state_name(new_state));
	sm->state = new_state;
	switch (new_state) {
	case RSN_AUTH_STATE_IDLE:
		loop_timer_disarm(sm->timer);
		sm->n_sent = 0;
		sm->have_ptk = false;
		crypto_ptk_clear(&sm->ptk);
		break;
	case RSN_AUTH_STATE_PTKSTART:
		sm->hs_mic_failures = 0;
		sm->n_sent = 0;
		send_msg1(sm);
		loop_timer_arm_ms(sm->timer, t->retry_first_ms);
		break;
	case RSN_AUTH_STATE_PTKINITNEGOTIATING:
		sm->n_sent = 0;
		send_msg3(sm);
		loop_timer_arm_ms(sm->timer, t->retry_first_ms);
		break;
	case RSN_AUTH_STATE_PTKINITDONE:
		loop_timer_disarm(sm->timer);
		sm->n_sent = 0;
		if (old == RSN_AUTH_STATE_PTKINITNEGOTIATING && !sm->authorized) {
			log_info("%s: 4-way handshake complete", sm->peer);
			sm->authorized = true;
			sm->ops.set_port_authorized(sm->ctx, true);
			sm->ops.on_complete(sm->ctx);
		}
		break;
	case RSN_AUTH_STATE_REKEYNEGOTIATING:
		sm->n_sent = 0;
		send_group_msg1(sm);
		loop_timer_arm_ms(sm->timer, t->group_retry_first_ms);
		break;
	case RSN_AUTH_STATE_FAILED:
		loop_timer_disarm(sm->timer);
		sm->n_sent = 0;
		sm->have_ptk = false;
		crypto_ptk_clear(&sm->ptk);
		deauthorize(sm);
		break;
	}
}

static void fail(struct rsn_auth *sm, enum rsn_fail reason, uint16_t ieee_reason,
		 const char *detail)
{
	struct rsn_failure f = { .reason = reason, .ieee_reason = ieee_reason, .detail = detail };

	log_warn("%s: handshake failed in %s: %s (%s, reason %u)", sm->peer,
		 rsn_auth_state_name(sm->state), detail, rsn_fail_name(reason), ieee_reason);
	enter_state(sm, RSN_AUTH_STATE_FAILED);
	sm->ops.on_failure(sm->ctx, &f);
}

static int drop(struct rsn_auth *sm, int err, const char *what)
{
	sm->stats.rx_dropped++;
	log_debug("%s: dropped %s in %s: %s", sm->peer, what, rsn_auth_state_name(sm->state),
		  rsn_rx_strerror(err));
	return err;
}

/* The outstanding message was not answered in time. */
static void timed_out(struct rsn_auth *sm)
{
	bool group = sm->state == RSN_AUTH_STATE_REKEYNEGOTIATING;

	if (sm->state == RSN_AUTH_STATE_PTKSTART && sm->hs_mic_failures)
		fail(sm, sm->authorized ? RSN_FAIL_MIC : RSN_FAIL_LIKELY_WRONG_PASSPHRASE,
		     WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT,
		     "message 2 MIC never verified (wrong passphrase?)");
	else if (group)
		fail(sm, RSN_FAIL_GROUP_TIMEOUT, WLAN_REASON_GROUP_KEY_UPDATE_TIMEOUT,
		     "no group message 2");
	else
		fail(sm, RSN_FAIL_TIMEOUT, WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT,
		     sm->state == RSN_AUTH_STATE_PTKSTART ? "no message 2" : "no message 4");
}

static void on_timer(struct loop_timer *timer, void *data)
{
	struct rsn_auth *sm = data;
	const struct rsn_timing *t = &sm->conf.cfg.timing;

	sm->depth++;
	switch (sm->state) {
	case RSN_AUTH_STATE_PTKSTART:
	case RSN_AUTH_STATE_PTKINITNEGOTIATING:
	case RSN_AUTH_STATE_REKEYNEGOTIATING:
		if (sm->n_sent >= t->max_attempts) {
			timed_out(sm);
			break;
		}
		if (sm->state == RSN_AUTH_STATE_PTKSTART)
			send_msg1(sm);
		else if (sm->state == RSN_AUTH_STATE_PTKINITNEGOTIATING)
			send_msg3(sm);
		else
			send_group_msg1(sm);
		loop_timer_arm_ms(sm->timer, t->retry_ms); /* the wait starts at the send */
		break;
	case RSN_AUTH_STATE_IDLE:
	case RSN_AUTH_STATE_PTKINITDONE:
	case RSN_AUTH_STATE_FAILED:
		break;
	}
	if (--sm->depth == 0 && sm->free_pending)
		rsn_auth_free(sm);
}

/* ---- received frames -------------------------------------------------- */

/* 12.7.6.3: the RSNE in message 2 must be the (Re)Association Request's,
 * octet for octet, and so must the RSNXE (or its absence). */
static enum rsn_elem_check msg2_elems_check(const struct rsn_auth *sm, const struct eapol_key *k)
{
	const struct rsn_config *cfg = &sm->conf.cfg;
	struct kde_set kde;

	if (k->info.encrypted || kde_parse(k->key_data, k->key_data_len, &kde) != CODEC_OK)
		return RSN_ELEMS_NO_RSNE;
	if (kde.n_rsn != 1)
		return kde.n_rsn ? RSN_ELEMS_RSNE_DIFFERS : RSN_ELEMS_NO_RSNE;
	return rsn_elems_compare(kde.rsn_elem[0], kde.rsn_elem_len[0], kde.rsnxe_elem,
				 kde.rsnxe_elem_len, cfg->sta_rsne, cfg->sta_rsne_len,
				 cfg->sta_rsnxe, cfg->sta_rsnxe_len);
}

static int handle_msg2(struct rsn_auth *sm, const struct rsn_key_rx *rx)
{
	const struct rsn_config *cfg = &sm->conf.cfg;
	const struct eapol_key *k = &rx->key;
	struct crypto_ptk ptk;
	int ret;

	if (!replay_outstanding(sm, k->replay_counter))
		return drop(sm, RSN_RX_E_REPLAY, "message 2");
	if (rsn_ptk_derive(&sm->suite, cfg, cfg->own_addr, cfg->peer_addr, sm->anonce, k->nonce,
			   &ptk))
		return drop(sm, RSN_RX_E_INTERNAL, "message 2");
	ret = rsn_key_verify_mic(&sm->suite, &ptk, rx);
	if (ret) {
		crypto_ptk_clear(&ptk);
		if (ret == RSN_RX_E_MIC) {
			sm->stats.mic_failures++;
			sm->hs_mic_failures++;
			log_warn("MIC failure from %s (wrong passphrase?)", sm->peer);
		}
		return drop(sm, ret, "message 2");
	}
	enum rsn_elem_check elems = msg2_elems_check(sm, k);
	if (elems != RSN_ELEMS_MATCH) {
		crypto_ptk_clear(&ptk);
		log_hex("RSNE of the association request", cfg->sta_rsne, cfg->sta_rsne_len);
		log_hex("RSNXE of the association request", cfg->sta_rsnxe, cfg->sta_rsnxe_len);
		log_hex("key data of message 2", k->key_data, k->key_data_len);
		fail(sm, RSN_FAIL_IE_MISMATCH, WLAN_REASON_IE_IN_4WAY_DIFFERS,
		     rsn_elems_text(elems, 2));
		return RSN_RX_E_IE_MISMATCH;
	}
	sm->ptk = ptk;
	sm->have_ptk = true;
	crypto_ptk_clear(&ptk);
	enter_state(sm, RSN_AUTH_STATE_PTKINITNEGOTIATING);
	return RSN_RX_OK;
}

static int handle_msg4(struct rsn_auth *sm, const struct rsn_key_rx *rx)
{
	const struct eapol_key *k = &rx->key;
	int ret;

	if (!k->info.secure)
		return drop(sm, RSN_RX_E_KEY_INFO, "message 4");
	if (!replay_outstanding(sm, k->replay_counter))
		return drop(sm, RSN_RX_E_REPLAY, "message 4");
	ret = rsn_key_verify_mic(&sm->suite, &sm->ptk, rx);
	if (ret) {
		sm->stats.mic_failures += ret == RSN_RX_E_MIC;
		return drop(sm, ret, "message 4");
	}
	ret = sm->ops.install_ptk(sm->ctx, sm->suite.pairwise_cipher, sm->ptk.tk, sm->ptk.tk_len);
	if (ret) {
		fail(sm, RSN_FAIL_INSTALL, WLAN_REASON_PREV_AUTH_NOT_VALID,
		     "the driver refused the PTK");
		return RSN_RX_E_INTERNAL;
	}
	sm->stats.handshakes++;
	enter_state(sm, RSN_AUTH_STATE_PTKINITDONE);
	/* The GTK changed while message 3 was on its way: send the new one. */
	if (!sm->free_pending && sm->state == RSN_AUTH_STATE_PTKINITDONE &&
	    sm->gtk_generation_sent != rsn_group_generation(sm->group))
		enter_state(sm, RSN_AUTH_STATE_REKEYNEGOTIATING);
	return RSN_RX_OK;
}

static int handle_group_msg2(struct rsn_auth *sm, const struct rsn_key_rx *rx)
{
	const struct eapol_key *k = &rx->key;
	int ret;

	if (sm->state != RSN_AUTH_STATE_REKEYNEGOTIATING)
		return drop(sm, RSN_RX_E_STATE, "group message 2");
	if (!k->info.secure)
		return drop(sm, RSN_RX_E_KEY_INFO, "group message 2");
	if (!replay_outstanding(sm, k->replay_counter))
		return drop(sm, RSN_RX_E_REPLAY, "group message 2");
	ret = rsn_key_verify_mic(&sm->suite, &sm->ptk, rx);
	if (ret) {
		sm->stats.mic_failures += ret == RSN_RX_E_MIC;
		return drop(sm, ret, "group message 2");
	}
	sm->stats.group_handshakes++;
	log_debug("%s: group key handshake complete", sm->peer);
	enter_state(sm, RSN_AUTH_STATE_PTKINITDONE);
	if (sm->ops.on_group_complete)
		sm->ops.on_group_complete(sm->ctx);
	return RSN_RX_OK;
}

/* EAPOL-Key requests: a station asking for a new PTK or GTK, or reporting a
 * Michael MIC failure (TKIP only, which we never negotiate). */
static int handle_request(struct rsn_auth *sm, const struct rsn_key_rx *rx)
{
	const struct eapol_key *k = &rx->key;
	int ret;

	if (sm->state != RSN_AUTH_STATE_PTKINITDONE &&
	    sm->state != RSN_AUTH_STATE_REKEYNEGOTIATING)
		return drop(sm, RSN_RX_E_STATE, "EAPOL-Key request");
	if (sm->have_req_replay && k->replay_counter <= sm->req_replay)
		return drop(sm, RSN_RX_E_REPLAY, "EAPOL-Key request");
	ret = rsn_key_verify_mic(&sm->suite, &sm->ptk, rx);
	if (ret) {
		sm->stats.mic_failures += ret == RSN_RX_E_MIC;
		return drop(sm, ret, "EAPOL-Key request");
	}
	sm->have_req_replay = true;
	sm->req_replay = k->replay_counter;
	if (k->info.error) {
		log_warn("%s: station reports a MIC failure; ignored (no TKIP)", sm->peer);
		return RSN_RX_OK;
	}
	if (k->info.pairwise) {
		log_info("%s: station asks for a new PTK", sm->peer);
		return rsn_auth_start(sm) ? RSN_RX_E_INTERNAL : RSN_RX_OK;
	}
	log_info("%s: station asks for the GTK", sm->peer);
	enter_state(sm, RSN_AUTH_STATE_REKEYNEGOTIATING);
	return RSN_RX_OK;
}

static int dispatch(struct rsn_auth *sm, const struct rsn_key_rx *rx)
{
	const struct eapol_key_info *ki = &rx->key.info;

	if (ki->request)
		return handle_request(sm, rx);
	if (!ki->pairwise)
		return handle_group_msg2(sm, rx);
	if (ki->install || ki->encrypted)
		return drop(sm, RSN_RX_E_KEY_INFO, "pairwise EAPOL-Key frame");
	switch (sm->state) {
	case RSN_AUTH_STATE_PTKSTART:
		return handle_msg2(sm, rx);
	case RSN_AUTH_STATE_PTKINITNEGOTIATING:
		return handle_msg4(sm, rx);
	case RSN_AUTH_STATE_IDLE:
	case RSN_AUTH_STATE_PTKINITDONE:
	case RSN_AUTH_STATE_REKEYNEGOTIATING:
	case RSN_AUTH_STATE_FAILED:
		break;
	}
	return drop(sm, RSN_RX_E_STATE, "pairwise EAPOL-Key frame");
}

static int rx_frame(struct rsn_auth *sm, const uint8_t *frame, size_t len)
{
	struct rsn_key_rx rx;
	int ret;

	if (sm->state == RSN_AUTH_STATE_IDLE || sm->state == RSN_AUTH_STATE_FAILED)
		return drop(sm, RSN_RX_E_STOPPED, "EAPOL frame");
	ret = rsn_key_parse(&sm->suite, frame, len, &rx, sm->peer);
	if (ret)
		return drop(sm, ret, "EAPOL frame");
	/* Every frame a supplicant sends has a MIC and no Ack. */
	if (rx.key.info.ack || !rx.key.info.mic || rx.key.info.smk)
		return drop(sm, RSN_RX_E_KEY_INFO, "EAPOL-Key frame");
	ret = dispatch(sm, &rx);
	if (!ret)
		sm->stats.rx_accepted++;
	return ret;
}

/* ---- entry points ----------------------------------------------------- */

int rsn_auth_rx_eapol(struct rsn_auth *sm, const uint8_t *frame, size_t len)
{
	sm->depth++;
	int ret = rx_frame(sm, frame, len);
	if (--sm->depth == 0 && sm->free_pending)
		rsn_auth_free(sm);
	return ret;
}

int rsn_auth_start(struct rsn_auth *sm)
{
	int ret = 0;

	if (!rsn_conf_has_pmk(&sm->conf)) {
		log_error("%s: no PMK: the 4-way handshake cannot start", sm->peer);
		return -ENOKEY;
	}
	sm->depth++;
	if (rsn_random(&sm->ops, sm->ctx, sm->anonce, NONCE_LEN)) {
		fail(sm, RSN_FAIL_INTERNAL, WLAN_REASON_UNSPECIFIED, "no random ANonce");
		ret = -EIO;
	} else {
		enter_state(sm, RSN_AUTH_STATE_PTKSTART);
	}
	if (--sm->depth == 0 && sm->free_pending)
		rsn_auth_free(sm);
	return ret;
}

int rsn_auth_set_pmk(struct rsn_auth *sm, const uint8_t *pmk, size_t len, const uint8_t *pmkid)
{
	switch (sm->state) {
	case RSN_AUTH_STATE_PTKSTART:
	case RSN_AUTH_STATE_PTKINITNEGOTIATING:
		return -EBUSY; /* message 2's MIC is checked with the PMK in use */
	case RSN_AUTH_STATE_IDLE:
	case RSN_AUTH_STATE_PTKINITDONE:
	case RSN_AUTH_STATE_REKEYNEGOTIATING:
	case RSN_AUTH_STATE_FAILED:
		break;
	}
	return rsn_conf_set_pmk(&sm->conf, pmk, len, pmkid);
}

void rsn_auth_stop(struct rsn_auth *sm)
{
	sm->depth++;
	deauthorize(sm);
	enter_state(sm, RSN_AUTH_STATE_IDLE);
	sm->depth--;
}

int rsn_auth_group_rekey(struct rsn_auth *sm)
{
	int ret = 0;

	sm->depth++;
	switch (sm->state) {
	case RSN_AUTH_STATE_PTKINITDONE:
	case RSN_AUTH_STATE_REKEYNEGOTIATING:
		enter_state(sm, RSN_AUTH_STATE_REKEYNEGOTIATING);
		break;
	case RSN_AUTH_STATE_PTKSTART:
	case RSN_AUTH_STATE_PTKINITNEGOTIATING:
		/* handle_msg4() compares generations when the handshake ends */
		break;
	case RSN_AUTH_STATE_IDLE:
	case RSN_AUTH_STATE_FAILED:
		ret = -ENOTCONN;
		break;
	}
	if (--sm->depth == 0 && sm->free_pending)
		rsn_auth_free(sm);
	return ret;
}

struct rsn_auth *rsn_auth_new(struct loop *loop, const struct rsn_config *cfg,
			      const struct rsn_ops *ops, void *ctx, struct rsn_group *group)
{
	struct rsn_auth *sm;

	if (!loop || !cfg || !ops || !group || !ops->send_eapol || !ops->install_ptk ||
	    !ops->set_port_authorized || !ops->on_complete || !ops->on_failure)
		return NULL;
	sm = calloc(1, sizeof(*sm));
	if (!sm)
		return NULL;
	char addr[RSN_ADDR_STR_LEN];
	snprintf(sm->peer, sizeof(sm->peer), "STA %s", rsn_addr_str(cfg->peer_addr, addr));
	if (rsn_suite_init(&sm->suite, cfg) || rsn_conf_copy(&sm->conf, cfg) ||
	    rsn_group_gtk(group)->cipher != cfg->group_cipher ||
	    (cfg->group_mgmt_cipher && !rsn_group_igtk(group))) {
		log_error("%s: unsupported or invalid RSN configuration", sm->peer);
		rsn_conf_clear(&sm->conf);
		free(sm);
		return NULL;
	}
	sm->timer = loop_timer_new(loop, on_timer, sm);
	if (!sm->timer) {
		rsn_conf_clear(&sm->conf);
		free(sm);
		return NULL;
	}
	sm->ops = *ops;
	sm->ctx = ctx;
	sm->group = group;
	sm->replay_counter = cfg->replay_counter_base;
	sm->state = RSN_AUTH_STATE_IDLE;
	return sm;
}

void rsn_auth_tx_status(struct rsn_auth *sm, bool acked)
{
	bool first_wait = sm->n_sent == 1 && (sm->state == RSN_AUTH_STATE_PTKSTART ||
					       sm->state == RSN_AUTH_STATE_PTKINITNEGOTIATING);
	if (acked && first_wait)
		loop_timer_arm_ms(sm->timer, sm->conf.cfg.timing.retry_ms);
}

void rsn_auth_free(struct rsn_auth *sm)
{
	if (!sm)
		return;
	if (sm->depth) {
		sm->free_pending = true;
		return;
	}
	loop_timer_free(sm->timer);
	rsn_conf_clear(&sm->conf);
	crypto_zero(sm, sizeof(*sm));
	free(sm);
}

enum rsn_auth_state rsn_auth_state(const struct rsn_auth *sm)
{
	return sm->state;
}

const struct rsn_auth_stats *rsn_auth_stats(const struct rsn_auth *sm)
{
	return &sm->stats;
}

unsigned int rsn_auth_mic_failures(const struct rsn_auth *sm)
{
	return sm->stats.mic_failures;
}
