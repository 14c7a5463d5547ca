/* Management frame protection of a sim interface (IEEE 802.11-2020 12.6.19
 * and 11.13), modelled on what mac80211 does for a driver doing its crypto:
 *
 * transmit (as a frame is queued, so a deauthentication queued right before
 * its keys go still leaves protected):
 *   - a robust frame (mgmt_is_robust) to a peer flagged DRIVER_STA_MFP with
 *     a pairwise key is encrypted with that key (CCMP/GCMP, the nonce's
 *     Management flag set by daemon/crypto);
 *   - a group-addressed robust frame from an AP holding a transmit IGTK
 *     gets an MMIE with the next IPN and the BIP MIC.
 * receive:
 *   - a protected unicast robust frame is decrypted with the peer's key,
 *     replay-checked on the peer's management counter (SIM_RX_SLOT_MGMT);
 *   - a group-addressed robust frame, once an IGTK is installed, must end in
 *     an MMIE whose Key ID names an installed IGTK, whose IPN is above that
 *     key's last one and whose MIC checks; the MMIE is then removed;
 *   - on an MFP link an unprotected robust frame is dropped, except that an
 *     unprotected Deauthentication/Disassociation is reported as
 *     DRIVER_EV_UNPROT_DEAUTH/_DISASSOC (nl80211's UNPROT_DEAUTHENTICATE):
 *     the link stays up and the role decides with SA Query.
 * Each drop is counted (sim_rx_counters).
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/codec/codec_err.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/pmf.h"
#include "daemon/core/log.h"
#include "daemon/crypto/crypto.h"

#include <errno.h>
#include <string.h>

#define HDR IEEE80211_MGMT_HDR_LEN
#define FC1_PROTECTED 0x40
#define FC1_ORDER 0x80

static bool bip_of(uint32_t cipher, enum bip_cipher *c)
{
	switch (cipher) {
	case DRIVER_CIPHER_BIP_CMAC_128: *c = BIP_CMAC_128; return true;
	case DRIVER_CIPHER_BIP_CMAC_256: *c = BIP_CMAC_256; return true;
	case DRIVER_CIPHER_BIP_GMAC_128: *c = BIP_GMAC_128; return true;
	case DRIVER_CIPHER_BIP_GMAC_256: *c = BIP_GMAC_256; return true;
	default: return false;
	}
}

/* The IGTK an AP signs with: the one marked for transmit, else the newest
 * installed (the highest IPN), as the default management key. */
static struct sim_key *tx_igtk(struct sim_iface *ifc)
{
	struct sim_key *a = &ifc->group[DRIVER_IGTK_IDX_FIRST];
	struct sim_key *b = &ifc->group[DRIVER_IGTK_IDX_FIRST + 1];
	if (a->used && a->set_tx)
		return a;
	if (b->used && b->set_tx)
		return b;
	if (a->used && b->used)
		return a->tx_pn >= b->tx_pn ? a : b;
	return a->used ? a : b->used ? b : NULL;
}

static bool have_igtk(const struct sim_iface *ifc)
{
	return ifc->group[DRIVER_IGTK_IDX_FIRST].used || ifc->group[DRIVER_IGTK_IDX_FIRST + 1].used;
}

static bool peer_mfp(const struct sim_peer *p)
{
	return p && (p->flags & DRIVER_STA_MFP) && p->ptk[p->ptk_tx_idx].used;
}

static int tx_bip(struct sim_iface *ifc, struct sim_key *k, const uint8_t *frame, size_t len,
		  uint8_t *out, size_t cap, size_t *out_len)
{
	enum bip_cipher c;
	if (!bip_of(k->cipher, &c) || k->tx_pn >= (UINT64_C(1) << 48) - 1)
		return -EINVAL;
	size_t mic_len = bip_mic_len(c);
	if (len + MMIE_TOTAL_LEN(mic_len) > cap)
		return -EMSGSIZE;
	memcpy(out, frame, len);
	struct wbuf w = wbuf_init(out + len, cap - len);
	int err = mmie_build(&w, k->idx, k->tx_pn + 1, mic_len);
	if (err != CODEC_OK)
		return -EINVAL;
	if ((err = bip_sign(c, k->key, k->len, out, len + w.len)) < 0)
		return err;
	k->tx_pn++;
	*out_len = len + w.len;
	return 1;
}

