/* The known-networks store: round trips, PSK caching, modes, forgetting,
 * bad files skipped, preference order. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/core/log.h"
#include "daemon/crypto/kdf.h"
#include "daemon/store/known_store.h"

static char dir[64];
static char logbuf[8192];
static struct known_store *store;
static int psk_calls;

static void capture(enum log_level level, const char *tag, const char *line, void *data)
{
	size_t used = strlen(logbuf);
	snprintf(logbuf + used, sizeof(logbuf) - used, "%s|%s\n", tag, line);
}

static int counting_psk(const char *pass, const uint8_t *ssid, size_t len, uint8_t psk[32])
{
	psk_calls++;
	return crypto_psk_from_passphrase(pass, ssid, len, psk);
}

static void setup(void)
{
	strcpy(dir, "/tmp/wpad-store-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	strcat(dir, "/state"); /* the store creates its own directory */
	logbuf[0] = '\0';
	log_set_sink(capture, NULL);
	psk_calls = 0;
	ck_assert_int_eq(known_store_open(dir, &store), 0);
	known_store_set_psk_fn(store, counting_psk);
}

static void teardown(void)
{
	char cmd[128];
	known_store_free(store);
	log_set_sink(NULL, NULL);
	*strrchr(dir, '/') = '\0';
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void write_raw(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static char *read_raw(const char *name)
{
	static char buf[4096];
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static struct known_store *reopen(void)
{
	known_store_free(store);
	ck_assert_int_eq(known_store_open(dir, &store), 0);
	known_store_set_psk_fn(store, counting_psk);
	ck_assert_int_ge(known_store_load(store), 0);
	return store;
}

static void save_psk(const char *ssid, const char *pass)
{
	struct known_network net;
	known_network_init(&net, (const uint8_t *)ssid, strlen(ssid), KNOWN_SEC_PSK);
	ck_assert_int_eq(known_network_set_passphrase(&net, pass), 0);
	ck_assert_int_eq(known_store_save(store, &net, NULL), 0);
	known_network_clear(&net);
}

START_TEST(round_trip)
{
	struct known_network net, *got;
	static const uint8_t odd[] = { 0xf0, 0x9f, 0x93, 0xb6, '/', 0x00 };
	known_network_init(&net, odd, sizeof(odd), KNOWN_SEC_PSK);
	ck_assert_int_eq(known_network_set_passphrase(&net, " spaced \\ pass# "), 0);
	net.hidden = true;
	net.autoconnect = false;
	known_network_touch(&net, 2412, 1700000000);
	known_network_touch(&net, 5180, 1700000100);
	ck_assert_int_eq(known_store_save(store, &net, &got), 0);
	ck_assert_ptr_nonnull(got);
	known_network_clear(&net);
	known_network_init(&net, (const uint8_t *)"cafe", 4, KNOWN_SEC_OPEN);
	ck_assert_int_eq(known_store_save(store, &net, NULL), 0);
	known_network_clear(&net);

	ck_assert_ptr_nonnull(read_raw("=f09f93b62f00.psk"));
	ck_assert_ptr_nonnull(read_raw("cafe.open"));
	reopen();
	ck_assert_uint_eq(known_store_count(store), 2);
	got = known_store_get(store, odd, sizeof(odd), KNOWN_SEC_PSK);
	ck_assert_ptr_nonnull(got);
	ck_assert(got->has_passphrase);
	ck_assert_str_eq(got->passphrase, " spaced \\ pass# ");
	ck_assert(got->hidden && !got->autoconnect);
	ck_assert_uint_eq(got->last_connected, 1700000100);
	ck_assert_uint_eq(got->n_freqs, 2);
	ck_assert_uint_eq(got->freqs[0], 5180);
	ck_assert_uint_eq(got->freqs[1], 2412);
	ck_assert_ptr_null(known_store_get(store, odd, sizeof(odd), KNOWN_SEC_OPEN));
	got = known_store_get(store, (const uint8_t *)"cafe", 4, KNOWN_SEC_OPEN);
	ck_assert(got && got->autoconnect && !got->hidden && got->last_connected == 0);
	ck_assert_str_eq(read_raw("cafe.open"), "[Settings]\nAutoConnect=true\nHidden=false\n");
}
END_TEST

START_TEST(psk_computed_once)
{
	uint8_t psk[32], want[32];
	save_psk("home", "correct horse battery");
	ck_assert_int_eq(crypto_psk_from_passphrase("correct horse battery",
						    (const uint8_t *)"home", 4, want),
			 0);
	struct known_network *net =
		known_store_get(store, (const uint8_t *)"home", 4, KNOWN_SEC_PSK);
	ck_assert(!net->psk_valid);
	ck_assert_int_eq(known_store_get_psk(store, net, psk), 0);
	ck_assert_mem_eq(psk, want, 32);
	ck_assert_int_eq(psk_calls, 1);
	ck_assert_int_eq(known_store_get_psk(store, net, psk), 0);
	ck_assert_int_eq(psk_calls, 1);
	char *text = read_raw("home.psk");
	ck_assert_ptr_nonnull(strstr(text, "PreSharedKey="));
	ck_assert_ptr_nonnull(strstr(text, "PreSharedKeyCheck="));

	/* Across restarts the cache is reused. */
	reopen();
	net = known_store_get(store, (const uint8_t *)"home", 4, KNOWN_SEC_PSK);
	ck_assert(net->psk_valid);
	ck_assert_int_eq(known_store_get_psk(store, net, psk), 0);
	ck_assert_mem_eq(psk, want, 32);
	ck_assert_int_eq(psk_calls, 1);

	/* A new passphrase drops the cache. */
	ck_assert_int_eq(known_network_set_passphrase(net, "another passphrase"), 0);
	ck_assert_int_eq(known_store_get_psk(store, net, psk), 0);
	ck_assert_int_eq(psk_calls, 2);
	ck_assert_int_eq(
		crypto_psk_from_passphrase("another passphrase", (const uint8_t *)"home", 4, want),
		0);
	ck_assert_mem_eq(psk, want, 32);
}
END_TEST

/* Someone edits the passphrase or copies the file to another SSID by hand:
 * the stale cache must not be used. */
START_TEST(stale_cache_recomputed)
{
	uint8_t psk[32], want[32];
	save_psk("home", "correct horse battery");
	struct known_network *net =
		known_store_get(store, (const uint8_t *)"home", 4, KNOWN_SEC_PSK);
	ck_assert_int_eq(known_store_get_psk(store, net, psk), 0);
	char text[4096];
	strcpy(text, read_raw("home.psk"));
	/* Same file under another SSID. */
	write_raw("work.psk", text);
	/* Passphrase edited, cache left. */
	char *p = strstr(text, "correct horse battery");
	memcpy(p, "CORRECT", 7);
	write_raw("home.psk", text);
	reopen();
	ck_assert_int_eq(psk_calls, 1);
	net = known_store_get(store, (const uint8_t *)"home", 4, KNOWN_SEC_PSK);
	ck_assert(!net->psk_valid);
	ck_assert_int_eq(known_store_get_psk(store, net, psk), 0);
	ck_assert_int_eq(crypto_psk_from_passphrase("CORRECT horse battery",
						    (const uint8_t *)"home", 4, want),
			 0);
	ck_assert_mem_eq(psk, want, 32);
	net = known_store_get(store, (const uint8_t *)"work", 4, KNOWN_SEC_PSK);
	ck_assert(!net->psk_valid);
	ck_assert_int_eq(known_store_get_psk(store, net, psk), 0);
	ck_assert_int_eq(psk_calls, 3);

	/* A PreSharedKey alone is the user's key, used as it is. */
	write_raw("raw.psk", "[Security]\nPreSharedKey="
			     "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n");
	reopen();
	net = known_store_get(store, (const uint8_t *)"raw", 3, KNOWN_SEC_PSK);
	ck_assert_int_eq(known_store_get_psk(store, net, psk), 0);
	ck_assert_uint_eq(psk[1], 0x11);
	ck_assert_int_eq(psk_calls, 3);
}
END_TEST

START_TEST(modes)
{
	struct stat st;
	char path[256];
	ck_assert_int_eq(stat(dir, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	mode_t old = umask(0);
	save_psk("home", "correct horse battery");
	umask(old);
	snprintf(path, sizeof(path), "%s/home.psk", dir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	/* An existing directory that is too open is tightened. */
	ck_assert_int_eq(chmod(dir, 0755), 0);
	reopen();
	ck_assert_int_eq(stat(dir, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	ck_assert_ptr_nonnull(strstr(logbuf, "setting 0700"));
}
END_TEST

START_TEST(forget_removes)
{
	char path[256];
	save_psk("home", "correct horse battery");
	save_psk("work", "correct horse battery");
	snprintf(path, sizeof(path), "%s/home.psk", dir);
	ck_assert_int_eq(access(path, F_OK), 0);
	ck_assert_int_eq(known_store_forget(store, (const uint8_t *)"home", 4, KNOWN_SEC_PSK), 0);
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_ptr_null(known_store_get(store, (const uint8_t *)"home", 4, KNOWN_SEC_PSK));
	ck_assert_int_eq(known_store_forget(store, (const uint8_t *)"home", 4, KNOWN_SEC_PSK),
			 -ENOENT);
	reopen();
	ck_assert_uint_eq(known_store_count(store), 1);
}
END_TEST

START_TEST(malformed_skipped)
{
	save_psk("good", "correct horse battery");
	write_raw("short.psk", "[Security]\nPassphrase=short\n");
	write_raw("nokey.psk", "[Settings]\nAutoConnect=true\n");
	write_raw("syntax.psk", "[Security\n");
	write_raw("badbool.open", "[Settings]\nAutoConnect=maybe\n");
	write_raw("=616263.psk", "[Security]\nPassphrase=correct horse\n"); /* not canonical */
	write_raw("key.open", "[Security]\nPassphrase=correct horse\n");
	write_raw("binary.psk", "\x7f"
				"ELF\x02\x01");
	write_raw("notes.txt", "not ours\n");
	write_raw(".hidden", "dot files are not ours\n");
	char sub[256];
	snprintf(sub, sizeof(sub), "%s/sub.psk", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	log_set_level(WLOG_INFO);
	ck_assert_int_eq(known_store_load(store), 1);
	ck_assert_ptr_nonnull(known_store_get(store, (const uint8_t *)"good", 4, KNOWN_SEC_PSK));
	ck_assert_ptr_nonnull(strstr(logbuf, "skipping network file"));
	ck_assert_ptr_nonnull(strstr(logbuf, "/short.psk:2: Passphrase must be 8..63"));
	ck_assert_ptr_nonnull(strstr(logbuf, "/nokey.psk: [Security] needs Passphrase"));
	ck_assert_ptr_nonnull(strstr(logbuf, "/syntax.psk:1: missing ']'"));
	ck_assert_ptr_nonnull(strstr(logbuf, "/badbool.open:2: AutoConnect must be true or false"));
	ck_assert_ptr_nonnull(strstr(logbuf, "=616263.psk: not a network file name"));
	ck_assert_ptr_nonnull(strstr(logbuf, "/key.open:2: an open network has no Passphrase"));
	ck_assert_ptr_nonnull(strstr(logbuf, "/binary.psk:1: control character"));
	ck_assert_ptr_nonnull(strstr(logbuf, "sub.psk: not a regular file"));
	ck_assert_ptr_null(strstr(logbuf, "notes.txt"));
	/* The secret never reaches the log. */
	ck_assert_ptr_null(strstr(logbuf, "correct horse"));
}
END_TEST

START_TEST(extras_kept)
{
	write_raw("corp.8021x", "[Security]\nEAP-Method=PEAP\nEAP-Identity=alice\n"
				"[Settings]\nAutoConnect=false\nAutoconect=x\n"
				"[IPv4]\nAddress=192.0.2.10\n");
	reopen();
	struct known_network *net =
		known_store_get(store, (const uint8_t *)"corp", 4, KNOWN_SEC_8021X);
	ck_assert_ptr_nonnull(net);
	ck_assert(!net->autoconnect);
	ck_assert_ptr_nonnull(strstr(logbuf, "unknown key 'Autoconect' in [Settings] (did you mean "
					     "'AutoConnect'?)"));
	ck_assert_int_eq(known_store_set_autoconnect(store, net, true), 0);
	ck_assert_str_eq(read_raw("corp.8021x"), "[Security]\n"
						 "EAP-Method=PEAP\n"
						 "EAP-Identity=alice\n"
						 "\n"
						 "[Settings]\n"
						 "AutoConnect=true\n"
						 "Hidden=false\n"
						 "Autoconect=x\n"
						 "\n"
						 "[IPv4]\n"
						 "Address=192.0.2.10\n");
}
END_TEST

START_TEST(preference_order)
{
	struct known_network net;
	struct known_network **list;
	size_t n;
	static const struct {
		const char *ssid;
		bool autoconnect;
		uint64_t last;
	} nets[] = {
		{ "old", true, 100 },	{ "manual", false, 900 }, { "new", true, 500 },
		{ "never-b", true, 0 }, { "never-a", true, 0 },
	};
	for (size_t i = 0; i < 5; i++) {
		known_network_init(&net, (const uint8_t *)nets[i].ssid, strlen(nets[i].ssid),
				   KNOWN_SEC_OPEN);
		net.autoconnect = nets[i].autoconnect;
		net.last_connected = nets[i].last;
		ck_assert_int_eq(known_store_save(store, &net, NULL), 0);
		known_network_clear(&net);
	}
	reopen();
	ck_assert_int_eq(known_store_list(store, &list, &n), 0);
	ck_assert_uint_eq(n, 5);
	static const char *const want[] = { "new", "old", "never-a", "never-b", "manual" };
	for (size_t i = 0; i < n; i++)
		ck_assert_mem_eq(list[i]->ssid, want[i], strlen(want[i]));
	free(list);

	struct known_network *m =
		known_store_get(store, (const uint8_t *)"never-b", 7, KNOWN_SEC_OPEN);
	ck_assert_int_eq(known_store_touch_connected(store, m, 2437, 0), 0);
	ck_assert_int_gt(m->last_connected, 1000);
	for (uint32_t f = 2412; f <= 2472; f += 5)
		ck_assert_int_eq(known_store_touch_connected(store, m, f, 2000), 0);
	ck_assert_int_eq(known_store_touch_connected(store, m, 2437, 3000), 0);
	ck_assert_ptr_nonnull(strstr(read_raw("never-b.open"),
				     "[State]\nLastConnected=3000\n"
				     "Frequencies=2437,2472,2467,2462,2457\n"));
	ck_assert_int_eq(known_store_set_autoconnect(store, m, false), 0);
	reopen();
	ck_assert_int_eq(known_store_list(store, &list, &n), 0);
	ck_assert_mem_eq(list[0]->ssid, "new", 3);
	ck_assert_mem_eq(list[3]->ssid, "never-b", 7); /* manual ones last, newest first */
	ck_assert_uint_eq(list[3]->n_freqs, 5);
	free(list);
}
END_TEST

static const char *state_of(const char *name)
{
	const char *s = read_raw(name);
	ck_assert_ptr_nonnull(s);
	s = strstr(s, "[State]\n");
	return s ? s + strlen("[State]\n") : "";
}

/* A reconnect to the network connected last is not written at once (the
 * time and the frequency order wait for the next write); a new frequency
 * and a change of the networks' order are. What a crash leaves loads in
 * the order memory had. */
START_TEST(reconnect_written_lazily)
{
	struct known_network net, **list;
	struct known_store *after_crash;
	size_t n;

	known_network_init(&net, (const uint8_t *)"home", 4, KNOWN_SEC_OPEN);
	ck_assert_int_eq(known_store_save(store, &net, NULL), 0);
	known_network_clear(&net);
	known_network_init(&net, (const uint8_t *)"work", 4, KNOWN_SEC_OPEN);
	ck_assert_int_eq(known_store_save(store, &net, NULL), 0);
	known_network_clear(&net);
	struct known_network *home, *work;
	home = known_store_get(store, (const uint8_t *)"home", 4, KNOWN_SEC_OPEN);
	work = known_store_get(store, (const uint8_t *)"work", 4, KNOWN_SEC_OPEN);

	ck_assert_int_eq(known_store_touch_connected(store, home, 2437, 1000), 0);
	ck_assert_str_eq(state_of("home.open"), "LastConnected=1000\nFrequencies=2437\n");
	ck_assert_int_eq(known_store_touch_connected(store, home, 2437, 1100), 0);
	ck_assert_uint_eq(home->last_connected, 1100);
	ck_assert_str_eq(state_of("home.open"), "LastConnected=1000\nFrequencies=2437\n");
	ck_assert_int_eq(known_store_touch_connected(store, home, 2412, 1200), 0); /* new */
	ck_assert_str_eq(state_of("home.open"), "LastConnected=1200\nFrequencies=2412,2437\n");
	ck_assert_int_eq(known_store_touch_connected(store, home, 2437, 1300), 0); /* order */
	ck_assert_str_eq(state_of("home.open"), "LastConnected=1200\nFrequencies=2412,2437\n");

	/* Another network: written (first connect), then not (connected last). */
	ck_assert_int_eq(known_store_touch_connected(store, work, 0, 1400), 0);
	ck_assert_str_eq(state_of("work.open"), "LastConnected=1400\n");
	ck_assert_int_eq(known_store_touch_connected(store, work, 0, 1500), 0);
	ck_assert_str_eq(state_of("work.open"), "LastConnected=1400\n");
	/* Back home: its file is older than work's, so it is written, with
	 * the frequency order it had waiting. */
	ck_assert_int_eq(known_store_touch_connected(store, home, 0, 1600), 0);
	ck_assert_str_eq(state_of("home.open"), "LastConnected=1600\nFrequencies=2437,2412\n");
	ck_assert_int_eq(known_store_touch_connected(store, work, 0, 1700), 0);
	ck_assert_str_eq(state_of("work.open"), "LastConnected=1700\n");
	ck_assert_int_eq(known_store_touch_connected(store, work, 0, 1800), 0);

	/* A crash now (the files as they are): the order survives. */
	ck_assert_int_eq(known_store_open(dir, &after_crash), 0);
	ck_assert_int_eq(known_store_load(after_crash), 2);
	ck_assert_int_eq(known_store_list(after_crash, &list, &n), 0);
	ck_assert_mem_eq(list[0]->ssid, "work", 4);
	ck_assert_uint_eq(list[0]->last_connected, 1700);
	ck_assert_mem_eq(list[1]->ssid, "home", 4);
	free(list);
	known_store_free(after_crash);
	ck_assert_str_eq(state_of("work.open"), "LastConnected=1700\n"); /* nothing to flush */

	ck_assert_int_eq(known_store_flush(store), 0);
	ck_assert_str_eq(state_of("work.open"), "LastConnected=1800\n");
	ck_assert_int_eq(known_store_touch_connected(store, work, 0, 1900), 0);
	ck_assert_str_eq(state_of("work.open"), "LastConnected=1800\n");
	reopen(); /* a clean stop writes what is left */
	ck_assert_str_eq(state_of("work.open"), "LastConnected=1900\n");
	ck_assert_uint_eq(
		known_store_get(store, (const uint8_t *)"work", 4, KNOWN_SEC_OPEN)->last_connected,
		1900);
}
END_TEST

START_TEST(errors)
{
	struct known_network net;
	uint8_t psk[32];
	known_network_init(&net, (const uint8_t *)"x", 1, KNOWN_SEC_OPEN);
	ck_assert_int_eq(known_network_set_passphrase(&net, "short"), -EINVAL);
	ck_assert_int_eq(known_store_save(store, &net, NULL), 0);
	struct known_network *got = known_store_get(store, (const uint8_t *)"x", 1, KNOWN_SEC_OPEN);
	ck_assert_int_eq(known_store_get_psk(store, got, psk), -EINVAL);
	known_network_clear(&net);
	/* A store directory that cannot be made. */
	struct known_store *s2;
	ck_assert_int_lt(known_store_open("/proc/wpad-no/such", &s2), 0);
}
END_TEST

Suite *make_store_known_suite(void)
{
	Suite *s = suite_create("store_known");
	TCase *tc = tcase_create("store");
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, psk_computed_once);
	tcase_add_test(tc, stale_cache_recomputed);
	tcase_add_test(tc, modes);
	tcase_add_test(tc, forget_removes);
	tcase_add_test(tc, malformed_skipped);
	tcase_add_test(tc, extras_kept);
	tcase_add_test(tc, preference_order);
	tcase_add_test(tc, reconnect_written_lazily);
	tcase_add_test(tc, errors);
	suite_add_tcase(s, tc);
	return s;
}
