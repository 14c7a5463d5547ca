/* wpad entry point: parse the command line, set up logging and the event
 * loop, run until SIGINT/SIGTERM, tear down cleanly. */
#define _GNU_SOURCE /* nftw */
#define LOG_TAG "wpad"
#include "daemon/config/wpad_conf.h"
#include "daemon/core/log.h"
#include "daemon/crypto/lib.h"
#include "daemon/core/loop.h"
#include "daemon/demo.h"
#include "daemon/version.h"
#include "daemon/wpad.h"
#include "dbus/wdbus.h"
#include "dbus/wpas.h"

#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct options {
	const char *config_path;
	int debug;
	bool timestamps;
	bool use_syslog;
	bool log_secrets;
	bool demo;
	/* D-Bus: WDB_BUS_SYSTEM by default; required when named explicitly. */
	enum wdb_bus_kind bus;
	const char *bus_address;
	bool bus_required;
	bool no_dbus;
	bool wpas_api;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: wpad [OPTIONS]\n"
		"  -c, --config FILE   main configuration (default /etc/wpad/wpad.conf)\n"
		"  -d                  debug logging; -dd for verbose (frame traces)\n"
		"  -t, --timestamps    time on every log line (CLOCK_MONOTONIC; -d adds it too)\n"
		"  -s, --syslog        log to syslog instead of stderr\n"
		"      --demo          run the simulated-radio demo\n"
		"      --system        serve org.wpad1 on the system bus; fail without it\n"
		"      --session       serve org.wpad1 on the session bus instead\n"
		"      --bus-address ADDR  serve org.wpad1 on the bus at ADDR (tests)\n"
		"      --no-dbus       run without the D-Bus API\n"
		"      --wpa-supplicant-api  also serve fi.w1.wpa_supplicant1 (NetworkManager)\n"
		"                      (default: the system bus if it can be reached)\n"
		"      --log-secrets   TEST ONLY: print keys and passphrases in debug logs\n"
		"  -v, --version       print the version\n"
		"  -h, --help          this text\n");
}

