/* The EAP peer: RFC 4137 4.3's state machine, driven one received packet at
 * a time. peer_enter() is the one place a state is entered (log, entry
 * actions); peer_next() holds the RFC's arcs out of each transient state;
 * peer_run() follows them until the machine rests (IDLE, WAIT_SECRET,
 * SUCCESS or FAILURE).
 *
 * The framework answers Identity, Notification and Nak itself; a method
 * sees only Requests of its own type (RFC 3748 2.1: once a method is
 * chosen, other types are discarded). Success and Failure are judged with
 * the method's decision (RFC 4137 4.1.1, as hostapd does: a lost Success
 * after an unconditional success still ends in success).
 */
#define LOG_TAG "eap"
#include "eap/eap_peer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/core/log.h"
#include "daemon/crypto/secure.h"
#include "eap/eap_peer_i.h"

#define EAP_HDR_LEN 4
#define EAP_EXP_HDR_LEN 8 /* Type 254, Vendor-Id (3), Vendor-Type (4) */
#define EAP_EXP_NAK 3	  /* Vendor-Type of the expanded Nak (RFC 3748 5.3.2) */
#define NO_ID (-1)
#define MSTATE_NONE (-1) /* methodState NONE: no method has run */

/* RFC 3748 4 codes (eapol_port.h has its own names for the same values). */
enum { CODE_REQUEST = 1, CODE_RESPONSE = 2, CODE_SUCCESS = 3, CODE_FAILURE = 4 };

/* What the server proposed, for the METHOD_REFUSED detail. */
struct offered {
	uint8_t type;
	uint32_t vendor_id, vendor_type;
};
#define OFFERED_MAX 8

struct eap_peer {
	/* A shallow copy: secrets answered later point into ours below. */
	struct eap_peer_profile profile;
	struct eap_peer_ops ops;
	void *cb_ctx;
	struct eap_peer_ctx ctx;
	enum eap_peer_state state;

	const struct eap_peer_method *allowed[EAP_PROFILE_METHODS_MAX];
	size_t n_allowed;

	/* RFC 4137 4.1 / 4.3 variables. */
	const struct eap_peer_method *method; /* selectedMethod */
	void *priv;
	int method_state; /* enum eap_method_state, or MSTATE_NONE */
	enum eap_decision decision;
	bool allow_notifications;
	int last_id;
	bool ignore;
	bool resend; /* RETRANSMIT: send lastRespData again */

	/* The packet being handled (rxReq, rxSuccess, rxFailure, reqId, reqMethod). */
	struct eap_pkt req;
	const uint8_t *raw;
	size_t raw_len;

	/* The Response: type data being built, and the last one sent. */
	uint8_t out_type;
	uint32_t out_vendor_id, out_vendor_type;
	struct eap_buf out;
	struct eap_buf last_resp;

	struct offered offered[OFFERED_MAX];
	size_t n_offered;
	bool nak_sent;

	uint8_t msk[EAP_MSK_LEN], emsk[EAP_EMSK_LEN], sid[EAP_SESSION_ID_MAX];
	size_t msk_len, emsk_len, sid_len;

	enum eap_peer_result result;
	enum eap_peer_err err;
	char detail[256];

	/* Secrets answered through eap_peer_set_secret(), and the Request
	 * held while the agent is asked. */
	char *password, *key_passphrase;
	int secret_wanted;
	bool in_rx, secret_arrived;
	uint8_t *held;
	size_t held_len;

	struct eap_peer_tls_info tls;
	bool has_tls;
	struct eap_peer_stats stats;
};

static const char *const state_names[] = {
	[EAP_PEER_S_INITIALIZE] = "INITIALIZE",
	[EAP_PEER_S_IDLE] = "IDLE",
	[EAP_PEER_S_RECEIVED] = "RECEIVED",
	[EAP_PEER_S_GET_METHOD] = "GET_METHOD",
	[EAP_PEER_S_METHOD] = "METHOD",
	[EAP_PEER_S_SEND_RESPONSE] = "SEND_RESPONSE",
	[EAP_PEER_S_DISCARD] = "DISCARD",
	[EAP_PEER_S_IDENTITY] = "IDENTITY",
	[EAP_PEER_S_NOTIFICATION] = "NOTIFICATION",
	[EAP_PEER_S_RETRANSMIT] = "RETRANSMIT",
	[EAP_PEER_S_WAIT_SECRET] = "WAIT_SECRET",
	[EAP_PEER_S_SUCCESS] = "SUCCESS",
	[EAP_PEER_S_FAILURE] = "FAILURE",
};

const char *eap_peer_state_to_string(enum eap_peer_state s)
{
	if ((unsigned)s < sizeof(state_names) / sizeof(state_names[0]) && state_names[s])
		return state_names[s];
	return "?";
}

