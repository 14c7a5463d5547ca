/* SAE (IEEE 802.11-2020 12.4) as an authentication protocol; see
 * auth_sae.h. The cryptography is daemon/crypto/sae.h; the frames are
 * daemon/codec/sae.h; this file is the protocol machine of 12.4.8.6 for
 * the station (the initiator in an infrastructure BSS) and the AP, which
 * answers each of the station's frames with one of its own:
 *
 *   station                               AP
 *   commit  ------------------------->    NOTHING -> COMMITTED
 *   COMMITTED  <--------------------- commit
 *   confirm ------------------------->    verify: COMMITTED -> ACCEPTED
 *   CONFIRMED  <--------------------- confirm
 *   verify: ACCEPTED
 */
#define LOG_TAG "sae"
#include "daemon/rsn/auth_sae.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/sae.h"
#include "daemon/core/log.h"
#include "daemon/crypto/hash.h"
#include "daemon/crypto/sae.h"
#include "daemon/crypto/secure.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sae_sess {
	enum sae_state state;
	const struct auth_sae_conf *conf;
	struct sae_crypto *crypto;
	int group;
	size_t group_idx; /* station: index into conf->groups */
	bool h2e;
	const struct sae_password *pw;
	uint8_t scalar[SAE_MAX_ORDER_LEN];
	uint8_t element[2 * SAE_MAX_PRIME_LEN];
	size_t scalar_len, element_len;
	uint8_t token[SAE_CODEC_MAX_TOKEN];
	size_t token_len;
	unsigned tokens_taken;
	uint16_t rejected[SAE_CODEC_MAX_REJECTED];
	size_t n_rejected;
	uint16_t send_confirm;
	uint16_t peer_send_confirm;
	unsigned sync;
	bool counted_pending; /* AP: counted in clog->pending */
	/* Station: since our first confirm the AP restarted the exchange or
	 * asked for a token again (it is busy and forgot us, not checking
	 * our confirm), so its silence after our confirms is congestion,
	 * not a failed check of our password. A resend of the same commit
	 * proves nothing: an AP that drops failed confirms keeps resending
	 * its commit. */
	bool heard_in_confirmed;
	/* Station: the AP restarted the exchange while we were Confirmed;
	 * a refusal may answer a confirm keyed to its older commit. */
	bool ap_restarted;
	/* The peer's last commit as group, scalar and element (not the
	 * token: the same commit comes again with a token after a token
	 * request, and late copies without it), to tell a retransmission
	 * from a new commit. */
	uint8_t peer_commit[2 + SAE_MAX_ORDER_LEN + 2 * SAE_MAX_PRIME_LEN];
	size_t peer_commit_len;
};

static struct sae_sess *priv(const struct auth_sess *s)
{
	return s->priv;
}

static unsigned retrans_base(const struct sae_sess *p)
{
	return p->conf->retrans_ms ? p->conf->retrans_ms : AUTH_SAE_RETRANS_MS;
}

const char *sae_state_name(enum sae_state s)
{
	switch (s) {
	case SAE_STATE_NOTHING:
		return "nothing";
	case SAE_STATE_COMMITTED:
		return "committed";
	case SAE_STATE_CONFIRMED:
		return "confirmed";
	case SAE_STATE_ACCEPTED:
		return "accepted";
	}
	return "unknown";
}

const char *sae_pwe_mode_name(enum sae_pwe_mode m)
{
	switch (m) {
	case SAE_PWE_HUNT_AND_PECK:
		return "hunt-and-peck";
	case SAE_PWE_H2E:
		return "h2e";
	case SAE_PWE_BOTH:
		return "both";
	}
	return "unknown";
}

