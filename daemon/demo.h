/* The demo: one wpad process with two simulated radios — an access point
 * "wpad-demo" (WPA2-Personal) and a station that connects to it — printing
 * each step and the link state until Ctrl-C. No Wi-Fi hardware needed. */
#ifndef WPAD_DEMO_H
#define WPAD_DEMO_H

#include <stdbool.h>
#include <stddef.h>

struct loop;
struct wpad;
struct wpad_observer;

#define DEMO_SSID "wpad-demo"
#define DEMO_PASSPHRASE "correct horse battery staple"

/* Writes the demo's configuration (state kept in state_dir) into buf. */
int demo_config(char *buf, size_t cap, const char *state_dir);
/* The observer that prints the demo's story. */
const struct wpad_observer *demo_observer(void);
/* Starts the station's connect and the link-state ticker. */
int demo_start(struct loop *loop, struct wpad *w);
/* How a second shell reaches this wpad's D-Bus API, told once the API is
 * up: served false (no API), or the bus address clients must name (NULL:
 * the system bus, which they use by default), kept as given: it must live
 * as long as the process (argv, the environment). Once the station is
 * connected the demo prints wpactl and busctl commands for that bus. */
void demo_set_bus(bool served, const char *address);
void demo_stop(void);

#endif
