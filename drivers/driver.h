/* The driver interface: one ops table every backend implements, and one event
 * funnel through which backends report what happens.
 *
 * Model (the nl80211 one, so real hardware maps onto it directly):
 *   - a driver instance (struct driver) is one backend opened once;
 *   - it exposes radios (wiphys), identified by a radio id;
 *   - each radio hosts virtual interfaces (netdevs), identified by ifindex;
 *   - the station SME lives in user space: the station role asks the driver
 *     to authenticate/associate (the driver's MLME builds and sends the
 *     frames, as mac80211 does) and gets the peer's answer back as an event;
 *     the access point role receives management frames as events and
 *     answers with tx_mgmt, as hostapd does with nl80211.
 *
 * Callers never touch ops-> directly: they call the driver_*() wrappers
 * below, which return -EOPNOTSUPP when a backend lacks an op. All calls return
 * 0 or a negative errno. Buffers passed in are borrowed for the call only;
 * events borrow their data for the duration of the callback only.
 *
 * Regulatory errno convention (every backend): a frequency the radio does
 * not have at all is -EINVAL; a channel the radio has but the regulatory
 * domain forbids for the requested use -- disabled outright, or NO_IR/radar
 * when the op would initiate transmissions (start_ap, set_channel of an AP)
 * -- is -EPERM, which the D-Bus layer reports as RegulatoryForbidden.
 */
#ifndef WPAD_DRIVERS_DRIVER_H
#define WPAD_DRIVERS_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct loop;
struct driver;

#define DRIVER_ADDR_LEN 6
#define DRIVER_MAX_CHANNELS 64
#define DRIVER_MAX_RATES 16
#define DRIVER_MAX_SCAN_SSIDS 16
#define DRIVER_MAX_SCAN_FREQS 64
#define DRIVER_MAX_REG_RULES 16
#define DRIVER_IFNAME_MAX 16

/* ---- capabilities ---- */

enum driver_iftype {
	DRIVER_IFTYPE_UNSPEC = 0,
	DRIVER_IFTYPE_STATION = 1u << 0,
	DRIVER_IFTYPE_AP = 1u << 1,
	DRIVER_IFTYPE_MONITOR = 1u << 2,
	DRIVER_IFTYPE_MESH = 1u << 3,
};

/* Cipher suites (bit per suite); the selector is 00-0F-AC:n. */
enum driver_cipher {
	DRIVER_CIPHER_WEP40 = 1u << 0,
	DRIVER_CIPHER_TKIP = 1u << 1,
	DRIVER_CIPHER_CCMP_128 = 1u << 2,
	DRIVER_CIPHER_WEP104 = 1u << 3,
	DRIVER_CIPHER_BIP_CMAC_128 = 1u << 4,
	DRIVER_CIPHER_GCMP_128 = 1u << 5,
	DRIVER_CIPHER_GCMP_256 = 1u << 6,
	DRIVER_CIPHER_CCMP_256 = 1u << 7,
	DRIVER_CIPHER_BIP_GMAC_128 = 1u << 8,
	DRIVER_CIPHER_BIP_GMAC_256 = 1u << 9,
	DRIVER_CIPHER_BIP_CMAC_256 = 1u << 10,
};

enum driver_capa_flag {
	DRIVER_CAPA_USER_SME = 1u << 0,        /* authenticate/associate ops */
	DRIVER_CAPA_FULLMAC_CONNECT = 1u << 1, /* connect op (no user SME) */
	DRIVER_CAPA_AP_PROBE_RESP_OFFLOAD = 1u << 2,
	DRIVER_CAPA_MONITOR = 1u << 3,
	DRIVER_CAPA_CONTROL_PORT = 1u << 4, /* EAPOL over the driver, not a socket */
	DRIVER_CAPA_AP_STA_CONCURRENT = 1u << 5,
	DRIVER_CAPA_QOS_QUEUES = 1u << 6, /* per-AC queues and queue events */
	DRIVER_CAPA_POWER_SAVE = 1u << 7,
	DRIVER_CAPA_HW_CRYPTO = 1u << 8, /* encrypts/decrypts data with keys */
	DRIVER_CAPA_DATA_PLANE = 1u << 9, /* carries data to an OS netdev/TAP */
	DRIVER_CAPA_REGULATORY = 1u << 10,
	DRIVER_CAPA_HOTPLUG = 1u << 11, /* radios can appear and vanish */
	/* An Ethernet port (the wired backend): EAPOL and link state only, no
	 * 802.11 ops -- no scan, MLME, AP, keys. */
	DRIVER_CAPA_WIRED = 1u << 12,
	DRIVER_CAPA_DFS = 1u << 13, /* radar detection (CAC) and channel switch for an AP */
};

/* AKM suites (bit per suite) the driver can run or pass through; the
 * selector is 00-0F-AC:n (IEEE 802.11-2020 Table 9-151). A backend that
 * cannot tell (older kernels) reports the ones any user-space SME can use
 * over it. */
enum driver_akm {
	DRIVER_AKM_8021X = 1u << 0,          /* :1 */
	DRIVER_AKM_PSK = 1u << 1,            /* :2 */
	DRIVER_AKM_FT_8021X = 1u << 2,       /* :3 */
	DRIVER_AKM_FT_PSK = 1u << 3,         /* :4 */
	DRIVER_AKM_8021X_SHA256 = 1u << 4,   /* :5 */
	DRIVER_AKM_PSK_SHA256 = 1u << 5,     /* :6 */
	DRIVER_AKM_SAE = 1u << 6,            /* :8 */
	DRIVER_AKM_FT_SAE = 1u << 7,         /* :9 */
	DRIVER_AKM_8021X_SUITE_B = 1u << 8,  /* :11 */
	DRIVER_AKM_8021X_SUITE_B_192 = 1u << 9, /* :12 */
	DRIVER_AKM_OWE = 1u << 10,           /* :18 */
	DRIVER_AKM_SAE_EXT_KEY = 1u << 11,   /* :24 */
};

