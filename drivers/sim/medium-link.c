/* Per-pair signal and loss, radio positions, and the loss PRNG.
 *
 * One small open-addressing hash table holds both kinds of entry, keyed by
 * addresses so a test can configure a pair before its radios attach:
 *   'L' + lower address + higher address -> signal, loss (symmetric)
 *   'P' + address                        -> x, y in centimetres
 *
 * Path loss model (used when both radios of a pair have a position and the
 * pair has no explicit link): log-distance with the free-space loss at 1 m
 * as reference,
 *     signal_dBm = 20 - (20 log10(f_MHz) - 27.55) - 10 * 3.0 * log10(d_m)
 * i.e. 20 dBm transmit power, exponent 3.0 (indoor, some walls), distances
 * under 1 m count as 1 m. At 2.4 GHz: 10 m -> -50 dBm, 100 m -> -80 dBm,
 * out of range (-100 dBm, MEDIUM_NO_SIGNAL_MBM) from about 430 m.
 */
#include "drivers/sim/medium-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KEY_LEN 13
#define TX_POWER_DBM 20.0
#define PATH_LOSS_EXPONENT 3.0
#define DEFAULT_FREQ_MHZ 2437

struct link_entry {
	bool used;
	uint8_t key[KEY_LEN];
	int32_t a, b;    /* link: signal, unused; position: x, y */
	uint8_t loss;
};

struct medium_links {
	struct link_entry *slots;
	size_t cap; /* power of two */
	size_t used;
	size_t n_links, n_positions;
};

struct medium_links *medium_links_new(void)
{
	struct medium_links *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->cap = 64;
	l->slots = calloc(l->cap, sizeof(*l->slots));
	if (!l->slots) {
		free(l);
		return NULL;
	}
	return l;
}

void medium_links_free(struct medium_links *l)
{
	if (!l)
		return;
	free(l->slots);
	free(l);
}

/* FNV-1a over the key. */
static size_t key_hash(const uint8_t *key)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < KEY_LEN; i++) {
		h ^= key[i];
		h *= 0x100000001b3ull;
	}
	return (size_t)h;
}

/* The slot holding key, or the empty slot where it would go. */
static struct link_entry *find_slot(struct link_entry *slots, size_t cap, const uint8_t *key)
{
	size_t i = key_hash(key) & (cap - 1);
	while (slots[i].used && memcmp(slots[i].key, key, KEY_LEN) != 0)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct medium_links *l)
{
	size_t cap = l->cap * 2;
	struct link_entry *slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < l->cap; i++)
		if (l->slots[i].used)
			*find_slot(slots, cap, l->slots[i].key) = l->slots[i];
	free(l->slots);
	l->slots = slots;
	l->cap = cap;
	return 0;
}

/* Returns the entry for key, creating it (zeroed) if needed; NULL on ENOMEM. */
static struct link_entry *upsert(struct medium_links *l, const uint8_t *key, bool *created)
{
	struct link_entry *e = find_slot(l->slots, l->cap, key);
	*created = !e->used;
	if (e->used)
		return e;
	/* Keep the load under one half so probes stay short. */
	if ((l->used + 1) * 2 > l->cap) {
		if (grow(l) < 0)
			return NULL;
		e = find_slot(l->slots, l->cap, key);
	}
	memset(e, 0, sizeof(*e));
	e->used = true;
	memcpy(e->key, key, KEY_LEN);
	l->used++;
	return e;
}

static void link_key(uint8_t *key, const uint8_t a[6], const uint8_t b[6])
{
	bool a_first = memcmp(a, b, 6) <= 0;
	key[0] = 'L';
	memcpy(key + 1, a_first ? a : b, 6);
	memcpy(key + 7, a_first ? b : a, 6);
}

static void position_key(uint8_t *key, const uint8_t addr[6])
{
	memset(key, 0, KEY_LEN);
	key[0] = 'P';
	memcpy(key + 1, addr, 6);
}

int medium_links_set(struct medium_links *l, const uint8_t a[6], const uint8_t b[6],
		     int32_t signal_mbm, uint8_t loss_pct)
{
	uint8_t key[KEY_LEN];
	bool created;

	if (loss_pct > 100)
		return -EINVAL;
	link_key(key, a, b);
	struct link_entry *e = upsert(l, key, &created);
	if (!e)
		return -ENOMEM;
	if (created)
		l->n_links++;
	e->a = signal_mbm;
	e->loss = loss_pct;
	return 0;
}

