/* Supplicant side of the 4-way handshake and the group key handshake.
 *
 * The rules that matter most, and why:
 *   - Replay: every frame must carry a replay counter above the one of the
 *     last frame whose MIC verified (12.7.2). Message 1 has no MIC, so it
 *     never moves the counter; otherwise a forged message 1 with a huge
 *     counter would lock out the real AP.
 *   - One SNonce per ANonce: a retransmitted message 1 (same ANonce) gets
 *     the same message 2 again; a new ANonce starts over with a new SNonce.
 *     Only one temporary PTK exists, so a message 1 flood costs nothing
 *     but CPU and never touches the installed PTK.
 *   - KRACK: the PTK is installed once per handshake, and a key identical to
 *     the installed one is never installed again (that would reset its
 *     receive/transmit sequence counters). A retransmitted message 3 is
 *     answered with a fresh message 4 and nothing else.
 *   - Wrong passphrase: an AP drops message 2 silently when its MIC does
 *     not verify, so "message 2 sent, no valid message 3 before the timeout"
 *     is reported as RSN_FAIL_LIKELY_WRONG_PASSPHRASE.
 */
#define LOG_TAG "rsn-supp"

#include "daemon/rsn/supplicant.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/kde.h"
#include "daemon/core/log.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/rsn_key.h"

#define NONCE_LEN EAPOL_KEY_NONCE_LEN
#define GTK_SLOTS 4  /* key IDs 1..3 */
#define IGTK_SLOTS 2 /* key IDs 4..5 */
#define IGTK_FIRST_ID 4

/* A key we installed, to refuse installing the very same key again. */
struct installed_key {
	bool valid;
	size_t len;
	uint8_t key[RSN_KEY_MAX_LEN];
};

struct rsn_supp {
	struct loop_timer *timer; /* on the loop given at creation */
	struct rsn_conf_store conf;
	struct rsn_suite suite;
	struct rsn_ops ops;
	void *ctx;
	enum rsn_supp_state state;
	char peer[RSN_ADDR_STR_LEN + 4]; /* "AP aa:bb:..." for logs */
	uint8_t eapol_version; /* of the frames we send */

	/* Replay counter of the last frame whose MIC verified. */
	bool have_replay;
	uint64_t replay;

	/* The handshake in progress (WAIT_MSG3, REKEYING). */
	bool have_anonce;
	uint8_t anonce[NONCE_LEN];
	uint8_t snonce[NONCE_LEN];
	struct crypto_ptk tptk;
	unsigned int msg3_mic_failures;

	/* The PTK in use and the keys handed to the driver. */
	bool have_ptk;
	uint64_t request_counter; /* of our EAPOL-Key Requests, per PTK */
	uint8_t ptk_anonce[NONCE_LEN];
	struct crypto_ptk ptk;
	struct installed_key tk;
	struct installed_key gtk[GTK_SLOTS];
	struct installed_key igtk[IGTK_SLOTS];
	bool authorized;

	/* The PMKID KDE of the last message 1, if it had one. */
	bool have_msg1_pmkid;
	uint8_t msg1_pmkid[RSN_PMKID_LEN];

	struct rsn_supp_stats stats;
	/* Deferred free: callbacks may free the machine while it runs. */
	unsigned int depth;
	bool free_pending;
};

const char *rsn_supp_state_name(enum rsn_supp_state state)
{
	switch (state) {
	case RSN_SUPP_STATE_IDLE:
		return "idle";
	case RSN_SUPP_STATE_WAIT_MSG1:
		return "wait-msg1";
	case RSN_SUPP_STATE_WAIT_MSG3:
		return "wait-msg3";
	case RSN_SUPP_STATE_ESTABLISHED:
		return "established";
	case RSN_SUPP_STATE_REKEYING:
		return "rekeying";
	case RSN_SUPP_STATE_FAILED:
		return "failed";
	}
	return "unknown";
}

static void forget_handshake(struct rsn_supp *sm)
{
	sm->have_anonce = false;
	crypto_zero(sm->anonce, sizeof(sm->anonce));
	crypto_zero(sm->snonce, sizeof(sm->snonce));
	crypto_ptk_clear(&sm->tptk);
	sm->msg3_mic_failures = 0;
}

