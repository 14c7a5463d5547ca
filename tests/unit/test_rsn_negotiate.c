/* The one RSN negotiation of both roles (daemon/rsn/negotiate.c): a table
 * of AKM, cipher and MFP combinations, each answered with its suites or with
 * the IEEE 802.11-2020 status code of Table 9-80 that refuses it. */
#include <check.h>
#include <string.h>

#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/negotiate.h"
#include "daemon/rsn/suites.h"
#include "drivers/driver.h"

#define B(s) RSN_SUITE_BIT(s)
#define CCMP RSN_CIPHER_CCMP_128
#define GCMP256 RSN_CIPHER_GCMP_256
#define CCMP256 RSN_CIPHER_CCMP_256
#define GCMP128 RSN_CIPHER_GCMP_128
#define TKIP RSN_CIPHER_TKIP
#define CMAC RSN_CIPHER_BIP_CMAC_128
#define GMAC256 RSN_CIPHER_BIP_GMAC_256
#define PSK RSN_AKM_PSK
#define PSK256 RSN_AKM_PSK_SHA256
#define SAE RSN_AKM_SAE
#define X1 RSN_AKM_8021X
#define X256 RSN_AKM_8021X_SHA256
#define XB192 RSN_AKM_8021X_SUITE_B_192
#define C RSN_CAPAB_MFPC
#define R RSN_CAPAB_MFPR

/* Drivers: nl80211-like (everything), the sim (no TKIP, BIP-CMAC-128
 * only), an old one (CCMP and TKIP, no BIP). */
#define D_ALL                                                                         \
	(DRIVER_CIPHER_CCMP_128 | DRIVER_CIPHER_CCMP_256 | DRIVER_CIPHER_GCMP_128 |    \
	 DRIVER_CIPHER_GCMP_256 | DRIVER_CIPHER_TKIP | DRIVER_CIPHER_BIP_CMAC_128 |     \
	 DRIVER_CIPHER_BIP_CMAC_256 | DRIVER_CIPHER_BIP_GMAC_128 | DRIVER_CIPHER_BIP_GMAC_256)
#define D_SIM                                                                         \
	(DRIVER_CIPHER_CCMP_128 | DRIVER_CIPHER_CCMP_256 | DRIVER_CIPHER_GCMP_128 |    \
	 DRIVER_CIPHER_GCMP_256 | DRIVER_CIPHER_BIP_CMAC_128)
#define D_OLD (DRIVER_CIPHER_CCMP_128 | DRIVER_CIPHER_TKIP)

enum { STA = RSN_ROLE_STATION, AP = RSN_ROLE_AP };
#define DIS RSN_PMF_DISABLED
#define OPT RSN_PMF_OPTIONAL
#define REQ RSN_PMF_REQUIRED
/* the suites of a refusal: none */
#define NONE 0, 0, 0, 0, false

struct ncase {
	const char *name;
	int role;
	struct rsn_policy pol;
	uint32_t drv;
	/* the peer's element */
	uint32_t group;
	uint32_t pw[3];
	uint32_t akm[3];
	uint16_t capab;
	uint32_t mgmt; /* 0: field absent (default BIP-CMAC-128) */
	uint16_t version; /* 0: 1 */
	/* expected */
	uint16_t status;
	uint32_t e_akm, e_pw, e_group, e_mgmt;
	bool e_mfp;
};

#define POL(a, p, g, m) { .akms = (a), .pairwise = (p), .group = (g), .pmf = (m) }
#define DEF(m) POL(0, 0, 0, m)
#define L(...) { __VA_ARGS__ }

