/* The SAE protocol machine (daemon/rsn/auth_sae.c) with its two halves
 * wired back to back, no radio: every exchange is frames passed by hand,
 * so each state and status code is asserted where it happens. */
#include <check.h>
#include <string.h>

#include "daemon/codec/ieee80211.h"
#include "daemon/codec/sae.h"
#include "daemon/rsn/auth_proto.h"
#include "daemon/rsn/auth_sae.h"

static const uint8_t sta_addr[6] = { 2, 0, 0, 0, 2, 0 };
static const uint8_t ap_addr[6] = { 2, 0, 0, 0, 1, 0 };

struct pair {
	struct auth_sae_conf sc, ac;
	struct sae_clog clog;
	struct auth_sess *sta, *ap;
	struct auth_out out;
	uint64_t now;
};

static uint64_t fake_now(void *data)
{
	return ((struct pair *)data)->now;
}

static void pair_init(struct pair *p, const char *sta_pw, const char *ap_pw,
		      enum sae_pwe_mode sta_pwe, enum sae_pwe_mode ap_pwe)
{
	memset(p, 0, sizeof(*p));
	auth_sae_conf_init(&p->sc);
	auth_sae_conf_init(&p->ac);
	memcpy(p->sc.ssid, "byteme", 6);
	p->sc.ssid_len = 6;
	p->ac.ssid_len = 6;
	memcpy(p->ac.ssid, "byteme", 6);
	ck_assert_int_eq(auth_sae_conf_add_password(&p->sc, sta_pw, NULL), 0);
	ck_assert_int_eq(auth_sae_conf_add_password(&p->ac, ap_pw, NULL), 0);
	p->sc.pwe = sta_pwe;
	p->ac.pwe = ap_pwe;
	sae_clog_init(&p->clog, fake_now, p);
	p->ac.clog = &p->clog;
	p->sta = auth_sess_new(&auth_sae, AUTH_ROLE_STA, sta_addr, ap_addr);
	p->ap = auth_sess_new(&auth_sae, AUTH_ROLE_AP, ap_addr, sta_addr);
	p->sta->ctx = &p->sc;
	p->ap->ctx = &p->ac;
}

/* The AP side starts a new instance (it removed the old one, or the test
 * replays what a new station entry would do). */
static void pair_new_ap(struct pair *p)
{
	auth_sess_free(p->ap);
	p->ap = auth_sess_new(&auth_sae, AUTH_ROLE_AP, ap_addr, sta_addr);
	p->ap->ctx = &p->ac;
}

static void pair_free(struct pair *p)
{
	auth_sess_free(p->sta);
	auth_sess_free(p->ap);
	auth_sae_conf_clear(&p->sc);
	auth_sae_conf_clear(&p->ac);
	sae_clog_clear(&p->clog);
}

static struct auth_msg msg_of(const struct auth_out *o)
{
	struct auth_msg m = { .alg = WLAN_AUTH_SAE, .seq = o->seq, .status = o->status,
			      .body = o->body, .body_len = o->body_len };
	return m;
}

/* One frame from the station to the AP; returns the AP's step, its
 * answer in p->out. */
static enum auth_step to_ap(struct pair *p, const struct auth_out *o)
{
	struct auth_out copy = *o;
	struct auth_msg m = msg_of(&copy);
	return auth_ap_rx_auth(p->ap, &m, &p->out);
}

static enum auth_step to_sta(struct pair *p, const struct auth_out *o, struct auth_out *next)
{
	struct auth_out copy = *o;
	struct auth_msg m = msg_of(&copy);
	return auth_sta_rx_auth(p->sta, &m, next);
}