static void forget_keys(struct rsn_supp *sm)
{
	sm->have_ptk = false;
	crypto_ptk_clear(&sm->ptk);
	crypto_zero(sm->ptk_anonce, sizeof(sm->ptk_anonce));
	crypto_zero(&sm->tk, sizeof(sm->tk));
	crypto_zero(sm->gtk, sizeof(sm->gtk));
	crypto_zero(sm->igtk, sizeof(sm->igtk));
	sm->have_replay = false;
	sm->replay = 0;
	sm->request_counter = 0;
}

static void deauthorize(struct rsn_supp *sm)
{
	if (!sm->authorized)
		return;
	sm->authorized = false;
	sm->ops.set_port_authorized(sm->ctx, false);
}

static void enter_state(struct rsn_supp *sm, enum rsn_supp_state new_state)
{
	enum rsn_supp_state old = sm->state;

	log_debug("%s: supplicant %s -> %s", sm->peer, rsn_supp_state_name(old),
		  rsn_supp_state_name(new_state));
	sm->state = new_state;
	switch (new_state) {
	case RSN_SUPP_STATE_IDLE:
		loop_timer_disarm(sm->timer);
		forget_handshake(sm);
		forget_keys(sm);
		break;
	case RSN_SUPP_STATE_WAIT_MSG1:
		forget_handshake(sm);
		loop_timer_arm_ms(sm->timer, sm->conf.cfg.timing.handshake_timeout_ms);
		break;
	case RSN_SUPP_STATE_WAIT_MSG3:
		break;
	case RSN_SUPP_STATE_ESTABLISHED:
		loop_timer_disarm(sm->timer);
		forget_handshake(sm);
		if (old == RSN_SUPP_STATE_WAIT_MSG3) {
			log_info("%s: 4-way handshake complete", sm->peer);
			sm->authorized = true;
			sm->ops.set_port_authorized(sm->ctx, true);
			sm->ops.on_complete(sm->ctx);
		}
		break;
	case RSN_SUPP_STATE_REKEYING:
		loop_timer_arm_ms(sm->timer, sm->conf.cfg.timing.handshake_timeout_ms);
		break;
	case RSN_SUPP_STATE_FAILED:
		loop_timer_disarm(sm->timer);
		forget_handshake(sm);
		forget_keys(sm);
		deauthorize(sm);
		break;
	}
}

static void fail(struct rsn_supp *sm, enum rsn_fail reason, uint16_t ieee_reason,
		 const char *detail)
{
	struct rsn_failure f = { .reason = reason, .ieee_reason = ieee_reason, .detail = detail };

	log_warn("%s: handshake failed in %s: %s (%s, reason %u)", sm->peer,
		 rsn_supp_state_name(sm->state), detail, rsn_fail_name(reason), ieee_reason);
	enter_state(sm, RSN_SUPP_STATE_FAILED);
	sm->ops.on_failure(sm->ctx, &f);
}

static int drop(struct rsn_supp *sm, int err, const char *what)
{
	sm->stats.rx_dropped++;
	log_debug("%s: dropped %s in %s: %s", sm->peer, what, rsn_supp_state_name(sm->state),
		  rsn_rx_strerror(err));
	return err;
}

static int send_key(struct rsn_supp *sm, const struct rsn_key_tx *tx,
		    const struct crypto_ptk *ptk)
{
	uint8_t frame[RSN_FRAME_MAX];
	size_t len;
	int ret = rsn_key_build(&sm->suite, sm->eapol_version, tx, ptk, frame, &len);

	if (ret) {
		log_error("%s: cannot build EAPOL-Key frame (%d)", sm->peer, ret);
		return ret;
	}
	ret = sm->ops.send_eapol(sm->ctx, frame, len);
	if (ret)
		log_warn("%s: sending EAPOL-Key failed (%d)", sm->peer, ret);
	return 0; /* a lost frame is what retransmission is for */
}

static void note_version(struct rsn_supp *sm, const struct rsn_key_rx *rx)
{
	sm->eapol_version = sm->conf.cfg.eapol_version ? sm->conf.cfg.eapol_version
						       : rx->hdr.version;
}

/* ---- message 1 -------------------------------------------------------- */

