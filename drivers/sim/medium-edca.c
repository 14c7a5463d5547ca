/* Contention between transmitters: which of the frames waiting for a
 * channel goes on the air next. Each draws AIFSN + uniform(0..CWmin) slots
 * with the EDCA parameters of its access category and of its role, and the
 * smallest draw wins (a tie goes to the frame that waited longer: no
 * collisions are simulated). Without this the channel served frames in
 * arrival order, so an AP answering N stations got one frame in N + 1 and
 * its answers waited out the stations' timeouts.
 *
 * The parameters: a non-AP STA uses the default EDCA Parameter Set of IEEE
 * 802.11-2020 Table 9-155 (AIFSN VO 2, VI 2, BE 3, BK 7; CWmin 3, 7, 15,
 * 15); an AP uses its own EDCA table (dot11QAPEDCATable, Annex C: AIFSN
 * VO 1, VI 1, BE 3, BK 7), which is also hostapd's default for the AP's
 * queues (tx_queue_data0_aifs=1 ... data3_aifs=7). mac80211 transmits
 * management frames on AC_VO, EAPOL (the control port) too; data goes by
 * its TID. Who is the AP is read from the frame: a management frame whose
 * BSSID is its transmitter, a data frame From DS. The draws come from a
 * generator of the medium's own with a fixed seed, so runs repeat (the
 * loss PRNG stays free for loss). */
#include "daemon/codec/ieee80211.h"
#include "daemon/core/bytes.h"
#include "drivers/sim/medium-internal.h"

#include <stdint.h>
#include <string.h>

#define EDCA_SEED 0x2545f4914f6cdd1dull

enum edca_ac { EDCA_BK, EDCA_BE, EDCA_VI, EDCA_VO };

static const uint8_t sta_aifsn[] = { [EDCA_BK] = 7, [EDCA_BE] = 3, [EDCA_VI] = 2, [EDCA_VO] = 2 };
static const uint8_t ap_aifsn[] = { [EDCA_BK] = 7, [EDCA_BE] = 3, [EDCA_VI] = 1, [EDCA_VO] = 1 };
static const uint8_t cwmin[] = { [EDCA_BK] = 15, [EDCA_BE] = 15, [EDCA_VI] = 7, [EDCA_VO] = 3 };

/* 802.1D user priority (TID 0-7) to access category (802.11-2020 Table 10-1). */
static enum edca_ac tid_ac(unsigned tid)
{
	static const enum edca_ac map[8] = { EDCA_BE, EDCA_BK, EDCA_BK, EDCA_BE,
					     EDCA_VI, EDCA_VI, EDCA_VO, EDCA_VO };
	return map[tid & 7];
}

static void classify(const struct medium_tx *tx, enum edca_ac *ac, bool *from_ap)
{
	const uint8_t *f = tx->frame;
	*ac = EDCA_VO;
	*from_ap = false;
	if (tx->len < IEEE80211_MGMT_HDR_LEN)
		return; /* control frames and fragments of headers: VO, as a STA */
	uint16_t fc = get_le16(f);
	switch (IEEE80211_FC_GET_TYPE(fc)) {
	case IEEE80211_FTYPE_MGMT:
		*from_ap = memcmp(f + 10, f + 16, 6) == 0; /* TA == BSSID */
		return;
	case IEEE80211_FTYPE_DATA: {
		bool to_ds = fc & IEEE80211_FC_TODS, from_ds = fc & IEEE80211_FC_FROMDS;
		size_t qos_at = to_ds && from_ds ? 30 : 24;
		*from_ap = from_ds && !to_ds;
		*ac = EDCA_BE;
		if ((IEEE80211_FC_GET_SUBTYPE(fc) & IEEE80211_STYPE_QOS_BIT) && tx->len > qos_at)
			*ac = tid_ac(f[qos_at] & 0x0f);
		return;
	}
	default:
		return;
	}
}

static uint32_t draw(struct medium *m, const struct medium_tx *tx)
{
	enum edca_ac ac;
	bool ap;
	classify(tx, &ac, &ap);
	uint64_t x = m->edca_rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	m->edca_rng = x;
	return (ap ? ap_aifsn[ac] : sta_aifsn[ac]) + (uint32_t)(x % (cwmin[ac] + 1u));
}

void medium_edca_seed(struct medium *m)
{
	m->edca_rng = EDCA_SEED;
}

/* Only a transmitter's first frame contends: its queue is first in,
 * first out, as a radio's is. Frames without a sender (injected) count as
 * one transmitter. */
struct medium_tx *medium_edca_pick(struct medium *m, const struct medium_tx_list *queue)
{
	struct medium_tx *best = queue->head;
	if (!best || !best->next)
		return best;
	for (struct medium_tx *tx = best; tx; tx = tx->next)
		if (tx->sender)
			tx->sender->contending = false;
	bool senderless_seen = false;
	uint32_t best_slots = UINT32_MAX;
	for (struct medium_tx *tx = queue->head; tx; tx = tx->next) {
		bool *seen = tx->sender ? &tx->sender->contending : &senderless_seen;
		if (*seen)
			continue;
		*seen = true;
		uint32_t slots = draw(m, tx);
		if (slots < best_slots) {
			best = tx;
			best_slots = slots;
		}
	}
	return best;
}