static const struct ncase cases[] = {
	/* ---- station: choosing from an AP's RSNE ---- */
	{ "sta plain wpa2-psk", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK), 0, 0, 0,
	  0, PSK, CCMP, CCMP, 0, false },
	{ "sta pmf offered: used, sha256 preferred", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK, PSK256), C, 0, 0,
	  0, PSK256, CCMP, CCMP, CMAC, true },
	{ "sta pmf offered, only psk", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK), C, 0, 0,
	  0, PSK, CCMP, CCMP, CMAC, true },
	{ "sta no pmf: psk preferred", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK256, PSK), 0, 0, 0,
	  0, PSK, CCMP, CCMP, 0, false },
	{ "sta no pmf, only psk-sha256", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK256), 0, 0, 0,
	  0, PSK256, CCMP, CCMP, 0, false },
	{ "sta ap requires pmf", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK256), C | R, 0, 0,
	  0, PSK256, CCMP, CCMP, CMAC, true },
	{ "sta pmf disabled, ap optional", STA, DEF(DIS), D_SIM, CCMP, L(CCMP), L(PSK, PSK256), C, 0, 0,
	  0, PSK, CCMP, CCMP, 0, false },
	{ "sta pmf disabled, ap requires", STA, DEF(DIS), D_SIM, CCMP, L(CCMP), L(PSK256), C | R, 0, 0,
	  WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION, NONE },
	{ "sta pmf required, ap lacks it", STA, DEF(REQ), D_SIM, CCMP, L(CCMP), L(PSK), 0, 0, 0,
	  WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION, NONE },
	{ "sta pmf required, ap capable", STA, DEF(REQ), D_SIM, CCMP, L(CCMP), L(PSK), C, 0, 0,
	  0, PSK, CCMP, CCMP, CMAC, true },
	{ "sta ap requires pmf, driver has no bip", STA, DEF(OPT), D_OLD, CCMP, L(CCMP), L(PSK), C | R, 0, 0,
	  WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION, NONE },
	{ "sta ap capable, driver has no bip: no pmf", STA, DEF(OPT), D_OLD, CCMP, L(CCMP), L(PSK, PSK256), C, 0, 0,
	  0, PSK, CCMP, CCMP, 0, false },
	{ "sta ap mfpr without mfpc", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK), R, 0, 0,
	  WLAN_STATUS_INVALID_RSN_IE_CAPAB, NONE },
	{ "sta ap bip-gmac-256, sim lacks it", STA, DEF(OPT), D_SIM, GCMP256, L(GCMP256), L(PSK256), C, GMAC256, 0,
	  0, PSK256, GCMP256, GCMP256, 0, false },
	{ "sta ap bip-gmac-256 required, sim lacks it", STA, DEF(OPT), D_SIM, GCMP256, L(GCMP256), L(PSK256), C | R, GMAC256, 0,
	  WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION, NONE },
	{ "sta gcmp-256 with bip-gmac-256", STA, DEF(OPT), D_ALL, GCMP256, L(GCMP256), L(PSK256), C | R, GMAC256, 0,
	  0, PSK256, GCMP256, GCMP256, GMAC256, true },
	{ "sta gcmp-256 preferred over ccmp", STA, DEF(OPT), D_ALL, CCMP, L(CCMP, GCMP256), L(PSK), 0, 0, 0,
	  0, PSK, GCMP256, CCMP, 0, false },
	{ "sta gcmp-256 not in driver: ccmp", STA, DEF(OPT), D_OLD, CCMP, L(CCMP, GCMP256), L(PSK), 0, 0, 0,
	  0, PSK, CCMP, CCMP, 0, false },
	{ "sta policy ccmp only", STA, POL(0, B(CCMP), 0, OPT), D_ALL, CCMP, L(GCMP256, CCMP), L(PSK), 0, 0, 0,
	  0, PSK, CCMP, CCMP, 0, false },
	{ "sta mixed mode, driver has tkip", STA, DEF(OPT), D_ALL, TKIP, L(TKIP, CCMP), L(PSK), 0, 0, 0,
	  0, PSK, CCMP, TKIP, 0, false },
	{ "sta mixed mode, sim without tkip", STA, DEF(OPT), D_SIM, TKIP, L(TKIP, CCMP), L(PSK), 0, 0, 0,
	  WLAN_STATUS_GROUP_CIPHER_NOT_VALID, NONE },
	{ "sta tkip only", STA, DEF(OPT), D_ALL, TKIP, L(TKIP), L(PSK), 0, 0, 0,
	  WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID, NONE },
	{ "sta policy forbids tkip group", STA, POL(0, 0, B(CCMP), OPT), D_ALL, TKIP, L(TKIP, CCMP), L(PSK), 0, 0, 0,
	  WLAN_STATUS_GROUP_CIPHER_NOT_VALID, NONE },
	{ "sta group wep", STA, DEF(OPT), D_ALL, RSN_CIPHER_WEP40, L(CCMP), L(PSK), 0, 0, 0,
	  WLAN_STATUS_GROUP_CIPHER_NOT_VALID, NONE },
	{ "sta sae only (not implemented)", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(SAE), C | R, 0, 0,
	  WLAN_STATUS_AKMP_NOT_VALID, NONE },
	{ "sta wpa3 transition: psk chosen", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK, SAE), C, 0, 0,
	  0, PSK, CCMP, CCMP, CMAC, true },
	{ "sta enterprise", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(X1), 0, 0, 0,
	  0, X1, CCMP, CCMP, 0, false },
	{ "sta enterprise with pmf: 802.1x-sha256 chosen", STA, DEF(OPT), D_SIM, CCMP, L(CCMP),
	  L(X1, X256), C, 0, 0, 0, X256, CCMP, CCMP, CMAC, true },
	{ "sta enterprise suite b-192 not implemented", STA, DEF(OPT), D_ALL, GCMP256, L(GCMP256),
	  L(XB192), C | R, 0, 0, WLAN_STATUS_AKMP_NOT_VALID, NONE },
	{ "sta policy psk only, ap enterprise", STA, POL(B(PSK), 0, 0, OPT), D_SIM, CCMP, L(CCMP),
	  L(X1), 0, 0, 0, WLAN_STATUS_AKMP_NOT_VALID, NONE },
	{ "sta policy psk-sha256 only, ap psk", STA, POL(B(PSK256), 0, 0, OPT), D_SIM, CCMP, L(CCMP), L(PSK), 0, 0, 0,
	  WLAN_STATUS_AKMP_NOT_VALID, NONE },
	{ "sta policy psk only, ap both with pmf", STA, POL(B(PSK), 0, 0, OPT), D_SIM, CCMP, L(CCMP), L(PSK, PSK256), C, 0, 0,
	  0, PSK, CCMP, CCMP, CMAC, true },
	{ "sta version 2", STA, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK), 0, 0, 2,
	  WLAN_STATUS_UNSUPPORTED_RSN_IE_VERSION, NONE },

	/* ---- AP: checking a station's association RSNE ---- */
	{ "ap plain psk", AP, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK), 0, 0, 0,
	  0, PSK, CCMP, CCMP, 0, false },
	{ "ap pmf optional, station mfpc", AP, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK), C, 0, 0,
	  0, PSK, CCMP, CCMP, CMAC, true },
	{ "ap pmf optional, station requires", AP, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK), C | R, 0, 0,
	  0, PSK, CCMP, CCMP, CMAC, true },
	{ "ap pmf required, station without", AP, DEF(REQ), D_SIM, CCMP, L(CCMP), L(PSK), 0, 0, 0,
	  WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION, NONE },
	{ "ap pmf required, station mfpc", AP, POL(B(PSK) | B(PSK256), 0, 0, REQ), D_SIM, CCMP, L(CCMP), L(PSK256), C, 0, 0,
	  0, PSK256, CCMP, CCMP, CMAC, true },
	{ "ap pmf disabled, station requires", AP, DEF(DIS), D_SIM, CCMP, L(CCMP), L(PSK), C | R, 0, 0,
	  WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION, NONE },
	{ "ap pmf disabled, station capable", AP, DEF(DIS), D_SIM, CCMP, L(CCMP), L(PSK), C, 0, 0,
	  0, PSK, CCMP, CCMP, 0, false },
	{ "ap station mfpr without mfpc", AP, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK), R, 0, 0,
	  WLAN_STATUS_INVALID_RSN_IE_CAPAB, NONE },
	{ "ap station wrong group", AP, DEF(OPT), D_SIM, TKIP, L(CCMP), L(PSK), 0, 0, 0,
	  WLAN_STATUS_GROUP_CIPHER_NOT_VALID, NONE },
	{ "ap station tkip pairwise", AP, DEF(OPT), D_ALL, CCMP, L(TKIP), L(PSK), 0, 0, 0,
	  WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID, NONE },
	{ "ap station gcmp-256 not offered", AP, DEF(OPT), D_ALL, CCMP, L(GCMP256), L(PSK), 0, 0, 0,
	  WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID, NONE },
	{ "ap gcmp-256 offered and chosen", AP, POL(0, B(CCMP) | B(GCMP256), 0, OPT), D_ALL, CCMP, L(GCMP256), L(PSK), 0, 0, 0,
	  0, PSK, GCMP256, CCMP, 0, false },
	{ "ap gcmp-256 only: group gcmp-256, bip-gmac-256", AP, POL(0, B(GCMP256), 0, OPT), D_ALL, GCMP256, L(GCMP256), L(PSK), C, GMAC256, 0,
	  0, PSK, GCMP256, GCMP256, GMAC256, true },
	{ "ap station wrong group mgmt cipher", AP, POL(0, B(GCMP256), 0, OPT), D_ALL, GCMP256, L(GCMP256), L(PSK), C, CMAC, 0,
	  WLAN_STATUS_CIPHER_REJECTED_PER_POLICY, NONE },
	{ "ap station two pairwise", AP, DEF(OPT), D_SIM, CCMP, L(CCMP, GCMP256), L(PSK), 0, 0, 0,
	  WLAN_STATUS_INVALID_RSNIE, NONE },
	{ "ap station two akms", AP, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK, PSK256), 0, 0, 0,
	  WLAN_STATUS_INVALID_RSNIE, NONE },
	{ "ap station psk-sha256 not offered", AP, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK256), 0, 0, 0,
	  WLAN_STATUS_AKMP_NOT_VALID, NONE },
	{ "ap station sae", AP, POL(B(PSK) | B(SAE), 0, 0, OPT), D_SIM, CCMP, L(CCMP), L(SAE), C, 0, 0,
	  WLAN_STATUS_AKMP_NOT_VALID, NONE },
	{ "ap station 802.1x", AP, DEF(OPT), D_SIM, CCMP, L(CCMP), L(X1), 0, 0, 0,
	  WLAN_STATUS_AKMP_NOT_VALID, NONE },
	{ "ap driver without bip: pmf off", AP, DEF(OPT), D_OLD, CCMP, L(CCMP), L(PSK), C, 0, 0,
	  0, PSK, CCMP, CCMP, 0, false },
	{ "ap driver without bip, station requires", AP, DEF(OPT), D_OLD, CCMP, L(CCMP), L(PSK), C | R, 0, 0,
	  WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION, NONE },
	{ "ap pmf required, driver without bip", AP, DEF(REQ), D_OLD, CCMP, L(CCMP), L(PSK), C | R, 0, 0,
	  WLAN_STATUS_CIPHER_REJECTED_PER_POLICY, NONE },
	{ "ap station version 2", AP, DEF(OPT), D_SIM, CCMP, L(CCMP), L(PSK), 0, 0, 2,
	  WLAN_STATUS_UNSUPPORTED_RSN_IE_VERSION, NONE },
};