/* A whole exchange; returns the station's last step. */
static enum auth_step run(struct pair *p)
{
	struct auth_out s1, s2;
	ck_assert_int_eq(auth_sta_start(p->sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(auth_sae_state(p->sta), SAE_STATE_COMMITTED);
	enum auth_step a = to_ap(p, &s1);
	if (a != AUTH_STEP_SEND)
		return to_sta(p, &p->out, &s2);
	ck_assert_int_eq(auth_sae_state(p->ap), SAE_STATE_COMMITTED);
	ck_assert_int_eq(to_sta(p, &p->out, &s2), AUTH_STEP_SEND); /* our confirm */
	ck_assert_int_eq(auth_sae_state(p->sta), SAE_STATE_CONFIRMED);
	ck_assert_uint_eq(s2.seq, 2);
	a = to_ap(p, &s2);
	struct auth_out s3;
	return to_sta(p, &p->out, &s3);
}

START_TEST(hnp_and_h2e_agree)
{
	static const enum sae_pwe_mode modes[] = { SAE_PWE_HUNT_AND_PECK, SAE_PWE_H2E };
	for (size_t i = 0; i < 2; i++) {
		struct pair p;
		pair_init(&p, "mekmitasdigoat", "mekmitasdigoat", modes[i], SAE_PWE_BOTH);
		ck_assert_int_eq(run(&p), AUTH_STEP_DONE);
		ck_assert_int_eq(auth_sae_state(p.sta), SAE_STATE_ACCEPTED);
		ck_assert_int_eq(auth_sae_state(p.ap), SAE_STATE_ACCEPTED);
		ck_assert(p.ap->done && p.sta->done);
		ck_assert(auth_sae_h2e(p.sta) == (modes[i] == SAE_PWE_H2E));
		size_t l1, l2;
		const uint8_t *k1 = auth_sess_pmk(p.sta, &l1), *k2 = auth_sess_pmk(p.ap, &l2);
		ck_assert_ptr_nonnull(k1);
		ck_assert_uint_eq(l1, 32);
		ck_assert_uint_eq(l2, 32);
		ck_assert_mem_eq(k1, k2, 32);
		ck_assert(p.sta->have_pmkid && p.ap->have_pmkid);
		ck_assert_mem_eq(p.sta->pmkid, p.ap->pmkid, 16);
		ck_assert_uint_eq(p.clog.pending, 0);
		pair_free(&p);
	}
}
END_TEST

/* Groups 20 and 21, both methods: the confirm length follows the KCK
 * (32 octets with H&P, the group's hash with H2E). */
START_TEST(groups_20_and_21)
{
	static const int groups[] = { 20, 21 };
	static const enum sae_pwe_mode modes[] = { SAE_PWE_HUNT_AND_PECK, SAE_PWE_H2E };
	for (size_t g = 0; g < 2; g++) {
		for (size_t m = 0; m < 2; m++) {
			struct pair p;
			pair_init(&p, "mekmitasdigoat", "mekmitasdigoat", modes[m], SAE_PWE_BOTH);
			p.sc.groups[0] = groups[g];
			p.sc.n_groups = 1;
			ck_assert_int_eq(run(&p), AUTH_STEP_DONE);
			ck_assert_int_eq(auth_sae_group(p.ap), groups[g]);
			ck_assert_mem_eq(p.sta->pmk, p.ap->pmk, 32);
			pair_free(&p);
		}
	}
}
END_TEST

START_TEST(wrong_password_fails_at_the_confirm)
{
	struct pair p;
	pair_init(&p, "wrong password", "mekmitasdigoat", SAE_PWE_HUNT_AND_PECK, SAE_PWE_BOTH);
	ck_assert_int_eq(run(&p), AUTH_STEP_FAILED);
	ck_assert(p.sta->bad_credential);
	ck_assert(p.ap->bad_credential);
	ck_assert_uint_eq(p.out.status, WLAN_STATUS_CHALLENGE_FAIL);
	ck_assert_uint_eq(p.clog.pending, 0);
	pair_free(&p);
}
END_TEST

START_TEST(group_not_supported_then_next)
{
	struct pair p;
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_H2E, SAE_PWE_BOTH);
	p.sc.groups[0] = 21;
	p.sc.groups[1] = 19;
	p.sc.n_groups = 2;
	p.ac.groups[0] = 19;
	p.ac.n_groups = 1;
	struct auth_out s1, s2;
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(auth_sae_group(p.sta), 21);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_FAILED);
	ck_assert_uint_eq(p.out.status, WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED);
	/* The station moves to 19 and lists 21 as rejected (H2E). */
	ck_assert_int_eq(to_sta(&p, &p.out, &s2), AUTH_STEP_SEND);
	ck_assert_int_eq(auth_sae_group(p.sta), 19);
	struct sae_commit_msg c;
	ck_assert_int_eq(sae_commit_parse(s2.body, s2.body_len, true, &c), 0);
	ck_assert(c.has_rejected);
	ck_assert_uint_eq(c.rejected[0], 21);
	pair_free(&p);