int sim_pmf_tx(struct sim_iface *ifc, const uint8_t *frame, size_t len, uint8_t *out,
	       size_t cap, size_t *out_len)
{
	if (len < HDR || IEEE80211_FC_GET_TYPE(get_le16(frame)) != IEEE80211_FTYPE_MGMT ||
	    (frame[1] & (FC1_PROTECTED | FC1_ORDER)))
		return 0; /* not management, already protected, or with HT Control */
	uint8_t subtype = (uint8_t)IEEE80211_FC_GET_SUBTYPE(get_le16(frame));
	if (!mgmt_is_robust(subtype, frame + HDR, len - HDR))
		return 0;
	const uint8_t *da = frame + 4;
	if (sim_addr_is_group(da)) {
		struct sim_key *k = ifc->type == DRIVER_IFTYPE_AP ? tx_igtk(ifc) : NULL;
		return k ? tx_bip(ifc, k, frame, len, out, cap, out_len) : 0;
	}
	struct sim_peer *p = sim_peer_find(ifc, da);
	if (!peer_mfp(p))
		return 0;
	struct sim_key *k = &p->ptk[p->ptk_tx_idx];
	if (len + sim_key_overhead(k) > cap)
		return -EMSGSIZE;
	int err = sim_key_encrypt(k, frame, len, HDR, out, out_len);
	return err < 0 ? err : 1;
}

static void emit_unprot(struct sim_iface *ifc, const struct mgmt_frame *m, const uint8_t *frame,
			size_t len, const struct sim_rx *rx)
{
	struct driver_event ev = {
		.type = m->subtype == IEEE80211_STYPE_DEAUTH ? DRIVER_EV_UNPROT_DEAUTH
							     : DRIVER_EV_UNPROT_DISASSOC,
		.radio_id = ifc->radio->id,
		.ifindex = ifc->ifindex,
		.u.mgmt = { .frame = frame, .len = len, .freq_mhz = rx->freq,
			    .signal_mbm = rx->signal_mbm },
	};
	log_info("%s: unprotected %s from %02x:%02x:%02x:%02x:%02x:%02x on an MFP link: "
		 "reported, not obeyed",
		 ifc->name, m->subtype == IEEE80211_STYPE_DEAUTH ? "deauthentication"
								  : "disassociation",
		 m->sa[0], m->sa[1], m->sa[2], m->sa[3], m->sa[4], m->sa[5]);
	sim_emit(ifc->sim, &ev);
}

static enum sim_pmf_rx_verdict rx_unicast_protected(struct sim_iface *ifc, struct sim_peer *p,
						    const struct mgmt_frame *m,
						    const uint8_t *frame, size_t len,
						    uint8_t *plain, size_t *plain_len)
{
	int kid = sim_key_id_of(m->body, m->body_len);
	struct sim_key *k = p && kid >= 0 && kid <= 1 && p->ptk[kid].used ? &p->ptk[kid] : NULL;
	if (!k || sim_addr_is_group(m->da)) {
		ifc->stats.rx_no_key++;
		if (p)
			p->rx_dropped_decrypt++;
		return SIM_PMF_RX_DROP;
	}
	size_t body_len = 0;
	switch (sim_key_decrypt(k, frame, len, HDR, SIM_RX_SLOT_MGMT, plain + HDR, &body_len)) {
	case SIM_RX_OK:
		break;
	case SIM_RX_REPLAY:
		ifc->stats.rx_replay++;
		p->rx_dropped_replay++;
		return SIM_PMF_RX_DROP;
	case SIM_RX_BAD_MIC:
		ifc->stats.rx_bad_mic++;
		p->rx_dropped_decrypt++;
		return SIM_PMF_RX_DROP;
	case SIM_RX_MALFORMED:
		ifc->stats.rx_malformed++;
		p->rx_dropped_decrypt++;
		return SIM_PMF_RX_DROP;
	}
	memcpy(plain, frame, HDR);
	plain[1] &= (uint8_t)~FC1_PROTECTED;
	*plain_len = HDR + body_len;
	return SIM_PMF_RX_CLEARTEXT;
}