#define N_CASES (int)(sizeof(cases) / sizeof(cases[0]))

static size_t count(const uint32_t *l)
{
	size_t n = 0;
	while (n < 3 && l[n])
		n++;
	return n;
}

static void peer_rsn(const struct ncase *c, struct ie_rsn *r)
{
	ie_rsn_init(r, c->akm[0]);
	r->version = c->version ? c->version : IE_RSN_VERSION;
	r->group_cipher = c->group;
	r->n_pairwise = count(c->pw);
	memcpy(r->pairwise, c->pw, r->n_pairwise * sizeof(uint32_t));
	r->n_akm = count(c->akm);
	memcpy(r->akm, c->akm, r->n_akm * sizeof(uint32_t));
	r->capab = c->capab;
	r->present = IE_RSN_UPTO_CAPAB;
	if (c->mgmt) {
		r->group_mgmt_cipher = c->mgmt;
		r->present = IE_RSN_UPTO_GROUP_MGMT;
	}
}

START_TEST(negotiation_table)
{
	const struct ncase *c = &cases[_i];
	struct ie_rsn peer;
	struct rsn_negotiated n;

	peer_rsn(c, &peer);
	uint16_t st = rsn_negotiate(c->role, &c->pol, c->drv, &peer, false, &n);
	ck_assert_msg(st == c->status, "%s: status %u, expected %u (%s)", c->name, st, c->status,
		      n.why ? n.why : "-");
	if (st) {
		ck_assert_msg(n.why && *n.why, "%s: a refusal says why", c->name);
		return;
	}
	ck_assert_msg(n.akm == c->e_akm, "%s: akm %s", c->name, rsn_akm_name(n.akm));
	ck_assert_msg(n.pairwise == c->e_pw, "%s: pairwise %s", c->name,
		      rsn_cipher_name(n.pairwise));
	ck_assert_msg(n.group == c->e_group, "%s: group %s", c->name, rsn_cipher_name(n.group));
	ck_assert_msg(n.group_mgmt == c->e_mgmt, "%s: mgmt %s", c->name,
		      rsn_cipher_name(n.group_mgmt));
	ck_assert_msg(n.mfp == c->e_mfp, "%s: mfp %d", c->name, n.mfp);
}
END_TEST

