/* Fuzz the list files: hostapd's wpa_psk_file (pskfile.c) and the MAC
 * allow/deny lists (macfile.c).
 *
 * Input: byte 0 picks the parser (even: PSK file, odd: MAC list), the rest
 * is the file. PBKDF2 is not run (too slow to fuzz usefully).
 * Oracles: failures carry a code and "file:line:"; every accepted PSK entry
 * holds either a raw key or a valid passphrase; every parsed MAC is found
 * in the set, which stays sorted and free of group addresses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/macfile.h"
#include "daemon/config/pskfile.h"
#include "daemon/config/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void psk(const char *text, size_t len)
{
	struct pskfile *pf = NULL;
	struct cfg_error err;
	const struct pskfile_entry *m[4];
	static const uint8_t sta[6] = { 0x02, 0, 0, 0, 0, 1 };

	if (pskfile_parse(text, len, "psk", &pf, &err) < 0) {
		if (pf || err.code >= 0 || strncmp(err.msg, "psk:", 4) != 0)
			abort();
		return;
	}
	for (size_t i = 0; i < pf->n_entries; i++) {
		const struct pskfile_entry *e = &pf->entries[i];
		if (e->has_psk == (e->passphrase[0] != '\0'))
			abort();
		if (!e->has_psk && !cfg_passphrase_valid(e->passphrase))
			abort();
		if (e->mac[0] & 1)
			abort();
	}
	if (pskfile_match(pf, sta, m, 4) > 4)
		abort();
	pskfile_free(pf);
}

static void mac(const char *text, size_t len)
{
	struct mac_set *set = NULL;
	struct cfg_error err;
	uint8_t addr[6];

	if (macfile_parse(text, len, "macs", &set, &err) < 0) {
		if (set || err.code >= 0 || strncmp(err.msg, "macs:", 5) != 0)
			abort();
		return;
	}
	/* Every line that parses as an address must be in the set. */
	for (size_t pos = 0; pos + 17 <= len; pos++) {
		char word[18];
		memcpy(word, text + pos, 17);
		word[17] = '\0';
		if ((pos == 0 || text[pos - 1] == '\n') && cfg_parse_mac(word, addr) == 0 &&
		    !(addr[0] & 1) && !mac_set_contains(set, addr))
			abort();
	}
	mac_set_free(set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		mac((const char *)data + 1, size - 1);
	else
		psk((const char *)data + 1, size - 1);
	return 0;
}
