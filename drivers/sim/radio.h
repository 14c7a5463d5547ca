/* Internal structures of the simulated radio backend ("sim").
 *
 * One struct sim per driver_open(); it owns its radios (struct sim_radio)
 * and their virtual interfaces (struct sim_iface). Each interface attaches
 * to the medium on its own socket (HELLO with the interface address), so the
 * medium's ACK and per-pair link model see every interface as a transmitter
 * and receiver of its own, as the per-vif MAC addresses of real hardware are.
 *
 * The files split by concern:
 *   sim.c          ops table, open/close, radios and interfaces
 *   sim-opts.c     option string parsing
 *   sim-event.c    the deferred event queue (every event goes through it)
 *   radio-chan.c   channels, the built-in regulatory table, capabilities
 *   radio-link.c   the medium socket of one interface
 *   radio-tx.c     per-AC queues, the EDCA model, the TX path
 *   radio-rx.c     RX filtering, decryption, port control, dispatch
 *   radio-data.c   802.11 <-> Ethernet conversion, data TX entry points
 *   radio-mlme.c   station authenticate/associate/deauth, beacon loss
 *   radio-ap.c     beaconing, probe responses, AP forwarding
 *   radio-peer.c   the peer (station table) and its ops
 *   radio-scan.c   scanning and the BSS table
 *   radio-crypto.c key table, CCMP/GCMP, PN and replay checks
 *   radio-tap.c    the TAP data plane
 *
 * Ownership: struct sim owns everything below it; an interface owns its
 * queues, peers, keys, scan state, BSS table and TAP. Key material is wiped
 * with crypto_zero() when a key, peer or interface goes away.
 */
#ifndef WPAD_DRIVERS_SIM_RADIO_H
#define WPAD_DRIVERS_SIM_RADIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/codec/frame.h"
#include "daemon/core/bytes.h"
#include "drivers/driver.h"
#include "drivers/sim/medium-proto.h"

struct loop;
struct loop_io;
struct loop_idle;
struct loop_timer;
struct medium;
struct sim;
struct sim_iface;
struct sim_peer;
struct sim_rx;

#define SIM_ADDR_LEN 6
#define SIM_MAX_FRAME MEDIUM_MAX_FRAME
#define SIM_NUM_TIDS 16
/* Receive replay counters: one per TID, one for non-QoS data, one for
 * protected management frames (and the IPN of an IGTK/BIGTK). */
#define SIM_RX_SLOTS (SIM_NUM_TIDS + 2)
#define SIM_RX_SLOT_NONQOS SIM_NUM_TIDS
#define SIM_RX_SLOT_MGMT (SIM_NUM_TIDS + 1)
#define SIM_PEER_BUCKETS 64
#define SIM_MAX_AP_STATIONS 512
#define SIM_MAX_IFACES_PER_RADIO 64
#define SIM_MAX_AP_IFACES 8
#define SIM_MAX_BSS 256
#define SIM_BSS_MAX_AGE_MS 30000
#define SIM_MGMT_QUEUE_LIMIT 256
#define SIM_MAX_RADIOS 32
#define SIM_ETH_P_EAPOL 0x888e /* the one ethertype a closed port lets through */

/* Internal queue index: the four access categories (enum driver_ac order)
 * and the management queue, which always goes first. */
#define SIM_TXQ_MGMT DRIVER_AC_COUNT
#define SIM_TXQ_COUNT (DRIVER_AC_COUNT + 1)

/* ---- options (sim-opts.c) ---- */

enum sim_medium_kind {
	SIM_MEDIUM_INPROC, /* a medium of our own, in this process */
	SIM_MEDIUM_SHARED, /* one in-process medium for every sim instance */
	SIM_MEDIUM_PATH,   /* wpad-medium serving DIR/medium.sock */
};