static int new_handshake(struct rsn_supp *sm, const uint8_t *anonce)
{
	const struct rsn_config *cfg = &sm->conf.cfg;

	forget_handshake(sm);
	if (rsn_random(&sm->ops, sm->ctx, sm->snonce, NONCE_LEN))
		return -EIO;
	memcpy(sm->anonce, anonce, NONCE_LEN);
	if (rsn_ptk_derive(&sm->suite, cfg, cfg->peer_addr, cfg->own_addr, sm->anonce, sm->snonce,
			   &sm->tptk))
		return -EIO;
	sm->have_anonce = true;
	log_secret_hex("temporary PTK KCK", sm->tptk.kck, sm->tptk.kck_len);
	return 0;
}

/* Message 1 may name the PMKSA the AP uses (PMKID KDE, 12.7.6.2). When we
 * offered one in our RSNE, another name means the AP did not take it: the
 * PMK we hold is not the AP's, and the role should forget it and
 * authenticate in full. Without an offer the PMKID only tells us which PMK
 * the AP means; it is recorded for the role. Returns false to stop. */
static bool check_msg1_pmkid(struct rsn_supp *sm, const struct rsn_key_rx *rx)
{
	const struct rsn_config *cfg = &sm->conf.cfg;
	struct kde_set kde;

	sm->have_msg1_pmkid = false;
	if (!rx->key.key_data_len)
		return true;
	if (kde_parse(rx->key.key_data, rx->key.key_data_len, &kde) != CODEC_OK) {
		log_debug("%s: message 1 key data does not parse; ignored", sm->peer);
		return true;
	}
	if (!kde.pmkid)
		return true;
	memcpy(sm->msg1_pmkid, kde.pmkid, RSN_PMKID_LEN);
	sm->have_msg1_pmkid = true;
	if (!cfg->pmkid)
		return true;
	if (crypto_memeq(cfg->pmkid, kde.pmkid, RSN_PMKID_LEN)) {
		log_debug("%s: message 1 names our PMKSA", sm->peer);
		return true;
	}
	fail(sm, RSN_FAIL_PMKID, WLAN_REASON_INVALID_PMKID,
	     "message 1 names another PMKSA than the one we offered");
	return false;
}

static int handle_msg1(struct rsn_supp *sm, const struct rsn_key_rx *rx)
{
	const struct eapol_key *k = &rx->key;
	const struct rsn_config *cfg = &sm->conf.cfg;
	bool waiting = sm->state == RSN_SUPP_STATE_WAIT_MSG3 ||
		       sm->state == RSN_SUPP_STATE_REKEYING;

	if (k->info.install || k->info.encrypted)
		return drop(sm, RSN_RX_E_KEY_INFO, "message 1");
	if (!rsn_conf_has_pmk(&sm->conf))
		return drop(sm, RSN_RX_E_NO_PMK, "message 1");
	if (!check_msg1_pmkid(sm, rx))
		return RSN_RX_E_KEY_DATA;
	if (sm->state == RSN_SUPP_STATE_IDLE)
		enter_state(sm, RSN_SUPP_STATE_WAIT_MSG1);
	if (waiting && sm->have_anonce && memcmp(sm->anonce, k->nonce, NONCE_LEN) == 0) {
		log_debug("%s: message 1 retransmitted, same ANonce", sm->peer);
	} else if (new_handshake(sm, k->nonce)) {
		fail(sm, RSN_FAIL_INTERNAL, WLAN_REASON_UNSPECIFIED, "cannot derive the PTK");
		return RSN_RX_E_INTERNAL;
	}
	note_version(sm, rx);
	/* Key data: the elements of our (Re)Association Request. Key Length
	 * stays 0 in every frame a supplicant sends (12.7.6.3). */
	uint8_t kd[2 * RSN_ELEM_MAX_LEN];
	memcpy(kd, cfg->sta_rsne, cfg->sta_rsne_len);
	if (cfg->sta_rsnxe_len)
		memcpy(kd + cfg->sta_rsne_len, cfg->sta_rsnxe, cfg->sta_rsnxe_len);
	struct rsn_key_tx tx = {
		.key_info = EAPOL_KEY_INFO_PAIRWISE | EAPOL_KEY_INFO_MIC,
		.replay_counter = k->replay_counter,
		.nonce = sm->snonce,
		.key_data = kd,
		.key_data_len = cfg->sta_rsne_len + cfg->sta_rsnxe_len,
	};
	if (send_key(sm, &tx, &sm->tptk)) {
		fail(sm, RSN_FAIL_INTERNAL, WLAN_REASON_UNSPECIFIED, "cannot build message 2");
		return RSN_RX_E_INTERNAL;
	}
	log_debug("%s: sent message 2 (replay counter %llu)", sm->peer,
		  (unsigned long long)k->replay_counter);
	if (sm->state == RSN_SUPP_STATE_WAIT_MSG1)
		enter_state(sm, RSN_SUPP_STATE_WAIT_MSG3);
	else if (sm->state == RSN_SUPP_STATE_ESTABLISHED)
		enter_state(sm, RSN_SUPP_STATE_REKEYING);
	return RSN_RX_OK;
}

