/* One IEEE 802.1X controlled port (802.1X-2020 6.3, 12): the object between
 * the link (a Wi-Fi association or a wired Ethernet port) and what consumes
 * EAPOL on it.
 *
 * It demultiplexes received EAPOL frames by packet type:
 *   EAPOL-Key     to the key handshake (rsn_supp/rsn_auth, through ops)
 *   EAP-Packet    to the EAP consumer; with none (no Enterprise support
 *                 yet) the packet is reported through ops->eap_unhandled so
 *                 the role can fail the attempt or log it, never eaten
 *   EAPOL-Start   authenticator: ops->start (a PSK AP restarts its 4-way
 *                 handshake, as hostapd does); supplicant: dropped
 *   EAPOL-Logoff  authenticator: ops->logoff; supplicant: dropped
 *   anything else (MKA, announcements, ASF alerts): counted and dropped
 * Malformed frames (truncated header, body longer than the frame, bad
 * version, an EAP length that does not fit) are counted and dropped.
 *
 * It owns the controlled port's state: authorized or not, changed only
 * through eapol_port_set_authorized(), which calls ops->set_authorized
 * (the driver's port op) on a change.
 *
 * Nothing here knows 802.11: the role filters frames by address before
 * and addresses them on the way out (ops->tx).
 *
 * Ownership: eapol_port_new() returns a port the caller frees with
 * eapol_port_free(). The consumer ops (rx_key, rx_eap, eap_unhandled,
 * start, logoff) may free the port: it touches nothing after calling them.
 */
#ifndef WPAD_RSN_EAPOL_PORT_H
#define WPAD_RSN_EAPOL_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum eapol_port_role {
	EAPOL_PORT_SUPPLICANT,	  /* a station, or the supplicant of a wired port */
	EAPOL_PORT_AUTHENTICATOR, /* an AP for one station, or a wired authenticator */
};

/* EAP codes, RFC 3748 4. */
enum eap_code {
	EAP_CODE_REQUEST = 1,
	EAP_CODE_RESPONSE = 2,
	EAP_CODE_SUCCESS = 3,
	EAP_CODE_FAILURE = 4,
};
#define EAP_TYPE_IDENTITY 1

/* The EAP header of an EAP-Packet, RFC 3748 4. type is 0 for Success and
 * Failure, which have none. */
struct eap_hdr_info {
	uint8_t code;
	uint8_t id;
	uint16_t length; /* the EAP packet, header included */
	uint8_t type;
	const uint8_t *packet; /* the whole EAP packet */
};

/* Parses the EAP packet of an EAP-Packet body. Returns 0, or -EBADMSG: a
 * packet shorter than 4 octets, a length field below 4 or beyond the
 * body, a Request/Response without a type, an unknown code. */
int eap_hdr_parse(const uint8_t *body, size_t len, struct eap_hdr_info *out);
const char *eap_code_name(uint8_t code);

struct eapol_port_ops {
	/* A whole EAPOL frame, header included, to the peer. */
	int (*tx)(void *ctx, const uint8_t *frame, size_t len);
	/* The controlled port changed state. */
	void (*set_authorized)(void *ctx, bool authorized);
	/* An EAPOL-Key frame (whole frame, header included). Returns the
	 * handshake's verdict (enum rsn_rx_err), only counted here. */
	int (*rx_key)(void *ctx, const uint8_t *frame, size_t len);
	/* An EAP packet for the EAP consumer; NULL: none (see eap_unhandled). */
	int (*rx_eap)(void *ctx, const struct eap_hdr_info *eap);
	/* An EAP packet nobody here can answer. */
	void (*eap_unhandled)(void *ctx, const struct eap_hdr_info *eap);
	/* Authenticator: EAPOL-Start and EAPOL-Logoff from the supplicant. */
	void (*start)(void *ctx);
	void (*logoff)(void *ctx);
};

struct eapol_port_stats {
	unsigned rx_key, rx_eap, rx_start, rx_logoff;
	unsigned rx_other;	   /* valid, of a type we do not use */
	unsigned rx_malformed;	   /* dropped: bad header or EAP length */
	unsigned rx_wrong_role;	   /* Start/Logoff to a supplicant */
	unsigned rx_eap_unhandled; /* EAP with no consumer */
	unsigned tx;
	unsigned authorize_changes;
};

struct eapol_port;

/* ops->tx and ops->set_authorized are required; a consumer op left NULL
 * means that packet type is dropped (and counted; EAP is reported). name
 * is for logs ("STA aa:bb:..", "eth0"), copied. Returns NULL on bad
 * arguments or allocation failure. */
struct eapol_port *eapol_port_new(enum eapol_port_role role, const char *name,
				  const struct eapol_port_ops *ops, void *ctx);
void eapol_port_free(struct eapol_port *port);

/* One received EAPOL frame (Ethernet padding allowed). Returns 0 when it
 * went to a consumer, -EBADMSG when malformed, -ENOTSUP when of a type
 * this port drops, -ENOENT for EAP with no consumer (reported). */
int eapol_port_rx(struct eapol_port *port, const uint8_t *frame, size_t len);
/* Sends a frame through ops->tx, counted. */
int eapol_port_tx(struct eapol_port *port, const uint8_t *frame, size_t len);

void eapol_port_set_authorized(struct eapol_port *port, bool authorized);
/* The link went (and the driver's port state with it): unauthorized,
 * without calling ops->set_authorized. NULL is allowed. */
void eapol_port_reset(struct eapol_port *port);
bool eapol_port_authorized(const struct eapol_port *port);
const struct eapol_port_stats *eapol_port_stats(const struct eapol_port *port);

#endif
