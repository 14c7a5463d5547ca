/* The key table and data-frame protection of a sim interface.
 *
 * Pairwise keys live with their peer (key ids 0 and 1), group keys, IGTKs
 * and BIGTKs with the interface (ids 0..3, 4..5 and 6..7). A key encrypts on transmit
 * with the next PN (the last PN used is what key_get_seq reports for a key
 * this interface transmits with) and decrypts on receive with a replay
 * counter per TID plus one for non-QoS frames: a frame whose PN is not
 * above its counter is dropped before decryption, and the counter moves
 * only after the MIC checked out, so a forged frame cannot push it.
 *
 * The ciphers are daemon/crypto's CCMP-128/256 and GCMP-128/256, and the
 * four BIP suites for IGTKs and BIGTKs, whose use on management frames is
 * in radio-pmf.c (an IGTK's transmit IPN is its tx_pn, its receive IPN
 * rx_pn[SIM_RX_SLOT_MGMT]). BIGTKs are stored and their BIPN reported;
 * beacons are not protected.
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/crypto/crypto.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <string.h>

#define SIM_PROT_HDR_LEN 8 /* CCMP and GCMP headers are both 8 octets */

static size_t cipher_key_len(uint32_t cipher)
{
	switch (cipher) {
	case DRIVER_CIPHER_CCMP_128:
	case DRIVER_CIPHER_GCMP_128:
	case DRIVER_CIPHER_BIP_CMAC_128:
	case DRIVER_CIPHER_BIP_GMAC_128:
		return 16;
	case DRIVER_CIPHER_CCMP_256:
	case DRIVER_CIPHER_GCMP_256:
	case DRIVER_CIPHER_BIP_CMAC_256:
	case DRIVER_CIPHER_BIP_GMAC_256:
		return 32;
	default:
		return 0;
	}
}

size_t sim_key_overhead(const struct sim_key *k)
{
	return SIM_PROT_HDR_LEN + (k->cipher == DRIVER_CIPHER_CCMP_128 ? CCMP_MIC_LEN : 16);
}

int sim_key_fill(struct sim_key *k, const struct driver_key *in)
{
	size_t len = cipher_key_len(in->cipher);
	bool bip = in->cipher == DRIVER_CIPHER_BIP_CMAC_128 ||
		   in->cipher == DRIVER_CIPHER_BIP_CMAC_256 ||
		   in->cipher == DRIVER_CIPHER_BIP_GMAC_128 || in->cipher == DRIVER_CIPHER_BIP_GMAC_256;
	bool mgmt_key = in->type == DRIVER_KEY_IGTK || in->type == DRIVER_KEY_BIGTK;
	if (!len)
		return -EOPNOTSUPP;
	if (in->key_len != len || bip != mgmt_key)
		return -EINVAL;
	uint64_t rsc = 0;
	for (int i = 5; i >= 0; i--)
		rsc = rsc << 8 | in->seq[i];
	sim_key_wipe(k);
	k->used = true;
	k->type = in->type;
	k->cipher = in->cipher;
	k->idx = in->key_idx;
	k->set_tx = in->set_tx;
	k->len = len;
	memcpy(k->key, in->key, len);
	for (int s = 0; s < SIM_RX_SLOTS; s++)
		k->rx_pn[s] = rsc;
	/* The AP's IGTK/BIGTK: seq is the next IPN to send. */
	if (mgmt_key && rsc)
		k->tx_pn = rsc - 1;
	return 0;
}

void sim_key_wipe(struct sim_key *k)
{
	crypto_zero(k, sizeof(*k));
}