/* Extended features: what the device does itself or lets user space do. */
enum driver_ext_feature {
	DRIVER_EXT_MFP = 1u << 0,               /* management frame protection (BIP, protected robust frames) */
	DRIVER_EXT_BEACON_PROTECTION = 1u << 1, /* AP: BIGTK, beacons with an MMIE */
	DRIVER_EXT_BEACON_PROTECTION_CLIENT = 1u << 2, /* station: verifies protected beacons */
	DRIVER_EXT_SAE_OFFLOAD_STA = 1u << 3,   /* SAE run by the device (station) */
	DRIVER_EXT_SAE_OFFLOAD_AP = 1u << 4,
	DRIVER_EXT_4WAY_OFFLOAD_STA = 1u << 5,  /* 4-way handshake with a PSK/PMK in the device */
	DRIVER_EXT_4WAY_OFFLOAD_AP = 1u << 6,
	DRIVER_EXT_CONTROL_PORT = 1u << 7,      /* EAPOL over the driver channel */
	DRIVER_EXT_CONTROL_PORT_NO_PREAUTH = 1u << 8,
	DRIVER_EXT_EXTERNAL_AUTH = 1u << 9,     /* fullmac: SAE done by user space on request */
	DRIVER_EXT_PMKSA_CACHE = 1u << 10,      /* set/del PMKSA reach the device */
	DRIVER_EXT_UNPROT_DEAUTH_EVENT = 1u << 11, /* reports unprotected deauth/disassoc of an MFP link */
	DRIVER_EXT_OCV = 1u << 12,              /* operating channel validation */
	/* Station MLME: DRIVER_EV_AUTH_TX_STATUS for the frame of each
	 * authenticate request, so the SME times its retransmissions from
	 * the air, not from the request. The sim sets it; nl80211 cannot
	 * (mac80211 reports no TX status for NL80211_CMD_AUTHENTICATE: it
	 * times its own SAE retries from the ACK and reports only the final
	 * timeout). */
	DRIVER_EXT_AUTH_TX_STATUS = 1u << 13,
};

enum driver_channel_flag {
	DRIVER_CHAN_DISABLED = 1u << 0,
	DRIVER_CHAN_NO_IR = 1u << 1, /* passive scan only, no beaconing */
	DRIVER_CHAN_RADAR = 1u << 2, /* DFS required */
	DRIVER_CHAN_INDOOR_ONLY = 1u << 3,
	/* Regulatory limits on wider channels using this one (nl80211's
	 * FREQUENCY_ATTR_NO_HT40_MINUS/_PLUS, _NO_80MHZ, _NO_160MHZ). */
	DRIVER_CHAN_NO_HT40_MINUS = 1u << 4, /* no secondary channel below */
	DRIVER_CHAN_NO_HT40_PLUS = 1u << 5,  /* no secondary channel above */
	DRIVER_CHAN_NO_80MHZ = 1u << 6,
	DRIVER_CHAN_NO_160MHZ = 1u << 7,
	/* DFS state of a radar channel (nl80211's FREQUENCY_ATTR_DFS_STATE):
	 * neither bit: usable after a CAC; AVAILABLE: a CAC passed, beacon at
	 * once; UNAVAILABLE: radar was detected, the non-occupancy period
	 * (30 minutes) runs. */
	DRIVER_CHAN_DFS_AVAILABLE = 1u << 8,
	DRIVER_CHAN_DFS_UNAVAILABLE = 1u << 9,
};

enum driver_band {
	DRIVER_BAND_2GHZ = 0,
	DRIVER_BAND_5GHZ = 1,
	DRIVER_BAND_6GHZ = 2,
	DRIVER_BAND_COUNT
};

struct driver_channel {
	uint32_t freq_mhz;
	uint16_t number;
	uint32_t flags; /* enum driver_channel_flag */
	int8_t max_power_dbm;
	uint32_t dfs_cac_ms; /* radar channels: the CAC time; 0 = 60 s */
};

struct driver_band_info {
	bool present;
	size_t n_channels;
	struct driver_channel channels[DRIVER_MAX_CHANNELS];
	size_t n_rates;
	uint16_t rates_100kbps[DRIVER_MAX_RATES]; /* 10 = 1 Mb/s */
	bool ht;
	uint16_t ht_capab; /* HT Capabilities Info field as sent */
	uint8_t ht_mcs_rx[10];
	bool vht;
	uint32_t vht_capab;
	/* VHT Supported MCS and NSS Set as in the element (rx map, rx highest,
	 * tx map, tx highest, little-endian). */
	uint8_t vht_mcs[8];
	/* HE, for the AP interface type (nl80211's BAND_ATTR_IFTYPE_DATA):
	 * the HE Capabilities element fields as the radio reports them. */
	bool he;
	uint8_t he_mac_cap[6];
	uint8_t he_phy_cap[11];
	uint8_t he_mcs[12];      /* 4, 8 or 12 octets used, per he_phy_cap */
	uint8_t he_ppe[25];
	uint8_t he_ppe_len;      /* 0: no PPE thresholds */
};