/* A station's element built from a negotiation is accepted by an AP with
 * the policy that produced the offer: the two roles agree. */
START_TEST(roles_agree)
{
	static const struct rsn_policy ap_pols[] = {
		POL(0, 0, 0, RSN_PMF_DISABLED), POL(0, 0, 0, RSN_PMF_OPTIONAL),
		POL(B(PSK) | B(PSK256), 0, 0, RSN_PMF_REQUIRED),
		POL(B(PSK256), B(GCMP256), 0, RSN_PMF_REQUIRED),
		POL(0, B(CCMP) | B(GCMP256), 0, RSN_PMF_OPTIONAL),
	};
	static const enum rsn_pmf sta_pmf[] = { RSN_PMF_DISABLED, RSN_PMF_OPTIONAL,
						RSN_PMF_REQUIRED };
	for (size_t a = 0; a < sizeof(ap_pols) / sizeof(ap_pols[0]); a++) {
		struct rsn_offer offer;
		struct ie_rsn beacon, assoc;
		ck_assert_int_eq(rsn_offer(&ap_pols[a], D_ALL, &offer, NULL), 0);
		rsn_offer_to_ie(&offer, &beacon);
		for (size_t s = 0; s < 3; s++) {
			struct rsn_policy sp = { .pmf = sta_pmf[s] };
			struct rsn_negotiated sn, an;
			uint16_t st = rsn_negotiate(RSN_ROLE_STATION, &sp, D_ALL, &beacon, false, &sn);
			bool conflict = (offer.mfpr && sp.pmf == RSN_PMF_DISABLED) ||
					(!offer.mfpc && sp.pmf == RSN_PMF_REQUIRED);
			if (conflict) {
				ck_assert_uint_eq(st, WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION);
				continue;
			}
			ck_assert_uint_eq(st, 0);
			rsn_negotiated_to_ie(&sn, &assoc);
			ck_assert_uint_eq(rsn_negotiate(RSN_ROLE_AP, &ap_pols[a], D_ALL, &assoc,
							false, &an),
					  0);
			ck_assert_uint_eq(an.akm, sn.akm);
			ck_assert_uint_eq(an.pairwise, sn.pairwise);
			ck_assert_uint_eq(an.group_mgmt, sn.group_mgmt);
			ck_assert(an.mfp == sn.mfp);
		}
	}
}
END_TEST

