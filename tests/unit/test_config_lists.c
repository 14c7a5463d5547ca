/* MAC allow/deny lists and the per-station PSK file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/config/macfile.h"
#include "daemon/config/pskfile.h"
#include "daemon/crypto/kdf.h"

static const uint8_t sta1[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t sta2[6] = { 0x02, 0x22, 0x33, 0x44, 0x55, 0x66 };
static const uint8_t sta3[6] = { 0x02, 0x99, 0x99, 0x99, 0x99, 0x99 };

START_TEST(macfile_parses)
{
	static const char text[] = "# allowed\n"
				   "02:11:22:33:44:55\n"
				   "  02:22:33:44:55:66  \r\n"
				   "\n"
				   "02:11:22:33:44:55\n"; /* duplicate: harmless */
	struct mac_set *set;
	struct cfg_error err;
	ck_assert_int_eq(macfile_parse(text, strlen(text), "allow", &set, &err), 0);
	ck_assert_uint_eq(mac_set_count(set), 2);
	ck_assert(mac_set_contains(set, sta1));
	ck_assert(mac_set_contains(set, sta2));
	ck_assert(!mac_set_contains(set, sta3));
	mac_set_free(set);
}
END_TEST

START_TEST(macfile_errors)
{
	struct mac_set *set = NULL;
	struct cfg_error err;
	static const char bad[] = "02:11:22:33:44:55\n02:11:22:33:44\n";
	ck_assert_int_eq(macfile_parse(bad, strlen(bad), "allow", &set, &err), CFG_E_BAD_MAC);
	ck_assert_str_eq(
		err.msg,
		"allow:2: '02:11:22:33:44' is not a MAC address (expected aa:bb:cc:dd:ee:ff)");
	static const char group[] = "01:00:5e:00:00:01\n";
	ck_assert_int_eq(macfile_parse(group, strlen(group), "allow", &set, &err), CFG_E_BAD_MAC);
	ck_assert_ptr_nonnull(strstr(err.msg, "group address"));
	static const char trailing[] = "02:11:22:33:44:55 # me\n";
	ck_assert_int_eq(macfile_parse(trailing, strlen(trailing), "allow", &set, &err),
			 CFG_E_BAD_MAC);
	ck_assert_ptr_null(set);
}
END_TEST

/* The sorted set must find every member and no neighbour, including
 * addresses that share all but one octet (a one-octet hash would collide). */
START_TEST(mac_set_many)
{
	struct mac_set *set = mac_set_new();
	uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0 };
	for (unsigned i = 0; i < 3000; i += 3) {
		mac[4] = (uint8_t)(i >> 8);
		mac[5] = (uint8_t)i;
		ck_assert_int_eq(mac_set_add(set, mac), 0);
	}
	ck_assert_uint_eq(mac_set_count(set), 1000);
	for (unsigned i = 0; i < 3000; i++) {
		mac[4] = (uint8_t)(i >> 8);
		mac[5] = (uint8_t)i;
		ck_assert_int_eq(mac_set_contains(set, mac), i % 3 == 0);
	}
	ck_assert(!mac_set_contains(NULL, mac));
	mac_set_free(set);
}
END_TEST

START_TEST(pskfile_parses)
{
	static const char text[] =
		"# per-station keys\n"
		"00:00:00:00:00:00 secret passphrase\n"
		"02:11:22:33:44:55 another passphrase\n"
		"02:22:33:44:55:66 "
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
		"keyid=guest vlanid=3 wps=1 00:00:00:00:00:00 guest passphrase  \n";
	struct pskfile *pf;
	struct cfg_error err;
	ck_assert_int_eq(pskfile_parse(text, strlen(text), "psk", &pf, &err), 0);
	ck_assert_uint_eq(pf->n_entries, 4);
	ck_assert(pf->entries[0].any);
	ck_assert_str_eq(pf->entries[0].passphrase, "secret passphrase");
	ck_assert(!pf->entries[1].any);
	ck_assert_str_eq(pf->entries[1].passphrase, "another passphrase");
	ck_assert(pf->entries[2].has_psk);
	ck_assert_uint_eq(pf->entries[2].psk[0], 0x01);
	ck_assert_str_eq(pf->entries[3].keyid, "guest");
	ck_assert_uint_eq(pf->entries[3].vlan_id, 3);
	ck_assert(pf->entries[3].wps);
	/* As hostapd: the key runs to the line end, trailing spaces included. */
	ck_assert_str_eq(pf->entries[3].passphrase, "guest passphrase  ");
	ck_assert_uint_eq(pf->entries[3].line, 5);

	const struct pskfile_entry *m[8];
	ck_assert_uint_eq(pskfile_match(pf, sta1, m, 8), 3);
	ck_assert_ptr_eq(m[0], &pf->entries[1]); /* own entry first */
	ck_assert_ptr_eq(m[1], &pf->entries[0]);
	ck_assert_ptr_eq(m[2], &pf->entries[3]);
	ck_assert_uint_eq(pskfile_match(pf, sta3, m, 8), 2);
	ck_assert_uint_eq(pskfile_match(pf, sta1, m, 1), 1);

	uint8_t want[32];
	ck_assert_int_eq(
		crypto_psk_from_passphrase("another passphrase", (const uint8_t *)"lab", 3, want),
		0);
	ck_assert_int_eq(pskfile_derive(pf, (const uint8_t *)"lab", 3), 0);
	ck_assert(pf->entries[1].has_psk);
	ck_assert_mem_eq(pf->entries[1].psk, want, 32);
	ck_assert_str_eq(pf->entries[1].passphrase, ""); /* wiped once stretched */
	ck_assert_uint_eq(pf->entries[2].psk[0], 0x01); /* raw keys untouched */
	pskfile_free(pf);
}
END_TEST