struct sim_opts {
	enum sim_medium_kind medium;
	char medium_dir[MEDIUM_PATH_MAX];
	uint32_t radios;
	bool addr_given;
	uint8_t base_addr[SIM_ADDR_LEN];
	char name[DRIVER_IFNAME_MAX - 4];
	bool fail_firmware;
	char country[3];
	uint32_t queue_limit;
	uint32_t active_dwell_ms;
	uint32_t passive_dwell_ms;
	uint32_t beacon_loss_count; /* missed beacon intervals before BEACON_LOSS */
	uint32_t ap_ifaces; /* AP interfaces a radio allows at once (its "combinations") */
	/* netdev=station: each radio starts with a station interface named
	 * RADIO-sta, down, as the kernel gives a new phy its wlanN. */
	bool netdev_station;
};

/* Parses "key=value,...". Unknown keys and bad values are -EINVAL with a
 * log line naming them. */
int sim_opts_parse(const char *options, struct sim_opts *o);

/* ---- events (sim-event.c) ---- */

/* Queues a deep copy of ev; it is delivered from an idle callback, so an
 * op never calls back into its caller and events keep their order. */
void sim_emit(struct sim *sim, const struct driver_event *ev);
int sim_events_init(struct sim *sim);
void sim_events_free(struct sim *sim);

/* ---- channels and regulatory (radio-chan.c) ---- */

struct sim_chan {
	uint32_t freq;
	uint16_t number;
	enum driver_band band;
};

/* The channel with this centre frequency, or NULL if the radio has none. */
const struct sim_chan *sim_chan_find(uint32_t freq);
/* Channel flags under the current regulatory domain of sim. */
uint32_t sim_chan_flags(const struct sim *sim, uint32_t freq);
/* 0 if freq may be used to transmit at all (a station tuning there),
 * -EINVAL if the radio has no such channel, -EPERM if the domain disables
 * it. may_initiate additionally refuses NO_IR/radar channels (beaconing). */
int sim_chan_check(const struct sim *sim, uint32_t freq, bool may_initiate);
/* Every enabled channel, in band order. Returns the count. */
size_t sim_chan_list_enabled(const struct sim *sim, uint32_t *out, size_t max);
/* Validates and looks up a country; 0 or -EINVAL. */
int sim_reg_lookup(const char *alpha2, const void **rules);
int sim_get_capa(void *priv, uint32_t radio_id, struct driver_capa *capa);
int sim_get_regulatory(void *priv, uint32_t radio_id, struct driver_regulatory *reg);
int sim_set_regulatory(void *priv, const char *alpha2);
/* Rates for the band of freq, in Supported Rates encoding (500 kb/s, basic
 * bit set on the mandatory ones). Returns the count. */
size_t sim_band_rates(uint32_t freq, uint8_t *out, size_t max);
/* The HT Capabilities element body values every sim radio advertises. */
uint16_t sim_ht_capab(void);
const uint8_t *sim_ht_mcs(void);

/* ---- the medium link of one interface (radio-link.c) ---- */

struct sim_link {
	int fd;
	struct loop_io *io;
	bool dead;              /* the medium went away */
	uint32_t tuned_freq;    /* what the medium was last told */
	uint64_t next_cookie;   /* medium-level TX cookies */
};

int sim_link_open(struct sim_iface *ifc);
void sim_link_close(struct sim_iface *ifc);
/* Tells the medium which channel to hear and transmit on (0: none). */
void sim_link_tune(struct sim_iface *ifc, uint32_t freq);
/* Sends one frame. Returns the medium cookie (never 0), or 0 if the frame
 * could not be handed to the medium. */
uint64_t sim_link_tx(struct sim_iface *ifc, const uint8_t *frame, size_t len, bool no_ack,
		     uint16_t rate_100kbps);

/* ---- addresses ---- */

static inline bool sim_addr_is_group(const uint8_t *a)
{
	return a[0] & 0x01;
}
extern const uint8_t sim_bcast[SIM_ADDR_LEN];

/* ---- keys (radio-crypto.c) ---- */

struct sim_key {
	bool used;
	enum driver_key_type type;
	uint32_t cipher;
	uint8_t idx;
	bool set_tx;
	size_t len;
	uint8_t key[32];
	uint64_t tx_pn;                 /* last PN used */
	uint64_t rx_pn[SIM_RX_SLOTS];   /* last PN accepted, per TID */
};

