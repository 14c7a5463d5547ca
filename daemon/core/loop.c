/* Event loop implementation. See loop.h for the contract.
 *
 * Every source starts with a struct source header that links it into the
 * loop's list of live sources. Freeing marks the source dead, detaches it
 * from epoll/heap/idle queue and moves it to the zombie list, which is
 * emptied when the current iteration ends; that is what makes freeing from
 * inside a callback safe.
 *
 * Timers: on the monotonic clock the timerfd is armed at the earliest
 * deadline and its readiness runs the due timers; on the virtual clock the
 * timerfd stays disarmed and every iteration runs the due timers itself
 * after the jump (iterate_virtual). */
#define LOG_TAG "loop"
#include "daemon/core/loop.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

enum source_kind {
	SOURCE_IO,
	SOURCE_TIMER,
	SOURCE_SIGNAL,
	SOURCE_IDLE,
};

struct source {
	enum source_kind kind;
	bool dead;
	struct loop *loop;
	struct source *prev, *next; /* live list, or zombie list once dead */
};

struct loop_io {
	struct source base;
	int fd;
	uint32_t events;
	loop_io_fn fn;
	void *data;
};

struct loop_timer {
	struct source base;
	uint64_t deadline_us;
	uint64_t arm_seq; /* tie-break and "armed this iteration" marker */
	size_t heap_index; /* SIZE_MAX when disarmed */
	loop_timer_fn fn;
	void *data;
};

struct loop_signal {
	struct source base;
	int signo;
	loop_signal_fn fn;
	void *data;
};

struct loop_idle {
	struct source base;
	bool queued; /* will run when reached */
	bool linked; /* sits in the idle queue or in the batch being run */
	struct loop_idle *queue_next;
	loop_idle_fn fn;
	void *data;
};

struct loop {
	enum loop_clock clock;
	uint64_t virtual_now_us;
	int epoll_fd;
	int timer_fd;
	uint64_t timer_fd_armed_us; /* the deadline the timerfd holds, 0: none */
	int signal_fd;
	sigset_t signals;
	bool quit;
	int quit_code;
	struct source live;   /* sentinel of the live list */
	struct source zombie; /* sentinel of the dead-but-not-freed list */
	struct loop_timer **heap;
	size_t heap_len, heap_cap;
	uint64_t next_seq;
	struct loop_idle *idle_head, *idle_tail;
};

/* epoll user data for the loop's own fds (never a valid source pointer). */
static char timer_fd_tag, signal_fd_tag;

static uint64_t monotonic_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint64_t loop_now_us(const struct loop *loop)
{
	switch (loop->clock) {
	case LOOP_CLOCK_MONOTONIC:
		return monotonic_now_us();
	case LOOP_CLOCK_VIRTUAL:
		return loop->virtual_now_us;
	}
	return monotonic_now_us();
}

enum loop_clock loop_clock(const struct loop *loop)
{
	return loop->clock;
}

void loop_advance_us(struct loop *loop, uint64_t delta_us)
{
	if (loop->clock == LOOP_CLOCK_VIRTUAL)
		loop->virtual_now_us += delta_us;
}

static void list_init(struct source *head)
{
	head->prev = head->next = head;
}

static void list_unlink(struct source *s)
{
	s->prev->next = s->next;
	s->next->prev = s->prev;
	s->prev = s->next = s;
}

static void list_append(struct source *head, struct source *s)
{
	s->prev = head->prev;
	s->next = head;
	head->prev->next = s;
	head->prev = s;
}

static void *source_new(struct loop *loop, enum source_kind kind, size_t size)
{
	struct source *s = calloc(1, size);
	if (!s)
		return NULL;
	s->kind = kind;
	s->loop = loop;
	list_append(&loop->live, s);
	return s;
}

static void source_bury(struct source *s)
{
	s->dead = true;
	list_unlink(s);
	list_append(&s->loop->zombie, s);
}

static void free_zombies(struct loop *loop)
{
	while (loop->zombie.next != &loop->zombie) {
		struct source *s = loop->zombie.next;
		list_unlink(s);
		free(s);
	}
}

/* ---- timer heap (min-heap on deadline, then arm order) ---- */

