/* The catalogue of structured errors; see error.h. */
#include "daemon/core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct catalogue_entry {
	const char *name;
	const char *meaning;
};

static const struct catalogue_entry catalogue[WPAD_ERR_COUNT] = {
	[WPAD_OK] = { "None", "no error" },
	[WPAD_ERR_INVALID_ARGUMENTS] = { "InvalidArguments",
		"an argument is missing, of the wrong type, or out of range" },
	[WPAD_ERR_INVALID_FORMAT] = { "InvalidFormat",
		"a value is malformed, e.g. a passphrase not 8-63 characters or 64 hex digits" },
	[WPAD_ERR_NOT_FOUND] = { "NotFound",
		"the network, device or object does not exist or is out of range" },
	[WPAD_ERR_NOT_SUPPORTED] = { "NotSupported",
		"the hardware or driver lacks a capability the request needs" },
	[WPAD_ERR_BUSY] = { "Busy", "the device is doing something else; retry later" },
	[WPAD_ERR_IN_PROGRESS] = { "InProgress", "the same operation is already running" },
	[WPAD_ERR_ALREADY_EXISTS] = { "AlreadyExists", "the object already exists" },
	[WPAD_ERR_NOT_CONNECTED] = { "NotConnected", "the device is not connected" },
	[WPAD_ERR_ABORTED] = { "Aborted", "the operation was cancelled" },
	[WPAD_ERR_TIMEOUT] = { "Timeout", "the peer did not answer in time" },
	[WPAD_ERR_AUTHENTICATION_FAILED] = { "AuthenticationFailed",
		"the network refused our authentication" },
	[WPAD_ERR_INVALID_PASSPHRASE] = { "InvalidPassphrase",
		"the passphrase does not match the network's" },
	[WPAD_ERR_ASSOCIATION_REJECTED] = { "AssociationRejected",
		"the access point rejected the association (IEEE status code given)" },
	[WPAD_ERR_FIRMWARE_MISSING] = { "FirmwareMissing",
		"the adapter's firmware is not installed or failed to load" },
	[WPAD_ERR_REGULATORY_FORBIDDEN] = { "RegulatoryForbidden",
		"the channel, band or power is not allowed in the current country" },
	[WPAD_ERR_NO_AGENT] = { "NoAgent", "a secret is needed and no agent is registered" },
	[WPAD_ERR_PERMISSION_DENIED] = { "PermissionDenied",
		"the caller is not allowed to do this" },
	[WPAD_ERR_DRIVER_ERROR] = { "DriverError", "the driver reported an error (errno given)" },
	[WPAD_ERR_FAILED] = { "Failed", "an unexpected failure; the text says what happened" },
	[WPAD_ERR_POSSIBLE_DOWNGRADE] = { "PossibleDowngrade",
		"the access point's security elements changed during the handshake "
		"(IEEE reason 17): possible downgrade attack" },
	[WPAD_ERR_EAP_NO_RESPONSE] = { "EapNoResponse",
		"802.1X: no authenticator answered, or it stopped answering" },
	[WPAD_ERR_EAP_METHOD_REFUSED] = { "EapMethodRefused",
		"802.1X: the server offered only EAP methods the profile does not allow "
		"(the text lists them)" },
	[WPAD_ERR_EAP_SERVER_UNTRUSTED] = { "EapServerUntrusted",
		"802.1X: the server's certificate does not chain to the profile's CA" },
	[WPAD_ERR_EAP_SERVER_NAME_MISMATCH] = { "EapServerNameMismatch",
		"802.1X: the server's certificate is for another name (the text names it)" },
	[WPAD_ERR_EAP_TLS_ALERT] = { "EapTlsAlert",
		"802.1X: the TLS handshake ended with an alert (the text names it)" },
	[WPAD_ERR_EAP_INNER_REJECTED] = { "EapInnerRejected",
		"802.1X: the inner authentication was rejected: wrong identity or password" },
	[WPAD_ERR_EAP_FAILURE] = { "EapFailure",
		"802.1X: the server sent EAP-Failure with no better reason" },
	[WPAD_ERR_EAP_CREDENTIALS] = { "EapCredentials",
		"802.1X: a credential is missing or unusable (password, key, certificate, "
		"passphrase)" },
	[WPAD_ERR_EAP_METHOD_UNAVAILABLE] = { "EapMethodUnavailable",
		"802.1X: this build cannot run the method (e.g. MD4 missing for MSCHAPv2)" },
	[WPAD_ERR_EAP_PROTOCOL] = { "EapProtocolError",
		"802.1X: the server's EAP exchange was malformed" },
};

const char *wpad_error_name(enum wpad_error_code code)
{
	return (unsigned)code < WPAD_ERR_COUNT ? catalogue[code].name : "Failed";
}

const char *wpad_error_meaning(enum wpad_error_code code)
{
	return (unsigned)code < WPAD_ERR_COUNT ? catalogue[code].meaning : catalogue[WPAD_ERR_FAILED].meaning;
}

enum wpad_error_code wpad_error_code_from_errno(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case 0:
		return WPAD_OK;
	case EINVAL:
	case E2BIG:
	case ERANGE:
		return WPAD_ERR_INVALID_ARGUMENTS;
	case EBADMSG:
	case EILSEQ:
		return WPAD_ERR_INVALID_FORMAT;
	case ENOENT:
	case ENODEV:
	case ENXIO:
	case EHOSTUNREACH:
		return WPAD_ERR_NOT_FOUND;
	case EOPNOTSUPP:
	case ENOSYS:
	case EAFNOSUPPORT:
	case EPROTONOSUPPORT:
		return WPAD_ERR_NOT_SUPPORTED;
	case EBUSY:
	case EAGAIN:
	case ENOBUFS:
		return WPAD_ERR_BUSY;
	case EINPROGRESS:
	case EALREADY:
		return WPAD_ERR_IN_PROGRESS;
	case EEXIST:
		return WPAD_ERR_ALREADY_EXISTS;
	case ENOTCONN:
	case ENOLINK:
		return WPAD_ERR_NOT_CONNECTED;
	case ECANCELED:
	case EINTR:
		return WPAD_ERR_ABORTED;
	case ETIMEDOUT:
		return WPAD_ERR_TIMEOUT;
	case EKEYREJECTED:
		return WPAD_ERR_INVALID_PASSPHRASE;
	case ECONNREFUSED:
		return WPAD_ERR_ASSOCIATION_REJECTED;
	case ENOPKG:
		return WPAD_ERR_FIRMWARE_MISSING;
	case EPERM:
		return WPAD_ERR_REGULATORY_FORBIDDEN;
	case EACCES:
		return WPAD_ERR_PERMISSION_DENIED;
	case EIO:
	case ENETDOWN:
	case ERFKILL:
		return WPAD_ERR_DRIVER_ERROR;
	default:
		return WPAD_ERR_FAILED;
	}
}

struct wpad_error *wpad_error_set(struct wpad_error *e, enum wpad_error_code code, int err_no,
				  int ieee_status, int ieee_reason, const char *fmt, ...)
{
	va_list ap;
	e->code = code;
	e->err_no = err_no < 0 ? -err_no : err_no;
	e->ieee_status = ieee_status;
	e->ieee_reason = ieee_reason;
	e->when = (uint64_t)time(NULL);
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	return e;
}

void wpad_error_clear(struct wpad_error *e)
{
	memset(e, 0, sizeof(*e));
	e->ieee_status = -1;
	e->ieee_reason = -1;
}

bool wpad_error_is_set(const struct wpad_error *e)
{
	return e->code != WPAD_OK;
}
