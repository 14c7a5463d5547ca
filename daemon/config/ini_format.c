/* Writing an INI document back as text that ini_parse() reads unchanged. */
#include "daemon/config/ini.h"

/* Escapes what the parser would otherwise drop or misread: backslashes,
 * tabs, and spaces at either end of the value. */
static void put_value(struct strbuf *sb, const char *v)
{
	size_t len = 0, lead = 0, trail = 0;

	while (v[len])
		len++;
	while (lead < len && v[lead] == ' ')
		lead++;
	while (trail < len - lead && v[len - 1 - trail] == ' ')
		trail++;
	for (size_t i = 0; i < len; i++) {
		char c = v[i];
		if (c == '\\')
			strbuf_puts(sb, "\\\\");
		else if (c == '\t')
			strbuf_puts(sb, "\\t");
		else if (c == ' ' && (i < lead || i >= len - trail))
			strbuf_puts(sb, "\\s");
		else
			strbuf_putc(sb, c);
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