int sim_key_encrypt(struct sim_key *k, const uint8_t *in, size_t len, size_t hdr_len,
		    uint8_t *out, size_t *out_len)
{
	if (hdr_len > len || k->tx_pn >= CCMP_PN_MAX)
		return -EINVAL;
	uint64_t pn = ++k->tx_pn;
	uint8_t kid = (uint8_t)(k->idx & 3);
	const uint8_t *plain = in + hdr_len;
	size_t plain_len = len - hdr_len;
	switch (k->cipher) {
	case DRIVER_CIPHER_CCMP_128:
		return ccmp_encrypt(k->key, in, hdr_len, pn, kid, plain, plain_len, out, out_len);
	case DRIVER_CIPHER_CCMP_256:
		return ccmp256_encrypt(k->key, in, hdr_len, pn, kid, plain, plain_len, out,
				       out_len);
	case DRIVER_CIPHER_GCMP_128:
	case DRIVER_CIPHER_GCMP_256:
		return gcmp_encrypt(k->key, k->len, in, hdr_len, pn, kid, plain, plain_len, out,
				    out_len);
	default:
		return -EINVAL;
	}
}

static int decrypt(const struct sim_key *k, const uint8_t *frame, size_t len, size_t hdr_len,
		   uint8_t *plain, size_t *plain_len)
{
	switch (k->cipher) {
	case DRIVER_CIPHER_CCMP_128:
		return ccmp_decrypt(k->key, frame, len, hdr_len, plain, plain_len, NULL);
	case DRIVER_CIPHER_CCMP_256:
		return ccmp256_decrypt(k->key, frame, len, hdr_len, plain, plain_len, NULL);
	case DRIVER_CIPHER_GCMP_128:
	case DRIVER_CIPHER_GCMP_256:
		return gcmp_decrypt(k->key, k->len, frame, len, hdr_len, plain, plain_len, NULL);
	default:
		return -EINVAL;
	}
}

enum sim_rx_crypto sim_key_decrypt(struct sim_key *k, const uint8_t *frame, size_t len,
				   size_t hdr_len, unsigned slot, uint8_t *plain,
				   size_t *plain_len)
{
	uint64_t pn = 0;
	if (hdr_len > len || len - hdr_len < sim_key_overhead(k) || slot >= SIM_RX_SLOTS ||
	    ccmp_get_header(frame + hdr_len, &pn, NULL) < 0)
		return SIM_RX_MALFORMED;
	if (pn <= k->rx_pn[slot])
		return SIM_RX_REPLAY;
	int err = decrypt(k, frame, len, hdr_len, plain, plain_len);
	if (err == -EBADMSG)
		return SIM_RX_BAD_MIC;
	if (err < 0)
		return SIM_RX_MALFORMED;
	k->rx_pn[slot] = pn;
	return SIM_RX_OK;
}

int sim_key_id_of(const uint8_t *body, size_t len)
{
	if (len < SIM_PROT_HDR_LEN || !(body[3] & 0x20))
		return -1; /* no Ext IV: not a CCMP/GCMP header */
	return body[3] >> 6;
}

struct sim_key *sim_tx_key(struct sim_iface *ifc, const uint8_t *ra)
{
	if (sim_addr_is_group(ra)) {
		if (ifc->type != DRIVER_IFTYPE_AP)
			return NULL;
		for (int i = 0; i < 4; i++)
			if (ifc->group[i].used && ifc->group[i].set_tx)
				return &ifc->group[i];
		return NULL;
	}
	struct sim_peer *p = sim_peer_find(ifc, ra);
	if (!p || !p->ptk[p->ptk_tx_idx].used)
		return NULL;
	return &p->ptk[p->ptk_tx_idx];
}

void sim_keys_wipe_group(struct sim_iface *ifc)
{
	for (size_t i = 0; i < sizeof(ifc->group) / sizeof(ifc->group[0]); i++)
		sim_key_wipe(&ifc->group[i]);
}

