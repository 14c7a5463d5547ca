/* The (re)association checks and their IEEE status codes, on hand-built
 * element lists: SSID, basic rates, RSN element (missing, unparsable,
 * version, group/pairwise cipher, AKM, capabilities), ACL, capacity. */
#include "daemon/ap/ap_internal.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_basic.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/config/macfile.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t sta_addr[6] = { 0x02, 0x00, 0x00, 0x00, 0x02, 0x00 };
static const uint8_t rates_ok[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };
static const uint8_t rates_ofdm_only[] = { 0x0c, 0x12, 0x18, 0x24, 0x30, 0x48, 0x60, 0x6c };

static struct ap *fake_ap(void)
{
	static const uint16_t r24[] = { 10, 20, 55, 110, 60, 90, 120, 180, 240, 360, 480, 540 };
	struct ap *ap = calloc(1, sizeof(*ap));
	ck_assert_ptr_nonnull(ap);
	/* The sim's ciphers: CCMP/GCMP and BIP-CMAC-128 (PMF possible). */
	ap->capa.ciphers = DRIVER_CIPHER_CCMP_128 | DRIVER_CIPHER_CCMP_256 |
			   DRIVER_CIPHER_GCMP_128 | DRIVER_CIPHER_GCMP_256 |
			   DRIVER_CIPHER_BIP_CMAC_128;
	struct driver_band_info *b = &ap->capa.bands[DRIVER_BAND_2GHZ];
	b->present = true;
	memcpy(b->rates_100kbps, r24, sizeof(r24));
	b->n_rates = 12;
	memcpy(ap->conf.ssid, "wpad-test", 9);
	ap->conf.ssid_len = 9;
	ap->conf.band = DRIVER_BAND_2GHZ;
	ap->conf.channel = 6;
	ap->conf.rsn = true;
	ap->conf.max_stations = 2;
	return ap;
}

struct req {
	const char *ssid;
	const uint8_t *rates;
	size_t n_rates;
	const struct ie_rsn *rsn; /* NULL: none */
	const uint8_t *raw_rsn;   /* an RSN element body as given */
	size_t raw_rsn_len;
};

/* Builds the element list, parses it as the AP does, returns the status. */
static uint16_t status_of(struct ap *ap, const struct req *r)
{
	uint8_t buf[512];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct ap_sta sta = { 0 };
	struct ie_set ies;
	memcpy(sta.addr, sta_addr, 6);
	sta.ap = ap;
	sta.state = AP_STA_AUTHENTICATED;
	if (r->ssid)
		ie_build_ssid(&w, (const uint8_t *)r->ssid, strlen(r->ssid));
	if (r->rates) {
		ie_build_supp_rates(&w, r->rates, r->n_rates);
		ie_build_ext_rates(&w, r->rates, r->n_rates);
	}
	if (r->rsn)
		ck_assert_int_eq(ie_build_rsn(&w, r->rsn), 0);
	if (r->raw_rsn)
		ie_build(&w, WLAN_EID_RSN, r->raw_rsn, r->raw_rsn_len);
	ck_assert(!w.bad);
	if (ie_parse(buf, w.len, &ies) < 0)
		return ap_assoc_parse_status(ap, buf, w.len, &ies);
	return ap_assoc_check(ap, &sta, &ies);
}

static struct ie_rsn good_rsn(void)
{
	struct ie_rsn rsn;
	ie_rsn_init(&rsn, RSN_AKM_PSK);
	rsn.present = IE_RSN_UPTO_CAPAB;
	return rsn;
}

static struct req base(const struct ie_rsn *rsn)
{
	return (struct req){ .ssid = "wpad-test", .rates = rates_ok, .n_rates = 8, .rsn = rsn };
}

static uint16_t with_ssid(struct ap *ap, const struct ie_rsn *rsn, const char *ssid)
{
	struct req r = base(rsn);
	r.ssid = ssid;
	return status_of(ap, &r);
}

static uint16_t with_rates(struct ap *ap, const struct ie_rsn *rsn, const uint8_t *rates)
{
	struct req r = base(rsn);
	r.rates = rates;
	return status_of(ap, &r);
}

static uint16_t with_rsn(struct ap *ap, const struct ie_rsn *rsn)
{
	struct req r = base(rsn);
	return status_of(ap, &r);
}

static uint16_t with_raw(struct ap *ap, const uint8_t *raw, size_t len)
{
	struct req r = base(NULL);
	r.raw_rsn = raw;
	r.raw_rsn_len = len;
	return status_of(ap, &r);
}

START_TEST(valid_request_accepted)
{
	struct ap *ap = fake_ap();
	struct ie_rsn rsn = good_rsn();
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_SUCCESS);
	ap->conf.rsn = false;
	ck_assert_uint_eq(with_rsn(ap, NULL), WLAN_STATUS_SUCCESS);
	free(ap);
}
END_TEST

START_TEST(ssid_and_rates)
{
	struct ap *ap = fake_ap();
	struct ie_rsn rsn = good_rsn();
	ck_assert_uint_eq(with_ssid(ap, &rsn, "other"),
			  WLAN_STATUS_UNSPECIFIED_FAILURE);
	ck_assert_uint_eq(with_ssid(ap, &rsn, NULL),
			  WLAN_STATUS_UNSPECIFIED_FAILURE);
	/* OFDM-only station: our basic 802.11b rates are missing. */
	ck_assert_uint_eq(with_rates(ap, &rsn, rates_ofdm_only),
			  WLAN_STATUS_ASSOC_DENIED_RATES);
	ck_assert_uint_eq(with_rates(ap, &rsn, NULL),
			  WLAN_STATUS_ASSOC_DENIED_RATES);
	free(ap);
}
END_TEST

