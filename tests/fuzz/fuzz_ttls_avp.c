/* Fuzz the EAP-TTLS AVP parser (eap/eap_ttls_avp.h).
 *
 * Input: phase-2 data as a server would send it. Oracles: every AVP the
 * walker returns lies inside the input; a parse that succeeds holds an
 * EAP packet of at most 65535 octets; a failed parse holds nothing; the
 * MS-CHAP fields point into the input.
 */
#include <stdint.h>
#include <stdlib.h>

#include "eap/eap_ttls_avp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int inside(const uint8_t *p, size_t len, const uint8_t *data, size_t size)
{
	return !p || (p >= data && p + len <= data + size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ttls_avp_iter it = { data, size };
	struct ttls_avp avp;
	struct ttls_avps a;
	char err[128];
	int r;

	while ((r = ttls_avp_next(&it, &avp, err, sizeof(err))) > 0)
		if (!inside(avp.data, avp.len, data, size))
			abort();
	if (ttls_avps_parse(data, size, &a, err, sizeof(err)) == 0) {
		if (a.eap_len > TTLS_EAP_MAX || (a.eap_len && !a.eap))
			abort();
		if (!inside(a.ms_success, a.ms_success_len, data, size) ||
		    !inside(a.ms_error, a.ms_error_len, data, size) ||
		    !inside(a.reply, a.reply_len, data, size))
			abort();
		ttls_avps_free(&a);
	} else if (a.eap || a.eap_len) {
		abort();
	}
	return 0;
}