static int parse_options(int argc, char **argv, struct options *opt)
{
	enum { OPT_DEMO = 256, OPT_LOG_SECRETS, OPT_SYSTEM, OPT_SESSION, OPT_BUS_ADDRESS, OPT_NO_DBUS,
	       OPT_WPAS };
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "syslog", no_argument, NULL, 's' },
		{ "timestamps", no_argument, NULL, 't' },
		{ "demo", no_argument, NULL, OPT_DEMO },
		{ "system", no_argument, NULL, OPT_SYSTEM },
		{ "session", no_argument, NULL, OPT_SESSION },
		{ "bus-address", required_argument, NULL, OPT_BUS_ADDRESS },
		{ "no-dbus", no_argument, NULL, OPT_NO_DBUS },
		{ "wpa-supplicant-api", no_argument, NULL, OPT_WPAS },
		{ "log-secrets", no_argument, NULL, OPT_LOG_SECRETS },
		{ "version", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opt->config_path = "/etc/wpad/wpad.conf";
	while ((c = getopt_long(argc, argv, "c:dstvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			opt->config_path = optarg;
			break;
		case 'd':
			opt->debug++;
			break;
		case 's':
			opt->use_syslog = true;
			break;
		case 't':
			opt->timestamps = true;
			break;
		case OPT_DEMO:
			opt->demo = true;
			break;
		case OPT_LOG_SECRETS:
			opt->log_secrets = true;
			break;
		case OPT_SYSTEM:
		case OPT_SESSION:
		case OPT_BUS_ADDRESS:
			opt->bus = c == OPT_SYSTEM    ? WDB_BUS_SYSTEM
				   : c == OPT_SESSION ? WDB_BUS_SESSION
						      : WDB_BUS_ADDRESS;
			opt->bus_address = c == OPT_BUS_ADDRESS ? optarg : NULL;
			opt->bus_required = true;
			break;
		case OPT_NO_DBUS:
			opt->no_dbus = true;
			break;
		case OPT_WPAS:
			opt->wpas_api = true;
			break;
		case 'v':
			printf("wpad %s\n", WPAD_VERSION);
			exit(EXIT_SUCCESS);
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "wpad: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return -1;
	}
	return 0;
}

struct stopper {
	struct loop *loop;
	struct wpad *w; /* NULL until the daemon is up */
};

static void on_goodbyes_sent(void *data)
{
	struct stopper *s = data;
	loop_quit(s->loop, 0);
}

/* The first signal says goodbye to the peers, a second one quits at once. */
static void on_stop_signal(struct loop_signal *sig, int signo, void *data)
{
	(void)sig;
	struct stopper *s = data;
	log_info("received %s, shutting down", strsignal(signo));
	wdbus_stopping();
	if (!s->w || wpad_shutdown(s->w, on_goodbyes_sent, s) < 0)
		loop_quit(s->loop, 0);
}

/* SIGHUP: the access points read their MAC allow/deny files again. */
static void on_reload_signal(struct loop_signal *sig, int signo, void *data)
{
	(void)sig;
	struct stopper *s = data;
	log_info("received %s, reloading the access lists", strsignal(signo));
	if (s->w)
		wpad_reload_access_lists(s->w);
}

/* The D-Bus API: a failure is fatal when a bus was named, else a warning
 * (a machine without a system bus still gets a working daemon). The demo
 * learns which bus its clients must name. */
static int start_dbus(const struct options *opt, struct loop *loop, struct wpad *w)
{
	struct wpad_error err;
	if (opt->no_dbus) {
		demo_set_bus(false, NULL);
		return 0;
	}
	wpas_enable(opt->wpas_api);
	if (wdbus_start(loop, w, opt->bus, opt->bus_address, &err) == 0) {
		demo_set_bus(true, opt->bus == WDB_BUS_ADDRESS   ? opt->bus_address
				   : opt->bus == WDB_BUS_SESSION ? getenv("DBUS_SESSION_BUS_ADDRESS")
								 : NULL);
		return 0;
	}
	demo_set_bus(false, NULL);
	if (opt->bus_required) {
		log_error("D-Bus: %s: %s", wpad_error_name(err.code), err.text);
		return -1;
	}
	log_warn("D-Bus: %s; running without the D-Bus API", err.text);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* Loads the configuration: the demo's own (state in a fresh temporary
 * folder) or the file named by -c. */
static int load_config(const struct options *opt, char *demo_dir, struct wpad_conf **conf)
{
	struct cfg_error cerr;
	memset(&cerr, 0, sizeof(cerr));
	if (opt->demo) {
		char text[2048];
		if (!mkdtemp(demo_dir)) {
			log_error("cannot create a state folder for the demo: %s", strerror(errno));
			return -1;
		}
		if (demo_config(text, sizeof(text), demo_dir) < 0 ||
		    wpad_conf_load_buffer(text, strlen(text), "demo", demo_dir, conf, &cerr) < 0) {
			log_error("demo configuration: %s", cerr.msg);
			return -1;
		}
		return 0;
	}
	if (wpad_conf_load(opt->config_path, conf, &cerr) < 0) {
		log_error("%s", cerr.msg);
		if (access(opt->config_path, F_OK) != 0)
			log_error("no configuration at %s: write one (see docs/wpad.conf.md) or "
				  "try the demo: wpad --demo",
				  opt->config_path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };
	char demo_dir[] = "/tmp/wpad-demo-XXXXXX";
	struct wpad_conf *conf = NULL;
	struct wpad_error err;
	int rc = EXIT_FAILURE;

	if (parse_options(argc, argv, &opt) < 0)
		return 2;
	/* A log pipe that closes (`wpad --demo | tee`, then Ctrl-C stops tee
	 * first) must not kill the daemon before it leaves the air and wipes
	 * its state: writes then fail with EPIPE instead. */
	signal(SIGPIPE, SIG_IGN);
	log_open(opt.use_syslog ? LOG_TO_SYSLOG : LOG_TO_STDERR, "wpad");
	log_set_level(opt.debug >= 2 ? WLOG_VERBOSE : opt.debug == 1 ? WLOG_DEBUG : WLOG_INFO);
	log_set_timestamps(opt.timestamps || opt.debug > 0 || opt.demo);
	if (opt.log_secrets) {
		log_set_show_secrets(true);
		log_warn("--log-secrets: keys will appear in the log; never use this in production");
	}
	if (crypto_lib_init() < 0) {
		log_error("OpenSSL could not be initialised");
		return EXIT_FAILURE;
	}

	struct loop *loop = loop_new();
	if (!loop)
		return EXIT_FAILURE;
	struct stopper stopper = { .loop = loop };
	struct loop_signal *sigint = loop_signal_new(loop, SIGINT, on_stop_signal, &stopper);
	struct loop_signal *sigterm = loop_signal_new(loop, SIGTERM, on_stop_signal, &stopper);
	struct loop_signal *sighup = loop_signal_new(loop, SIGHUP, on_reload_signal, &stopper);
	if (!sigint || !sigterm || !sighup)
		goto out;
	log_info("wpad %s starting (%s)", WPAD_VERSION,
		 opt.demo ? "demo on simulated radios" : opt.config_path);
	if (load_config(&opt, demo_dir, &conf) < 0)
		goto out;
	if (conf->log_level_set && !opt.debug)
		log_set_level(conf->log_level);

	struct wpad *w = wpad_new(loop, conf, opt.demo ? demo_observer() : NULL, &err);
	if (!w) {
		log_error("%s: %s", wpad_error_name(err.code), err.text);
		goto out;
	}
	stopper.w = w;
	if (opt.demo)
		demo_start(loop, w);
	if (start_dbus(&opt, loop, w) == 0)
		rc = loop_run(loop) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	wdbus_stop(); /* answers waiting callers before the roles go */
	if (opt.demo)
		demo_stop();
	stopper.w = NULL;
	wpad_free(w);
	log_info("stopped");
out:
	wpad_conf_free(conf);
	loop_signal_free(sigint);
	loop_signal_free(sigterm);
	loop_signal_free(sighup);
	loop_free(loop);
	if (opt.demo && strcmp(demo_dir, "/tmp/wpad-demo-XXXXXX") != 0)
		nftw(demo_dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	log_close();
	return rc;
}
