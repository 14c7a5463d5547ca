/* The AVPs of EAP-TTLS phase 2 (RFC 5281 10): Diameter-style attribute
 * value pairs inside the tunnel.
 *
 *   AVP Code (4) | Flags (1: V 0x80, M 0x40) | AVP Length (3, header
 *   included, padding not) | [Vendor-ID (4) if V] | Data | pad to 4
 *
 * We build User-Name, User-Password, CHAP-*, MS-CHAP-* and EAP-Message,
 * and read what a server sends back: EAP-Message (several are one EAP
 * packet, concatenated), MS-CHAP2-Success, MS-CHAP-Error, Reply-Message.
 * An unknown AVP with M set is refused (RFC 5281 10.1).
 */
#ifndef WPAD_EAP_TTLS_AVP_H
#define WPAD_EAP_TTLS_AVP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eap/eap_peer_method.h"

#define TTLS_AVP_FLAG_VENDOR 0x80
#define TTLS_AVP_FLAG_MANDATORY 0x40

#define TTLS_AVP_USER_NAME 1
#define TTLS_AVP_USER_PASSWORD 2
#define TTLS_AVP_CHAP_PASSWORD 3
#define TTLS_AVP_REPLY_MESSAGE 18
#define TTLS_AVP_CHAP_CHALLENGE 60
#define TTLS_AVP_EAP_MESSAGE 79

#define TTLS_VENDOR_MICROSOFT 311
#define TTLS_MS_CHAP_ERROR 2
#define TTLS_MS_CHAP_CHALLENGE 11
#define TTLS_MS_CHAP2_RESPONSE 25
#define TTLS_MS_CHAP2_SUCCESS 26

#define TTLS_EAP_MAX 65535 /* one EAP packet's Length field */

/* Append one AVP (M set when mandatory), padded to 4 octets. 0 or
 * -ENOMEM/-EMSGSIZE. */
int ttls_avp_put(struct eap_buf *b, uint32_t code, uint32_t vendor, bool mandatory,
		 const void *data, size_t len);

struct ttls_avp {
	uint32_t code, vendor;
	uint8_t flags;
	const uint8_t *data;
	size_t len;
};

/* Walk AVPs: 1 and *avp set, 0 at the end, -EBADMSG (err filled) on a
 * length below the header, past the end, or reserved flag bits. */
struct ttls_avp_iter {
	const uint8_t *p;
	size_t left;
};
int ttls_avp_next(struct ttls_avp_iter *it, struct ttls_avp *avp, char *err, size_t err_len);

/* What a server's phase-2 message says. The EAP packet is a copy
 * (EAP-Message AVPs concatenated), freed by ttls_avps_free(); the
 * MS-CHAP fields point into the input. */
struct ttls_avps {
	uint8_t *eap;
	size_t eap_len;
	const uint8_t *ms_success, *ms_error, *reply;
	size_t ms_success_len, ms_error_len, reply_len;
};
int ttls_avps_parse(const uint8_t *data, size_t len, struct ttls_avps *out, char *err,
		    size_t err_len);
void ttls_avps_free(struct ttls_avps *a);

/* The text of an MS-CHAP-Error AVP (RFC 2548 2.1.5): after the Ident
 * octet when one leads ("E=691 R=0 ..."), or all of it for servers that
 * send the text alone (hostapd 2.10: "Failed"). The Ident is random, so
 * a text starting with the same octet is told apart by the "E=" that
 * follows a real one. Returns the text's length, its start in *text. */
size_t ttls_ms_chap_error_text(const uint8_t *d, size_t len, uint8_t ident, const uint8_t **text);

#endif