/* The slot a key of this type and id lives in, or NULL (-errno in *err). */
static struct sim_key *key_slot(struct sim_iface *ifc, enum driver_key_type type, uint8_t idx,
				const uint8_t *addr, bool create, int *err)
{
	*err = -EINVAL;
	switch (type) {
	case DRIVER_KEY_PAIRWISE: {
		if (idx > 1 || !addr || sim_addr_is_group(addr))
			return NULL;
		/* An AP keys only stations it was told about; a station keys
		 * whatever peer it is asked to (its BSS, normally). */
		struct sim_peer *p = create && ifc->type != DRIVER_IFTYPE_AP
					     ? sim_peer_get(ifc, addr)
					     : sim_peer_find(ifc, addr);
		*err = -ENOENT;
		return p ? &p->ptk[idx] : NULL;
	}
	case DRIVER_KEY_GROUP:
		return idx <= 3 ? &ifc->group[idx] : NULL;
	case DRIVER_KEY_IGTK:
		return idx == 4 || idx == 5 ? &ifc->group[idx] : NULL;
	case DRIVER_KEY_BIGTK:
		return idx == 6 || idx == 7 ? &ifc->group[idx] : NULL;
	}
	return NULL;
}

int sim_key_set(void *priv, uint32_t ifindex, const struct driver_key *key)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	int err;
	if (!ifc)
		return -ENODEV;
	if (!key || ifc->type == DRIVER_IFTYPE_MONITOR)
		return -EINVAL;
	struct sim_key tmp = { 0 };
	if ((err = sim_key_fill(&tmp, key)) < 0) {
		log_debug("%s: refusing key (cipher %#x, %zu bytes)", ifc->name, key->cipher,
			  key->key_len);
		sim_key_wipe(&tmp);
		return err;
	}
	struct sim_key *k = key_slot(ifc, key->type, key->key_idx, key->addr, true, &err);
	if (!k) {
		sim_key_wipe(&tmp);
		return err;
	}
	*k = tmp;
	sim_key_wipe(&tmp);
	if (key->type == DRIVER_KEY_PAIRWISE && key->set_tx)
		sim_peer_find(ifc, key->addr)->ptk_tx_idx = key->key_idx;
	if (key->type == DRIVER_KEY_GROUP && key->set_tx)
		for (int i = 0; i < 4; i++)
			ifc->group[i].set_tx = i == key->key_idx;
	if (key->type == DRIVER_KEY_IGTK && key->set_tx)
		for (int i = DRIVER_IGTK_IDX_FIRST; i <= DRIVER_IGTK_IDX_FIRST + 1; i++)
			ifc->group[i].set_tx = i == key->key_idx;
	log_debug("%s: installed %s key %u", ifc->name, driver_key_type_name(key->type),
		  key->key_idx);
	return 0;
}

int sim_key_del(void *priv, uint32_t ifindex, enum driver_key_type type, uint8_t idx,
		const uint8_t *addr)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	int err;
	if (!ifc)
		return -ENODEV;
	struct sim_key *k = key_slot(ifc, type, idx, addr, false, &err);
	if (!k)
		return err;
	if (!k->used)
		return -ENOENT;
	sim_key_wipe(k);
	return 0;
}

int sim_key_get_seq(void *priv, uint32_t ifindex, enum driver_key_type type,
		    uint8_t idx, const uint8_t *addr, uint8_t seq[6])
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	int err;
	if (!ifc)
		return -ENODEV;
	struct sim_key *k = key_slot(ifc, type, idx, addr, false, &err);
	if (!k)
		return err;
	if (!k->used)
		return -ENOENT;
	/* Keys we transmit with report the TX PN; receive-only group keys
	 * (a station's GTK/IGTK) the highest PN accepted. */
	uint64_t pn = k->tx_pn;
	if (type != DRIVER_KEY_PAIRWISE && ifc->type != DRIVER_IFTYPE_AP) {
		pn = 0;
		for (int s = 0; s < SIM_RX_SLOTS; s++)
			if (k->rx_pn[s] > pn)
				pn = k->rx_pn[s];
	}
	for (int i = 0; i < 6; i++)
		seq[i] = (uint8_t)(pn >> (8 * i));
	return 0;
}
