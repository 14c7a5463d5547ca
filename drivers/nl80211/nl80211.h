/* The nl80211 backend's shared state. Map of files:
 *
 *   nl80211.c         ops table, open/close, options, lookups
 *   nl80211-sock.c    the two netlink sockets, request/ack helper, errors
 *   nl80211-iface.c   wiphy and interface discovery, hot-plug, iface ops
 *   nl80211-event.c   multicast and unicast events -> the driver funnel
 *   nl80211-scan.c    scan trigger/abort/results
 *   nl80211-mlme.c    station SME: authenticate, associate, deauth, connect
 *   nl80211-ap.c      start/stop AP, beacons, the station table
 *   nl80211-keys.c    keys and the controlled port
 *   nl80211-data.c    EAPOL (control port or packet socket) and data
 *   nl80211-reg.c     regulatory domain and power save
 *   nl80211-rfkill.c  /dev/rfkill
 *   nl80211-capa.c, nl80211-msg.c, nl80211-build.c: parsers and builders
 *
 * Sockets (see nl80211-sock.c): `cmd` sends every request and waits for its
 * answer (bounded); it also owns what the kernel ties to a socket -- frame
 * registrations, the control port, interfaces created with SOCKET_OWNER --
 * so unicast frames arrive on it and are read by the loop between requests.
 * `ev` only listens to the multicast groups.
 */
#ifndef WPAD_DRIVERS_NL80211_NL80211_H
#define WPAD_DRIVERS_NL80211_NL80211_H

#include "drivers/driver.h"
#include "drivers/nl80211/nl80211-parse.h"

#include <stdbool.h>
#include <stdint.h>

struct loop;
struct loop_io;
struct loop_idle;
struct loop_timer;
struct nl_sock;
struct nl_cb;
struct nl_msg;
struct nlmsghdr;

#define NL80211_MAX_KEYED_PEERS 32
#define NL80211_REQ_TIMEOUT_MS 5000

struct nl80211_radio {
	struct nl80211_radio *next;
	struct nl80211_wiphy w;
	uint8_t perm_addr[DRIVER_ADDR_LEN];
	bool capa_stale;    /* regulatory changed: re-read before get_capa */
	/* The domain GET_REG gave, kept while REG_CHANGE events would say
	 * it changed (nl->reg_events): Radio.Country is read by every
	 * GetManagedObjects, i.e. every `wpactl station X connect`. */
	bool reg_known;
	struct driver_regulatory reg;
	int8_t ps_support;  /* power save: -1 not yet probed, 0 no, 1 yes */
	uint32_t rfkill_idx; /* +1; 0 when unknown */
	bool rfkill_blocked;
};

/* Why the station side waits for a scan it started itself. */
struct nl80211_pending_auth {
	bool active;
	bool probed;        /* the second, active scan was done */
	struct driver_auth_params p;
	uint8_t data[2048]; /* copies of auth_data then ies */
};

struct nl80211_iface {
	struct nl80211_iface *next;
	struct nl80211 *owner;
	struct driver_iface_info info;
	bool owned;          /* created by this instance (SOCKET_OWNER) */
	/* Taken over from the system (iface_adopt): given back on release
	 * with the type and up state it had, never deleted. */
	bool adopted;
	enum driver_iftype found_type;
	bool found_up;
	bool ap_started;
	bool control_port;   /* EAPOL over nl80211 on this interface */
	bool associated;     /* station: the kernel reported an association */
	uint8_t bssid[DRIVER_ADDR_LEN];
	bool deauth_requested;
	bool internal_scan;  /* a scan to refresh the BSS cache for auth */
	struct nl80211_pending_auth auth;
	bool data_bound;     /* bind_data_plane: the OS stack owns data */
	uint32_t chan_hint;  /* set_channel on a station: its off-channel default */
	/* Peers with a pairwise key, and whether a group key is installed:
	 * mac80211 drops unprotected data once a key exists, which is how
	 * received packet-socket frames are known to have been encrypted. */
	uint8_t keyed[NL80211_MAX_KEYED_PEERS][DRIVER_ADDR_LEN];
	size_t n_keyed;
	bool group_key;
	int eapol_fd;        /* AF_PACKET, ETH_P_PAE: fallback without control port */
	struct loop_io *eapol_io;
	/* AP in a bridge without control port: the bridge takes the EAPOL
	 * frames addressed to us, so a second PAE socket listens on it. */
	int bridge_eapol_fd;
	struct loop_io *bridge_eapol_io;
	int data_fd;         /* AF_PACKET, ETH_P_ALL: RX_DATA while unbound */
	struct loop_io *data_io;
};

