/* Names of RSN handshake failures and frame drop reasons. */
#include "daemon/rsn/rsn_err.h"

const char *rsn_fail_name(enum rsn_fail reason)
{
	switch (reason) {
	case RSN_FAIL_TIMEOUT:
		return "timeout";
	case RSN_FAIL_LIKELY_WRONG_PASSPHRASE:
		return "likely-wrong-passphrase";
	case RSN_FAIL_MIC:
		return "mic-failure";
	case RSN_FAIL_IE_MISMATCH:
		return "ie-mismatch";
	case RSN_FAIL_PROTOCOL:
		return "protocol-error";
	case RSN_FAIL_GROUP_TIMEOUT:
		return "group-key-timeout";
	case RSN_FAIL_INSTALL:
		return "key-install-failed";
	case RSN_FAIL_INTERNAL:
		return "internal-error";
	case RSN_FAIL_PMKID:
		return "pmkid-mismatch";
	}
	return "unknown";
}

const char *rsn_rx_strerror(int err)
{
	switch ((enum rsn_rx_err)err) {
	case RSN_RX_OK:
		return "accepted";
	case RSN_RX_E_MALFORMED:
		return "malformed EAPOL-Key frame";
	case RSN_RX_E_NOT_KEY:
		return "not an EAPOL-Key frame";
	case RSN_RX_E_DESCRIPTOR:
		return "not the RSN key descriptor";
	case RSN_RX_E_KEY_VERSION:
		return "key descriptor version does not match the AKM";
	case RSN_RX_E_KEY_INFO:
		return "Key Information bits fit no expected message";
	case RSN_RX_E_STATE:
		return "message not expected in this state";
	case RSN_RX_E_REPLAY:
		return "replay counter not acceptable";
	case RSN_RX_E_NONCE:
		return "nonce does not belong to this handshake";
	case RSN_RX_E_MIC:
		return "MIC does not verify";
	case RSN_RX_E_KEY_DATA:
		return "key data did not decrypt or parse";
	case RSN_RX_E_IE_MISMATCH:
		return "RSNE or RSNXE differs from the Beacon/Probe Response or the association";
	case RSN_RX_E_KEY:
		return "group key KDE missing or invalid";
	case RSN_RX_E_INTERNAL:
		return "internal error";
	case RSN_RX_E_STOPPED:
		return "handshake not running";
	case RSN_RX_E_NO_PMK:
		return "no PMK yet (authentication not finished)";
	}
	return "unknown error";
}

enum wpad_error_code rsn_fail_error_code(enum rsn_fail reason)
{
	switch (reason) {
	case RSN_FAIL_TIMEOUT:
	case RSN_FAIL_GROUP_TIMEOUT:
		return WPAD_ERR_TIMEOUT;
	case RSN_FAIL_LIKELY_WRONG_PASSPHRASE:
		return WPAD_ERR_INVALID_PASSPHRASE;
	case RSN_FAIL_IE_MISMATCH:
		return WPAD_ERR_POSSIBLE_DOWNGRADE;
	case RSN_FAIL_MIC:
	case RSN_FAIL_PROTOCOL:
	case RSN_FAIL_PMKID:
		return WPAD_ERR_AUTHENTICATION_FAILED;
	case RSN_FAIL_INSTALL:
		return WPAD_ERR_DRIVER_ERROR;
	case RSN_FAIL_INTERNAL:
		return WPAD_ERR_FAILED;
	}
	return WPAD_ERR_FAILED;
}