static bool timer_before(const struct loop_timer *a, const struct loop_timer *b)
{
	if (a->deadline_us != b->deadline_us)
		return a->deadline_us < b->deadline_us;
	return a->arm_seq < b->arm_seq;
}

static void heap_place(struct loop *loop, size_t i, struct loop_timer *t)
{
	loop->heap[i] = t;
	t->heap_index = i;
}

static void heap_sift_up(struct loop *loop, size_t i)
{
	struct loop_timer *t = loop->heap[i];
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (!timer_before(t, loop->heap[parent]))
			break;
		heap_place(loop, i, loop->heap[parent]);
		i = parent;
	}
	heap_place(loop, i, t);
}

static void heap_sift_down(struct loop *loop, size_t i)
{
	struct loop_timer *t = loop->heap[i];
	for (;;) {
		size_t child = 2 * i + 1;
		if (child >= loop->heap_len)
			break;
		if (child + 1 < loop->heap_len &&
		    timer_before(loop->heap[child + 1], loop->heap[child]))
			child++;
		if (!timer_before(loop->heap[child], t))
			break;
		heap_place(loop, i, loop->heap[child]);
		i = child;
	}
	heap_place(loop, i, t);
}

static bool heap_push(struct loop *loop, struct loop_timer *t)
{
	if (loop->heap_len == loop->heap_cap) {
		size_t cap = loop->heap_cap ? loop->heap_cap * 2 : 16;
		struct loop_timer **h = realloc(loop->heap, cap * sizeof(*h));
		if (!h)
			return false;
		loop->heap = h;
		loop->heap_cap = cap;
	}
	heap_place(loop, loop->heap_len++, t);
	heap_sift_up(loop, t->heap_index);
	return true;
}

static void heap_remove(struct loop *loop, struct loop_timer *t)
{
	size_t i = t->heap_index;
	struct loop_timer *last = loop->heap[--loop->heap_len];
	t->heap_index = SIZE_MAX;
	if (i == loop->heap_len)
		return;
	heap_place(loop, i, last);
	heap_sift_down(loop, i);
	heap_sift_up(loop, last->heap_index);
}

/* Points the timerfd at the earliest deadline (or disarms it), once per
 * turn of the loop, just before it waits: a connect arms and disarms
 * several timers in one turn (a state's watchdog, a retransmission), and a
 * timerfd_settime for each was a system call per change where only the
 * last one counts (issue 21). Nothing but that wait reads the timerfd. */
static void timer_fd_sync(struct loop *loop)
{
	struct itimerspec its = { 0 };
	uint64_t want = 0;

	if (loop->clock == LOOP_CLOCK_VIRTUAL)
		return;
	if (loop->heap_len) {
		want = loop->heap[0]->deadline_us;
		if (want == 0)
			want = 1; /* an all-zero it_value would disarm */
	}
	if (want == loop->timer_fd_armed_us)
		return;
	its.it_value.tv_sec = (time_t)(want / 1000000u);
	its.it_value.tv_nsec = (long)(want % 1000000u) * 1000;
	if (timerfd_settime(loop->timer_fd, TFD_TIMER_ABSTIME, &its, NULL) < 0) {
		log_error("timerfd_settime: %s", strerror(errno));
		return;
	}
	loop->timer_fd_armed_us = want;
}

/* ---- loop ---- */

static int epoll_add_tag(struct loop *loop, int fd, void *tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = tag };
	return epoll_ctl(loop->epoll_fd, EPOLL_CTL_ADD, fd, &ev);
}

struct loop *loop_new(void)
{
	return loop_new_with_clock(LOOP_CLOCK_MONOTONIC);
}

struct loop *loop_new_with_clock(enum loop_clock clock)
{
	struct loop *loop = calloc(1, sizeof(*loop));
	if (!loop)
		return NULL;
	loop->clock = clock;
	loop->virtual_now_us = LOOP_VIRTUAL_START_US;
	list_init(&loop->live);
	list_init(&loop->zombie);
	sigemptyset(&loop->signals);
	loop->signal_fd = -1;
	loop->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	loop->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (loop->epoll_fd < 0 || loop->timer_fd < 0 ||
	    epoll_add_tag(loop, loop->timer_fd, &timer_fd_tag) < 0) {
		log_error("cannot create event loop: %s", strerror(errno));
		loop_free(loop);
		return NULL;
	}
	return loop;
}

