/* A shared library loaded on its first use instead of at start: its
 * functions reached through a table of pointers that dlopen()/dlsym()
 * fill. For the dependencies most daemons never use (libdbus without a
 * bus, libssl without EAP-TLS/PEAP/TTLS): a library linked at start is
 * mapped and relocated in every process, used or not (its relocated data
 * is private memory). See docs/performance.md (memory, 2026-12-06).
 *
 * A user (dbus/libdbus.h, eap/libssl.h) lists its functions once as
 * X(name), declares a struct with one `__typeof__(&name) p_name` member
 * each, and macros `#define name (table()->p_name)` so call sites read as
 * plain calls of the library. */
#ifndef WPAD_CORE_LAZY_LIB_H
#define WPAD_CORE_LAZY_LIB_H

#include <stdbool.h>
#include <stddef.h>

struct lazy_sym {
	const char *name;
	size_t offset; /* of its pointer in the table */
};

struct lazy_lib {
	const char *soname;
	const struct lazy_sym *syms;
	size_t n_syms;
	void *table; /* the user's struct of pointers, all set once loaded */
	size_t table_size;
	void *handle; /* NULL until loaded */
};

/* Loads the library and resolves every symbol; 0 (also when loaded
 * already), or -ENOENT (no library) / -ENOSYS (a symbol missing: too old)
 * with what went wrong in why. */
int lazy_lib_load(struct lazy_lib *lib, char *why, size_t why_len);

/* Unloads it and empties the table; the caller has released everything
 * it made with the library. */
void lazy_lib_unload(struct lazy_lib *lib);

static inline bool lazy_lib_loaded(const struct lazy_lib *lib)
{
	return lib->handle != NULL;
}

#endif