/* Events raised by wpad itself (not the kernel) wait in a FIFO and are
 * delivered from an idle callback, so an op never calls back into its caller. */
struct nl80211_deferred {
	struct nl80211_deferred *next;
	struct driver_event ev;
	uint8_t addr[DRIVER_ADDR_LEN];
};

struct nl80211 {
	struct driver *drv;
	struct loop *loop;
	struct nl_sock *cmd, *ev;
	struct nl_cb *cmd_cb, *ev_cb;
	struct loop_io *cmd_io, *ev_io;
	int family;
	int ioctl_fd; /* AF_INET datagram socket for SIOCSIFFLAGS/SIOCGIFFLAGS */
	/* The request in flight on cmd (see nl80211_request). */
	struct {
		bool active;
		uint32_t seq;
		bool done;
		int err;
		int (*handler)(struct nl_msg *msg, void *arg);
		void *arg;
	} req;
	/* Unicast messages that arrived on cmd, handled after the read. */
	struct nl_msg **unsolicited;
	size_t n_unsolicited, cap_unsolicited;
	unsigned int depth; /* dispatch nesting; close frees at depth 0 */
	struct loop_idle *idle;
	struct nl80211_deferred *dq_head, *dq_tail;
	struct nl80211_radio *radios;
	struct nl80211_iface *ifaces;
	uint64_t next_cookie;
	int rfkill_fd;
	struct loop_io *rfkill_io;
	unsigned int ifname_seq;
	bool closing;
	bool reg_events;        /* member of the "regulatory" group */
	/* options */
	bool opt_control_port;  /* use CONTROL_PORT_OVER_NL80211 when offered */
	bool opt_rx_data;       /* RX_DATA through a packet socket when unbound */
	bool opt_rfkill;
	char ifname_prefix[8];
	char only_phy[DRIVER_IFNAME_MAX]; /* phy=NAME: the one wiphy to use, or "" */
};

/* Whether a wiphy of that name is for this instance (option phy=). */
bool nl80211_wants_radio(const struct nl80211 *nl, const char *name);

/* nl80211.c */
struct nl80211_radio *nl80211_radio_find(struct nl80211 *nl, uint32_t id);
struct nl80211_iface *nl80211_iface_find(struct nl80211 *nl, uint32_t ifindex);
void nl80211_defer(struct nl80211 *nl, const struct driver_event *ev);
void nl80211_emit(struct nl80211 *nl, const struct driver_event *ev);
uint64_t nl80211_local_cookie(struct nl80211 *nl);
/* Runs the idle callback soon (deferred events, queued messages). */
void nl80211_schedule(struct nl80211 *nl);
/* Brackets every entry from the loop: a driver_close() from inside an event
 * callback only marks the instance closing; the outermost leave frees it. */
void nl80211_enter(struct nl80211 *nl);
void nl80211_leave(struct nl80211 *nl);

/* nl80211-sock.c */
int nl80211_sock_open(struct nl80211 *nl);
void nl80211_sock_close(struct nl80211 *nl);
/* Sends msg (consumed) and waits at most NL80211_REQ_TIMEOUT_MS for its
 * answer; handler (may be NULL) sees each reply message. Returns 0 or a
 * negative errno, the kernel's own for a refused request. */
int nl80211_request(struct nl80211 *nl, struct nl_msg *msg,
		    int (*handler)(struct nl_msg *msg, void *arg), void *arg);
/* nl80211_request() of a message an nl80211_build_*() filled, given that
 * builder's result: a failed build is freed and its error returned. */
int nl80211_request_built(struct nl80211 *nl, struct nl_msg *msg, int built,
			  int (*handler)(struct nl_msg *msg, void *arg), void *arg);