/* ---- key data of message 3 and group message 1 ------------------------ */

/* 12.7.6.4: the RSNE in message 3 must be the one of the Beacon/Probe
 * Response, octet for octet, and so must the RSNXE (or its absence); an
 * optional second RSNE names the pairwise cipher, which must be the one we
 * negotiated. */
static enum rsn_elem_check msg3_elems_check(const struct rsn_supp *sm, const struct kde_set *kde)
{
	const struct rsn_config *cfg = &sm->conf.cfg;
	struct ie_rsn second;
	enum rsn_elem_check c = rsn_elems_compare(
		kde->n_rsn ? kde->rsn_elem[0] : NULL, kde->n_rsn ? kde->rsn_elem_len[0] : 0,
		kde->rsnxe_elem, kde->rsnxe_elem_len, cfg->ap_rsne, cfg->ap_rsne_len,
		cfg->ap_rsnxe, cfg->ap_rsnxe_len);

	if (c != RSN_ELEMS_MATCH || kde->n_rsn < 2)
		return c;
	if (ie_parse_rsn(kde->rsn_elem[1] + 2, kde->rsn_elem_len[1] - 2, &second) != 0 ||
	    second.n_pairwise != 1 || second.pairwise[0] != cfg->pairwise_cipher)
		return RSN_ELEMS_RSNE_DIFFERS;
	return RSN_ELEMS_MATCH;
}

/* The GTK KDE (and IGTK KDE with management frame protection) must be
 * there and fit the negotiated ciphers. */
static const char *check_group_keys(const struct rsn_supp *sm, const struct kde_set *kde)
{
	if (!kde->has_gtk)
		return "no GTK KDE";
	if (kde->gtk.key_id == 0)
		return "GTK with key ID 0";
	if (kde->gtk.key_len != sm->suite.gtk_len)
		return "GTK length does not fit the group cipher";
	if (!sm->suite.igtk_len)
		return NULL;
	if (!kde->has_igtk)
		return "no IGTK KDE with management frame protection";
	if (kde->igtk.key_len != sm->suite.igtk_len)
		return "IGTK length does not fit the group management cipher";
	return NULL;
}

static int install_gtk(struct rsn_supp *sm, const struct kde_gtk *g, const uint8_t *rsc)
{
	struct installed_key *slot = &sm->gtk[g->key_id];

	if (slot->valid && slot->len == g->key_len && crypto_memeq(slot->key, g->key, g->key_len)) {
		log_debug("%s: GTK %u unchanged, not installed again", sm->peer, g->key_id);
		return 0;
	}
	int ret = sm->ops.install_gtk(sm->ctx, g->key_id, sm->suite.group_cipher, g->key,
				      g->key_len, rsc);
	if (ret)
		return ret;
	slot->valid = true;
	slot->len = g->key_len;
	memcpy(slot->key, g->key, g->key_len);
	sm->stats.gtk_installs++;
	log_debug("%s: installed GTK %u", sm->peer, g->key_id);
	return 0;
}

static int install_igtk(struct rsn_supp *sm, const struct kde_igtk *g)
{
	struct installed_key *slot = &sm->igtk[g->key_id - IGTK_FIRST_ID];

	if (!sm->ops.install_igtk)
		return 0;
	if (slot->valid && slot->len == g->key_len && crypto_memeq(slot->key, g->key, g->key_len)) {
		log_debug("%s: IGTK %u unchanged, not installed again", sm->peer, g->key_id);
		return 0;
	}
	int ret = sm->ops.install_igtk(sm->ctx, g->key_id, sm->suite.group_mgmt_cipher, g->key,
				       g->key_len, g->ipn);
	if (ret)
		return ret;
	slot->valid = true;
	slot->len = g->key_len;
	memcpy(slot->key, g->key, g->key_len);
	sm->stats.igtk_installs++;
	return 0;
}

