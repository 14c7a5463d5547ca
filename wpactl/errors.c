/* D-Bus errors -> exit codes and messages; see errors.h. */
#include "wpactl/errors.h"

#include "dbus/errors.h"
#include "wpactl/json.h"
#include "wpactl/output.h"

#include <stdarg.h>
#include <string.h>

/* The exit code of every catalogue code. The compiler cannot check that
 * each code is here, so wc_exit_of() treats a missing one as "failed". */
static const unsigned char exit_of_code[WPAD_ERR_COUNT] = {
	[WPAD_OK] = WC_EXIT_OK,
	[WPAD_ERR_INVALID_ARGUMENTS] = WC_EXIT_USAGE,
	[WPAD_ERR_INVALID_FORMAT] = WC_EXIT_USAGE,
	[WPAD_ERR_NOT_FOUND] = WC_EXIT_NOT_FOUND,
	[WPAD_ERR_NOT_SUPPORTED] = WC_EXIT_HARDWARE,
	[WPAD_ERR_BUSY] = WC_EXIT_BUSY,
	[WPAD_ERR_IN_PROGRESS] = WC_EXIT_BUSY,
	[WPAD_ERR_ALREADY_EXISTS] = WC_EXIT_FAILED,
	[WPAD_ERR_NOT_CONNECTED] = WC_EXIT_FAILED,
	[WPAD_ERR_ABORTED] = WC_EXIT_FAILED,
	[WPAD_ERR_TIMEOUT] = WC_EXIT_TIMEOUT,
	[WPAD_ERR_AUTHENTICATION_FAILED] = WC_EXIT_AUTH,
	[WPAD_ERR_INVALID_PASSPHRASE] = WC_EXIT_AUTH,
	[WPAD_ERR_ASSOCIATION_REJECTED] = WC_EXIT_REJECTED,
	[WPAD_ERR_FIRMWARE_MISSING] = WC_EXIT_HARDWARE,
	[WPAD_ERR_REGULATORY_FORBIDDEN] = WC_EXIT_HARDWARE,
	[WPAD_ERR_NO_AGENT] = WC_EXIT_AUTH,
	[WPAD_ERR_PERMISSION_DENIED] = WC_EXIT_PERMISSION,
	[WPAD_ERR_DRIVER_ERROR] = WC_EXIT_HARDWARE,
	[WPAD_ERR_FAILED] = WC_EXIT_FAILED,
	[WPAD_ERR_POSSIBLE_DOWNGRADE] = WC_EXIT_AUTH,
	[WPAD_ERR_BRIDGE_NOT_FOUND] = WC_EXIT_NOT_FOUND,
	[WPAD_ERR_NOT_BRIDGEABLE] = WC_EXIT_FAILED,
};

/* The bus's own errors (org.freedesktop.DBus.Error.*), by suffix. */
static const struct {
	const char *suffix;
	int exit;
	enum wpad_error_code code;
} bus_errors[] = {
	{ "ServiceUnknown", WC_EXIT_NOT_RUNNING, WPAD_ERR_FAILED },
	{ "NameHasNoOwner", WC_EXIT_NOT_RUNNING, WPAD_ERR_FAILED },
	{ "Spawn.", WC_EXIT_NOT_RUNNING, WPAD_ERR_FAILED }, /* activation failed */
	{ "NoServer", WC_EXIT_NOT_RUNNING, WPAD_ERR_FAILED },
	{ "FileNotFound", WC_EXIT_NOT_RUNNING, WPAD_ERR_FAILED },
	{ "Disconnected", WC_EXIT_NOT_RUNNING, WPAD_ERR_FAILED },
	{ "NoReply", WC_EXIT_TIMEOUT, WPAD_ERR_TIMEOUT },
	{ "Timeout", WC_EXIT_TIMEOUT, WPAD_ERR_TIMEOUT },
	{ "TimedOut", WC_EXIT_TIMEOUT, WPAD_ERR_TIMEOUT },
	{ "AccessDenied", WC_EXIT_PERMISSION, WPAD_ERR_PERMISSION_DENIED },
	{ "AuthFailed", WC_EXIT_PERMISSION, WPAD_ERR_PERMISSION_DENIED },
	{ "UnknownObject", WC_EXIT_NOT_FOUND, WPAD_ERR_NOT_FOUND },
	{ "InvalidArgs", WC_EXIT_USAGE, WPAD_ERR_INVALID_ARGUMENTS },
};

