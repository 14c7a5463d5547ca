/* Libraries loaded on first use (daemon/core/lazy_lib.h): a table filled
 * by name, a clear reason when the library or a symbol is missing (and the
 * table left empty), unloading empties it. */
#include "daemon/core/lazy_lib.h"

#include <check.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

/* libc is in every process, so it stands in for libdbus and libssl. */
struct libc_table {
	__typeof__(&strlen) p_strlen;
	__typeof__(&strcmp) p_strcmp;
};

static const struct lazy_sym libc_syms[] = {
	{ "strlen", offsetof(struct libc_table, p_strlen) },
	{ "strcmp", offsetof(struct libc_table, p_strcmp) },
};

static const struct lazy_sym missing_sym[] = {
	{ "strlen", offsetof(struct libc_table, p_strlen) },
	{ "wpad_no_such_function", offsetof(struct libc_table, p_strcmp) },
};

START_TEST(loads_resolves_and_unloads)
{
	struct libc_table t = { 0 };
	struct lazy_lib lib = { .soname = "libc.so.6", .syms = libc_syms, .n_syms = 2,
				.table = &t, .table_size = sizeof(t) };
	char why[128] = "";
	ck_assert(!lazy_lib_loaded(&lib));
	ck_assert_int_eq(lazy_lib_load(&lib, why, sizeof(why)), 0);
	ck_assert(lazy_lib_loaded(&lib));
	ck_assert_uint_eq(t.p_strlen("four"), 4);
	ck_assert_int_eq(t.p_strcmp("a", "a"), 0);
	ck_assert_int_eq(lazy_lib_load(&lib, why, sizeof(why)), 0); /* twice: no-op */
	lazy_lib_unload(&lib);
	ck_assert(!lazy_lib_loaded(&lib));
	ck_assert_ptr_null(t.p_strlen);
	ck_assert_ptr_null(t.p_strcmp);
	lazy_lib_unload(&lib); /* unloaded already: no-op */
}
END_TEST

START_TEST(missing_library_says_which)
{
	struct libc_table t = { 0 };
	struct lazy_lib lib = { .soname = "libwpad-no-such-library.so.9", .syms = libc_syms,
				.n_syms = 2, .table = &t, .table_size = sizeof(t) };
	char why[256] = "";
	ck_assert_int_eq(lazy_lib_load(&lib, why, sizeof(why)), -ENOENT);
	ck_assert(!lazy_lib_loaded(&lib));
	ck_assert_ptr_nonnull(strstr(why, "libwpad-no-such-library.so.9"));
}
END_TEST

START_TEST(missing_symbol_leaves_the_table_empty)
{
	struct libc_table t = { 0 };
	struct lazy_lib lib = { .soname = "libc.so.6", .syms = missing_sym, .n_syms = 2,
				.table = &t, .table_size = sizeof(t) };
	char why[256] = "";
	ck_assert_int_eq(lazy_lib_load(&lib, why, sizeof(why)), -ENOSYS);
	ck_assert(!lazy_lib_loaded(&lib));
	ck_assert_ptr_nonnull(strstr(why, "wpad_no_such_function"));
	ck_assert_ptr_null(t.p_strlen); /* resolved before the missing one, then cleared */
}
END_TEST

Suite *make_lazy_lib_suite(void)
{
	Suite *s = suite_create("lazy_lib");
	TCase *tc = tcase_create("load");
	tcase_add_test(tc, loads_resolves_and_unloads);
	tcase_add_test(tc, missing_library_says_which);
	tcase_add_test(tc, missing_symbol_leaves_the_table_empty);
	suite_add_tcase(s, tc);
	return s;
}
