/* The INI reader: line splitting, byte-level checks, headers, key=value. */
#include "daemon/config/ini.h"

#include <stdlib.h>
#include <string.h>

#include "daemon/config/readfile.h"
#include "daemon/config/lines.h"
#include "daemon/crypto/secure.h"

struct parser {
	struct ini *ini;
	struct ini_section *cur;
	unsigned line;
	struct cfg_error *err;
};

/* Every message carries the file and the current line. */
#define FAIL(p, code, ...) cfg_fail((p)->err, code, (p)->ini->file, (p)->line, __VA_ARGS__)

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits "Type name" inside the brackets and checks both parts. */
static int split_header(struct parser *p, char *inner, char **type, char **name)
{
	if (!*inner || is_blank(*inner))
		return FAIL(
			p, CFG_E_SECTION_SYNTAX,
			"section header must start with a type, as in [General] or [Radio phy0]");
	*type = inner;
	*name = inner + strcspn(inner, " \t");
	if (**name) {
		*(*name)++ = '\0';
		*name = cfg_trim(*name);
	} else {
		*name = NULL;
	}
	if (!ini_valid_key(*type))
		return FAIL(p, CFG_E_SECTION_SYNTAX,
			    "invalid section type '%s' (a letter, then letters, digits, '_-.')",
			    *type);
	if (*name && !ini_valid_section_name(*name))
		return FAIL(p, CFG_E_SECTION_SYNTAX,
			    "invalid section name '%s' (letters, digits and '_-.:@', no spaces)",
			    *name);
	return 0;
}

/* "[Type]" or "[Type name]"; s starts at '['. */
static int parse_header(struct parser *p, char *s)
{
	char *close = strchr(s, ']'), *type = NULL, *name = NULL;
	int ret;

	if (!close)
		return FAIL(p, CFG_E_SECTION_SYNTAX, "missing ']' in section header");
	if (*cfg_trim(close + 1))
		return FAIL(p, CFG_E_SECTION_SYNTAX,
			    "unexpected text after ']' (comments must be on their own line)");
	*close = '\0';
	ret = split_header(p, s + 1, &type, &name);
	if (ret < 0)
		return ret;
	const struct ini_section *dup = ini_find(p->ini, type, name);
	if (dup)
		return FAIL(p, CFG_E_DUPLICATE_SECTION,
			    "section [%s%s%s] appears twice (first on line %u)", type,
			    name ? " " : "", name ? name : "", dup->line);
	if (p->ini->n_sections >= INI_SECTIONS_MAX)
		return FAIL(p, CFG_E_TOO_MANY, "more than %d sections", INI_SECTIONS_MAX);
	p->cur = ini_add_section(p->ini, type, name);
	if (!p->cur)
		return FAIL(p, CFG_E_NOMEM, "out of memory");
	p->cur->line = p->line;
	return 0;
}

/* Resolves escapes in place. key names the value in messages; the value
 * itself is never echoed, it may be a passphrase. */
static int unescape(struct parser *p, char *v, const char *key)
{
	char *out = v;

	for (char *in = v; *in; in++) {
		if (*in != '\\') {
			*out++ = *in;
			continue;
		}
		if (in[1] == '\\')
			*out++ = '\\';
		else if (in[1] == 's')
			*out++ = ' ';
		else if (in[1] == 't')
			*out++ = '\t';
		else if (in[1] == '\0')
			return FAIL(
				p, CFG_E_CONTINUATION,
				"value of '%s' ends in '\\': line continuations are not supported "
				"(write '\\\\' for a backslash)",
				key);
		else
			return FAIL(
				p, CFG_E_BAD_ESCAPE,
				"unknown escape in value of '%s' (only \\s, \\t and \\\\; write "
				"'\\\\' for a backslash)",
				key);
		in++;
	}
	*out = '\0';
	return 0;
}

static int check_key(struct parser *p, const char *key)
{
	if (!*key)
		return FAIL(p, CFG_E_BAD_KEY, "missing key before '='");
	if (strlen(key) > INI_NAME_MAX)
		return FAIL(p, CFG_E_BAD_KEY, "key is longer than %d characters", INI_NAME_MAX);
	if (!ini_valid_key(key))
		return FAIL(p, CFG_E_BAD_KEY,
			    "invalid key '%s' (a letter, then letters, digits, '_-.')", key);
	return 0;
}

static int parse_entry(struct parser *p, char *s)
{
	char *eq = strchr(s, '=');
	int ret;

	if (!eq)
		return FAIL(p, CFG_E_SYNTAX,
			    "expected 'Key=value', a [Section] header or a comment");
	*eq = '\0';
	char *key = cfg_trim(s), *value = cfg_trim(eq + 1);
	if ((ret = check_key(p, key)) < 0)
		return ret;
	if (!p->cur)
		return FAIL(p, CFG_E_KEY_OUTSIDE,
			    "key '%s' is outside of any section (add a [Section] header above it)",
			    key);
	const struct ini_entry *dup = ini_get_entry(p->cur, key);
	if (dup) {
		char title[2 * INI_NAME_MAX + 8];
		return FAIL(p, CFG_E_DUPLICATE_KEY,
			    "duplicate key '%s' in %s (first set on line %u)", key,
			    ini_section_title(p->cur, title, sizeof(title)), dup->line);
	}
	if ((ret = unescape(p, value, key)) < 0)
		return ret;
	if (p->cur->n_entries >= INI_ENTRIES_MAX)
		return FAIL(p, CFG_E_TOO_MANY, "more than %d keys in one section", INI_ENTRIES_MAX);
	if (ini_set(p->cur, key, value) < 0)
		return FAIL(p, CFG_E_NOMEM, "out of memory");
	p->cur->entries[p->cur->n_entries - 1].line = p->line;
	return 0;
}

static int parse_line(void *ctx, char *line, unsigned lineno)
{
	struct parser *p = ctx;
	char *s = cfg_trim(line);

	p->line = lineno;
	if (*s == '\0' || *s == '#' || *s == ';')
		return 0;
	if (*s == '[')
		return parse_header(p, s);
	return parse_entry(p, s);
}

int ini_parse(const char *buf, size_t len, const char *file, struct ini **out,
	      struct cfg_error *err)
{
	struct parser p = { .err = err };
	int ret;

	cfg_error_clear(err);
	p.ini = ini_new(file);
	if (!p.ini)
		return cfg_fail(err, CFG_E_NOMEM, file, 0, "out of memory");
	ret = cfg_for_each_line(buf, len, p.ini->file, parse_line, &p, err);
	if (ret < 0) {
		ini_free(p.ini);
		return ret;
	}
	*out = p.ini;
	return 0;
}

int ini_parse_file(const char *path, struct ini **out, struct cfg_error *err)
{
	char *buf;
	size_t len;
	int ret;

	cfg_error_clear(err);
	ret = cfg_read_file(path, CFG_FILE_MAX, &buf, &len, err);
	if (ret < 0)
		return ret;
	ret = ini_parse(buf, len, path, out, err);
	crypto_zero(buf, len);
	free(buf);
	return ret;
}