#define BUS_ERROR_PREFIX "org.freedesktop.DBus.Error."

/* What each exit code means, for --help and the man page. */
static const struct {
	int exit;
	const char *meaning;
} exit_docs[] = {
	{ WC_EXIT_OK, "success" },
	{ WC_EXIT_FAILED, "failed; the message says why" },
	{ WC_EXIT_USAGE, "wrong command line, or wpad refused a value" },
	{ WC_EXIT_NOT_FOUND, "no such device, network, known network or station" },
	{ WC_EXIT_PERMISSION, "permission denied: needs root or group netdev" },
	{ WC_EXIT_AUTH, "wrong or missing passphrase, or authentication refused" },
	{ WC_EXIT_REJECTED, "the access point rejected the association" },
	{ WC_EXIT_TIMEOUT, "no answer in time from the network, or from wpad" },
	{ WC_EXIT_HARDWARE, "not supported, not allowed in this country, firmware or driver" },
	{ WC_EXIT_NOT_RUNNING, "wpad is not running, or the bus cannot be reached" },
	{ WC_EXIT_BUSY, "busy: the device is doing something else; retry later" },
	{ WC_EXIT_INTERRUPTED, "interrupted (Ctrl-C)" },
};

static bool json_errors;

void wc_errors_json(bool on)
{
	json_errors = on;
}

void wc_error_clear(struct wc_error *e)
{
	memset(e, 0, sizeof(*e));
	e->code = WPAD_OK;
}

bool wc_error_is_set(const struct wc_error *e)
{
	return e->exit != WC_EXIT_OK;
}

int wc_exit_of(enum wpad_error_code code)
{
	if ((unsigned)code >= WPAD_ERR_COUNT)
		return WC_EXIT_FAILED;
	return code == WPAD_OK || exit_of_code[code] ? exit_of_code[code] : WC_EXIT_FAILED;
}

void wc_error_from_dbus(struct wc_error *e, const char *name, const char *message)
{
	wc_error_clear(e);
	snprintf(e->name, sizeof(e->name), "%s", name ? name : "");
	snprintf(e->text, sizeof(e->text), "%s", message ? message : "");
	e->code = WPAD_ERR_FAILED;
	e->exit = WC_EXIT_FAILED;
	if (name && strncmp(name, WDB_ERROR_PREFIX, strlen(WDB_ERROR_PREFIX)) == 0) {
		e->code = wdb_error_code_from_name(name);
		e->exit = wc_exit_of(e->code);
		if (e->exit == WC_EXIT_OK) /* cannot be: an error is never "ok" */
			e->exit = WC_EXIT_FAILED;
		return;
	}
	if (name && strncmp(name, BUS_ERROR_PREFIX, strlen(BUS_ERROR_PREFIX)) == 0) {
		const char *s = name + strlen(BUS_ERROR_PREFIX);
		for (size_t i = 0; i < sizeof(bus_errors) / sizeof(bus_errors[0]); i++)
			if (strncmp(s, bus_errors[i].suffix, strlen(bus_errors[i].suffix)) == 0) {
				e->exit = bus_errors[i].exit;
				e->code = bus_errors[i].code;
				return;
			}
	}
}

