/* The parser of the command tables; see parse.h. */
#include "wpactl/parse.h"

#include <stdarg.h>
#include <string.h>

#define TOKEN_MAX 64

/* ---- pattern words ---- */

/* The i-th word of pattern into buf; false past its end. */
static bool pattern_word(const char *pattern, size_t i, char *buf, size_t cap)
{
	const char *p = pattern;
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			return false;
		size_t len = strcspn(p, " ");
		if (i == 0) {
			if (len >= cap)
				len = cap - 1;
			memcpy(buf, p, len);
			buf[len] = '\0';
			return true;
		}
		i--;
		p += len;
	}
}

static size_t pattern_len(const char *pattern)
{
	char tok[TOKEN_MAX];
	size_t n = 0;
	while (pattern_word(pattern, n, tok, sizeof(tok)))
		n++;
	return n;
}

static bool is_placeholder(const char *tok)
{
	return tok[0] >= 'A' && tok[0] <= 'Z';
}

static bool is_choice(const char *tok)
{
	return strchr(tok, '|') != NULL;
}

static bool token_matches(const char *tok, const char *word)
{
	if (is_placeholder(tok))
		return true;
	if (!is_choice(tok))
		return strcmp(tok, word) == 0;
	size_t wl = strlen(word);
	for (const char *p = tok; *p;) {
		size_t len = strcspn(p, "|");
		if (len == wl && strncmp(p, word, len) == 0)
			return true;
		p += len;
		if (*p == '|')
			p++;
	}
	return false;
}

/* How many of the first n words the pattern matches, in order. */
static size_t match_count(const char *pattern, const char *const *words, size_t n,
			  size_t *literals)
{
	char tok[TOKEN_MAX];
	size_t i = 0;
	*literals = 0;
	while (i < n && pattern_word(pattern, i, tok, sizeof(tok)) && token_matches(tok, words[i])) {
		if (!is_placeholder(tok))
			(*literals)++;
		i++;
	}
	return i;
}

int wc_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[TOKEN_MAX + 1];
	if (la > TOKEN_MAX || lb > TOKEN_MAX)
		return 3;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb] > 3 ? 3 : row[lb];
}

/* ---- errors ---- */

static enum wc_parse_status usage(char *err, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum wc_parse_status usage(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, cap, fmt, ap);
	va_end(ap);
	return WC_PARSE_USAGE;
}

static void append(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t cap, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;
	if (len + 1 >= cap)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, cap - len, fmt, ap);
	va_end(ap);
}

/* "station s0" from the first n words. */
static void join_words(char *out, size_t cap, const char *const *words, size_t n)
{
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		append(out, cap, "%s%s", i ? " " : "", words[i]);
}

/* ---- options ---- */

static int find_long(const struct wc_option *opts, const char *name, size_t len)
{
	for (int o = 0; o < WC_OPT_COUNT; o++)
		if (strlen(opts[o].name) == len && strncmp(opts[o].name, name, len) == 0)
			return o;
	return -1;
}

static int find_short(const struct wc_option *opts, char c)
{
	for (int o = 0; o < WC_OPT_COUNT; o++)
		if (opts[o].short_name && opts[o].short_name == c)
			return o;
	return -1;
}

static const char *nearest_option(const struct wc_option *opts, const char *name)
{
	const char *best = NULL;
	int best_d = 3;
	for (int o = 0; o < WC_OPT_COUNT; o++) {
		int d = wc_distance(name, opts[o].name);
		if (d < best_d) {
			best_d = d;
			best = opts[o].name;
		}
	}
	return best;
}

/* One option at argv[*i]; its value may be the next argument. */
static enum wc_parse_status take_option(const struct wc_option *opts, int argc,
					char *const argv[], int *i, struct wc_args *a, char *err,
					size_t cap)
{
	const char *arg = argv[*i];
	const char *value = NULL;
	int o;
	if (arg[1] == '-') {
		const char *name = arg + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		o = find_long(opts, name, len);
		if (o < 0) {
			char copy[TOKEN_MAX];
			snprintf(copy, sizeof(copy), "%.*s", (int)(len < TOKEN_MAX ? len : TOKEN_MAX - 1),
				 name);
			const char *near = nearest_option(opts, copy);
			return near ? usage(err, cap, "unknown option '--%s' (did you mean '--%s'?)",
					    copy, near)
				    : usage(err, cap, "unknown option '--%s'", copy);
		}
		if (eq) {
			if (!opts[o].arg)
				return usage(err, cap, "'--%s' takes no value", opts[o].name);
			value = eq + 1;
		}
	} else {
		o = arg[2] == '\0' ? find_short(opts, arg[1]) : -1;
		if (o < 0)
			return usage(err, cap, "unknown option '%s'", arg);
	}
	if (opts[o].arg && !value) {
		if (*i + 1 >= argc)
			return usage(err, cap, "'--%s' needs a value (%s)", opts[o].name, opts[o].arg);
		value = argv[++*i];
	}
	if (a->has[o] && !opts[o].repeat)
		return usage(err, cap, "'--%s' is given twice", opts[o].name);
	if (opts[o].repeat) {
		if (a->n_sets >= WC_SET_MAX)
			return usage(err, cap, "at most %d '--%s' options", WC_SET_MAX, opts[o].name);
		a->sets[a->n_sets++] = value;
	}
	a->has[o] = true;
	a->val[o] = value ? value : "";
	return WC_PARSED;
}

