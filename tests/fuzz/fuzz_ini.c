/* Fuzz the INI reader (daemon/config/ini.c).
 *
 * Input: the text of a file.
 * Oracles: a rejected input always carries a code and a "file:line:"
 * message; an accepted one survives the writer: format -> parse gives the
 * same sections, keys and values, and formatting that again gives the
 * same text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/ini.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const known[] = { "SSID", "Channel", "Passphrase", "Driver", "Radio", NULL };

static void same_document(const struct ini *a, const struct ini *b)
{
	if (a->n_sections != b->n_sections)
		abort();
	for (size_t i = 0; i < a->n_sections; i++) {
		const struct ini_section *sa = a->sections[i], *sb = b->sections[i];
		if (strcmp(sa->type, sb->type) != 0 || (!sa->name != !sb->name) ||
		    (sa->name && strcmp(sa->name, sb->name) != 0) || sa->n_entries != sb->n_entries)
			abort();
		for (size_t j = 0; j < sa->n_entries; j++)
			if (strcmp(sa->entries[j].key, sb->entries[j].key) != 0 ||
			    strcmp(sa->entries[j].value, sb->entries[j].value) != 0)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ini *ini = NULL, *back = NULL;
	struct strbuf t1 = STRBUF_INIT, t2 = STRBUF_INIT;
	struct cfg_error err;

	if (ini_parse((const char *)data, size, "f.conf", &ini, &err) < 0) {
		if (err.code >= 0 || strncmp(err.msg, "f.conf:", 7) != 0 || ini)
			abort();
		return 0;
	}
	for (size_t i = 0; i < ini->n_sections; i++)
		ini_check_keys(ini, ini->sections[i], known, &err);
	if (ini_format(ini, &t1) < 0)
		abort();
	if (ini_parse(t1.data ? t1.data : "", t1.len, "f.conf", &back, &err) < 0)
		abort();
	same_document(ini, back);
	if (ini_format(back, &t2) < 0 || t1.len != t2.len ||
	    (t1.len && memcmp(t1.data, t2.data, t1.len)))
		abort();
	strbuf_free(&t1);
	strbuf_free(&t2);
	ini_free(back);
	ini_free(ini);
	return 0;
}
