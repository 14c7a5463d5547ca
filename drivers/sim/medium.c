/* The medium's lifecycle: the listening socket (or none, in process),
 * attaching clients, teardown, and the public control calls. */
#define _GNU_SOURCE /* accept4, POLLRDHUP */
#define LOG_TAG "medium"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "drivers/sim/medium-internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* ---- sockets ---- */

static int socket_path(const char *dir, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	int n = snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/%s", dir, MEDIUM_SOCKET_NAME);
	if (n < 0 || (size_t)n >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	return 0;
}

/* mkdir -p, for the folder the socket lives in. */
static int make_dir(const char *dir)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	size_t n = strlen(dir);

	if (n == 0 || n >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, n + 1);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* A socket file may be left over from a medium that died. Returns 0 when it
 * was stale and is gone, -EADDRINUSE when a live medium answers on it. */
static int clear_stale_socket(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	int r = connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	close(fd);
	if (r == 0)
		return -EADDRINUSE;
	return unlink(sa->sun_path) < 0 && errno != ENOENT ? -errno : 0;
}

static void on_accept(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct medium *m = data;

	for (;;) {
		int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (cfd < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
				log_warn("accept: %s", strerror(errno));
			return;
		}
		if (medium_client_attach(m, cfd) < 0)
			log_warn("cannot attach a client: out of memory");
	}
}

static int listen_at(struct medium *m, const char *dir)
{
	struct sockaddr_un sa;
	int r = socket_path(dir, &sa);

	if (r == 0)
		r = make_dir(dir);
	if (r < 0)
		return r;
	m->listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (m->listen_fd < 0)
		return -errno;
	if (bind(m->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (errno != EADDRINUSE)
			return -errno;
		r = clear_stale_socket(&sa);
		if (r < 0)
			return r;
		if (bind(m->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			return -errno;
	}
	m->sock_path = strdup(sa.sun_path);
	if (!m->sock_path)
		return -ENOMEM;
	if (listen(m->listen_fd, 128) < 0)
		return -errno;
	m->listen_io = loop_io_new(m->loop, m->listen_fd, EPOLLIN, on_accept, m);
	return m->listen_io ? 0 : -ENOMEM;
}

int medium_connect_local(struct medium *m)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	int r = medium_client_attach(m, sv[0]);
	if (r < 0) {
		close(sv[1]);
		return r;
	}
	return sv[1];
}

int medium_connect_path(const char *dir)
{
	struct sockaddr_un sa;
	int r = socket_path(dir, &sa);

	if (r < 0)
		return r;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	return fd;
}

/* ---- lifecycle ---- */

static void on_reap(struct loop_idle *idle, void *data)
{
	medium_client_reap(data);
}

static uint64_t initial_seed(const struct loop *loop)
{
	const char *s = getenv("WPAD_MEDIUM_SEED");
	if (s && *s) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(s, &end, 0);
		if (errno == 0 && *end == '\0')
			return v;
		log_warn("ignoring WPAD_MEDIUM_SEED='%s': not a number", s);
	}
	return loop_now_us(loop) ^ ((uint64_t)getpid() << 32);
}

struct medium *medium_new(struct loop *loop, const char *dir, int *err)
{
	struct medium *m = calloc(1, sizeof(*m));
	int r = -ENOMEM;

	if (!m)
		goto fail;
	m->loop = loop;
	m->listen_fd = -1;
	m->clients.prev = m->clients.next = &m->clients;
	medium_prng_seed(&m->prng, initial_seed(loop));
	medium_edca_seed(m);
	m->links = medium_links_new();
	m->reaper = loop_idle_new(loop, on_reap, m);
	if (!m->links || !m->reaper)
		goto fail;
	if (dir) {
		r = listen_at(m, dir);
		if (r < 0) {
			log_error("cannot listen in %s: %s", dir, strerror(-r));
			goto fail;
		}
		log_info("medium listening on %s", m->sock_path);
	}
	return m;
fail:
	medium_free(m);
	if (err)
		*err = r;
	return NULL;
}

void medium_free(struct medium *m)
{
	if (!m)
		return;
	for (struct medium_client *c = m->clients.next; c != &m->clients; c = c->next)
		medium_client_kill(c, "medium closing");
	medium_client_reap(m);
	medium_air_free(m);
	medium_capture_close(m->capture);
	medium_links_free(m->links);
	loop_idle_free(m->reaper);
	loop_io_free(m->listen_io);
	if (m->listen_fd >= 0)
		close(m->listen_fd);
	/* Only remove the socket we bound: a second medium that failed with
	 * EADDRINUSE never set sock_path. */
	if (m->sock_path)
		unlink(m->sock_path);
	free(m->sock_path);
	free(m);
}

/* ---- public control calls ---- */

void medium_get_stats(const struct medium *m, struct medium_stats *st)
{
	*st = m->stats;
}

int medium_set_link(struct medium *m, const uint8_t a[6], const uint8_t b[6],
		    int32_t signal_mbm, uint8_t loss_pct)
{
	return medium_links_set(m->links, a, b, signal_mbm, loss_pct);
}

int medium_set_position(struct medium *m, const uint8_t addr[6], int32_t x_cm, int32_t y_cm)
{
	return medium_links_set_position(m->links, addr, x_cm, y_cm);
}

int medium_set_default_loss(struct medium *m, uint8_t loss_pct)
{
	if (loss_pct > 100)
		return -EINVAL;
	m->default_loss = loss_pct;
	return 0;
}

void medium_set_seed(struct medium *m, uint64_t seed)
{
	medium_prng_seed(&m->prng, seed);
}

int medium_capture_start(struct medium *m, const char *pcap_path)
{
	int err = 0;

	if (!pcap_path || !pcap_path[0])
		return -EINVAL;
	struct medium_capture *cap = medium_capture_open(pcap_path, m->loop, &err);
	if (!cap) {
		log_warn("cannot capture to %s: %s", pcap_path, strerror(-err));
		return err;
	}
	medium_capture_close(m->capture);
	m->capture = cap;
	log_info("capturing to %s", pcap_path);
	return 0;
}

void medium_capture_stop(struct medium *m)
{
	if (!m->capture)
		return;
	medium_capture_close(m->capture);
	m->capture = NULL;
	log_info("capture stopped");
}
