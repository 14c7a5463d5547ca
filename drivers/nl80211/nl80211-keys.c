/* Keys (NEW_KEY, SET_KEY for the default transmit key, DEL_KEY, GET_KEY)
 * and the controlled port (SET_STATION's AUTHORIZED flag, for a station's
 * AP as much as for an AP's stations).
 *
 * The backend remembers which peers have a pairwise key and whether a
 * group key is in: the kernel drops unprotected data once a key exists,
 * so a frame that reached a packet socket from such a peer was encrypted. */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

bool nl80211_keyed(const struct nl80211_iface *ifc, const uint8_t *peer, bool group)
{
	if (group)
		return ifc->group_key;
	for (size_t i = 0; peer && i < ifc->n_keyed; i++)
		if (memcmp(ifc->keyed[i], peer, DRIVER_ADDR_LEN) == 0)
			return true;
	return false;
}

void nl80211_keys_forget(struct nl80211_iface *ifc, const uint8_t *peer)
{
	for (size_t i = 0; i < ifc->n_keyed; i++)
		if (memcmp(ifc->keyed[i], peer, DRIVER_ADDR_LEN) == 0) {
			memmove(ifc->keyed[i], ifc->keyed[i + 1],
				(ifc->n_keyed - i - 1) * DRIVER_ADDR_LEN);
			ifc->n_keyed--;
			return;
		}
}

static void remember(struct nl80211_iface *ifc, const struct driver_key *k)
{
	if (k->type != DRIVER_KEY_PAIRWISE) {
		if (k->type == DRIVER_KEY_GROUP)
			ifc->group_key = true;
		return;
	}
	if (nl80211_keyed(ifc, k->addr, false) || ifc->n_keyed >= NL80211_MAX_KEYED_PEERS)
		return;
	memcpy(ifc->keyed[ifc->n_keyed++], k->addr, DRIVER_ADDR_LEN);
}

int nl80211_op_key_set(void *priv, uint32_t ifindex, const struct driver_key *key)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);
	int r;

	if (!ifc)
		return -ENODEV;
	if (!key)
		return -EINVAL;
	struct nl80211_radio *rad = nl80211_radio_find(nl, ifc->info.radio_id);
	if (rad && !(rad->w.capa.ciphers & key->cipher))
		return -EOPNOTSUPP;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_NEW_KEY, 0);
	int built = msg ? nl80211_build_new_key(msg, ifindex, key) : -ENOMEM;
	if ((r = nl80211_request_built(nl, msg, built, NULL, NULL)) < 0)
		return r;
	remember(ifc, key);
	/* A pairwise key is used for unicast as soon as it is in. */
	if (!key->set_tx || key->type == DRIVER_KEY_PAIRWISE)
		return 0;
	msg = nl80211_cmd(nl, NL80211_CMD_SET_KEY, 0);
	built = msg ? nl80211_build_default_key(msg, ifindex, key->type, key->key_idx) : -ENOMEM;
	return nl80211_request_built(nl, msg, built, NULL, NULL);
}

static int key_ref_request(struct nl80211 *nl, uint8_t cmd, uint32_t ifindex,
			   enum driver_key_type type, uint8_t key_idx, const uint8_t *addr,
			   int (*handler)(struct nl_msg *, void *), void *arg)
{
	struct nl_msg *msg = nl80211_cmd(nl, cmd, 0);
	int built = msg ? nl80211_build_key_ref(msg, ifindex, type, key_idx, addr) : -ENOMEM;
	return nl80211_request_built(nl, msg, built, handler, arg);
}

int nl80211_op_key_del(void *priv, uint32_t ifindex, enum driver_key_type type, uint8_t key_idx,
		       const uint8_t *addr)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	int r = key_ref_request(nl, NL80211_CMD_DEL_KEY, ifindex, type, key_idx, addr, NULL, NULL);
	if (r == 0 && type == DRIVER_KEY_PAIRWISE)
		nl80211_keys_forget(ifc, addr);
	return r;
}

struct seq_query {
	uint8_t *seq;
	bool found;
};

static int seq_answer(struct nl_msg *msg, void *arg)
{
	struct seq_query *q = arg;
	if (nl80211_parse_key_seq(nlmsg_hdr(msg), q->seq) == 0)
		q->found = true;
	return NL_OK;
}

int nl80211_op_key_get_seq(void *priv, uint32_t ifindex, enum driver_key_type type,
			   uint8_t key_idx, const uint8_t *addr, uint8_t seq[6])
{
	struct nl80211 *nl = priv;
	struct seq_query q = { .seq = seq };

	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	int r = key_ref_request(nl, NL80211_CMD_GET_KEY, ifindex, type, key_idx, addr, seq_answer,
				&q);
	if (r < 0)
		return r;
	return q.found ? 0 : -ENOENT;
}

int nl80211_op_port_authorize(void *priv, uint32_t ifindex, const uint8_t *peer,
			      bool authorized)
{
	struct nl80211 *nl = priv;

	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	if (!peer)
		return -EINVAL;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_SET_STATION, 0);
	uint32_t set = authorized ? DRIVER_STA_AUTHORIZED : 0;
	uint32_t clear = authorized ? 0 : DRIVER_STA_AUTHORIZED;
	int built = msg ? nl80211_build_sta_flags(msg, ifindex, peer, set, clear) : -ENOMEM;
	return nl80211_request_built(nl, msg, built, NULL, NULL);
}
