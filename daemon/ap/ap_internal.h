/* Inside the AP role: the BSS and station structures shared by the ap_*.c
 * files. Nothing outside daemon/ap (and its unit tests) includes this. */
#ifndef WPAD_AP_AP_INTERNAL_H
#define WPAD_AP_AP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/ap/ap.h"
#include "daemon/ap/ap_conf.h"
#include "daemon/ap/ap_sta_table.h"
#include "daemon/rsn/rsn_types.h"
#include "drivers/driver.h"

#define AP_MAX_AID 2007
#define AP_AID_WORDS ((AP_MAX_AID + 1 + 31) / 32)
#define AP_RSNE_MAX 257
#define AP_TEMPLATE_MAX 1024
/* An authenticated station must associate within this time. */
#define AP_AUTH_EXPIRY_MS 5000
/* How long the association response may wait for its TX status. */
#define AP_ASSOC_RESP_WAIT_MS 1000
/* How long an SAE answer may wait for its TX status before a copy of the
 * station's frame is answered again (a driver that never reports). */
#define AP_AUTH_RESP_WAIT_MS 2000
/* How long, and how many, SAE instances of removed stations are kept for
 * their late frames (ap_sae.c). */
#define AP_SAE_PARK_MS 10000
#define AP_SAE_PARKED_MAX 32
/* Stations authenticated but not associated, beyond max_stations. */
#define AP_AUTH_ONLY_SLACK 16
/* STOPPING waits at most this long for the farewell deauths to go out. */
#define AP_STOP_WAIT_MS 200
#define AP_ADDR_STR_LEN 18

struct loop_timer;
struct loop_idle;
struct ap_keys;
struct ap_sta_keys;
struct auth_sess;

struct ap_sta {
	/* Links of struct sta_table. */
	struct ap_sta *hnext, *lnext, *lprev;
	uint8_t addr[6];

	struct ap *ap;
	enum ap_sta_state state;
	uint16_t aid;
	uint16_t capability;
	uint16_t listen_interval;
	uint8_t rates[DRIVER_MAX_RATES];
	size_t n_rates;
	bool wmm;
	bool ht;
	uint16_t ht_capab;
	bool in_driver;           /* sta_add done */
	bool removed;             /* on the dead list, freed soon */

	/* RSN: the elements from the (re)association request (message 2 must
	 * repeat both, IEEE 802.11-2020 12.7.6.3) and what it chose. */
	uint8_t rsne[AP_RSNE_MAX];
	size_t rsne_len;
	uint8_t rsnxe[AP_RSNE_MAX];
	size_t rsnxe_len;         /* 0: the request carried no RSNXE */
	uint32_t akm;
	uint32_t pairwise;
	struct ap_sta_keys *keys; /* 4-way authenticator, ap_keys.c */
	/* The authentication exchange (daemon/rsn/auth_proto.h), owned: in
	 * progress in AP_STA_NONE, done from AP_STA_AUTHENTICATED on; its PMK
	 * (SAE) feeds the 4-way handshake. Freed with the entry. */
	struct auth_sess *auth;
	unsigned mic_failures;

	/* An SAE answer of ours waiting for its TX status: a copy of the
	 * station's frame that comes meanwhile crossed it in our queue. */
	bool auth_resp_pending;
	uint64_t auth_resp_cookie;
	uint64_t auth_resp_sent_us;

	/* A (re)association response waiting for its TX status. */
	bool assoc_resp_pending;
	uint64_t assoc_resp_cookie;
	struct loop_timer *timer; /* auth expiry, or the assoc response wait */

	uint64_t assoc_time_us;
	/* Inactivity (ap_sta.c): an idle station is polled with a null data
	 * frame (probe_client) before it is dropped; set while the answer is
	 * awaited. */
	bool probing;
	uint64_t probe_cookie;
	uint64_t probe_sent_us;
	uint64_t probe_acked_us; /* its last poll's acknowledgement: activity too */
	int32_t signal_mbm;
	uint16_t leave_reason;    /* given to station_removed on leaving */

	/* Management frame protection (ap_pmf.c). mfp: negotiated for this
	 * association (set by the RSN negotiation). */
	struct {
		bool mfp;
		struct sa_query *sa_query; /* created on first use */
	} pmf;
};

struct ap {
	struct loop *loop;
	struct driver *drv;
	uint32_t ifindex;
	struct ap_callbacks cb;
	enum ap_state state;

	struct ap_conf conf;
	bool has_conf;
	bool beaconing;           /* start_ap succeeded */
	uint8_t addr[6];
	struct driver_capa capa;
	char country[3];          /* from the profile, else the regulatory domain */

