/* libssl loaded on demand: see libssl.h for why. */
#include "eap/libssl.h"

#include <stdlib.h>

#include "daemon/core/lazy_lib.h"
#include "daemon/core/log.h"

static struct libssl fns;

static const struct lazy_sym symbols[] = {
#define LIBSSL_SYMBOL(name) { #name, offsetof(struct libssl, p_##name) },
	LIBSSL_FUNCTIONS(LIBSSL_SYMBOL)
#undef LIBSSL_SYMBOL
};

static struct lazy_lib lib = {
	.soname = LIBSSL_SONAME,
	.syms = symbols,
	.n_syms = sizeof(symbols) / sizeof(symbols[0]),
	.table = &fns,
	.table_size = sizeof(fns),
};

int libssl_load(char *why, size_t why_len)
{
	return lazy_lib_load(&lib, why, why_len);
}

const struct libssl *libssl_fns(void)
{
	char why[200];
	if (!lazy_lib_loaded(&lib) && libssl_load(why, sizeof(why)) < 0) {
		log_error("TLS: %s", why);
		abort();
	}
	return &fns;
}
