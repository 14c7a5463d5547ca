/* A deterministic supplicant + authenticator pair for the RSN fuzz targets
 * (included by fuzz_rsn_supplicant.c and fuzz_rsn_authenticator.c, which
 * are linked one per program).
 *
 * Nonces come from a counter, so the PTK of a handshake the pair runs is
 * the same every time: frames recorded from one run (the seed corpus) are
 * accepted by the next, MIC and all.
 *
 * Input format, shared by both targets:
 *   byte 0   the state to put the machine under test in first (mod FZ_TARGETS)
 *   byte 1   variant: bits 0-1 AKM (PSK, PSK-SHA256, SAE, PSK with MFP)
 *   then records, at most FZ_MAX_RECORDS:
 *     op (1) | length (2, big-endian) | frame
 *   op bit 0  seal: treat the frame as a template, wrap its key data with
 *             the KEK and put a valid MIC on it with the KCK the machine
 *             under test is expected to use
 *   op bit 1  after delivering, pass queued frames between the two machines
 *   op bit 2  after delivering, let due timers fire (at most once per input)
 */
#ifndef WPAD_FUZZ_RSN_PAIR_H
#define WPAD_FUZZ_RSN_PAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/eapol.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/eapol_mic.h"
#include "daemon/rsn/authenticator.h"
#include "daemon/rsn/group.h"
#include "daemon/rsn/rsn_key.h"
#include "daemon/rsn/supplicant.h"

#define FZ_FRAME_MAX 1024
#define FZ_QUEUE 16
#define FZ_MAX_RECORDS 16

static const uint8_t fz_ap_addr[6] = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x00 };
static const uint8_t fz_sta_addr[6] = { 0x02, 0x00, 0x00, 0x00, 0x02, 0x00 };

struct fz_pair;

struct fz_side {
	struct fz_pair *p;
	bool is_ap;
	uint8_t nonce[32]; /* the last one handed out */
	unsigned int nonces;
	unsigned int completes;
	unsigned int failures;
};

struct fz_pair {
	struct loop *loop;
	struct rsn_group *group;
	struct rsn_supp *sta;
	struct rsn_auth *ap;
	struct fz_side sta_side, ap_side;
	struct rsn_suite suite;
	struct rsn_config cfg; /* the station's; same PMK and addresses */
	uint8_t pmk[32];
	uint8_t rsne[64];
	uint8_t est_anonce[32], est_snonce[32]; /* of the completed handshake */
	struct {
		bool to_ap;
		size_t len;
		uint8_t buf[FZ_FRAME_MAX];
	} q[FZ_QUEUE];
	unsigned int q_count;
};

static int fz_send(void *ctx, const uint8_t *body, size_t len)
{
	struct fz_side *side = ctx;
	struct fz_pair *p = side->p;

	if (len > FZ_FRAME_MAX)
		abort(); /* we never build frames this long */
	if (p->q_count == FZ_QUEUE)
		return 0;
	p->q[p->q_count].to_ap = !side->is_ap;
	p->q[p->q_count].len = len;
	memcpy(p->q[p->q_count].buf, body, len);
	p->q_count++;
	return 0;
}

static int fz_install_ptk(void *ctx, uint32_t cipher, const uint8_t *tk, size_t len)
{
	return len && len <= 32 ? 0 : -1;
}

static int fz_install_gtk(void *ctx, uint8_t idx, uint32_t cipher, const uint8_t *k, size_t len,
			  const uint8_t rsc[6])
{
	if (idx < 1 || idx > 3 || !len || len > 32)
		abort(); /* the supplicant must have validated the KDE */
	return 0;
}

static int fz_install_igtk(void *ctx, uint16_t idx, uint32_t cipher, const uint8_t *k,
			   size_t len, const uint8_t ipn[6])
{
	if (idx < 4 || idx > 5 || (len != 16 && len != 32))
		abort();
	return 0;
}

static void fz_authorize(void *ctx, bool on)
{
}

static void fz_complete(void *ctx)
{
	((struct fz_side *)ctx)->completes++;
}

static void fz_failure(void *ctx, const struct rsn_failure *f)
{
	((struct fz_side *)ctx)->failures++;
}

