/* The authentication protocol table and the session wrappers; see
 * auth_proto.h. One table: adding SAE is one line here and a file. */
#define LOG_TAG "auth"
#include "daemon/rsn/auth_proto.h"
#include "daemon/rsn/auth_owe.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/crypto/secure.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PMK_MIN_LEN 16

static const struct auth_proto *const protocols[] = {
	&auth_open,
	&auth_sae,
	&auth_owe,
};

/* A protocol bound to an AKM is chosen only for that AKM; among the rest,
 * the first of the algorithm. */
const struct auth_proto *auth_proto_find_akm(uint16_t algorithm, uint32_t akm,
					     enum auth_role role)
{
	for (size_t i = 0; akm && i < sizeof(protocols) / sizeof(protocols[0]); i++) {
		const struct auth_proto *p = protocols[i];
		if (p->algorithm == algorithm && p->akm == akm)
			return role == AUTH_ROLE_AP ? (p->ap_rx_auth ? p : NULL)
						    : (p->sta_start && p->sta_rx_auth ? p : NULL);
	}
	return auth_proto_find(algorithm, role);
}

const struct auth_proto *auth_proto_find(uint16_t algorithm, enum auth_role role)
{
	for (size_t i = 0; i < sizeof(protocols) / sizeof(protocols[0]); i++) {
		const struct auth_proto *p = protocols[i];
		if (p->algorithm != algorithm || p->akm)
			continue;
		bool usable = role == AUTH_ROLE_AP ? p->ap_rx_auth != NULL
						   : p->sta_start && p->sta_rx_auth;
		return usable ? p : NULL;
	}
	return NULL;
}

const char *auth_step_name(enum auth_step step)
{
	switch (step) {
	case AUTH_STEP_SEND:
		return "send";
	case AUTH_STEP_DONE:
		return "done";
	case AUTH_STEP_FAILED:
		return "failed";
	case AUTH_STEP_IGNORE:
		return "ignore";
	}
	return "unknown";
}

struct auth_sess *auth_sess_new(const struct auth_proto *proto, enum auth_role role,
				const uint8_t own[RSN_ADDR_LEN], const uint8_t peer[RSN_ADDR_LEN])
{
	if (!proto)
		return NULL;
	struct auth_sess *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->proto = proto;
	s->role = role;
	memcpy(s->own_addr, own, RSN_ADDR_LEN);
	memcpy(s->peer_addr, peer, RSN_ADDR_LEN);
	s->status = WLAN_STATUS_SUCCESS;
	return s;
}

void auth_sess_free(struct auth_sess *s)
{
	if (!s)
		return;
	if (s->proto->free)
		s->proto->free(s);
	crypto_zero(s, sizeof(*s));
	free(s);
}

int auth_sess_set_pmk(struct auth_sess *s, const uint8_t *pmk, size_t len, const uint8_t *pmkid)
{
	if (!pmk || len < PMK_MIN_LEN || len > RSN_PMK_MAX_LEN)
		return -EINVAL;
	crypto_zero(s->pmk, sizeof(s->pmk));
	memcpy(s->pmk, pmk, len);
	s->pmk_len = len;
	s->have_pmkid = pmkid != NULL;
	if (pmkid)
		memcpy(s->pmkid, pmkid, RSN_PMKID_LEN);
	return 0;
}

const uint8_t *auth_sess_pmk(const struct auth_sess *s, size_t *len)
{
	*len = s->pmk_len;
	return s->pmk_len ? s->pmk : NULL;
}

