/* The hotspot check of the fi.w1.wpa_supplicant1 front (dbus/wpas_ap.c):
 * a mode=2 network block as NetworkManager sends it turned into wpad's
 * access point profile, and a table of blocks wpad cannot run, each
 * refused with the key named. The first row is the block captured from the
 * real NetworkManager 1.42 (docs/nm.md). */
#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/suites.h"
#include "dbus/wpas_i.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

struct row {
	const char *what;
	int mode;
	const char *ssid;
	uint32_t freq;
	const char *key_mgmt, *psk, *proto, *pairwise, *group;
	int ieee80211w; /* -1: not given */
	const char *says; /* NULL: accepted; else a piece of the refusal */
};

#define NM_KM "WPA-PSK WPA-PSK-SHA256 SAE"
#define PASS "hotspot passphrase"
#define HEX64 "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

static const struct row rows[] = {
	/* accepted */
	{ "NetworkManager 1.42's hotspot", 2, "nm", 2462, NM_KM, PASS, "RSN", "CCMP", "CCMP", -1, NULL },
	{ "open hotspot", 2, "nm", 2412, "NONE", NULL, NULL, NULL, NULL, -1, NULL },
	{ "raw PSK next to SAE: SAE left out", 2, "nm", 2437, NM_KM, HEX64, "RSN", "CCMP", "CCMP", -1, NULL },
	{ "5 GHz channel 36", 2, "nm", 5180, "WPA-PSK", PASS, "RSN", "CCMP", "CCMP", -1, NULL },
	{ "no frequency: the band's default", 2, "nm", 0, "WPA-PSK", PASS, NULL, NULL, NULL, -1, NULL },
	{ "CCMP and TKIP: TKIP left out", 2, "nm", 2412, "WPA-PSK", PASS, "WPA RSN", "CCMP TKIP", "CCMP", -1, NULL },
	{ "WPA3-Personal, PMF required", 2, "nm", 2412, "SAE", PASS, "RSN", "CCMP", "CCMP", 2, NULL },
	{ "no key_mgmt with a psk: WPA-PSK", 2, "nm", 2412, "", PASS, NULL, NULL, NULL, -1, NULL },
	{ "a station network is not checked here", 0, "sta", 0, "WPA-EAP", NULL, NULL, NULL, NULL, -1, NULL },
	/* refused */
	{ "IBSS", 1, "nm", 2412, "NONE", NULL, NULL, NULL, NULL, -1, "IBSS" },
	{ "mesh", 5, "nm", 2412, "SAE", PASS, NULL, NULL, NULL, -1, "mesh" },
	{ "P2P group owner mode", 3, "nm", 2412, "WPA-PSK", PASS, NULL, NULL, NULL, -1, "mode" },
	{ "802.1X", 2, "nm", 2412, "WPA-EAP", PASS, NULL, NULL, NULL, -1, "WPA-EAP" },
	{ "FT-PSK", 2, "nm", 2412, "WPA-PSK FT-PSK", PASS, NULL, NULL, NULL, -1, "FT-PSK" },
	{ "OWE", 2, "nm", 2412, "OWE", NULL, NULL, NULL, NULL, -1, "OWE" },
	{ "no passphrase", 2, "nm", 2412, NM_KM, NULL, NULL, NULL, NULL, -1, "psk" },
	{ "7 characters", 2, "nm", 2412, "WPA-PSK", "1234567", NULL, NULL, NULL, -1, "Passphrase" },
	{ "a control character", 2, "nm", 2412, "WPA-PSK", "pass\tphrase", NULL, NULL, NULL, -1, "Passphrase" },
	{ "2000 MHz", 2, "nm", 2000, "WPA-PSK", PASS, NULL, NULL, NULL, -1, "frequency" },
	{ "2413 MHz (off the raster)", 2, "nm", 2413, "WPA-PSK", PASS, NULL, NULL, NULL, -1, "frequency" },
	{ "5185 MHz: channel 37", 2, "nm", 5185, "WPA-PSK", PASS, NULL, NULL, NULL, -1, "hannel" },
	{ "WPA1 alone", 2, "nm", 2412, "WPA-PSK", PASS, "WPA", NULL, NULL, -1, "RSN" },
	{ "an unknown proto", 2, "nm", 2412, "WPA-PSK", PASS, "RSN FOO", NULL, NULL, -1, "proto" },
	{ "TKIP alone", 2, "nm", 2412, "WPA-PSK", PASS, "RSN", "TKIP", "CCMP", -1, "TKIP" },
	{ "WEP pairwise", 2, "nm", 2412, "WPA-PSK", PASS, "RSN", "WEP104", "CCMP", -1, "pairwise" },
	{ "TKIP group", 2, "nm", 2412, "WPA-PSK", PASS, "RSN", "CCMP", "TKIP", -1, "group" },
	{ "SAE alone with a raw PSK", 2, "nm", 2412, "SAE", HEX64, NULL, NULL, NULL, -1, "SAE" },
	{ "SAE alone without PMF", 2, "nm", 2412, "SAE", PASS, NULL, NULL, NULL, 0, "SAE" },
	{ "NONE next to WPA-PSK", 2, "nm", 2412, "NONE WPA-PSK", PASS, NULL, NULL, NULL, -1, "NONE" },
	{ "NONE with a psk", 2, "nm", 2412, "NONE", PASS, NULL, NULL, NULL, -1, "psk" },
	{ "no SSID", 2, "", 2412, "WPA-PSK", PASS, NULL, NULL, NULL, -1, "ssid" },
	{ "ieee80211w 3", 2, "nm", 2412, "WPA-PSK", PASS, NULL, NULL, NULL, 3, "ieee80211w" },
};