int sae_pwe_mode_parse(const char *s, enum sae_pwe_mode *out)
{
	static const enum sae_pwe_mode all[] = { SAE_PWE_HUNT_AND_PECK, SAE_PWE_H2E,
						 SAE_PWE_BOTH };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (s && strcmp(s, sae_pwe_mode_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	return -EINVAL;
}

void auth_sae_conf_init(struct auth_sae_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->groups[0] = 19;
	c->groups[1] = 20;
	c->groups[2] = 21;
	c->n_groups = 3;
	c->pwe = SAE_PWE_BOTH;
}

void auth_sae_conf_clear(struct auth_sae_conf *c)
{
	crypto_zero(c->passwords, sizeof(c->passwords));
	c->n_passwords = 0;
}

int auth_sae_conf_add_password(struct auth_sae_conf *c, const char *password, const char *id)
{
	size_t n = password ? strlen(password) : 0;
	size_t idn = id ? strlen(id) : 0;
	if (c->n_passwords >= AUTH_SAE_MAX_PASSWORDS || n == 0 || n > AUTH_SAE_PASSWORD_MAX ||
	    idn > AUTH_SAE_PW_ID_MAX)
		return -EINVAL;
	struct sae_password *p = &c->passwords[c->n_passwords++];
	memcpy(p->password, password, n);
	p->password_len = n;
	p->has_id = id != NULL;
	if (id)
		memcpy(p->id, id, idn);
	p->id_len = idn;
	return 0;
}

enum sae_state auth_sae_state(const struct auth_sess *s)
{
	return s && s->proto == &auth_sae && s->priv ? priv(s)->state : SAE_STATE_NOTHING;
}

/* What identifies a commit: group, scalar and element, into out. */
static size_t commit_key(const struct sae_commit_msg *c, uint8_t *out, size_t cap)
{
	size_t n = 2 + c->scalar_len + c->element_len;
	if (n > cap)
		return 0;
	put_le16(out, c->group);
	memcpy(out + 2, c->scalar, c->scalar_len);
	memcpy(out + 2 + c->scalar_len, c->element, c->element_len);
	return n;
}

/* The commit c is the one this session took (a copy, with or without a
 * token). */
static bool is_peer_commit(const struct sae_sess *p, const struct sae_commit_msg *c)
{
	uint8_t key[sizeof(p->peer_commit)];
	size_t n = commit_key(c, key, sizeof(key));
	return n && n == p->peer_commit_len && memcmp(key, p->peer_commit, n) == 0;
}

bool auth_sae_same_commit(const struct auth_sess *s, const uint8_t *body, size_t len)
{
	const struct sae_sess *p = s && s->proto == &auth_sae ? s->priv : NULL;
	struct sae_commit_msg c;
	return p && p->state != SAE_STATE_NOTHING && p->peer_commit_len &&
	       sae_commit_parse(body, len, p->h2e, &c) == CODEC_OK && is_peer_commit(p, &c);
}

int auth_sae_group(const struct auth_sess *s)
{
	return s && s->proto == &auth_sae && s->priv ? priv(s)->group : 0;
}

bool auth_sae_h2e(const struct auth_sess *s)
{
	return s && s->proto == &auth_sae && s->priv && priv(s)->h2e;
}

/* ---- anti-clogging (12.4.6) ---- */

void sae_clog_init(struct sae_clog *c, uint64_t (*now_us)(void *), void *data)
{
	memset(c, 0, sizeof(*c));
	c->threshold = AUTH_SAE_CLOG_THRESHOLD;
	c->now_us = now_us;
	c->now_data = data;
}

void sae_clog_clear(struct sae_clog *c)
{
	crypto_zero(c->secret, sizeof(c->secret));
	crypto_zero(c->prev_secret, sizeof(c->prev_secret));
	c->have_secret = false;
}

/* A fresh secret every AUTH_SAE_SECRET_ROTATE_S; tokens of the previous
 * one stay good until the next rotation. */
static int clog_rotate(struct sae_clog *c)
{
	uint64_t now = c->now_us ? c->now_us(c->now_data) : 0;
	uint64_t period = AUTH_SAE_SECRET_ROTATE_S * 1000000ull;
	if (c->have_secret && now - c->rotated_at_us < period)
		return 0;
	/* Two periods or more: the previous secret is too old as well. */
	bool both = !c->have_secret || now - c->rotated_at_us >= 2 * period;
	memcpy(c->prev_secret, c->secret, sizeof(c->secret));
	if (crypto_random(c->secret, sizeof(c->secret)) < 0)
		return -EIO;
	if (both)
		memcpy(c->prev_secret, c->secret, sizeof(c->secret));
	c->have_secret = true;
	c->rotated_at_us = now;
	return 0;
}

/* token = HMAC-SHA-256(secret, peer address): stateless, per peer. */
static int clog_token(const uint8_t secret[32], const uint8_t peer[6], uint8_t out[32])
{
	return crypto_hmac_sha256(secret, 32, peer, 6, out);
}

static bool clog_token_ok(struct sae_clog *c, const uint8_t peer[6], const uint8_t *tok,
			  size_t len)
{
	uint8_t want[32];
	bool ok = false;
	if (len != AUTH_SAE_TOKEN_LEN || !c->have_secret)
		return false;
	if (clog_token(c->secret, peer, want) == 0 && crypto_memeq(want, tok, len))
		ok = true;
	if (!ok && clog_token(c->prev_secret, peer, want) == 0 && crypto_memeq(want, tok, len))
		ok = true;
	crypto_zero(want, sizeof(want));
	return ok;
}

/* ---- the one transition function ---- */

static void sae_enter(struct auth_sess *s, enum sae_state next)
{
	struct sae_sess *p = priv(s);
	struct sae_clog *clog = s->role == AUTH_ROLE_AP ? p->conf->clog : NULL;
	char a[RSN_ADDR_STR_LEN];

	rsn_addr_str(s->peer_addr, a);
	log_debug("%s: %s -> %s", a, sae_state_name(p->state),
		  sae_state_name(next));
	if (next != p->state)
		p->sync = 0;
	p->state = next;
	switch (next) {
	case SAE_STATE_ACCEPTED:
		log_info("%s: SAE accepted (group %d, %s)", a, p->group,
			 p->h2e ? "hash-to-element" : "hunting-and-pecking");
		/* fall through */
	case SAE_STATE_NOTHING:
	case SAE_STATE_CONFIRMED:
		if (clog && p->counted_pending) {
			clog->pending--;
			p->counted_pending = false;
		}
		break;
	case SAE_STATE_COMMITTED:
		if (clog && !p->counted_pending) {
			clog->pending++;
			p->counted_pending = true;
		}
		break;
	}
}

/* ---- shared steps ---- */

static int new_crypto(struct sae_sess *p, int group, const struct auth_sess *s)
{
	int err = 0;
	sae_crypto_free(p->crypto);
	p->crypto = sae_crypto_new(group, &err);
	if (!p->crypto)
		return err ? err : -ENOMEM;
	p->group = group;
	const struct sae_password *pw = p->pw;
	if (p->h2e) {
		const struct sae_pt *pt;
		struct sae_pt *own = NULL;
		if (p->conf->pt_cache) {
			pt = sae_pt_cache_get(p->conf->pt_cache, group, p->conf->ssid,
					      p->conf->ssid_len, pw, &err);
		} else {
			own = sae_pt_derive(group, p->conf->ssid, p->conf->ssid_len, pw->password,
					    pw->password_len, pw->has_id ? pw->id : NULL,
					    pw->id_len, &err);
			pt = own;
		}
		if (!pt)
			return err ? err : -EIO;
		err = sae_crypto_pwe_h2e(p->crypto, pt, s->own_addr, s->peer_addr);
		sae_pt_free(own);
		return err;
	}
	return sae_crypto_pwe_hnp(p->crypto, s->own_addr, s->peer_addr, pw->password,
				  pw->password_len, pw->has_id ? pw->id : NULL, pw->id_len);
}

/* Draws our scalar and element for the current group. */
static int draw_commit(struct sae_sess *p)
{
	p->scalar_len = sae_group_order_len(p->group);
	p->element_len = 2 * sae_group_prime_len(p->group);
	int err = sae_crypto_commit(p->crypto, p->scalar, sizeof(p->scalar), p->element,
				    sizeof(p->element));
	return err < 0 ? err : 0;
}

/* Our commit as a frame: transaction 1, status 0 or 126. */
static enum auth_step out_commit(struct auth_sess *s, struct auth_out *out)
{
	struct sae_sess *p = priv(s);
	struct wbuf w = wbuf_init(out->body, sizeof(out->body));
	struct sae_commit_msg c = {
		.group = (uint16_t)p->group,
		.h2e = p->h2e,
		.token = p->token_len ? p->token : NULL,
		.token_len = s->role == AUTH_ROLE_STA ? p->token_len : 0,
		.scalar = p->scalar,
		.scalar_len = p->scalar_len,
		.element = p->element,
		.element_len = p->element_len,
	};
	if (p->pw && p->pw->has_id) { /* both roles: the AP echoes it */
		c.pw_id = p->pw->id;
		c.pw_id_len = p->pw->id_len;
	}
	if (s->role == AUTH_ROLE_STA && p->h2e) {
		memcpy(c.rejected, p->rejected, p->n_rejected * sizeof(p->rejected[0]));
		c.n_rejected = p->n_rejected;
	}
	if (sae_commit_build(&w, &c) != CODEC_OK)
		return AUTH_STEP_FAILED;
	out->seq = 1;
	out->status = p->h2e ? WLAN_STATUS_SAE_HASH_TO_ELEMENT : WLAN_STATUS_SUCCESS;
	out->body_len = w.len;
	return AUTH_STEP_SEND;
}

static enum auth_step out_confirm(struct auth_sess *s, struct auth_out *out)
{
	struct sae_sess *p = priv(s);
	uint8_t conf[SAE_MAX_HASH_LEN];
	size_t n = sae_crypto_confirm_len(p->crypto);
	if (n == 0 || n > sizeof(conf) ||
	    sae_crypto_confirm(p->crypto, p->send_confirm, conf, sizeof(conf)) < 0)
		return AUTH_STEP_FAILED;
	struct wbuf w = wbuf_init(out->body, sizeof(out->body));
	int err = sae_confirm_build(&w, p->send_confirm, conf, n);
	crypto_zero(conf, sizeof(conf));
	if (err != CODEC_OK)
		return AUTH_STEP_FAILED;
	out->seq = 2;
	out->status = WLAN_STATUS_SUCCESS;
	out->body_len = w.len;
	return AUTH_STEP_SEND;
}

/* The peer's commit into the key schedule. */
/* The peer's commit into the key schedule; on success it is the one
 * this session took (is_peer_commit). */
static int take_commit(struct sae_sess *p, const struct sae_commit_msg *c)
{
	int err = sae_crypto_process_commit(p->crypto, c->scalar, c->scalar_len, c->element,
					    c->element_len, p->h2e,
					    p->h2e ? c->rejected_raw : NULL,
					    p->h2e ? c->rejected_raw_len : 0);
	if (err == 0)
		p->peer_commit_len = commit_key(c, p->peer_commit, sizeof(p->peer_commit));
	return err;
}

/* The peer's confirm; on success the PMK and PMKID go to the session. */
static int take_confirm(struct auth_sess *s, const struct sae_confirm_msg *m)
{
	struct sae_sess *p = priv(s);
	int err = sae_crypto_verify_confirm(p->crypto, m->send_confirm, m->confirm,
					    m->confirm_len);
	if (err < 0)
		return err;
	p->peer_send_confirm = m->send_confirm;
	const uint8_t *pmk = sae_crypto_pmk(p->crypto);
	if (!pmk)
		return -EIO;
	return auth_sess_set_pmk(s, pmk, SAE_PMK_LEN, sae_crypto_pmkid(p->crypto));
}

static enum auth_step fail(struct auth_sess *s, uint16_t status, const char *why)
{
	char a[RSN_ADDR_STR_LEN];
	log_info("%s: SAE failed: %s (status %u)", rsn_addr_str(s->peer_addr, a), why, status);
	s->status = status;
	sae_enter(s, SAE_STATE_NOTHING);
	return AUTH_STEP_FAILED;
}

/* ---- station ---- */

/* Starts (or restarts after status 77) with the group at group_idx. */
static enum auth_step sta_commit_group(struct auth_sess *s, struct auth_out *out)
{
	struct sae_sess *p = priv(s);
	int err;
	while (p->group_idx < p->conf->n_groups) {
		int g = p->conf->groups[p->group_idx];
		if (sae_group_supported(g))
			break;
		p->group_idx++;
	}
	if (p->group_idx >= p->conf->n_groups)
		return fail(s, WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED, "no group left");
	err = new_crypto(p, p->conf->groups[p->group_idx], s);
	if (err == 0)
		err = draw_commit(p);
	if (err < 0)
		return fail(s, WLAN_STATUS_UNSPECIFIED_FAILURE, "password element");
	sae_enter(s, SAE_STATE_COMMITTED);
	return out_commit(s, out);
}

static enum auth_step sta_start(struct auth_sess *s, struct auth_out *out)
{
	struct sae_sess *p = calloc(1, sizeof(*p));
	const struct auth_sae_conf *conf = s->ctx;
	if (!p || !conf || conf->n_passwords == 0) {
		free(p);
		s->status = WLAN_STATUS_UNSPECIFIED_FAILURE;
		return AUTH_STEP_FAILED;
	}
	if (s->priv)
		s->proto->free(s);
	s->priv = p;
	p->conf = conf;
	p->pw = &conf->passwords[0];
	p->h2e = conf->pwe == SAE_PWE_H2E;
	p->send_confirm = 0;
	s->retrans_ms = retrans_base(p);
	return sta_commit_group(s, out);
}

/* The AP's answer to our commit with a status other than success. */
static enum auth_step sta_commit_refused(struct auth_sess *s, const struct auth_msg *in,
					 struct auth_out *out)
{
	struct sae_sess *p = priv(s);
	switch (in->status) {
	case WLAN_STATUS_ANTI_CLOGGING_TOKEN_REQ: {
		const uint8_t *t;
		size_t tl;
		uint16_t g;
		if (sae_token_req_parse(in->body, in->body_len, p->h2e, &g, &t, &tl) != CODEC_OK ||
		    g != p->group || p->tokens_taken >= AUTH_SAE_SYNC_MAX)
			return AUTH_STEP_IGNORE;
		/* The token we hold: the answer to a copy of our commit sent
		 * before the first request. Our commit with it is already out
		 * (our timer resends it if lost); another would only add
		 * frames to a congested AP's queue. */
		if (tl == p->token_len && crypto_memeq(t, p->token, tl))
			return AUTH_STEP_IGNORE;
		memcpy(p->token, t, tl);
		p->token_len = tl;
		p->tokens_taken++;
		return out_commit(s, out); /* the same commit, with the token */
	}
	case WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED: {
		uint16_t g;
		/* The refusal names our group (hostapd echoes it); an answer
		 * naming another is stale. */
		if (sae_body_group(in->body, in->body_len, &g) == CODEC_OK && g != p->group)
			return AUTH_STEP_IGNORE;
		if (p->n_rejected < SAE_CODEC_MAX_REJECTED)
			p->rejected[p->n_rejected++] = (uint16_t)p->group;
		p->group_idx++;
		p->token_len = 0;
		return sta_commit_group(s, out);
	}
	case WLAN_STATUS_UNKNOWN_PASSWORD_IDENTIFIER:
		return fail(s, in->status, "the AP does not know our password identifier");
	default:
		return fail(s, in->status, "the AP refused our commit");
	}
}

static enum auth_step sta_rx_commit(struct auth_sess *s, const struct auth_msg *in,
				    struct auth_out *out)
{
	struct sae_sess *p = priv(s);
	struct sae_commit_msg c;
	uint16_t want = p->h2e ? WLAN_STATUS_SAE_HASH_TO_ELEMENT : WLAN_STATUS_SUCCESS;

	if (in->status != want) {
		if (p->state == SAE_STATE_CONFIRMED)
			p->heard_in_confirmed = true; /* a late answer to a commit copy */
		if (p->state != SAE_STATE_COMMITTED)
			return AUTH_STEP_IGNORE;
		return sta_commit_refused(s, in, out);
	}
	if (sae_commit_parse(in->body, in->body_len, p->h2e, &c) != CODEC_OK ||
	    c.group != p->group)
		return AUTH_STEP_IGNORE; /* 12.4.8.6.4: silently discarded */
	if (p->state == SAE_STATE_CONFIRMED) {
		if (++p->sync > AUTH_SAE_SYNC_MAX)
			return fail(s, WLAN_STATUS_UNSPECIFIED_FAILURE, "sync limit");
		/* The AP resent its commit: our confirm was lost. A different
		 * commit: the AP started over from a copy of ours (it forgot
		 * the first exchange, e.g. under anti-clogging), and a confirm
		 * keyed to its old commit would fail its check as if the
		 * password were wrong: key ours to the new one. */
		if (!is_peer_commit(p, &c)) {
			int err = take_commit(p, &c);
			if (err == -EBADMSG)
				return AUTH_STEP_IGNORE;
			if (err < 0)
				return fail(s, WLAN_STATUS_UNSPECIFIED_FAILURE, "key schedule");
			p->ap_restarted = true;
			p->heard_in_confirmed = true;
		}
		p->send_confirm++;
		return out_confirm(s, out);
	}
	if (p->state != SAE_STATE_COMMITTED)
		return AUTH_STEP_IGNORE;
	int err = take_commit(p, &c);
	if (err == -EBADMSG)
		return AUTH_STEP_IGNORE; /* invalid or reflected: discarded */
	if (err < 0)
		return fail(s, WLAN_STATUS_UNSPECIFIED_FAILURE, "key schedule");
	p->heard_in_confirmed = false;
	s->retrans_ms = retrans_base(p); /* a confirm is answered at once */
	p->send_confirm = 1;
	sae_enter(s, SAE_STATE_CONFIRMED);
	return out_confirm(s, out);
}

static enum auth_step sta_rx_confirm(struct auth_sess *s, const struct auth_msg *in)
{
	struct sae_sess *p = priv(s);
	struct sae_confirm_msg m;

	if (p->state != SAE_STATE_CONFIRMED)
		return AUTH_STEP_IGNORE;
	if (in->status != WLAN_STATUS_SUCCESS) {
		/* The AP could not verify our confirm: same PWE, different
		 * key - the password differs. Unless the AP started over
		 * while our confirm to its first commit was on its way. */
		s->bad_credential = !p->ap_restarted;
		return fail(s, in->status, "the AP refused our confirm");
	}
	if (sae_confirm_parse(in->body, in->body_len, sae_crypto_confirm_len(p->crypto), &m) != CODEC_OK)
		return AUTH_STEP_IGNORE;
	int err = take_confirm(s, &m);
	if (err == -EACCES) {
		/* Not keyed to this exchange: a wrong password, or the AP's
		 * late answer to a copy of the confirm of our previous exchange
		 * (its late commit to that one taken for the answer to our new
		 * commit). The frame cannot tell; discarded, as a frame that
		 * fails its check is. A wrong password still ends in the verdict
		 * of an AP that goes silent after our confirm (sae_timeout). */
		char a[RSN_ADDR_STR_LEN];
		log_info("%s: the AP's confirm does not verify: discarded",
			 rsn_addr_str(s->peer_addr, a));
		return AUTH_STEP_IGNORE;
	}
	if (err < 0)
		return fail(s, WLAN_STATUS_UNSPECIFIED_FAILURE, "confirm");
	sae_enter(s, SAE_STATE_ACCEPTED);
	return AUTH_STEP_DONE;
}

static enum auth_step sta_rx_auth(struct auth_sess *s, const struct auth_msg *in,
				  struct auth_out *out)
{
	if (!s->priv)
		return AUTH_STEP_IGNORE;
	switch (in->seq) {
	case 1:
		return sta_rx_commit(s, in, out);
	case 2:
		return sta_rx_confirm(s, in);
	default:
		return AUTH_STEP_IGNORE;
	}
}

static enum auth_step sae_timeout(struct auth_sess *s, struct auth_out *out)
{
	struct sae_sess *p = priv(s);
	if (!p || s->role != AUTH_ROLE_STA)
		return AUTH_STEP_FAILED;
	if (++p->sync > AUTH_SAE_SYNC_MAX) {
		/* Our commit was answered but our confirm never was: the AP
		 * dropped it, which is what a wrong password looks like to
		 * an AP that does not answer failed confirms -- unless the
		 * AP spoke since, still answering our commit. */
		if (p->state == SAE_STATE_CONFIRMED && !p->heard_in_confirmed)
			s->bad_credential = true;
		return fail(s, WLAN_STATUS_UNSPECIFIED_FAILURE, "no answer");
	}
	switch (p->state) {
	case SAE_STATE_COMMITTED:
		/* The AP's commit costs it the PWE (hunting-and-pecking takes
		 * seconds on a slow or loaded AP) and a busy AP queues ours:
		 * each copy adds to its queue, so wait longer each time. */
		if (s->retrans_ms < AUTH_SAE_COMMIT_RETRANS_MAX_MS)
			s->retrans_ms = s->retrans_ms * 2 < AUTH_SAE_COMMIT_RETRANS_MAX_MS
						? s->retrans_ms * 2
						: AUTH_SAE_COMMIT_RETRANS_MAX_MS;
		return out_commit(s, out);
	case SAE_STATE_CONFIRMED:
		p->send_confirm++;
		return out_confirm(s, out);
	case SAE_STATE_NOTHING:
	case SAE_STATE_ACCEPTED:
		break;
	}
	return AUTH_STEP_FAILED;
}

/* ---- AP ---- */

static const struct sae_password *ap_password(const struct auth_sae_conf *conf,
					      const struct sae_commit_msg *c)
{
	for (size_t i = 0; i < conf->n_passwords; i++) {
		const struct sae_password *pw = &conf->passwords[i];
		if (!c->pw_id && !pw->has_id)
			return pw;
		if (c->pw_id && pw->has_id && pw->id_len == c->pw_id_len &&
		    memcmp(pw->id, c->pw_id, c->pw_id_len) == 0)
			return pw;
	}
	return NULL;
}

static bool ap_group_ok(const struct auth_sae_conf *conf, int group)
{
	for (size_t i = 0; i < conf->n_groups; i++)
		if (conf->groups[i] == group)
			return sae_group_supported(group);
	return false;
}

static enum auth_step ap_refuse(struct auth_sess *s, struct auth_out *out, uint16_t status,
				const char *why)
{
	out->seq = 1;
	out->status = status;
	return fail(s, status, why);
}

/* 12.4.6: above the threshold of pending commits, a commit without a
 * valid token is answered with one (status 76) and forgotten. */
static bool ap_demand_token(struct auth_sess *s, const struct sae_commit_msg *c,
			    struct auth_out *out)
{
	struct sae_sess *p = priv(s);
	struct sae_clog *clog = p->conf->clog;
	uint8_t tok[AUTH_SAE_TOKEN_LEN];

	if (!clog || clog->pending < clog->threshold || clog_rotate(clog) < 0)
		return false;
	if (c->token && clog_token_ok(clog, s->peer_addr, c->token, c->token_len)) {
		clog->tokens_accepted++;
		return false;
	}
	if (clog_token(clog->secret, s->peer_addr, tok) < 0)
		return false;
	struct wbuf w = wbuf_init(out->body, sizeof(out->body));
	sae_token_req_build(&w, c->group, p->h2e, tok, sizeof(tok));
	out->body_len = w.bad ? 0 : w.len;
	clog->tokens_demanded++;
	return true;
}

/* The AP must not accept rejected groups it supports itself: the
 * station was talked out of them (12.4.5.4, the H2E downgrade check). */
static bool ap_downgraded(const struct auth_sae_conf *conf, const struct sae_commit_msg *c)
{
	for (size_t i = 0; i < c->n_rejected; i++)
		if (ap_group_ok(conf, c->rejected[i]))
			return true;
	return false;
}

/* The commit c can be taken by this instance as it is: same group, same
 * password element method and the same password (identifier). */
static bool ap_same_parameters(const struct sae_sess *p, bool h2e, const struct sae_commit_msg *c)
{
	return c->group == p->group && h2e == p->h2e && ap_password(p->conf, c) == p->pw;
}

/* A new commit from the station while ours is out (12.4.8.6.4: the
 * instance in Committed state processes it): the station started over,
 * e.g. its driver forgot the exchange, and it may already hold our commit
 * from a copy of its older one answered late. The instance takes the new
 * commit and answers with its own commit unchanged, so a confirm keyed to
 * any copy of ours verifies once the station's latest commit is taken;
 * a fresh commit of ours would fail that confirm (status 15, read as a
 * wrong password). No token: the instance exists, and tokens gate the
 * creation of instances (12.4.6). hostapd reuses its commit the same way. */
static enum auth_step ap_commit_again(struct auth_sess *s, const struct sae_commit_msg *c,
				      struct auth_out *out)
{
	struct sae_sess *p = priv(s);
	if (++p->sync > AUTH_SAE_SYNC_MAX)
		return ap_refuse(s, out, WLAN_STATUS_UNSPECIFIED_FAILURE, "sync limit");
	if (p->h2e && ap_downgraded(p->conf, c))
		return ap_refuse(s, out, WLAN_STATUS_UNSPECIFIED_FAILURE,
				 "rejected groups include one we support (downgrade)");
	int err = take_commit(p, c);
	if (err == -EBADMSG)
		return AUTH_STEP_IGNORE; /* invalid or reflected: discarded, ours stands */
	if (err < 0)
		return ap_refuse(s, out, WLAN_STATUS_UNSPECIFIED_FAILURE, "key schedule");
	return out_commit(s, out);
}

static enum auth_step ap_rx_commit(struct auth_sess *s, const struct auth_msg *in,
				   struct auth_out *out)
{
	struct sae_sess *p = priv(s);
	const struct auth_sae_conf *conf = p->conf;
	struct sae_commit_msg c;

	bool h2e = in->status == WLAN_STATUS_SAE_HASH_TO_ELEMENT;
	if ((in->status != WLAN_STATUS_SUCCESS && !h2e) ||
	    (h2e && conf->pwe == SAE_PWE_HUNT_AND_PECK) ||
	    (!h2e && conf->pwe == SAE_PWE_H2E))
		return ap_refuse(s, out, WLAN_STATUS_UNSPECIFIED_FAILURE, "PWE method not allowed");
	int perr = sae_commit_parse(in->body, in->body_len, h2e, &c);
	if (perr == CODEC_E_UNSUPPORTED || (perr == CODEC_OK && !ap_group_ok(conf, c.group))) {
		uint16_t g = 0;
		sae_body_group(in->body, in->body_len, &g);
		put_le16(out->body, g);
		out->body_len = 2;
		return ap_refuse(s, out, WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED,
				 "group not supported");
	}
	if (perr != CODEC_OK)
		return ap_refuse(s, out, WLAN_STATUS_UNSPECIFIED_FAILURE, "malformed commit");
	if (p->state == SAE_STATE_COMMITTED && is_peer_commit(p, &c)) {
		/* A retransmission (or a copy sent before our token request,
		 * late): our commit again. Not a new commit, so no token: the
		 * demand would forget this exchange under the confirm the
		 * station is about to send. */
		if (++p->sync > AUTH_SAE_SYNC_MAX)
			return ap_refuse(s, out, WLAN_STATUS_UNSPECIFIED_FAILURE, "sync limit");
		return out_commit(s, out);
	}
	if (p->state == SAE_STATE_ACCEPTED && is_peer_commit(p, &c))
		return AUTH_STEP_IGNORE; /* a late copy: a new exchange would void our keys */
	if (p->state == SAE_STATE_COMMITTED && ap_same_parameters(p, h2e, &c))
		return ap_commit_again(s, &c, out);
	p->h2e = h2e;
	if (ap_demand_token(s, &c, out)) {
		out->seq = 1;
		out->status = WLAN_STATUS_ANTI_CLOGGING_TOKEN_REQ;
		s->status = out->status;
		sae_enter(s, SAE_STATE_NOTHING);
		return AUTH_STEP_FAILED; /* sent, forgotten: no state kept */
	}
	if (h2e && ap_downgraded(conf, &c))
		return ap_refuse(s, out, WLAN_STATUS_UNSPECIFIED_FAILURE,
				 "rejected groups include one we support (downgrade)");
	if (!(p->pw = ap_password(conf, &c)))
		return ap_refuse(s, out, WLAN_STATUS_UNKNOWN_PASSWORD_IDENTIFIER,
				 "unknown password identifier");
	int err = new_crypto(p, c.group, s);
	if (err == 0)
		err = draw_commit(p);
	if (err == 0)
		err = take_commit(p, &c);
	if (err < 0)
		return ap_refuse(s, out, WLAN_STATUS_UNSPECIFIED_FAILURE,
				 err == -EBADMSG ? "invalid commit" : "key schedule");
	sae_enter(s, SAE_STATE_COMMITTED);
	return out_commit(s, out);
}

static enum auth_step ap_rx_confirm(struct auth_sess *s, const struct auth_msg *in,
				    struct auth_out *out)
{
	struct sae_sess *p = priv(s);
	struct sae_confirm_msg m;

	if (p->state == SAE_STATE_NOTHING ||
	    sae_confirm_parse(in->body, in->body_len, sae_crypto_confirm_len(p->crypto), &m) != CODEC_OK)
		return AUTH_STEP_IGNORE;
	if (p->state == SAE_STATE_ACCEPTED) {
		/* The station resent its confirm: ours was lost. */
		if (m.send_confirm <= p->peer_send_confirm || ++p->sync > AUTH_SAE_SYNC_MAX ||
		    sae_crypto_verify_confirm(p->crypto, m.send_confirm, m.confirm,
					      m.confirm_len) < 0)
			return AUTH_STEP_IGNORE;
		p->peer_send_confirm = m.send_confirm;
		return out_confirm(s, out);
	}
	int err = take_confirm(s, &m);
	if (err < 0) {
		out->seq = 2;
		out->status = WLAN_STATUS_CHALLENGE_FAIL;
		s->bad_credential = err == -EACCES;
		return fail(s, out->status, err == -EACCES ? "confirm does not verify (password?)"
							   : "confirm");
	}
	p->send_confirm = 1;
	sae_enter(s, SAE_STATE_ACCEPTED);
	return out_confirm(s, out) == AUTH_STEP_SEND ? AUTH_STEP_DONE : AUTH_STEP_FAILED;
}

static enum auth_step ap_rx_auth(struct auth_sess *s, const struct auth_msg *in,
				 struct auth_out *out)
{
	if (!s->priv) {
		struct sae_sess *p = calloc(1, sizeof(*p));
		if (!p || !s->ctx) {
			free(p);
			out->status = WLAN_STATUS_UNSPECIFIED_FAILURE;
			return AUTH_STEP_FAILED;
		}
		p->conf = s->ctx;
		s->priv = p;
	}
	switch (in->seq) {
	case 1:
		return ap_rx_commit(s, in, out);
	case 2:
		return ap_rx_confirm(s, in, out);
	default:
		out->status = WLAN_STATUS_UNKNOWN_AUTH_TRANSACTION;
		return AUTH_STEP_FAILED;
	}
}

void auth_sae_park(struct auth_sess *s)
{
	struct sae_sess *p = s && s->proto == &auth_sae ? s->priv : NULL;
	if (!p || p->state != SAE_STATE_ACCEPTED)
		return;
	sae_crypto_free(p->crypto);
	p->crypto = NULL;
	crypto_zero(s->pmk, sizeof(s->pmk));
	s->pmk_len = 0;
	s->have_pmkid = false;
}

static void sae_free(struct auth_sess *s)
{
	struct sae_sess *p = priv(s);
	if (!p)
		return;
	sae_enter(s, SAE_STATE_NOTHING); /* drops it from the pending count */
	sae_crypto_free(p->crypto);
	crypto_zero(p, sizeof(*p));
	free(p);
	s->priv = NULL;
}

const struct auth_proto auth_sae = {
	.algorithm = WLAN_AUTH_SAE,
	.name = "SAE",
	.sta_start = sta_start,
	.sta_rx_auth = sta_rx_auth,
	.ap_rx_auth = ap_rx_auth,
	.timeout = sae_timeout,
	.free = sae_free,
};