/* Keeps done/status in line with the step and counts what goes out. */
static enum auth_step settle(struct auth_sess *s, enum auth_step step, const struct auth_out *out)
{
	switch (step) {
	case AUTH_STEP_SEND:
		s->frames_tx++;
		break;
	case AUTH_STEP_DONE:
		s->done = true;
		s->status = WLAN_STATUS_SUCCESS;
		s->frames_tx += s->role == AUTH_ROLE_AP;
		break;
	case AUTH_STEP_FAILED:
		s->done = false;
		if (s->role == AUTH_ROLE_AP) {
			s->status = out->status;
			s->frames_tx++;
		} else if (s->status == WLAN_STATUS_SUCCESS) {
			s->status = WLAN_STATUS_UNSPECIFIED_FAILURE;
		}
		break;
	case AUTH_STEP_IGNORE:
		break;
	}
	return step;
}

enum auth_step auth_sta_start(struct auth_sess *s, struct auth_out *out)
{
	memset(out, 0, sizeof(*out));
	s->done = false;
	s->status = WLAN_STATUS_SUCCESS;
	if (!s->proto->sta_start) {
		s->status = WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG;
		return AUTH_STEP_FAILED;
	}
	return settle(s, s->proto->sta_start(s, out), out);
}

enum auth_step auth_sta_rx_auth(struct auth_sess *s, const struct auth_msg *in,
				struct auth_out *out)
{
	memset(out, 0, sizeof(*out));
	if (!s->proto->sta_rx_auth) {
		s->status = WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG;
		return AUTH_STEP_FAILED;
	}
	if (in->alg != s->proto->algorithm)
		return AUTH_STEP_IGNORE; /* an answer to another attempt */
	s->frames_rx++;
	return settle(s, s->proto->sta_rx_auth(s, in, out), out);
}

int auth_sta_assoc_elems(struct auth_sess *s, uint8_t *buf, size_t max, size_t *len)
{
	*len = 0;
	return s->proto->sta_assoc_elems ? s->proto->sta_assoc_elems(s, buf, max, len) : 0;
}

enum auth_step auth_sta_rx_assoc(struct auth_sess *s, uint16_t status, const uint8_t *elems,
				 size_t len)
{
	if (s->proto->sta_rx_assoc)
		return s->proto->sta_rx_assoc(s, status, elems, len);
	return AUTH_STEP_DONE;
}

enum auth_step auth_ap_rx_auth(struct auth_sess *s, const struct auth_msg *in,
			       struct auth_out *out)
{
	memset(out, 0, sizeof(*out));
	out->seq = (uint16_t)(in->seq + 1);
	if (!s->proto->ap_rx_auth || in->alg != s->proto->algorithm) {
		out->status = WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG;
		return settle(s, AUTH_STEP_FAILED, out);
	}
	s->frames_rx++;
	return settle(s, s->proto->ap_rx_auth(s, in, out), out);
}

uint16_t auth_ap_rx_assoc(struct auth_sess *s, const uint8_t *elems, size_t len)
{
	if (!s->done)
		return WLAN_STATUS_UNSPECIFIED_FAILURE;
	return s->proto->ap_rx_assoc ? s->proto->ap_rx_assoc(s, elems, len) : WLAN_STATUS_SUCCESS;
}

int auth_ap_assoc_elems(struct auth_sess *s, uint8_t *buf, size_t max, size_t *len)
{
	*len = 0;
	return s->proto->ap_assoc_elems ? s->proto->ap_assoc_elems(s, buf, max, len) : 0;
}

bool auth_has_timeout(const struct auth_sess *s)
{
	return s && s->proto->timeout != NULL;
}

enum auth_step auth_timeout(struct auth_sess *s, struct auth_out *out)
{
	memset(out, 0, sizeof(*out));
	if (!s->proto->timeout)
		return AUTH_STEP_FAILED;
	enum auth_step step = s->proto->timeout(s, out);
	/* A retransmission is sent by both roles; a give-up is silent. */
	if (step == AUTH_STEP_FAILED) {
		s->done = false;
		if (s->status == WLAN_STATUS_SUCCESS)
			s->status = WLAN_STATUS_UNSPECIFIED_FAILURE;
		return step;
	}
	return settle(s, step, out);
}