static const char *const err_names[] = {
	[EAP_PEER_ERR_NONE] = "none",
	[EAP_PEER_ERR_NO_RESPONSE] = "no-response",
	[EAP_PEER_ERR_METHOD_REFUSED] = "method-refused",
	[EAP_PEER_ERR_SERVER_UNTRUSTED] = "server-untrusted",
	[EAP_PEER_ERR_SERVER_NAME] = "server-name-mismatch",
	[EAP_PEER_ERR_TLS_ALERT] = "tls-alert",
	[EAP_PEER_ERR_INNER_REJECTED] = "inner-rejected",
	[EAP_PEER_ERR_FAILURE] = "eap-failure",
	[EAP_PEER_ERR_CREDENTIALS] = "credentials",
	[EAP_PEER_ERR_METHOD_UNAVAILABLE] = "method-unavailable",
	[EAP_PEER_ERR_PROTOCOL] = "protocol",
};

const char *eap_peer_err_name(enum eap_peer_err err)
{
	if ((unsigned)err < sizeof(err_names) / sizeof(err_names[0]) && err_names[err])
		return err_names[err];
	return "?";
}

/* ---- packets ---------------------------------------------------------- */

int eap_pkt_parse(const uint8_t *pkt, size_t len, struct eap_pkt *out)
{
	memset(out, 0, sizeof(*out));
	if (!pkt || len < EAP_HDR_LEN)
		return -EBADMSG;
	size_t plen = (size_t)pkt[2] << 8 | pkt[3];
	if (plen < EAP_HDR_LEN || plen > len)
		return -EBADMSG;
	out->code = pkt[0];
	out->id = pkt[1];
	switch (out->code) {
	case CODE_SUCCESS:
	case CODE_FAILURE:
		return plen == EAP_HDR_LEN ? 0 : -EBADMSG;
	case CODE_REQUEST:
	case CODE_RESPONSE:
		break;
	default:
		return 0; /* RFC 6696 Initiate/Finish and unknown codes: the caller discards */
	}
	if (plen < EAP_HDR_LEN + 1)
		return -EBADMSG; /* a Request without its Type */
	out->type = pkt[EAP_HDR_LEN];
	out->data = pkt + EAP_HDR_LEN + 1;
	out->data_len = plen - EAP_HDR_LEN - 1;
	if (out->type == EAP_T_EXPANDED) {
		if (plen < EAP_HDR_LEN + EAP_EXP_HDR_LEN)
			return -EBADMSG;
		const uint8_t *v = pkt + EAP_HDR_LEN + 1;
		out->vendor_id = (uint32_t)v[0] << 16 | (uint32_t)v[1] << 8 | v[2];
		out->vendor_type = (uint32_t)v[3] << 24 | (uint32_t)v[4] << 16 |
				   (uint32_t)v[5] << 8 | v[6];
		out->data = pkt + EAP_HDR_LEN + EAP_EXP_HDR_LEN;
		out->data_len = plen - EAP_HDR_LEN - EAP_EXP_HDR_LEN;
	}
	return 0;
}

static const struct {
	uint8_t type;
	const char *name;
} type_names[] = {
	{ 1, "Identity" }, { 2, "Notification" }, { 3, "Nak" },      { 4, "MD5" },
	{ 5, "OTP" },	   { 6, "GTC" },	  { 13, "TLS" },      { 17, "LEAP" },
	{ 18, "SIM" },	   { 21, "TTLS" },	  { 23, "AKA" },      { 25, "PEAP" },
	{ 26, "MSCHAPV2" }, { 43, "FAST" },	  { 47, "PSK" },      { 49, "IKEV2" },
	{ 50, "AKA'" },	   { 52, "PWD" },	  { 55, "TEAP" },
};

const char *eap_type_describe(uint8_t type, uint32_t vendor_id, uint32_t vendor_type,
			      char *buf, size_t size)
{
	const struct eap_peer_method *m = eap_peer_method_find(type, vendor_id, vendor_type);
	if (m)
		snprintf(buf, size, "%s", m->name);
	else if (type == EAP_T_EXPANDED)
		snprintf(buf, size, "expanded %u/%u", vendor_id, vendor_type);
	else {
		snprintf(buf, size, "type %u", type);
		for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
			if (type_names[i].type == type)
				snprintf(buf, size, "%s", type_names[i].name);
	}
	return buf;
}

/* ---- errors, keys ------------------------------------------------------ */

static void set_error(struct eap_peer *p, enum eap_peer_err err, const char *detail)
{
	if (p->err != EAP_PEER_ERR_NONE || err == EAP_PEER_ERR_NONE)
		return; /* the first error of an attempt names the stage */
	p->err = err;
	snprintf(p->detail, sizeof(p->detail), "%s", detail ? detail : "");
	log_info("error %s%s%s", eap_peer_err_name(err), detail ? ": " : "",
		 detail ? detail : "");
}

