/* wpactl's errors: one exit code per class of failure a script can act
 * on, and messages that say what happened and what to do.
 *
 * Every D-Bus error wpad sends is a name of its catalogue
 * (org.wpad1.Error.*, dbus/errors.h); the table in errors.c gives each one
 * its exit code, and the bus's own errors (wpad not running, no reply,
 * access denied) theirs. `wpactl --help` and wpactl(1) print the same
 * table (wc_exit_help()).
 */
#ifndef WPACTL_ERRORS_H
#define WPACTL_ERRORS_H

#include <stdbool.h>
#include <stdio.h>

#include "daemon/core/error.h"

enum wc_exit {
	WC_EXIT_OK = 0,
	WC_EXIT_FAILED = 1,
	WC_EXIT_USAGE = 2,
	WC_EXIT_NOT_FOUND = 3,
	WC_EXIT_PERMISSION = 4,
	WC_EXIT_AUTH = 5,
	WC_EXIT_REJECTED = 6,
	WC_EXIT_TIMEOUT = 7,
	WC_EXIT_HARDWARE = 8,
	WC_EXIT_NOT_RUNNING = 9,
	WC_EXIT_BUSY = 10,
	WC_EXIT_INTERRUPTED = 130,
};

#define WC_ERROR_TEXT_MAX 640

struct wc_error {
	enum wpad_error_code code; /* the catalogue's code; WPAD_ERR_FAILED outside it */
	int exit;                  /* enum wc_exit */
	char name[128];            /* the D-Bus error name; "" for wpactl's own */
	char text[WC_ERROR_TEXT_MAX]; /* what wpad (or the bus) said, or our sentence */
};

void wc_error_clear(struct wc_error *e);
bool wc_error_is_set(const struct wc_error *e);
/* From a D-Bus error name and message. */
void wc_error_from_dbus(struct wc_error *e, const char *name, const char *message);
/* One of wpactl's own, with the exit code given. */
void wc_error_set(struct wc_error *e, int exit, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The exit code of a catalogue code. */
int wc_exit_of(enum wpad_error_code code);

/* With on, wc_report() also writes {"error": {...}} to standard output. */
void wc_errors_json(bool on);

/* Prints the error to standard error and returns its exit code. The
 * headline says what happened and what to do; NULL uses the class's own
 * (wpad not running, ...) or what wpad said. wpad's own words follow on a
 * second line when the headline is not them. */
int wc_report(const struct wc_error *e, const char *headline_fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A usage error: "wpactl: TEXT" and exit code 2. */
int wc_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The exit-code table for --help. */
void wc_exit_help(FILE *f);

#endif
