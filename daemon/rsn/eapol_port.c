/* The EAPOL demultiplexer and controlled-port state; see eapol_port.h. */
#define LOG_TAG "eapol"
#include "daemon/rsn/eapol_port.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/eapol.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EAP_HDR_LEN 4

struct eapol_port {
	enum eapol_port_role role;
	struct eapol_port_ops ops;
	void *ctx;
	char name[32];
	bool authorized;
	struct eapol_port_stats stats;
};

const char *eap_code_name(uint8_t code)
{
	switch (code) {
	case EAP_CODE_REQUEST:
		return "Request";
	case EAP_CODE_RESPONSE:
		return "Response";
	case EAP_CODE_SUCCESS:
		return "Success";
	case EAP_CODE_FAILURE:
		return "Failure";
	default:
		return "unknown";
	}
}

int eap_hdr_parse(const uint8_t *body, size_t len, struct eap_hdr_info *out)
{
	memset(out, 0, sizeof(*out));
	if (!body || len < EAP_HDR_LEN)
		return -EBADMSG;
	out->code = body[0];
	out->id = body[1];
	out->length = (uint16_t)(body[2] << 8 | body[3]);
	out->packet = body;
	if (out->length < EAP_HDR_LEN || out->length > len)
		return -EBADMSG;
	switch (out->code) {
	case EAP_CODE_REQUEST:
	case EAP_CODE_RESPONSE:
		if (out->length < EAP_HDR_LEN + 1)
			return -EBADMSG;
		out->type = body[EAP_HDR_LEN];
		return 0;
	case EAP_CODE_SUCCESS:
	case EAP_CODE_FAILURE:
		return out->length == EAP_HDR_LEN ? 0 : -EBADMSG;
	default:
		return -EBADMSG;
	}
}

struct eapol_port *eapol_port_new(enum eapol_port_role role, const char *name,
				  const struct eapol_port_ops *ops, void *ctx)
{
	if (!ops || !ops->tx || !ops->set_authorized)
		return NULL;
	struct eapol_port *port = calloc(1, sizeof(*port));
	if (!port)
		return NULL;
	port->role = role;
	port->ops = *ops;
	port->ctx = ctx;
	snprintf(port->name, sizeof(port->name), "%s", name ? name : "port");
	return port;
}

void eapol_port_free(struct eapol_port *port)
{
	free(port);
}

static int malformed(struct eapol_port *port, const char *why)
{
	port->stats.rx_malformed++;
	log_debug("%s: malformed EAPOL frame dropped: %s", port->name, why);
	return -EBADMSG;
}

static int rx_eap(struct eapol_port *port, const struct eapol_hdr *h)
{
	struct eap_hdr_info eap;

	if (eap_hdr_parse(h->body, h->body_len, &eap) != 0)
		return malformed(port, "bad EAP header or length");
	port->stats.rx_eap++;
	if (port->ops.rx_eap)
		return port->ops.rx_eap(port->ctx, &eap);
	port->stats.rx_eap_unhandled++;
	log_info("%s: EAP-%s (id %u, type %u) but no EAP method here: reported", port->name,
		 eap_code_name(eap.code), eap.id, eap.type);
	if (port->ops.eap_unhandled)
		port->ops.eap_unhandled(port->ctx, &eap); /* may free the port */
	return -ENOENT;
}

/* Start and Logoff come from supplicants only. */
static int rx_control(struct eapol_port *port, uint8_t type)
{
	bool start = type == EAPOL_TYPE_START;
	void (*op)(void *) = start ? port->ops.start : port->ops.logoff;

	if (port->role != EAPOL_PORT_AUTHENTICATOR) {
		port->stats.rx_wrong_role++;
		log_debug("%s: EAPOL-%s to a supplicant dropped", port->name,
			  start ? "Start" : "Logoff");
		return -ENOTSUP;
	}
	if (start)
		port->stats.rx_start++;
	else
		port->stats.rx_logoff++;
	if (!op) {
		log_info("%s: EAPOL-%s ignored", port->name, start ? "Start" : "Logoff");
		return -ENOTSUP;
	}
	op(port->ctx); /* may free the port */
	return 0;
}

int eapol_port_rx(struct eapol_port *port, const uint8_t *frame, size_t len)
{
	struct eapol_hdr h;

	if (!frame)
		return malformed(port, "empty");
	int ret = eapol_parse(frame, len, &h);
	if (ret == CODEC_E_UNSUPPORTED) {
		port->stats.rx_other++;
		log_debug("%s: EAPOL packet type %u not used: dropped", port->name, h.type);
		return -ENOTSUP;
	}
	if (ret != CODEC_OK)
		return malformed(port, codec_strerror(ret));
	switch (h.type) {
	case EAPOL_TYPE_KEY:
		port->stats.rx_key++;
		if (!port->ops.rx_key) {
			log_debug("%s: EAPOL-Key with no key handshake: dropped", port->name);
			return -ENOTSUP;
		}
		/* The frame without padding: what the MIC covers. */
		port->ops.rx_key(port->ctx, frame, EAPOL_HDR_LEN + (size_t)h.body_len);
		return 0;
	case EAPOL_TYPE_EAP:
		return rx_eap(port, &h);
	case EAPOL_TYPE_START:
	case EAPOL_TYPE_LOGOFF:
		return rx_control(port, h.type);
	default:
		port->stats.rx_other++;
		log_debug("%s: EAPOL packet type %u not used: dropped", port->name, h.type);
		return -ENOTSUP;
	}
}

int eapol_port_tx(struct eapol_port *port, const uint8_t *frame, size_t len)
{
	int ret = port->ops.tx(port->ctx, frame, len);
	if (ret == 0)
		port->stats.tx++;
	return ret;
}

void eapol_port_set_authorized(struct eapol_port *port, bool authorized)
{
	if (port->authorized == authorized)
		return;
	port->authorized = authorized;
	port->stats.authorize_changes++;
	log_debug("%s: port %s", port->name, authorized ? "authorized" : "unauthorized");
	port->ops.set_authorized(port->ctx, authorized);
}

void eapol_port_reset(struct eapol_port *port)
{
	if (port)
		port->authorized = false;
}

bool eapol_port_authorized(const struct eapol_port *port)
{
	return port->authorized;
}

const struct eapol_port_stats *eapol_port_stats(const struct eapol_port *port)
{
	return &port->stats;
}