/* ---- commands ---- */

/* The message for words that match no command completely. */
static enum wc_parse_status no_match(const struct wc_command *cmds, const struct wc_args *a,
				     char *err, size_t cap)
{
	size_t best = 0, lit;
	char given[256], tok[TOKEN_MAX], near[TOKEN_MAX] = "";
	for (const struct wc_command *c = cmds; c->words; c++)
		if (!(c->flags & WC_CMD_HIDDEN)) {
			size_t m = match_count(c->words, a->words, a->n_words, &lit);
			if (m > best)
				best = m;
		}
	join_words(given, sizeof(given), a->words, best);
	if (best == a->n_words) {
		/* Every word fits, but more are needed: say which may follow. */
		usage(err, cap, "'%s' is not a whole command; it goes on with:", given);
	} else {
		bool complete = false;
		for (const struct wc_command *c = cmds; c->words; c++)
			if (!(c->flags & WC_CMD_HIDDEN) &&
			    match_count(c->words, a->words, best, &lit) == best &&
			    pattern_len(c->words) == best)
				complete = true;
		if (complete && best > 0)
			return usage(err, cap, "unexpected '%s' after '%s'", a->words[best], given);
		if (best == 0)
			usage(err, cap, "unknown command '%s'; commands are:", a->words[0]);
		else
			usage(err, cap, "unknown word '%s' after '%s'; it goes on with:", a->words[best],
			      given);
	}
	/* The choices at position best, each once. */
	char seen[512] = " ";
	for (const struct wc_command *c = cmds; c->words; c++) {
		if ((c->flags & WC_CMD_HIDDEN) || match_count(c->words, a->words, best, &lit) != best ||
		    !pattern_word(c->words, best, tok, sizeof(tok)))
			continue;
		char key[TOKEN_MAX + 2];
		snprintf(key, sizeof(key), " %s ", tok);
		if (strstr(seen, key))
			continue;
		append(seen, sizeof(seen), "%s ", tok);
		append(err, cap, " %s", tok);
		if (best < a->n_words && !is_placeholder(tok) && !is_choice(tok) && !near[0] &&
		    wc_distance(a->words[best], tok) <= 2)
			snprintf(near, sizeof(near), "%s", tok);
	}
	if (near[0])
		append(err, cap, " (did you mean '%s'?)", near);
	return WC_PARSE_USAGE;
}

static enum wc_parse_status find_command(const struct wc_command *cmds, struct wc_args *a,
					 char *err, size_t cap)
{
	const struct wc_command *best = NULL;
	size_t best_lit = 0, lit;
	char tok[TOKEN_MAX];
	for (const struct wc_command *c = cmds; c->words; c++) {
		size_t n = pattern_len(c->words);
		if (n != a->n_words || match_count(c->words, a->words, n, &lit) != n)
			continue;
		if (!best || lit > best_lit) { /* a literal word beats a placeholder */
			best = c;
			best_lit = lit;
		}
	}
	if (!best)
		return no_match(cmds, a, err, cap);
	a->cmd = best;
	a->n_pos = 0;
	for (size_t i = 0; i < a->n_words; i++) {
		pattern_word(best->words, i, tok, sizeof(tok));
		if ((is_placeholder(tok) || is_choice(tok)) && a->n_pos < WC_POS_MAX)
			a->pos[a->n_pos++] = a->words[i];
	}
	return WC_PARSED;
}

/* Every option given must be one the command takes. */
static enum wc_parse_status check_options(const struct wc_option *opts, const struct wc_args *a,
					  char *err, size_t cap)
{
	const struct wc_command *c = a->cmd;
	for (int o = 0; o < WC_OPT_COUNT; o++) {
		if (!a->has[o] || (c->opts & WC_O(o)))
			continue;
		if (opts[o].global && !(o == WC_OPT_JSON && (c->flags & WC_CMD_NO_JSON)))
			continue;
		usage(err, cap, "'--%s' does not go with '%s'", opts[o].name, c->words);
		bool first = true;
		for (int k = 0; k < WC_OPT_COUNT; k++)
			if (c->opts & WC_O(k)) {
				append(err, cap, "%s --%s", first ? "; it takes" : ",", opts[k].name);
				first = false;
			}
		return WC_PARSE_USAGE;
	}
	return WC_PARSED;
}

