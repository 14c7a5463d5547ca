/* A scripted authenticator for the EAP peer tests: it records the
 * Responses the peer sends and answers need_secret as told. */
#ifndef WPAD_TESTS_UNIT_TEST_EAP_SCRIPT_H
#define WPAD_TESTS_UNIT_TEST_EAP_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eap/eap_peer.h"

struct script {
	struct eap_peer *peer;
	uint8_t last[2048];
	size_t last_len;
	unsigned tx, done_calls, asks;
	enum eap_peer_result done_res;
	enum eap_peer_secret asked;
	const char *answer_now; /* answer need_secret from inside the callback */
	bool refuse_now;
};

extern const struct eap_peer_ops script_ops;

/* A Request (code 1) with this Type and type data; eap_peer_rx's result. */
int send_req(struct script *s, uint8_t id, uint8_t type, const void *data, size_t len);
/* Success (3) or Failure (4). */
int send_final(struct script *s, uint8_t code, uint8_t id);
/* Asserts the last Response: id, Type, type data. */
void expect_resp(const struct script *s, uint8_t id, uint8_t type, const void *data, size_t len);

#endif
