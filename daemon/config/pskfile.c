#include "daemon/config/pskfile.h"

#include <stdlib.h>
#include <string.h>

#include "daemon/config/lines.h"
#include "daemon/config/readfile.h"
#include "daemon/config/value.h"
#include "daemon/crypto/kdf.h"
#include "daemon/crypto/secure.h"

struct psk_parse {
	struct pskfile *pf;
	size_t cap;
	const char *file;
	unsigned line;
	struct cfg_error *err;
};

#define FAIL(pp, code, ...) cfg_fail((pp)->err, code, (pp)->file, (pp)->line, __VA_ARGS__)

/* One "name=value" word before the address. */
static int parse_tag(struct psk_parse *pp, struct pskfile_entry *e, const char *word)
{
	uint32_t v;

	if (strncmp(word, "keyid=", 6) == 0) {
		if (strlen(word + 6) == 0 || strlen(word + 6) > PSKFILE_KEYID_MAX)
			return FAIL(pp, CFG_E_BAD_VALUE, "keyid must be 1..%d characters",
				    PSKFILE_KEYID_MAX);
		memcpy(e->keyid, word + 6, strlen(word + 6) + 1);
	} else if (strncmp(word, "vlanid=", 7) == 0) {
		if (cfg_parse_uint(word + 7, 1, 4094, &v) < 0)
			return FAIL(pp, CFG_E_OUT_OF_RANGE, "vlanid must be 1..4094");
		e->vlan_id = (uint16_t)v;
	} else if (strcmp(word, "wps=0") == 0 || strcmp(word, "wps=1") == 0) {
		e->wps = word[4] == '1';
	} else {
		return FAIL(pp, CFG_E_SYNTAX,
			    "expected 'MAC passphrase' (optionally after keyid=, vlanid=, wps=), "
			    "got '%.20s'",
			    word);
	}
	return 0;
}

/* The key after the address: a raw PSK or a passphrase. */
static int parse_key(struct psk_parse *pp, struct pskfile_entry *e, const char *key)
{
	size_t len = strlen(key);

	if (len == 64 && cfg_parse_hex(key, e->psk, 32) == 0) {
		e->has_psk = true;
		return 0;
	}
	if (!cfg_passphrase_valid(key))
		return FAIL(pp, CFG_E_BAD_PASSPHRASE,
			    "passphrase must be 8..63 printable ASCII characters (or 64 hex "
			    "digits), got %zu characters",
			    len);
	memcpy(e->passphrase, key, len + 1);
	return 0;
}

static int parse_entry(struct psk_parse *pp, struct pskfile_entry *e, char *s)
{
	int ret;

	for (;;) {
		char *end = s + strcspn(s, " \t");
		if (*end == '\0')
			return FAIL(pp, CFG_E_SYNTAX, "missing passphrase after the MAC address");
		*end = '\0';
		if (!strchr(s, '='))
			break;
		if ((ret = parse_tag(pp, e, s)) < 0)
			return ret;
		s = end + 1 + strspn(end + 1, " \t");
	}
	if (cfg_parse_mac(s, e->mac) < 0)
		return FAIL(pp, CFG_E_BAD_MAC, "'%.40s' is not a MAC address", s);
	if (e->mac[0] & 0x01)
		return FAIL(pp, CFG_E_BAD_MAC, "%s is a group address, not a station", s);
	static const uint8_t zero[6];
	e->any = memcmp(e->mac, zero, 6) == 0;
	s += strlen(s) + 1;
	s += strspn(s, " \t");
	return parse_key(pp, e, s);
}

static int parse_line(void *ctx, char *line, unsigned lineno)
{
	struct psk_parse *pp = ctx;
	struct pskfile *pf = pp->pf;
	char *s = line + strspn(line, " \t");
	int ret;

	pp->line = lineno;
	if (*s == '\0' || *s == '#')
		return 0;
	if (pf->n_entries >= PSKFILE_MAX_ENTRIES)
		return FAIL(pp, CFG_E_TOO_MANY, "more than %d entries", PSKFILE_MAX_ENTRIES);
	if (pf->n_entries == pp->cap) {
		/* Grow by copy and wipe: the old block holds keys. */
		size_t cap = pp->cap ? pp->cap * 2 : 8;
		struct pskfile_entry *p = calloc(cap, sizeof(*p));
		if (!p)
			return FAIL(pp, CFG_E_NOMEM, "out of memory");
		if (pf->n_entries)
			memcpy(p, pf->entries, pf->n_entries * sizeof(*p));
		crypto_zero(pf->entries, pp->cap * sizeof(*p));
		free(pf->entries);
		pf->entries = p;
		pp->cap = cap;
	}
	struct pskfile_entry *e = &pf->entries[pf->n_entries];
	memset(e, 0, sizeof(*e));
	e->line = lineno;
	ret = parse_entry(pp, e, s);
	if (ret < 0) {
		crypto_zero(e, sizeof(*e));
		return ret;
	}
	pf->n_entries++;
	return 0;
}

void pskfile_free(struct pskfile *pf)
{
	if (!pf)
		return;
	if (pf->entries)
		crypto_zero(pf->entries, pf->n_entries * sizeof(*pf->entries));
	free(pf->entries);
	free(pf);
}

int pskfile_parse(const char *buf, size_t len, const char *file, struct pskfile **out,
		  struct cfg_error *err)
{
	struct psk_parse pp = { .file = file ? file : "<input>", .err = err };
	int ret;

	cfg_error_clear(err);
	pp.pf = calloc(1, sizeof(*pp.pf));
	if (!pp.pf)
		return cfg_fail(err, CFG_E_NOMEM, pp.file, 0, "out of memory");
	ret = cfg_for_each_line(buf, len, pp.file, parse_line, &pp, err);
	if (ret < 0) {
		/* Entries past n_entries were wiped as they failed. */
		pskfile_free(pp.pf);
		return ret;
	}
	*out = pp.pf;
	return 0;
}

int pskfile_load(const char *path, struct pskfile **out, struct cfg_error *err)
{
	char *buf;
	size_t len;
	int ret;

	cfg_error_clear(err);
	ret = cfg_read_file(path, CFG_FILE_MAX, &buf, &len, err);
	if (ret < 0)
		return ret;
	ret = pskfile_parse(buf, len, path, out, err);
	crypto_zero(buf, len);
	free(buf);
	return ret;
}

int pskfile_derive(struct pskfile *pf, const uint8_t *ssid, size_t ssid_len)
{
	for (size_t i = 0; i < pf->n_entries; i++) {
		struct pskfile_entry *e = &pf->entries[i];
		if (e->has_psk)
			continue;
		int ret = crypto_psk_from_passphrase(e->passphrase, ssid, ssid_len, e->psk);
		if (ret < 0)
			return ret;
		e->has_psk = true;
		crypto_zero(e->passphrase, sizeof(e->passphrase));
	}
	return 0;
}

size_t pskfile_match(const struct pskfile *pf, const uint8_t sta[6],
		     const struct pskfile_entry **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < pf->n_entries && n < max; i++)
		if (!pf->entries[i].any && memcmp(pf->entries[i].mac, sta, 6) == 0)
			out[n++] = &pf->entries[i];
	for (size_t i = 0; i < pf->n_entries && n < max; i++)
		if (pf->entries[i].any)
			out[n++] = &pf->entries[i];
	return n;
}