struct driver_capa {
	uint32_t iftypes;   /* enum driver_iftype bits supported */
	uint32_t ciphers;   /* enum driver_cipher bits */
	uint32_t flags;     /* enum driver_capa_flag bits */
	uint32_t akms;      /* enum driver_akm bits */
	uint32_t ext_features; /* enum driver_ext_feature bits */
	uint32_t auth_algs; /* bits (1u << enum driver_auth_alg) the MLME accepts */
	uint8_t max_scan_ssids;
	uint16_t max_scan_freqs;
	uint16_t max_ap_stations;
	uint8_t max_interfaces; /* concurrent virtual interfaces per radio */
	uint8_t max_ap_interfaces;
	struct driver_band_info bands[DRIVER_BAND_COUNT];
};

/* ---- radios and interfaces ---- */

struct driver_radio_info {
	uint32_t id;
	char name[DRIVER_IFNAME_MAX]; /* "phy0", "simradio0" */
	uint8_t perm_addr[DRIVER_ADDR_LEN];
};

struct driver_iface_info {
	uint32_t ifindex;
	uint32_t radio_id;
	char name[DRIVER_IFNAME_MAX];
	uint8_t addr[DRIVER_ADDR_LEN];
	enum driver_iftype iftype;
	uint32_t freq_mhz; /* 0 when not on a channel */
	bool up;
};

/* ---- scanning ---- */

struct driver_ssid {
	uint8_t len;
	uint8_t ssid[32];
};

struct driver_scan_params {
	bool passive;            /* listen for beacons only */
	size_t n_ssids;          /* 0 with !passive: one wildcard probe */
	struct driver_ssid ssids[DRIVER_MAX_SCAN_SSIDS];
	size_t n_freqs;          /* 0: every usable channel */
	uint32_t freqs[DRIVER_MAX_SCAN_FREQS];
	uint32_t dwell_ms;       /* 0: backend default */
};

struct driver_scan_result {
	uint8_t bssid[DRIVER_ADDR_LEN];
	uint32_t freq_mhz;
	int32_t signal_mbm; /* 100 * dBm */
	uint16_t beacon_interval;
	uint16_t capability;
	uint64_t tsf;
	uint32_t age_ms;       /* since this BSS was last heard */
	bool from_probe_resp;  /* the IEs come from a probe response */
	size_t ies_len;
	uint8_t *ies;          /* owned by the result list */
};

struct driver_scan_results {
	size_t n;
	struct driver_scan_result *results;
};
void driver_scan_results_free(struct driver_scan_results *res);

/* ---- station-side MLME (user-space SME) ---- */

enum driver_auth_alg {
	DRIVER_AUTH_OPEN = 0,
	DRIVER_AUTH_SHARED_KEY = 1,
	DRIVER_AUTH_FT = 2,
	DRIVER_AUTH_SAE = 3,
	DRIVER_AUTH_FILS_SK = 4,
	DRIVER_AUTH_FILS_SK_PFS = 5,
	DRIVER_AUTH_FILS_PK = 6,
	DRIVER_AUTH_COUNT
};
#define DRIVER_AUTH_BIT(alg) (1u << (alg))

struct driver_auth_params {
	uint8_t bssid[DRIVER_ADDR_LEN];
	uint32_t freq_mhz;
	struct driver_ssid ssid;
	enum driver_auth_alg alg;
	/* SAE: the Authentication transaction sequence number and status
	 * code (2 octets each, little-endian), then the commit or confirm
	 * fields -- the layout of nl80211's SAE_DATA. FT: the FT elements. */
	const uint8_t *auth_data;
	size_t auth_data_len;
	const uint8_t *ies;       /* extra elements in the authentication frame */
	size_t ies_len;
};

struct driver_assoc_params {
	uint8_t bssid[DRIVER_ADDR_LEN];
	uint32_t freq_mhz;
	struct driver_ssid ssid;
	const uint8_t *prev_bssid; /* non-NULL: reassociation */
	const uint8_t *ies;        /* RSN element, RSNXE, extended caps, ... */
	size_t ies_len;
	bool wmm;
	bool use_mfp;
	/* connect only (fullmac): the authentication algorithm; Open System
	 * when zero. The user-space SME passes it to authenticate instead. */
	enum driver_auth_alg auth_alg;
	/* connect only: a PMK or PSK for a device doing the 4-way itself
	 * (DRIVER_EXT_4WAY_OFFLOAD_STA); NULL otherwise. */
	const uint8_t *pmk;
	size_t pmk_len;
};

/* ---- access point ---- */

/* The operating channel: control (primary 20 MHz) channel, width and
 * center frequencies, as nl80211's chandef. width_mhz 0 means 20 MHz
 * (HT20 where the band has HT); center1 0 means the control channel. */
struct driver_chandef {
	uint32_t control_mhz;
	uint16_t width_mhz;   /* 20, 40, 80, 160 */
	uint32_t center1_mhz;
	uint32_t center2_mhz; /* 80+80 only; 0 otherwise */
};

struct driver_ap_params {
	struct driver_ssid ssid;
	bool hidden_ssid;           /* beacons carry an empty SSID */
	uint32_t freq_mhz;
	uint16_t beacon_interval;   /* TU */
	uint8_t dtim_period;
	const uint8_t *beacon_head; /* MAC header ... up to and excluding TIM */
	size_t beacon_head_len;
	const uint8_t *beacon_tail; /* elements after the TIM */
	size_t beacon_tail_len;
	const uint8_t *probe_resp;  /* full template, for probe-response offload */
	size_t probe_resp_len;
	bool ap_isolate;            /* no frames forwarded between stations */
	uint16_t inactivity_timeout_s;
	/* Authentication algorithms the AP accepts, DRIVER_AUTH_BIT()s; 0 means
	 * Open System only (the roles answer Authentication frames
	 * themselves; a device with an SME of its own filters on this). */
	uint32_t auth_algs;
	/* The channel definition; chandef.width_mhz 0: 20 MHz at freq_mhz. */
	struct driver_chandef chandef;
};

