/* The nl80211 backend's message parsers and builders, kept apart from the
 * sockets so that unit tests and fuzzers reach them without a kernel.
 *
 * Every parser takes a complete generic netlink message (struct nlmsghdr
 * whose nlmsg_len the caller has checked against the buffer it sits in) and
 * validates each attribute it reads with nla_parse() and a policy: a
 * malformed message is -EINVAL, never a read outside the buffer. Parsed
 * pointers (frames, IEs, names) point into the message and live as long as
 * it does.
 *
 * The builders fill a struct nl_msg that nl80211_msg_new() started; they
 * return 0 or a negative errno (-EMSGSIZE when the message is full,
 * -EINVAL for parameters nl80211 cannot express).
 */
#ifndef WPAD_DRIVERS_NL80211_PARSE_H
#define WPAD_DRIVERS_NL80211_PARSE_H

#include "drivers/driver.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nlmsghdr;
struct nl_msg;

/* ---- wiphy capabilities (NEW_WIPHY, split dump) ---- */

#define NL80211_EXT_FEATURE_BYTES 32

struct nl80211_wiphy {
	uint32_t id;
	bool have_id;
	char name[DRIVER_IFNAME_MAX];
	struct driver_capa capa;
	uint32_t features;                         /* NL80211_ATTR_FEATURE_FLAGS */
	uint8_t ext_features[NL80211_EXT_FEATURE_BYTES];
	bool cmd_auth, cmd_assoc, cmd_connect, cmd_start_ap, cmd_frame;
	/* cmd_radar_detect: an interface combination with an AP has radar
	 * detect widths; cmd_channel_switch: CHANNEL_SWITCH is listed. */
	bool cmd_radar_detect, cmd_channel_switch;
	bool probe_resp_offload;
	uint32_t n_combinations;
	uint32_t max_combo_interfaces; /* largest NL80211_IFACE_COMB_MAXNUM */
	uint32_t max_combo_ap;         /* most APs one combination allows */
	bool combo_ap_sta;             /* some combination mixes AP and station */
	uint32_t max_ap_assoc_sta;
	uint32_t akm_bits;             /* NL80211_ATTR_AKM_SUITES mapped; 0: not reported */
	bool cmd_external_auth, cmd_set_pmksa, cmd_set_pmk;
};

void nl80211_wiphy_init(struct nl80211_wiphy *w);
/* The wiphy index a message is about (-EINVAL without one). */
int nl80211_wiphy_index(const struct nlmsghdr *nlh, uint32_t *id);
/* Merges one message of a (split) wiphy dump into w. The first message
 * fixes the wiphy index; a message for another index is -ESRCH. */
int nl80211_wiphy_parse(struct nl80211_wiphy *w, const struct nlmsghdr *nlh);
/* Derives the driver_capa flags once every part was merged. */
void nl80211_wiphy_finish(struct nl80211_wiphy *w);
/* Fills capa.akms, ext_features and auth_algs from the wiphy's feature
 * flags, extended features, AKM list and commands (nl80211-pmf.c). */
void nl80211_wiphy_pmf_capa(struct nl80211_wiphy *w);
/* One AKM suite selector as an enum driver_akm bit, 0 if unknown. */
uint32_t nl80211_akm_from_suite(uint32_t suite);
bool nl80211_wiphy_ext_feature(const struct nl80211_wiphy *w, unsigned int feature);
/* Channel lookup: the band and channel of freq, or NULL. */
const struct driver_channel *nl80211_wiphy_channel(const struct driver_capa *capa,
						   uint32_t freq_mhz);
/* 802.11 channel number of a frequency (2.4, 5 and 6 GHz), 0 if none. */
uint16_t nl80211_freq_to_channel(uint32_t freq_mhz);

/* Interface (NEW_INTERFACE / GET_INTERFACE answer). */
int nl80211_parse_iface(const struct nlmsghdr *nlh, struct driver_iface_info *info);
enum driver_iftype nl80211_iftype_from_nl(uint32_t nltype);
int nl80211_iftype_to_nl(enum driver_iftype type, uint32_t *nltype);

/* Cipher selectors (00-0F-AC:n) <-> enum driver_cipher bits. */
uint32_t nl80211_cipher_from_suite(uint32_t suite);
uint32_t nl80211_cipher_to_suite(uint32_t cipher_bit);

/* ---- scan results (GET_SCAN dump) ---- */

/* One SURVEY_INFO of a GET_SURVEY dump. -ENOENT when the message carries
 * none (or no frequency), -EINVAL when it is malformed. */
int nl80211_parse_survey(const struct nlmsghdr *nlh, uint32_t *ifindex,
			 struct driver_survey *out);

/* Parses one BSS; r->ies is malloc'ed (the caller frees it). -ENOENT when
 * the message carries no BSS, -EINVAL when it is malformed. */
int nl80211_parse_scan_result(const struct nlmsghdr *nlh, uint32_t *ifindex,
			      struct driver_scan_result *r);

