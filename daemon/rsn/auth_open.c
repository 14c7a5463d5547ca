/* Open System authentication, IEEE 802.11-2020 12.3.3.2: the station sends
 * transaction 1, the AP answers transaction 2 with a status; no keys, no
 * association elements. */
#include "daemon/rsn/auth_proto.h"

#include "daemon/codec/ieee80211.h"

static enum auth_step sta_start(struct auth_sess *s, struct auth_out *out)
{
	(void)s;
	out->seq = 1;
	out->status = WLAN_STATUS_SUCCESS;
	return AUTH_STEP_SEND;
}

static enum auth_step sta_rx_auth(struct auth_sess *s, const struct auth_msg *in,
				  struct auth_out *out)
{
	(void)out;
	if (in->seq != 2)
		return AUTH_STEP_IGNORE;
	if (in->status != WLAN_STATUS_SUCCESS) {
		s->status = in->status;
		return AUTH_STEP_FAILED;
	}
	return AUTH_STEP_DONE;
}

static enum auth_step ap_rx_auth(struct auth_sess *s, const struct auth_msg *in,
				 struct auth_out *out)
{
	(void)s;
	out->seq = 2;
	if (in->seq != 1) {
		out->seq = (uint16_t)(in->seq + 1);
		out->status = WLAN_STATUS_UNKNOWN_AUTH_TRANSACTION;
		return AUTH_STEP_FAILED;
	}
	out->status = WLAN_STATUS_SUCCESS;
	return AUTH_STEP_DONE;
}

const struct auth_proto auth_open = {
	.algorithm = WLAN_AUTH_OPEN,
	.name = "open system",
	.sta_start = sta_start,
	.sta_rx_auth = sta_rx_auth,
	.ap_rx_auth = ap_rx_auth,
};