enum driver_sta_flag {
	DRIVER_STA_AUTHENTICATED = 1u << 0,
	DRIVER_STA_ASSOCIATED = 1u << 1,
	DRIVER_STA_AUTHORIZED = 1u << 2, /* controlled port open */
	DRIVER_STA_WMM = 1u << 3,
	DRIVER_STA_MFP = 1u << 4,
	DRIVER_STA_SHORT_PREAMBLE = 1u << 5,
};

struct driver_sta_params {
	uint8_t addr[DRIVER_ADDR_LEN];
	uint16_t aid;
	uint16_t capability;
	uint16_t listen_interval;
	size_t n_rates;
	uint8_t rates[DRIVER_MAX_RATES]; /* as in the Supported Rates element */
	uint32_t flags; /* enum driver_sta_flag */
	bool ht;
	uint16_t ht_capab;
	/* The station's capability element bodies (borrowed; NULL when the
	 * station did not send one or the BSS does not use that PHY): HT
	 * Capabilities (26 octets), VHT Capabilities (12), HE Capabilities
	 * (after the Element ID Extension octet, he_cap_len octets). */
	const uint8_t *ht_cap;
	const uint8_t *vht_cap;
	const uint8_t *he_cap;
	size_t he_cap_len;
};

struct driver_sta_info {
	uint8_t addr[DRIVER_ADDR_LEN];
	uint32_t flags;
	int32_t signal_mbm;
	uint32_t inactive_ms;
	uint64_t rx_packets, tx_packets;
	uint64_t rx_bytes, tx_bytes;
	uint32_t tx_retries, tx_failed;
	uint32_t rx_dropped_replay, rx_dropped_unauth, rx_dropped_decrypt;
	uint32_t connected_s;
};

/* ---- keys ---- */

enum driver_key_type {
	DRIVER_KEY_PAIRWISE,
	DRIVER_KEY_GROUP, /* GTK: receive on station, transmit on AP */
	DRIVER_KEY_IGTK,  /* management group key, key_idx 4/5: BIP */
	DRIVER_KEY_BIGTK, /* beacon key, key_idx 6/7: BIP over beacons */
};

/* Key indexes of the group management keys (IEEE 802.11-2020 12.7.2). */
#define DRIVER_IGTK_IDX_FIRST 4
#define DRIVER_BIGTK_IDX_FIRST 6

struct driver_key {
	enum driver_key_type type;
	uint32_t cipher;                /* one enum driver_cipher bit */
	uint8_t key_idx;                /* 0..3 (pairwise 0/1, IGTK 4/5) */
	uint8_t addr[DRIVER_ADDR_LEN];  /* peer for pairwise; ignored for group */
	size_t key_len;
	uint8_t key[32];
	/* Sequence counter, LE: for a receive key the RSC/PN below which frames
	 * are replays; for an IGTK/BIGTK the AP transmits with, the next IPN
	 * it uses (key_get_seq reads the current one back). */
	uint8_t seq[6];
	bool set_tx;                    /* make it the default transmit key */
};

/* ---- PMKs and the PMKSA cache of a device ---- */

#define DRIVER_PMKID_LEN 16
#define DRIVER_PMK_MAX 64

struct driver_pmksa {
	uint8_t bssid[DRIVER_ADDR_LEN]; /* the AP (station) or station (AP) */
	uint8_t pmkid[DRIVER_PMKID_LEN];
	size_t pmk_len;                 /* 0: PMKID only (the device keeps no PMK) */
	uint8_t pmk[DRIVER_PMK_MAX];
	uint32_t lifetime_s;            /* 0: no expiry */
	uint32_t akm;                   /* one enum driver_akm bit, 0 when unknown */
};

/* ---- external authentication (fullmac SAE by user space) ---- */

enum driver_external_auth_action {
	DRIVER_EXTERNAL_AUTH_START,
	DRIVER_EXTERNAL_AUTH_ABORT,
};

/* ---- regulatory, power, queues ---- */

struct driver_reg_rule {
	uint32_t start_mhz, end_mhz;
	uint32_t max_bw_mhz;
	int8_t max_eirp_dbm;
	uint32_t flags; /* enum driver_channel_flag applied to the range */
};

struct driver_regulatory {
	char alpha2[3]; /* "00" is the world domain */
	bool dfs_required;
	size_t n_rules;
	struct driver_reg_rule rules[DRIVER_MAX_REG_RULES];
};

/* 802.11 access categories, in queue index order. */
enum driver_ac {
	DRIVER_AC_VO = 0,
	DRIVER_AC_VI = 1,
	DRIVER_AC_BE = 2,
	DRIVER_AC_BK = 3,
	DRIVER_AC_COUNT
};

struct driver_queue_stats {
	uint32_t length;  /* frames waiting */
	uint32_t limit;   /* capacity */
	bool stopped;     /* full: the caller must wait for a wake event */
	uint64_t transmitted;
	uint64_t dropped;
};

struct driver_queue_state {
	struct driver_queue_stats ac[DRIVER_AC_COUNT];
};