/* A message with the family header; NULL when out of memory. */
struct nl_msg *nl80211_cmd(struct nl80211 *nl, uint8_t cmd, int flags);
/* Sends a message with a cookie answer (FRAME, CONTROL_PORT_FRAME). */
int nl80211_request_cookie(struct nl80211 *nl, struct nl_msg *msg, uint64_t *cookie);
void nl80211_drain_unsolicited(struct nl80211 *nl);

/* nl80211-iface.c */
int nl80211_discover(struct nl80211 *nl);
int nl80211_radio_refresh(struct nl80211 *nl, struct nl80211_radio *r);
struct nl80211_radio *nl80211_radio_add(struct nl80211 *nl, uint32_t wiphy);
void nl80211_radio_remove(struct nl80211 *nl, struct nl80211_radio *r, bool announce);
struct nl80211_iface *nl80211_iface_track(struct nl80211 *nl,
					  const struct driver_iface_info *info);
void nl80211_iface_forget(struct nl80211 *nl, struct nl80211_iface *ifc, bool announce);
int nl80211_netdev_flags(struct nl80211 *nl, const char *name, bool *up);
int nl80211_op_list_radios(void *priv, struct driver_radio_info *out, size_t max, size_t *n);
int nl80211_op_get_capa(void *priv, uint32_t radio_id, struct driver_capa *capa);
int nl80211_op_list_ifaces(void *priv, struct driver_iface_info *out, size_t max, size_t *n);
int nl80211_op_iface_info(void *priv, uint32_t ifindex, struct driver_iface_info *info);
int nl80211_op_iface_add(void *priv, uint32_t radio_id, const char *name,
			 enum driver_iftype type, const uint8_t *addr, uint32_t *ifindex);
int nl80211_op_iface_del(void *priv, uint32_t ifindex);
int nl80211_op_iface_adopt(void *priv, uint32_t radio_id, const char *name,
			   enum driver_iftype type, uint32_t *ifindex);
int nl80211_op_iface_release(void *priv, uint32_t ifindex);
int nl80211_op_iface_set_type(void *priv, uint32_t ifindex, enum driver_iftype type);
int nl80211_op_iface_set_up(void *priv, uint32_t ifindex, bool up);
int nl80211_op_set_channel(void *priv, uint32_t ifindex, uint32_t freq_mhz);

/* nl80211-event.c */
void nl80211_handle_event(struct nl80211 *nl, struct nl_msg *msg);

/* nl80211-scan.c */
int nl80211_op_scan_trigger(void *priv, uint32_t ifindex, const struct driver_scan_params *p);
int nl80211_op_scan_abort(void *priv, uint32_t ifindex);
int nl80211_op_get_scan_results(void *priv, uint32_t ifindex, struct driver_scan_results *res);
int nl80211_op_start_radar_detection(void *priv, uint32_t ifindex,
				     const struct driver_chandef *cd);
int nl80211_op_channel_switch(void *priv, uint32_t ifindex, const struct driver_csa_params *p);
int nl80211_op_get_survey(void *priv, uint32_t ifindex, struct driver_survey *out, size_t max,
			  size_t *n);
/* ssid NULL: passive; else a directed probe (wildcard if empty). */
int nl80211_scan_internal(struct nl80211 *nl, struct nl80211_iface *ifc, uint32_t freq,
			  const struct driver_ssid *ssid);

/* nl80211-mlme.c */
int nl80211_op_authenticate(void *priv, uint32_t ifindex, const struct driver_auth_params *p);
int nl80211_op_associate(void *priv, uint32_t ifindex, const struct driver_assoc_params *p);
int nl80211_op_deauthenticate(void *priv, uint32_t ifindex, const uint8_t *bssid,
			      uint16_t reason);
int nl80211_op_connect(void *priv, uint32_t ifindex, const struct driver_assoc_params *p);
int nl80211_op_register_mgmt(void *priv, uint32_t ifindex, uint16_t frame_type,
			     const uint8_t *match, size_t match_len);
int nl80211_op_tx_mgmt(void *priv, uint32_t ifindex, uint32_t freq_mhz, const uint8_t *frame,
		       size_t len, bool no_ack, uint64_t *cookie);
void nl80211_mlme_scan_done(struct nl80211 *nl, struct nl80211_iface *ifc, bool aborted);
void nl80211_mlme_event(struct nl80211 *nl, struct nl80211_iface *ifc,
			const struct nl80211_event *e);

