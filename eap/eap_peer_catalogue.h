/* The EAP peer's per-stage errors in the daemon's error catalogue
 * (daemon/core/error.h, and so org.wpad1.Error.Eap*): the one mapping,
 * used by every role that runs an EAP peer (wired port, station). */
#ifndef WPAD_EAP_EAP_PEER_CATALOGUE_H
#define WPAD_EAP_EAP_PEER_CATALOGUE_H

#include "daemon/core/error.h"
#include "eap/eap_peer.h"

/* WPAD_OK for EAP_PEER_ERR_NONE. */
enum wpad_error_code eap_peer_err_code(enum eap_peer_err err);

#endif
