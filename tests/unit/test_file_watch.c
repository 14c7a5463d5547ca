#define _GNU_SOURCE
/* daemon/core/file_watch: changes seen through the directory (written in
 * place, renamed over, deleted), a burst becoming one callback per
 * (fn, ctx) after the settle time, other files of the directory ignored,
 * removal (also from inside a callback), and the refusals. On the
 * virtual clock: the settle time costs no wall time. */
#include "daemon/core/file_watch.h"
#include "daemon/core/loop.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static struct loop *loop;
static struct file_watch *fw;
static unsigned calls_a, calls_b;

static void on_a(void *ctx)
{
	calls_a++;
}

static void on_b(void *ctx)
{
	calls_b++;
	if (ctx == &calls_b) /* a callback that unwatches its own files */
		file_watch_remove_ctx(fw, ctx);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/wpad-file-watch-%d-XXXXXX", (int)getpid());
	ck_assert_ptr_nonnull(mkdtemp(dir));
	loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	fw = file_watch_new(loop);
	ck_assert_ptr_nonnull(fw);
	calls_a = calls_b = 0;
}

static void teardown(void)
{
	file_watch_free(fw);
	loop_free(loop);
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void path_of(const char *name, char *out, size_t cap)
{
	snprintf(out, cap, "%s/%s", dir, name);
}

static void put(const char *name, const char *text)
{
	char p[128];
	path_of(name, p, sizeof(p));
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* Runs the loop for ms of virtual time. */
static void run(int ms)
{
	uint64_t end = loop_now_us(loop) + (uint64_t)ms * 1000u;
	while (loop_now_us(loop) < end)
		loop_iterate(loop, 5);
}

START_TEST(changes_in_every_form)
{
	char a[128], b[128], tmp[128];
	put("allow", "");
	path_of("allow", a, sizeof(a));
	path_of("deny", b, sizeof(b)); /* need not exist yet */
	ck_assert_int_eq(file_watch_add(fw, a, on_a, &calls_a), 0);
	ck_assert_int_eq(file_watch_add(fw, b, on_a, &calls_a), 0);
	ck_assert_uint_eq(file_watch_count(fw), 2);
	run(1000);
	ck_assert_uint_eq(calls_a, 0);

	/* Written in place: one call, only after the settle time. */
	put("allow", "02:00:00:00:00:01\n");
	run(FILE_WATCH_SETTLE_MS / 2);
	ck_assert_uint_eq(calls_a, 0);
	run(FILE_WATCH_SETTLE_MS);
	ck_assert_uint_eq(calls_a, 1);

	/* Both files of one owner in one burst: one call. */
	put("allow", "02:00:00:00:00:02\n");
	put("deny", "02:00:00:00:00:03\n");
	run(1000);
	ck_assert_uint_eq(calls_a, 2);

	/* Renamed over (how tools write safely), then deleted. */
	put("allow.new", "02:00:00:00:00:04\n");
	path_of("allow.new", tmp, sizeof(tmp));
	ck_assert_int_eq(rename(tmp, a), 0);
	run(1000);
	ck_assert_uint_eq(calls_a, 3);
	ck_assert_int_eq(unlink(b), 0);
	run(1000);
	ck_assert_uint_eq(calls_a, 4);

	/* Other files of the directory are not ours. */
	put("unrelated", "x\n");
	put("allow~", "x\n");
	run(1000);
	ck_assert_uint_eq(calls_a, 4);
}
END_TEST

START_TEST(owners_apart_and_removal)
{
	char a[128], b[128];
	put("a", "");
	put("b", "");
	path_of("a", a, sizeof(a));
	path_of("b", b, sizeof(b));
	ck_assert_int_eq(file_watch_add(fw, a, on_a, &calls_a), 0);
	ck_assert_int_eq(file_watch_add(fw, b, on_b, &calls_b), 0);
	put("b", "1\n");
	run(1000);
	ck_assert_uint_eq(calls_a, 0);
	ck_assert_uint_eq(calls_b, 1); /* and it removed itself */
	ck_assert_uint_eq(file_watch_count(fw), 1);
	put("b", "2\n");
	put("a", "2\n");
	run(1000);
	ck_assert_uint_eq(calls_b, 1);
	ck_assert_uint_eq(calls_a, 1);
	file_watch_remove_ctx(fw, &calls_a);
	ck_assert_uint_eq(file_watch_count(fw), 0);
	put("a", "3\n");
	run(1000);
	ck_assert_uint_eq(calls_a, 1);
	file_watch_remove_ctx(NULL, &calls_a); /* no watcher: nothing to do */
}
END_TEST

START_TEST(refusals)
{
	char p[128];
	ck_assert_int_eq(file_watch_add(fw, "relative/allow", on_a, NULL), -EINVAL);
	ck_assert_int_eq(file_watch_add(fw, NULL, on_a, NULL), -EINVAL);
	path_of("", p, sizeof(p)); /* a directory, no file name */
	ck_assert_int_eq(file_watch_add(fw, p, on_a, NULL), -EINVAL);
	path_of("x", p, sizeof(p));
	ck_assert_int_eq(file_watch_add(fw, p, NULL, NULL), -EINVAL);
	ck_assert_int_eq(file_watch_add(fw, "/nonexistent-wpad-dir/allow", on_a, NULL), -ENOENT);
	for (unsigned i = 0; i < FILE_WATCH_MAX; i++)
		ck_assert_int_eq(file_watch_add(fw, p, on_a, NULL), 0);
	ck_assert_int_eq(file_watch_add(fw, p, on_a, NULL), -ENOSPC);
	ck_assert_uint_eq(file_watch_count(fw), FILE_WATCH_MAX);
}
END_TEST

Suite *make_file_watch_suite(void)
{
	Suite *s = suite_create("file_watch");
	TCase *tc = tcase_create("inotify");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, changes_in_every_form);
	tcase_add_test(tc, owners_apart_and_removal);
	tcase_add_test(tc, refusals);
	suite_add_tcase(s, tc);
	return s;
}