static int install_group_keys(struct rsn_supp *sm, const struct kde_set *kde,
			      const uint8_t *rsc)
{
	int ret = install_gtk(sm, &kde->gtk, rsc);

	if (!ret && sm->suite.igtk_len)
		ret = install_igtk(sm, &kde->igtk);
	return ret;
}

/* Decrypts and parses the key data; on failure the handshake has failed. */
static int open_key_data(struct rsn_supp *sm, const struct rsn_key_rx *rx,
			 const struct crypto_ptk *ptk, uint8_t *plain, struct kde_set *kde)
{
	size_t len;

	if (rsn_key_decrypt(ptk, rx, plain, &len) != RSN_RX_OK) {
		fail(sm, RSN_FAIL_PROTOCOL, WLAN_REASON_UNSPECIFIED, "key data does not decrypt");
		return RSN_RX_E_KEY_DATA;
	}
	if (kde_parse(plain, len, kde) != 0) {
		fail(sm, RSN_FAIL_PROTOCOL, WLAN_REASON_UNSPECIFIED, "key data does not parse");
		return RSN_RX_E_KEY_DATA;
	}
	const char *bad = check_group_keys(sm, kde);
	if (bad) {
		fail(sm, RSN_FAIL_PROTOCOL, WLAN_REASON_UNSPECIFIED, bad);
		return RSN_RX_E_KEY;
	}
	return RSN_RX_OK;
}

/* ---- message 3 -------------------------------------------------------- */

/* Which PTK checks this message 3: the temporary one of the handshake in
 * progress, or the installed one when the AP retransmits the message 3 we
 * already answered. fresh says which. */
static struct crypto_ptk *msg3_ptk(struct rsn_supp *sm, const uint8_t *anonce, bool *fresh)
{
	bool running = sm->state == RSN_SUPP_STATE_WAIT_MSG3 ||
		       sm->state == RSN_SUPP_STATE_REKEYING;
	bool done = sm->state == RSN_SUPP_STATE_ESTABLISHED ||
		    sm->state == RSN_SUPP_STATE_REKEYING;

	if (running && sm->have_anonce && crypto_memeq(sm->anonce, anonce, NONCE_LEN)) {
		*fresh = true;
		return &sm->tptk;
	}
	if (done && sm->have_ptk && crypto_memeq(sm->ptk_anonce, anonce, NONCE_LEN)) {
		*fresh = false;
		return &sm->ptk;
	}
	return NULL;
}

static int msg3_mic(struct rsn_supp *sm, const struct rsn_key_rx *rx,
		    const struct crypto_ptk *ptk, bool fresh)
{
	int ret = rsn_key_verify_mic(&sm->suite, ptk, rx);

	if (ret == RSN_RX_E_MIC) {
		sm->stats.mic_failures++;
		if (fresh)
			sm->msg3_mic_failures++;
		log_warn("%s: message 3 MIC does not verify (wrong passphrase?)", sm->peer);
	}
	return ret;
}

static int install_ptk(struct rsn_supp *sm)
{
	const struct crypto_ptk *p = &sm->tptk;

	if (sm->tk.valid && sm->tk.len == p->tk_len && crypto_memeq(sm->tk.key, p->tk, p->tk_len)) {
		log_warn("%s: new PTK has the installed TK, not installed again", sm->peer);
		return 0;
	}
	int ret = sm->ops.install_ptk(sm->ctx, sm->suite.pairwise_cipher, p->tk, p->tk_len);
	if (ret)
		return ret;
	sm->tk.valid = true;
	sm->tk.len = p->tk_len;
	memcpy(sm->tk.key, p->tk, p->tk_len);
	sm->stats.ptk_installs++;
	/* The temporary PTK becomes the PTK; the old one is gone. */
	sm->ptk = sm->tptk;
	memcpy(sm->ptk_anonce, sm->anonce, NONCE_LEN);
	sm->have_ptk = true;
	sm->request_counter = 0;
	return 0;
}

