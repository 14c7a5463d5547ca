/* Fuzz the EAPOL port's demultiplexer and EAP header parser
 * (daemon/rsn/eapol_port.h), as authenticator and as supplicant.
 *
 * Input: byte 0 bit 0 picks the role, bit 1 whether an EAP consumer
 * exists; the rest is the EAPOL frame. Oracles: exactly one counter moves
 * per frame; a frame given to a consumer fits in the input; a parsed EAP
 * header's length fits its EAPOL body.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/rsn/eapol_port.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t input_len;
static unsigned consumed;

static int f_tx(void *ctx, const uint8_t *f, size_t len)
{
	return 0;
}
static void f_auth(void *ctx, bool a)
{
}
static int f_key(void *ctx, const uint8_t *f, size_t len)
{
	if (len > input_len || len < 4)
		abort();
	consumed++;
	return 0;
}
static void check_eap(const struct eap_hdr_info *e)
{
	if (e->length < 4 || e->length > input_len)
		abort();
	if ((e->code == 1 || e->code == 2) && e->length < 5)
		abort();
	consumed++;
}
static int f_eap(void *ctx, const struct eap_hdr_info *e)
{
	check_eap(e);
	return 0;
}
static void f_unhandled(void *ctx, const struct eap_hdr_info *e)
{
	check_eap(e);
}
static void f_start(void *ctx)
{
	consumed++;
}

static unsigned total(const struct eapol_port_stats *s)
{
	return s->rx_key + s->rx_eap + s->rx_start + s->rx_logoff + s->rx_other +
	       s->rx_malformed + s->rx_wrong_role;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 4096)
		return 0;
	struct eapol_port_ops ops = {
		.tx = f_tx, .set_authorized = f_auth, .rx_key = f_key,
		.eap_unhandled = f_unhandled, .start = f_start, .logoff = f_start,
	};
	if (data[0] & 2)
		ops.rx_eap = f_eap;
	enum eapol_port_role role = data[0] & 1 ? EAPOL_PORT_AUTHENTICATOR : EAPOL_PORT_SUPPLICANT;
	struct eapol_port *p = eapol_port_new(role, "fuzz", &ops, NULL);
	if (!p)
		abort();
	/* A heap copy of exactly the frame, so ASan sees any overread. */
	input_len = size - 1;
	uint8_t *frame = malloc(input_len ? input_len : 1);
	memcpy(frame, data + 1, input_len);
	consumed = 0;
	int ret = eapol_port_rx(p, frame, input_len);
	if (total(eapol_port_stats(p)) != 1)
		abort();
	if (ret == 0 && consumed != 1)
		abort();
	struct eap_hdr_info e;
	(void)eap_hdr_parse(frame, input_len, &e);
	free(frame);
	eapol_port_free(p);
	return 0;
}
