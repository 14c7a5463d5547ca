/* In-memory link between an RSN supplicant and authenticator for the unit
 * tests: each side's send_eapol() queues the frame, shim_pump() delivers
 * the queue to the other side, through an optional fault hook that may
 * drop or rewrite a frame. Every op call is counted and its arguments kept.
 */
#ifndef WPAD_TEST_RSN_SHIM_H
#define WPAD_TEST_RSN_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/loop.h"
#include "daemon/crypto/ptk.h"
#include "daemon/rsn/authenticator.h"
#include "daemon/rsn/group.h"
#include "daemon/rsn/supplicant.h"

#define SHIM_FRAME_MAX 1024
#define SHIM_QUEUE 256
#define SHIM_LOG 8
#define SHIM_SENDS 32

extern const uint8_t shim_ap_addr[6];
extern const uint8_t shim_sta_addr[6];

struct shim;

struct shim_side {
	struct shim *shim;
	bool is_ap;
	unsigned int sent;
	uint8_t frames[SHIM_LOG][SHIM_FRAME_MAX]; /* the last SHIM_LOG sent */
	size_t frame_len[SHIM_LOG];
	uint64_t send_us[SHIM_SENDS]; /* loop_now_us(shim loop) of the first sends */
	unsigned int ptk_installs;
	uint8_t tk[32];
	size_t tk_len;
	uint32_t tk_cipher;
	unsigned int gtk_installs;
	uint8_t gtk[32];
	size_t gtk_len;
	uint8_t gtk_idx;
	uint8_t gtk_rsc[6];
	unsigned int igtk_installs;
	uint8_t igtk[32];
	size_t igtk_len;
	uint16_t igtk_idx;
	bool authorized;
	unsigned int authorize_calls;
	unsigned int completes;
	unsigned int group_completes;
	unsigned int failures;
	struct rsn_failure failure;
	uint64_t failure_us;
	int install_result; /* what install_* return */
	const uint8_t *nonces;	/* if set, get_random hands these out, 32 each */
	unsigned int n_nonces;
	unsigned int nonce_next;
	bool free_on_complete;
	bool free_on_failure;
	unsigned int transition_disable_calls; /* supplicant: on_transition_disable */
	uint8_t transition_disable;
};

/* Return false to drop the frame; *len may be changed (up to
 * SHIM_FRAME_MAX). to_ap says which way it goes. */
typedef bool (*shim_fault_fn)(struct shim *s, bool to_ap, uint8_t *frame, size_t *len,
			      void *data);

struct shim {
	struct loop *loop;
	struct rsn_group *group;
	struct rsn_supp *sta;
	struct rsn_auth *ap;
	struct shim_side sta_side;
	struct shim_side ap_side;
	shim_fault_fn fault;
	void *fault_data;
	struct {
		bool to_ap;
		size_t len;
		uint8_t buf[SHIM_FRAME_MAX];
	} q[SHIM_QUEUE];
	unsigned int q_head, q_count;
	unsigned int overflow;
	int last_rx_to_sta; /* return of the last delivery */
	int last_rx_to_ap;
};

extern const struct rsn_ops shim_ops;

/* A 22-octet RSNE: CCMP-128 group and pairwise, one AKM, capabilities
 * capab (and, with mfp, a group management cipher). out holds 64. */
size_t shim_rsne(uint8_t *out, uint32_t akm, uint32_t pairwise, uint16_t capab,
		 uint32_t group_mgmt);

/* A config for one side. pmk_byte fills a 32-octet PMK. */
struct shim_cfg {
	uint32_t akm;
	uint32_t pairwise;
	uint32_t group_mgmt;
	uint8_t sta_pmk_byte;
	uint8_t ap_pmk_byte;
	/* RSNEs: what the STA sends vs. what the AP saw in the association
	 * request; what the AP advertises vs. what the STA saw in the beacon */
	uint16_t sta_capab_sent, sta_capab_seen_by_ap;
	uint16_t ap_capab_sent, ap_capab_seen_by_sta;
	/* RSNXE capability bits in the same four places; 0: no RSNXE */
	uint32_t sta_rsnxe_sent, sta_rsnxe_seen_by_ap;
	uint32_t ap_rsnxe_sent, ap_rsnxe_seen_by_sta;
	struct rsn_timing timing;
	/* Both machines created without a PMK (set later, as after SAE or
	 * 802.1X), and the PMKIDs each side is configured with (NULL: none). */
	bool late_pmk;
	const uint8_t *sta_pmkid;
	const uint8_t *ap_pmkid;
	/* The authenticator's Transition Disable bitmap (0: none). */
	uint8_t ap_transition_disable;
};

void shim_cfg_default(struct shim_cfg *c, uint32_t akm);
/* Creates the loop, group, both machines. Does not start them. */
void shim_init(struct shim *s, const struct shim_cfg *c);
void shim_free(struct shim *s);
/* Starts both ends. */
void shim_start(struct shim *s);
/* Delivers queued frames until none is left (or a bound is hit). */
void shim_pump(struct shim *s);
/* Delivers at most n queued frames. */
void shim_step(struct shim *s, unsigned int n);
/* Pumps and runs the loop until cond(s) or max_ms pass; returns cond(s). */
bool shim_run(struct shim *s, bool (*cond)(struct shim *s), unsigned int max_ms);
bool shim_both_complete(struct shim *s);
bool shim_any_failed(struct shim *s);
bool shim_both_failed(struct shim *s);

/* Last frame a side sent (n = 0) or earlier ones (n = 1, ...). */
const uint8_t *shim_sent(const struct shim_side *side, unsigned int n, size_t *len);
/* The same, copied into out (SHIM_FRAME_MAX); returns its length. */
size_t shim_copy_sent(const struct shim_side *side, unsigned int n, uint8_t *out);

/* Frame field offsets in an EAPOL-Key frame with a 16-octet MIC. */
#define KF_KEY_INFO 5
#define KF_KEY_LEN 7
#define KF_REPLAY 9
#define KF_NONCE 17
#define KF_RSC 65
#define KF_MIC 81
#define KF_KEY_DATA_LEN 97
#define KF_KEY_DATA 99

uint16_t kf_key_info(const uint8_t *f);
uint64_t kf_replay(const uint8_t *f);
void kf_set_replay(uint8_t *f, uint64_t v);

#endif
