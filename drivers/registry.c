/* The list of compiled-in backends. The Makefile builds every backend, so
 * this table is the one place that names them. */
#include "drivers/registry.h"

static const struct wpad_driver_ops *const backends[] = {
	&sim_driver_ops,
	&nl80211_driver_ops,
	&wired_driver_ops,
};

size_t driver_backend_count(void)
{
	return sizeof(backends) / sizeof(backends[0]);
}

const struct wpad_driver_ops *driver_backend_at(size_t i)
{
	return i < driver_backend_count() ? backends[i] : NULL;
}
