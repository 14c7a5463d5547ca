/* wpad-medium: serve a simulated shared medium in a folder, for simulated
 * radios in other processes, until SIGINT or SIGTERM.
 *
 *   wpad-medium -D DIR [-d] [--capture FILE] [--loss PCT] [--seed N]
 *   wpad-medium -D DIR ctl COMMAND ...   (talk to a running medium)
 */
#define LOG_TAG "medium"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "drivers/sim/medium-ctl.h"
#include "drivers/sim/medium.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct options {
	const char *dir;
	const char *capture;
	int debug;
	long loss;
	const char *seed;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: wpad-medium -D DIR [OPTIONS]\n"
		"       wpad-medium -D DIR ctl COMMAND [ARGS...]\n"
		"  -D, --dir DIR       folder of the medium socket (created if needed)\n"
		"  -d                  debug logging; -dd for per-message traces\n"
		"      --capture FILE  write every frame on the air to a pcap file\n"
		"      --loss PCT      loss per attempt for pairs without a set link\n"
		"      --seed N        loss PRNG seed (default $WPAD_MEDIUM_SEED or random)\n"
		"  -h, --help          this text\n");
	medium_ctl_usage(out);
}

static int parse_options(int argc, char **argv, struct options *opt)
{
	enum { OPT_CAPTURE = 256, OPT_LOSS, OPT_SEED };
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'D' },
		{ "capture", required_argument, NULL, OPT_CAPTURE },
		{ "loss", required_argument, NULL, OPT_LOSS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;

	/* "+": stop at the first non-option, so "ctl ..." keeps its own args. */
	while ((c = getopt_long(argc, argv, "+D:dh", longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			opt->dir = optarg;
			break;
		case 'd':
			opt->debug++;
			break;
		case OPT_CAPTURE:
			opt->capture = optarg;
			break;
		case OPT_LOSS:
			opt->loss = strtol(optarg, &end, 10);
			if (*end || end == optarg || opt->loss < 0 || opt->loss > 100) {
				fprintf(stderr, "wpad-medium: --loss wants 0..100\n");
				return -1;
			}
			break;
		case OPT_SEED:
			opt->seed = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (!opt->dir) {
		fprintf(stderr, "wpad-medium: -D DIR is required\n");
		usage(stderr);
		return -1;
	}
	return 0;
}

static void on_stop_signal(struct loop_signal *sig, int signo, void *data)
{
	log_info("received %s, shutting down", strsignal(signo));
	loop_quit(data, 0);
}

static int configure(struct medium *m, const struct options *opt)
{
	if (opt->seed) {
		char *end;
		unsigned long long v = strtoull(opt->seed, &end, 0);
		if (*end || end == opt->seed) {
			log_error("--seed wants a number");
			return -EINVAL;
		}
		medium_set_seed(m, v);
	}
	medium_set_default_loss(m, (uint8_t)opt->loss);
	return opt->capture ? medium_capture_start(m, opt->capture) : 0;
}

static int serve(const struct options *opt)
{
	struct loop *loop = loop_new();
	int err = 0, rc = 1;

	if (!loop)
		return 1;
	struct loop_signal *sigint = loop_signal_new(loop, SIGINT, on_stop_signal, loop);
	struct loop_signal *sigterm = loop_signal_new(loop, SIGTERM, on_stop_signal, loop);
	struct medium *m = sigint && sigterm ? medium_new(loop, opt->dir, &err) : NULL;
	if (m && configure(m, opt) == 0) {
		log_info("wpad-medium running in %s", opt->dir);
		rc = loop_run(loop) == 0 ? 0 : 1;
		log_info("stopped");
	}
	medium_free(m);
	loop_signal_free(sigint);
	loop_signal_free(sigterm);
	loop_free(loop);
	return rc;
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };

	if (parse_options(argc, argv, &opt) < 0)
		return 2;
	if (optind < argc) {
		if (strcmp(argv[optind], "ctl") != 0) {
			fprintf(stderr, "wpad-medium: unexpected argument '%s'\n", argv[optind]);
			usage(stderr);
			return 2;
		}
		return medium_ctl_main(opt.dir, argc - optind - 1, argv + optind + 1);
	}
	log_open(LOG_TO_STDERR, "wpad-medium");
	log_set_level(opt.debug >= 2 ? WLOG_VERBOSE : opt.debug == 1 ? WLOG_DEBUG : WLOG_INFO);
	log_set_timestamps(opt.debug > 0);
	int rc = serve(&opt);
	log_close();
	return rc;
}