	/* No group left: the station fails with 77. */
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_HUNT_AND_PECK, SAE_PWE_BOTH);
	p.sc.groups[0] = 20;
	p.sc.n_groups = 1;
	p.ac.groups[0] = 19;
	p.ac.n_groups = 1;
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_FAILED);
	ck_assert_int_eq(to_sta(&p, &p.out, &s2), AUTH_STEP_FAILED);
	ck_assert_uint_eq(p.sta->status, WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED);
	pair_free(&p);
}
END_TEST

/* The downgrade check: a station's Rejected Groups listing a group the AP
 * supports means someone refused it in the AP's name. */
START_TEST(rejected_group_the_ap_supports_is_refused)
{
	struct pair p;
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_H2E, SAE_PWE_BOTH);
	p.sc.groups[0] = 20;
	p.sc.groups[1] = 19;
	p.sc.n_groups = 2;
	struct auth_out s1, s2, forged = { .seq = 1,
					   .status = WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED };
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	/* An attacker answers 77 for group 20, which the AP supports. */
	ck_assert_int_eq(to_sta(&p, &forged, &s2), AUTH_STEP_SEND);
	ck_assert_int_eq(auth_sae_group(p.sta), 19);
	ck_assert_int_eq(to_ap(&p, &s2), AUTH_STEP_FAILED);
	ck_assert_uint_eq(p.out.status, WLAN_STATUS_UNSPECIFIED_FAILURE);
	pair_free(&p);
}
END_TEST

START_TEST(anti_clogging_token_round_trip)
{
	struct pair p;
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_HUNT_AND_PECK, SAE_PWE_BOTH);
	p.clog.pending = p.clog.threshold; /* as if others were pending */
	struct auth_out s1, s2;
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_FAILED);
	ck_assert_uint_eq(p.out.status, WLAN_STATUS_ANTI_CLOGGING_TOKEN_REQ);
	ck_assert_uint_eq(p.clog.tokens_demanded, 1);
	ck_assert_int_eq(auth_sae_state(p.ap), SAE_STATE_NOTHING);
	/* The station resends its commit with the token; the AP takes it. */
	ck_assert_int_eq(to_sta(&p, &p.out, &s2), AUTH_STEP_SEND);
	struct sae_commit_msg c;
	ck_assert_int_eq(sae_commit_parse(s2.body, s2.body_len, false, &c), 0);
	ck_assert_uint_eq(c.token_len, AUTH_SAE_TOKEN_LEN);
	ck_assert_int_eq(to_ap(&p, &s2), AUTH_STEP_SEND);
	ck_assert_uint_eq(p.clog.tokens_accepted, 1);
	ck_assert_uint_eq(p.clog.pending, p.clog.threshold + 1);
	/* A token for another address is refused: a new token request. */
	struct auth_sess *other = auth_sess_new(&auth_sae, AUTH_ROLE_AP, ap_addr,
						(const uint8_t[6]){ 2, 9, 9, 9, 9, 9 });
	other->ctx = &p.ac;
	struct auth_msg m = msg_of(&s2);
	struct auth_out o;
	ck_assert_int_eq(auth_ap_rx_auth(other, &m, &o), AUTH_STEP_FAILED);
	ck_assert_uint_eq(o.status, WLAN_STATUS_ANTI_CLOGGING_TOKEN_REQ);
	auth_sess_free(other);
	/* The secret rotates: a token of the secret before last is refused. */
	p.now += 2ull * AUTH_SAE_SECRET_ROTATE_S * 1000000ull + 1;
	pair_new_ap(&p);
	m = msg_of(&s2);
	ck_assert_int_eq(auth_ap_rx_auth(p.ap, &m, &o), AUTH_STEP_FAILED);
	ck_assert_uint_eq(o.status, WLAN_STATUS_ANTI_CLOGGING_TOKEN_REQ);
	pair_free(&p);
}
END_TEST

