/* Management frame and data header codec: round trips and a real beacon. */
#include <check.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"

static const uint8_t ap_addr[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t sta_addr[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
static const uint8_t old_ap[6] = { 0x02, 0x66, 0x77, 0x88, 0x99, 0x00 };
static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t some_ies[] = { 0x00, 0x03, 'w', 'p', 'a', 0x01, 0x02, 0x82, 0x84 };

/* Builds f, parses it back into *out, and checks that building the parsed
 * struct gives the same bytes. */
static void build_parse_rebuild(const struct mgmt_frame *f, struct mgmt_frame *out,
				uint8_t *buf, size_t cap, size_t *len)
{
	struct wbuf w = wbuf_init(buf, cap);
	ck_assert_int_eq(mgmt_build(&w, f), CODEC_OK);
	*len = w.len;
	ck_assert_int_eq(mgmt_parse(buf, w.len, out), CODEC_OK);
	ck_assert_int_eq(out->subtype, f->subtype);
	ck_assert_mem_eq(out->da, f->da, 6);
	ck_assert_mem_eq(out->sa, f->sa, 6);
	ck_assert_mem_eq(out->bssid, f->bssid, 6);
	ck_assert_uint_eq(out->seq_ctrl, f->seq_ctrl);

	uint8_t again[512];
	struct wbuf w2 = wbuf_init(again, sizeof(again));
	ck_assert_int_eq(mgmt_build(&w2, out), CODEC_OK);
	ck_assert_uint_eq(w2.len, w.len);
	ck_assert_mem_eq(again, buf, w.len);
}

START_TEST(test_beacon_round_trip)
{
	struct mgmt_frame f, p;
	uint8_t buf[256];
	size_t len;

	mgmt_init(&f, IEEE80211_STYPE_BEACON, bcast, ap_addr, ap_addr);
	f.seq_ctrl = 0x1230;
	f.u.beacon.timestamp = 0x0102030405060708ull;
	f.u.beacon.beacon_int = 100;
	f.u.beacon.capab = WLAN_CAPAB_ESS | WLAN_CAPAB_PRIVACY;
	f.ies = some_ies;
	f.ies_len = sizeof(some_ies);
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(len, 24 + 12 + sizeof(some_ies));
	ck_assert(p.u.beacon.timestamp == 0x0102030405060708ull);
	ck_assert_uint_eq(p.u.beacon.beacon_int, 100);
	ck_assert_uint_eq(p.u.beacon.capab, WLAN_CAPAB_ESS | WLAN_CAPAB_PRIVACY);
	ck_assert_uint_eq(p.ies_len, sizeof(some_ies));
	ck_assert_mem_eq(p.ies, some_ies, sizeof(some_ies));
	/* timestamp is little-endian on the air */
	ck_assert_uint_eq(buf[24], 0x08);
}
END_TEST

START_TEST(test_probe_req_resp_round_trip)
{
	struct mgmt_frame f, p;
	uint8_t buf[256];
	size_t len;

	mgmt_init(&f, IEEE80211_STYPE_PROBE_REQ, bcast, sta_addr, bcast);
	f.ies = some_ies;
	f.ies_len = sizeof(some_ies);
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(len, 24 + sizeof(some_ies));
	ck_assert_uint_eq(p.ies_len, sizeof(some_ies));

	mgmt_init(&f, IEEE80211_STYPE_PROBE_RESP, sta_addr, ap_addr, ap_addr);
	f.u.beacon.beacon_int = 200;
	f.u.beacon.capab = WLAN_CAPAB_ESS;
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(p.u.beacon.beacon_int, 200);
	ck_assert_uint_eq(p.ies_len, 0);
}
END_TEST

START_TEST(test_auth_round_trip)
{
	struct mgmt_frame f, p;
	uint8_t buf[256];
	size_t len;

	mgmt_init(&f, IEEE80211_STYPE_AUTH, ap_addr, sta_addr, ap_addr);
	f.u.auth.alg = WLAN_AUTH_OPEN;
	f.u.auth.seq = 1;
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(len, 30);
	ck_assert_uint_eq(p.u.auth.alg, WLAN_AUTH_OPEN);
	ck_assert_uint_eq(p.u.auth.seq, 1);
	ck_assert_uint_eq(p.u.auth.status, 0);

	/* FT authentication carries elements after the fixed fields */
	f.u.auth.alg = WLAN_AUTH_FT;
	f.u.auth.seq = 2;
	f.u.auth.status = WLAN_STATUS_INVALID_PMKID;
	f.ies = some_ies;
	f.ies_len = sizeof(some_ies);
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(p.u.auth.status, WLAN_STATUS_INVALID_PMKID);
	ck_assert_uint_eq(p.ies_len, sizeof(some_ies));
	ck_assert_ptr_null(p.u.auth.sae_body);
}
END_TEST

START_TEST(test_auth_sae_body_is_opaque)
{
	/* An SAE commit body is not an element list: group 19 then scalar
	 * bytes that would be an overrunning "element" if walked as TLVs. */
	static const uint8_t sae[] = { 0x13, 0x00, 0x01, 0xff, 0x42, 0x43 };
	struct mgmt_frame f, p;
	uint8_t buf[128];
	size_t len;

	mgmt_init(&f, IEEE80211_STYPE_AUTH, ap_addr, sta_addr, ap_addr);
	f.u.auth.alg = WLAN_AUTH_SAE;
	f.u.auth.seq = 1;
	f.u.auth.sae_body = sae;
	f.u.auth.sae_len = sizeof(sae);
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(p.u.auth.sae_len, sizeof(sae));
	ck_assert_mem_eq(p.u.auth.sae_body, sae, sizeof(sae));
	ck_assert_ptr_null(p.ies);
}
END_TEST

START_TEST(test_assoc_round_trip)
{
	struct mgmt_frame f, p;
	uint8_t buf[256];
	size_t len;

	mgmt_init(&f, IEEE80211_STYPE_ASSOC_REQ, ap_addr, sta_addr, ap_addr);
	f.u.assoc_req.capab = WLAN_CAPAB_ESS;
	f.u.assoc_req.listen_interval = 10;
	f.ies = some_ies;
	f.ies_len = sizeof(some_ies);
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(len, 24 + 4 + sizeof(some_ies));
	ck_assert_uint_eq(p.u.assoc_req.listen_interval, 10);
	ck_assert_ptr_null(p.u.assoc_req.current_ap);

	mgmt_init(&f, IEEE80211_STYPE_REASSOC_REQ, ap_addr, sta_addr, ap_addr);
	f.u.assoc_req.listen_interval = 5;
	f.u.assoc_req.current_ap = old_ap;
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(len, 24 + 10);
	ck_assert_mem_eq(p.u.assoc_req.current_ap, old_ap, 6);

	for (uint8_t st = IEEE80211_STYPE_ASSOC_RESP; st <= IEEE80211_STYPE_REASSOC_RESP; st += 2) {
		mgmt_init(&f, st, sta_addr, ap_addr, ap_addr);
		f.u.assoc_resp.capab = WLAN_CAPAB_ESS | WLAN_CAPAB_SHORT_SLOT_TIME;
		f.u.assoc_resp.status = WLAN_STATUS_SUCCESS;
		f.u.assoc_resp.aid = 7;
		build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
		ck_assert_uint_eq(p.u.assoc_resp.aid, 7);
		/* the two top AID bits are set on the air */
		ck_assert_uint_eq(buf[28], 0x07);
		ck_assert_uint_eq(buf[29], 0xc0);
	}
}
END_TEST

START_TEST(test_deauth_disassoc_action_round_trip)
{
	static const uint8_t sa_query[] = { 0x00, 0x12, 0x34 };
	struct mgmt_frame f, p;
	uint8_t buf[128];
	size_t len;

	mgmt_init(&f, IEEE80211_STYPE_DEAUTH, sta_addr, ap_addr, ap_addr);
	f.u.reason = WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT;
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(len, 26);
	ck_assert_uint_eq(p.u.reason, WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT);

	mgmt_init(&f, IEEE80211_STYPE_DISASSOC, sta_addr, ap_addr, ap_addr);
	f.u.reason = WLAN_REASON_DISASSOC_DUE_TO_INACTIVITY;
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(p.u.reason, WLAN_REASON_DISASSOC_DUE_TO_INACTIVITY);

	mgmt_init(&f, IEEE80211_STYPE_ACTION, sta_addr, ap_addr, ap_addr);
	f.u.action.category = WLAN_ACTION_SA_QUERY;
	f.u.action.body = sa_query;
	f.u.action.len = sizeof(sa_query);
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(p.u.action.category, WLAN_ACTION_SA_QUERY);
	ck_assert_uint_eq(p.u.action.len, sizeof(sa_query));
	ck_assert_mem_eq(p.u.action.body, sa_query, sizeof(sa_query));
	ck_assert_ptr_null(p.ies);

	mgmt_init(&f, IEEE80211_STYPE_ACTION_NO_ACK, sta_addr, ap_addr, ap_addr);
	f.u.action.category = WLAN_ACTION_HT;
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(len, 25);
	ck_assert_uint_eq(p.u.action.len, 0);

	mgmt_init(&f, IEEE80211_STYPE_ATIM, sta_addr, ap_addr, ap_addr);
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(len, 24);

	mgmt_init(&f, IEEE80211_STYPE_TIMING_ADV, bcast, ap_addr, ap_addr);
	f.u.beacon.timestamp = 77;
	f.u.beacon.capab = WLAN_CAPAB_ESS;
	f.ies = some_ies;
	f.ies_len = sizeof(some_ies);
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(len, 24 + 10 + sizeof(some_ies));
	ck_assert(p.u.beacon.timestamp == 77);
}
END_TEST

START_TEST(test_protected_deauth_as_delivered)
{
	/* A CCMP-protected unicast deauthentication, reason 7, as mac80211
	 * hands it over nl80211 (NL80211_CMD_DEAUTHENTICATE's FRAME): the
	 * kernel decrypted it, removed the 8-octet CCMP header and the MIC
	 * (net/mac80211/wpa.c, ieee80211_crypto_ccmp_decrypt) and moved the
	 * header over the gap unchanged, so Frame Control still has Protected
	 * (0x40 in its second octet) and the body is the plaintext reason. */
	static const uint8_t frame[] = {
		0xc0, 0x40, 0x3a, 0x01,             /* deauth, Protected; duration */
		0x02, 0x00, 0x00, 0x00, 0x01, 0x00, /* A1: the station */
		0x02, 0x00, 0x00, 0x00, 0x00, 0x00, /* A2: the AP */
		0x02, 0x00, 0x00, 0x00, 0x00, 0x00, /* A3: BSSID */
		0x30, 0x00,                         /* sequence control */
		0x07, 0x00,                         /* reason 7 */
	};
	static const uint8_t ap[6] = { 0x02, 0, 0, 0, 0, 0 };
	struct mgmt_frame f;

	ck_assert_int_eq(mgmt_parse_decrypted(frame, sizeof(frame), &f), CODEC_OK);
	ck_assert_uint_eq(f.subtype, IEEE80211_STYPE_DEAUTH);
	ck_assert(f.protected_frame);
	ck_assert_mem_eq(f.bssid, ap, 6);
	ck_assert_uint_eq(f.u.reason, WLAN_REASON_CLASS3_FRAME_FROM_NONASSOC_STA);
	ck_assert_uint_eq(f.ies_len, 0);

	/* Off the air the same bytes would be ciphertext: not decoded. */
	ck_assert_int_eq(mgmt_parse(frame, sizeof(frame), &f), CODEC_OK);
	ck_assert_uint_eq(f.u.reason, 0);
	ck_assert_uint_eq(f.body_len, 2);

	/* Unprotected frames parse alike either way; a short body is refused. */
	uint8_t plain[sizeof(frame)];
	memcpy(plain, frame, sizeof(frame));
	plain[1] = 0;
	plain[24] = 3;
	ck_assert_int_eq(mgmt_parse_decrypted(plain, sizeof(plain), &f), CODEC_OK);
	ck_assert(!f.protected_frame);
	ck_assert_uint_eq(f.u.reason, 3);
	ck_assert_int_eq(mgmt_parse_decrypted(frame, sizeof(frame) - 1, &f), CODEC_E_TRUNCATED);
	/* The Protected bit on a subtype that is never protected stays bad. */
	plain[0] = 0x80; /* beacon */
	plain[1] = 0x40;
	ck_assert_int_eq(mgmt_parse_decrypted(plain, sizeof(plain), &f), CODEC_E_MALFORMED);
}
END_TEST

START_TEST(test_protected_and_htc)
{
	static const uint8_t ciphertext[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct mgmt_frame f, p;
	uint8_t buf[128];
	size_t len;

	/* A protected deauth: the body is not decoded. */
	mgmt_init(&f, IEEE80211_STYPE_DEAUTH, sta_addr, ap_addr, ap_addr);
	f.protected_frame = true;
	f.body = ciphertext;
	f.body_len = sizeof(ciphertext);
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert(p.protected_frame);
	ck_assert_uint_eq(p.body_len, sizeof(ciphertext));
	ck_assert_uint_eq(p.u.reason, 0);

	/* +HTC adds four octets after Sequence Control. */
	mgmt_init(&f, IEEE80211_STYPE_DEAUTH, sta_addr, ap_addr, ap_addr);
	f.has_htc = true;
	f.htc = 0xdeadbeef;
	f.u.reason = 3;
	f.fc = IEEE80211_FC_RETRY;
	build_parse_rebuild(&f, &p, buf, sizeof(buf), &len);
	ck_assert_uint_eq(len, 30);
	ck_assert_uint_eq(p.htc, 0xdeadbeef);
	ck_assert_uint_eq(p.u.reason, 3);
	ck_assert(p.fc & IEEE80211_FC_RETRY);
}
END_TEST

START_TEST(test_mgmt_build_errors)
{
	struct mgmt_frame f;
	uint8_t buf[40];
	struct wbuf w = wbuf_init(buf, sizeof(buf));

	mgmt_init(&f, 7, bcast, ap_addr, ap_addr);
	ck_assert_int_eq(mgmt_build(&w, &f), CODEC_E_INVALID_ARG);
	mgmt_init(&f, IEEE80211_STYPE_REASSOC_REQ, ap_addr, sta_addr, ap_addr);
	ck_assert_int_eq(mgmt_build(&w, &f), CODEC_E_INVALID_ARG);
	mgmt_init(&f, IEEE80211_STYPE_BEACON, bcast, ap_addr, ap_addr);
	f.protected_frame = true; /* beacons are never protected */
	ck_assert_int_eq(mgmt_build(&w, &f), CODEC_E_INVALID_ARG);
	ck_assert_uint_eq(w.len, 0);

	mgmt_init(&f, IEEE80211_STYPE_BEACON, bcast, ap_addr, ap_addr);
	f.ies = some_ies;
	f.ies_len = sizeof(some_ies);
	w = wbuf_init(buf, sizeof(buf)); /* 36 + 9 does not fit in 40 */
	ck_assert_int_eq(mgmt_build(&w, &f), CODEC_E_NOSPACE);
}
END_TEST

/* A beacon as hostapd sends it for a WPA2-PSK 2.4 GHz AP on channel 6:
 * SSID, rates, DS, TIM, Country, ERP, extended rates, RSN, HT
 * capabilities/operation, extended capabilities, WMM parameters. */
static const uint8_t real_beacon[] = {
	0x80, 0x00, 0x00, 0x00,                         /* FC, duration */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff,             /* DA */
	0x02, 0x11, 0x22, 0x33, 0x44, 0x55,             /* SA */
	0x02, 0x11, 0x22, 0x33, 0x44, 0x55,             /* BSSID */
	0x30, 0xa1,                                     /* seq 0xa13, frag 0 */
	0x4f, 0x3c, 0x2b, 0x1a, 0x00, 0x00, 0x00, 0x00, /* timestamp */
	0x64, 0x00, 0x11, 0x04,                         /* interval 100, capab */
	0x00, 0x07, 'w', 'p', 'a', 'd', '-', 'a', 'p',
	0x01, 0x08, 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24,
	0x03, 0x01, 0x06,
	0x05, 0x04, 0x00, 0x02, 0x00, 0x00,
	0x07, 0x06, 'U', 'S', ' ', 0x01, 0x0b, 0x1e,
	0x2a, 0x01, 0x00,
	0x32, 0x04, 0x30, 0x48, 0x60, 0x6c,
	0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
	0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x0c, 0x00,
	0x2d, 0x1a, 0xef, 0x11, 0x1b, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x3d, 0x16, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x7f, 0x08, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40,
	0xdd, 0x18, 0x00, 0x50, 0xf2, 0x02, 0x01, 0x01, 0x80, 0x00,
	0x03, 0xa4, 0x00, 0x00, 0x27, 0xa4, 0x00, 0x00,
	0x42, 0x43, 0x5e, 0x00, 0x62, 0x32, 0x2f, 0x00,
};

START_TEST(test_real_beacon_fields)
{
	struct mgmt_frame f;
	struct ie_set s;

	ck_assert_int_eq(mgmt_parse(real_beacon, sizeof(real_beacon), &f), CODEC_OK);
	ck_assert_uint_eq(f.subtype, IEEE80211_STYPE_BEACON);
	ck_assert_mem_eq(f.da, bcast, 6);
	ck_assert_mem_eq(f.bssid, ap_addr, 6);
	ck_assert_uint_eq(f.seq_ctrl >> IEEE80211_SEQ_NUM_SHIFT, 0xa13);
	ck_assert(f.u.beacon.timestamp == 0x1a2b3c4full);
	ck_assert_uint_eq(f.u.beacon.beacon_int, 100);
	ck_assert_uint_eq(f.u.beacon.capab,
			  WLAN_CAPAB_ESS | WLAN_CAPAB_PRIVACY | WLAN_CAPAB_SHORT_SLOT_TIME);

	ck_assert_int_eq(ie_parse(f.ies, f.ies_len, &s), CODEC_OK);
	ck_assert_uint_eq(s.n_elems, 12);
	ck_assert_uint_eq(s.ssid.len, 7);
	ck_assert_mem_eq(s.ssid.ssid, "wpad-ap", 7);
	ck_assert_uint_eq(s.supp_rates.n, 8);
	ck_assert_uint_eq(ie_rate_kbps(s.supp_rates.rates[0]), 1000);
	ck_assert(s.supp_rates.rates[0] & WLAN_RATE_BASIC);
	ck_assert_uint_eq(s.ext_rates.n, 4);
	ck_assert_uint_eq(ie_rate_kbps(s.ext_rates.rates[3]), 54000);
	ck_assert_uint_eq(s.ds_channel, 6);
	ck_assert_uint_eq(s.tim.dtim_period, 2);
	ck_assert_uint_eq(s.tim.pvb_len, 1);
	ck_assert_mem_eq(s.country.country, "US ", 3);
	ck_assert_uint_eq(s.country.n_triplets, 1);
	struct ie_country_triplet t = ie_country_get(&s.country, 0);
	ck_assert(!t.is_op_ext);
	ck_assert_uint_eq(t.first, 1);
	ck_assert_uint_eq(t.second, 11);
	ck_assert_uint_eq(t.third, 30);

	ck_assert(s.has_rsn);
	ck_assert_uint_eq(s.rsn.group_cipher, RSN_CIPHER_CCMP_128);
	ck_assert_uint_eq(s.rsn.n_pairwise, 1);
	ck_assert_uint_eq(s.rsn.pairwise[0], RSN_CIPHER_CCMP_128);
	ck_assert_uint_eq(s.rsn.n_akm, 1);
	ck_assert_uint_eq(s.rsn.akm[0], RSN_AKM_PSK);
	ck_assert_uint_eq(s.rsn.capab, 0x000c);
	ck_assert_int_eq(s.rsn.present, IE_RSN_UPTO_CAPAB);
	ck_assert_uint_eq(s.rsn_elem_len, 22);
	ck_assert_uint_eq(s.rsn_elem[0], WLAN_EID_RSN);

	ck_assert_uint_eq(s.ht_cap.cap_info, 0x11ef);
	ck_assert_uint_eq(s.ht_cap.ampdu_params, 0x1b);
	ck_assert_uint_eq(s.ht_cap.mcs_set[0], 0xff);
	ck_assert_uint_eq(s.ht_cap.mcs_set[1], 0xff);
	ck_assert_uint_eq(s.ht_op.primary_channel, 6);
	ck_assert_uint_eq(s.ht_op.sec_chan_offset, HT_OP_SEC_CHAN_NONE);
	ck_assert(ie_ext_capab_has(&s.ext_capab, 2));
	ck_assert(ie_ext_capab_has(&s.ext_capab, EXT_CAPAB_OPERATING_MODE_NOTIF));
	ck_assert(!ie_ext_capab_has(&s.ext_capab, EXT_CAPAB_BSS_TRANSITION));
	ck_assert(!ie_ext_capab_has(&s.ext_capab, 200));

	ck_assert(s.has_wmm);
	ck_assert_uint_eq(s.wmm.subtype, WMM_SUBTYPE_PARAM);
	ck_assert_uint_eq(s.wmm.qos_info, WMM_QOSINFO_AP_UAPSD);
	ck_assert_uint_eq(s.wmm.ac[WMM_AC_BE].aifsn, 3);
	ck_assert_uint_eq(s.wmm.ac[WMM_AC_BE].ecw_min, 4);
	ck_assert_uint_eq(s.wmm.ac[WMM_AC_BE].ecw_max, 10);
	ck_assert_uint_eq(s.wmm.ac[WMM_AC_BK].aifsn, 7);
	ck_assert_uint_eq(s.wmm.ac[WMM_AC_VI].txop_limit, 94);
	ck_assert_uint_eq(s.wmm.ac[WMM_AC_VO].aci, WMM_AC_VO);
	ck_assert_uint_eq(s.wmm.ac[WMM_AC_VO].txop_limit, 47);
	ck_assert(!s.wmm.ac[WMM_AC_VO].acm);
	ck_assert_uint_eq(s.n_vendor, 1);
}
END_TEST

START_TEST(test_real_beacon_rebuild_identical)
{
	struct mgmt_frame f;
	uint8_t buf[sizeof(real_beacon)];
	struct wbuf w = wbuf_init(buf, sizeof(buf));

	ck_assert_int_eq(mgmt_parse(real_beacon, sizeof(real_beacon), &f), CODEC_OK);
	ck_assert_int_eq(mgmt_build(&w, &f), CODEC_OK);
	ck_assert_uint_eq(w.len, sizeof(real_beacon));
	ck_assert_mem_eq(buf, real_beacon, sizeof(real_beacon));
}
END_TEST

/* ---- data frames ------------------------------------------------------- */

static void data_round_trip(uint16_t fc, uint16_t qos_ctrl, struct data_hdr *p, size_t *hdr_len)
{
	static const uint8_t payload[] = { 0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x88, 0x8e };
	struct data_hdr h = { 0 };
	uint8_t buf[128];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	static const uint8_t a4[6] = { 0x02, 4, 4, 4, 4, 4 };

	h.fc = fc;
	h.addr1 = ap_addr;
	h.addr2 = sta_addr;
	h.addr3 = old_ap;
	h.addr4 = a4;
	h.seq_ctrl = 0x0450;
	h.qos_ctrl = qos_ctrl;
	h.htc = 0x11223344;
	ck_assert_int_eq(data_hdr_build(&w, &h), CODEC_OK);
	ck_assert_uint_eq(w.len, data_hdr_len(fc));
	*hdr_len = w.len;
	bool nodata = IEEE80211_FC_GET_SUBTYPE(fc) & IEEE80211_STYPE_NODATA_BIT;
	if (!nodata)
		wbuf_put(&w, payload, sizeof(payload));
	ck_assert_int_eq(data_hdr_parse(buf, w.len, p), CODEC_OK);
	ck_assert_uint_eq(p->hdr_len, *hdr_len);
	ck_assert_uint_eq(p->body_len, nodata ? 0 : sizeof(payload));
	ck_assert_mem_eq(p->addr1, ap_addr, 6);
	ck_assert_mem_eq(p->addr2, sta_addr, 6);
	ck_assert_mem_eq(p->addr3, old_ap, 6);
	ck_assert_uint_eq(p->seq_ctrl, 0x0450);

	uint8_t again[128];
	struct wbuf w2 = wbuf_init(again, sizeof(again));
	ck_assert_int_eq(data_hdr_build(&w2, p), CODEC_OK);
	ck_assert_mem_eq(again, buf, *hdr_len);
}

START_TEST(test_data_address_mapping)
{
	struct data_hdr p;
	size_t n;
	const uint16_t data = IEEE80211_FC(IEEE80211_FTYPE_DATA, IEEE80211_STYPE_DATA);

	data_round_trip(data, 0, &p, &n); /* IBSS */
	ck_assert_uint_eq(n, 24);
	ck_assert_ptr_eq(p.da, p.addr1);
	ck_assert_ptr_eq(p.sa, p.addr2);
	ck_assert_ptr_eq(p.bssid, p.addr3);

	data_round_trip(data | IEEE80211_FC_FROMDS, 0, &p, &n); /* AP -> STA */
	ck_assert_ptr_eq(p.da, p.addr1);
	ck_assert_ptr_eq(p.bssid, p.addr2);
	ck_assert_ptr_eq(p.sa, p.addr3);

	data_round_trip(data | IEEE80211_FC_TODS, 0, &p, &n); /* STA -> AP */
	ck_assert_ptr_eq(p.bssid, p.addr1);
	ck_assert_ptr_eq(p.sa, p.addr2);
	ck_assert_ptr_eq(p.da, p.addr3);
	ck_assert_ptr_eq(p.ra, p.addr1);
	ck_assert_ptr_eq(p.ta, p.addr2);

	data_round_trip(data | IEEE80211_FC_TODS | IEEE80211_FC_FROMDS, 0, &p, &n); /* WDS */
	ck_assert_uint_eq(n, 30);
	ck_assert_ptr_eq(p.da, p.addr3);
	ck_assert_ptr_eq(p.sa, p.addr4);
	ck_assert_ptr_null(p.bssid);
}
END_TEST

START_TEST(test_data_qos_amsdu_htc)
{
	struct data_hdr p;
	size_t n;
	const uint16_t qos = IEEE80211_FC(IEEE80211_FTYPE_DATA, IEEE80211_STYPE_QOS_DATA);

	data_round_trip(qos | IEEE80211_FC_TODS, 0x0006, &p, &n);
	ck_assert_uint_eq(n, 26);
	ck_assert(p.qos);
	ck_assert_uint_eq(p.tid, 6);
	ck_assert(!p.amsdu);

	/* A-MSDU: DA/SA are per subframe. */
	data_round_trip(qos | IEEE80211_FC_FROMDS, IEEE80211_QOS_AMSDU_PRESENT | 5, &p, &n);
	ck_assert(p.amsdu);
	ck_assert_uint_eq(p.tid, 5);
	ck_assert_ptr_null(p.sa);
	ck_assert_ptr_eq(p.da, p.addr1);

	data_round_trip(qos | IEEE80211_FC_TODS | IEEE80211_FC_FROMDS, IEEE80211_QOS_AMSDU_PRESENT,
			&p, &n);
	ck_assert_ptr_eq(p.bssid, p.addr3);
	ck_assert_ptr_null(p.da);
	ck_assert_ptr_null(p.sa);

	/* +HTC only for QoS data: 24 + 2 + 4 */
	data_round_trip(qos | IEEE80211_FC_ORDER, 0, &p, &n);
	ck_assert_uint_eq(n, 30);
	ck_assert(p.has_htc);
	ck_assert_uint_eq(p.htc, 0x11223344);

	/* Order bit on non-QoS data is not +HTC */
	data_round_trip(IEEE80211_FC(IEEE80211_FTYPE_DATA, 0) | IEEE80211_FC_ORDER, 0, &p, &n);
	ck_assert_uint_eq(n, 24);
	ck_assert(!p.has_htc);

	/* 4 addresses, QoS and HTC: 24 + 6 + 2 + 4 */
	data_round_trip(qos | IEEE80211_FC_TODS | IEEE80211_FC_FROMDS | IEEE80211_FC_ORDER, 1, &p,
			&n);
	ck_assert_uint_eq(n, 36);

	data_round_trip(IEEE80211_FC(IEEE80211_FTYPE_DATA, IEEE80211_STYPE_QOS_NULLFUNC) |
				IEEE80211_FC_TODS,
			7, &p, &n);
	ck_assert_uint_eq(p.body_len, 0);
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(ieee80211_status_name(WLAN_STATUS_SUCCESS), "success");
	ck_assert_str_eq(ieee80211_status_name(WLAN_STATUS_ANTI_CLOGGING_TOKEN_REQ),
			 "anti-clogging token required");
	ck_assert_str_eq(ieee80211_status_name(9999), "unknown");
	ck_assert_str_eq(ieee80211_reason_name(WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT),
			 "4-way handshake timeout");
	ck_assert_str_eq(ieee80211_reason_name(0), "unknown");
	ck_assert_str_eq(codec_strerror(CODEC_OK), "ok");
	ck_assert_str_eq(codec_strerror(CODEC_E_OVERRUN), "length runs past end of buffer");
	ck_assert_str_eq(codec_strerror(-100), "unknown codec error");
	/* every defined error has its own text */
	for (int a = CODEC_E_INVALID_ARG; a <= CODEC_OK; a++)
		for (int b = a + 1; b <= CODEC_OK; b++)
			ck_assert_str_ne(codec_strerror(a), codec_strerror(b));
}
END_TEST

START_TEST(test_action_build_roundtrip)
{
	static const uint8_t da[6] = { 2, 0, 0, 0, 0, 1 }, sa[6] = { 2, 0, 0, 0, 0, 2 };
	static const uint8_t action[] = { 8, 0, 0x12, 0x34 }; /* SA Query request */
	uint8_t buf[64];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct mgmt_frame f;
	ck_assert_int_eq(mgmt_build_action(&w, da, sa, da, action, sizeof(action)), 0);
	ck_assert_uint_eq(w.len, IEEE80211_MGMT_HDR_LEN + sizeof(action));
	ck_assert_int_eq(mgmt_parse(buf, w.len, &f), 0);
	ck_assert_uint_eq(f.subtype, IEEE80211_STYPE_ACTION);
	ck_assert_mem_eq(f.da, da, 6);
	ck_assert_mem_eq(f.sa, sa, 6);
	ck_assert_uint_eq(f.u.action.category, 8);
	ck_assert_mem_eq(f.body, action, sizeof(action));
	struct wbuf w2 = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(mgmt_build_action(&w2, da, sa, da, action, 0), CODEC_E_INVALID_ARG);
}
END_TEST

Suite *make_codec_frame_suite(void)
{
	Suite *s = suite_create("codec_frame");
	TCase *tc = tcase_create("mgmt");

	tcase_add_test(tc, test_beacon_round_trip);
	tcase_add_test(tc, test_probe_req_resp_round_trip);
	tcase_add_test(tc, test_auth_round_trip);
	tcase_add_test(tc, test_auth_sae_body_is_opaque);
	tcase_add_test(tc, test_assoc_round_trip);
	tcase_add_test(tc, test_deauth_disassoc_action_round_trip);
	tcase_add_test(tc, test_protected_and_htc);
	tcase_add_test(tc, test_protected_deauth_as_delivered);
	tcase_add_test(tc, test_mgmt_build_errors);
	tcase_add_test(tc, test_real_beacon_fields);
	tcase_add_test(tc, test_real_beacon_rebuild_identical);
	suite_add_tcase(s, tc);

	tc = tcase_create("data");
	tcase_add_test(tc, test_data_address_mapping);
	tcase_add_test(tc, test_data_qos_amsdu_htc);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_action_build_roundtrip);
	suite_add_tcase(s, tc);
	return s;
}
