/* Writing an INI document back as text that ini_parse() reads unchanged. */
#include "daemon/config/ini.h"

#include <string.h>

/* Only what the parser would otherwise drop or misread is escaped:
 * backslashes, and blanks at either end of the value. Inner tabs stay raw,
 * so a value read from a file never gets longer when written back. */
static bool escaped_at(const char *v, size_t len, size_t i, size_t lead, size_t trail)
{
	return v[i] == '\\' || i < lead || i >= len - trail;
}

static size_t edge_blanks(const char *v, size_t *lead, size_t *trail)
{
	size_t len = strlen(v);

	*lead = *trail = 0;
	while (*lead < len && (v[*lead] == ' ' || v[*lead] == '\t'))
		(*lead)++;
	while (*trail < len - *lead && (v[len - 1 - *trail] == ' ' || v[len - 1 - *trail] == '\t'))
		(*trail)++;
	return len;
}

size_t ini_value_escaped_len(const char *v)
{
	size_t lead, trail, len = edge_blanks(v, &lead, &trail), n = 0;

	for (size_t i = 0; i < len; i++)
		n += escaped_at(v, len, i, lead, trail) ? 2 : 1;
	return n;
}

static void put_value(struct strbuf *sb, const char *v)
{
	size_t lead, trail, len = edge_blanks(v, &lead, &trail);

	for (size_t i = 0; i < len; i++) {
		if (!escaped_at(v, len, i, lead, trail))
			strbuf_putc(sb, v[i]);
		else if (v[i] == '\\')
			strbuf_puts(sb, "\\\\");
		else if (v[i] == '\t')
			strbuf_puts(sb, "\\t");
		else
			strbuf_puts(sb, "\\s");
	}
}

int ini_format(const struct ini *ini, struct strbuf *sb)
{
	for (size_t i = 0; i < ini->n_sections; i++) {
		const struct ini_section *s = ini->sections[i];
		if (i > 0)
			strbuf_putc(sb, '\n');
		if (s->name)
			strbuf_printf(sb, "[%s %s]\n", s->type, s->name);
		else
			strbuf_printf(sb, "[%s]\n", s->type);
		for (size_t j = 0; j < s->n_entries; j++) {
			strbuf_puts(sb, s->entries[j].key);
			strbuf_putc(sb, '=');
			put_value(sb, s->entries[j].value);
			strbuf_putc(sb, '\n');
		}
	}
	return sb->bad ? CFG_E_NOMEM : 0;
}
