/* Crash safety of the known-networks store: a process saving the same
 * network over and over is killed with SIGKILL at random moments; after
 * each kill the file must parse and be exactly the old or the new version,
 * never cut short or missing, and the loader must clear the leftovers. */
#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/store/atomic_file.h"
#include "daemon/store/known_store.h"

#define ROUNDS 24

static char dir[64];

/* Two versions of one network that differ in size and in every section. */
static void make_version(struct known_network *net, int which)
{
	known_network_init(net, (const uint8_t *)"crash test", 10, KNOWN_SEC_PSK);
	if (which == 0) {
		ck_assert_int_eq(known_network_set_passphrase(net, "version A passphrase"), 0);
		return;
	}
	ck_assert_int_eq(
		known_network_set_passphrase(net, "version B has a much longer passphrase"), 0);
	net->hidden = true;
	net->autoconnect = false;
	for (uint32_t f = 2412; f <= 2472; f += 5)
		known_network_touch(net, f, 1700000000 + f);
}

static char *expected_text(int which)
{
	struct known_network net;
	struct strbuf sb = STRBUF_INIT;
	make_version(&net, which);
	ck_assert_int_eq(known_network_format(&net, &sb), 0);
	known_network_clear(&net);
	return sb.data;
}

static void child_loop(void)
{
	struct known_store *store;
	struct known_network a, b;

	if (known_store_open(dir, &store) < 0)
		_exit(2);
	make_version(&a, 0);
	make_version(&b, 1);
	for (;;) {
		if (known_store_save(store, &a, NULL) < 0 || known_store_save(store, &b, NULL) < 0)
			_exit(3);
	}
}

static char *read_file(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Entries of the directory besides . and ..; counts temporary files. */
static int count_entries(int *temps)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;
	*temps = 0;
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		n++;
		*temps += atomic_is_temp_name(de->d_name);
	}
	closedir(d);
	return n;
}

START_TEST(kill9_during_save)
{
	char *want[2] = { expected_text(0), expected_text(1) };
	char path[128], cmd[128];
	struct known_store *store;
	struct known_network net;
	unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
	int seen[2] = { 0, 0 }, leftovers = 0;

	srand(seed);
	strcpy(dir, "/tmp/wpad-crash-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/crash test.psk", dir);
	ck_assert_int_eq(known_store_open(dir, &store), 0);
	make_version(&net, 0);
	ck_assert_int_eq(known_store_save(store, &net, NULL), 0);
	known_network_clear(&net);

	for (int round = 0; round < ROUNDS; round++) {
		pid_t pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0)
			child_loop();
		/* From "before the first write" to "many saves in". */
		usleep((useconds_t)(round * 700 + rand() % 5000));
		ck_assert_int_eq(kill(pid, SIGKILL), 0);
		int status;
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert_msg(WIFSIGNALED(status), "seed %u round %d: child exited %d", seed, round,
			      WEXITSTATUS(status));

		int temps, before = count_entries(&temps);
		leftovers += temps;
		ck_assert_int_eq(before, 1 + temps);
		char *text = read_file(path);
		ck_assert_msg(text, "seed %u round %d: file missing", seed, round);
		int which = strcmp(text, want[0]) == 0 ? 0 : strcmp(text, want[1]) == 0 ? 1 : -1;
		ck_assert_msg(which >= 0, "seed %u round %d: torn file:\n%s", seed, round, text);
		seen[which]++;

		ck_assert_int_eq(known_store_load(store), 1);
		struct known_network *got =
			known_store_get(store, (const uint8_t *)"crash test", 10, KNOWN_SEC_PSK);
		ck_assert_ptr_nonnull(got);
		ck_assert_int_eq(got->hidden, which == 1);
		ck_assert_int_eq(count_entries(&temps), 1); /* leftovers cleared */
	}
	fprintf(stderr, "crash test: seed %u, %d rounds, old/new %d/%d, %d temp files cleared\n",
		seed, ROUNDS, seen[0], seen[1], leftovers);
	known_store_free(store);
	free(want[0]);
	free(want[1]);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *make_store_crash_suite(void)
{
	Suite *s = suite_create("store_crash");
	TCase *tc = tcase_create("crash");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, kill9_during_save);
	suite_add_tcase(s, tc);
	return s;
}