START_TEST(retransmission_and_sync_limit)
{
	struct pair p;
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_HUNT_AND_PECK, SAE_PWE_BOTH);
	struct auth_out s1, r;
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_uint_eq(p.sta->retrans_ms, AUTH_SAE_RETRANS_MS);
	for (unsigned i = 0; i < AUTH_SAE_SYNC_MAX; i++) {
		unsigned before = p.sta->retrans_ms;
		ck_assert_int_eq(auth_timeout(p.sta, &r), AUTH_STEP_SEND);
		/* An unanswered commit: the period doubles up to its cap. */
		ck_assert_uint_eq(p.sta->retrans_ms, before * 2 < AUTH_SAE_COMMIT_RETRANS_MAX_MS
							    ? before * 2
							    : AUTH_SAE_COMMIT_RETRANS_MAX_MS);
		ck_assert_uint_eq(r.body_len, s1.body_len);
		ck_assert_mem_eq(r.body, s1.body, s1.body_len); /* the same commit */
	}
	ck_assert_int_eq(auth_timeout(p.sta, &r), AUTH_STEP_FAILED);
	ck_assert(!p.sta->bad_credential);
	pair_free(&p);
}
END_TEST

/* A late copy of the station's commit (resent by its timer, delivered
 * after the AP accepted) is ignored: answering it with a new exchange
 * would change the AP's keys under the station's confirm. */
START_TEST(late_commit_copy_after_accept_is_ignored)
{
	struct pair p;
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_HUNT_AND_PECK, SAE_PWE_BOTH);
	struct auth_out s1, s2, s3;
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_sta(&p, &p.out, &s2), AUTH_STEP_SEND);
	to_ap(&p, &s2);
	ck_assert_int_eq(auth_sae_state(p.ap), SAE_STATE_ACCEPTED);
	struct auth_out ap_confirm = p.out;
	ck_assert(auth_sae_same_commit(p.ap, s1.body, s1.body_len));
	ck_assert(!auth_sae_same_commit(p.ap, s2.body, s2.body_len));
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_IGNORE);
	ck_assert_int_eq(auth_sae_state(p.ap), SAE_STATE_ACCEPTED);
	ck_assert_int_eq(to_sta(&p, &ap_confirm, &s3), AUTH_STEP_DONE); /* keys unchanged */
	pair_free(&p);
}
END_TEST

/* Anti-clogging on: the station's first commit (no token) is answered
 * with a token request, its copy with the token starts the exchange; then
 * a late copy of the first commit (resent by the station's timer before
 * the token request reached it) arrives. It is the same commit, so the
 * AP answers it as a retransmission: demanding a token again would drop
 * the exchange, the station's confirm would go unanswered and its SAE
 * would end in a "wrong password" (the bench's status-1 confirm
 * failures at 100 stations). */
START_TEST(late_tokenless_commit_copy_keeps_the_exchange)
{
	struct pair p;
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_H2E, SAE_PWE_BOTH);
	p.clog.pending = p.clog.threshold; /* as if others were pending */
	struct auth_out s1, s2, s3, s4, late;
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_FAILED);
	ck_assert_uint_eq(p.out.status, WLAN_STATUS_ANTI_CLOGGING_TOKEN_REQ);
	ck_assert_int_eq(to_sta(&p, &p.out, &s2), AUTH_STEP_SEND); /* with the token */
	ck_assert_int_eq(to_ap(&p, &s2), AUTH_STEP_SEND);
	ck_assert_int_eq(auth_sae_state(p.ap), SAE_STATE_COMMITTED);
	struct auth_out ap_commit = p.out;
	ck_assert(auth_sae_same_commit(p.ap, s1.body, s1.body_len));
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND); /* the late copy */
	ck_assert_uint_eq(p.out.status, WLAN_STATUS_SAE_HASH_TO_ELEMENT); /* our commit */
	ck_assert_uint_eq(p.clog.tokens_demanded, 1);
	ck_assert_int_eq(auth_sae_state(p.ap), SAE_STATE_COMMITTED);
	ck_assert_int_eq(to_sta(&p, &ap_commit, &s3), AUTH_STEP_SEND); /* the confirm */
	ck_assert_int_eq(to_ap(&p, &s3), AUTH_STEP_DONE);
	ck_assert_int_eq(to_sta(&p, &p.out, &s4), AUTH_STEP_DONE);
	/* After the accept the late copy is still ignored. */
	late = s1;
	ck_assert_int_eq(to_ap(&p, &late), AUTH_STEP_IGNORE);
	ck_assert_int_eq(auth_sae_state(p.ap), SAE_STATE_ACCEPTED);
	pair_free(&p);
}
END_TEST