START_TEST(rsn_element_codes)
{
	struct ap *ap = fake_ap();
	struct ie_rsn rsn;

	ck_assert_uint_eq(with_rsn(ap, NULL), WLAN_STATUS_INVALID_IE);

	rsn = good_rsn();
	rsn.group_cipher = RSN_CIPHER_TKIP;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_GROUP_CIPHER_NOT_VALID);

	rsn = good_rsn();
	rsn.pairwise[0] = RSN_CIPHER_TKIP;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID);

	rsn = good_rsn();
	rsn.pairwise[0] = RSN_CIPHER_GCMP_256;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID);

	rsn = good_rsn();
	rsn.akm[0] = RSN_AKM_SAE;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_AKMP_NOT_VALID);

	/* PSK-SHA256 is not offered unless enabled. */
	rsn = good_rsn();
	rsn.akm[0] = RSN_AKM_PSK_SHA256;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_AKMP_NOT_VALID);
	ap->conf.akm_psk_sha256 = true;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_SUCCESS);

	/* Only a version: the AKM defaults to 802.1X, which we do not offer. */
	rsn = good_rsn();
	rsn.present = IE_RSN_UPTO_VERSION;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_AKMP_NOT_VALID);
	free(ap);
}
END_TEST

START_TEST(rsn_capabilities_and_contents)
{
	struct ap *ap = fake_ap();
	struct ie_rsn rsn = good_rsn();
	rsn.capab = RSN_CAPAB_MFPR;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_INVALID_RSN_IE_CAPAB);
	rsn.capab = RSN_CAPAB_MFPR | RSN_CAPAB_MFPC;
	ck_assert_uint_eq(with_rsn(ap, &rsn),
			  WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION);
	rsn.capab = RSN_CAPAB_MFPC; /* capable, not required: fine without PMF */
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_SUCCESS);
	/* ManagementFrameProtection=optional: an MFP station is taken, with PMF. */
	ap->conf.policy.pmf = RSN_PMF_OPTIONAL;
	ck_assert_int_eq(ap_build_rsne(ap), 0);
	rsn.capab = RSN_CAPAB_MFPR | RSN_CAPAB_MFPC;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_SUCCESS);
	/* =required: a station without MFPC is refused with 31. */
	ap->conf.policy.pmf = RSN_PMF_REQUIRED;
	ck_assert_int_eq(ap_build_rsne(ap), 0);
	rsn.capab = 0;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION);
	rsn.capab = RSN_CAPAB_MFPC;
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_SUCCESS);
	ap->conf.policy.pmf = RSN_PMF_DISABLED;
	ck_assert_int_eq(ap_build_rsne(ap), 0);

	/* Version 2. */
	static const uint8_t v2[] = { 0x02, 0x00, 0x00, 0x0f, 0xac, 0x04 };
	ck_assert_uint_eq(with_raw(ap, v2, sizeof(v2)),
			  WLAN_STATUS_UNSUPPORTED_RSN_IE_VERSION);
	/* Pairwise count says 2, one suite follows. */
	static const uint8_t overrun[] = { 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x02, 0x00,
					   0x00, 0x0f, 0xac, 0x04 };
	ck_assert_uint_eq(with_raw(ap, overrun, sizeof(overrun)),
			  WLAN_STATUS_INVALID_RSNIE);
	/* A group cipher cut short. */
	static const uint8_t cut[] = { 0x01, 0x00, 0x00, 0x0f };
	ck_assert_uint_eq(with_raw(ap, cut, sizeof(cut)),
			  WLAN_STATUS_INVALID_RSNIE);
	free(ap);
}
END_TEST

START_TEST(acl_and_capacity)
{
	struct ap *ap = fake_ap();
	struct ie_rsn rsn = good_rsn();
	ap->conf.deny = mac_set_new();
	ck_assert_int_eq(mac_set_add(ap->conf.deny, sta_addr), 0);
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_ASSOC_DENIED_UNSPEC);
	mac_set_free(ap->conf.deny);
	ap->conf.deny = NULL;

	const uint8_t other[6] = { 0x02, 1, 2, 3, 4, 5 };
	ap->conf.allow = mac_set_new();
	ck_assert_int_eq(mac_set_add(ap->conf.allow, other), 0);
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_ASSOC_DENIED_UNSPEC);
	ck_assert_int_eq(mac_set_add(ap->conf.allow, sta_addr), 0);
	ck_assert_uint_eq(with_rsn(ap, &rsn), WLAN_STATUS_SUCCESS);
	mac_set_free(ap->conf.allow);
	ap->conf.allow = NULL;

	ap->n_assoc = 2; /* max_stations */
	ck_assert_uint_eq(with_rsn(ap, &rsn),
			  WLAN_STATUS_AP_UNABLE_TO_HANDLE_NEW_STA);
	free(ap);
}
END_TEST

Suite *make_ap_assoc_suite(void)
{
	Suite *s = suite_create("ap_assoc");
	TCase *tc = tcase_create("checks");
	tcase_add_test(tc, valid_request_accepted);
	tcase_add_test(tc, ssid_and_rates);
	tcase_add_test(tc, rsn_element_codes);
	tcase_add_test(tc, rsn_capabilities_and_contents);
	tcase_add_test(tc, acl_and_capacity);
	suite_add_tcase(s, tc);
	return s;
}