/* Maps an 802.1D user priority (0..7) to its access category. */
enum driver_ac driver_ac_from_priority(uint8_t priority);

/* ---- channel survey (automatic channel selection) ---- */

#define DRIVER_MAX_SURVEY (2 * DRIVER_MAX_CHANNELS)

/* What the radio measured on one channel since it was powered (nl80211's
 * SURVEY_INFO). Times are cumulative; a field is valid with its has_. */
struct driver_survey {
	uint32_t freq_mhz;
	bool in_use;          /* the channel the interface is on now */
	bool has_noise;
	int8_t noise_dbm;
	bool has_time;
	uint64_t active_ms;   /* the radio was on the channel */
	uint64_t busy_ms;     /* ... and sensed the medium busy */
};

/* ---- DFS and channel switch (access point) ---- */

/* A channel switch announced in the beacons: the driver beacons
 * beacon_csa (which carries the CSA element(s)) and decrements the count
 * octet at each offset in its tail (and probe response) every beacon; at
 * zero it moves to chandef, beacons beacon_after and reports
 * DRIVER_EV_CH_SWITCHED. */
#define DRIVER_CSA_MAX_OFFSETS 2
struct driver_csa_params {
	struct driver_chandef chandef;
	uint8_t count;
	bool block_tx;                     /* stations stop transmitting until then */
	struct driver_ap_params beacon_after;
	struct driver_ap_params beacon_csa;
	size_t n_offsets;
	uint16_t offsets_tail[DRIVER_CSA_MAX_OFFSETS];   /* into beacon_csa.beacon_tail */
	uint16_t offsets_presp[DRIVER_CSA_MAX_OFFSETS];  /* into beacon_csa.probe_resp */
};

enum driver_radar_kind {
	DRIVER_RADAR_DETECTED,     /* on the channel: leave it */
	DRIVER_RADAR_CAC_FINISHED, /* the CAC passed: beaconing may start */
	DRIVER_RADAR_CAC_ABORTED,
	DRIVER_RADAR_NOP_FINISHED, /* the non-occupancy period ended: usable again */
};

/* ---- events: the one funnel up to the roles ---- */

enum driver_event_type {
	DRIVER_EV_RADIO_NEW,
	DRIVER_EV_RADIO_DEL,
	DRIVER_EV_IFACE_NEW,
	DRIVER_EV_IFACE_DEL,
	DRIVER_EV_SCAN_STARTED,
	DRIVER_EV_SCAN_DONE,    /* results ready: driver_get_scan_results() */
	DRIVER_EV_SCAN_ABORTED,
	DRIVER_EV_RX_MGMT,      /* a management frame we registered for */
	DRIVER_EV_TX_STATUS,    /* of a tx_mgmt frame */
	DRIVER_EV_AUTH,         /* station MLME: authentication response/timeout */
	DRIVER_EV_ASSOC,        /* station MLME: (re)association response/timeout */
	DRIVER_EV_DEAUTH,       /* deauthenticated (by peer or locally) */
	DRIVER_EV_DISASSOC,
	/* An MFP link got a Deauthentication/Disassociation without protection
	 * (a spoof, or a peer that lost its keys): the link stays up; the role
	 * decides with SA Query (IEEE 802.11-2020 11.13). nl80211's
	 * NL80211_CMD_UNPROT_DEAUTHENTICATE / _DISASSOCIATE. */
	DRIVER_EV_UNPROT_DEAUTH,
	DRIVER_EV_UNPROT_DISASSOC,
	/* fullmac: the device asks user space to run SAE with u.external_auth */
	DRIVER_EV_EXTERNAL_AUTH,
	DRIVER_EV_BEACON_LOSS,  /* station: the associated BSS went silent */
	DRIVER_EV_RX_EAPOL,
	DRIVER_EV_EAPOL_TX_STATUS,
	DRIVER_EV_RX_DATA,      /* data with no OS netdev/TAP bound (tests) */
	DRIVER_EV_STA_INACTIVE, /* AP: a station exceeded the inactivity timeout */
	DRIVER_EV_MIC_FAILURE,
	DRIVER_EV_QUEUE_STOPPED,
	DRIVER_EV_QUEUE_WOKEN,
	DRIVER_EV_REG_CHANGE,
	DRIVER_EV_RADIO_ERROR,  /* firmware crash or load failure, rfkill */
	/* A wired port's link (carrier) came or went: u.link. */
	DRIVER_EV_LINK_CHANGE,
	DRIVER_EV_RADAR,        /* u.radar: CAC result, radar, NOP over */
	DRIVER_EV_CH_SWITCHED,  /* u.ch_switch: the interface is on a new channel */
	/* AP: the answer to probe_client (u.tx_status: cookie, acked). */
	DRIVER_EV_PROBE_STATUS,
	/* Station MLME (DRIVER_EXT_AUTH_TX_STATUS): the TX status of the
	 * current authenticate request's frame (u.tx_status: acked, the frame
	 * as sent; cookie 0). Not acknowledged: the driver tries again, and
	 * after its last try reports DRIVER_EV_AUTH timed_out. */
	DRIVER_EV_AUTH_TX_STATUS,
};

enum driver_radio_error {
	DRIVER_RADIO_ERR_FIRMWARE_MISSING,
	DRIVER_RADIO_ERR_FIRMWARE_CRASH,
	DRIVER_RADIO_ERR_RFKILL,
};