/* A second token request carrying the token the station already holds
 * answers a tokenless copy of its commit sent before the first request:
 * its commit with that token is already out, so it sends nothing (a
 * commit per copy fed the 100-station bench's congestion). */
START_TEST(repeated_token_request_sends_nothing_more)
{
	struct pair p;
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_H2E, SAE_PWE_BOTH);
	p.clog.pending = p.clog.threshold;
	struct auth_out s1, s2, again;
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_FAILED);
	struct auth_out request = p.out;
	ck_assert_int_eq(to_sta(&p, &request, &s2), AUTH_STEP_SEND); /* with the token */
	ck_assert_int_eq(to_sta(&p, &request, &again), AUTH_STEP_IGNORE);
	ck_assert_int_eq(auth_sae_state(p.sta), SAE_STATE_COMMITTED);
	/* A new token (the AP's secret rotated) is taken. */
	p.now += 2ull * AUTH_SAE_SECRET_ROTATE_S * 1000000ull + 1;
	pair_new_ap(&p);
	ck_assert_int_eq(to_ap(&p, &s2), AUTH_STEP_FAILED);
	ck_assert_uint_eq(p.out.status, WLAN_STATUS_ANTI_CLOGGING_TOKEN_REQ);
	ck_assert_int_eq(to_sta(&p, &p.out, &again), AUTH_STEP_SEND);
	/* ... and the exchange completes with it. */
	ck_assert_int_eq(to_ap(&p, &again), AUTH_STEP_SEND);
	struct auth_out s3, s4;
	ck_assert_int_eq(to_sta(&p, &p.out, &s3), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &s3), AUTH_STEP_DONE);
	ck_assert_int_eq(to_sta(&p, &p.out, &s4), AUTH_STEP_DONE);
	pair_free(&p);
}
END_TEST

/* The AP forgets the exchange while the station is Confirmed (its first
 * commit answered, then a copy of the station's commit starts a new
 * exchange with a new commit of the AP's). The station keys its confirm
 * to the AP's new commit, so the exchange completes; the AP's refusal of
 * the confirm keyed to its old commit is not taken for a wrong password,
 * nor is silence after that restart. */
START_TEST(ap_restart_while_confirmed_is_followed)
{
	struct pair p;
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_H2E, SAE_PWE_BOTH);
	struct auth_out s1, old_confirm, new_confirm, r, done;
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_sta(&p, &p.out, &old_confirm), AUTH_STEP_SEND);
	ck_assert_int_eq(auth_sae_state(p.sta), SAE_STATE_CONFIRMED);
	/* The AP starts over from the same commit of the station's. */
	pair_new_ap(&p);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND);
	struct auth_out ap_commit2 = p.out;
	ck_assert_int_eq(to_sta(&p, &ap_commit2, &new_confirm), AUTH_STEP_SEND);
	ck_assert_uint_eq(new_confirm.seq, 2);
	/* Its copy: the same commit again, the confirm again. */
	ck_assert_int_eq(to_sta(&p, &ap_commit2, &r), AUTH_STEP_SEND);
	ck_assert_uint_eq(r.seq, 2);
	ck_assert_int_eq(to_ap(&p, &new_confirm), AUTH_STEP_DONE);
	ck_assert_int_eq(to_sta(&p, &p.out, &done), AUTH_STEP_DONE);
	ck_assert(!p.sta->bad_credential);
	pair_free(&p);

	/* The old confirm reaches the restarted AP first: refused (15),
	 * which after a restart says nothing about the password. */
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_H2E, SAE_PWE_BOTH);
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_sta(&p, &p.out, &old_confirm), AUTH_STEP_SEND);
	pair_new_ap(&p);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_sta(&p, &p.out, &new_confirm), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &old_confirm), AUTH_STEP_FAILED);
	ck_assert_uint_eq(p.out.status, WLAN_STATUS_CHALLENGE_FAIL);
	ck_assert_int_eq(to_sta(&p, &p.out, &r), AUTH_STEP_FAILED);
	ck_assert(!p.sta->bad_credential);
	pair_free(&p);

	/* Without a restart the same refusal is a wrong password. */
	pair_init(&p, "pw-pw-pw-pw", "another-pw", SAE_PWE_H2E, SAE_PWE_BOTH);
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_sta(&p, &p.out, &old_confirm), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &old_confirm), AUTH_STEP_FAILED);
	ck_assert_int_eq(to_sta(&p, &p.out, &r), AUTH_STEP_FAILED);
	ck_assert(p.sta->bad_credential);
	pair_free(&p);
}
END_TEST