static int fz_random(void *ctx, uint8_t *buf, size_t len)
{
	struct fz_side *side = ctx;

	memset(buf, side->is_ap ? 0xa0 : 0x50, len);
	buf[0] = (uint8_t)++side->nonces;
	if (len == 32)
		memcpy(side->nonce, buf, 32);
	return 0;
}

static const struct rsn_ops fz_ops = {
	.send_eapol = fz_send,
	.install_ptk = fz_install_ptk,
	.install_gtk = fz_install_gtk,
	.install_igtk = fz_install_igtk,
	.set_port_authorized = fz_authorize,
	.on_complete = fz_complete,
	.on_failure = fz_failure,
	.get_random = fz_random,
};

static uint32_t fz_akm(uint8_t variant)
{
	static const uint32_t akms[4] = { RSN_AKM_PSK, RSN_AKM_PSK_SHA256, RSN_AKM_SAE,
					  RSN_AKM_PSK_SHA256 };
	return akms[variant & 3];
}

static bool fz_init(struct fz_pair *p, uint8_t variant)
{
	struct ie_rsn rsn;
	uint32_t mgmt = (variant & 3) == 3 ? RSN_CIPHER_BIP_CMAC_128 : 0;

	memset(p, 0, sizeof(*p));
	log_set_level(WLOG_ERROR);
	p->sta_side = (struct fz_side){ .p = p, .is_ap = false };
	p->ap_side = (struct fz_side){ .p = p, .is_ap = true };
	memset(p->pmk, 0x77, sizeof(p->pmk));
	ie_rsn_init(&rsn, fz_akm(variant));
	rsn.present = IE_RSN_UPTO_CAPAB;
	if (mgmt) {
		rsn.capab = 0x0080;
		rsn.group_mgmt_cipher = mgmt;
		rsn.present = IE_RSN_UPTO_GROUP_MGMT;
	}
	struct wbuf w = wbuf_init(p->rsne, sizeof(p->rsne));
	if (ie_build_rsn(&w, &rsn))
		abort();
	p->cfg = (struct rsn_config){
		.akm = fz_akm(variant),
		.pairwise_cipher = RSN_CIPHER_CCMP_128,
		.group_cipher = RSN_CIPHER_CCMP_128,
		.group_mgmt_cipher = mgmt,
		.pmk = p->pmk,
		.pmk_len = sizeof(p->pmk),
		.sta_rsne = p->rsne,
		.sta_rsne_len = w.len,
		.ap_rsne = p->rsne,
		.ap_rsne_len = w.len,
		.timing = { 1, 1, 1, 1, 2 },
	};
	memcpy(p->cfg.own_addr, fz_sta_addr, 6);
	memcpy(p->cfg.peer_addr, fz_ap_addr, 6);
	struct rsn_config ac = p->cfg;
	memcpy(ac.own_addr, fz_ap_addr, 6);
	memcpy(ac.peer_addr, fz_sta_addr, 6);

	p->loop = loop_new();
	p->group = rsn_group_new(RSN_CIPHER_CCMP_128, mgmt);
	if (!p->loop || !p->group || rsn_suite_init(&p->suite, &p->cfg))
		abort();
	p->sta = rsn_supp_new(p->loop, &p->cfg, &fz_ops, &p->sta_side);
	p->ap = rsn_auth_new(p->loop, &ac, &fz_ops, &p->ap_side, p->group);
	if (!p->sta || !p->ap)
		abort();
	return true;
}

static void fz_free(struct fz_pair *p)
{
	rsn_supp_free(p->sta);
	rsn_auth_free(p->ap);
	rsn_group_free(p->group);
	loop_free(p->loop);
}

/* Delivers up to n queued frames, in order, to their receivers. */
static void fz_pump(struct fz_pair *p, unsigned int n)
{
	while (p->q_count && n--) {
		uint8_t buf[FZ_FRAME_MAX];
		bool to_ap = p->q[0].to_ap;
		size_t len = p->q[0].len;

		memcpy(buf, p->q[0].buf, len);
		memmove(&p->q[0], &p->q[1], (p->q_count - 1) * sizeof(p->q[0]));
		p->q_count--;
		if (to_ap)
			rsn_auth_rx_eapol(p->ap, buf, len);
		else
			rsn_supp_rx_eapol(p->sta, buf, len);
	}
}

