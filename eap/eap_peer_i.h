/* Private to eap/ (and its tests): the parsed form of one EAP packet, and
 * the framework side of a method run. */
#ifndef WPAD_EAP_PEER_I_H
#define WPAD_EAP_PEER_I_H

#include <stddef.h>
#include <stdint.h>

#include "eap/eap_peer_method.h"

struct eap_peer;

struct eap_peer_ctx {
	struct eap_peer *peer; /* the run this method belongs to */
	int phase;	       /* 0 outer, 2 inside a tunnel */
};

/* One EAP packet (RFC 3748 4): for Requests/Responses the Type and the type
 * data (after Vendor-Id/Vendor-Type for expanded types, 5.7). */
struct eap_pkt {
	uint8_t code, id;
	uint8_t type;
	uint32_t vendor_id, vendor_type;
	const uint8_t *data;
	size_t data_len;
};

/* The outer run's ctx of a peer (phase 0): for tests of tunnel plumbing. */
struct eap_peer_ctx *eap_peer_ctx_of(struct eap_peer *peer);

/* Returns 0 or -EBADMSG: shorter than 4 octets, Length below 4 or past the
 * buffer, a Request/Response without a Type, an expanded Type without its
 * 7 octets, Success/Failure with data. Other codes parse (code set only):
 * the caller discards them. */
int eap_pkt_parse(const uint8_t *pkt, size_t len, struct eap_pkt *out);

/* "TTLS", "MSCHAPV2", "type 43", "expanded 1234/5" into buf. */
const char *eap_type_describe(uint8_t type, uint32_t vendor_id, uint32_t vendor_type, char *buf,
			      size_t size);

#endif
