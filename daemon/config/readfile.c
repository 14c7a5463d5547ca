#include "daemon/config/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/crypto/secure.h"

static void discard(char *data, size_t cap)
{
	crypto_zero(data, cap);
	free(data);
}

/* Reads until EOF; the size from fstat() is only a hint (the file may grow). */
static int read_all(int fd, const char *path, size_t max, char **buf, size_t *len,
		    struct cfg_error *err)
{
	size_t cap = 4096, used = 0;
	char *data = malloc(cap);

	if (!data)
		return cfg_fail(err, CFG_E_NOMEM, path, 0, "out of memory");
	for (;;) {
		if (used + 1 >= cap) {
			if (cap > max + 1) {
				discard(data, cap);
				return cfg_fail(err, CFG_E_TOO_LARGE, path, 0,
						"file is larger than %zu bytes", max);
			}
			char *bigger = malloc(cap * 2);
			if (!bigger) {
				discard(data, cap);
				return cfg_fail(err, CFG_E_NOMEM, path, 0, "out of memory");
			}
			memcpy(bigger, data, used);
			discard(data, cap);
			data = bigger;
			cap *= 2;
		}
		ssize_t n = read(fd, data + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			discard(data, cap);
			return cfg_fail(err, CFG_E_IO, path, 0, "read failed: %s", strerror(e));
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	if (used > max) {
		discard(data, cap);
		return cfg_fail(err, CFG_E_TOO_LARGE, path, 0, "file is larger than %zu bytes",
				max);
	}
	data[used] = '\0';
	*buf = data;
	*len = used;
	return 0;
}

int cfg_read_file(const char *path, size_t max, char **buf, size_t *len, struct cfg_error *err)
{
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return cfg_fail(err, CFG_E_IO, path, 0, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) < 0) {
		ret = cfg_fail(err, CFG_E_IO, path, 0, "cannot stat: %s", strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		ret = cfg_fail(err, CFG_E_NOT_REGULAR, path, 0, "not a regular file");
	} else if ((unsigned long long)st.st_size > max) {
		ret = cfg_fail(err, CFG_E_TOO_LARGE, path, 0, "file is larger than %zu bytes", max);
	} else {
		ret = read_all(fd, path, max, buf, len, err);
	}
	close(fd);
	return ret;
}
