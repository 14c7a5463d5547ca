/* OWE (RFC 8110) as an authentication protocol of auth_proto.h: Open
 * System frames, the Diffie-Hellman exchange in the (Re)Association
 * frames. Found by auth_proto_find_akm(WLAN_AUTH_OPEN, RSN_AKM_OWE, ...). */
#ifndef WPAD_RSN_AUTH_OWE_H
#define WPAD_RSN_AUTH_OWE_H

#include <stdint.h>

#include "daemon/rsn/auth_proto.h"

/* Groups an AP takes by default (bit n: group n): 19, 20 and 21. */
#define AUTH_OWE_AP_GROUPS_DEFAULT ((1u << 19) | (1u << 20) | (1u << 21))

extern const struct auth_proto auth_owe;

/* AP: the groups to accept, as a mask (bit n: group n). Returns 0 or
 * -ENOMEM. */
int auth_owe_ap_set_groups(struct auth_sess *s, uint32_t mask);
/* The group of the session's current key, 0 before there is one. */
uint16_t auth_owe_group(struct auth_sess *s);

#endif