/* The station starts over (its driver forgot the exchange) while the
 * AP's instance is Committed, and a late copy of the AP's commit to its
 * older commit reaches it first: it keys its confirm to that commit. The
 * AP's instance takes the new commit and answers with the same commit
 * (scalar and element), no token (the instance exists, even above the
 * anti-clogging threshold), so that confirm verifies. Before, the AP drew
 * a new commit (or demanded a token and forgot the exchange) and refused
 * the confirm with status 15: a wrong password to the station. */
START_TEST(new_commit_while_committed_keeps_our_commit)
{
	for (int clogged = 0; clogged < 2; clogged++) {
		struct pair p;
		pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_HUNT_AND_PECK, SAE_PWE_BOTH);
		struct auth_out s1, s2, conf, done;
		ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
		ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND);
		struct auth_out ap_commit = p.out;
		if (clogged)
			p.clog.pending = p.clog.threshold; /* others pending as well */
		ck_assert_int_eq(auth_sta_start(p.sta, &s2), AUTH_STEP_SEND); /* over */
		ck_assert(s2.body_len != s1.body_len || memcmp(s2.body, s1.body, s1.body_len));
		ck_assert_int_eq(to_ap(&p, &s2), AUTH_STEP_SEND);
		ck_assert_uint_eq(p.out.status, WLAN_STATUS_SUCCESS);
		ck_assert_uint_eq(p.out.body_len, ap_commit.body_len);
		ck_assert_mem_eq(p.out.body, ap_commit.body, ap_commit.body_len);
		ck_assert_int_eq(auth_sae_state(p.ap), SAE_STATE_COMMITTED);
		ck_assert_uint_eq(p.clog.tokens_demanded, 0);
		/* The late copy of the AP's commit keys the station's confirm. */
		ck_assert_int_eq(to_sta(&p, &ap_commit, &conf), AUTH_STEP_SEND);
		ck_assert_int_eq(to_ap(&p, &conf), AUTH_STEP_DONE);
		ck_assert_int_eq(to_sta(&p, &p.out, &done), AUTH_STEP_DONE);
		ck_assert(!p.sta->bad_credential);
		pair_free(&p);
	}
}
END_TEST

/* The station's confirm was accepted by the AP, whose confirm is late;
 * the station started over meanwhile and took a late copy of the AP's
 * commit to its old exchange. The AP's confirm of the old exchange then
 * fails the station's check: not a wrong password, discarded; the AP's
 * answer to the new commit follows and the exchange completes. Before,
 * that confirm ended the exchange as a wrong password. */
START_TEST(stale_ap_confirm_is_not_a_wrong_password)
{
	struct pair p;
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_HUNT_AND_PECK, SAE_PWE_BOTH);
	struct auth_out s1, k1, s2, k2, k3, done;
	ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND);
	struct auth_out old_commit = p.out;
	ck_assert_int_eq(to_sta(&p, &old_commit, &k1), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &k1), AUTH_STEP_DONE);
	struct auth_out old_confirm = p.out;
	ck_assert_int_eq(auth_sta_start(p.sta, &s2), AUTH_STEP_SEND); /* over */
	ck_assert_int_eq(to_sta(&p, &old_commit, &k2), AUTH_STEP_SEND); /* late copy */
	ck_assert_int_eq(to_sta(&p, &old_confirm, &done), AUTH_STEP_IGNORE);
	ck_assert(!p.sta->bad_credential);
	ck_assert_int_eq(auth_sae_state(p.sta), SAE_STATE_CONFIRMED);
	/* The AP's answer to the new commit (a new instance: the old one was
	 * accepted) re-keys the station's confirm. */
	pair_new_ap(&p);
	ck_assert_int_eq(to_ap(&p, &s2), AUTH_STEP_SEND);
	ck_assert_int_eq(to_sta(&p, &p.out, &k3), AUTH_STEP_SEND);
	ck_assert_int_eq(to_ap(&p, &k3), AUTH_STEP_DONE);
	ck_assert_int_eq(to_sta(&p, &p.out, &done), AUTH_STEP_DONE);
	ck_assert(!p.sta->bad_credential);
	pair_free(&p);
}
END_TEST

