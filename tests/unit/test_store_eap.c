/* An 802.1X known network's profile in the store (daemon/store/
 * known_network.h): the [EAP] keys kept and read back by the one reader,
 * secrets held in memory only (never in the file) filling what the file
 * lacks, copies carrying them, and a replaced profile leaving nothing of
 * the old one. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/config/eap_conf.h"
#include "daemon/store/known_store.h"

static char dir[64];
static struct known_store *store;

static void setup(void)
{
	strcpy(dir, "/tmp/wpad-store-eap-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(known_store_open(dir, &store), 0);
}

static void teardown(void)
{
	char cmd[128];
	known_store_free(store);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static char *file_text(void)
{
	static char buf[4096];
	char path[160];
	/* "corp" in the store's naming: plain name, .8021x */
	snprintf(path, sizeof(path), "%s/corp.8021x", dir);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void add_peap(struct known_network *net)
{
	known_network_init(net, (const uint8_t *)"corp", 4, KNOWN_SEC_8021X);
	ck_assert_int_eq(known_network_add_extra(net, "EAP", "Method", "PEAP"), 0);
	ck_assert_int_eq(known_network_add_extra(net, "EAP", "Identity", "alice"), 0);
	ck_assert_int_eq(known_network_add_extra(net, "EAP", "Phase2", "MSCHAPV2"), 0);
	ck_assert_int_eq(known_network_add_extra(net, "EAP", "CACert", "/etc/ca.pem"), 0);
}

START_TEST(memory_secret_not_written)
{
	struct known_network net;
	struct eap_conf c;
	struct cfg_error err;
	add_peap(&net);
	ck_assert_int_eq(known_network_set_mem_secret(&net, "Password", "s3cret"), 0);
	ck_assert_int_eq(known_network_set_mem_secret(&net, "Nope", "x"), -EINVAL);
	struct known_network *saved = NULL;
	ck_assert_int_eq(known_store_save(store, &net, &saved), 0);
	known_network_clear(&net);
	ck_assert(strstr(file_text(), "Identity=alice"));
	ck_assert_ptr_null(strstr(file_text(), "s3cret"));
	ck_assert_ptr_null(strstr(file_text(), "Password"));
	/* The store's copy still has it, and the reader sees it. */
	ck_assert_int_eq(known_network_eap(saved, &c, &err), 0);
	ck_assert_str_eq(c.password, "s3cret");
	ck_assert_str_eq(c.methods[0], "PEAP");
	ck_assert_ptr_null(c.key_passphrase);
	eap_conf_clear(&c);
	/* A copy carries it; dropping it leaves the profile without. */
	struct known_network copy;
	ck_assert_int_eq(known_network_copy(&copy, saved), 0);
	ck_assert_str_eq(copy.mem_password, "s3cret");
	ck_assert_int_eq(known_network_set_mem_secret(&copy, "Password", NULL), 0);
	ck_assert_int_eq(known_network_eap(&copy, &c, &err), 0);
	ck_assert_ptr_null(c.password);
	eap_conf_clear(&c);
	known_network_clear(&copy);
	/* After a restart (a new load) the secret is gone. */
	known_store_free(store);
	ck_assert_int_eq(known_store_open(dir, &store), 0);
	ck_assert_int_eq(known_store_load(store), 1);
	saved = known_store_get(store, (const uint8_t *)"corp", 4, KNOWN_SEC_8021X);
	ck_assert_ptr_nonnull(saved);
	ck_assert_int_eq(known_network_eap(saved, &c, &err), 0);
	ck_assert_ptr_null(c.password);
	eap_conf_clear(&c);
}
END_TEST

START_TEST(stored_secret_wins_and_replace)
{
	struct known_network net;
	struct eap_conf c;
	struct cfg_error err;
	add_peap(&net);
	ck_assert_int_eq(known_network_add_extra(&net, "EAP", "Password", "filed"), 0);
	ck_assert_int_eq(known_network_set_mem_secret(&net, "Password", "memory"), 0);
	ck_assert_int_eq(known_network_eap(&net, &c, &err), 0);
	ck_assert_str_eq(c.password, "filed");
	eap_conf_clear(&c);
	/* Replacing the profile: the old [EAP] keys go. */
	known_network_drop_section(&net, "EAP");
	ck_assert_int_eq(known_network_eap(&net, &c, &err), -ENOENT);
	ck_assert_int_eq(known_network_add_extra(&net, "EAP", "Method", "TTLS"), 0);
	ck_assert_int_eq(known_network_add_extra(&net, "EAP", "Identity", "bob"), 0);
	ck_assert_int_eq(known_network_eap(&net, &c, &err), CFG_E_MISSING_KEY);
	ck_assert(strstr(err.msg, "Phase2"));
	known_network_clear(&net);
}
END_TEST

Suite *make_store_eap_suite(void)
{
	Suite *s = suite_create("store_eap");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, memory_secret_not_written);
	tcase_add_test(tc, stored_secret_wins_and_replace);
	suite_add_tcase(s, tc);
	return s;
}