struct driver_event {
	enum driver_event_type type;
	uint32_t radio_id;
	uint32_t ifindex;
	union {
		struct { /* RX_MGMT, AUTH, ASSOC, DEAUTH, DISASSOC, UNPROT_DEAUTH/_DISASSOC */
			const uint8_t *frame; /* NULL on AUTH/ASSOC timeout */
			size_t len;
			uint32_t freq_mhz;
			int32_t signal_mbm;
			bool timed_out;
			bool locally_generated;
		} mgmt;
		struct { /* TX_STATUS, EAPOL_TX_STATUS, AUTH_TX_STATUS, PROBE_STATUS (frame NULL) */
			/* The cookie tx_mgmt/tx_eapol/probe_client returned:
			 * unique per interface only (the kernel numbers them
			 * per wiphy), so match (ifindex, cookie). */
			uint64_t cookie;
			bool acked;
			const uint8_t *frame;
			size_t len;
		} tx_status;
		struct { /* RX_EAPOL, RX_DATA */
			const uint8_t *src;
			const uint8_t *dst;
			uint16_t ethertype;
			const uint8_t *body; /* after the 802.3/LLC header */
			size_t len;
			uint8_t priority;
			bool was_encrypted;
		} data;
		struct { /* BEACON_LOSS, STA_INACTIVE, MIC_FAILURE */
			const uint8_t *addr;
			bool group; /* MIC failure on a group frame */
		} peer;
		struct { /* QUEUE_STOPPED, QUEUE_WOKEN */
			enum driver_ac ac;
		} queue;
		struct { /* EXTERNAL_AUTH */
			enum driver_external_auth_action action;
			const uint8_t *bssid;
			struct driver_ssid ssid;
			uint32_t akm; /* enum driver_akm bit */
		} external_auth;
		struct { /* RADIO_ERROR */
			enum driver_radio_error kind;
			int err; /* -errno from the backend */
			const char *detail;
		} radio_error;
		struct { /* LINK_CHANGE */
			bool up;      /* the interface is administratively up */
			bool carrier; /* and has a carrier (IFF_LOWER_UP) */
		} link;
		struct { /* RADAR (ifindex 0 for NOP_FINISHED: radio-wide) */
			enum driver_radar_kind kind;
			uint32_t freq_mhz;
		} radar;
		struct { /* CH_SWITCHED: AP after its CSA, station following one */
			struct driver_chandef chandef;
		} ch_switch;
	} u;
};

typedef void (*driver_event_fn)(void *ctx, const struct driver_event *ev);

/* ---- the ops table ---- */

struct wpad_driver_ops {
	const char *name;
	const char *description;

	/* Opens the backend. options: "key=value,key=value" (backend-specific).
	 * Returns the backend's private state, or NULL with *err set. */
	void *(*open)(struct driver *drv, struct loop *loop, const char *options, int *err);
	void (*close)(void *priv);

	int (*list_radios)(void *priv, struct driver_radio_info *out, size_t max, size_t *n);
	int (*get_capa)(void *priv, uint32_t radio_id, struct driver_capa *capa);
	int (*list_ifaces)(void *priv, struct driver_iface_info *out, size_t max, size_t *n);
	int (*iface_info)(void *priv, uint32_t ifindex, struct driver_iface_info *info);
	int (*iface_add)(void *priv, uint32_t radio_id, const char *name,
			 enum driver_iftype type, const uint8_t *addr, uint32_t *ifindex);
	int (*iface_del)(void *priv, uint32_t ifindex);
	int (*iface_set_type)(void *priv, uint32_t ifindex, enum driver_iftype type);
	int (*iface_set_up)(void *priv, uint32_t ifindex, bool up);
	/* An interface that exists already on radio_id (the kernel's wlan0,
	 * which NetworkManager manages): found by name, retyped to type when
	 * it is another. It stays the system's: iface_release gives it back
	 * (type and up/down as found) and it is never deleted. Errors: -ENODEV
	 * no netdev of that name, -EMEDIUMTYPE a netdev that is not a wireless
	 * interface of this radio, -EBUSY in use (already taken, or connected
	 * or beaconing for another program), else why the retype failed. */
	int (*iface_adopt)(void *priv, uint32_t radio_id, const char *name,
			   enum driver_iftype type, uint32_t *ifindex);
	int (*iface_release)(void *priv, uint32_t ifindex);

	int (*scan_trigger)(void *priv, uint32_t ifindex, const struct driver_scan_params *p);
	int (*scan_abort)(void *priv, uint32_t ifindex);
	int (*get_scan_results)(void *priv, uint32_t ifindex, struct driver_scan_results *res);

	/* Management frames. A frame_type is the 16-bit frame control value
	 * with only type/subtype bits; match is a prefix of the frame body. */
	int (*register_mgmt)(void *priv, uint32_t ifindex, uint16_t frame_type,
			     const uint8_t *match, size_t match_len);
	int (*tx_mgmt)(void *priv, uint32_t ifindex, uint32_t freq_mhz, const uint8_t *frame,
		       size_t len, bool no_ack, uint64_t *cookie);

	int (*set_channel)(void *priv, uint32_t ifindex, uint32_t freq_mhz);

	/* Station MLME. */
	int (*authenticate)(void *priv, uint32_t ifindex, const struct driver_auth_params *p);
	int (*associate)(void *priv, uint32_t ifindex, const struct driver_assoc_params *p);
	int (*deauthenticate)(void *priv, uint32_t ifindex, const uint8_t *bssid,
			      uint16_t reason);
	int (*connect)(void *priv, uint32_t ifindex, const struct driver_assoc_params *p);