	/* What the BSS offers (daemon/rsn/negotiate.h), from conf.policy and
	 * the driver's ciphers, and our RSN element as advertised (for the
	 * 4-way handshake message 3). */
	struct rsn_offer offer;
	uint8_t rsne[AP_RSNE_MAX];
	size_t rsne_len;

	struct sta_table stas;
	size_t n_assoc;
	uint32_t aid_used[AP_AID_WORDS];

	struct ap_keys *keys;     /* GTK state, ap_keys.c; NULL on open BSS */
	struct rsn_timing rsn_timing; /* zeros: daemon/rsn's defaults */
	/* Stations removed while callbacks may still hold them: freed from an
	 * idle callback, linked through lnext. */
	struct ap_sta *dead;
	struct loop_idle *reaper;
	struct loop_timer *stop_timer;
	struct loop_timer *inact_timer;
	size_t stop_pending;      /* farewell deauths not yet reported */
	unsigned acl_gen;         /* ap_acl_generation() */
	/* The replay_counter_base of the next station handshake (ap_keys.c). */
	uint64_t replay_base;
	/* SAE (ap_sae.c): the sessions' configuration, anti-clogging and PT
	 * cache; the RSNXE advertised (SAE H2E). */
	bool sae_on;
	struct auth_sae_conf sae;
	struct sae_clog clog;
	struct sae_pt_cache *sae_pt;
	unsigned sae_clog_threshold; /* 0: AUTH_SAE_CLOG_THRESHOLD */
	char sae_pw_id[AUTH_SAE_PW_ID_MAX + 1]; /* a password identifier also accepted */
	struct ap_sae_parked {
		uint8_t addr[6];
		struct auth_sess *sess; /* owned; NULL: a free slot */
		uint64_t until_us;
	} sae_parked[AP_SAE_PARKED_MAX];
	uint8_t rsnxe[8];
	size_t rsnxe_len;
	/* Channel=auto: the last choice and why (ap_acs_run.c). */
	char channel_choice[256];
	/* A channel switch announced (ap_dfs.c): where to, and the CSA
	 * element the templates carry while csa.in_beacon. */
	struct {
		bool cac_running;   /* start_radar_detection done, no result yet */
		bool in_beacon;
		uint8_t count;
		uint8_t mode;       /* 1: the stations stop transmitting until the switch */
		uint32_t freq_mhz;
		struct ap_chandef chandef;
	} csa;
};

/* Beaconing, possibly announcing a channel switch: stations are served. */
static inline bool ap_is_running(const struct ap *ap)
{
	return ap->state == AP_STATE_STARTED || ap->state == AP_STATE_SWITCHING;
}

/* "aa:bb:cc:dd:ee:ff" */
const char *ap_addr_str(const uint8_t addr[6], char buf[AP_ADDR_STR_LEN]);

/* ap.c */
void ap_enter_state(struct ap *ap, enum ap_state new_state);
/* Tests: shorter handshake timers. */
void ap_set_rsn_timing(struct ap *ap, const struct rsn_timing *t);

/* ap_beacon.c: templates from ap->conf and ap->capa. */
int ap_build_beacon(struct ap *ap, uint8_t *head, size_t head_cap, size_t *head_len,
		    uint8_t *tail, size_t tail_cap, size_t *tail_len);
/* A probe response to da (always carrying the real SSID). */
int ap_build_probe_resp(struct ap *ap, const uint8_t da[6], uint8_t *out, size_t cap,
			size_t *len);
/* Elements of an association response after the AID: rates, WMM param
 * (when wmm), HT (when ht), extended capabilities. */
int ap_build_assoc_resp_ies(struct ap *ap, bool wmm, bool ht, uint8_t *out, size_t cap,
			    size_t *len);
/* The policy the BSS runs (conf.policy, plus PSK-SHA256 when
 * conf.akm_psk_sha256). */
struct rsn_policy ap_rsn_policy(const struct ap *ap);
/* ap->offer and our RSN element (header included) into ap->rsne. */
int ap_build_rsne(struct ap *ap);
/* Rates we offer, as Supported Rates octets (basic bit set on the basic
 * ones). Returns the count. */
size_t ap_rates(const struct ap *ap, uint8_t *out, size_t max);
const struct driver_band_info *ap_band_info(const struct ap *ap);
uint16_t ap_capability(const struct ap *ap);

/* ap_pmf.c: SA Query and the association comeback (11.13, 11.3.5.3). */
struct sa_query;
struct mgmt_frame;
/* Association comeback time in the Timeout Interval element: one SA Query
 * maximum timeout (1 s = 977 TU) plus margin. */
