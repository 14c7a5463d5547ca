/* wpactl's org.wpad1.Agent: wpad asks it for the secrets of a network it
 * is connecting to, and it asks the person at the terminal (or gives the
 * passphrase of --passphrase without asking).
 *
 * The agent answers only wpad (the owner of org.wpad1 when it was
 * registered): another client on the bus cannot make it prompt. Prompts go
 * to /dev/tty with echo off, so neither standard input nor output needs to
 * be a terminal, and the terminal is restored on every way out, Ctrl-C
 * included. Requests are asked one at a time, in order.
 */
#ifndef WPACTL_AGENT_H
#define WPACTL_AGENT_H

#include <stdbool.h>

#include "wpactl/errors.h"

struct wc_ctx;

#define WC_AGENT_PATH "/wpactl/agent"

struct wc_agent_stats {
	unsigned asked;      /* requests wpad made */
	unsigned answered;   /* requests answered with a secret */
	bool user_cancelled; /* Ctrl-D, or too many bad tries */
	bool no_tty;         /* a request came and there was no terminal */
	bool released;       /* wpad sent Release() */
};

/* Exports the agent on the connection and registers it with wpad.
 * preset: the passphrase to give (NULL: ask on the terminal). Returns 0,
 * or -1 with *err (code WPAD_ERR_ALREADY_EXISTS: another agent is
 * registered; only one can be). */
int wc_agent_start(struct wc_ctx *c, const char *preset, struct wc_error *err);
/* Answers what still waits (cancelled), restores the terminal and
 * unregisters when wpad still runs. */
void wc_agent_stop(struct wc_ctx *c);
const struct wc_agent_stats *wc_agent_stats(void);

/* Whether a terminal can be opened to ask on. */
bool wc_have_tty(void);
/* A WPA passphrase: 8 to 63 printable ASCII characters, or 64 hex digits. */
bool wc_passphrase_ok(const char *p);
/* Reads one line from standard input for "--passphrase -" into out.
 * false when there is none. */
bool wc_read_stdin_line(char *out, size_t cap);

#endif
