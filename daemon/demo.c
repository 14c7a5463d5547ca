/* The demo; see demo.h. */
#define LOG_TAG "demo"
#include "daemon/demo.h"
#include "daemon/ap/ap.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "daemon/wpad.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct {
	struct loop_timer *ticker;
	struct loop_timer *retry;
	struct wpad *w;
	bool bus_served;
	const char *bus_address; /* the caller's, for the process's life; NULL: system bus */
	bool commands_shown;
} demo;

void demo_set_bus(bool served, const char *address)
{
	demo.bus_served = served;
	demo.bus_address = address && address[0] ? address : NULL;
}

/* wpactl as built next to this wpad (build/wpactl), else from PATH. */
static void wpactl_path(char *buf, size_t cap)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			int m = snprintf(buf, cap, "%s/wpactl", self);
			if (m > 0 && (size_t)m < cap && access(buf, X_OK) == 0)
				return;
		}
	}
	snprintf(buf, cap, "wpactl");
}

/* One command line: PROGRAM [OPTION ADDRESS] ARGS, the address quoted
 * unless it is plain (D-Bus escapes a quote in an address as %27). */
static void print_command(const char *program, const char *option, const char *args)
{
	const char *a = demo.bus_address;
	if (!a) {
		printf("  %s %s\n", program, args);
		return;
	}
	const char *plain = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.,:=/";
	const char *q = strspn(a, plain) == strlen(a) ? "" : "'";
	printf("  %s %s%s%s%s %s\n", program, option, q, a, q, args);
}

/* Printed on stdout, without log prefixes, so they can be copied as is. */
static void show_commands(void)
{
	if (demo.commands_shown)
		return;
	demo.commands_shown = true;
	if (!demo.bus_served) {
		printf("\nThe demo runs without its D-Bus API: `make demo` "
		       "starts a private bus for it.\n\n");
		fflush(stdout);
		return;
	}
	char ctl[PATH_MAX + 16];
	wpactl_path(ctl, sizeof(ctl));
	printf("\nConnected. Try from a second shell (Ctrl-C here stops the demo):\n");
	print_command(ctl, "--bus ", "device list");
	print_command(ctl, "--bus ", "station demo-station show");
	print_command(ctl, "--bus ", "ap " DEMO_SSID " show");
	print_command("busctl", "--address=", "tree org.wpad1");
	printf("\n");
	fflush(stdout);
}

static void connect_station(void);

int demo_config(char *buf, size_t cap, const char *state_dir)
{
	int n = snprintf(buf, cap,
			 "[General]\n"
			 "StateDirectory=%s\n"
			 "RuntimeDirectory=%s\n"
			 "\n"
			 "# Two simulated radios on one in-process medium.\n"
			 "[Radio air0]\nDriver=sim\nOptions=medium=shared,radios=1\n\n"
			 "[Radio air1]\nDriver=sim\nOptions=medium=shared,radios=1\n\n"
			 "[AccessPoint " DEMO_SSID "]\nRadio=air0\nSSID=" DEMO_SSID "\n"
			 "Security=wpa2-psk\nPassphrase=" DEMO_PASSPHRASE "\nChannel=6\n\n"
			 "[Station demo-station]\nRadio=air1\nAutoConnect=false\n",
			 state_dir, state_dir);
	return n > 0 && (size_t)n < cap ? 0 : -1;
}

static void on_station_state(void *ctx, struct wpad_device *dev, const char *old_state,
			     const char *new_state)
{
	log_info("station %s: %s -> %s", dev->name, old_state, new_state);
}

static void on_connect_done(void *ctx, struct wpad_device *dev, const struct wpad_error *err)
{
	if (err) {
		log_error("station %s: connection failed: %s: %s", dev->name,
			  wpad_error_name(err->code), err->text);
		/* A busy machine can make a peer miss a deadline; try again, but
		 * never with a passphrase the network refused. */
		if (err->code != WPAD_ERR_INVALID_PASSPHRASE && demo.retry) {
			log_info("station %s: retrying in 1 s", dev->name);
			loop_timer_arm_ms(demo.retry, 1000);
		}
		return;
	}
	log_info("station %s: CONNECTED to %s in %llu ms", dev->name, DEMO_SSID,
		 (unsigned long long)station_connect_time_ms(dev->station));
	show_commands();
}

static void on_ap_state(void *ctx, struct wpad_device *dev, const char *state)
{
	log_info("access point %s: %s", dev->name, state);
}

static void on_ap_station(void *ctx, struct wpad_device *dev, const uint8_t a[6],
			  const char *what)
{
	log_info("access point %s: station %02x:%02x:%02x:%02x:%02x:%02x %s", dev->name, a[0],
		 a[1], a[2], a[3], a[4], a[5], what);
}

const struct wpad_observer *demo_observer(void)
{
	static const struct wpad_observer obs = {
		.station_state = on_station_state,
		.station_connect_done = on_connect_done,
		.ap_state = on_ap_state,
		.ap_station = on_ap_station,
	};
	return &obs;
}

static void print_link(struct wpad_device *dev)
{
	uint8_t b[6];
	if (dev->kind == WPAD_DEVICE_AP) {
		log_info("link: AP %s: %zu station(s) associated", dev->name,
			 ap_associated_count(dev->ap));
		return;
	}
	if (!station_bssid(dev->station, b)) {
		log_info("link: station %s: %s", dev->name,
			 station_state_name(station_state(dev->station)));
		return;
	}
	log_info("link: station %s: %s, BSS %02x:%02x:%02x:%02x:%02x:%02x, %u MHz, %d dBm",
		 dev->name, station_state_name(station_state(dev->station)), b[0], b[1], b[2],
		 b[3], b[4], b[5], station_frequency(dev->station),
		 station_signal_mbm(dev->station) / 100);
}

static void tick(struct loop_timer *t, void *data)
{
	for (size_t i = 0; i < wpad_device_count(demo.w); i++)
		if (wpad_device_at(demo.w, i))
			print_link(wpad_device_at(demo.w, i));
	/* Slower once the commands are shown, so they stay on the screen. */
	loop_timer_arm_ms(t, demo.commands_shown ? 30000 : 3000);
}

static void connect_station(void)
{
	struct wpad_device *sta = wpad_device_find(demo.w, "demo-station");
	if (!sta)
		return;
	log_info("station %s: connecting to \"%s\" (WPA2-Personal); Ctrl-C stops the demo",
		 sta->name, DEMO_SSID);
	int r = station_connect(sta->station, (const uint8_t *)DEMO_SSID, strlen(DEMO_SSID),
				DEMO_PASSPHRASE, false);
	if (r < 0) {
		const struct wpad_error *e = station_last_error(sta->station);
		log_error("connect refused: %s", e ? e->text : strerror(-r));
	}
}

static void retry(struct loop_timer *t, void *data)
{
	connect_station();
}

int demo_start(struct loop *loop, struct wpad *w)
{
	if (!wpad_device_find(w, "demo-station"))
		return -1;
	demo.w = w;
	demo.retry = loop_timer_new(loop, retry, NULL);
	demo.ticker = loop_timer_new(loop, tick, NULL);
	if (demo.ticker)
		loop_timer_arm_ms(demo.ticker, 1000);
	connect_station();
	return 0;
}

void demo_stop(void)
{
	loop_timer_free(demo.ticker);
	loop_timer_free(demo.retry);
	demo.ticker = NULL;
	demo.retry = NULL;
	demo.w = NULL;
	demo.commands_shown = false;
}