	/* Access point. */
	int (*start_ap)(void *priv, uint32_t ifindex, const struct driver_ap_params *p);
	int (*set_beacon)(void *priv, uint32_t ifindex, const struct driver_ap_params *p);
	int (*stop_ap)(void *priv, uint32_t ifindex);
	int (*sta_add)(void *priv, uint32_t ifindex, const struct driver_sta_params *p);
	int (*sta_set_flags)(void *priv, uint32_t ifindex, const uint8_t *addr, uint32_t set,
			     uint32_t clear);
	int (*sta_del)(void *priv, uint32_t ifindex, const uint8_t *addr);
	int (*sta_info)(void *priv, uint32_t ifindex, const uint8_t *addr,
			struct driver_sta_info *info);
	/* AP: polls an associated station with a null data frame (nl80211
	 * PROBE_CLIENT); *cookie names the DRIVER_EV_PROBE_STATUS saying
	 * whether the station acknowledged it. */
	int (*probe_client)(void *priv, uint32_t ifindex, const uint8_t *addr, uint64_t *cookie);

	/* Keys and the controlled port. */
	int (*key_set)(void *priv, uint32_t ifindex, const struct driver_key *key);
	int (*key_del)(void *priv, uint32_t ifindex, enum driver_key_type type, uint8_t key_idx,
		       const uint8_t *addr);
	int (*key_get_seq)(void *priv, uint32_t ifindex, enum driver_key_type type,
			   uint8_t key_idx, const uint8_t *addr, uint8_t seq[6]);
	int (*port_authorize)(void *priv, uint32_t ifindex, const uint8_t *peer, bool authorized);

	/* PMKs for a device that runs the 4-way handshake (or roams) itself:
	 * set_pmk binds a PMK to a peer, del_pmk drops it. */
	int (*set_pmk)(void *priv, uint32_t ifindex, const uint8_t *peer, const uint8_t *pmk,
		       size_t pmk_len, const uint8_t *pmkid);
	int (*del_pmk)(void *priv, uint32_t ifindex, const uint8_t *peer);
	/* The device's PMKSA cache (so it can offer PMKIDs itself). */
	int (*pmksa_set)(void *priv, uint32_t ifindex, const struct driver_pmksa *pmksa);
	int (*pmksa_del)(void *priv, uint32_t ifindex, const uint8_t *bssid,
			 const uint8_t pmkid[DRIVER_PMKID_LEN]);
	int (*pmksa_flush)(void *priv, uint32_t ifindex);
	/* Answer to DRIVER_EV_EXTERNAL_AUTH: status 0 when user space's SAE
	 * succeeded (the PMK was given with set_pmk), else an IEEE status. */
	int (*external_auth_done)(void *priv, uint32_t ifindex, const uint8_t *bssid,
				  uint16_t status);
	int (*tx_eapol)(void *priv, uint32_t ifindex, const uint8_t *dst, const uint8_t *body,
			size_t len, bool unencrypted, uint64_t *cookie);

	/* Data (tests and backends without an OS data plane). */
	int (*tx_data)(void *priv, uint32_t ifindex, const uint8_t *dst, uint16_t ethertype,
		       const uint8_t *payload, size_t len, uint8_t priority);
	int (*bind_data_plane)(void *priv, uint32_t ifindex, const char *os_ifname);

	int (*get_regulatory)(void *priv, uint32_t radio_id, struct driver_regulatory *reg);
	int (*set_regulatory)(void *priv, const char *alpha2);
	int (*set_power_save)(void *priv, uint32_t ifindex, bool enabled);
	int (*get_queue_state)(void *priv, uint32_t ifindex, struct driver_queue_state *q);

	/* The radio's channel survey, one entry per channel it has figures
	 * for (at most max; *n set). */
	int (*get_survey)(void *priv, uint32_t ifindex, struct driver_survey *out, size_t max,
			  size_t *n);

	/* DFS: the channel availability check on chandef before an AP may
	 * beacon there (DRIVER_EV_RADAR CAC_FINISHED or _ABORTED/_DETECTED
	 * after the CAC time); an AP's channel switch with announcement. */
	int (*start_radar_detection)(void *priv, uint32_t ifindex,
				     const struct driver_chandef *chandef);
	int (*channel_switch)(void *priv, uint32_t ifindex, const struct driver_csa_params *p);
};

/* ---- the driver instance and its wrappers ---- */

/* Backends compiled in, looked up by name ("sim", "nl80211", "wired"). */
const struct wpad_driver_ops *driver_backend_find(const char *name);
size_t driver_backend_count(void);
const struct wpad_driver_ops *driver_backend_at(size_t i);

/* Opens a backend; events are delivered to fn(ctx, ev) from the loop. The
 * caller owns the result and frees it with driver_close(). */
struct driver *driver_open(const char *backend, struct loop *loop, const char *options,
			   driver_event_fn fn, void *ctx, int *err);
void driver_close(struct driver *drv);
const char *driver_name(const struct driver *drv);
void *driver_priv(const struct driver *drv);

/* For backends: pushes one event up the funnel. */
void driver_emit(struct driver *drv, const struct driver_event *ev);

const char *driver_event_name(enum driver_event_type type);
const char *driver_iftype_name(enum driver_iftype type);

int driver_list_radios(struct driver *drv, struct driver_radio_info *out, size_t max, size_t *n);
int driver_get_capa(struct driver *drv, uint32_t radio_id, struct driver_capa *capa);
int driver_list_ifaces(struct driver *drv, struct driver_iface_info *out, size_t max,
		       size_t *n);
