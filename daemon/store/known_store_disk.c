/* The known-networks store: disk side (directory, loading, writing). */
#define LOG_TAG "store"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/config/readfile.h"
#include "daemon/core/log.h"
#include "daemon/crypto/kdf.h"
#include "daemon/crypto/secure.h"
#include "daemon/store/atomic_file.h"
#include "daemon/store/known_store_internal.h"

/* Network files are small; anything bigger is not ours. */
#define KNOWN_FILE_MAX (64 * 1024)

static int open_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	/* mkdir() honours the umask and an old directory may be looser. */
	if ((st.st_mode & 07777) != 0700) {
		log_warn("%s: mode %03o, setting 0700", dir, (unsigned)(st.st_mode & 07777));
		if (fchmod(fd, 0700) < 0) {
			int e = -errno;
			close(fd);
			return e;
		}
	}
	return fd;
}

int known_store_open(const char *dir, struct known_store **out)
{
	struct known_store *store = calloc(1, sizeof(*store));
	int fd;

	if (!store)
		return -ENOMEM;
	store->dir = strdup(dir);
	if (!store->dir) {
		free(store);
		return -ENOMEM;
	}
	fd = open_dir(dir);
	if (fd < 0) {
		free(store->dir);
		free(store);
		return fd;
	}
	store->dirfd = fd;
	store->psk_fn = crypto_psk_from_passphrase;
	*out = store;
	return 0;
}

static void drop_all(struct known_store *store)
{
	for (size_t i = 0; i < store->n; i++)
		store_release(store->nets[i]);
	store->n = 0;
}

void known_store_free(struct known_store *store)
{
	if (!store)
		return;
	known_store_flush(store);
	drop_all(store);
	free(store->nets);
	close(store->dirfd);
	free(store->dir);
	free(store);
}

int store_write(struct known_store *store, struct known_network *net)
{
	char name[KNOWN_NAME_MAX];
	struct strbuf sb = STRBUF_INIT;
	int ret;

	ret = known_name_encode(net->ssid, net->ssid_len, net->security, name);
	if (ret == 0)
		ret = known_network_format(net, &sb);
	if (ret == 0)
		ret = atomic_write(store->dirfd, name, sb.data ? sb.data : "", sb.len, 0600);
	strbuf_free_secret(&sb);
	if (ret < 0) {
		log_error("%s/%s: cannot save: %s", store->dir, name, strerror(-ret));
		return ret;
	}
	net->saved_last_connected = net->last_connected;
	net->state_unsaved = false;
	return 0;
}

int store_remove_file(struct known_store *store, const struct known_network *net)
{
	char name[KNOWN_NAME_MAX];
	int ret = known_name_encode(net->ssid, net->ssid_len, net->security, name);

	return ret < 0 ? ret : atomic_unlink(store->dirfd, name);
}

/* Parses one network file; a file we cannot use is logged and skipped. */
static void load_file(struct known_store *store, const char *name, const uint8_t *ssid, size_t len,
		      enum known_security sec)
{
	struct cfg_error err;
	struct known_network *net;
	struct ini *ini = NULL;
	char path[4096];
	char *buf;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", store->dir, name);
	if (cfg_read_file(path, KNOWN_FILE_MAX, &buf, &n, &err) < 0) {
		log_warn("skipping network file %s", err.msg);
		return;
	}
	int ret = ini_parse(buf, n, path, &ini, &err);
	crypto_zero(buf, n);
	free(buf);
	net = ret == 0 ? malloc(sizeof(*net)) : NULL;
	if (net) {
		known_network_init(net, ssid, len, sec);
		ret = known_network_from_ini(net, ini, &err);
		net->saved_last_connected = net->last_connected;
		if (ret == 0 && (ret = store_reserve(store)) == 0)
			store->nets[store->n++] = net;
		else
			store_release(net);
	} else if (ret == 0) {
		cfg_fail(&err, CFG_E_NOMEM, path, 0, "out of memory");
		ret = CFG_E_NOMEM;
	}
	ini_free(ini);
	if (ret < 0)
		log_warn("skipping network file %s", err.msg);
}

/* One directory entry: a network file, a crash leftover, or not ours. */
static void load_entry(struct known_store *store, const char *name)
{
	uint8_t ssid[KNOWN_SSID_MAX];
	enum known_security sec;
	struct stat st;
	size_t len;

	if (atomic_is_temp_name(name)) {
		log_debug("%s/%s: removing a temporary file left by a crash", store->dir, name);
		unlinkat(store->dirfd, name, 0);
		return;
	}
	if (name[0] == '.' || !known_name_has_ext(name))
		return; /* not ours: other state may share the directory */
	if (known_name_decode(name, ssid, &len, &sec) < 0) {
		log_warn("%s/%s: not a network file name, ignored", store->dir, name);
		return;
	}
	if (fstatat(store->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode)) {
		log_warn("%s/%s: not a regular file, ignored", store->dir, name);
		return;
	}
	load_file(store, name, ssid, len, sec);
}

int known_store_load(struct known_store *store)
{
	int fd = dup(store->dirfd);
	DIR *d;
	struct dirent *de;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int e = -errno;
		close(fd);
		return e;
	}
	rewinddir(d);
	known_store_flush(store); /* what memory knows better than the files */
	drop_all(store);
	while ((de = readdir(d)) != NULL)
		load_entry(store, de->d_name);
	closedir(d);
	log_debug("%s: %zu known networks", store->dir, store->n);
	return (int)store->n;
}
