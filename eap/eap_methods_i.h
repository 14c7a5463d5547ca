/* The built-in peer methods, one file each; listed once, in eap_registry.c.
 * Private to eap/ (and the tests). */
#ifndef WPAD_EAP_METHODS_I_H
#define WPAD_EAP_METHODS_I_H

#include "eap/eap_peer_method.h"

extern const struct eap_peer_method eap_peer_md5;
extern const struct eap_peer_method eap_peer_gtc;
extern const struct eap_peer_method eap_peer_mschapv2;
extern const struct eap_peer_method eap_peer_tls;
extern const struct eap_peer_method eap_peer_peap;
extern const struct eap_peer_method eap_peer_ttls;

#endif
