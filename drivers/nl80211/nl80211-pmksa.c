/* PMKs and the device's PMKSA cache (NL80211_CMD_SET_PMK/DEL_PMK,
 * SET_PMKSA/DEL_PMKSA/FLUSH_PMKSA) and the answer to an external
 * authentication request (NL80211_CMD_EXTERNAL_AUTH). mac80211 drivers
 * with a user-space SME have no PMKSA cache in the device: cfg80211 then
 * answers SET_PMKSA with -EOPNOTSUPP (rdev_set_pmksa without the op), which
 * goes back to the caller unchanged; the roles keep their own cache. */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#define PUT(expr)                                                                          \
	do {                                                                               \
		if ((expr) < 0)                                                            \
			goto nospace;                                                      \
	} while (0)

static int request(struct nl80211 *nl, struct nl_msg *msg)
{
	return nl80211_request(nl, msg, NULL, NULL);
}

int nl80211_op_set_pmk(void *priv, uint32_t ifindex, const uint8_t *peer, const uint8_t *pmk,
		       size_t pmk_len, const uint8_t *pmkid)
{
	struct nl80211 *nl = priv;
	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	if (!peer || !pmk || !pmk_len)
		return -EINVAL;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_SET_PMK, 0);
	if (!msg)
		return -ENOMEM;
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	PUT(nla_put(msg, NL80211_ATTR_MAC, 6, peer));
	PUT(nla_put(msg, NL80211_ATTR_PMK, (int)pmk_len, pmk));
	if (pmkid)
		PUT(nla_put(msg, NL80211_ATTR_PMKID, DRIVER_PMKID_LEN, pmkid));
	return request(nl, msg); /* libnl frees the message and its copy of the PMK */
nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int nl80211_op_del_pmk(void *priv, uint32_t ifindex, const uint8_t *peer)
{
	struct nl80211 *nl = priv;
	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	if (!peer)
		return -EINVAL;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_DEL_PMK, 0);
	if (!msg)
		return -ENOMEM;
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	PUT(nla_put(msg, NL80211_ATTR_MAC, 6, peer));
	return request(nl, msg);
nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int pmksa_cmd(struct nl80211 *nl, uint8_t cmd, uint32_t ifindex, const uint8_t *bssid,
		     const uint8_t *pmkid, const struct driver_pmksa *p)
{
	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	struct nl_msg *msg = nl80211_cmd(nl, cmd, 0);
	if (!msg)
		return -ENOMEM;
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	if (bssid)
		PUT(nla_put(msg, NL80211_ATTR_MAC, 6, bssid));
	if (pmkid)
		PUT(nla_put(msg, NL80211_ATTR_PMKID, DRIVER_PMKID_LEN, pmkid));
	if (p && p->pmk_len)
		PUT(nla_put(msg, NL80211_ATTR_PMK, (int)p->pmk_len, p->pmk));
	if (p && p->lifetime_s)
		PUT(nla_put_u32(msg, NL80211_ATTR_PMK_LIFETIME, p->lifetime_s));
	return request(nl, msg);
nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int nl80211_op_pmksa_set(void *priv, uint32_t ifindex, const struct driver_pmksa *p)
{
	if (!p)
		return -EINVAL;
	return pmksa_cmd(priv, NL80211_CMD_SET_PMKSA, ifindex, p->bssid, p->pmkid, p);
}

int nl80211_op_pmksa_del(void *priv, uint32_t ifindex, const uint8_t *bssid,
			 const uint8_t pmkid[DRIVER_PMKID_LEN])
{
	if (!bssid && !pmkid)
		return -EINVAL;
	return pmksa_cmd(priv, NL80211_CMD_DEL_PMKSA, ifindex, bssid, pmkid, NULL);
}

int nl80211_op_pmksa_flush(void *priv, uint32_t ifindex)
{
	return pmksa_cmd(priv, NL80211_CMD_FLUSH_PMKSA, ifindex, NULL, NULL, NULL);
}

int nl80211_op_external_auth_done(void *priv, uint32_t ifindex, const uint8_t *bssid,
				  uint16_t status)
{
	struct nl80211 *nl = priv;
	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	if (!bssid)
		return -EINVAL;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_EXTERNAL_AUTH, 0);
	if (!msg)
		return -ENOMEM;
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	PUT(nla_put(msg, NL80211_ATTR_BSSID, 6, bssid));
	PUT(nla_put_u16(msg, NL80211_ATTR_STATUS_CODE, status));
	return request(nl, msg);
nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}