/* Length of the protection header + MIC that key adds to a frame. */
size_t sim_key_overhead(const struct sim_key *k);
int sim_key_fill(struct sim_key *k, const struct driver_key *in);
void sim_key_wipe(struct sim_key *k);
/* Encrypts the MPDU in[0..len) (header hdr_len) into out with the next PN.
 * Returns 0 and sets *out_len, or -errno. */
int sim_key_encrypt(struct sim_key *k, const uint8_t *in, size_t len, size_t hdr_len,
		    uint8_t *out, size_t *out_len);
/* Outcome of receive-side protection processing. */
enum sim_rx_crypto {
	SIM_RX_OK,
	SIM_RX_REPLAY,
	SIM_RX_BAD_MIC,
	SIM_RX_MALFORMED,
};
/* Checks the PN against the replay counter of slot, decrypts into plain,
 * and only then advances the counter. */
enum sim_rx_crypto sim_key_decrypt(struct sim_key *k, const uint8_t *frame, size_t len,
				   size_t hdr_len, unsigned slot, uint8_t *plain,
				   size_t *plain_len);
/* Key id from the CCMP/GCMP header of a protected body, or -1. */
int sim_key_id_of(const uint8_t *body, size_t len);
int sim_key_set(void *priv, uint32_t ifindex, const struct driver_key *key);
int sim_key_del(void *priv, uint32_t ifindex, enum driver_key_type type, uint8_t idx,
		const uint8_t *addr);
int sim_key_get_seq(void *priv, uint32_t ifindex, enum driver_key_type type,
		    uint8_t idx, const uint8_t *addr, uint8_t seq[6]);
/* The transmit key for a frame to ra (pairwise, or the default group key
 * for a group address on an AP), or NULL. */
struct sim_key *sim_tx_key(struct sim_iface *ifc, const uint8_t *ra);
void sim_keys_wipe_group(struct sim_iface *ifc);

/* ---- management frame protection (radio-pmf.c) ---- */

/* Protects a management frame as it is queued, as mac80211 does for a
 * robust frame: unicast to an MFP peer with a pairwise key is CCMP/GCMP
 * encrypted, group-addressed with a transmit IGTK (AP) gets an MMIE with
 * the next IPN and a BIP MIC. Returns 1 with the frame in out (cap octets),
 * 0 when no protection applies, or -errno. */
int sim_pmf_tx(struct sim_iface *ifc, const uint8_t *frame, size_t len, uint8_t *out,
	       size_t cap, size_t *out_len);

enum sim_pmf_rx_verdict {
	SIM_PMF_RX_PASS,      /* not subject to protection: process frame as is */
	SIM_PMF_RX_CLEARTEXT, /* verified; processed further from plain/plain_len */
	SIM_PMF_RX_DROP,      /* dropped and counted */
	SIM_PMF_RX_UNPROT_LEAVE, /* unprotected deauth/disassoc on an MFP link: reported */
};

/* Receive-side checks for a parsed management frame m (from peer p, may be
 * NULL): decrypts a protected unicast robust frame, verifies BIP and the
 * IPN of a group-addressed one (the MMIE stripped), drops unprotected
 * robust frames an MFP link must protect, and reports an unprotected
 * deauth/disassoc as DRIVER_EV_UNPROT_DEAUTH/_DISASSOC. plain holds len. */
enum sim_pmf_rx_verdict sim_pmf_rx(struct sim_iface *ifc, struct sim_peer *p,
				   const struct mgmt_frame *m, const uint8_t *frame, size_t len,
				   const struct sim_rx *rx, uint8_t *plain, size_t *plain_len);

/* ---- peers (radio-peer.c) ---- */