void wc_error_set(struct wc_error *e, int exit, const char *fmt, ...)
{
	va_list ap;
	wc_error_clear(e);
	e->exit = exit;
	e->code = WPAD_ERR_FAILED;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

/* The headline of a class when the command gave none. */
static void default_headline(const struct wc_error *e, char *out, size_t cap)
{
	bool from_bus = strncmp(e->name, BUS_ERROR_PREFIX, strlen(BUS_ERROR_PREFIX)) == 0;
	if (e->exit == WC_EXIT_NOT_RUNNING && from_bus &&
	    (strstr(e->name, "ServiceUnknown") || strstr(e->name, "NameHasNoOwner") ||
	     strstr(e->name, "Spawn."))) {
		snprintf(out, cap, "wpad is not running: start it with `systemctl start wpad`");
	} else if (e->exit == WC_EXIT_NOT_RUNNING && from_bus) {
		snprintf(out, cap, "lost the connection to the bus; is wpad or dbus restarting?");
	} else if (e->exit == WC_EXIT_TIMEOUT && from_bus) {
		snprintf(out, cap,
			 "wpad did not answer in time: it may be stuck (`journalctl -u wpad` shows "
			 "its log); --timeout waits longer");
	} else if (e->exit == WC_EXIT_PERMISSION) {
		snprintf(out, cap,
			 "permission denied: changing anything needs root or group netdev; run it "
			 "with sudo, or add yourself to netdev");
	} else if (e->name[0] && strstr(e->name, "UnknownMethod")) {
		snprintf(out, cap,
			 "this wpad does not know the call (is it older than wpactl?): %.400s",
			 e->text);
	} else {
		snprintf(out, cap, "%s", e->text[0] ? e->text : "failed");
	}
}

static void print_json_error(const struct wc_error *e, const char *headline)
{
	struct jw w;
	jw_init(&w, stdout);
	jw_object_begin(&w);
	jw_key(&w, "error");
	jw_object_begin(&w);
	jw_key(&w, "name");
	jw_string(&w, e->name);
	jw_key(&w, "exit");
	jw_int(&w, e->exit);
	jw_key(&w, "message");
	jw_string(&w, headline);
	jw_key(&w, "detail");
	jw_string(&w, e->text);
	jw_object_end(&w);
	jw_object_end(&w);
	jw_finish(&w);
}

int wc_report(const struct wc_error *e, const char *headline_fmt, ...)
{
	char head[WC_ERROR_TEXT_MAX + 128];
	if (headline_fmt) {
		va_list ap;
		va_start(ap, headline_fmt);
		vsnprintf(head, sizeof(head), headline_fmt, ap);
		va_end(ap);
	} else {
		default_headline(e, head, sizeof(head));
	}
	fputs("wpactl: ", stderr);
	wc_put_safe(stderr, head);
	fputc('\n', stderr);
	if (e->name[0] && !strstr(head, e->text)) { /* wpad's words, unless said already */
		const char *dot = strrchr(e->name, '.');
		fprintf(stderr, "wpactl: wpad said (%s): ", dot ? dot + 1 : e->name);
		wc_put_safe(stderr, e->text);
		fputc('\n', stderr);
	}
	if (json_errors)
		print_json_error(e, head);
	return e->exit ? e->exit : WC_EXIT_FAILED;
}

int wc_usage_error(const char *fmt, ...)
{
	char text[WC_ERROR_TEXT_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fputs("wpactl: ", stderr);
	wc_put_safe(stderr, text);
	fputc('\n', stderr);
	if (json_errors) {
		struct wc_error e;
		wc_error_set(&e, WC_EXIT_USAGE, "%s", text);
		print_json_error(&e, text);
	}
	return WC_EXIT_USAGE;
}

void wc_exit_help(FILE *f)
{
	fprintf(f, "\nExit codes:\n");
	for (size_t i = 0; i < sizeof(exit_docs) / sizeof(exit_docs[0]); i++) {
		int x = exit_docs[i].exit;
		fprintf(f, "  %3d  %s", x, exit_docs[i].meaning);
		bool first = true;
		for (int c = 1; c < WPAD_ERR_COUNT; c++)
			if (exit_of_code[c] == x && x != WC_EXIT_OK) {
				fprintf(f, "%s%s", first ? "\n         (" : ", ",
					wpad_error_name((enum wpad_error_code)c));
				first = false;
			}
		fprintf(f, "%s\n", first ? "" : ")");
	}
}