void loop_free(struct loop *loop)
{
	if (!loop)
		return;
	while (loop->live.next != &loop->live) {
		struct source *s = loop->live.next;
		list_unlink(s);
		free(s);
	}
	free_zombies(loop);
	if (loop->signal_fd >= 0) {
		sigprocmask(SIG_UNBLOCK, &loop->signals, NULL);
		close(loop->signal_fd);
	}
	if (loop->timer_fd >= 0)
		close(loop->timer_fd);
	if (loop->epoll_fd >= 0)
		close(loop->epoll_fd);
	free(loop->heap);
	free(loop);
}

void loop_quit(struct loop *loop, int code)
{
	loop->quit = true;
	loop->quit_code = code;
}

bool loop_quitting(const struct loop *loop)
{
	return loop->quit;
}

int loop_run(struct loop *loop)
{
	loop->quit = false;
	while (!loop->quit) {
		int r = loop_iterate(loop, -1);
		if (r < 0 && r != -EINTR) {
			log_error("event loop failed: %s", strerror(-r));
			return r;
		}
	}
	return loop->quit_code;
}

static int run_idles(struct loop *loop)
{
	/* Detach the queue first: callbacks that reschedule land in the next
	 * iteration instead of spinning here. */
	struct loop_idle *idle = loop->idle_head;
	int ran = 0;
	loop->idle_head = loop->idle_tail = NULL;
	while (idle) {
		struct loop_idle *next = idle->queue_next;
		idle->queue_next = NULL;
		idle->linked = false;
		if (!idle->base.dead && idle->queued) {
			idle->queued = false;
			idle->fn(idle, idle->data);
			ran++;
		}
		idle = next;
	}
	return ran;
}

static int run_timers(struct loop *loop)
{
	uint64_t expirations;
	uint64_t now = loop_now_us(loop);
	uint64_t seq_limit = loop->next_seq;
	int ran = 0;

	if (loop->clock == LOOP_CLOCK_MONOTONIC) {
		ssize_t n = read(loop->timer_fd, &expirations, sizeof(expirations));
		if (n == (ssize_t)sizeof(expirations))
			loop->timer_fd_armed_us = 0; /* it expired: a one-shot timerfd disarms */
		else if (n < 0 && errno != EAGAIN)
			log_warn("timerfd read: %s", strerror(errno));
	}
	while (loop->heap_len) {
		struct loop_timer *t = loop->heap[0];
		if (t->deadline_us > now || t->arm_seq >= seq_limit)
			break;
		heap_remove(loop, t);
		t->fn(t, t->data);
		ran++;
	}
	return ran;
}

static int run_signals(struct loop *loop)
{
	struct signalfd_siginfo info;
	int ran = 0;

	while (read(loop->signal_fd, &info, sizeof(info)) == (ssize_t)sizeof(info)) {
		/* Collect first: a handler may free other handlers, and a freed
		 * source stays readable (dead) until the iteration ends. */
		struct loop_signal *match[16];
		size_t n = 0;
		for (struct source *s = loop->live.next; s != &loop->live && n < 16; s = s->next) {
			struct loop_signal *sig = (struct loop_signal *)s;
			if (s->kind == SOURCE_SIGNAL && sig->signo == (int)info.ssi_signo)
				match[n++] = sig;
		}
		for (size_t i = 0; i < n; i++) {
			if (match[i]->base.dead)
				continue;
			match[i]->fn(match[i], match[i]->signo, match[i]->data);
			ran++;
		}
	}
	return ran;
}

static int dispatch(struct loop *loop, const struct epoll_event *events, int n)
{
	int ran = 0;
	for (int i = 0; i < n; i++) {
		void *tag = events[i].data.ptr;
		if (tag == &timer_fd_tag) {
			ran += run_timers(loop);
		} else if (tag == &signal_fd_tag) {
			ran += run_signals(loop);
		} else {
			struct loop_io *io = tag;
			if (io->base.dead)
				continue;
			io->fn(io, io->fd, events[i].events, io->data);
			ran++;
		}
	}
	return ran;
}

