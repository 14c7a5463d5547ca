/* Sample nl80211 messages, built with libnl the way the kernel lays them
 * out, for the nl80211 backend's unit tests and as fuzzing seeds. Each
 * returns a message the caller frees with nlmsg_free(). */
#ifndef WPAD_TESTS_UNIT_NL80211_SAMPLES_H
#define WPAD_TESTS_UNIT_NL80211_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

struct nl_msg;

#define SAMPLE_FAMILY 0x1c
#define SAMPLE_WIPHY 3
#define SAMPLE_IFINDEX 7

/* A split NEW_WIPHY dump of a two-band mac80211-like device: part 0 has the
 * general attributes, parts 1.. one channel each, the last the 5 GHz
 * band's rates. user_sme: AUTHENTICATE/ASSOCIATE in the command list. */
#define SAMPLE_WIPHY_PARTS 8
struct nl_msg *sample_wiphy_part(int part, int user_sme);

struct nl_msg *sample_scan_result(void);
struct nl_msg *sample_frame_event(void);        /* FRAME: a probe request */
struct nl_msg *sample_tx_status_event(void);    /* FRAME_TX_STATUS */
struct nl_msg *sample_control_port_event(void); /* CONTROL_PORT_FRAME, EAPOL */
struct nl_msg *sample_assoc_event(void);        /* ASSOCIATE with a response */
struct nl_msg *sample_auth_timeout_event(void); /* AUTHENTICATE timed out */
struct nl_msg *sample_cqm_event(void);          /* NOTIFY_CQM beacon loss */
struct nl_msg *sample_reg_change_event(void);
struct nl_msg *sample_new_interface(void);
struct nl_msg *sample_sta_info(void);
struct nl_msg *sample_reg(void);
struct nl_msg *sample_key_seq(void);

/* An NLMSG_ERROR with an extended ACK ("sample refusal"), capped or not;
 * written into buf, returns its length. */
size_t sample_ext_ack(uint8_t *buf, size_t cap, int capped);

#endif