static void fill(struct wpas_net *n, const struct row *r)
{
	memset(n, 0, sizeof(*n));
	n->mode = r->mode;
	n->ssid_len = strlen(r->ssid);
	memcpy(n->ssid, r->ssid, n->ssid_len);
	n->frequency = r->freq;
	n->ieee80211w = r->ieee80211w;
	snprintf(n->key_mgmt, sizeof(n->key_mgmt), "%s", r->key_mgmt ? r->key_mgmt : "");
	if (r->psk) {
		snprintf(n->psk, sizeof(n->psk), "%s", r->psk);
		n->have_psk = true;
	}
	snprintf(n->proto, sizeof(n->proto), "%s", r->proto ? r->proto : "");
	snprintf(n->pairwise, sizeof(n->pairwise), "%s", r->pairwise ? r->pairwise : "");
	snprintf(n->group, sizeof(n->group), "%s", r->group ? r->group : "");
}

START_TEST(hotspot_table)
{
	const struct row *r = &rows[_i];
	struct wpas_net n;
	struct wpad_error e;
	fill(&n, r);
	memset(&e, 0, sizeof(e));
	int rc = wpas_ap_check(&n, &e);
	if (!r->says) {
		ck_assert_msg(rc == 0, "%s: refused: %s", r->what, e.text);
		return;
	}
	ck_assert_msg(rc < 0, "%s: accepted", r->what);
	ck_assert_msg(strstr(e.text, r->says) != NULL, "%s: '%s' does not say '%s'", r->what, e.text,
		      r->says);
	ck_assert_msg(e.code != WPAD_OK, "%s: no error code", r->what);
}
END_TEST

/* The SAE rows above assume wpad's SAE (else SAE is refused earlier). */
START_TEST(sae_is_implemented)
{
	ck_assert(rsn_akm_implemented(RSN_AKM_SAE));
}
END_TEST

Suite *make_dbus_wpas_ap_suite(void)
{
	Suite *s = suite_create("dbus_wpas_ap");
	TCase *tc = tcase_create("hotspot");
	tcase_add_loop_test(tc, hotspot_table, 0, (int)(sizeof(rows) / sizeof(rows[0])));
	tcase_add_test(tc, sae_is_implemented);
	suite_add_tcase(s, tc);
	return s;
}