/* nl80211-ap.c */
int nl80211_op_start_ap(void *priv, uint32_t ifindex, const struct driver_ap_params *p);
int nl80211_op_set_beacon(void *priv, uint32_t ifindex, const struct driver_ap_params *p);
int nl80211_op_stop_ap(void *priv, uint32_t ifindex);
int nl80211_op_sta_add(void *priv, uint32_t ifindex, const struct driver_sta_params *p);
int nl80211_op_sta_set_flags(void *priv, uint32_t ifindex, const uint8_t *addr, uint32_t set,
			     uint32_t clear);
int nl80211_op_sta_del(void *priv, uint32_t ifindex, const uint8_t *addr);
int nl80211_op_probe_client(void *priv, uint32_t ifindex, const uint8_t *addr,
			    uint64_t *cookie);
int nl80211_op_sta_info(void *priv, uint32_t ifindex, const uint8_t *addr,
			struct driver_sta_info *info);
void nl80211_ap_stopped(struct nl80211 *nl, struct nl80211_iface *ifc);

/* nl80211-keys.c */
int nl80211_op_key_set(void *priv, uint32_t ifindex, const struct driver_key *key);
/* nl80211-pmksa.c */
int nl80211_op_set_pmk(void *priv, uint32_t ifindex, const uint8_t *peer, const uint8_t *pmk,
		       size_t pmk_len, const uint8_t *pmkid);
int nl80211_op_del_pmk(void *priv, uint32_t ifindex, const uint8_t *peer);
int nl80211_op_pmksa_set(void *priv, uint32_t ifindex, const struct driver_pmksa *p);
int nl80211_op_pmksa_del(void *priv, uint32_t ifindex, const uint8_t *bssid,
			 const uint8_t pmkid[DRIVER_PMKID_LEN]);
int nl80211_op_pmksa_flush(void *priv, uint32_t ifindex);
int nl80211_op_external_auth_done(void *priv, uint32_t ifindex, const uint8_t *bssid,
				  uint16_t status);
int nl80211_op_key_del(void *priv, uint32_t ifindex, enum driver_key_type type, uint8_t key_idx,
		       const uint8_t *addr);
int nl80211_op_key_get_seq(void *priv, uint32_t ifindex, enum driver_key_type type,
			   uint8_t key_idx, const uint8_t *addr, uint8_t seq[6]);
int nl80211_op_port_authorize(void *priv, uint32_t ifindex, const uint8_t *peer,
			      bool authorized);
bool nl80211_keyed(const struct nl80211_iface *ifc, const uint8_t *peer, bool group);
void nl80211_keys_forget(struct nl80211_iface *ifc, const uint8_t *peer);

/* nl80211-data.c */
int nl80211_op_tx_eapol(void *priv, uint32_t ifindex, const uint8_t *dst, const uint8_t *body,
			size_t len, bool unencrypted, uint64_t *cookie);
int nl80211_op_tx_data(void *priv, uint32_t ifindex, const uint8_t *dst, uint16_t ethertype,
		       const uint8_t *payload, size_t len, uint8_t priority);
int nl80211_op_bind_data_plane(void *priv, uint32_t ifindex, const char *os_ifname);
int nl80211_data_attach(struct nl80211 *nl, struct nl80211_iface *ifc);
void nl80211_data_detach(struct nl80211_iface *ifc);
/* AP start without control port: when the interface is a bridge port,
 * EAPOL is also read from the bridge (frames to our address only). */
void nl80211_data_bridge_eapol(struct nl80211 *nl, struct nl80211_iface *ifc);
void nl80211_data_bridge_eapol_stop(struct nl80211_iface *ifc);

/* nl80211-reg.c */
int nl80211_op_get_regulatory(void *priv, uint32_t radio_id, struct driver_regulatory *reg);
int nl80211_op_set_regulatory(void *priv, const char *alpha2);
int nl80211_op_set_power_save(void *priv, uint32_t ifindex, bool enabled);
void nl80211_probe_power_save(struct nl80211 *nl, struct nl80211_radio *r);

/* nl80211-rfkill.c */
int nl80211_rfkill_open(struct nl80211 *nl);
void nl80211_rfkill_close(struct nl80211 *nl);

#endif