/* Silence after our confirm: a wrong password at an AP that drops failed
 * confirms, unless the AP restarted the exchange meanwhile. */
START_TEST(silence_after_confirm_blames_the_password_only_without_restart)
{
	struct pair p;
	struct auth_out s1, c, r;
	for (int restart = 0; restart < 2; restart++) {
		pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_H2E, SAE_PWE_BOTH);
		ck_assert_int_eq(auth_sta_start(p.sta, &s1), AUTH_STEP_SEND);
		ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND);
		ck_assert_int_eq(to_sta(&p, &p.out, &c), AUTH_STEP_SEND);
		if (restart) {
			pair_new_ap(&p);
			ck_assert_int_eq(to_ap(&p, &s1), AUTH_STEP_SEND);
			ck_assert_int_eq(to_sta(&p, &p.out, &c), AUTH_STEP_SEND);
		}
		enum auth_step step;
		ck_assert_uint_eq(p.sta->retrans_ms, AUTH_SAE_RETRANS_MS);
		while ((step = auth_timeout(p.sta, &r)) == AUTH_STEP_SEND) {
			ck_assert_uint_eq(r.seq, 2);
			/* A confirm is answered at once: no backoff. */
			ck_assert_uint_eq(p.sta->retrans_ms, AUTH_SAE_RETRANS_MS);
		}
		ck_assert_int_eq(step, AUTH_STEP_FAILED);
		ck_assert(p.sta->bad_credential == !restart);
		pair_free(&p);
	}
}
END_TEST

START_TEST(unknown_password_identifier)
{
	struct pair p;
	pair_init(&p, "pw-pw-pw-pw", "pw-pw-pw-pw", SAE_PWE_H2E, SAE_PWE_BOTH);
	auth_sae_conf_clear(&p.sc);
	ck_assert_int_eq(auth_sae_conf_add_password(&p.sc, "pw-pw-pw-pw", "nobody"), 0);
	ck_assert_int_eq(run(&p), AUTH_STEP_FAILED);
	ck_assert_uint_eq(p.sta->status, WLAN_STATUS_UNKNOWN_PASSWORD_IDENTIFIER);
	pair_free(&p);
}
END_TEST

START_TEST(pwe_names)
{
	enum sae_pwe_mode m;
	ck_assert_int_eq(sae_pwe_mode_parse("h2e", &m), 0);
	ck_assert_int_eq(m, SAE_PWE_H2E);
	ck_assert_int_eq(sae_pwe_mode_parse("hunt-and-peck", &m), 0);
	ck_assert_int_eq(m, SAE_PWE_HUNT_AND_PECK);
	ck_assert_int_lt(sae_pwe_mode_parse("hnp", &m), 0);
	ck_assert_str_eq(sae_state_name(SAE_STATE_CONFIRMED), "confirmed");
}
END_TEST

Suite *make_rsn_auth_sae_suite(void)
{
	Suite *s = suite_create("rsn_auth_sae");
	TCase *tc = tcase_create("machine");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, hnp_and_h2e_agree);
	tcase_add_test(tc, groups_20_and_21);
	tcase_add_test(tc, wrong_password_fails_at_the_confirm);
	tcase_add_test(tc, group_not_supported_then_next);
	tcase_add_test(tc, rejected_group_the_ap_supports_is_refused);
	tcase_add_test(tc, anti_clogging_token_round_trip);
	tcase_add_test(tc, retransmission_and_sync_limit);
	tcase_add_test(tc, unknown_password_identifier);
	tcase_add_test(tc, late_commit_copy_after_accept_is_ignored);
	tcase_add_test(tc, late_tokenless_commit_copy_keeps_the_exchange);
	tcase_add_test(tc, repeated_token_request_sends_nothing_more);
	tcase_add_test(tc, ap_restart_while_confirmed_is_followed);
	tcase_add_test(tc, new_commit_while_committed_keeps_our_commit);
	tcase_add_test(tc, stale_ap_confirm_is_not_a_wrong_password);
	tcase_add_test(tc, silence_after_confirm_blames_the_password_only_without_restart);
	tcase_add_test(tc, pwe_names);
	suite_add_tcase(s, tc);
	return s;
}
