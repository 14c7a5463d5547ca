/* The backends compiled into wpad. */
#ifndef WPAD_DRIVERS_REGISTRY_H
#define WPAD_DRIVERS_REGISTRY_H

#include "drivers/driver.h"

extern const struct wpad_driver_ops sim_driver_ops;
extern const struct wpad_driver_ops nl80211_driver_ops;
extern const struct wpad_driver_ops wired_driver_ops;

#endif
