/* wpad entry point: parse the command line, set up logging and the event
 * loop, run until SIGINT/SIGTERM, tear down cleanly. */
#define LOG_TAG "wpad"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/version.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct options {
	const char *config_path;
	int debug;
	bool use_syslog;
	bool log_secrets;
	bool demo;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: wpad [OPTIONS]\n"
		"  -c, --config FILE   main configuration (default /etc/wpad/wpad.conf)\n"
		"  -d                  debug logging; -dd for verbose (frame traces)\n"
		"  -s, --syslog        log to syslog instead of stderr\n"
		"      --demo          run the simulated-radio demo\n"
		"      --log-secrets   TEST ONLY: print keys and passphrases in debug logs\n"
		"  -v, --version       print the version\n"
		"  -h, --help          this text\n");
}

static int parse_options(int argc, char **argv, struct options *opt)
{
	enum { OPT_DEMO = 256, OPT_LOG_SECRETS };
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "syslog", no_argument, NULL, 's' },
		{ "demo", no_argument, NULL, OPT_DEMO },
		{ "log-secrets", no_argument, NULL, OPT_LOG_SECRETS },
		{ "version", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opt->config_path = "/etc/wpad/wpad.conf";
	while ((c = getopt_long(argc, argv, "c:dsvh", longopts, NULL)) != -1) {
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
		case OPT_DEMO:
			opt->demo = true;
			break;
		case OPT_LOG_SECRETS:
			opt->log_secrets = true;
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

static void on_stop_signal(struct loop_signal *sig, int signo, void *data)
{
	struct loop *loop = data;
	log_info("received %s, shutting down", strsignal(signo));
	loop_quit(loop, 0);
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };

	if (parse_options(argc, argv, &opt) < 0)
		return 2;
	log_open(opt.use_syslog ? LOG_TO_SYSLOG : LOG_TO_STDERR, "wpad");
	log_set_level(opt.debug >= 2 ? WLOG_VERBOSE : opt.debug == 1 ? WLOG_DEBUG : WLOG_INFO);
	log_set_timestamps(opt.debug > 0 || opt.demo);
	if (opt.log_secrets) {
		log_set_show_secrets(true);
		log_warn("--log-secrets: keys will appear in the log; never use this in production");
	}

	struct loop *loop = loop_new();
	if (!loop)
		return 1;
	struct loop_signal *sigint = loop_signal_new(loop, SIGINT, on_stop_signal, loop);
	struct loop_signal *sigterm = loop_signal_new(loop, SIGTERM, on_stop_signal, loop);
	if (!sigint || !sigterm) {
		loop_free(loop);
		return 1;
	}

	log_info("wpad %s starting (config %s)%s", WPAD_VERSION, opt.config_path,
		 opt.demo ? ", demo mode" : "");
	int rc = loop_run(loop);
	log_info("stopped");
	loop_signal_free(sigint);
	loop_signal_free(sigterm);
	loop_free(loop);
	log_close();
	return rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
