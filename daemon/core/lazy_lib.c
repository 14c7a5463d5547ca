/* Libraries loaded on first use: see lazy_lib.h. */
#include "daemon/core/lazy_lib.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int lazy_lib_load(struct lazy_lib *lib, char *why, size_t why_len)
{
	if (lib->handle)
		return 0;
	/* RTLD_LOCAL: its symbols stay out of the global scope, so nothing
	 * else binds to a copy that lazy_lib_unload() may drop. */
	void *h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(why, why_len, "cannot load %s: %s", lib->soname, e ? e : "unknown error");
		return -ENOENT;
	}
	for (size_t i = 0; i < lib->n_syms; i++) {
		void *sym = dlsym(h, lib->syms[i].name);
		if (!sym) {
			snprintf(why, why_len, "%s has no %s (too old?)", lib->soname,
				 lib->syms[i].name);
			memset(lib->table, 0, lib->table_size);
			dlclose(h);
			return -ENOSYS;
		}
		/* POSIX: a function's address from dlsym() converts back. */
		memcpy((char *)lib->table + lib->syms[i].offset, &sym, sizeof(sym));
	}
	lib->handle = h;
	return 0;
}

void lazy_lib_unload(struct lazy_lib *lib)
{
	if (!lib->handle)
		return;
	dlclose(lib->handle);
	lib->handle = NULL;
	memset(lib->table, 0, lib->table_size);
}