/* BIP check of a group-addressed robust frame (an IGTK is installed). */
static enum sim_pmf_rx_verdict rx_group_bip(struct sim_iface *ifc, const struct mgmt_frame *m,
					    const uint8_t *frame, size_t len, uint8_t *plain,
					    size_t *plain_len)
{
	/* The Key ID sits at the same place in both MMIE sizes only once the
	 * size is known: try the installed keys' sizes. */
	for (int i = DRIVER_IGTK_IDX_FIRST; i <= DRIVER_IGTK_IDX_FIRST + 1; i++) {
		struct sim_key *k = &ifc->group[i];
		enum bip_cipher c;
		struct mmie mm;
		if (!k->used || !bip_of(k->cipher, &c) ||
		    mmie_parse_trailer(m->body, m->body_len, bip_mic_len(c), &mm) != CODEC_OK ||
		    mm.key_id != k->idx)
			continue;
		if (mm.ipn <= k->rx_pn[SIM_RX_SLOT_MGMT]) {
			ifc->stats.rx_bip_replay++;
			return SIM_PMF_RX_DROP;
		}
		if (bip_verify(c, k->key, k->len, frame, len) != 0) {
			ifc->stats.rx_bip_bad_mic++;
			return SIM_PMF_RX_DROP;
		}
		k->rx_pn[SIM_RX_SLOT_MGMT] = mm.ipn;
		*plain_len = len - MMIE_TOTAL_LEN(bip_mic_len(c));
		memcpy(plain, frame, *plain_len);
		return SIM_PMF_RX_CLEARTEXT;
	}
	return SIM_PMF_RX_PASS; /* no MMIE of an installed key: the caller decides */
}

enum sim_pmf_rx_verdict sim_pmf_rx(struct sim_iface *ifc, struct sim_peer *p,
				   const struct mgmt_frame *m, const uint8_t *frame, size_t len,
				   const struct sim_rx *rx, uint8_t *plain, size_t *plain_len)
{
	if (m->subtype == IEEE80211_STYPE_AUTH)
		return SIM_PMF_RX_PASS; /* its Protected bit means shared-key WEP */
	if (m->protected_frame) /* mgmt_parse allows it on Deauth, Disassoc, Action only */
		return rx_unicast_protected(ifc, p, m, frame, len, plain, plain_len);
	if (!mgmt_is_robust(m->subtype, m->body, m->body_len))
		return SIM_PMF_RX_PASS;
	bool leave = m->subtype == IEEE80211_STYPE_DEAUTH || m->subtype == IEEE80211_STYPE_DISASSOC;
	if (sim_addr_is_group(m->da)) {
		if (!have_igtk(ifc))
			return SIM_PMF_RX_PASS;
		enum sim_pmf_rx_verdict v = rx_group_bip(ifc, m, frame, len, plain, plain_len);
		if (v != SIM_PMF_RX_PASS)
			return v;
		/* No valid MMIE although we hold an IGTK. */
		if (leave && peer_mfp(p)) {
			ifc->stats.rx_unprot_mgmt++;
			emit_unprot(ifc, m, frame, len, rx);
			return SIM_PMF_RX_UNPROT_LEAVE;
		}
		ifc->stats.rx_bip_bad_mic++;
		return SIM_PMF_RX_DROP;
	}
	if (!peer_mfp(p))
		return SIM_PMF_RX_PASS;
	ifc->stats.rx_unprot_mgmt++;
	if (leave) {
		emit_unprot(ifc, m, frame, len, rx);
		return SIM_PMF_RX_UNPROT_LEAVE;
	}
	return SIM_PMF_RX_DROP;
}