struct sim_peer {
	struct sim_peer *next; /* hash chain */
	uint8_t addr[SIM_ADDR_LEN];
	uint32_t flags;        /* enum driver_sta_flag */
	uint16_t aid, capability, listen_interval;
	uint64_t added_us, last_rx_us;
	bool inactive_reported;
	int32_t signal_mbm;
	struct sim_key ptk[2];            /* pairwise keys, key id 0 and 1 */
	uint8_t ptk_tx_idx;
	uint16_t last_seq[SIM_RX_SLOTS + 1]; /* duplicate detection (+1: mgmt) */
	bool seq_valid[SIM_RX_SLOTS + 1];
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint32_t tx_retries, tx_failed;
	uint32_t rx_dropped_replay, rx_dropped_unauth, rx_dropped_decrypt;
};

struct sim_peer *sim_peer_find(struct sim_iface *ifc, const uint8_t *addr);
/* Finds or creates; NULL when the table is full or memory is short. */
struct sim_peer *sim_peer_get(struct sim_iface *ifc, const uint8_t *addr);
void sim_peer_del(struct sim_iface *ifc, const uint8_t *addr);
void sim_peers_flush(struct sim_iface *ifc);
/* Calls fn for every peer (fn may not delete). */
void sim_peers_each(struct sim_iface *ifc, void (*fn)(struct sim_iface *, struct sim_peer *,
						      void *), void *data);
int sim_sta_add(void *priv, uint32_t ifindex, const struct driver_sta_params *p);
int sim_sta_set_flags(void *priv, uint32_t ifindex, const uint8_t *addr, uint32_t set,
		      uint32_t clear);
int sim_sta_del(void *priv, uint32_t ifindex, const uint8_t *addr);
int sim_sta_info(void *priv, uint32_t ifindex, const uint8_t *addr,
		 struct driver_sta_info *info);
int sim_port_authorize(void *priv, uint32_t ifindex, const uint8_t *peer, bool on);
int sim_probe_client(void *priv, uint32_t ifindex, const uint8_t *addr, uint64_t *cookie);

/* ---- transmit queues (radio-tx.c) ---- */

enum sim_txf_kind {
	SIM_TXF_DATA,  /* tx_data / TAP / forwarding: no status event */
	SIM_TXF_MGMT,  /* tx_mgmt: DRIVER_EV_TX_STATUS */
	SIM_TXF_EAPOL, /* tx_eapol: DRIVER_EV_EAPOL_TX_STATUS */
	SIM_TXF_MLME,  /* our own auth/assoc request: status to the MLME */
	SIM_TXF_QUIET, /* our own frame nobody waits for (a deauth we send) */
	SIM_TXF_PROBE, /* probe_client's null data frame: DRIVER_EV_PROBE_STATUS */
};

struct sim_txf {
	struct sim_txf *next;
	enum sim_txf_kind kind;
	uint64_t cookie;   /* the caller's cookie (MGMT, EAPOL) */
	uint32_t freq;     /* channel it must go out on */
	bool no_ack;
	bool protect;      /* encrypt when a key is installed */
	uint8_t tid;
	size_t len;
	uint8_t frame[];   /* the plaintext MPDU */
};

struct sim_txq {
	struct sim_txf *head, *tail;
	uint32_t len, limit;
	bool stopped;
	uint64_t transmitted, dropped;
};

struct sim_tx {
	struct sim_txq q[SIM_TXQ_COUNT];
	struct sim_txf *inflight;
	unsigned inflight_q;
	uint64_t inflight_cookie;   /* medium cookie */
	struct loop_timer *watchdog;
	struct loop_idle *kick;
	bool busy;                  /* inside tx_next(): no re-entry */
	uint32_t rng;
	uint16_t seq_mgmt;
	uint16_t seq_tid[SIM_NUM_TIDS];
};

int sim_tx_init(struct sim_iface *ifc);
/* Fails every queued and in-flight frame (status events: not acked). */
void sim_tx_flush(struct sim_iface *ifc);
/* Drops the data and EAPOL frames queued for addr (a station removed). */
void sim_tx_purge_peer(struct sim_iface *ifc, const uint8_t addr[SIM_ADDR_LEN]);
void sim_tx_free(struct sim_iface *ifc);
/* Queues a frame of kind on queue q (an AC or SIM_TXQ_MGMT). Returns 0,
 * -ENOBUFS (queue stopped) or -ENOMEM. */
