/* wpactl: the command-line face of wpad's D-Bus API (org.wpad1).
 *
 * main() reads the command line against the table (table.c, parse.c),
 * connects to the bus, runs the command and returns its exit code
 * (errors.h). */
#include "daemon/version.h"
#include "wpactl/commands.h"
#include "wpactl/errors.h"
#include "wpactl/wpactl.h"

#include <stdlib.h>
#include <string.h>

static int parse_timeout(const char *text, int *ms)
{
	char *end;
	long s = strtol(text, &end, 10);
	if (*text < '0' || *text > '9' || *end || s < 1 || s > 86400)
		return -1;
	*ms = (int)s * 1000;
	return 0;
}

/* Whether the first word given begins some command (for the help hint). */
static bool known_first(const struct wc_args *a)
{
	size_t len = a->n_words ? strlen(a->words[0]) : 0;
	for (const struct wc_command *c = wc_commands; len && c->words; c++)
		if (!(c->flags & WC_CMD_HIDDEN) && strncmp(c->words, a->words[0], len) == 0 &&
		    c->words[len] == ' ')
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct wc_args a;
	struct wc_ctx c = { .timeout_ms = WC_DEFAULT_TIMEOUT_MS,
			    .long_timeout_ms = WC_LONG_TIMEOUT_MS };
	char err[768];
	enum wc_parse_status s = wc_parse(wc_commands, wc_options, argc, argv, &a, err, sizeof(err));
	c.json = a.has[WC_OPT_JSON];
	wc_errors_json(c.json);
	switch (s) {
	case WC_PARSE_HELP:
		wc_help(stdout, wc_commands, wc_options, &a);
		if (a.n_words == 0)
			wc_exit_help(stdout);
		return WC_EXIT_OK;
	case WC_PARSE_VERSION:
		printf("wpactl %s\n", WPAD_VERSION);
		return WC_EXIT_OK;
	case WC_PARSE_USAGE:
		wc_usage_error("%s", err);
		fprintf(stderr, "wpactl: `wpactl%s%s --help` tells more\n", known_first(&a) ? " " : "",
			known_first(&a) ? a.words[0] : "");
		return WC_EXIT_USAGE;
	case WC_PARSED:
		break;
	}
	if (a.has[WC_OPT_TIMEOUT] && parse_timeout(a.val[WC_OPT_TIMEOUT], &c.long_timeout_ms) < 0)
		return wc_usage_error("--timeout takes whole seconds from 1 to 86400, not '%s'",
				      a.val[WC_OPT_TIMEOUT]);
	for (size_t i = 0; i < a.n_words; i++)
		if (!wc_valid_utf8(a.words[i]))
			return wc_usage_error("'%s' is not valid UTF-8", a.words[i]);
	for (int o = 0; o < WC_OPT_COUNT; o++)
		if (a.has[o] && !wc_valid_utf8(a.val[o]))
			return wc_usage_error("the value of --%s is not valid UTF-8", wc_options[o].name);
	for (size_t i = 0; i < a.n_sets; i++)
		if (!wc_valid_utf8(a.sets[i]))
			return wc_usage_error("a --set value is not valid UTF-8");

	wc_signals_init();
	wc_bus_init(&c.bus, a.has[WC_OPT_BUS] ? a.val[WC_OPT_BUS] : NULL);
	int rc = a.cmd->run(&c, &a);
	wc_bus_close(&c.bus);
	dbus_shutdown(); /* libdbus's own allocations: a leak checker sees none */
	fflush(stdout);
	return rc;
}