int driver_iface_info(struct driver *drv, uint32_t ifindex, struct driver_iface_info *info);
int driver_iface_add(struct driver *drv, uint32_t radio_id, const char *name,
		     enum driver_iftype type, const uint8_t *addr, uint32_t *ifindex);
int driver_iface_del(struct driver *drv, uint32_t ifindex);
int driver_iface_set_type(struct driver *drv, uint32_t ifindex, enum driver_iftype type);
int driver_iface_set_up(struct driver *drv, uint32_t ifindex, bool up);
int driver_iface_adopt(struct driver *drv, uint32_t radio_id, const char *name,
		       enum driver_iftype type, uint32_t *ifindex);
int driver_iface_release(struct driver *drv, uint32_t ifindex);
int driver_scan_trigger(struct driver *drv, uint32_t ifindex, const struct driver_scan_params *p);
int driver_scan_abort(struct driver *drv, uint32_t ifindex);
int driver_get_scan_results(struct driver *drv, uint32_t ifindex,
			    struct driver_scan_results *res);
int driver_register_mgmt(struct driver *drv, uint32_t ifindex, uint16_t frame_type,
			 const uint8_t *match, size_t match_len);
int driver_tx_mgmt(struct driver *drv, uint32_t ifindex, uint32_t freq_mhz,
		   const uint8_t *frame, size_t len, bool no_ack, uint64_t *cookie);
int driver_set_channel(struct driver *drv, uint32_t ifindex, uint32_t freq_mhz);
int driver_authenticate(struct driver *drv, uint32_t ifindex, const struct driver_auth_params *p);
int driver_associate(struct driver *drv, uint32_t ifindex, const struct driver_assoc_params *p);
int driver_deauthenticate(struct driver *drv, uint32_t ifindex, const uint8_t *bssid,
			  uint16_t reason);
int driver_connect(struct driver *drv, uint32_t ifindex, const struct driver_assoc_params *p);
int driver_start_ap(struct driver *drv, uint32_t ifindex, const struct driver_ap_params *p);
int driver_set_beacon(struct driver *drv, uint32_t ifindex, const struct driver_ap_params *p);
int driver_stop_ap(struct driver *drv, uint32_t ifindex);
int driver_sta_add(struct driver *drv, uint32_t ifindex, const struct driver_sta_params *p);
int driver_sta_set_flags(struct driver *drv, uint32_t ifindex, const uint8_t *addr,
			 uint32_t set, uint32_t clear);
int driver_sta_del(struct driver *drv, uint32_t ifindex, const uint8_t *addr);
int driver_sta_info(struct driver *drv, uint32_t ifindex, const uint8_t *addr,
		    struct driver_sta_info *info);
int driver_probe_client(struct driver *drv, uint32_t ifindex, const uint8_t *addr,
			uint64_t *cookie);
int driver_key_set(struct driver *drv, uint32_t ifindex, const struct driver_key *key);
int driver_key_del(struct driver *drv, uint32_t ifindex, enum driver_key_type type,
		   uint8_t key_idx, const uint8_t *addr);
int driver_key_get_seq(struct driver *drv, uint32_t ifindex, enum driver_key_type type,
		       uint8_t key_idx, const uint8_t *addr, uint8_t seq[6]);
int driver_port_authorize(struct driver *drv, uint32_t ifindex, const uint8_t *peer,
			  bool authorized);
int driver_set_pmk(struct driver *drv, uint32_t ifindex, const uint8_t *peer, const uint8_t *pmk,
		   size_t pmk_len, const uint8_t *pmkid);
int driver_del_pmk(struct driver *drv, uint32_t ifindex, const uint8_t *peer);
int driver_pmksa_set(struct driver *drv, uint32_t ifindex, const struct driver_pmksa *pmksa);
int driver_pmksa_del(struct driver *drv, uint32_t ifindex, const uint8_t *bssid,
		     const uint8_t pmkid[DRIVER_PMKID_LEN]);
int driver_pmksa_flush(struct driver *drv, uint32_t ifindex);
int driver_external_auth_done(struct driver *drv, uint32_t ifindex, const uint8_t *bssid,
			      uint16_t status);
/* The key type's name ("pairwise", "group", "igtk", "bigtk"). */
const char *driver_key_type_name(enum driver_key_type type);
int driver_tx_eapol(struct driver *drv, uint32_t ifindex, const uint8_t *dst,
		    const uint8_t *body, size_t len, bool unencrypted, uint64_t *cookie);
int driver_tx_data(struct driver *drv, uint32_t ifindex, const uint8_t *dst, uint16_t ethertype,
		   const uint8_t *payload, size_t len, uint8_t priority);
int driver_bind_data_plane(struct driver *drv, uint32_t ifindex, const char *os_ifname);
int driver_get_regulatory(struct driver *drv, uint32_t radio_id, struct driver_regulatory *reg);
int driver_set_regulatory(struct driver *drv, const char *alpha2);
int driver_set_power_save(struct driver *drv, uint32_t ifindex, bool enabled);
int driver_get_queue_state(struct driver *drv, uint32_t ifindex, struct driver_queue_state *q);
int driver_get_survey(struct driver *drv, uint32_t ifindex, struct driver_survey *out,
		      size_t max, size_t *n);
int driver_start_radar_detection(struct driver *drv, uint32_t ifindex,
				 const struct driver_chandef *chandef);
int driver_channel_switch(struct driver *drv, uint32_t ifindex,
			  const struct driver_csa_params *p);
const char *driver_radar_kind_name(enum driver_radar_kind kind);

#endif