#define AP_PMF_COMEBACK_TU 1000
/* MFP in use on the station's association: negotiated, and the 4-way
 * handshake done (keys in the driver). */
bool ap_pmf_protected(const struct ap_sta *sta);
/* A (re)association from a station associated with MFP: answered with
 * status 30 and a comeback time, SA Query started. True when handled. */
bool ap_pmf_assoc_comeback(struct ap *ap, struct ap_sta *sta, bool reassoc);
/* True when f was an SA Query action frame (answered or matched). */
bool ap_pmf_rx_action(struct ap *ap, const struct mgmt_frame *f);
void ap_pmf_sta_left(struct ap_sta *sta);
void ap_pmf_sta_free(struct ap_sta *sta);

/* ap_sta.c */
struct ap_sta *ap_sta_new(struct ap *ap, const uint8_t addr[6]);
struct ap_sta *ap_sta_find(struct ap *ap, const uint8_t addr[6]);
void ap_sta_enter_state(struct ap_sta *sta, enum ap_sta_state new_state);
/* Sends a deauthentication (unless !notify_peer), tears the station down
 * and frees it. */
void ap_sta_remove(struct ap_sta *sta, uint16_t reason, bool notify_peer);
/* Disassociation: back to AUTHENTICATED. */
void ap_sta_disassociate(struct ap_sta *sta, uint16_t reason);
uint16_t ap_aid_alloc(struct ap *ap);
void ap_aid_free(struct ap *ap, uint16_t aid);
void ap_sta_arm_timer(struct ap_sta *sta, uint64_t ms);
/* ask_driver: the signal from the driver (nl80211: a GET_STATION round
 * trip) rather than the last frame's. */
void ap_sta_fill_info(struct ap_sta *sta, struct ap_station_info *info, bool ask_driver);
void ap_inactivity_start(struct ap *ap);
void ap_inactivity_stop(struct ap *ap);
void ap_sta_inactive(struct ap *ap, const uint8_t addr[6]);
/* Idle past InactivityTimeout (driver event or our poll): polls the
 * station, or drops it at once when the driver cannot poll. */
void ap_sta_idle(struct ap *ap, const uint8_t addr[6]);
/* DRIVER_EV_PROBE_STATUS: acked keeps the station, else it is dropped. */
void ap_sta_probe_status(struct ap *ap, const struct driver_event *ev);
/* How long a poll's answer may take before the station counts as gone. */
#define AP_PROBE_WAIT_MS 1000
/* Frees the stations on the dead list (the reaper's work, also at free). */
void ap_sta_reap(struct ap *ap);
struct loop_idle *ap_sta_reaper_new(struct ap *ap);
/* Removes every station (deauthenticating them when notify_peer). */
void ap_sta_remove_all(struct ap *ap, uint16_t reason, bool notify_peer);
static inline bool ap_sta_is_associated(const struct ap_sta *sta)
{
	return sta->state == AP_STA_ASSOCIATED || sta->state == AP_STA_AUTHORIZED;
}

/* ap_keys.c: a PMKSA the station named in its RSNE (after check_rsn). */
bool ap_keys_sta_has_pmksa(struct ap_sta *sta);

/* ap_sae.c */
int ap_sae_start(struct ap *ap);
void ap_sae_stop(struct ap *ap);
/* The configuration an SAE session of this BSS reads; NULL: no SAE. */
void *ap_sae_ctx(struct ap *ap);
/* A station leaves the table: its SAE instance (under way or accepted) is
 * kept AP_SAE_PARK_MS, taken from sta->auth; any other stays. */
void ap_sae_park(struct ap *ap, struct ap_sta *sta);
/* An SAE frame from an address without a station entry, against the
 * instance kept for it: returns that instance to resume (its commit
 * again, or a confirm, while it was under way; the caller owns it), or
 * NULL with *drop set for a late copy of an exchange that ended (accepted)
 * or NULL alone (nothing kept, or a new commit: a new exchange, and the
 * kept instance is freed). */
struct auth_sess *ap_sae_unpark(struct ap *ap, const struct mgmt_frame *f, bool *drop);
/* ap_beacon.c: the station's HT/VHT/HE capability element bodies for the
 * driver's station entry (p->ht_cap, vht_cap, he_cap), written into buf,
 * for the PHYs this BSS uses. */
#define AP_STA_CAP_BUF 192
struct ie_set;
void ap_sta_phy_caps(const struct ap *ap, const struct ie_set *ies, struct driver_sta_params *p,
		     uint8_t *buf, size_t cap);

