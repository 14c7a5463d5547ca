/* File change notification through inotify on the loop. See file_watch.h. */
#define LOG_TAG "watch"
#include "daemon/core/file_watch.h"

#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <unistd.h>

/* What changes a file's contents as seen from its directory. */
#define DIR_EVENTS (IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)

struct watched {
	char *dir;      /* owned */
	char *name;     /* owned: the file's name in dir */
	int wd;
	bool pending;
	file_watch_fn fn;
	void *ctx;
};

struct file_watch {
	struct loop *loop;
	int fd;
	struct loop_io *io;
	struct loop_timer *settle;
	struct watched files[FILE_WATCH_MAX];
	size_t n;
};

static void drop(struct file_watch *fw, size_t i)
{
	struct watched *w = &fw->files[i];
	int wd = w->wd;
	free(w->dir);
	free(w->name);
	fw->files[i] = fw->files[--fw->n];
	for (size_t j = 0; j < fw->n; j++)
		if (fw->files[j].wd == wd)
			return; /* the directory is still watched for another file */
	inotify_rm_watch(fw->fd, wd);
}

/* Quiet again: each (fn, ctx) with a changed file is called once. The
 * table is searched afresh after every call, since a callback may remove
 * entries. */
static void settled(struct loop_timer *t, void *data)
{
	struct file_watch *fw = data;
	for (;;) {
		size_t i = 0;
		while (i < fw->n && !fw->files[i].pending)
			i++;
		if (i == fw->n)
			return;
		file_watch_fn fn = fw->files[i].fn;
		void *ctx = fw->files[i].ctx;
		for (size_t j = 0; j < fw->n; j++)
			if (fw->files[j].fn == fn && fw->files[j].ctx == ctx)
				fw->files[j].pending = false;
		fn(ctx);
	}
}

static void mark(struct file_watch *fw, int wd, const char *name, size_t name_len, bool all)
{
	for (size_t i = 0; i < fw->n; i++) {
		struct watched *w = &fw->files[i];
		if (all || (w->wd == wd && strlen(w->name) == name_len &&
			    memcmp(w->name, name, name_len) == 0)) {
			if (!w->pending)
				log_verbose("%s/%s changed", w->dir, w->name);
			w->pending = true;
			loop_timer_arm_ms(fw->settle, FILE_WATCH_SETTLE_MS);
		}
	}
}

/* The kernel's records: a struct inotify_event and len octets of name
 * (NUL-padded), each checked against what read() returned. */
static void readable(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct file_watch *fw = data;
	_Alignas(struct inotify_event) uint8_t buf[4096];
	for (;;) {
		ssize_t got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return; /* EAGAIN: drained */
		size_t off = 0, len = (size_t)got;
		while (len - off >= sizeof(struct inotify_event)) {
			struct inotify_event ev;
			memcpy(&ev, buf + off, sizeof(ev));
			if (ev.len > len - off - sizeof(ev))
				break; /* truncated: never from the kernel */
			const char *name = (const char *)buf + off + sizeof(ev);
			size_t name_len = strnlen(name, ev.len);
			if (ev.mask & IN_Q_OVERFLOW)
				mark(fw, -1, NULL, 0, true); /* events lost: everything may have */
			else if (ev.len)
				mark(fw, ev.wd, name, name_len, false);
			off += sizeof(ev) + ev.len;
		}
	}
}

struct file_watch *file_watch_new(struct loop *loop)
{
	struct file_watch *fw = calloc(1, sizeof(*fw));
	if (!fw)
		return NULL;
	fw->loop = loop;
	fw->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fw->fd < 0) {
		int e = errno;
		free(fw);
		errno = e;
		return NULL;
	}
	fw->io = loop_io_new(loop, fw->fd, EPOLLIN, readable, fw);
	fw->settle = loop_timer_new(loop, settled, fw);
	if (!fw->io || !fw->settle) {
		file_watch_free(fw);
		errno = ENOMEM;
		return NULL;
	}
	return fw;
}

void file_watch_free(struct file_watch *fw)
{
	if (!fw)
		return;
	while (fw->n)
		drop(fw, fw->n - 1);
	loop_io_free(fw->io);
	loop_timer_free(fw->settle);
	close(fw->fd);
	free(fw);
}

int file_watch_add(struct file_watch *fw, const char *path, file_watch_fn fn, void *ctx)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	if (!slash || path[0] != '/' || !slash[1] || !fn)
		return -EINVAL;
	if (fw->n == FILE_WATCH_MAX)
		return -ENOSPC;
	struct watched *w = &fw->files[fw->n];
	size_t dir_len = slash == path ? 1 : (size_t)(slash - path);
	w->dir = strndup(path, dir_len);
	w->name = strdup(slash + 1);
	if (!w->dir || !w->name) {
		free(w->dir);
		free(w->name);
		return -ENOMEM;
	}
	w->wd = inotify_add_watch(fw->fd, w->dir, DIR_EVENTS);
	if (w->wd < 0) {
		int e = errno;
		free(w->dir);
		free(w->name);
		return -e;
	}
	w->fn = fn;
	w->ctx = ctx;
	w->pending = false;
	fw->n++;
	return 0;
}

void file_watch_remove_ctx(struct file_watch *fw, void *ctx)
{
	if (!fw)
		return;
	for (size_t i = fw->n; i-- > 0;)
		if (fw->files[i].ctx == ctx)
			drop(fw, i);
}

size_t file_watch_count(const struct file_watch *fw)
{
	return fw ? fw->n : 0;
}
