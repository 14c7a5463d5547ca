/* Benchmark: CPU time of SAE's cryptography per handshake (both sides'
 * PWE, commit, peer-commit processing, confirm and its check), per side,
 * and by step, on daemon/crypto/sae.h. Prints tables; asserts only that
 * each handshake agrees (a benchmark of a broken exchange means nothing).
 *
 *   sae_cpu [RUNS] [GROUP...]      defaults: 200 runs, group 19
 *
 * Modes: hunting-and-pecking; H2E with the PT cached (derived once per
 * network and password, as the daemon does); H2E deriving the PT on each
 * side every time (a first connection). Times are thread CPU time, the
 * median of RUNS.
 */
#include "daemon/crypto/sae.h"

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RUNS 10000
#define SSID "bench-net"
#define PASSWORD "bench passphrase 1"

enum mode { MODE_HNP, MODE_H2E_CACHED, MODE_H2E_FRESH, MODE_COUNT };
static const char *const mode_names[MODE_COUNT] = { "hunting-and-pecking", "H2E, PT cached",
						    "H2E, PT derived" };
enum step { STEP_PWE, STEP_COMMIT, STEP_PROCESS, STEP_CONFIRM, STEP_COUNT };

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

struct side {
	struct sae_crypto *c;
	uint8_t addr[6];
	uint8_t scalar[SAE_MAX_ORDER_LEN], element[2 * SAE_MAX_PRIME_LEN];
	uint8_t confirm[SAE_MAX_HASH_LEN];
	double t[STEP_COUNT];
};

static void die(const char *what, int err)
{
	fprintf(stderr, "sae_cpu: %s failed (%d)\n", what, err);
	exit(1);
}

static void step_pwe(struct side *s, const struct side *peer, int group, enum mode m,
		     const struct sae_pt *cached)
{
	double t0 = now_us();
	struct sae_pt *pt = NULL;
	int err = 0;

	s->c = sae_crypto_new(group, &err);
	if (!s->c)
		die("sae_crypto_new", err);
	if (m == MODE_HNP) {
		err = sae_crypto_pwe_hnp(s->c, s->addr, peer->addr, (const uint8_t *)PASSWORD,
					 strlen(PASSWORD), NULL, 0);
	} else {
		if (m == MODE_H2E_FRESH) {
			pt = sae_pt_derive(group, (const uint8_t *)SSID, strlen(SSID),
					   (const uint8_t *)PASSWORD, strlen(PASSWORD), NULL, 0, &err);
			if (!pt)
				die("sae_pt_derive", err);
			cached = pt;
		}
		err = sae_crypto_pwe_h2e(s->c, cached, s->addr, peer->addr);
		sae_pt_free(pt);
	}
	if (err)
		die("pwe", err);
	s->t[STEP_PWE] = now_us() - t0;
}

static void step_commit(struct side *s)
{
	double t0 = now_us();
	int err = sae_crypto_commit(s->c, s->scalar, sizeof(s->scalar), s->element,
				    sizeof(s->element));

	if (err)
		die("commit", err);
	s->t[STEP_COMMIT] = now_us() - t0;
}

static void step_process(struct side *s, const struct side *peer, int group, bool h2e)
{
	double t0 = now_us();
	int err = sae_crypto_process_commit(s->c, peer->scalar, sae_group_order_len(group),
					    peer->element, 2 * sae_group_prime_len(group), h2e,
					    NULL, 0);

	if (err)
		die("process_commit", err);
	err = sae_crypto_confirm(s->c, 1, s->confirm, sizeof(s->confirm));
	if (err)
		die("confirm", err);
	s->t[STEP_PROCESS] = now_us() - t0;
}