static void offered_detail(const struct eap_peer *p, char *buf, size_t size)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < p->n_offered && off < size; i++) {
		char name[32];
		eap_type_describe(p->offered[i].type, p->offered[i].vendor_id,
				  p->offered[i].vendor_type, name, sizeof(name));
		int n = snprintf(buf + off, size - off, "%s%s", i ? ", " : "", name);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static void wipe_keys(struct eap_peer *p)
{
	crypto_zero(p->msk, sizeof(p->msk));
	crypto_zero(p->emsk, sizeof(p->emsk));
	crypto_zero(p->sid, sizeof(p->sid));
	p->msk_len = p->emsk_len = p->sid_len = 0;
}

static size_t fetch_key(int (*op)(void *, uint8_t *, size_t), void *priv, uint8_t *out,
			size_t max)
{
	if (!op)
		return 0;
	int n = op(priv, out, max);
	if (n < 0 || (size_t)n > max) {
		crypto_zero(out, max);
		return 0;
	}
	return (size_t)n;
}

static void export_keys(struct eap_peer *p)
{
	if (!p->method || !p->priv || p->decision == EAP_DECISION_FAIL)
		return;
	p->msk_len = fetch_key(p->method->get_msk, p->priv, p->msk, sizeof(p->msk));
	p->emsk_len = fetch_key(p->method->get_emsk, p->priv, p->emsk, sizeof(p->emsk));
	p->sid_len = fetch_key(p->method->get_session_id, p->priv, p->sid, sizeof(p->sid));
}

static void method_end(struct eap_peer *p, bool keep_reauth)
{
	if (!p->method)
		return;
	if (keep_reauth && p->priv && p->method->has_reauth_data &&
	    p->method->has_reauth_data(p->priv))
		return;
	if (p->priv)
		p->method->deinit(p->priv);
	p->priv = NULL;
	p->method = NULL;
}

/* ---- the machine -------------------------------------------------------- */

static bool is_allowed(const struct eap_peer *p, const struct eap_peer_method *m)
{
	for (size_t i = 0; i < p->n_allowed; i++)
		if (p->allowed[i] == m)
			return true;
	return false;
}

static void note_offered(struct eap_peer *p)
{
	for (size_t i = 0; i < p->n_offered; i++)
		if (p->offered[i].type == p->req.type &&
		    p->offered[i].vendor_id == p->req.vendor_id &&
		    p->offered[i].vendor_type == p->req.vendor_type)
			return;
	if (p->n_offered < OFFERED_MAX)
		p->offered[p->n_offered++] = (struct offered){ p->req.type, p->req.vendor_id,
							       p->req.vendor_type };
}

/* RFC 3748 5.3.1 (legacy Nak: one octet per acceptable type, 254 standing
 * for any expanded one, 0 for none) and 5.3.2 (expanded Nak: 8 octets per
 * type, legacy types as Vendor-Id 0, none as 254/0/0). */
static int build_nak(struct eap_peer *p)
{
	bool expanded = p->req.type == EAP_T_EXPANDED;
	bool any = false, exp_listed = false;
	int r = 0;

	eap_buf_clear(&p->out);
	p->out_type = expanded ? EAP_T_EXPANDED : EAP_T_NAK;
	p->out_vendor_id = 0;
	p->out_vendor_type = EAP_EXP_NAK;
	for (size_t i = 0; i < p->n_allowed && !r; i++) {
		const struct eap_peer_method *m = p->allowed[i];
		any = true;
		if (expanded) {
			bool ext = m->type == EAP_T_EXPANDED;
			r = eap_buf_put_u8(&p->out, EAP_T_EXPANDED);
			r = r ? r : eap_buf_put_u8(&p->out, 0); /* 24-bit Vendor-Id */
			r = r ? r : eap_buf_put_be16(&p->out, (uint16_t)(ext ? m->vendor_id : 0));
			r = r ? r : eap_buf_put_be32(&p->out, ext ? m->vendor_type : m->type);
		} else if (m->type != EAP_T_EXPANDED) {
			r = eap_buf_put_u8(&p->out, (uint8_t)m->type);
		} else if (!exp_listed) {
			exp_listed = true;
			r = eap_buf_put_u8(&p->out, EAP_T_EXPANDED);
		}
	}
	if (!any && !r) {
		static const uint8_t none_exp[8] = { EAP_T_EXPANDED };
		r = expanded ? eap_buf_put(&p->out, none_exp, sizeof(none_exp))
			     : eap_buf_put_u8(&p->out, 0);
	}
	p->stats.naks++;
	p->nak_sent = true;
	return r;
}

/* GET_METHOD: the method the Request names, if the profile allows it and it
 * starts; otherwise a Nak. A method that cannot start (MD4 missing) leaves
 * its error and leaves the allowed list, so the Nak offers the others. */
static void get_method(struct eap_peer *p)
{
	const struct eap_peer_method *m =
		eap_peer_method_find(p->req.type, p->req.vendor_id, p->req.vendor_type);
	char name[32];

	eap_type_describe(p->req.type, p->req.vendor_id, p->req.vendor_type, name, sizeof(name));
	if (m && is_allowed(p, m)) {
		void *priv = m->init(&p->ctx);
		if (priv) {
			p->method = m;
			p->priv = priv;
			log_info("method %s selected", m->name);
			return;
		}
		set_error(p, EAP_PEER_ERR_METHOD_UNAVAILABLE, m->name);
		for (size_t i = 0; i < p->n_allowed; i++)
			if (p->allowed[i] == m) {
				p->allowed[i] = p->allowed[--p->n_allowed];
				break;
			}
	} else {
		log_info("server proposed %s, not allowed by the profile: Nak", name);
	}
	note_offered(p);
	if (build_nak(p) < 0)
		p->ignore = true;
}

static void run_method(struct eap_peer *p)
{
	enum eap_method_state ms = p->method_state == MSTATE_NONE ? EAP_METHOD_CONT
								  : (enum eap_method_state)p->method_state;
	enum eap_decision dec = p->decision;

	eap_buf_clear(&p->out);
	p->out_type = p->method->type;
	p->out_vendor_id = p->method->vendor_id;
	p->out_vendor_type = p->method->vendor_type;
	int r = p->method->process(p->priv, p->req.id, p->req.data, p->req.data_len, &p->out,
				   &ms, &dec);
	if (r == -EAGAIN && p->secret_wanted) {
		eap_buf_clear(&p->out);
		return; /* peer_next() holds the Request */
	}
	p->secret_wanted = 0;
	if (r < 0) {
		p->ignore = true;
		eap_buf_clear(&p->out);
		return;
	}
	p->method_state = (int)ms;
	p->decision = dec;
}

static int send_response(struct eap_peer *p)
{
	if (!p->resend) {
		bool exp = p->out_type == EAP_T_EXPANDED;
		size_t len = EAP_HDR_LEN + (exp ? EAP_EXP_HDR_LEN : 1) + p->out.len;
		if (len > 0xffff)
			return -EMSGSIZE;
		eap_buf_clear(&p->last_resp);
		int r = eap_buf_put_u8(&p->last_resp, CODE_RESPONSE);
		r = r ? r : eap_buf_put_u8(&p->last_resp, p->req.id);
		r = r ? r : eap_buf_put_be16(&p->last_resp, (uint16_t)len);
		r = r ? r : eap_buf_put_u8(&p->last_resp, p->out_type);
		if (exp) {
			r = r ? r : eap_buf_put_u8(&p->last_resp, (uint8_t)(p->out_vendor_id >> 16));
			r = r ? r : eap_buf_put_be16(&p->last_resp, (uint16_t)p->out_vendor_id);
			r = r ? r : eap_buf_put_be32(&p->last_resp, p->out_vendor_type);
		}
		r = r ? r : eap_buf_put(&p->last_resp, p->out.data, p->out.len);
		eap_buf_clear(&p->out);
		if (r)
			return r;
	}
	p->resend = false;
	p->last_id = p->req.id;
	p->stats.tx++;
	return p->ops.tx(p->cb_ctx, p->last_resp.data, p->last_resp.len);
}

static void build_identity(struct eap_peer *p)
{
	const char *id = p->profile.anonymous_identity && *p->profile.anonymous_identity
				 ? p->profile.anonymous_identity
				 : p->profile.identity;
	eap_buf_clear(&p->out);
	p->out_type = EAP_T_IDENTITY;
	if (id && eap_buf_put(&p->out, id, strlen(id)) < 0)
		p->ignore = true;
}

/* The text is the server's: shown to the log only with what prints safely. */
static void notification(struct eap_peer *p)
{
	char text[128];
	size_t n = 0;
	for (size_t i = 0; i < p->req.data_len && n + 1 < sizeof(text); i++) {
		uint8_t c = p->req.data[i];
		text[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	text[n] = '\0';
	log_info("notification from the server: \"%s\"", text);
	p->stats.notifications++;
	eap_buf_clear(&p->out);
	p->out_type = EAP_T_NOTIFICATION;
}

static void failure_error(struct eap_peer *p)
{
	char buf[160];
	if (!p->method && p->nak_sent) {
		offered_detail(p, buf, sizeof(buf));
		set_error(p, EAP_PEER_ERR_METHOD_REFUSED, buf);
	} else if (p->method) {
		snprintf(buf, sizeof(buf), "EAP-Failure during %s", p->method->name);
		set_error(p, EAP_PEER_ERR_FAILURE, buf);
	} else {
		set_error(p, EAP_PEER_ERR_FAILURE, "EAP-Failure before any method");
	}
}

/* The one transition function: logs, then runs the entry actions of s. */
static void peer_enter(struct eap_peer *p, enum eap_peer_state s)
{
	log_debug("%s -> %s", eap_peer_state_to_string(p->state), eap_peer_state_to_string(s));
	p->state = s;
	switch (s) {
	case EAP_PEER_S_INITIALIZE:
		method_end(p, true);
		p->method_state = MSTATE_NONE;
		p->decision = EAP_DECISION_FAIL;
		p->allow_notifications = true;
		p->last_id = NO_ID;
		p->n_offered = 0;
		p->nak_sent = false;
		p->result = EAP_PEER_RUNNING;
		p->err = EAP_PEER_ERR_NONE;
		p->detail[0] = '\0';
		eap_buf_clear(&p->last_resp);
		wipe_keys(p);
		break;
	case EAP_PEER_S_IDLE:
		break;
	case EAP_PEER_S_RECEIVED:
		p->ignore = false;
		p->resend = false;
		break;
	case EAP_PEER_S_GET_METHOD:
		get_method(p);
		break;
	case EAP_PEER_S_METHOD:
		run_method(p);
		break;
	case EAP_PEER_S_SEND_RESPONSE:
		if (send_response(p) < 0)
			log_warn("could not send the Response (id %u)", p->req.id);
		break;
	case EAP_PEER_S_DISCARD:
		p->stats.rx_discarded++;
		break;
	case EAP_PEER_S_IDENTITY:
		build_identity(p);
		break;
	case EAP_PEER_S_NOTIFICATION:
		notification(p);
		break;
	case EAP_PEER_S_RETRANSMIT:
		p->resend = true;
		p->stats.retransmits++;
		break;
	case EAP_PEER_S_WAIT_SECRET:
		break; /* peer_run()'s caller asks, once the machine rests */
	case EAP_PEER_S_SUCCESS:
		export_keys(p);
		p->result = EAP_PEER_SUCCESS;
		log_info("authenticated with %s", p->method ? p->method->name : "?");
		if (p->ops.done)
			p->ops.done(p->cb_ctx, EAP_PEER_SUCCESS);
		break;
	case EAP_PEER_S_FAILURE:
		failure_error(p);
		p->result = EAP_PEER_FAILURE;
		wipe_keys(p);
		if (p->ops.done)
			p->ops.done(p->cb_ctx, EAP_PEER_FAILURE);
		break;
	}
}

/* Hosts that send Success/Failure with the next identifier instead of the
 * last one (seen from Cisco ACS; hostapd accepts it too). */
static bool final_id_ok(const struct eap_peer *p)
{
	return p->last_id != NO_ID &&
	       (p->req.id == p->last_id || p->req.id == ((p->last_id + 1) & 0xff));
}

/* RFC 4137 4.3 RECEIVED's arcs. */
static enum eap_peer_state next_from_received(const struct eap_peer *p)
{
	bool rx_req = p->req.code == CODE_REQUEST;
	bool rx_success = p->req.code == CODE_SUCCESS;
	bool rx_failure = p->req.code == CODE_FAILURE;
	bool same_id = p->last_id != NO_ID && p->req.id == p->last_id;
	bool req_is_selected = p->method && p->req.type == p->method->type &&
			       (p->req.type != EAP_T_EXPANDED ||
				(p->req.vendor_id == p->method->vendor_id &&
				 p->req.vendor_type == p->method->vendor_type));

	if (rx_req && !same_id) {
		if (req_is_selected && p->method_state != EAP_METHOD_DONE)
			return EAP_PEER_S_METHOD;
		if (p->req.type == EAP_T_NOTIFICATION)
			return p->allow_notifications ? EAP_PEER_S_NOTIFICATION
						      : EAP_PEER_S_DISCARD;
		if (!p->method && p->req.type == EAP_T_IDENTITY)
			return EAP_PEER_S_IDENTITY;
		if (!p->method && p->req.type != EAP_T_NAK && p->req.type != EAP_TYPE_NONE)
			return EAP_PEER_S_GET_METHOD;
		return EAP_PEER_S_DISCARD;
	}
	if (rx_req && same_id)
		return p->last_resp.len ? EAP_PEER_S_RETRANSMIT : EAP_PEER_S_DISCARD;
	if (rx_success && final_id_ok(p) && p->decision != EAP_DECISION_FAIL)
		return EAP_PEER_S_SUCCESS;
	if (p->method_state != EAP_METHOD_CONT && final_id_ok(p) &&
	    ((rx_failure && p->decision != EAP_DECISION_UNCOND_SUCC) ||
	     (rx_success && p->decision == EAP_DECISION_FAIL)))
		return EAP_PEER_S_FAILURE;
	return EAP_PEER_S_DISCARD;
}

static enum eap_peer_state peer_next(const struct eap_peer *p)
{
	switch (p->state) {
	case EAP_PEER_S_INITIALIZE:
	case EAP_PEER_S_SEND_RESPONSE:
	case EAP_PEER_S_DISCARD:
		return EAP_PEER_S_IDLE;
	case EAP_PEER_S_RECEIVED:
		return next_from_received(p);
	case EAP_PEER_S_GET_METHOD:
		if (p->ignore)
			return EAP_PEER_S_DISCARD;
		return p->method ? EAP_PEER_S_METHOD : EAP_PEER_S_SEND_RESPONSE;
	case EAP_PEER_S_METHOD:
		if (p->secret_wanted)
			return EAP_PEER_S_WAIT_SECRET;
		if (p->ignore)
			return EAP_PEER_S_DISCARD;
		/* RFC 4137 says DONE && FAIL -> FAILURE; like hostapd, a
		 * method's last Response (MSCHAPv2's failure ack) goes first. */
		if (p->method_state == EAP_METHOD_DONE && p->decision == EAP_DECISION_FAIL &&
		    !p->out.len)
			return EAP_PEER_S_FAILURE;
		return p->out.len ? EAP_PEER_S_SEND_RESPONSE : EAP_PEER_S_DISCARD;
	case EAP_PEER_S_IDENTITY:
	case EAP_PEER_S_NOTIFICATION:
	case EAP_PEER_S_RETRANSMIT:
		return p->ignore ? EAP_PEER_S_DISCARD : EAP_PEER_S_SEND_RESPONSE;
	case EAP_PEER_S_IDLE:
	case EAP_PEER_S_WAIT_SECRET:
	case EAP_PEER_S_SUCCESS:
	case EAP_PEER_S_FAILURE:
		return p->state;
	}
	return p->state;
}

static bool resting(enum eap_peer_state s)
{
	return s == EAP_PEER_S_IDLE || s == EAP_PEER_S_WAIT_SECRET || s == EAP_PEER_S_SUCCESS ||
	       s == EAP_PEER_S_FAILURE;
}

static void peer_run(struct eap_peer *p)
{
	while (!resting(p->state))
		peer_enter(p, peer_next(p));
}

static bool finished(const struct eap_peer *p)
{
	return p->state == EAP_PEER_S_SUCCESS || p->state == EAP_PEER_S_FAILURE;
}

/* Holds the Request a method could not answer yet and asks for the secret. */
static void hold_and_ask(struct eap_peer *p)
{
	uint8_t *copy = malloc(p->raw_len);
	if (!copy) {
		set_error(p, EAP_PEER_ERR_CREDENTIALS, "out of memory");
		peer_enter(p, EAP_PEER_S_FAILURE);
		return;
	}
	memcpy(copy, p->raw, p->raw_len);
	free(p->held);
	p->held = copy;
	p->held_len = p->raw_len;
	p->secret_arrived = false;
	log_info("asking for a secret (%s)",
		 p->secret_wanted == EAP_SECRET_PASSWORD ? "password" : "key passphrase");
	if (p->ops.need_secret)
		p->ops.need_secret(p->cb_ctx, (enum eap_peer_secret)p->secret_wanted);
	else {
		set_error(p, EAP_PEER_ERR_CREDENTIALS, "a secret is missing and nobody can ask");
		peer_enter(p, EAP_PEER_S_FAILURE);
	}
}

static int handle(struct eap_peer *p, const uint8_t *pkt, size_t len);

static void reprocess_held(struct eap_peer *p)
{
	while (p->state == EAP_PEER_S_WAIT_SECRET && p->secret_arrived) {
		uint8_t *pkt = p->held;
		size_t len = p->held_len;
		p->held = NULL;
		p->held_len = 0;
		p->secret_arrived = false;
		p->secret_wanted = 0;
		peer_enter(p, EAP_PEER_S_IDLE);
		handle(p, pkt, len);
		free(pkt);
	}
}

static int handle(struct eap_peer *p, const uint8_t *pkt, size_t len)
{
	struct eap_pkt req;
	if (eap_pkt_parse(pkt, len, &req) < 0) {
		p->stats.rx_malformed++;
		log_debug("malformed EAP packet (%zu octets) dropped", len);
		return -EBADMSG;
	}
	p->stats.rx++;
	if (req.code != CODE_REQUEST && req.code != CODE_SUCCESS && req.code != CODE_FAILURE) {
		p->stats.rx_discarded++;
		return 0;
	}
	if (p->state == EAP_PEER_S_WAIT_SECRET && req.code == CODE_REQUEST) {
		/* The agent is still asked: keep the newest Request for the answer. */
		uint8_t *copy = malloc(len);
		if (copy) {
			memcpy(copy, pkt, len);
			free(p->held);
			p->held = copy;
			p->held_len = len;
		}
		p->stats.rx_discarded++;
		return 0;
	}
	p->req = req;
	p->raw = pkt;
	p->raw_len = len;
	p->in_rx = true;
	peer_enter(p, EAP_PEER_S_RECEIVED);
	peer_run(p);
	if (p->state == EAP_PEER_S_WAIT_SECRET && !p->held)
		hold_and_ask(p);
	p->in_rx = false;
	p->raw = NULL;
	p->raw_len = 0;
	return 0;
}

int eap_peer_rx(struct eap_peer *peer, const uint8_t *pkt, size_t len)
{
	if (!peer)
		return -EINVAL;
	if (finished(peer))
		return -EALREADY;
	if (peer->in_rx)
		return -EBUSY; /* from inside a callback */
	int r = handle(peer, pkt, len);
	reprocess_held(peer);
	return r;
}

int eap_peer_set_secret(struct eap_peer *peer, enum eap_peer_secret which, const char *value)
{
	if (!peer || (which != EAP_SECRET_PASSWORD && which != EAP_SECRET_KEY_PASSPHRASE))
		return -EINVAL;
	if (finished(peer))
		return -EALREADY;
	if (!value) {
		set_error(peer, EAP_PEER_ERR_CREDENTIALS, which == EAP_SECRET_PASSWORD
								  ? "no password given"
								  : "no key passphrase given");
		free(peer->held);
		peer->held = NULL;
		peer_enter(peer, EAP_PEER_S_FAILURE);
		return 0;
	}
	char *copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	char **slot = which == EAP_SECRET_PASSWORD ? &peer->password : &peer->key_passphrase;
	if (*slot) {
		crypto_zero(*slot, strlen(*slot));
		free(*slot);
	}
	*slot = copy;
	if (which == EAP_SECRET_PASSWORD) {
		peer->profile.password = copy;
		peer->profile.password_len = strlen(copy);
	} else {
		peer->profile.tls.key_passphrase = copy;
	}
	if (peer->state == EAP_PEER_S_WAIT_SECRET && peer->held) {
		peer->secret_arrived = true;
		if (!peer->in_rx)
			reprocess_held(peer);
	}
	return 0;
}

/* The IDLE state's lower-layer arcs (RFC 4137 4.3). */
void eap_peer_alt_accept(struct eap_peer *peer)
{
	if (!peer || finished(peer) || peer->in_rx)
		return;
	if (peer->decision != EAP_DECISION_FAIL)
		peer_enter(peer, EAP_PEER_S_SUCCESS);
	else if (peer->method_state != EAP_METHOD_CONT)
		peer_enter(peer, EAP_PEER_S_FAILURE);
}

void eap_peer_alt_reject(struct eap_peer *peer)
{
	if (!peer || finished(peer) || peer->in_rx)
		return;
	set_error(peer, EAP_PEER_ERR_FAILURE, "the link rejected the authentication");
	peer_enter(peer, EAP_PEER_S_FAILURE);
}

void eap_peer_timeout(struct eap_peer *peer)
{
	if (!peer || finished(peer) || peer->in_rx)
		return;
	char buf[96];
	if (peer->method)
		snprintf(buf, sizeof(buf), "the server stopped answering during %s",
			 peer->method->name);
	else if (peer->last_id != NO_ID)
		snprintf(buf, sizeof(buf), "the server stopped answering before a method ran");
	else
		snprintf(buf, sizeof(buf), "no EAP request from the authenticator");
	set_error(peer, EAP_PEER_ERR_NO_RESPONSE, buf);
	peer_enter(peer, EAP_PEER_S_FAILURE);
}

void eap_peer_restart(struct eap_peer *peer)
{
	if (!peer || peer->in_rx)
		return;
	free(peer->held);
	peer->held = NULL;
	peer->held_len = 0;
	peer->secret_wanted = 0;
	peer_enter(peer, EAP_PEER_S_INITIALIZE);
	peer_run(peer);
}

/* ---- life --------------------------------------------------------------- */

struct eap_peer *eap_peer_new(const struct eap_peer_profile *profile,
			      const struct eap_peer_ops *ops, void *ctx)
{
	if (!profile || !ops || !ops->tx)
		return NULL;
	struct eap_peer *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->profile = *profile;
	p->ops = *ops;
	p->cb_ctx = ctx;
	p->ctx.peer = p;
	p->ctx.phase = 0;
	size_t n = profile->n_methods < EAP_PROFILE_METHODS_MAX ? profile->n_methods
								: EAP_PROFILE_METHODS_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct eap_peer_method *m = eap_peer_method_by_name(profile->methods[i]);
		if (!m || m->inner_only) {
			log_warn("method \"%s\" cannot run as the outer method here: skipped",
				 profile->methods[i] ? profile->methods[i] : "(null)");
			continue;
		}
		if (!is_allowed(p, m))
			p->allowed[p->n_allowed++] = m;
	}
	p->state = EAP_PEER_S_INITIALIZE;
	peer_enter(p, EAP_PEER_S_INITIALIZE);
	peer_run(p);
	return p;
}

static void free_secret(char **s)
{
	if (*s) {
		crypto_zero(*s, strlen(*s));
		free(*s);
		*s = NULL;
	}
}

void eap_peer_free(struct eap_peer *peer)
{
	if (!peer)
		return;
	method_end(peer, false);
	wipe_keys(peer);
	eap_buf_release(&peer->out);
	eap_buf_release(&peer->last_resp);
	free_secret(&peer->password);
	free_secret(&peer->key_passphrase);
	if (peer->held)
		crypto_zero(peer->held, peer->held_len);
	free(peer->held);
	crypto_zero(peer, sizeof(*peer));
	free(peer);
}

/* ---- results ------------------------------------------------------------ */

enum eap_peer_result eap_peer_result(const struct eap_peer *peer)
{
	return peer ? peer->result : EAP_PEER_FAILURE;
}

enum eap_peer_err eap_peer_error(const struct eap_peer *peer, const char **detail)
{
	if (detail)
		*detail = peer ? peer->detail : "";
	return peer ? peer->err : EAP_PEER_ERR_NONE;
}

static int copy_key(const struct eap_peer *peer, const uint8_t *key, size_t len, uint8_t *out,
		    size_t max)
{
	if (!peer || peer->result != EAP_PEER_SUCCESS || !len)
		return -ENOENT;
	if (!out || max < len)
		return -ENOSPC;
	memcpy(out, key, len);
	return (int)len;
}

int eap_peer_msk(const struct eap_peer *peer, uint8_t *out, size_t max)
{
	return copy_key(peer, peer ? peer->msk : NULL, peer ? peer->msk_len : 0, out, max);
}

int eap_peer_emsk(const struct eap_peer *peer, uint8_t *out, size_t max)
{
	return copy_key(peer, peer ? peer->emsk : NULL, peer ? peer->emsk_len : 0, out, max);
}

int eap_peer_session_id(const struct eap_peer *peer, uint8_t *out, size_t max)
{
	return copy_key(peer, peer ? peer->sid : NULL, peer ? peer->sid_len : 0, out, max);
}

const char *eap_peer_method_name(const struct eap_peer *peer)
{
	return peer && peer->method ? peer->method->name : NULL;
}

const struct eap_peer_tls_info *eap_peer_tls_info(const struct eap_peer *peer)
{
	return peer && peer->has_tls ? &peer->tls : NULL;
}

enum eap_peer_state eap_peer_state(const struct eap_peer *peer)
{
	return peer ? peer->state : EAP_PEER_S_FAILURE;
}

const struct eap_peer_stats *eap_peer_stats(const struct eap_peer *peer)
{
	return peer ? &peer->stats : NULL;
}

/* ---- services to methods (eap_peer_method.h) ------------------------------ */

const struct eap_peer_profile *eap_peer_ctx_profile(struct eap_peer_ctx *ctx)
{
	return &ctx->peer->profile;
}

int eap_peer_ctx_phase(struct eap_peer_ctx *ctx)
{
	return ctx->phase;
}

void eap_peer_ctx_set_error(struct eap_peer_ctx *ctx, int err, const char *detail)
{
	set_error(ctx->peer, (enum eap_peer_err)err, detail);
}

void eap_peer_ctx_need_secret(struct eap_peer_ctx *ctx, int which)
{
	ctx->peer->secret_wanted = which;
}

struct eap_peer_ctx *eap_peer_ctx_of(struct eap_peer *peer)
{
	return peer ? &peer->ctx : NULL;
}

struct eap_peer_ctx *eap_peer_ctx_new_inner(struct eap_peer_ctx *outer)
{
	if (!outer)
		return NULL;
	struct eap_peer_ctx *in = calloc(1, sizeof(*in));
	if (!in)
		return NULL;
	in->peer = outer->peer;
	in->phase = 2;
	return in;
}

void eap_peer_ctx_free_inner(struct eap_peer_ctx *inner)
{
	free(inner);
}

void eap_peer_ctx_set_tls_info(struct eap_peer_ctx *ctx, const struct eap_peer_tls_info *info)
{
	if (!info)
		return;
	ctx->peer->tls = *info;
	ctx->peer->has_tls = true;
}
