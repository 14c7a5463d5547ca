/* A known network on disk: reading from and writing to the INI text. */
#define LOG_TAG "store"
#include "daemon/store/known_network.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/suggest.h"
#include "daemon/config/value.h"
#include "daemon/core/log.h"
#include "daemon/crypto/secure.h"

#define FAIL_AT(ini, e, code, ...) cfg_fail(err, code, (ini)->file, (e)->line, __VA_ARGS__)

static const char *const settings_keys[] = { "AutoConnect", "Hidden", "ManagementFrameProtection",
					      "AKMs", "Ciphers", "SAEPWE", NULL };
static const char *const state_keys[] = { "LastConnected", "Frequencies", NULL };
static const char *const psk_keys[] = { "Passphrase", "PreSharedKey", "PreSharedKeyCheck", NULL };

static int add_extra(struct known_network *net, const char *section, const struct ini_entry *e)
{
	struct known_extra *p = realloc(net->extras, (net->n_extras + 1) * sizeof(*p));

	if (!p)
		return CFG_E_NOMEM;
	net->extras = p;
	struct known_extra *x = &p[net->n_extras];
	x->section = strdup(section);
	x->key = strdup(e->key);
	x->value = strdup(e->value);
	net->n_extras++;
	return x->section && x->key && x->value ? 0 : CFG_E_NOMEM;
}

/* A key we do not know in a section we do: kept, but worth a warning. */
static int keep_unknown(struct known_network *net, const struct ini *ini, const char *section,
			const struct ini_entry *e, const char *const *known)
{
	const char *hint = cfg_suggest(e->key, known);

	log_warn("%s:%u: unknown key '%s' in [%s]%s%s%s, kept as it is", ini->file, e->line, e->key,
		 section, hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
	return add_extra(net, section, e);
}

static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return CFG_E_BAD_VALUE;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return CFG_E_BAD_VALUE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/* "2412,2437": at most KNOWN_FREQS_MAX kept, the rest ignored. */
static int parse_freqs(struct known_network *net, const char *s)
{
	char buf[CFG_LINE_MAX + 1];
	char *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	net->n_freqs = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t f;
		if (cfg_parse_uint(cfg_trim(tok), 1, 999999, &f) < 0)
			return CFG_E_BAD_VALUE;
		if (net->n_freqs < KNOWN_FREQS_MAX)
			net->freqs[net->n_freqs++] = f;
	}
	return 0;
}

/* The policy strings of [Settings]; 1 when e is not one of them. */
static int read_policy(struct known_network *net, const struct ini *ini,
		       const struct ini_entry *e, struct cfg_error *err)
{
	char *dst;
	size_t cap;
	if (strcmp(e->key, "ManagementFrameProtection") == 0) {
		if (strcmp(e->value, "disabled") && strcmp(e->value, "optional") &&
		    strcmp(e->value, "required"))
			return FAIL_AT(ini, e, CFG_E_BAD_VALUE,
				       "ManagementFrameProtection must be disabled, optional or "
				       "required");
		dst = net->pmf, cap = sizeof(net->pmf);
	} else if (strcmp(e->key, "AKMs") == 0) {
		dst = net->akms, cap = sizeof(net->akms);
	} else if (strcmp(e->key, "Ciphers") == 0) {
		dst = net->ciphers, cap = sizeof(net->ciphers);
	} else if (strcmp(e->key, "SAEPWE") == 0) {
		if (strcmp(e->value, "hunt-and-peck") && strcmp(e->value, "h2e") &&
		    strcmp(e->value, "both"))
			return FAIL_AT(ini, e, CFG_E_BAD_VALUE,
				       "SAEPWE must be hunt-and-peck, h2e or both");
		dst = net->sae_pwe, cap = sizeof(net->sae_pwe);
	} else {
		return 1;
	}
	if (strlen(e->value) >= cap)
		return FAIL_AT(ini, e, CFG_E_BAD_VALUE, "%s is longer than %zu characters", e->key,
			       cap - 1);
	snprintf(dst, cap, "%s", e->value);
	return 0;
}

static int read_settings(struct known_network *net, const struct ini *ini,
			 const struct ini_section *s, struct cfg_error *err)
{
	for (size_t i = 0; i < s->n_entries; i++) {
		const struct ini_entry *e = &s->entries[i];
		int pr = read_policy(net, ini, e, err);
		if (pr <= 0) {
			if (pr < 0)
				return pr;
			continue;
		}
		bool *target = strcmp(e->key, "AutoConnect") == 0 ? &net->autoconnect
			       : strcmp(e->key, "Hidden") == 0	  ? &net->hidden
								  : NULL;
		if (!target) {
			if (keep_unknown(net, ini, "Settings", e, settings_keys) < 0)
				return FAIL_AT(ini, e, CFG_E_NOMEM, "out of memory");
		} else if (cfg_parse_bool(e->value, target) < 0) {
			return FAIL_AT(ini, e, CFG_E_BAD_VALUE, "%s must be true or false", e->key);
		}
	}
	return 0;
}

