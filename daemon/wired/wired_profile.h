/* From the settings a user gives (daemon/config/eap_conf.h) to what the
 * EAP peer runs with (eap/eap_peer.h): the one mapping of the two. */
#ifndef WPAD_WIRED_WIRED_PROFILE_H
#define WPAD_WIRED_WIRED_PROFILE_H

#include "daemon/config/eap_conf.h"
#include "eap/eap_peer.h"

/* Fills out from c; out borrows c's strings. */
void wired_profile_map(const struct eap_conf *c, struct eap_peer_profile *out);

#endif
