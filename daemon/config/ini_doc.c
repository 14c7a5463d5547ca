/* The in-memory INI document: building, lookup, freeing, writing. */
#include "daemon/config/ini.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/suggest.h"
#include "daemon/crypto/secure.h"

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_alnum(char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

bool ini_valid_key(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len > INI_NAME_MAX || !is_alpha(s[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!is_alnum(s[i]) && !strchr("_-.", s[i]))
			return false;
	return true;
}

bool ini_valid_section_name(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len > INI_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!is_alnum(s[i]) && !strchr("_-.:@", s[i]))
			return false;
	return true;
}

struct ini *ini_new(const char *file)
{
	struct ini *ini = calloc(1, sizeof(*ini));

	if (!ini)
		return NULL;
	ini->file = strdup(file ? file : "<input>");
	if (!ini->file) {
		free(ini);
		return NULL;
	}
	return ini;
}

static void free_secret_string(char *s)
{
	if (!s)
		return;
	crypto_zero(s, strlen(s));
	free(s);
}

static void section_free(struct ini_section *s)
{
	for (size_t i = 0; i < s->n_entries; i++) {
		free(s->entries[i].key);
		free_secret_string(s->entries[i].value);
	}
	free(s->entries);
	free(s->type);
	free(s->name);
	free(s);
}

void ini_free(struct ini *ini)
{
	if (!ini)
		return;
	for (size_t i = 0; i < ini->n_sections; i++)
		section_free(ini->sections[i]);
	free(ini->sections);
	free(ini->file);
	free(ini);
}

struct ini_section *ini_find(const struct ini *ini, const char *type, const char *name)
{
	for (size_t i = 0; i < ini->n_sections; i++) {
		struct ini_section *s = ini->sections[i];
		if (strcmp(s->type, type) != 0)
			continue;
		if ((!name && !s->name) || (name && s->name && strcmp(name, s->name) == 0))
			return s;
	}
	return NULL;
}

const struct ini_entry *ini_get_entry(const struct ini_section *s, const char *key)
{
	if (!s)
		return NULL;
	for (size_t i = 0; i < s->n_entries; i++)
		if (strcmp(s->entries[i].key, key) == 0)
			return &s->entries[i];
	return NULL;
}

const char *ini_get(const struct ini_section *s, const char *key)
{
	const struct ini_entry *e = ini_get_entry(s, key);
	return e ? e->value : NULL;
}

struct ini_section *ini_add_section(struct ini *ini, const char *type, const char *name)
{
	if (!ini_valid_key(type) || (name && !ini_valid_section_name(name)) ||
	    ini_find(ini, type, name) || ini->n_sections >= INI_SECTIONS_MAX)
		return NULL;
	if (ini->n_sections == ini->cap) {
		size_t cap = ini->cap ? ini->cap * 2 : 8;
		struct ini_section **p = realloc(ini->sections, cap * sizeof(*p));
		if (!p)
			return NULL;
		ini->sections = p;
		ini->cap = cap;
	}
	struct ini_section *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->type = strdup(type);
	s->name = name ? strdup(name) : NULL;
	if (!s->type || (name && !s->name)) {
		section_free(s);
		return NULL;
	}
	ini->sections[ini->n_sections++] = s;
	return s;
}

/* The entries array is grown by copy so a moved block never keeps values. */
static int grow_entries(struct ini_section *s)
{
	size_t cap = s->cap ? s->cap * 2 : 8;
	struct ini_entry *p = calloc(cap, sizeof(*p));

	if (!p)
		return CFG_E_NOMEM;
	if (s->n_entries)
		memcpy(p, s->entries, s->n_entries * sizeof(*p));
	free(s->entries);
	s->entries = p;
	s->cap = cap;
	return 0;
}

int ini_set(struct ini_section *s, const char *key, const char *value)
{
	if (!ini_valid_key(key))
		return CFG_E_BAD_KEY;
	for (const char *p = value; *p; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f)
			return CFG_E_CONTROL_CHAR;
	if (strlen(key) + 1 + ini_value_escaped_len(value) > INI_LINE_MAX)
		return CFG_E_LINE_TOO_LONG;
	char *v = strdup(value);
	if (!v)
		return CFG_E_NOMEM;
	for (size_t i = 0; i < s->n_entries; i++) {
		if (strcmp(s->entries[i].key, key) == 0) {
			free_secret_string(s->entries[i].value);
			s->entries[i].value = v;
			return 0;
		}
	}
	char *k = strdup(key);
	if (!k || s->n_entries >= INI_ENTRIES_MAX ||
	    (s->n_entries == s->cap && grow_entries(s) < 0)) {
		int ret = k && s->n_entries >= INI_ENTRIES_MAX ? CFG_E_TOO_MANY : CFG_E_NOMEM;
		free(k);
		free_secret_string(v);
		return ret;
	}
	s->entries[s->n_entries++] = (struct ini_entry){ .key = k, .value = v, .line = 0 };
	return 0;
}

const char *ini_section_title(const struct ini_section *s, char *buf, size_t size)
{
	if (s->name)
		snprintf(buf, size, "[%s %s]", s->type, s->name);
	else
		snprintf(buf, size, "[%s]", s->type);
	return buf;
}

int ini_check_keys(const struct ini *ini, const struct ini_section *s, const char *const *known,
		   struct cfg_error *err)
{
	char title[2 * INI_NAME_MAX + 8];

	for (size_t i = 0; i < s->n_entries; i++) {
		const struct ini_entry *e = &s->entries[i];
		bool found = false;
		for (const char *const *k = known; *k && !found; k++)
			found = strcmp(*k, e->key) == 0;
		if (found)
			continue;
		const char *hint = cfg_suggest(e->key, known);
		ini_section_title(s, title, sizeof(title));
		if (hint)
			return cfg_fail(err, CFG_E_UNKNOWN_KEY, ini->file, e->line,
					"unknown key '%s' in %s (did you mean '%s'?)", e->key,
					title, hint);
		return cfg_fail(err, CFG_E_UNKNOWN_KEY, ini->file, e->line,
				"unknown key '%s' in %s", e->key, title);
	}
	return 0;
}