static int send_msg4(struct rsn_supp *sm, const struct rsn_key_rx *rx,
		     const struct crypto_ptk *ptk)
{
	struct rsn_key_tx tx = {
		.key_info = EAPOL_KEY_INFO_PAIRWISE | EAPOL_KEY_INFO_MIC | EAPOL_KEY_INFO_SECURE,
		.replay_counter = rx->key.replay_counter,
	};

	note_version(sm, rx);
	return send_key(sm, &tx, ptk);
}

/* After the MIC: key data, RSNE, message 4, then the keys. */
static int msg3_finish(struct rsn_supp *sm, const struct rsn_key_rx *rx,
		       struct crypto_ptk *ptk, bool fresh, uint8_t *plain)
{
	struct kde_set kde;
	int ret = open_key_data(sm, rx, ptk, plain, &kde);

	if (ret)
		return ret;
	enum rsn_elem_check elems = msg3_elems_check(sm, &kde);
	if (elems != RSN_ELEMS_MATCH) {
		const struct rsn_config *cfg = &sm->conf.cfg;
		log_hex("RSNE heard", cfg->ap_rsne, cfg->ap_rsne_len);
		log_hex("RSNE in message 3", kde.rsn_elem[0], kde.n_rsn ? kde.rsn_elem_len[0] : 0);
		log_hex("RSNXE heard", cfg->ap_rsnxe, cfg->ap_rsnxe_len);
		log_hex("RSNXE in message 3", kde.rsnxe_elem, kde.rsnxe_elem_len);
		fail(sm, RSN_FAIL_IE_MISMATCH, WLAN_REASON_IE_IN_4WAY_DIFFERS,
		     rsn_elems_text(elems, 3));
		return RSN_RX_E_IE_MISMATCH;
	}
	if (send_msg4(sm, rx, ptk)) {
		fail(sm, RSN_FAIL_INTERNAL, WLAN_REASON_UNSPECIFIED, "cannot build message 4");
		return RSN_RX_E_INTERNAL;
	}
	if ((fresh && install_ptk(sm)) || install_group_keys(sm, &kde, rx->key.rsc)) {
		fail(sm, RSN_FAIL_INSTALL, WLAN_REASON_UNSPECIFIED, "the driver refused a key");
		return RSN_RX_E_INTERNAL;
	}
	if (kde.has_transition_disable && sm->ops.on_transition_disable)
		sm->ops.on_transition_disable(sm->ctx, kde.transition_disable);
	if (!fresh) {
		log_debug("%s: message 3 retransmitted; message 4 sent again", sm->peer);
		return RSN_RX_OK;
	}
	if (sm->state == RSN_SUPP_STATE_REKEYING) {
		sm->stats.rekeys++;
		log_info("%s: PTK rekeyed", sm->peer);
	}
	enter_state(sm, RSN_SUPP_STATE_ESTABLISHED);
	return RSN_RX_OK;
}

static int handle_msg3(struct rsn_supp *sm, const struct rsn_key_rx *rx)
{
	uint8_t plain[RSN_KEY_DATA_MAX];
	const struct eapol_key *k = &rx->key;
	struct crypto_ptk *ptk;
	bool fresh = false;
	int ret;

	if (!k->info.install || !k->info.secure || !k->info.encrypted)
		return drop(sm, RSN_RX_E_KEY_INFO, "message 3");
	ptk = msg3_ptk(sm, k->nonce, &fresh);
	if (!ptk) {
		bool started = sm->state != RSN_SUPP_STATE_IDLE &&
			       sm->state != RSN_SUPP_STATE_WAIT_MSG1;
		return drop(sm, started ? RSN_RX_E_NONCE : RSN_RX_E_STATE, "message 3");
	}
	ret = msg3_mic(sm, rx, ptk, fresh);
	if (ret)
		return drop(sm, ret, "message 3");
	sm->replay = k->replay_counter;
	sm->have_replay = true;
	ret = msg3_finish(sm, rx, ptk, fresh, plain);
	crypto_zero(plain, sizeof(plain));
	if (ret)
		sm->stats.rx_dropped++;
	return ret;
}

/* ---- group key handshake ---------------------------------------------- */