static void fz_drop_queue(struct fz_pair *p)
{
	p->q_count = 0;
}

/* Runs the pair through a whole handshake and remembers its nonces. */
static void fz_complete_handshake(struct fz_pair *p)
{
	rsn_supp_start(p->sta);
	rsn_auth_start(p->ap);
	fz_pump(p, 8);
	if (!p->sta_side.completes || !p->ap_side.completes)
		abort(); /* the pair must always work */
	memcpy(p->est_anonce, p->ap_side.nonce, 32);
	memcpy(p->est_snonce, p->sta_side.nonce, 32);
}

/* Rebuilds a frame from a template with key data wrapped and the MIC set,
 * with the PTK of (anonce, snonce). Returns 0 if the template does not
 * parse as an EAPOL-Key frame. */
static size_t fz_seal(struct fz_pair *p, const uint8_t *in, size_t len, const uint8_t *anonce,
		      const uint8_t *snonce, uint8_t *out)
{
	struct eapol_hdr hdr;
	struct eapol_key k;
	struct crypto_ptk ptk;
	size_t out_len = 0;

	/* the template's key data is plaintext: any length, no wrap check */
	if (len < CRYPTO_EAPOL_MIC_OFFSET + p->suite.mic_len + 2)
		return 0;
	uint8_t tmp[FZ_FRAME_MAX];
	size_t tlen = len > sizeof(tmp) ? sizeof(tmp) : len;
	memcpy(tmp, in, tlen);
	tmp[5] &= (uint8_t)~(EAPOL_KEY_INFO_ENCR_KEY_DATA >> 8);
	if (eapol_key_frame_parse(tmp, tlen, p->suite.mic_len, &hdr, &k) != 0)
		return 0;
	if (rsn_ptk_derive(&p->suite, &p->cfg, fz_ap_addr, fz_sta_addr, anonce, snonce, &ptk))
		abort();
	struct rsn_key_tx tx = {
		.key_info = (uint16_t)((k.key_info | (in[5] << 8 & EAPOL_KEY_INFO_ENCR_KEY_DATA)) &
				       ~EAPOL_KEY_INFO_VERSION_MASK),
		.key_length = k.key_length,
		.replay_counter = k.replay_counter,
		.nonce = k.nonce,
		.rsc = k.rsc,
		.key_data = k.key_data,
		.key_data_len = k.key_data_len,
	};
	if (rsn_key_build(&p->suite, hdr.version, &tx, &ptk, out, &out_len))
		out_len = 0;
	return out_len;
}

static bool fz_nonzero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return true;
	return false;
}

/* The nonce field of a frame template, or NULL if it is too short. */
static const uint8_t *fz_frame_nonce(const uint8_t *f, size_t len)
{
	return len >= 17 + 32 ? f + 17 : NULL;
}

/* Walks the records after the two header bytes; deliver() hands one frame
 * to the machine under test, seal() makes the sealed version. */
static void fz_records(struct fz_pair *p, const uint8_t *data, size_t size,
		       void (*deliver)(struct fz_pair *, const uint8_t *, size_t),
		       size_t (*seal)(struct fz_pair *, const uint8_t *, size_t, uint8_t *))
{
	static uint8_t sealed[FZ_FRAME_MAX];
	bool timers_used = false;

	for (unsigned int i = 0; i < FZ_MAX_RECORDS && size >= 3; i++) {
		uint8_t op = data[0];
		size_t len = (size_t)data[1] << 8 | data[2];
		data += 3;
		size -= 3;
		if (len > size)
			len = size;
		const uint8_t *frame = data;
		size_t flen = len;
		if (op & 1) {
			flen = seal(p, data, len, sealed);
			frame = flen ? sealed : data;
			flen = flen ? flen : len;
		}
		/* a private copy: the machines must not rely on more bytes */
		uint8_t *copy = malloc(flen ? flen : 1);
		if (!copy)
			abort();
		memcpy(copy, frame, flen);
		deliver(p, copy, flen);
		free(copy);
		if (op & 2)
			fz_pump(p, 4);
		else
			fz_drop_queue(p);
		if ((op & 4) && !timers_used) {
			timers_used = true;
			loop_iterate(p->loop, 2);
			fz_drop_queue(p);
		}
		data += len;
		size -= len;
	}
}

#endif