int sim_tx_enqueue(struct sim_iface *ifc, unsigned q, enum sim_txf_kind kind,
		   const uint8_t *frame, size_t len, uint32_t freq, bool no_ack, bool protect,
		   uint8_t tid, uint64_t cookie);
/* Looks at the queues again (after a channel change or status). */
void sim_tx_kick(struct sim_iface *ifc);
/* Sends a frame straight to the medium, outside the queues, like a
 * hardware beacon/probe engine: no ACK, no status. */
void sim_tx_direct(struct sim_iface *ifc, uint8_t *frame, size_t len);
/* The medium's TX status for cookie. */
void sim_tx_status(struct sim_iface *ifc, uint64_t medium_cookie, bool acked,
		   unsigned attempts);
uint64_t sim_next_cookie(struct sim *sim);
int sim_get_queue_state(void *priv, uint32_t ifindex, struct driver_queue_state *q);
int sim_tx_mgmt(void *priv, uint32_t ifindex, uint32_t freq, const uint8_t *frame,
		size_t len, bool no_ack, uint64_t *cookie);

/* ---- data path (radio-data.c) ---- */

/* Sends an Ethernet-level payload from this interface: builds the 802.11
 * data frame for the role and queues it on the AC of priority. src is the
 * source address (the interface's own, or a bridged host's on an AP). */
int sim_data_send(struct sim_iface *ifc, const uint8_t *dst, const uint8_t *src,
		  uint16_t ethertype, const uint8_t *payload, size_t len, uint8_t priority,
		  enum sim_txf_kind kind, bool unencrypted, uint64_t cookie);
int sim_tx_data(void *priv, uint32_t ifindex, const uint8_t *dst, uint16_t ethertype,
		const uint8_t *payload, size_t len, uint8_t priority);
int sim_tx_eapol(void *priv, uint32_t ifindex, const uint8_t *dst, const uint8_t *body,
		 size_t len, bool unencrypted, uint64_t *cookie);
/* Delivers a received, decrypted MSDU (after the LLC/SNAP header). */
void sim_data_deliver(struct sim_iface *ifc, struct sim_peer *peer, const uint8_t *da,
		      const uint8_t *sa, uint16_t ethertype, const uint8_t *payload,
		      size_t len, uint8_t tid, bool encrypted);
/* 802.1D priority of an Ethernet payload (VLAN PCP, IP DSCP), 0 if none. */
uint8_t sim_classify(uint16_t ethertype, const uint8_t *payload, size_t len);

/* ---- receive (radio-rx.c) ---- */

struct sim_rx {
	uint32_t freq;
	int32_t signal_mbm;
};

/* Processes one received frame; never trusts a byte of it. */
void sim_rx_frame(struct sim_iface *ifc, const uint8_t *frame, size_t len,
		  const struct sim_rx *rx);
int sim_register_mgmt(void *priv, uint32_t ifindex, uint16_t frame_type,
		      const uint8_t *match, size_t match_len);
void sim_regs_free(struct sim_iface *ifc);
/* Reports a management frame up as RX_MGMT if a registration matches. */
bool sim_rx_mgmt_up(struct sim_iface *ifc, const struct mgmt_frame *m, const uint8_t *frame,
		    size_t len, const struct sim_rx *rx);

/* ---- station MLME (radio-mlme.c) ---- */

enum sim_mlme_state {
	SIM_MLME_IDLE,
	SIM_MLME_AUTHENTICATING,
	SIM_MLME_AUTHENTICATED,
	SIM_MLME_ASSOCIATING,
	SIM_MLME_ASSOCIATED,
};

struct sim_mlme {
	enum sim_mlme_state state;
	uint8_t bssid[SIM_ADDR_LEN];
	uint32_t freq;
	uint16_t alg;          /* of the authentication in progress */
	uint8_t *req;          /* the request being (re)transmitted */
	size_t req_len;
	/* The last authentication frame asked for, whose TX status goes to
	 * the SME: still reported after an SAE answer dropped the request. */
	uint8_t *auth_sent;
	size_t auth_sent_len;
	unsigned tries;
	uint32_t timeout_ms;
	struct loop_timer *timer;   /* response timeout and retries */
	struct loop_timer *bl_timer; /* beacon-loss watchdog */
	uint64_t last_beacon_us;
	uint16_t beacon_int;
	bool loss_reported;
	uint16_t aid;
	bool mfp;              /* the association asked for management frame protection */
};