/* ap_acs_run.c: Channel=auto (conf.channel, freq_mhz, chandef from the
 * survey and the scan results), and the 2.4 GHz 40 MHz coexistence check
 * that falls back to 20 MHz. */
int ap_acs_run(struct ap *ap, struct wpad_error *err);
void ap_obss_check(struct ap *ap);

/* ap.c: start_ap, frame registration and keys on conf.chandef; the start
 * log line. */
int ap_start_beaconing(struct ap *ap, struct wpad_error *err);
void ap_started_log(struct ap *ap);
/* Templates for the current conf into p (buffers in t, AP_TEMPLATE_MAX
 * each). */
int ap_fill_params(struct ap *ap, struct driver_ap_params *p, uint8_t *head, uint8_t *tail);

/* ap_dfs.c: CAC, radar, channel switch with announcement. */
#define AP_CSA_COUNT 10 /* beacons: about a second at 100 TU */
int ap_dfs_start_cac(struct ap *ap, struct wpad_error *err);
void ap_dfs_radar(struct ap *ap, const struct driver_event *ev);
void ap_dfs_switched(struct ap *ap, const struct driver_event *ev);
#define AP_CSA_COUNT_STATION 5 /* the radio's station waits for these */
/* Why a running BSS moves; each has its count, mode and fallback in one
 * table (ap_dfs.c). */
enum ap_move_why {
	AP_MOVE_RADAR,   /* radar on the channel */
	AP_MOVE_RESCAN,  /* Channel=auto chose another channel */
	AP_MOVE_STATION, /* the station of the radio joins a BSS elsewhere */
};
/* Moves the running BSS to freq: with a channel switch announcement where
 * the driver has one (0, SWITCHING until the driver reports the switch),
 * else as the reason's rule says (retuned by ap_set_channel, or the
 * error). -ENOTCONN unless STARTED. */
int ap_move(struct ap *ap, uint32_t freq_mhz, const struct ap_chandef *cd, enum ap_move_why why);
/* The channel definition a move to freq gets (the configured width where
 * the channel allows it, else 20 MHz); -EINVAL for a channel the radio
 * lacks, -EPERM for one the AP may not beacon on (ap.c). */
int ap_chan_target(const struct ap *ap, uint32_t freq_mhz, struct ap_chandef *cd);
/* A running BSS may stay on a channel with these flags after a
 * regulatory change (ap.c). */
bool ap_chan_still_allowed(uint32_t flags);

/* ap_mgmt.c */
int ap_mgmt_register(struct ap *ap);
void ap_mgmt_rx(struct ap *ap, const struct driver_event *ev);
void ap_mgmt_tx_status(struct ap *ap, const struct driver_event *ev);
int ap_send_deauth(struct ap *ap, const uint8_t da[6], uint16_t reason, uint64_t *cookie);
int ap_send_disassoc(struct ap *ap, const uint8_t da[6], uint16_t reason);

/* ap_assoc.c: the checks of a (re)association request. */
struct ie_set;
uint16_t ap_assoc_check(struct ap *ap, struct ap_sta *sta, const struct ie_set *ies);
uint16_t ap_assoc_parse_status(struct ap *ap, const uint8_t *ies, size_t len,
			       const struct ie_set *failed);

/* ap_keys.c */
int ap_keys_start(struct ap *ap);
void ap_keys_stop(struct ap *ap);
/* The association is acked: start the 4-way (or authorize an open
 * station). */
void ap_keys_sta_associated(struct ap_sta *sta);
void ap_keys_sta_stop(struct ap_sta *sta);
/* Completed 4-way handshakes of the station's current association. */
unsigned ap_keys_sta_handshakes(const struct ap_sta *sta);
void ap_keys_rx_eapol(struct ap *ap, const struct driver_event *ev);
/* DRIVER_EV_EAPOL_TX_STATUS: tells the station's handshake its message
 * was acknowledged (rsn_auth_tx_status). */
void ap_keys_eapol_tx_status(struct ap *ap, const struct driver_event *ev);
void ap_keys_sta_left(struct ap *ap);
/* The driver lost its keys (BSS restarted): install the GTK again. */
int ap_keys_reinstall(struct ap *ap);
/* For logs and tests: GTK generation (0 on an open BSS), the key ID the
 * driver transmits with, whether a rekey is waiting for stations. */
unsigned ap_keys_generation(const struct ap *ap);
uint8_t ap_keys_tx_idx(const struct ap *ap);
bool ap_keys_rekeying(const struct ap *ap);

#endif
