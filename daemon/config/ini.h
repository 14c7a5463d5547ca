/* A small, strict INI reader and writer.
 *
 * Syntax (one construct per line, lines end in LF or CRLF):
 *     # comment                  ('#' or ';' as first non-blank character)
 *     [Type]                     a section, e.g. [General]
 *     [Type name]                a named section, e.g. [Radio phy0]
 *     Key=value                  inside a section only
 * Leading and trailing blanks of keys and values are dropped; inside a
 * value `\s` is a space, `\t` a tab and `\\` a backslash, so a value can
 * keep blanks at its ends (the writer escapes only those and backslashes).
 * Comments are whole lines only: '#' inside a value is part of it
 * (passphrases may contain it). There are no line continuations.
 * Rejected with the line number: NUL bytes, invalid UTF-8, control
 * characters other than tab, lines over INI_LINE_MAX bytes, a key outside
 * a section, a key twice in one section, a [Type name] twice.
 *
 * Ownership: a struct ini owns its sections, which own their entries and
 * strings; ini_free() releases everything and wipes every value first (the
 * same parser reads files holding passphrases). Section pointers stay valid
 * until ini_free(); entry pointers until the next ini_set() on the section.
 */
#ifndef WPAD_CONFIG_INI_H
#define WPAD_CONFIG_INI_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/config/cfg_error.h"
#include "daemon/config/lines.h"
#include "daemon/config/strbuf.h"

#define INI_LINE_MAX CFG_LINE_MAX /* bytes, without the line end */
#define INI_NAME_MAX 64 /* section type, section name, key */
#define INI_SECTIONS_MAX 256 /* per file */
#define INI_ENTRIES_MAX 256 /* per section */

struct ini_entry {
	char *key;
	char *value; /* unescaped */
	unsigned line;
};

struct ini_section {
	char *type;
	char *name; /* NULL for [Type] */
	unsigned line;
	struct ini_entry *entries;
	size_t n_entries;
	size_t cap;
};

struct ini {
	char *file; /* name used in error messages */
	struct ini_section **sections;
	size_t n_sections;
	size_t cap;
};

/* Parses len bytes of buf (need not be NUL-terminated). file names the
 * source in messages (NULL: "<input>"). Returns 0 and a new *out that the
 * caller owns, or a negative enum cfg_err with err filled. */
int ini_parse(const char *buf, size_t len, const char *file, struct ini **out,
	      struct cfg_error *err);
/* ini_parse() of the file at path (at most CFG_FILE_MAX bytes); the read
 * buffer is wiped before it is freed. */
int ini_parse_file(const char *path, struct ini **out, struct cfg_error *err);

/* An empty document to build by hand; NULL on allocation failure. */
struct ini *ini_new(const char *file);
void ini_free(struct ini *ini);

/* The section [type name] (name NULL: the unnamed [type]), or NULL. */
struct ini_section *ini_find(const struct ini *ini, const char *type, const char *name);
/* The value of key in section s, or NULL. s may be NULL. */
const char *ini_get(const struct ini_section *s, const char *key);
const struct ini_entry *ini_get_entry(const struct ini_section *s, const char *key);

/* Appends [type name]. Returns the section, or NULL when the names are not
 * valid INI names, the section exists already, or on allocation failure. */
struct ini_section *ini_add_section(struct ini *ini, const char *type, const char *name);
/* Sets key to value (replacing an earlier value). Returns 0, CFG_E_BAD_KEY,
 * CFG_E_CONTROL_CHAR (the value cannot be written), CFG_E_LINE_TOO_LONG
 * (Key=value would not fit in INI_LINE_MAX once written), CFG_E_TOO_MANY
 * or CFG_E_NOMEM. */
int ini_set(struct ini_section *s, const char *key, const char *value);

/* Appends the text of the whole document to sb: sections in order, entries
 * in order, values escaped so that ini_parse() gives them back unchanged.
 * Returns 0 or CFG_E_NOMEM. */
int ini_format(const struct ini *ini, struct strbuf *sb);

/* Length of value as ini_format() writes it (escapes included). */
size_t ini_value_escaped_len(const char *value);

/* "[Type]" or "[Type name]" into buf, for messages. Returns buf. */
const char *ini_section_title(const struct ini_section *s, char *buf, size_t size);

/* Schema check: the first key of s that is not in the NULL-terminated list
 * known gives CFG_E_UNKNOWN_KEY, with its line and a "did you mean" when a
 * known key is close. Returns 0 when every key is known. */
int ini_check_keys(const struct ini *ini, const struct ini_section *s, const char *const *known,
		   struct cfg_error *err);

/* True when the string is a valid key or section type (letter first, then
 * letters, digits, '_', '-', '.'; at most INI_NAME_MAX bytes). */
bool ini_valid_key(const char *s);
/* True when the string is a valid section name (letters, digits and
 * "_-.:@"; at most INI_NAME_MAX bytes). */
bool ini_valid_section_name(const char *s);

#endif