static int handle_group_msg1(struct rsn_supp *sm, const struct rsn_key_rx *rx)
{
	uint8_t plain[RSN_KEY_DATA_MAX];
	const struct eapol_key *k = &rx->key;
	struct kde_set kde;
	int ret;

	if (sm->state != RSN_SUPP_STATE_ESTABLISHED && sm->state != RSN_SUPP_STATE_REKEYING)
		return drop(sm, RSN_RX_E_STATE, "group message 1");
	if (!k->info.secure || !k->info.encrypted || k->info.install)
		return drop(sm, RSN_RX_E_KEY_INFO, "group message 1");
	ret = rsn_key_verify_mic(&sm->suite, &sm->ptk, rx);
	if (ret) {
		sm->stats.mic_failures += ret == RSN_RX_E_MIC;
		return drop(sm, ret, "group message 1");
	}
	sm->replay = k->replay_counter;
	sm->have_replay = true;
	ret = open_key_data(sm, rx, &sm->ptk, plain, &kde);
	if (!ret && install_group_keys(sm, &kde, k->rsc)) {
		fail(sm, RSN_FAIL_INSTALL, WLAN_REASON_UNSPECIFIED, "the driver refused a group key");
		ret = RSN_RX_E_INTERNAL;
	}
	crypto_zero(plain, sizeof(plain));
	if (ret) {
		sm->stats.rx_dropped++;
		return ret;
	}
	struct rsn_key_tx tx = {
		.key_info = EAPOL_KEY_INFO_MIC | EAPOL_KEY_INFO_SECURE,
		.replay_counter = k->replay_counter,
	};
	note_version(sm, rx);
	if (send_key(sm, &tx, &sm->ptk)) {
		fail(sm, RSN_FAIL_INTERNAL, WLAN_REASON_UNSPECIFIED, "cannot build group message 2");
		return RSN_RX_E_INTERNAL;
	}
	log_debug("%s: group key handshake answered", sm->peer);
	return RSN_RX_OK;
}

/* ---- entry points ----------------------------------------------------- */

int rsn_supp_mic_failure_report(struct rsn_supp *sm, bool pairwise)
{
	if (!sm->have_ptk)
		return -ENOTCONN;
	struct rsn_key_tx tx = {
		.key_info = EAPOL_KEY_INFO_MIC | EAPOL_KEY_INFO_SECURE | EAPOL_KEY_INFO_ERROR |
			    EAPOL_KEY_INFO_REQUEST | (pairwise ? EAPOL_KEY_INFO_PAIRWISE : 0),
		.replay_counter = sm->request_counter++,
	};
	log_warn("%s: Michael MIC failure (%s): reporting it", sm->peer,
		 pairwise ? "pairwise" : "group");
	return send_key(sm, &tx, &sm->ptk);
}

static void hold(struct rsn_supp *sm)
{
	sm->depth++;
}

static void destroy(struct rsn_supp *sm)
{
	loop_timer_free(sm->timer);
	rsn_conf_clear(&sm->conf);
	crypto_zero(sm, sizeof(*sm));
	free(sm);
}

static void release(struct rsn_supp *sm)
{
	if (--sm->depth == 0 && sm->free_pending)
		destroy(sm);
}

static int rx_frame(struct rsn_supp *sm, const uint8_t *frame, size_t len)
{
	struct rsn_key_rx rx;
	int ret;

	if (sm->state == RSN_SUPP_STATE_FAILED)
		return drop(sm, RSN_RX_E_STOPPED, "EAPOL frame");
	ret = rsn_key_parse(&sm->suite, frame, len, &rx, sm->peer);
	if (ret)
		return drop(sm, ret, "EAPOL frame");
	const struct eapol_key_info *ki = &rx.key.info;
	/* Requests, errors and frames without Ack come from supplicants. */
	if (ki->request || ki->error || ki->smk || !ki->ack)
		return drop(sm, RSN_RX_E_KEY_INFO, "EAPOL-Key frame");
	if (sm->have_replay && rx.key.replay_counter <= sm->replay)
		return drop(sm, RSN_RX_E_REPLAY, "EAPOL-Key frame");
	if (ki->pairwise)
		ret = ki->mic ? handle_msg3(sm, &rx) : handle_msg1(sm, &rx);
	else if (ki->mic)
		ret = handle_group_msg1(sm, &rx);
	else
		return drop(sm, RSN_RX_E_KEY_INFO, "group EAPOL-Key frame");
	if (!ret)
		sm->stats.rx_accepted++;
	return ret;
}

