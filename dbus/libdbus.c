/* libdbus loaded on demand: see libdbus.h for why. */
#include "dbus/libdbus.h"

#include <stdlib.h>

#include "daemon/core/lazy_lib.h"
#include "daemon/core/log.h"

static struct libdbus fns;

static const struct lazy_sym symbols[] = {
#define LIBDBUS_SYMBOL(name) { #name, offsetof(struct libdbus, p_##name) },
	LIBDBUS_FUNCTIONS(LIBDBUS_SYMBOL)
#undef LIBDBUS_SYMBOL
};

static struct lazy_lib lib = {
	.soname = LIBDBUS_SONAME,
	.syms = symbols,
	.n_syms = sizeof(symbols) / sizeof(symbols[0]),
	.table = &fns,
	.table_size = sizeof(fns),
};

int libdbus_load(struct wpad_error *err)
{
	char why[200];
	int r = lazy_lib_load(&lib, why, sizeof(why));
	if (r < 0)
		wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, -r, -1, -1,
			       "%s: install libdbus-1-3 (1.10 or newer) for the D-Bus API", why);
	return r;
}

void libdbus_unload(void)
{
	if (!lazy_lib_loaded(&lib))
		return;
	fns.p_dbus_shutdown();
	lazy_lib_unload(&lib);
}

const struct libdbus *libdbus_fns(void)
{
	if (!lazy_lib_loaded(&lib)) {
		struct wpad_error err;
		if (libdbus_load(&err) < 0) {
			log_error("D-Bus: %s", err.text);
			abort();
		}
	}
	return &fns;
}
