/* libdbus loaded on demand: see libdbus.h for why. */
#include "dbus/libdbus.h"

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/core/log.h"

static struct {
	void *handle;
	struct libdbus fns;
} lib;

static const struct {
	const char *name;
	size_t offset;
} symbols[] = {
#define LIBDBUS_SYMBOL(name) { #name, offsetof(struct libdbus, p_##name) },
	LIBDBUS_FUNCTIONS(LIBDBUS_SYMBOL)
#undef LIBDBUS_SYMBOL
};

int libdbus_load(struct wpad_error *err)
{
	if (lib.handle)
		return 0;
	/* RTLD_LOCAL: libdbus's symbols stay out of the global scope, so
	 * nothing else binds to the copy that libdbus_unload() drops. */
	void *h = dlopen(LIBDBUS_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();
		wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, ENOENT, -1, -1,
			       "cannot load %s (%s): install libdbus-1-3 for the D-Bus API",
			       LIBDBUS_SONAME, why ? why : "unknown error");
		return -ENOENT;
	}
	struct libdbus fns;
	for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
		void *sym = dlsym(h, symbols[i].name);
		if (!sym) {
			wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, ENOSYS, -1, -1,
				       "%s has no %s: libdbus 1.10 or newer is needed",
				       LIBDBUS_SONAME, symbols[i].name);
			dlclose(h);
			return -ENOSYS;
		}
		/* POSIX: a function's address from dlsym() converts back. */
		memcpy((char *)&fns + symbols[i].offset, &sym, sizeof(sym));
	}
	lib.fns = fns;
	lib.handle = h;
	return 0;
}

void libdbus_unload(void)
{
	if (!lib.handle)
		return;
	lib.fns.p_dbus_shutdown();
	dlclose(lib.handle);
	memset(&lib, 0, sizeof(lib));
}

bool libdbus_loaded(void)
{
	return lib.handle != NULL;
}

const struct libdbus *libdbus_fns(void)
{
	if (!lib.handle) {
		struct wpad_error err;
		if (libdbus_load(&err) < 0) {
			log_error("D-Bus: %s", err.text);
			abort();
		}
	}
	return &lib.fns;
}
