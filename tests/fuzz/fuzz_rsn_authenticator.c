/* Fuzz the RSN authenticator with EAPOL frames in each of its states.
 *
 * The authenticator is first put in a state with a deterministic station
 * (see fuzz_rsn_pair.h for the input format):
 *   0 idle, 1 message 1 sent, 2 message 3 sent, 3 done, 4 group message 1
 *   sent.
 * Oracle: no crash or sanitizer report, and a dropped frame leaves the
 * state alone (or ends in FAILED for an authentic frame with bad content)
 * and installs nothing.
 */
#include "tests/fuzz/fuzz_rsn_pair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_TARGETS 5

static void put_ap_in(struct fz_pair *p, unsigned int target)
{
	switch (target) {
	case 0:
		break;
	case 1:
		rsn_auth_start(p->ap);
		fz_drop_queue(p);
		break;
	case 2:
		rsn_supp_start(p->sta);
		rsn_auth_start(p->ap);
		fz_pump(p, 2); /* message 1 and 2 delivered, message 3 queued */
		fz_drop_queue(p);
		break;
	case 3:
		fz_complete_handshake(p);
		break;
	case 4:
		fz_complete_handshake(p);
		rsn_group_rekey(p->group);
		rsn_auth_group_rekey(p->ap);
		fz_drop_queue(p);
		break;
	}
}

static void deliver(struct fz_pair *p, const uint8_t *frame, size_t len)
{
	enum rsn_auth_state before = rsn_auth_state(p->ap);
	struct rsn_auth_stats st = *rsn_auth_stats(p->ap);

	int ret = rsn_auth_rx_eapol(p->ap, frame, len);
	if (ret == RSN_RX_OK)
		return;
	if (ret > 0 || rsn_auth_stats(p->ap)->handshakes != st.handshakes)
		abort();
	if (rsn_auth_state(p->ap) != before && rsn_auth_state(p->ap) != RSN_AUTH_STATE_FAILED)
		abort();
}

/* The PTK the authenticator checks with: its last ANonce with the frame's
 * SNonce, or the established pair for frames without one (message 4,
 * group message 2, requests). */
static size_t seal(struct fz_pair *p, const uint8_t *in, size_t len, uint8_t *out)
{
	const uint8_t *n = fz_frame_nonce(in, len);

	if (!n)
		return 0;
	if (fz_nonzero(n, 32))
		return fz_seal(p, in, len, p->ap_side.nonce, n, out);
	return fz_seal(p, in, len, p->est_anonce, p->est_snonce, out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_pair p;

	if (size < 2)
		return 0;
	fz_init(&p, data[1]);
	put_ap_in(&p, data[0] % FZ_TARGETS);
	fz_records(&p, data + 2, size - 2, deliver, seal);
	fz_free(&p);
	return 0;
}