int medium_links_set_position(struct medium_links *l, const uint8_t addr[6], int32_t x_cm,
			      int32_t y_cm)
{
	uint8_t key[KEY_LEN];
	bool created;

	position_key(key, addr);
	struct link_entry *e = upsert(l, key, &created);
	if (!e)
		return -ENOMEM;
	if (created)
		l->n_positions++;
	e->a = x_cm;
	e->b = y_cm;
	return 0;
}

static const struct link_entry *lookup(const struct medium_links *l, const uint8_t *key)
{
	const struct link_entry *e = find_slot(l->slots, l->cap, key);
	return e->used ? e : NULL;
}

/* log10(x) for x >= 1, without libm: wpad links libm for nothing else,
 * and loading it costs every wpad process ~330 kB resident (its IFUNC
 * relocations touch most of it), radio simulated or not. x = m * 2^e with
 * m in [1, 2), ln(m) = 2 atanh((m - 1) / (m + 1)), a series in s^2 <= 1/9:
 * 24 terms are below a double's precision. */
static double log10_ge1(double x)
{
	static const double ln2 = 0.69314718055994530942, ln10 = 2.30258509299404568402;
	double s, s2, term, sum = 0.0;
	int e = 0;

	while (x >= 2.0) {
		x /= 2.0; /* exact */
		e++;
	}
	s = (x - 1.0) / (x + 1.0);
	s2 = s * s;
	term = s;
	for (int k = 1; k < 48; k += 2) {
		sum += term / k;
		term *= s2;
	}
	return (e * ln2 + 2.0 * sum) / ln10;
}

/* From the squared distance: 10 n log10(d) = 5 n log10(d^2), no sqrt. */
static int32_t path_signal_mbm_sq(double d2_m2, uint32_t freq_mhz)
{
	double f = freq_mhz ? (double)freq_mhz : DEFAULT_FREQ_MHZ;
	double d2 = d2_m2 < 1.0 ? 1.0 : d2_m2;
	double loss_1m = 20.0 * log10_ge1(f) - 27.55;
	double dbm = TX_POWER_DBM - loss_1m - 5.0 * PATH_LOSS_EXPONENT * log10_ge1(d2);
	double r = dbm * 100.0 + 0.5; /* |r| < 10^5: fits an int32_t */
	int32_t mbm = (int32_t)r;

	if ((double)mbm > r) /* the cast truncated toward zero: floor() */
		mbm--;
	return mbm <= MEDIUM_NO_SIGNAL_MBM ? MEDIUM_NO_SIGNAL_MBM : mbm;
}

int32_t medium_path_signal_mbm(double distance_m, uint32_t freq_mhz)
{
	return path_signal_mbm_sq(distance_m * distance_m, freq_mhz);
}

void medium_links_get(const struct medium_links *l, const uint8_t a[6], const uint8_t b[6],
		      uint32_t freq_mhz, uint8_t default_loss, int32_t *signal_mbm,
		      uint8_t *loss_pct)
{
	uint8_t key[KEY_LEN];

	*signal_mbm = MEDIUM_DEFAULT_SIGNAL_MBM;
	*loss_pct = default_loss;
	if (l->n_links) {
		link_key(key, a, b);
		const struct link_entry *e = lookup(l, key);
		if (e) {
			*signal_mbm = e->a;
			*loss_pct = e->loss;
			return;
		}
	}
	if (!l->n_positions)
		return;
	position_key(key, a);
	const struct link_entry *pa = lookup(l, key);
	position_key(key, b);
	const struct link_entry *pb = lookup(l, key);
	if (!pa || !pb)
		return;
	double dx = ((double)pa->a - (double)pb->a) / 100.0;
	double dy = ((double)pa->b - (double)pb->b) / 100.0;
	*signal_mbm = path_signal_mbm_sq(dx * dx + dy * dy, freq_mhz);
}

/* xorshift64*: small, fast, and reproducible from one seed. */
uint64_t medium_prng_next(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

void medium_prng_seed(uint64_t *state, uint64_t seed)
{
	/* One splitmix64 step spreads small seeds; the state must not be 0. */
	uint64_t z = seed + 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	*state = z ? z : 0x9e3779b97f4a7c15ull;
}