/* Where virtual time may jump when nothing is ready: the earliest deadline,
 * capped by the caller's timeout. False: no timer and no timeout, nothing
 * in this process can ever move time. */
static bool virtual_jump_target(const struct loop *loop, int timeout_ms, uint64_t *target)
{
	bool have = false;
	if (loop->heap_len) {
		*target = loop->heap[0]->deadline_us;
		have = true;
	}
	if (timeout_ms >= 0) {
		uint64_t limit = loop->virtual_now_us + (uint64_t)timeout_ms * 1000u;
		if (!have || limit < *target)
			*target = limit;
		have = true;
	}
	return have;
}

static int iterate_virtual(struct loop *loop, struct epoll_event *events, int max,
			   int timeout_ms)
{
	/* Anything in flight (a frame in a socketpair, an idle callback) is
	 * handled at the current instant; time moves only past a quiet loop. */
	int n = epoll_wait(loop->epoll_fd, events, max, 0);
	if (n == 0 && timeout_ms != 0) {
		uint64_t target;
		if (virtual_jump_target(loop, timeout_ms, &target)) {
			if (target > loop->virtual_now_us)
				loop->virtual_now_us = target;
		} else {
			n = epoll_wait(loop->epoll_fd, events, max, -1);
		}
	}
	if (n < 0)
		return -errno;
	int ran = dispatch(loop, events, n);
	if (loop->heap_len && loop->heap[0]->deadline_us <= loop->virtual_now_us)
		ran += run_timers(loop);
	return ran;
}

int loop_iterate(struct loop *loop, int timeout_ms)
{
	struct epoll_event events[32];
	int ran = run_idles(loop);
	int r = 0;

	if (loop->idle_head || loop->quit)
		timeout_ms = 0;
	switch (loop->clock) {
	case LOOP_CLOCK_MONOTONIC:
		timer_fd_sync(loop);
		r = epoll_wait(loop->epoll_fd, events, 32, timeout_ms);
		r = r < 0 ? -errno : dispatch(loop, events, r);
		break;
	case LOOP_CLOCK_VIRTUAL:
		r = iterate_virtual(loop, events, 32, timeout_ms);
		break;
	}
	free_zombies(loop);
	return r < 0 ? r : ran + r;
}

/* ---- io ---- */

struct loop_io *loop_io_new(struct loop *loop, int fd, uint32_t events, loop_io_fn fn,
			    void *data)
{
	struct loop_io *io = source_new(loop, SOURCE_IO, sizeof(*io));
	if (!io)
		return NULL;
	io->fd = fd;
	io->events = events;
	io->fn = fn;
	io->data = data;
	struct epoll_event ev = { .events = events, .data.ptr = io };
	if (epoll_ctl(loop->epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		log_error("epoll add fd %d: %s", fd, strerror(errno));
		list_unlink(&io->base);
		free(io);
		return NULL;
	}
	return io;
}

int loop_io_set_events(struct loop_io *io, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = io };
	if (io->base.dead)
		return -EINVAL;
	if (epoll_ctl(io->base.loop->epoll_fd, EPOLL_CTL_MOD, io->fd, &ev) < 0)
		return -errno;
	io->events = events;
	return 0;
}

int loop_io_fd(const struct loop_io *io)
{
	return io->fd;
}

void loop_io_free(struct loop_io *io)
{
	if (!io || io->base.dead)
		return;
	/* The fd may already be closed by its owner; that is not an error. */
	epoll_ctl(io->base.loop->epoll_fd, EPOLL_CTL_DEL, io->fd, NULL);
	source_bury(&io->base);
}

/* ---- timers ---- */

struct loop_timer *loop_timer_new(struct loop *loop, loop_timer_fn fn, void *data)
{
	struct loop_timer *t = source_new(loop, SOURCE_TIMER, sizeof(*t));
	if (!t)
		return NULL;
	t->heap_index = SIZE_MAX;
	t->fn = fn;
	t->data = data;
	return t;
}

void loop_timer_arm_us(struct loop_timer *t, uint64_t delay_us)
{
	struct loop *loop = t->base.loop;
	if (t->base.dead)
		return;
	if (t->heap_index != SIZE_MAX)
		heap_remove(loop, t);
	t->deadline_us = loop_now_us(loop) + delay_us;
	t->arm_seq = loop->next_seq++;
	if (!heap_push(loop, t)) {
		log_error("out of memory arming a timer");
		return;
	}
}

