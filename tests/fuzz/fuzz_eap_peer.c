/* Fuzz the EAP peer (eap/eap_peer.h) and its methods with arbitrary EAP
 * packets.
 *
 * Input: byte 0 picks the profile (bits 0-2: MD5, GTC, MSCHAPV2, all three,
 * none, an outer identity or not; bit 3: no password, so need_secret runs;
 * bit 4: the secret is refused), then records of a 2-octet big-endian
 * length and that many octets, each one packet; lengths 0xfff0-0xffff are
 * lower-layer events instead (timeout, altAccept, altReject, restart).
 * Oracles: every Response is a well-formed EAP Response whose Length is
 * its size; done runs at most once per attempt and only with a result the
 * peer reports; a finished peer refuses packets; keys exist only after
 * success.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eap/eap_peer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz {
	struct eap_peer *peer;
	unsigned done;
	bool refuse;
	enum eap_peer_result last;
};

static int f_tx(void *ctx, const uint8_t *pkt, size_t len)
{
	if (len < 5 || len > 0xffff || pkt[0] != 2 || (size_t)(pkt[2] << 8 | pkt[3]) != len)
		abort();
	return 0;
}

static void f_done(void *ctx, enum eap_peer_result r)
{
	struct fz *f = ctx;
	if (f->done++ || r == EAP_PEER_RUNNING || r != eap_peer_result(f->peer))
		abort();
	f->last = r;
}

static void f_need(void *ctx, enum eap_peer_secret which)
{
	struct fz *f = ctx;
	eap_peer_set_secret(f->peer, which, f->refuse ? NULL : "secret");
}

static const struct eap_peer_ops ops = { .tx = f_tx, .done = f_done, .need_secret = f_need };

static void event(struct fz *f, unsigned ev)
{
	switch (ev & 3) {
	case 0:
		eap_peer_timeout(f->peer);
		break;
	case 1:
		eap_peer_alt_accept(f->peer);
		break;
	case 2:
		eap_peer_alt_reject(f->peer);
		break;
	case 3:
		eap_peer_restart(f->peer);
		f->done = 0;
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const sets[][3] = {
		{ "MD5" }, { "GTC" }, { "MSCHAPV2" }, { "MD5", "GTC", "MSCHAPV2" },
	};
	if (size < 1)
		return 0;
	uint8_t sel = data[0];
	struct eap_peer_profile p = { .identity = "user@example.org" };
	unsigned which = sel & 7;
	if (which < 4) {
		for (size_t i = 0; i < 3 && sets[which][i]; i++)
			p.methods[p.n_methods++] = sets[which][i];
	} else if (which == 6) {
		p.methods[p.n_methods++] = "MSCHAPV2";
		p.anonymous_identity = "anonymous@example.org";
	}
	if (!(sel & 8)) {
		p.password = "password";
		p.password_len = 8;
	}
	struct fz f = { .refuse = (sel & 16) != 0 };
	f.peer = eap_peer_new(&p, &ops, &f);
	if (!f.peer)
		return 0;

	size_t off = 1;
	while (off + 2 <= size) {
		size_t len = (size_t)data[off] << 8 | data[off + 1];
		off += 2;
		if (len >= 0xfff0) {
			event(&f, (unsigned)len);
			continue;
		}
		if (len > size - off)
			len = size - off;
		bool finished = eap_peer_result(f.peer) != EAP_PEER_RUNNING;
		int r = eap_peer_rx(f.peer, data + off, len);
		if (finished && r != -EALREADY)
			abort();
		off += len;
	}
	uint8_t key[EAP_MSK_LEN];
	if (eap_peer_msk(f.peer, key, sizeof(key)) >= 0 &&
	    eap_peer_result(f.peer) != EAP_PEER_SUCCESS)
		abort();
	eap_peer_free(f.peer);
	return 0;
}