static void step_verify(struct side *s, const struct side *peer)
{
	double t0 = now_us();
	int err = sae_crypto_verify_confirm(s->c, 1, peer->confirm, sae_crypto_confirm_len(peer->c));

	if (err)
		die("verify_confirm", err);
	s->t[STEP_CONFIRM] = now_us() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double *samples[2 + STEP_COUNT];

static void run_mode(int group, enum mode m, int runs)
{
	struct sae_pt *cached = NULL;
	bool h2e = m != MODE_HNP;
	double med[2 + STEP_COUNT];
	int err = 0;

	if (m == MODE_H2E_CACHED) {
		cached = sae_pt_derive(group, (const uint8_t *)SSID, strlen(SSID),
				       (const uint8_t *)PASSWORD, strlen(PASSWORD), NULL, 0, &err);
		if (!cached)
			die("sae_pt_derive", err);
	}
	for (int r = 0; r < runs; r++) {
		struct side a = { .addr = { 0x02, 0, 0, 0, 0x01, 0x0a } };
		struct side b = { .addr = { 0x02, 0, 0, 0, 0x01, 0x0b } };

		step_pwe(&a, &b, group, m, cached);
		step_pwe(&b, &a, group, m, cached);
		step_commit(&a);
		step_commit(&b);
		step_process(&a, &b, group, h2e);
		step_process(&b, &a, group, h2e);
		step_verify(&a, &b);
		step_verify(&b, &a);
		if (memcmp(sae_crypto_pmk(a.c), sae_crypto_pmk(b.c), SAE_PMK_LEN))
			die("PMK agreement", -1);
		double ta = 0, tb = 0;

		for (int s = 0; s < STEP_COUNT; s++) {
			ta += a.t[s];
			tb += b.t[s];
			samples[2 + s][r] = (a.t[s] + b.t[s]) / 2;
		}
		samples[0][r] = ta + tb;
		samples[1][r] = (ta + tb) / 2;
		sae_crypto_free(a.c);
		sae_crypto_free(b.c);
	}
	sae_pt_free(cached);
	for (int i = 0; i < 2 + STEP_COUNT; i++)
		med[i] = median(samples[i], runs);
	printf("%5d  %-20s %10.3f %9.3f %9.3f %9.3f %11.3f %9.3f %10.0f\n", group, mode_names[m],
	       med[0] / 1e3, med[1] / 1e3, med[2 + STEP_PWE] / 1e3, med[2 + STEP_COMMIT] / 1e3,
	       med[2 + STEP_PROCESS] / 1e3, med[2 + STEP_CONFIRM] / 1e3, 1e6 / med[0]);
}

/* The ECC floor: one constant-time scalar multiplication of an arbitrary
 * point, which a handshake needs 6 of at least (per side: the commit's
 * element, peer_scalar * PWE, rand * (...); H2E folds val * PT into them). */
static double scalar_mult_us(int group, int runs)
{
	static const int nids[] = { NID_X9_62_prime256v1, NID_secp384r1, NID_secp521r1 };
	EC_GROUP *g = EC_GROUP_new_by_curve_name(nids[group - 19]);
	EC_POINT *p = g ? EC_POINT_new(g) : NULL;
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *k = BN_new();
	double t;

	if (!p || !ctx || !k || !BN_rand_range(k, EC_GROUP_get0_order(g)) ||
	    !EC_POINT_mul(g, p, k, NULL, NULL, ctx))
		die("EC setup", -1);
	BN_set_flags(k, BN_FLG_CONSTTIME);
	for (int r = 0; r < runs; r++) {
		double t0 = now_us();

		if (!EC_POINT_mul(g, p, NULL, p, k, ctx))
			die("EC_POINT_mul", -1);
		samples[0][r] = now_us() - t0;
	}
	t = median(samples[0], runs);
	BN_free(k);
	BN_CTX_free(ctx);
	EC_POINT_free(p);
	EC_GROUP_free(g);
	return t;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 200;
	int groups[8] = { 19 }, ngroups = 1;

	if (runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: sae_cpu [RUNS 1..%d] [GROUP...]\n", MAX_RUNS);
		return 2;
	}
	if (argc > 2) {
		ngroups = 0;
		for (int i = 2; i < argc && ngroups < 8; i++) {
			groups[ngroups] = atoi(argv[i]);
			if (!sae_group_supported(groups[ngroups])) {
				fprintf(stderr, "sae_cpu: group %s not supported\n", argv[i]);
				return 2;
			}
			ngroups++;
		}
	}
	for (int i = 0; i < 2 + STEP_COUNT; i++) {
		samples[i] = calloc((size_t)runs, sizeof(double));
		if (!samples[i])
			die("calloc", -1);
	}
	printf("SAE CPU time (thread CPU, median of %d handshakes; ms)\n", runs);
	printf("%5s  %-20s %10s %9s %9s %9s %11s %9s %10s\n", "group", "mode", "handshake",
	       "per side", "pwe", "commit", "process+CN", "verify", "hs/s");
	for (int g = 0; g < ngroups; g++)
		for (int m = 0; m < MODE_COUNT; m++)
			run_mode(groups[g], (enum mode)m, runs);
	printf("(handshake = both sides: PWE, commit, peer commit + keys + own confirm, peer\n"
	       " confirm check; the step columns are per side; pwe includes sae_crypto_new)\n");
	printf("\nECC floor: 6 scalar multiplications per handshake (3 per side)\n");
	printf("%5s %18s %18s\n", "group", "one mult (ms)", "floor (ms)");
	for (int g = 0; g < ngroups; g++) {
		double t = scalar_mult_us(groups[g], runs);

		printf("%5d %18.3f %18.3f\n", groups[g], t / 1e3, 6 * t / 1e3);
	}
	for (int i = 0; i < 2 + STEP_COUNT; i++)
		free(samples[i]);
	return 0;
}