void loop_timer_arm_ms(struct loop_timer *t, uint64_t delay_ms)
{
	loop_timer_arm_us(t, delay_ms * 1000u);
}

void loop_timer_disarm(struct loop_timer *t)
{
	if (!t || t->heap_index == SIZE_MAX)
		return;
	heap_remove(t->base.loop, t);
}

bool loop_timer_armed(const struct loop_timer *t)
{
	return t->heap_index != SIZE_MAX;
}

uint64_t loop_timer_remaining_us(const struct loop_timer *t)
{
	uint64_t now = loop_now_us(t->base.loop);
	if (t->heap_index == SIZE_MAX || t->deadline_us <= now)
		return 0;
	return t->deadline_us - now;
}

void loop_timer_free(struct loop_timer *t)
{
	if (!t || t->base.dead)
		return;
	loop_timer_disarm(t);
	source_bury(&t->base);
}

/* ---- signals ---- */

static int signal_fd_refresh(struct loop *loop)
{
	if (sigprocmask(SIG_BLOCK, &loop->signals, NULL) < 0)
		return -errno;
	int fd = signalfd(loop->signal_fd, &loop->signals, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (loop->signal_fd < 0) {
		loop->signal_fd = fd;
		if (epoll_add_tag(loop, fd, &signal_fd_tag) < 0)
			return -errno;
	}
	return 0;
}

struct loop_signal *loop_signal_new(struct loop *loop, int signo, loop_signal_fn fn, void *data)
{
	struct loop_signal *sig = source_new(loop, SOURCE_SIGNAL, sizeof(*sig));
	if (!sig)
		return NULL;
	sig->signo = signo;
	sig->fn = fn;
	sig->data = data;
	sigaddset(&loop->signals, signo);
	int r = signal_fd_refresh(loop);
	if (r < 0) {
		log_error("cannot watch signal %d: %s", signo, strerror(-r));
		list_unlink(&sig->base);
		free(sig);
		return NULL;
	}
	return sig;
}

void loop_signal_free(struct loop_signal *sig)
{
	/* The signal stays blocked and in the signalfd mask until the loop is
	 * freed: unblocking now could let a pending signal kill the process. */
	if (!sig || sig->base.dead)
		return;
	source_bury(&sig->base);
}

/* ---- idle ---- */

struct loop_idle *loop_idle_new(struct loop *loop, loop_idle_fn fn, void *data)
{
	struct loop_idle *idle = source_new(loop, SOURCE_IDLE, sizeof(*idle));
	if (!idle)
		return NULL;
	idle->fn = fn;
	idle->data = data;
	return idle;
}

void loop_idle_schedule(struct loop_idle *idle)
{
	struct loop *loop = idle->base.loop;
	if (idle->base.dead || idle->queued)
		return;
	idle->queued = true;
	/* Already linked (possibly in the batch being run now): it will run
	 * when reached, so it must not be linked twice. */
	if (idle->linked)
		return;
	idle->linked = true;
	if (loop->idle_tail)
		loop->idle_tail->queue_next = idle;
	else
		loop->idle_head = idle;
	loop->idle_tail = idle;
}

void loop_idle_cancel(struct loop_idle *idle)
{
	if (idle)
		idle->queued = false; /* stays linked; skipped when reached */
}

static void idle_unqueue(struct loop_idle *idle)
{
	struct loop *loop = idle->base.loop;
	struct loop_idle **pp = &loop->idle_head, *prev = NULL;
	while (*pp && *pp != idle) {
		prev = *pp;
		pp = &(*pp)->queue_next;
	}
	if (!*pp)
		return;
	*pp = idle->queue_next;
	if (loop->idle_tail == idle)
		loop->idle_tail = prev;
	idle->queue_next = NULL;
	idle->linked = false;
}

void loop_idle_free(struct loop_idle *idle)
{
	if (!idle || idle->base.dead)
		return;
	idle->queued = false;
	idle_unqueue(idle);
	source_bury(&idle->base);
}
