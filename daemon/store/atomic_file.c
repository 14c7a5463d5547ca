#include "daemon/store/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool atomic_is_temp_name(const char *name)
{
	return strncmp(name, ATOMIC_TEMP_PREFIX, strlen(ATOMIC_TEMP_PREFIX)) == 0;
}

/* O_EXCL makes the name ours; pid + counter make a clash unlikely. */
static int create_temp(int dirfd, char *tmp, size_t size)
{
	static unsigned counter;

	for (int tries = 0; tries < 100; tries++) {
		snprintf(tmp, size, ATOMIC_TEMP_PREFIX "%ld-%u", (long)getpid(), counter++);
		int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
				0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int atomic_write(int dirfd, const char *name, const void *data, size_t len, mode_t mode)
{
	char tmp[64];
	int fd, ret;

	fd = create_temp(dirfd, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	/* fchmod, not the open mode: the umask must not change it. */
	ret = fchmod(fd, mode) < 0 ? -errno : 0;
	if (ret == 0)
		ret = write_all(fd, data, len);
	if (ret == 0 && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		ret = -errno;
	if (ret < 0) {
		unlinkat(dirfd, tmp, 0);
		return ret;
	}
	/* The rename is durable only once the directory is. */
	return fsync(dirfd) < 0 ? -errno : 0;
}

int atomic_unlink(int dirfd, const char *name)
{
	if (unlinkat(dirfd, name, 0) < 0)
		return -errno;
	return fsync(dirfd) < 0 ? -errno : 0;
}
