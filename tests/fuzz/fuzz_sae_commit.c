/* Fuzz sae_crypto_process_commit with arbitrary scalar and element bytes.
 *
 * Input: octet 0 picks the group (19, 20, 21) and the PWE method (H&P or
 * H2E); octet 1 picks how the rest is cut: the group's exact lengths, or
 * a split at octet 1's value (wrong lengths too); octet 2's low bit, for
 * H2E, passes the next octets as a rejected-groups list.
 *
 * Oracle: the only results are 0 and -EBADMSG; a refused commit leaves
 * the exchange's keys as they were; an accepted one yields a confirm of
 * the KCK's length that the exchange itself does not verify as the
 * peer's (the peer's confirm covers the values in the other order).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto/sae.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t own_addr[6] = { 0x02, 0, 0, 0, 0xf0, 0x01 };
static const uint8_t peer_addr[6] = { 0x02, 0, 0, 0, 0xf0, 0x02 };

/* One exchange per (group, method), set up once and reused. */
static struct sae_crypto *exchanges[6];

static struct sae_crypto *exchange(unsigned pick)
{
	static const int groups[3] = { 19, 20, 21 };
	int group = groups[pick % 3];
	bool h2e = pick / 3;
	uint8_t scalar[SAE_MAX_ORDER_LEN], element[2 * SAE_MAX_PRIME_LEN];
	struct sae_crypto *c = exchanges[pick];

	if (c)
		return c;
	c = sae_crypto_new(group, NULL);
	if (!c)
		abort();
	if (h2e) {
		struct sae_pt *pt = sae_pt_derive(group, (const uint8_t *)"fuzz", 4,
						  (const uint8_t *)"password", 8, NULL, 0, NULL);

		if (!pt || sae_crypto_pwe_h2e(c, pt, own_addr, peer_addr))
			abort();
		sae_pt_free(pt);
	} else if (sae_crypto_pwe_hnp(c, own_addr, peer_addr, (const uint8_t *)"password", 8, NULL,
				      0)) {
		abort();
	}
	if (sae_crypto_commit(c, scalar, sizeof(scalar), element, sizeof(element)))
		abort();
	exchanges[pick] = c;
	return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t kck_before[SAE_MAX_HASH_LEN], confirm[SAE_MAX_HASH_LEN];
	size_t kck_len = 0, slen, elen, rej_len = 0;
	const uint8_t *kck, *rej = NULL;
	struct sae_crypto *c;
	unsigned pick;
	bool h2e;
	int group, ret;

	if (size < 3)
		return 0;
	pick = data[0] % 6;
	h2e = pick >= 3;
	c = exchange(pick);
	group = sae_crypto_group(c);
	slen = sae_group_order_len(group);
	elen = 2 * sae_group_prime_len(group);
	if (data[1] >= 0x80) { /* an arbitrary cut */
		slen = data[1] & 0x7f;
		elen = size - 3 > slen ? size - 3 - slen : 0;
	}
	if (h2e && (data[2] & 1) && size > 3 + slen + elen) {
		rej = data + 3 + slen + elen;
		rej_len = size - 3 - slen - elen;
	}
	if (3 + slen + elen > size)
		return 0;
	kck = sae_crypto_kck(c, &kck_len);
	if (kck)
		memcpy(kck_before, kck, kck_len);

	ret = sae_crypto_process_commit(c, data + 3, slen, data + 3 + slen, elen, h2e, rej, rej_len);
	if (ret == -EBADMSG) {
		size_t len_after = 0;
		const uint8_t *after = sae_crypto_kck(c, &len_after);

		if (!kck != !after || (after && (len_after != kck_len ||
						 memcmp(after, kck_before, kck_len))))
			abort();
		return 0;
	}
	if (ret != 0)
		abort();
	kck = sae_crypto_kck(c, &kck_len);
	if (!kck || kck_len != sae_crypto_confirm_len(c) ||
	    kck_len != (h2e ? sae_group_hash_len(group) : 32))
		abort();
	if (sae_crypto_confirm(c, 1, confirm, sizeof(confirm)) ||
	    sae_crypto_verify_confirm(c, 1, confirm, kck_len) != -EACCES ||
	    sae_crypto_pmk(c) != NULL)
		abort();
	return 0;
}
