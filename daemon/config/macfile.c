#include "daemon/config/macfile.h"

#include <stdlib.h>
#include <string.h>

#include "daemon/config/lines.h"
#include "daemon/config/readfile.h"
#include "daemon/config/value.h"

struct mac_set {
	uint8_t (*macs)[6];
	size_t n;
	size_t cap;
};

struct mac_set *mac_set_new(void)
{
	return calloc(1, sizeof(struct mac_set));
}

void mac_set_free(struct mac_set *set)
{
	if (!set)
		return;
	free(set->macs);
	free(set);
}

size_t mac_set_count(const struct mac_set *set)
{
	return set ? set->n : 0;
}

/* Index of the first entry >= mac. */
static size_t lower_bound(const struct mac_set *set, const uint8_t mac[6])
{
	size_t lo = 0, hi = set->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (memcmp(set->macs[mid], mac, 6) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool mac_set_contains(const struct mac_set *set, const uint8_t mac[6])
{
	if (!set || set->n == 0)
		return false;
	size_t i = lower_bound(set, mac);
	return i < set->n && memcmp(set->macs[i], mac, 6) == 0;
}

bool mac_set_remove(struct mac_set *set, const uint8_t mac[6])
{
	if (!mac_set_contains(set, mac))
		return false;
	size_t i = lower_bound(set, mac);
	memmove(set->macs[i], set->macs[i + 1], (set->n - i - 1) * 6);
	set->n--;
	return true;
}

const uint8_t *mac_set_at(const struct mac_set *set, size_t i)
{
	return set && i < set->n ? set->macs[i] : NULL;
}

static int reserve_one(struct mac_set *set)
{
	if (set->n >= MAC_SET_MAX)
		return CFG_E_TOO_MANY;
	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 16;
		void *p = realloc(set->macs, cap * 6);
		if (!p)
			return CFG_E_NOMEM;
		set->macs = p;
		set->cap = cap;
	}
	return 0;
}

int mac_set_add(struct mac_set *set, const uint8_t mac[6])
{
	size_t i = lower_bound(set, mac);
	int ret;

	if (i < set->n && memcmp(set->macs[i], mac, 6) == 0)
		return 0;
	if ((ret = reserve_one(set)) < 0)
		return ret;
	memmove(set->macs[i + 1], set->macs[i], (set->n - i) * 6);
	memcpy(set->macs[i], mac, 6);
	set->n++;
	return 0;
}

static int cmp_mac(const void *a, const void *b)
{
	return memcmp(a, b, 6);
}

/* A file is read in any order: append everything, then sort and drop
 * duplicates once, instead of one sorted insert per line. */
static void sort_unique(struct mac_set *set)
{
	size_t out = 0;

	if (set->n == 0)
		return;
	qsort(set->macs, set->n, 6, cmp_mac);
	for (size_t i = 1; i < set->n; i++)
		if (memcmp(set->macs[out], set->macs[i], 6) != 0)
			memcpy(set->macs[++out], set->macs[i], 6);
	set->n = out + 1;
}

struct mac_parse {
	struct mac_set *set;
	const char *file;
	struct cfg_error *err;
};

static int parse_line(void *ctx, char *line, unsigned lineno)
{
	struct mac_parse *mp = ctx;
	uint8_t mac[6];
	char *s = cfg_trim(line);
	int ret;

	if (*s == '\0' || *s == '#')
		return 0;
	if (cfg_parse_mac(s, mac) < 0)
		return cfg_fail(mp->err, CFG_E_BAD_MAC, mp->file, lineno,
				"'%.40s' is not a MAC address (expected aa:bb:cc:dd:ee:ff)", s);
	if (mac[0] & 0x01)
		return cfg_fail(mp->err, CFG_E_BAD_MAC, mp->file, lineno,
				"%s is a group address, not a station", s);
	ret = reserve_one(mp->set);
	if (ret == CFG_E_TOO_MANY)
		return cfg_fail(mp->err, ret, mp->file, lineno, "more than %d addresses",
				MAC_SET_MAX);
	if (ret < 0)
		return cfg_fail(mp->err, ret, mp->file, lineno, "out of memory");
	memcpy(mp->set->macs[mp->set->n++], mac, 6);
	return 0;
}

int macfile_parse(const char *buf, size_t len, const char *file, struct mac_set **out,
		  struct cfg_error *err)
{
	struct mac_parse mp = { .file = file ? file : "<input>", .err = err };
	int ret;

	cfg_error_clear(err);
	mp.set = mac_set_new();
	if (!mp.set)
		return cfg_fail(err, CFG_E_NOMEM, mp.file, 0, "out of memory");
	ret = cfg_for_each_line(buf, len, mp.file, parse_line, &mp, err);
	if (ret < 0) {
		mac_set_free(mp.set);
		return ret;
	}
	sort_unique(mp.set);
	*out = mp.set;
	return 0;
}

int macfile_load(const char *path, struct mac_set **out, struct cfg_error *err)
{
	char *buf;
	size_t len;
	int ret;

	cfg_error_clear(err);
	ret = cfg_read_file(path, CFG_FILE_MAX, &buf, &len, err);
	if (ret < 0)
		return ret;
	ret = macfile_parse(buf, len, path, out, err);
	free(buf);
	return ret;
}