const char *sim_mlme_state_name(enum sim_mlme_state s);
int sim_mlme_init(struct sim_iface *ifc);
/* Tears the MLME down: pending requests give timed-out events, an
 * association gives a locally generated DEAUTH. */
void sim_mlme_stop(struct sim_iface *ifc, bool emit);
void sim_mlme_free(struct sim_iface *ifc);
void sim_mlme_rx(struct sim_iface *ifc, const struct mgmt_frame *m, const uint8_t *frame,
		 size_t len, const struct sim_rx *rx);
/* TX status of one of our own MLME frames (frame: as it went out). */
void sim_mlme_tx_status(struct sim_iface *ifc, bool acked, const uint8_t *frame, size_t len);
bool sim_mlme_connected(const struct sim_iface *ifc);
/* Pause and resume the beacon-loss watchdog around a scan. */
void sim_mlme_scan_pause(struct sim_iface *ifc, bool paused);
int sim_authenticate(void *priv, uint32_t ifindex, const struct driver_auth_params *p);
int sim_associate(void *priv, uint32_t ifindex, const struct driver_assoc_params *p);
int sim_deauthenticate(void *priv, uint32_t ifindex, const uint8_t *bssid,
		       uint16_t reason);

/* ---- access point (radio-ap.c) ---- */

struct sim_ap {
	bool started;
	struct driver_ssid ssid;
	bool hidden;
	uint16_t beacon_int;
	uint8_t dtim_period, dtim_count;
	uint8_t *head, *tail, *probe_resp;
	size_t head_len, tail_len, probe_resp_len;
	bool isolate;
	uint16_t inactivity_s;
	uint64_t start_us;
	struct loop_timer *beacon_timer;
	struct loop_timer *inact_timer;
	/* The channel definition start_ap was given (width 0: 20 MHz). */
	struct driver_chandef chandef;
	/* A channel switch in progress (radio-ap.c): the count the next beacon
	 * carries at csa_off[] of the tail, the channel and the templates to
	 * take at zero (after: owned copies). */
	bool csa_active;
	uint8_t csa_count;
	size_t csa_n_off;
	uint16_t csa_off[DRIVER_CSA_MAX_OFFSETS];
	struct driver_chandef csa_chandef;
	struct driver_ap_params after;
	/* A channel availability check running (radio-dfs.c). */
	bool cac_active;
	struct driver_chandef cac_chandef;
	struct loop_timer *cac_timer;
};

int sim_ap_init(struct sim_iface *ifc);
void sim_ap_stop(struct sim_iface *ifc);
void sim_ap_free(struct sim_iface *ifc);
/* Moves a started AP to freq (the AP follows its radio's station). */
void sim_ap_follow(struct sim_iface *ifc, uint32_t freq);
/* Answers a probe request from the probe-response template. Returns true
 * when the offload handled it. */
bool sim_ap_probe_offload(struct sim_iface *ifc, const struct mgmt_frame *m);
/* Forwards a frame received from a station: true if it was consumed
 * (sent on to another station only). */
bool sim_ap_forward(struct sim_iface *ifc, const uint8_t *da, const uint8_t *sa,
		    uint16_t ethertype, const uint8_t *payload, size_t len, uint8_t tid);
/* The channel definition is coherent (control inside, center on a 20 MHz
 * grid) and every 20 MHz channel it covers may be transmitted on:
 * 0, -EINVAL, or -EPERM (regulatory). */
int sim_chandef_check(const struct sim *sim, uint32_t control_mhz,
		      const struct driver_chandef *cd);
int sim_channel_switch(void *priv, uint32_t ifindex, const struct driver_csa_params *p);
/* Drops a channel switch in progress (stop, free). */
void sim_ap_csa_clear(struct sim_iface *ifc);