START_TEST(offer_refuses_empty_policies)
{
	struct rsn_offer o;
	const char *why = NULL;
	struct rsn_policy p = { .akms = B(SAE), .pmf = RSN_PMF_OPTIONAL };
	ck_assert_int_eq(rsn_offer(&p, D_ALL, &o, &why), -1);
	ck_assert_ptr_nonnull(why);
	p = (struct rsn_policy){ .pairwise = B(GCMP256) };
	ck_assert_int_eq(rsn_offer(&p, D_OLD, &o, &why), -1);
	p = (struct rsn_policy){ .pmf = RSN_PMF_REQUIRED };
	ck_assert_int_eq(rsn_offer(&p, D_OLD, &o, &why), -1);
	p = (struct rsn_policy){ .pmf = RSN_PMF_REQUIRED };
	ck_assert_int_eq(rsn_offer(&p, D_SIM, &o, &why), 0);
	ck_assert(o.mfpc && o.mfpr);
	ck_assert_uint_eq(o.group_mgmt, CMAC);
}
END_TEST

START_TEST(suite_table)
{
	size_t n;
	const struct rsn_akm_info *t = rsn_akm_table(&n);
	ck_assert_uint_ge(n, 21); /* Table 9-151: selectors 1..21 at least */
	unsigned implemented = 0;
	for (size_t i = 0; i < n; i++)
		implemented += t[i].implemented;
	ck_assert_uint_eq(implemented, 4);
	ck_assert(rsn_akm_implemented(PSK) && rsn_akm_implemented(PSK256));
	ck_assert(rsn_akm_implemented(X1) && rsn_akm_implemented(X256));
	ck_assert(!rsn_akm_implemented(SAE));
	ck_assert(rsn_akm_info(SAE)->pmf_required);
	ck_assert(rsn_akm_info(RSN_AKM_OWE)->pmf_required);
	ck_assert_uint_eq(rsn_akm_info(RSN_AKM_PSK_SHA384)->mic_len, 24);
	ck_assert_uint_eq(rsn_akm_info(RSN_AKM_PSK_SHA384)->kek_len, 32);
	ck_assert_uint_eq(rsn_akm_info(PSK)->kdf, RSN_KDF_SHA1);
	ck_assert_uint_eq(rsn_akm_info(PSK256)->kdf, RSN_KDF_SHA256);
	ck_assert_uint_eq(rsn_cipher_to_driver(CCMP), DRIVER_CIPHER_CCMP_128);
	ck_assert_uint_eq(rsn_cipher_to_driver(CMAC), DRIVER_CIPHER_BIP_CMAC_128);
	ck_assert_uint_eq(rsn_cipher_to_driver(TKIP), DRIVER_CIPHER_TKIP);
	ck_assert_uint_eq(rsn_cipher_to_driver(RSN_CIPHER_NO_GROUP_TRAFFIC), 0);
	ck_assert_uint_eq(rsn_akm_from_name("psk-sha256"), PSK256);
	ck_assert_uint_eq(rsn_cipher_from_name("gcmp-256"), GCMP256);
	ck_assert_uint_eq(rsn_cipher_from_name("bogus"), 0);
	char buf[64];
	ck_assert_str_eq(rsn_akm_mask_str(B(PSK) | B(PSK256), buf, sizeof(buf)), "psk psk-sha256");
	enum rsn_pmf pmf;
	ck_assert_int_eq(rsn_pmf_from_name("required", &pmf), 0);
	ck_assert_int_eq(pmf, RSN_PMF_REQUIRED);
	ck_assert_int_eq(rsn_pmf_from_name("yes", &pmf), -1);
}
END_TEST

START_TEST(describe_names_the_offer)
{
	struct ie_rsn r;
	char buf[128];
	ie_rsn_init(&r, PSK);
	r.group_cipher = TKIP;
	r.pairwise[0] = TKIP;
	r.pairwise[1] = CCMP;
	r.n_pairwise = 2;
	r.capab = C;
	ck_assert_str_eq(rsn_describe(&r, buf, sizeof(buf)),
			 "group tkip, pairwise tkip ccmp-128, AKM psk, PMF capable");
}
END_TEST

Suite *make_rsn_negotiate_suite(void)
{
	Suite *s = suite_create("rsn_negotiate");
	TCase *tc = tcase_create("negotiate");

	tcase_add_loop_test(tc, negotiation_table, 0, N_CASES);
	tcase_add_test(tc, roles_agree);
	tcase_add_test(tc, offer_refuses_empty_policies);
	tcase_add_test(tc, suite_table);
	tcase_add_test(tc, describe_names_the_offer);
	suite_add_tcase(s, tc);
	return s;
}
