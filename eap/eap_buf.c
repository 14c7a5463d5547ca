/* The growable buffer methods write their Responses into (eap_peer_method.h).
 * Every byte that leaves it is wiped: Responses carry password proofs. */
#include "eap/eap_peer_method.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto/secure.h"

/* An EAP packet never exceeds 65535 octets (a 16-bit Length). */
#define EAP_BUF_MAX 65535u

static int reserve(struct eap_buf *b, size_t more)
{
	if (more > EAP_BUF_MAX || b->len > EAP_BUF_MAX - more)
		return -ENOMEM;
	size_t need = b->len + more;
	if (need <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	/* Not realloc: the old block may hold secrets and must be wiped. */
	uint8_t *n = malloc(cap);
	if (!n)
		return -ENOMEM;
	if (b->len)
		memcpy(n, b->data, b->len);
	crypto_zero(b->data, b->cap);
	free(b->data);
	b->data = n;
	b->cap = cap;
	return 0;
}

int eap_buf_put(struct eap_buf *b, const void *data, size_t len)
{
	if (!b || (!data && len))
		return -EINVAL;
	int r = reserve(b, len);
	if (r)
		return r;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	return 0;
}

int eap_buf_put_u8(struct eap_buf *b, uint8_t v)
{
	return eap_buf_put(b, &v, 1);
}

int eap_buf_put_be16(struct eap_buf *b, uint16_t v)
{
	uint8_t o[2] = { (uint8_t)(v >> 8), (uint8_t)v };
	return eap_buf_put(b, o, sizeof(o));
}

int eap_buf_put_be32(struct eap_buf *b, uint32_t v)
{
	uint8_t o[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
	return eap_buf_put(b, o, sizeof(o));
}

void eap_buf_clear(struct eap_buf *b)
{
	if (!b)
		return;
	crypto_zero(b->data, b->cap);
	b->len = 0;
}

void eap_buf_release(struct eap_buf *b)
{
	if (!b)
		return;
	crypto_zero(b->data, b->cap);
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
