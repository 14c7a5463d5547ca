/* Fuzz known-network files (daemon/store/known_network*.c).
 *
 * Input: byte 0 picks the security (0 open, 1 psk, 2 8021x), the rest is
 * the file. The SSID is fixed.
 * Oracle: a file that loads writes back as text that loads to the same
 * network, and writing that gives the same text again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/store/known_network.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool load(const char *text, size_t len, enum known_security sec, struct known_network *net)
{
	struct ini *ini;
	struct cfg_error err;
	int ret;

	known_network_init(net, (const uint8_t *)"fuzz", 4, sec);
	if (ini_parse(text, len, "f.psk", &ini, &err) < 0)
		return false;
	ret = known_network_from_ini(net, ini, &err);
	ini_free(ini);
	if (ret < 0) {
		known_network_clear(net);
		return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct known_network a, b;
	struct strbuf t1 = STRBUF_INIT, t2 = STRBUF_INIT;

	if (size < 1 || data[0] > 2)
		return 0;
	enum known_security sec = (enum known_security)data[0];
	if (!load((const char *)data + 1, size - 1, sec, &a))
		return 0;
	if (known_network_format(&a, &t1) < 0)
		abort();
	if (!load(t1.data ? t1.data : "", t1.len, sec, &b))
		abort();
	if (a.autoconnect != b.autoconnect || a.hidden != b.hidden ||
	    a.has_passphrase != b.has_passphrase || a.psk_valid != b.psk_valid ||
	    (a.has_passphrase && strcmp(a.passphrase, b.passphrase) != 0) ||
	    (a.psk_valid && memcmp(a.psk, b.psk, 32) != 0) ||
	    a.last_connected != b.last_connected || a.n_freqs != b.n_freqs ||
	    memcmp(a.freqs, b.freqs, a.n_freqs * sizeof(a.freqs[0])) || a.n_extras != b.n_extras)
		abort();
	if (known_network_format(&b, &t2) < 0 || t1.len != t2.len ||
	    (t1.len && memcmp(t1.data, t2.data, t1.len) != 0))
		abort();
	strbuf_free_secret(&t1);
	strbuf_free_secret(&t2);
	known_network_clear(&a);
	known_network_clear(&b);
	return 0;
}
