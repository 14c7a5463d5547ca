/* The scripted authenticator of the EAP peer tests (test_eap_script.h). */
#include "tests/unit/test_eap_script.h"

#include <check.h>
#include <string.h>

static int s_tx(void *ctx, const uint8_t *pkt, size_t len)
{
	struct script *s = ctx;
	ck_assert_uint_le(len, sizeof(s->last));
	memcpy(s->last, pkt, len);
	s->last_len = len;
	s->tx++;
	return 0;
}

static void s_done(void *ctx, enum eap_peer_result r)
{
	struct script *s = ctx;
	s->done_calls++;
	s->done_res = r;
}

static void s_need(void *ctx, enum eap_peer_secret which)
{
	struct script *s = ctx;
	s->asks++;
	s->asked = which;
	if (s->answer_now || s->refuse_now)
		ck_assert_int_eq(eap_peer_set_secret(s->peer, which, s->answer_now), 0);
}

const struct eap_peer_ops script_ops = { .tx = s_tx, .done = s_done, .need_secret = s_need };

int send_req(struct script *s, uint8_t id, uint8_t type, const void *data, size_t len)
{
	uint8_t pkt[1024];
	size_t plen = 5 + len;
	ck_assert_uint_le(plen, sizeof(pkt));
	pkt[0] = 1;
	pkt[1] = id;
	pkt[2] = (uint8_t)(plen >> 8);
	pkt[3] = (uint8_t)plen;
	pkt[4] = type;
	if (len)
		memcpy(pkt + 5, data, len);
	return eap_peer_rx(s->peer, pkt, plen);
}

int send_final(struct script *s, uint8_t code, uint8_t id)
{
	uint8_t pkt[4] = { code, id, 0, 4 };
	return eap_peer_rx(s->peer, pkt, sizeof(pkt));
}

void expect_resp(const struct script *s, uint8_t id, uint8_t type, const void *data,
			size_t len)
{
	ck_assert_uint_eq(s->last_len, 5 + len);
	ck_assert_uint_eq(s->last[0], 2);
	ck_assert_uint_eq(s->last[1], id);
	ck_assert_uint_eq((size_t)(s->last[2] << 8 | s->last[3]), 5 + len);
	ck_assert_uint_eq(s->last[4], type);
	if (len)
		ck_assert_mem_eq(s->last + 5, data, len);
}

