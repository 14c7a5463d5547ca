/* SAE as an authentication protocol (IEEE 802.11-2020 12.4), both roles,
 * on the cryptography of daemon/crypto/sae.h and the frame codec of
 * daemon/codec/sae.h.
 *
 * The caller describes the network in a struct auth_sae_conf and points
 * the session's ctx at it (auth_proto.h). One conf serves any number of
 * sessions: an AP keeps one for its BSS (with the anti-clogging state),
 * a station one per connection attempt. The conf owns the PT cache it is
 * given a pointer to only if it allocated it (see auth_sae_conf_init).
 *
 * The protocol machine (12.4.8.6) has the named states of the standard:
 *   NOTHING   -> COMMITTED  our commit sent
 *   COMMITTED -> CONFIRMED  (station) the peer's commit processed, our
 *                           confirm sent
 *   COMMITTED -> ACCEPTED   (AP) the station's confirm verified, ours sent
 *   CONFIRMED -> ACCEPTED   (station) the AP's confirm verified
 * with retransmissions on the caller's timer and dot11RSNASAESync as the
 * limit of resends. One function, sae_enter(), changes state.
 *
 * Failures a person can act on end with sess->status set:
 *   77  no group in common       123 unknown password identifier
 *   126/1 the AP and we disagree on H2E
 *   bad_credential: the AP refused our confirm (status 15) or went
 *   silent after it (the password is wrong); an AP confirm that does not
 *   verify is discarded (it may answer an older exchange of ours).
 */
#ifndef WPAD_RSN_AUTH_SAE_H
#define WPAD_RSN_AUTH_SAE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/rsn/auth_proto.h"

#define AUTH_SAE_MAX_GROUPS 4
#define AUTH_SAE_MAX_PASSWORDS 4
#define AUTH_SAE_PASSWORD_MAX 128
#define AUTH_SAE_PW_ID_MAX 64
#define AUTH_SAE_SYNC_MAX 5	    /* dot11RSNASAESync */
#define AUTH_SAE_RETRANS_MS 1000    /* dot11RSNASAERetransPeriod (station): a slow AP
				     * (hunting-and-pecking in a VM) takes ~1 s */
#define AUTH_SAE_COMMIT_RETRANS_MAX_MS 2000 /* the period doubles while our
				     * commit is unanswered, up to this */
#define AUTH_SAE_CLOG_THRESHOLD 5   /* pending commits before tokens */
#define AUTH_SAE_TOKEN_LEN 32
#define AUTH_SAE_SECRET_ROTATE_S 60 /* the token secret's lifetime */

enum sae_pwe_mode {
	SAE_PWE_HUNT_AND_PECK, /* "hunt-and-peck" */
	SAE_PWE_H2E,	       /* "h2e" */
	SAE_PWE_BOTH,	       /* "both": the AP takes either */
};

const char *sae_pwe_mode_name(enum sae_pwe_mode m);
/* Parses "hunt-and-peck" | "h2e" | "both"; -EINVAL otherwise. */
int sae_pwe_mode_parse(const char *s, enum sae_pwe_mode *out);

struct sae_password {
	uint8_t password[AUTH_SAE_PASSWORD_MAX];
	size_t password_len;
	uint8_t id[AUTH_SAE_PW_ID_MAX];
	size_t id_len;
	bool has_id;
};

/* PTs (hash-to-element) derived once per (SSID, password, identifier,
 * group) and kept; see sae_pt_cache.c. */
struct sae_pt_cache;
struct sae_pt_cache *sae_pt_cache_new(void);
void sae_pt_cache_free(struct sae_pt_cache *c);
/* The cached PT, derived on the first use. NULL with *err set. */
const struct sae_pt *sae_pt_cache_get(struct sae_pt_cache *c, int group, const uint8_t *ssid,
				      size_t ssid_len, const struct sae_password *pw, int *err);
/* How many PTs were derived (tests: a second connection derives none). */
unsigned sae_pt_cache_derivations(const struct sae_pt_cache *c);

/* The AP's anti-clogging state (12.4.6): commits pending in COMMITTED,
 * the token secret (rotated) and the time source (the loop's clock). */
struct sae_clog {
	unsigned pending;
	unsigned threshold;
	uint8_t secret[32], prev_secret[32];
	uint64_t rotated_at_us;
	bool have_secret;
	uint64_t (*now_us)(void *data);
	void *now_data;
	unsigned tokens_demanded, tokens_accepted; /* counters for tests and logs */
};

struct auth_sae_conf {
	uint8_t ssid[32];
	size_t ssid_len;
	/* Station: passwords[0] (and its identifier) is ours. AP: every
	 * password it accepts; one without an identifier serves commits
	 * without a Password Identifier element. */
	struct sae_password passwords[AUTH_SAE_MAX_PASSWORDS];
	size_t n_passwords;
	/* Station: tried in order; AP: accepted. */
	int groups[AUTH_SAE_MAX_GROUPS];
	size_t n_groups;
	/* Station: SAE_PWE_H2E or SAE_PWE_HUNT_AND_PECK, decided for the BSS;
	 * AP: what it accepts. */
	enum sae_pwe_mode pwe;
	struct sae_pt_cache *pt_cache; /* not owned; NULL: derive every time */
	struct sae_clog *clog;	       /* AP only; NULL: never demand tokens */
	unsigned retrans_ms;	       /* 0: AUTH_SAE_RETRANS_MS */
};

/* Defaults: groups 19, 20, 21 (station order) and no password. */
void auth_sae_conf_init(struct auth_sae_conf *c);
/* Wipes the passwords. */
void auth_sae_conf_clear(struct auth_sae_conf *c);
int auth_sae_conf_add_password(struct auth_sae_conf *c, const char *password, const char *id);

/* The state of a session's machine, for tests and logs. */
enum sae_state {
	SAE_STATE_NOTHING,
	SAE_STATE_COMMITTED,
	SAE_STATE_CONFIRMED,
	SAE_STATE_ACCEPTED,
};
const char *sae_state_name(enum sae_state s);
enum sae_state auth_sae_state(const struct auth_sess *s);
/* The group in use (after a commit), 0 before. */
int auth_sae_group(const struct auth_sess *s);
/* Whether the exchange used hash-to-element. */
bool auth_sae_h2e(const struct auth_sess *s);
/* AP: whether body is the peer's commit this session already took (a
 * retransmission that arrives late, after the exchange moved on). */
bool auth_sae_same_commit(const struct auth_sess *s, const uint8_t *body, size_t len);

/* AP: the instance outlives its station entry a while, so that late
 * copies of its frames start no other exchange (daemon/ap/ap_sae.c). An
 * accepted one keeps only what recognises them (auth_sae_same_commit),
 * its keys and PMK wiped; one still committed keeps all, to resume. */
void auth_sae_park(struct auth_sess *s);

/* Clock helpers for struct sae_clog. */
void sae_clog_init(struct sae_clog *c, uint64_t (*now_us)(void *), void *data);
void sae_clog_clear(struct sae_clog *c);

#endif