int rsn_supp_rx_eapol(struct rsn_supp *sm, const uint8_t *frame, size_t len)
{
	hold(sm);
	int ret = rx_frame(sm, frame, len);
	release(sm);
	return ret;
}

static void on_timer(struct loop_timer *timer, void *data)
{
	struct rsn_supp *sm = data;

	hold(sm);
	switch (sm->state) {
	case RSN_SUPP_STATE_WAIT_MSG1:
		fail(sm, RSN_FAIL_TIMEOUT, WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT,
		     "no message 1 from the AP");
		break;
	case RSN_SUPP_STATE_WAIT_MSG3:
		fail(sm, RSN_FAIL_LIKELY_WRONG_PASSPHRASE, WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT,
		     sm->msg3_mic_failures ? "message 3 MIC did not verify"
					   : "no message 3 after our message 2");
		break;
	case RSN_SUPP_STATE_REKEYING:
		log_info("%s: PTK rekey did not complete; keeping the current PTK", sm->peer);
		enter_state(sm, RSN_SUPP_STATE_ESTABLISHED);
		break;
	case RSN_SUPP_STATE_IDLE:
	case RSN_SUPP_STATE_ESTABLISHED:
	case RSN_SUPP_STATE_FAILED:
		break;
	}
	release(sm);
}

struct rsn_supp *rsn_supp_new(struct loop *loop, const struct rsn_config *cfg,
			      const struct rsn_ops *ops, void *ctx)
{
	struct rsn_supp *sm;

	if (!loop || !cfg || !ops || !ops->send_eapol || !ops->install_ptk ||
	    !ops->install_gtk || !ops->set_port_authorized || !ops->on_complete ||
	    !ops->on_failure)
		return NULL;
	sm = calloc(1, sizeof(*sm));
	if (!sm)
		return NULL;
	char addr[RSN_ADDR_STR_LEN];
	snprintf(sm->peer, sizeof(sm->peer), "AP %s", rsn_addr_str(cfg->peer_addr, addr));
	if (rsn_suite_init(&sm->suite, cfg) || rsn_conf_copy(&sm->conf, cfg)) {
		log_error("%s: unsupported or invalid RSN configuration", sm->peer);
		destroy(sm);
		return NULL;
	}
	sm->timer = loop_timer_new(loop, on_timer, sm);
	if (!sm->timer) {
		destroy(sm);
		return NULL;
	}
	sm->ops = *ops;
	sm->ctx = ctx;
	sm->eapol_version = cfg->eapol_version ? cfg->eapol_version : EAPOL_VERSION_2004;
	sm->state = RSN_SUPP_STATE_IDLE;
	return sm;
}

void rsn_supp_free(struct rsn_supp *sm)
{
	if (!sm)
		return;
	if (sm->depth) {
		sm->free_pending = true;
		return;
	}
	destroy(sm);
}

void rsn_supp_start(struct rsn_supp *sm)
{
	hold(sm);
	deauthorize(sm);
	forget_keys(sm);
	enter_state(sm, RSN_SUPP_STATE_WAIT_MSG1);
	release(sm);
}

int rsn_supp_set_pmk(struct rsn_supp *sm, const uint8_t *pmk, size_t len,
		     const uint8_t *pmkid)
{
	if (sm->state == RSN_SUPP_STATE_WAIT_MSG3 || sm->state == RSN_SUPP_STATE_REKEYING)
		return -EBUSY; /* the temporary PTK comes from the PMK in use */
	return rsn_conf_set_pmk(&sm->conf, pmk, len, pmkid);
}

bool rsn_supp_msg1_pmkid(const struct rsn_supp *sm, uint8_t pmkid[RSN_PMKID_LEN])
{
	if (sm->have_msg1_pmkid)
		memcpy(pmkid, sm->msg1_pmkid, RSN_PMKID_LEN);
	return sm->have_msg1_pmkid;
}

void rsn_supp_stop(struct rsn_supp *sm)
{
	hold(sm);
	deauthorize(sm);
	enter_state(sm, RSN_SUPP_STATE_IDLE);
	release(sm);
}

enum rsn_supp_state rsn_supp_state(const struct rsn_supp *sm)
{
	return sm->state;
}

const struct rsn_supp_stats *rsn_supp_stats(const struct rsn_supp *sm)
{
	return &sm->stats;
}
