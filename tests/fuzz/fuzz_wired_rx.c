/* Fuzz the wired backend's receive parsers (drivers/wired/wired.h): the
 * Ethernet frame from the EAPOL packet socket, then the EAPOL port it is
 * fed to, and the rtnetlink link messages.
 *
 * Input: byte 0 bit 0 picks the parser (0: Ethernet frame, 1: rtnetlink),
 * the rest is the datagram. Oracles: a parsed frame's body lies inside the
 * input and is at least an EAPOL header; its addresses are the input's;
 * a parsed link state is consistent (carrier implies up, deleted implies
 * down).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/rsn/eapol_port.h"
#include "drivers/wired/wired.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t own[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

static int f_tx(void *ctx, const uint8_t *f, size_t len)
{
	return 0;
}
static void f_auth(void *ctx, bool a)
{
}
static int f_eap(void *ctx, const struct eap_hdr_info *e)
{
	if (e->length < 4 || e->packet == NULL)
		abort();
	return 0;
}

static void frame(const uint8_t *buf, size_t len)
{
	struct wired_frame f;
	if (wired_parse_frame(buf, len, own, &f) != WIRED_RX_OK)
		return;
	if (f.body != buf + WIRED_ETH_HDR_LEN || f.body + f.len != buf + len ||
	    f.len < WIRED_EAPOL_HDR_LEN || f.dst != buf || f.src != buf + 6 ||
	    memcmp(f.src, own, 6) == 0)
		abort();
	static const struct eapol_port_ops ops = { .tx = f_tx, .set_authorized = f_auth,
						   .rx_eap = f_eap };
	struct eapol_port *p = eapol_port_new(EAPOL_PORT_SUPPLICANT, "fuzz", &ops, NULL);
	if (!p)
		abort();
	(void)eapol_port_rx(p, f.body, f.len);
	eapol_port_free(p);
}

static void link_msgs(const uint8_t *buf, size_t len)
{
	struct wired_link_state st = { 0 };
	(void)wired_parse_link(buf, len, 7, &st);
	if ((st.carrier && !st.up) || (st.deleted && st.up))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	/* A copy of exactly the input's size, so ASan sees any overread. */
	uint8_t *buf = malloc(size - 1 ? size - 1 : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	if (data[0] & 1)
		link_msgs(buf, size - 1);
	else
		frame(buf, size - 1);
	free(buf);
	return 0;
}
