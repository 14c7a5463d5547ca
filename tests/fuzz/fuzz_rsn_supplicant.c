/* Fuzz the RSN supplicant with EAPOL frames in each of its states.
 *
 * The station is first put in a state by running a real handshake with a
 * deterministic authenticator (see fuzz_rsn_pair.h for the input format):
 *   0 idle, 1 waiting for message 1, 2 waiting for message 3 (message 2
 *   sent), 3 established, 4 rekeying (a second message 1 answered).
 * Oracle: no crash or sanitizer report, install ops only ever see keys the
 * supplicant validated (fuzz_rsn_pair.h aborts otherwise), and a frame that
 * was dropped changed nothing a caller can see: the state stays, no key was
 * installed.
 */
#include "tests/fuzz/fuzz_rsn_pair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_TARGETS 5

static void put_sta_in(struct fz_pair *p, unsigned int target)
{
	switch (target) {
	case 0:
		break;
	case 1:
		rsn_supp_start(p->sta);
		break;
	case 2:
		rsn_supp_start(p->sta);
		rsn_auth_start(p->ap);
		fz_pump(p, 1); /* message 1 to the station, message 2 queued */
		fz_drop_queue(p);
		break;
	case 3:
		fz_complete_handshake(p);
		break;
	case 4:
		fz_complete_handshake(p);
		rsn_auth_start(p->ap);
		fz_pump(p, 1);
		fz_drop_queue(p);
		break;
	}
}

static void deliver(struct fz_pair *p, const uint8_t *frame, size_t len)
{
	enum rsn_supp_state before = rsn_supp_state(p->sta);
	struct rsn_supp_stats st = *rsn_supp_stats(p->sta);

	int ret = rsn_supp_rx_eapol(p->sta, frame, len);
	const struct rsn_supp_stats *now = rsn_supp_stats(p->sta);
	if (ret == RSN_RX_OK)
		return;
	if (ret > 0)
		abort();
	/* dropped: nothing installed; the state moves only to FAILED (an
	 * authentic frame with bad content) */
	if (now->ptk_installs != st.ptk_installs)
		abort();
	if (rsn_supp_state(p->sta) != before && rsn_supp_state(p->sta) != RSN_SUPP_STATE_FAILED)
		abort();
}

/* The PTK the station holds: the frame's ANonce with the SNonce it sent
 * last, or the established pair for frames without one (group messages). */
static size_t seal(struct fz_pair *p, const uint8_t *in, size_t len, uint8_t *out)
{
	const uint8_t *n = fz_frame_nonce(in, len);

	if (!n)
		return 0;
	if (fz_nonzero(n, 32))
		return fz_seal(p, in, len, n, p->sta_side.nonce, out);
	return fz_seal(p, in, len, p->est_anonce, p->est_snonce, out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_pair p;

	if (size < 2)
		return 0;
	fz_init(&p, data[1]);
	put_sta_in(&p, data[0] % FZ_TARGETS);
	fz_records(&p, data + 2, size - 2, deliver, seal);
	fz_free(&p);
	return 0;
}