/* radio-dfs.c: channel availability checks on virtual time, radar
 * injection, the non-occupancy period, and the station following an
 * AP's channel switch announcement. */
#define SIM_CAC_MS 60000u
#define SIM_NOP_MS (30u * 60u * 1000u)
int sim_start_radar_detection(void *priv, uint32_t ifindex, const struct driver_chandef *cd);
void sim_dfs_iface_stop(struct sim_iface *ifc);
/* DFS_AVAILABLE/UNAVAILABLE bits of a radar channel now. */
uint32_t sim_dfs_flags(const struct sim *sim, uint32_t freq);
void sim_dfs_reg_reset(struct sim *sim);
void sim_dfs_free(struct sim *sim);
/* Radar on freq (sim_driver_radar). */
int sim_dfs_radar(struct sim *sim, uint32_t freq);
/* A beacon from the station's BSS: follow its CSA/ECSA when it is due. */
void sim_mlme_csa(struct sim_iface *ifc, const struct mgmt_frame *f);
int sim_start_ap(void *priv, uint32_t ifindex, const struct driver_ap_params *p);
int sim_set_beacon(void *priv, uint32_t ifindex, const struct driver_ap_params *p);
int sim_stop_ap(void *priv, uint32_t ifindex);

/* ---- scanning (radio-scan.c) ---- */

struct sim_bss {
	struct sim_bss *next;
	uint8_t bssid[SIM_ADDR_LEN];
	uint32_t freq;
	int32_t signal_mbm;
	uint16_t beacon_int, capability;
	uint64_t tsf;
	uint64_t seen_us;
	bool from_probe_resp;
	size_t ies_len;
	uint8_t *ies;
};

struct sim_scan;

void sim_scan_cancel(struct sim_iface *ifc, bool emit);
void sim_bss_free_all(struct sim_iface *ifc);
/* A beacon or probe response was heard. */
void sim_scan_rx(struct sim_iface *ifc, const struct mgmt_frame *m, const struct sim_rx *rx);
int sim_scan_trigger(void *priv, uint32_t ifindex, const struct driver_scan_params *p);
int sim_scan_abort(void *priv, uint32_t ifindex);
int sim_get_scan_results(void *priv, uint32_t ifindex, struct driver_scan_results *res);

/* ---- TAP data plane (radio-tap.c) ---- */

struct sim_tap;

int sim_bind_data_plane(void *priv, uint32_t ifindex, const char *os_ifname);
void sim_tap_close(struct sim_iface *ifc);
/* Writes a received MSDU as an Ethernet frame to the TAP. */
void sim_tap_write(struct sim_iface *ifc, const uint8_t *da, const uint8_t *sa,
		   uint16_t ethertype, const uint8_t *payload, size_t len);
/* An AC woke: a frame held back by a full queue may go now. */
void sim_tap_queue_woken(struct sim_iface *ifc, enum driver_ac ac);
void sim_tap_set_up(struct sim_iface *ifc, bool up);

/* ---- radios, interfaces, the instance (sim.c) ---- */

struct sim_mgmt_reg {
	struct sim_mgmt_reg *next;
	uint16_t frame_type;
	size_t match_len;
	uint8_t match[32];
};

/* Drops counted per interface where no peer exists to blame (tests read
 * them through sim.h). */
struct sim_iface_stats {
	uint64_t rx_frames;
	uint64_t rx_malformed;
	uint64_t rx_not_for_us;
	uint64_t rx_class3;     /* data from an unknown or unassociated peer */
	uint64_t rx_duplicate;
	uint64_t rx_no_key;
	uint64_t rx_replay;
	uint64_t rx_bad_mic;
	uint64_t rx_unauth;
	uint64_t rx_unprot_mgmt; /* robust management frame without protection on an MFP link */
	uint64_t rx_bip_bad_mic; /* group-addressed robust frame: wrong BIP MIC or no MMIE */
	uint64_t rx_bip_replay;  /* group-addressed robust frame: IPN not above the last */
	uint64_t tap_rx_dropped, tap_tx_dropped;
};

