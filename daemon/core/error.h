/* Structured errors: what went wrong, in terms a person can act on.
 *
 * Every failure a user can hit ends as one of these codes, with the IEEE
 * status or reason code when the air gave one, the errno when a system call
 * or driver gave one, and a human sentence. dbus/ maps each code to its
 * stable D-Bus name (org.wpad1.Error.*) in one table; wpactl maps it to an
 * exit code. The codes never change meaning once released.
 */
#ifndef WPAD_CORE_ERROR_H
#define WPAD_CORE_ERROR_H

#include <stdbool.h>
#include <stdint.h>

enum wpad_error_code {
	WPAD_OK = 0,
	WPAD_ERR_INVALID_ARGUMENTS,
	WPAD_ERR_INVALID_FORMAT,
	WPAD_ERR_NOT_FOUND,
	WPAD_ERR_NOT_SUPPORTED,
	WPAD_ERR_BUSY,
	WPAD_ERR_IN_PROGRESS,
	WPAD_ERR_ALREADY_EXISTS,
	WPAD_ERR_NOT_CONNECTED,
	WPAD_ERR_ABORTED,
	WPAD_ERR_TIMEOUT,
	WPAD_ERR_AUTHENTICATION_FAILED,
	WPAD_ERR_INVALID_PASSPHRASE,
	WPAD_ERR_ASSOCIATION_REJECTED,
	WPAD_ERR_FIRMWARE_MISSING,
	WPAD_ERR_REGULATORY_FORBIDDEN,
	WPAD_ERR_NO_AGENT,
	WPAD_ERR_PERMISSION_DENIED,
	WPAD_ERR_DRIVER_ERROR,
	WPAD_ERR_FAILED,
	WPAD_ERR_POSSIBLE_DOWNGRADE,
	/* 802.1X/EAP, one per stage that can fail (eap/eap_peer.h's enum
	 * eap_peer_err, mapped in eap/eap_peer_catalogue.c). */
	WPAD_ERR_EAP_NO_RESPONSE,
	WPAD_ERR_EAP_METHOD_REFUSED,
	WPAD_ERR_EAP_SERVER_UNTRUSTED,
	WPAD_ERR_EAP_SERVER_NAME_MISMATCH,
	WPAD_ERR_EAP_TLS_ALERT,
	WPAD_ERR_EAP_INNER_REJECTED,
	WPAD_ERR_EAP_FAILURE,
	WPAD_ERR_EAP_CREDENTIALS,
	WPAD_ERR_EAP_METHOD_UNAVAILABLE,
	WPAD_ERR_EAP_PROTOCOL,
	WPAD_ERR_COUNT
};

#define WPAD_ERROR_TEXT_MAX 256

struct wpad_error {
	enum wpad_error_code code;
	int ieee_status; /* IEEE 802.11 status code, -1 when none */
	int ieee_reason; /* IEEE 802.11 reason code, -1 when none */
	int err_no;      /* positive errno from the system or driver, 0 if none */
	uint64_t when;   /* CLOCK_REALTIME seconds */
	char text[WPAD_ERROR_TEXT_MAX]; /* what happened and what to do */
};

/* The short symbolic name, e.g. "InvalidPassphrase" (the D-Bus suffix). */
const char *wpad_error_name(enum wpad_error_code code);
/* A one-line description of what the code means, for docs and --help. */
const char *wpad_error_meaning(enum wpad_error_code code);

/* Maps a negative (or positive) errno onto the catalogue. Driver backends
 * use -EPERM for "forbidden by the regulatory domain" (drivers/driver.h). */
enum wpad_error_code wpad_error_code_from_errno(int err);

/* Fills *e; fmt is the human text. Returns e for chaining. */
struct wpad_error *wpad_error_set(struct wpad_error *e, enum wpad_error_code code, int err_no,
				  int ieee_status, int ieee_reason, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void wpad_error_clear(struct wpad_error *e);
bool wpad_error_is_set(const struct wpad_error *e);

#endif