/* ---- events ---- */

/* The attributes of any event or answer wpad reads, flattened. */
struct nl80211_event {
	uint8_t cmd;
	uint32_t wiphy, ifindex;
	bool has_wiphy, has_ifindex;
	const uint8_t *frame; /* NL80211_ATTR_FRAME */
	size_t frame_len;
	const uint8_t *mac;   /* NL80211_ATTR_MAC, 6 octets */
	uint32_t freq;
	int32_t signal_mbm;
	bool has_signal;
	bool timed_out;
	uint64_t cookie;
	bool has_cookie;
	bool ack;
	uint16_t ethertype;
	bool no_encrypt;
	uint16_t reason_code;
	bool has_reason;
	uint16_t status_code;
	bool has_status;
	bool disconnected_by_ap;
	const uint8_t *req_ie, *resp_ie;
	size_t req_ie_len, resp_ie_len;
	bool cqm_beacon_loss;
	bool cqm_pkt_loss;
	uint32_t key_type;
	bool has_key_type;
	const char *alpha2;
	uint8_t reg_initiator, reg_type;
	bool has_reg;
	uint32_t radar_event;    /* NL80211_ATTR_RADAR_EVENT */
	bool has_radar_event;
	uint32_t chan_width;     /* NL80211_ATTR_CHANNEL_WIDTH, NL80211_CHAN_WIDTH_* */
	bool has_chan_width;
	uint32_t center_freq1;
};

int nl80211_parse_event(const struct nlmsghdr *nlh, struct nl80211_event *ev);

/* Station information (GET_STATION answer). */
int nl80211_parse_sta_info(const struct nlmsghdr *nlh, struct driver_sta_info *info);

/* Regulatory domain (GET_REG answer). */
int nl80211_parse_reg(const struct nlmsghdr *nlh, struct driver_regulatory *reg);

/* Key sequence counter (GET_KEY answer): the 6 low octets, little-endian. */
int nl80211_parse_key_seq(const struct nlmsghdr *nlh, uint8_t seq[6]);

/* Extended ACK of an NLMSG_ERROR message: the kernel's text, if any. */
int nl80211_parse_ext_ack(const struct nlmsghdr *nlh, char *text, size_t cap);

/* ---- builders ---- */

struct nl_msg *nl80211_msg_new(int family, uint8_t cmd, int flags);

struct nl80211_ap_opts {
	bool control_port_nl80211; /* EAPOL over nl80211 (and socket owner) */
	bool privacy;              /* also taken from the beacon's capability field */
	bool ht;                   /* HT20 rather than a non-HT channel */
	bool inactivity_timer;     /* the device polls stations (FEATURE_INACTIVITY_TIMER) */
};
/* WIPHY_FREQ is the caller's; CHANNEL_WIDTH and CENTER_FREQ1/2 for 40 MHz
 * and up, the legacy channel type at 20 MHz. */
int nl80211_put_chandef(struct nl_msg *msg, const struct driver_chandef *cd, bool ht);
int nl80211_build_radar_detect(struct nl_msg *msg, uint32_t ifindex,
			       const struct driver_chandef *cd);
int nl80211_build_channel_switch(struct nl_msg *msg, uint32_t ifindex,
				 const struct driver_csa_params *p);
int nl80211_build_start_ap(struct nl_msg *msg, uint32_t ifindex,
			   const struct driver_ap_params *p, const struct nl80211_ap_opts *o);
/* SET_BEACON: only the templates. */
int nl80211_build_beacon(struct nl_msg *msg, uint32_t ifindex, const struct driver_ap_params *p);
int nl80211_build_scan(struct nl_msg *msg, uint32_t ifindex, const struct driver_scan_params *p);
int nl80211_build_auth(struct nl_msg *msg, uint32_t ifindex, const struct driver_auth_params *p);
int nl80211_build_assoc(struct nl_msg *msg, uint32_t ifindex, const struct driver_assoc_params *p,
			bool control_port_nl80211);
int nl80211_build_connect(struct nl_msg *msg, uint32_t ifindex,
			  const struct driver_assoc_params *p, bool control_port_nl80211);
/* NEW_STATION (set = false) or SET_STATION with every parameter (set). */
int nl80211_build_station(struct nl_msg *msg, uint32_t ifindex, const struct driver_sta_params *p,
			  bool set);
int nl80211_build_sta_flags(struct nl_msg *msg, uint32_t ifindex, const uint8_t addr[6],
			    uint32_t set, uint32_t clear);
int nl80211_build_new_key(struct nl_msg *msg, uint32_t ifindex, const struct driver_key *k);
int nl80211_build_key_ref(struct nl_msg *msg, uint32_t ifindex, enum driver_key_type type,
			  uint8_t key_idx, const uint8_t *addr);
int nl80211_build_default_key(struct nl_msg *msg, uint32_t ifindex, enum driver_key_type type,
			      uint8_t key_idx);

#endif