enum wc_parse_status wc_parse(const struct wc_command *cmds, const struct wc_option *opts,
			      int argc, char *const argv[], struct wc_args *a, char *err,
			      size_t cap)
{
	bool words_only = false;
	memset(a, 0, sizeof(*a));
	err[0] = '\0';
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (!words_only && strcmp(arg, "--") == 0) {
			words_only = true;
			continue;
		}
		if (!words_only && arg[0] == '-' && arg[1] != '\0') {
			enum wc_parse_status s = take_option(opts, argc, argv, &i, a, err, cap);
			if (s != WC_PARSED)
				return s;
			continue;
		}
		if (a->n_words >= WC_WORDS_MAX)
			return usage(err, cap, "too many words: '%s' and what follows", arg);
		a->words[a->n_words++] = arg;
	}
	if (a->has[WC_OPT_HELP])
		return WC_PARSE_HELP;
	if (a->has[WC_OPT_VERSION])
		return WC_PARSE_VERSION;
	if (a->n_words == 0)
		return usage(err, cap, "no command given; 'wpactl --help' lists them");
	enum wc_parse_status s = find_command(cmds, a, err, cap);
	if (s != WC_PARSED)
		return s;
	return check_options(opts, a, err, cap);
}

/* ---- help ---- */

static void option_line(FILE *f, const struct wc_option *o)
{
	char left[64];
	snprintf(left, sizeof(left), "%c%c%s--%s%s%s", o->short_name ? '-' : ' ',
		 o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ", o->name,
		 o->arg ? " " : "", o->arg ? o->arg : "");
	fprintf(f, "  %-24s %s\n", left, o->help);
}

static void command_line(FILE *f, const struct wc_command *c)
{
	fprintf(f, "  %-40s %s\n", c->words, c->help);
}

static void one_command(FILE *f, const struct wc_command *c, const struct wc_option *opts)
{
	fprintf(f, "Usage: wpactl %s", c->words);
	for (int o = 0; o < WC_OPT_COUNT; o++)
		if (c->opts & WC_O(o))
			fprintf(f, " [--%s%s%s]", opts[o].name, opts[o].arg ? " " : "",
				opts[o].arg ? opts[o].arg : "");
	fprintf(f, "\n\n  %s\n", c->help);
	if (c->more)
		fprintf(f, "%s", c->more);
	if (c->opts) {
		fprintf(f, "\nOptions:\n");
		for (int o = 0; o < WC_OPT_COUNT; o++)
			if (c->opts & WC_O(o))
				option_line(f, &opts[o]);
	}
	fprintf(f, "\nGlobal options:\n");
	for (int o = 0; o < WC_OPT_COUNT; o++)
		if (opts[o].global && !(o == WC_OPT_JSON && (c->flags & WC_CMD_NO_JSON)))
			option_line(f, &opts[o]);
}

void wc_help(FILE *f, const struct wc_command *cmds, const struct wc_option *opts,
	     const struct wc_args *a)
{
	const struct wc_command *only = a->cmd;
	size_t matches = 0, lit;
	/* The commands the given words begin; all of them if none does. */
	size_t n = a->n_words;
	for (;; n--) {
		matches = 0;
		for (const struct wc_command *c = cmds; c->words; c++)
			if (!(c->flags & WC_CMD_HIDDEN) && match_count(c->words, a->words, n, &lit) == n) {
				matches++;
				only = c;
			}
		if (matches > 0 || n == 0)
			break;
	}
	if (a->cmd)
		only = a->cmd;
	if (a->cmd || matches == 1) {
		one_command(f, only, opts);
		return;
	}
	fprintf(f, "Usage: wpactl [OPTIONS] COMMAND ...\n\nCommands:\n");
	for (const struct wc_command *c = cmds; c->words; c++)
		if (!(c->flags & WC_CMD_HIDDEN) && match_count(c->words, a->words, n, &lit) == n)
			command_line(f, c);
	fprintf(f, "\n'wpactl COMMAND --help' tells more about one command.\n");
	if (n == 0) {
		fprintf(f, "\nOptions:\n");
		for (int o = 0; o < WC_OPT_COUNT; o++)
			option_line(f, &opts[o]);
	}
}
