/* Why an RSN key handshake failed, and why a received EAPOL-Key frame was
 * dropped.
 *
 * Two different things:
 *   - enum rsn_fail ends a handshake. It reaches the role through
 *     ops->on_failure() inside a struct rsn_failure, together with the IEEE
 *     802.11 reason code the role should deauthenticate with.
 *   - enum rsn_rx_err is what rsn_supp_rx_eapol()/rsn_auth_rx_eapol() return
 *     for one frame. Most dropped frames end nothing: the peer retransmits,
 *     or the timers decide. Each value is logged with its own text.
 */
#ifndef WPAD_RSN_ERR_H
#define WPAD_RSN_ERR_H

#include <stdint.h>

#include "daemon/core/error.h"

enum rsn_fail {
	RSN_FAIL_TIMEOUT = 1,		  /* the peer stopped answering */
	RSN_FAIL_LIKELY_WRONG_PASSPHRASE, /* our PMK and the peer's differ */
	RSN_FAIL_MIC,			  /* peer's MIC wrong after the PMK was proven */
	RSN_FAIL_IE_MISMATCH,		  /* RSNE/RSNXE differ from what was heard or sent
					   * (12.7.6.3/4): possible downgrade */
	RSN_FAIL_PROTOCOL,		  /* an authentic frame with invalid content */
	RSN_FAIL_GROUP_TIMEOUT,		  /* group key handshake unanswered */
	RSN_FAIL_INSTALL,		  /* the driver refused a key */
	RSN_FAIL_INTERNAL,		  /* crypto, RNG or frame building failed */
	RSN_FAIL_PMKID,			  /* message 1 named another PMKSA than ours */
};

struct rsn_failure {
	enum rsn_fail reason;
	uint16_t ieee_reason; /* WLAN_REASON_*: deauthenticate with this */
	const char *detail;   /* static text, for logs and D-Bus messages */
};

enum rsn_rx_err {
	RSN_RX_OK = 0,
	RSN_RX_E_MALFORMED = -1,   /* the codec rejected the frame */
	RSN_RX_E_NOT_KEY = -2,	   /* an EAPOL packet that is not EAPOL-Key */
	RSN_RX_E_DESCRIPTOR = -3,  /* not the RSN key descriptor */
	RSN_RX_E_KEY_VERSION = -4, /* descriptor version does not fit the AKM */
	RSN_RX_E_KEY_INFO = -5,	   /* Key Information bits fit no message */
	RSN_RX_E_STATE = -6,	   /* a valid message, not expected now */
	RSN_RX_E_REPLAY = -7,	   /* replay counter not acceptable */
	RSN_RX_E_NONCE = -8,	   /* nonce does not belong to this handshake */
	RSN_RX_E_MIC = -9,	   /* MIC does not verify */
	RSN_RX_E_KEY_DATA = -10,   /* key data did not decrypt or parse */
	RSN_RX_E_IE_MISMATCH = -11, /* RSNE/RSNXE differ: the handshake failed */
	RSN_RX_E_KEY = -12,	   /* GTK/IGTK KDE missing or invalid */
	RSN_RX_E_INTERNAL = -13,   /* crypto or a driver op failed */
	RSN_RX_E_STOPPED = -14,	   /* the machine is idle or failed */
	RSN_RX_E_NO_PMK = -15,	   /* no PMK yet: authentication not finished */
};

const char *rsn_fail_name(enum rsn_fail reason);
const char *rsn_rx_strerror(int err);
/* The error catalogue entry a role reports for a handshake failure. */
enum wpad_error_code rsn_fail_error_code(enum rsn_fail reason);

#endif
