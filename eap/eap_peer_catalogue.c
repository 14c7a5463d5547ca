/* enum eap_peer_err -> enum wpad_error_code; see eap_peer_catalogue.h. */
#include "eap/eap_peer_catalogue.h"

enum wpad_error_code eap_peer_err_code(enum eap_peer_err err)
{
	switch (err) {
	case EAP_PEER_ERR_NONE: return WPAD_OK;
	case EAP_PEER_ERR_NO_RESPONSE: return WPAD_ERR_EAP_NO_RESPONSE;
	case EAP_PEER_ERR_METHOD_REFUSED: return WPAD_ERR_EAP_METHOD_REFUSED;
	case EAP_PEER_ERR_SERVER_UNTRUSTED: return WPAD_ERR_EAP_SERVER_UNTRUSTED;
	case EAP_PEER_ERR_SERVER_NAME: return WPAD_ERR_EAP_SERVER_NAME_MISMATCH;
	case EAP_PEER_ERR_TLS_ALERT: return WPAD_ERR_EAP_TLS_ALERT;
	case EAP_PEER_ERR_INNER_REJECTED: return WPAD_ERR_EAP_INNER_REJECTED;
	case EAP_PEER_ERR_FAILURE: return WPAD_ERR_EAP_FAILURE;
	case EAP_PEER_ERR_CREDENTIALS: return WPAD_ERR_EAP_CREDENTIALS;
	case EAP_PEER_ERR_METHOD_UNAVAILABLE: return WPAD_ERR_EAP_METHOD_UNAVAILABLE;
	case EAP_PEER_ERR_PROTOCOL: return WPAD_ERR_EAP_PROTOCOL;
	}
	return WPAD_ERR_FAILED;
}