static int read_state(struct known_network *net, const struct ini *ini, const struct ini_section *s,
		      struct cfg_error *err)
{
	for (size_t i = 0; i < s->n_entries; i++) {
		const struct ini_entry *e = &s->entries[i];
		int ret = 0;
		if (strcmp(e->key, "LastConnected") == 0) {
			if (parse_u64(e->value, &net->last_connected) < 0)
				ret = FAIL_AT(ini, e, CFG_E_BAD_VALUE,
					      "LastConnected must be a unix time in seconds");
		} else if (strcmp(e->key, "Frequencies") == 0) {
			if (parse_freqs(net, e->value) < 0)
				ret = FAIL_AT(ini, e, CFG_E_BAD_VALUE,
					      "Frequencies must be MHz values separated by ','");
		} else if (keep_unknown(net, ini, "State", e, state_keys) < 0) {
			ret = FAIL_AT(ini, e, CFG_E_NOMEM, "out of memory");
		}
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_psk_security(struct known_network *net, const struct ini *ini,
			     const struct ini_section *s, bool *have_psk, uint8_t check[16],
			     bool *have_check, struct cfg_error *err)
{
	for (size_t i = 0; i < s->n_entries; i++) {
		const struct ini_entry *e = &s->entries[i];
		if (strcmp(e->key, "Passphrase") == 0) {
			if (known_network_set_passphrase(net, e->value) < 0)
				return FAIL_AT(
					ini, e, CFG_E_BAD_PASSPHRASE,
					"Passphrase must be 8..63 printable ASCII characters");
		} else if (strcmp(e->key, "PreSharedKey") == 0) {
			if (cfg_parse_hex(e->value, net->psk, sizeof(net->psk)) < 0)
				return FAIL_AT(ini, e, CFG_E_BAD_PSK,
					       "PreSharedKey must be 64 hex digits");
			*have_psk = true;
		} else if (strcmp(e->key, "PreSharedKeyCheck") == 0) {
			/* A malformed check only costs a recomputation. */
			*have_check = cfg_parse_hex(e->value, check, 16) == 0;
		} else if (keep_unknown(net, ini, "Security", e, psk_keys) < 0) {
			return FAIL_AT(ini, e, CFG_E_NOMEM, "out of memory");
		}
	}
	return 0;
}

/* Decides whether the cached PreSharedKey may be used. */
static int settle_psk(struct known_network *net, const struct ini *ini, bool have_psk,
		      const uint8_t check[16], bool have_check, struct cfg_error *err)
{
	uint8_t expect[16];

	if (!net->has_passphrase && !have_psk)
		return cfg_fail(err, CFG_E_MISSING_KEY, ini->file, 0,
				"[Security] needs Passphrase or PreSharedKey");
	if (!net->has_passphrase) {
		net->psk_valid = true;
		return 0;
	}
	net->psk_valid = have_psk && have_check && known_psk_check(net, expect) == 0 &&
			 crypto_memeq(expect, check, sizeof(expect));
	if (have_psk && !net->psk_valid) {
		log_debug("%s: cached PreSharedKey does not match the passphrase, will recompute",
			  ini->file);
		crypto_zero(net->psk, sizeof(net->psk));
	}
	crypto_zero(expect, sizeof(expect));
	return 0;
}

static int read_security(struct known_network *net, const struct ini *ini,
			 const struct ini_section *s, struct cfg_error *err)
{
	uint8_t check[16] = { 0 };
	bool have_psk = false, have_check = false;
	int ret = 0;

	if (net->security == KNOWN_SEC_PSK) {
		ret = read_psk_security(net, ini, s, &have_psk, check, &have_check, err);
		if (ret == 0)
			ret = settle_psk(net, ini, have_psk, check, have_check, err);
		crypto_zero(check, sizeof(check));
		return ret;
	}
	for (size_t i = 0; s && i < s->n_entries; i++) {
		const struct ini_entry *e = &s->entries[i];
		if (net->security == KNOWN_SEC_OPEN &&
		    (strcmp(e->key, "Passphrase") == 0 || strcmp(e->key, "PreSharedKey") == 0))
			return FAIL_AT(ini, e, CFG_E_CONFLICT,
				       "an open network has no %s (rename the file to .psk?)",
				       e->key);
		/* 802.1X settings belong to the EAP code; keep them verbatim. */
		if (add_extra(net, "Security", e) < 0)
			return FAIL_AT(ini, e, CFG_E_NOMEM, "out of memory");
	}
	return 0;
}

/* A section this code does not use (say iwd's [IPv4]): kept whole. */
static int keep_section(struct known_network *net, const struct ini *ini,
			const struct ini_section *s, struct cfg_error *err)
{
	for (size_t i = 0; i < s->n_entries; i++)
		if (add_extra(net, s->type, &s->entries[i]) < 0)
			return cfg_fail(err, CFG_E_NOMEM, ini->file, 0, "out of memory");
	return 0;
}

int known_network_from_ini(struct known_network *net, const struct ini *ini, struct cfg_error *err)
{
	static const struct ini_section none = { .type = "Security" };
	const struct ini_section *security = ini_find(ini, "Security", NULL);
	int ret;

	for (size_t i = 0; i < ini->n_sections; i++) {
		const struct ini_section *s = ini->sections[i];
		if (s->name)
			return cfg_fail(err, CFG_E_SECTION_NAME, ini->file, s->line,
					"network files use no named sections, found [%s %s]",
					s->type, s->name);
		if (strcmp(s->type, "Settings") == 0)
			ret = read_settings(net, ini, s, err);
		else if (strcmp(s->type, "State") == 0)
			ret = read_state(net, ini, s, err);
		else if (strcmp(s->type, "Security") == 0)
			ret = 0; /* last: the passphrase check needs nothing else */
		else
			ret = keep_section(net, ini, s, err);
		if (ret < 0)
			return ret;
	}
	return read_security(net, ini, security ? security : &none, err);
}

static int put_extras(const struct known_network *net, struct ini *ini, const char *only)
{
	for (size_t i = 0; i < net->n_extras; i++) {
		const struct known_extra *x = &net->extras[i];
		if (only && strcmp(x->section, only) != 0)
			continue;
		if (!only &&
		    (strcmp(x->section, "Security") == 0 || strcmp(x->section, "Settings") == 0 ||
		     strcmp(x->section, "State") == 0))
			continue;
		struct ini_section *s = ini_find(ini, x->section, NULL);
		if (!s)
			s = ini_add_section(ini, x->section, NULL);
		if (!s || ini_set(s, x->key, x->value) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int put_security(const struct known_network *net, struct ini *ini)
{
	char hex[2 * 32 + 1];
	uint8_t check[16];
	bool any = net->security == KNOWN_SEC_PSK;
	int ret = 0;

	for (size_t i = 0; i < net->n_extras && !any; i++)
		any = strcmp(net->extras[i].section, "Security") == 0;
	if (!any)
		return 0;
	struct ini_section *s = ini_add_section(ini, "Security", NULL);
	if (!s)
		return -ENOMEM;
	if (net->security == KNOWN_SEC_PSK && net->has_passphrase)
		ret = ini_set(s, "Passphrase", net->passphrase);
	if (ret == 0 && net->security == KNOWN_SEC_PSK && net->psk_valid) {
		cfg_hex_encode(net->psk, sizeof(net->psk), hex);
		ret = ini_set(s, "PreSharedKey", hex);
		if (ret == 0 && net->has_passphrase) {
			ret = known_psk_check(net, check);
			cfg_hex_encode(check, sizeof(check), hex);
			if (ret == 0)
				ret = ini_set(s, "PreSharedKeyCheck", hex);
		}
	}
	crypto_zero(hex, sizeof(hex));
	crypto_zero(check, sizeof(check));
	if (ret < 0)
		return ret == CFG_E_NOMEM ? -ENOMEM : -EIO;
	return put_extras(net, ini, "Security");
}

static int put_settings_state(const struct known_network *net, struct ini *ini)
{
	char buf[KNOWN_FREQS_MAX * 12 + 1];
	size_t used = 0;
	struct ini_section *s = ini_add_section(ini, "Settings", NULL);

	if (!s || ini_set(s, "AutoConnect", net->autoconnect ? "true" : "false") < 0 ||
	    ini_set(s, "Hidden", net->hidden ? "true" : "false") < 0 ||
	    (net->pmf[0] && ini_set(s, "ManagementFrameProtection", net->pmf) < 0) ||
	    (net->akms[0] && ini_set(s, "AKMs", net->akms) < 0) ||
	    (net->ciphers[0] && ini_set(s, "Ciphers", net->ciphers) < 0) ||
	    (net->sae_pwe[0] && ini_set(s, "SAEPWE", net->sae_pwe) < 0) ||
	    put_extras(net, ini, "Settings") < 0)
		return -ENOMEM;
	bool need_state = net->last_connected || net->n_freqs;
	for (size_t i = 0; i < net->n_extras; i++)
		need_state |= strcmp(net->extras[i].section, "State") == 0;
	if (!need_state)
		return 0;
	if (!(s = ini_add_section(ini, "State", NULL)))
		return -ENOMEM;
	if (net->last_connected) {
		snprintf(buf, sizeof(buf), "%" PRIu64, net->last_connected);
		if (ini_set(s, "LastConnected", buf) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < net->n_freqs && i < KNOWN_FREQS_MAX; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%" PRIu32, i ? "," : "",
					 net->freqs[i]);
	if (net->n_freqs && ini_set(s, "Frequencies", buf) < 0)
		return -ENOMEM;
	return put_extras(net, ini, "State");
}

int known_network_format(const struct known_network *net, struct strbuf *sb)
{
	struct ini *ini = ini_new(NULL);
	int ret;

	if (!ini)
		return -ENOMEM;
	ret = put_security(net, ini);
	if (ret == 0)
		ret = put_settings_state(net, ini);
	if (ret == 0)
		ret = put_extras(net, ini, NULL);
	if (ret == 0 && ini_format(ini, sb) < 0)
		ret = -ENOMEM;
	ini_free(ini);
	return ret;
}