struct psk_bad {
	const char *text;
	int code;
	unsigned line;
};

static const struct psk_bad psk_bad[] = {
	{ "02:11:22:33:44:55 short\n", CFG_E_BAD_PASSPHRASE, 1 },
	{ "# c\n02:11:22:33:44:55 "
	  "0123456789012345678901234567890123456789012345678901234567890123x\n",
	  CFG_E_BAD_PASSPHRASE, 2 },
	{ "02:11:22:33:44:55\n", CFG_E_SYNTAX, 1 },
	{ "02:11:22:33:44:55 \n", CFG_E_BAD_PASSPHRASE, 1 },
	{ "02:11:22:33:44 passphrase1\n", CFG_E_BAD_MAC, 1 },
	{ "01:11:22:33:44:55 passphrase1\n", CFG_E_BAD_MAC, 1 },
	{ "vlanid=0 02:11:22:33:44:55 passphrase1\n", CFG_E_OUT_OF_RANGE, 1 },
	{ "keyid= 02:11:22:33:44:55 passphrase1\n", CFG_E_BAD_VALUE, 1 },
	{ "color=red 02:11:22:33:44:55 passphrase1\n", CFG_E_SYNTAX, 1 },
	{ "02:11:22:33:44:55 caf\xc3\xa9 passphrase\n", CFG_E_BAD_PASSPHRASE, 1 },
};

START_TEST(pskfile_errors)
{
	const struct psk_bad *c = &psk_bad[_i];
	struct pskfile *pf = NULL;
	struct cfg_error err;
	ck_assert_int_eq(pskfile_parse(c->text, strlen(c->text), "psk", &pf, &err), c->code);
	ck_assert_uint_eq(err.line, c->line);
	ck_assert_ptr_null(pf);
}
END_TEST

START_TEST(files_from_disk)
{
	char dir[] = "/tmp/wpad-lists-XXXXXX", path[128];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/deny", dir);
	FILE *f = fopen(path, "w");
	fputs("02:11:22:33:44:55\n", f);
	fclose(f);
	struct mac_set *set;
	struct cfg_error err;
	ck_assert_int_eq(macfile_load(path, &set, &err), 0);
	ck_assert(mac_set_contains(set, sta1));
	mac_set_free(set);
	unlink(path);
	ck_assert_int_eq(macfile_load(path, &set, &err), CFG_E_IO);
	ck_assert_ptr_nonnull(strstr(err.msg, "No such file"));
	struct pskfile *pf;
	ck_assert_int_eq(pskfile_load(dir, &pf, &err), CFG_E_NOT_REGULAR);
	ck_assert_int_eq(pskfile_load("/dev/null", &pf, &err), CFG_E_NOT_REGULAR);
	rmdir(dir);
}
END_TEST

Suite *make_config_lists_suite(void)
{
	Suite *s = suite_create("config_lists");
	TCase *tc = tcase_create("lists");
	tcase_add_test(tc, macfile_parses);
	tcase_add_test(tc, macfile_errors);
	tcase_add_test(tc, mac_set_many);
	tcase_add_test(tc, pskfile_parses);
	tcase_add_loop_test(tc, pskfile_errors, 0, (int)(sizeof(psk_bad) / sizeof(psk_bad[0])));
	tcase_add_test(tc, files_from_disk);
	suite_add_tcase(s, tc);
	return s;
}
