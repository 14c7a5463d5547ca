/* The command-line grammar as tables, and the one parser that reads them.
 *
 * A command is a line of words (table.c):
 *
 *   "station DEV connect SSID"
 *
 * lower-case words must be typed as they are, upper-case words are
 * placeholders for a value (a device, a network name), and "on|off" is a
 * choice among literal words. Placeholders and choices are collected in
 * order into wc_args.pos[]. Options (--passphrase P, --json, ...) may come
 * anywhere after "wpactl"; "--" ends them, so a network called "-x" can be
 * named. Each command lists the options it takes; the global ones (--bus,
 * --json, --timeout, --help) go with every command.
 *
 * Pure: no D-Bus, no I/O besides the help text written to a FILE.
 */
#ifndef WPACTL_PARSE_H
#define WPACTL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum wc_opt {
	WC_OPT_HELP,
	WC_OPT_VERSION,
	WC_OPT_JSON,
	WC_OPT_BUS,
	WC_OPT_TIMEOUT,
	WC_OPT_PASSPHRASE,
	WC_OPT_SECURITY,
	WC_OPT_SSID,
	WC_OPT_CHANNEL,
	WC_OPT_BAND,
	WC_OPT_HIDDEN,
	WC_OPT_COUNTRY,
	WC_OPT_MAX_STATIONS,
	WC_OPT_ISOLATE,
	WC_OPT_SET,
	WC_OPT_BSSID,
	/* known add-8021x: the [EAP] profile, one option per key */
	WC_OPT_METHOD,
	WC_OPT_IDENTITY,
	WC_OPT_ANON_IDENTITY,
	WC_OPT_PHASE2,
	WC_OPT_CA_CERT,
	WC_OPT_CA_PATH,
	WC_OPT_CA_SYSTEM,
	WC_OPT_SERVER_NAME,
	WC_OPT_DOMAIN_SUFFIX,
	WC_OPT_TLS_MIN,
	WC_OPT_CLIENT_CERT,
	WC_OPT_PRIVATE_KEY,
	WC_OPT_PASSWORD,
	WC_OPT_KEY_PASSPHRASE,
	WC_OPT_STORE_SECRETS,
	WC_OPT_UNVERIFIED,
	WC_OPT_COUNT
};

#define WC_O(opt) (1u << (opt))

struct wc_option {
	const char *name;  /* long name, without "--" */
	char short_name;   /* 0 for none */
	const char *arg;   /* the value's name in the help; NULL for a flag */
	bool global;       /* every command takes it */
	bool repeat;       /* may be given more than once (values in wc_args.sets) */
	const char *help;
};

struct wc_ctx;
struct wc_args;
typedef int (*wc_run_fn)(struct wc_ctx *c, const struct wc_args *a);

enum wc_cmd_flags {
	WC_CMD_HIDDEN = 1u << 1, /* not in the help (used by the shell completion) */
	WC_CMD_NO_JSON = 1u << 2, /* --json means nothing here */
};

struct wc_command {
	const char *words;
	unsigned opts; /* WC_O() bits of the non-global options it takes */
	wc_run_fn run;
	unsigned flags;
	const char *help; /* one line */
	const char *more; /* further lines for "wpactl COMMAND --help", or NULL */
};

#define WC_POS_MAX 4
#define WC_WORDS_MAX 8
#define WC_SET_MAX 16

struct wc_args {
	const struct wc_command *cmd;
	const char *pos[WC_POS_MAX]; /* placeholders and choices, in order */
	size_t n_pos;
	const char *words[WC_WORDS_MAX]; /* every command word given */
	size_t n_words;
	bool has[WC_OPT_COUNT];
	const char *val[WC_OPT_COUNT]; /* the value of an option (the last if repeated) */
	const char *sets[WC_SET_MAX];  /* every value of a repeatable option */
	size_t n_sets;
};

enum wc_parse_status {
	WC_PARSED,        /* a->cmd is set */
	WC_PARSE_HELP,    /* --help: a->words says which commands to show */
	WC_PARSE_VERSION, /* --version */
	WC_PARSE_USAGE,   /* err says what is wrong */
};

/* The table of options is indexed by enum wc_opt; the command table ends
 * with an entry whose words are NULL. */
enum wc_parse_status wc_parse(const struct wc_command *cmds, const struct wc_option *opts,
			      int argc, char *const argv[], struct wc_args *a, char *err,
			      size_t cap);

/* The help for the commands a->words begins (every command when none);
 * for one command (a->cmd set, or the only match) its options too. */
void wc_help(FILE *f, const struct wc_command *cmds, const struct wc_option *opts,
	     const struct wc_args *a);

/* The edit distance of a and b, capped at 3 (for "did you mean"). */
int wc_distance(const char *a, const char *b);

#endif