struct sim_radio {
	struct sim_radio *next;
	struct sim *sim;
	uint32_t id;
	char name[DRIVER_IFNAME_MAX];
	uint8_t perm_addr[SIM_ADDR_LEN];
	unsigned serial;   /* this radio's index for address derivation */
	bool dead;         /* firmware failed to load: nothing comes up */
};

struct sim_iface {
	struct sim_iface *next;
	struct sim *sim;
	struct sim_radio *radio;
	uint32_t ifindex;
	char name[DRIVER_IFNAME_MAX];
	uint8_t addr[SIM_ADDR_LEN];
	enum driver_iftype type;
	bool up;
	/* Made by iface_add (its user's own, as nl80211's SOCKET_OWNER ones);
	 * netdev=station's are the system's, the only ones iface_adopt takes. */
	bool created;
	/* Taken over (iface_adopt): given back on iface_release with the type
	 * and up state it had, never deleted. */
	bool adopted;
	enum driver_iftype found_type;
	bool found_up;
	bool power_save;
	uint32_t oper_freq;   /* home channel: scans return here */
	struct sim_link link;
	struct sim_tx tx;
	struct sim_scan *scan;
	struct sim_bss *bss;
	size_t n_bss;
	struct sim_mlme mlme;
	struct sim_ap ap;
	struct sim_peer *peers[SIM_PEER_BUCKETS];
	size_t n_peers;
	struct sim_key group[8]; /* GTK ids 0..3, IGTK ids 4 and 5, BIGTK 6 and 7 */
	struct sim_mgmt_reg *regs;
	struct sim_tap *tap;
	struct sim_iface_stats stats;
};

struct sim_event_entry;

#define SIM_MAX_SURVEY_LOAD 48
#define SIM_MAX_DFS 32

struct sim {
	struct driver *drv;
	struct loop *loop;
	struct sim_opts opts;
	struct medium *medium;   /* owned when opts.medium == SIM_MEDIUM_INPROC */
	struct sim_radio *radios;
	uint32_t next_radio_id;
	struct sim_iface *ifaces;
	char country[3];
	uint64_t next_cookie;
	struct sim_event_entry *ev_head, *ev_tail;
	struct loop_idle *ev_idle;
	bool draining;   /* delivering events: close must not free sim */
	bool closed;
	/* The channel survey tests script (sim_driver_set_survey): busy share
	 * and noise per frequency; unset channels are idle at -95 dBm. */
	struct sim_survey_load {
		uint32_t freq;
		uint8_t busy_pct;
		int8_t noise_dbm;
	} survey[SIM_MAX_SURVEY_LOAD];
	size_t n_survey;
	uint64_t survey_since_us; /* when the survey counters started */
	/* DFS state of radar channels (radio-dfs.c): a passed CAC, or radar
	 * and the end of its non-occupancy period. */
	struct sim_dfs_entry {
		uint32_t freq;
		bool available;
		uint64_t nop_until_us; /* 0: no radar */
	} dfs[SIM_MAX_DFS];
	size_t n_dfs;
	struct loop_timer *nop_timer;
};
int sim_get_survey(void *priv, uint32_t ifindex, struct driver_survey *out, size_t max,
		   size_t *n);

struct sim_iface *sim_iface_find(struct sim *sim, uint32_t ifindex);
struct sim_radio *sim_radio_find(struct sim *sim, uint32_t id);
/* Operating channel of the other interfaces of ifc's radio that hold one
 * (AP started, station connecting or connected), or 0. */
uint32_t sim_radio_busy_freq(struct sim_iface *ifc, enum driver_iftype type);
/* Makes freq the home channel of ifc and retunes it; APs on the radio
 * follow a station. */
void sim_iface_set_home(struct sim_iface *ifc, uint32_t freq);
/* Emits an event for ifc with the given type (fields zeroed). */
void sim_emit_simple(struct sim_iface *ifc, enum driver_event_type type);
/* Microseconds of one TU. */
#define SIM_TU_US 1024u

#endif
