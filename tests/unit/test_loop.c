/* Event loop: timer ordering, removal from inside callbacks, signal
 * delivery, idle callbacks, quit (each on both clocks), and the virtual
 * clock's jumps. */
#include "daemon/core/loop.h"

#include <check.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* The "core" cases run once per clock: _i 0 monotonic, 1 virtual. */
static struct loop *clock_loop(int i)
{
	struct loop *loop = loop_new_with_clock(i ? LOOP_CLOCK_VIRTUAL : LOOP_CLOCK_MONOTONIC);
	ck_assert_ptr_nonnull(loop);
	ck_assert_int_eq(loop_clock(loop), i ? LOOP_CLOCK_VIRTUAL : LOOP_CLOCK_MONOTONIC);
	return loop;
}

struct trace {
	int order[16];
	int n;
};

static void trace_add(struct trace *t, int v)
{
	if (t->n < 16)
		t->order[t->n++] = v;
}

/* Iterates until `done` says stop, with a 2 s safety limit so a broken loop
 * fails the test rather than hanging it. */
static void spin(struct loop *loop, int (*done)(void *), void *arg)
{
	uint64_t start = loop_now_us(loop);
	while (!done(arg)) {
		ck_assert_msg(loop_now_us(loop) - start < 2000000, "loop did not make progress");
		ck_assert_int_ge(loop_iterate(loop, 50), 0);
	}
}

static int trace_has(void *arg)
{
	struct trace *t = arg;
	return t->n >= t->order[15];
}

struct tagged_timer {
	struct trace *trace;
	int tag;
};

static void record_timer(struct loop_timer *timer, void *data)
{
	struct tagged_timer *tt = data;
	trace_add(tt->trace, tt->tag);
}

START_TEST(timers_fire_in_deadline_order)
{
	struct loop *loop = clock_loop(_i);
	struct trace tr = { 0 };
	struct tagged_timer tags[4];
	struct loop_timer *t[4];
	/* 100 ms apart: on the monotonic clock a loaded machine may pause
	 * this thread between two arms, which must not reorder them. */
	const uint64_t delays_ms[4] = { 300, 100, 200, 100 };

	for (int i = 0; i < 4; i++) {
		tags[i] = (struct tagged_timer){ &tr, i };
		t[i] = loop_timer_new(loop, record_timer, &tags[i]);
	}
	/* Timers 1 and 3 share a deadline region; arm 3 with the same delay
	 * after 1 so 1 must come first. */
	for (int i = 0; i < 4; i++)
		loop_timer_arm_ms(t[i], delays_ms[i]);
	tr.order[15] = 4;
	spin(loop, trace_has, &tr);
	ck_assert_int_eq(tr.n, 4);
	ck_assert_int_eq(tr.order[0], 1);
	ck_assert_int_eq(tr.order[1], 3);
	ck_assert_int_eq(tr.order[2], 2);
	ck_assert_int_eq(tr.order[3], 0);
	for (int i = 0; i < 4; i++)
		ck_assert(!loop_timer_armed(t[i]));
	for (int i = 0; i < 4; i++)
		loop_timer_free(t[i]);
	loop_free(loop);
}
END_TEST

START_TEST(equal_deadlines_fire_in_arm_order)
{
	struct loop *loop = clock_loop(_i);
	struct trace tr = { 0 };
	struct tagged_timer tags[8];
	struct loop_timer *t[8];

	for (int i = 0; i < 8; i++) {
		tags[i] = (struct tagged_timer){ &tr, i };
		t[i] = loop_timer_new(loop, record_timer, &tags[i]);
		loop_timer_arm_us(t[i], 0);
	}
	tr.order[15] = 8;
	spin(loop, trace_has, &tr);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(tr.order[i], i);
	loop_free(loop); /* frees the timers still attached */
}
END_TEST

START_TEST(rearm_and_disarm)
{
	struct loop *loop = clock_loop(_i);
	struct trace tr = { 0 };
	struct tagged_timer a = { &tr, 1 }, b = { &tr, 2 };
	struct loop_timer *ta = loop_timer_new(loop, record_timer, &a);
	struct loop_timer *tb = loop_timer_new(loop, record_timer, &b);

	loop_timer_arm_ms(ta, 5);
	loop_timer_arm_ms(tb, 10);
	loop_timer_arm_ms(ta, 20); /* moves a behind b */
	ck_assert(loop_timer_remaining_us(ta) > 10000);
	tr.order[15] = 2;
	spin(loop, trace_has, &tr);
	ck_assert_int_eq(tr.order[0], 2);
	ck_assert_int_eq(tr.order[1], 1);

	loop_timer_arm_ms(ta, 1);
	loop_timer_disarm(ta);
	ck_assert(!loop_timer_armed(ta));
	ck_assert_int_eq(loop_timer_remaining_us(ta), 0);
	loop_iterate(loop, 20);
	ck_assert_int_eq(tr.n, 2);
	loop_timer_free(ta);
	loop_timer_free(tb);
	loop_free(loop);
}
END_TEST

struct self_free {
	struct loop_timer *self;
	struct loop_timer *victim;
	int fired;
	int victim_fired;
};

static void free_self_and_victim(struct loop_timer *timer, void *data)
{
	struct self_free *sf = data;
	sf->fired++;
	loop_timer_free(timer);
	loop_timer_free(sf->victim);
}

static void victim_cb(struct loop_timer *timer, void *data)
{
	struct self_free *sf = data;
	sf->victim_fired++;
}

static int self_free_done(void *arg)
{
	return ((struct self_free *)arg)->fired > 0;
}

START_TEST(timer_freed_inside_callback)
{
	struct loop *loop = clock_loop(_i);
	struct self_free sf = { 0 };

	sf.self = loop_timer_new(loop, free_self_and_victim, &sf);
	sf.victim = loop_timer_new(loop, victim_cb, &sf);
	/* Both due in the same iteration; the first frees the second. */
	loop_timer_arm_us(sf.self, 0);
	loop_timer_arm_us(sf.victim, 0);
	usleep(2000);
	spin(loop, self_free_done, &sf);
	loop_iterate(loop, 10);
	ck_assert_int_eq(sf.fired, 1);
	ck_assert_int_eq(sf.victim_fired, 0);
	loop_free(loop);
}
END_TEST

struct rearm_zero {
	struct loop_timer *t;
	int fired;
};

static void rearm_zero_cb(struct loop_timer *timer, void *data)
{
	struct rearm_zero *rz = data;
	rz->fired++;
	loop_timer_arm_us(timer, 0);
}

START_TEST(timer_rearmed_from_callback_waits_for_next_iteration)
{
	struct loop *loop = clock_loop(_i);
	struct rearm_zero rz = { 0 };

	rz.t = loop_timer_new(loop, rearm_zero_cb, &rz);
	loop_timer_arm_us(rz.t, 0);
	usleep(1000);
	int ran = loop_iterate(loop, 100);
	ck_assert_int_eq(ran, 1);
	ck_assert_int_eq(rz.fired, 1);
	loop_iterate(loop, 100);
	ck_assert_int_eq(rz.fired, 2);
	loop_free(loop);
}
END_TEST

struct pipe_pair {
	int fds[2];
	struct loop_io *io;
	struct loop_io *other;
	int reads;
	int other_reads;
};

static void read_and_free(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct pipe_pair *pp = data;
	char buf[8];
	ck_assert(events & EPOLLIN);
	ck_assert_int_gt(read(fd, buf, sizeof(buf)), 0);
	pp->reads++;
	loop_io_free(io);
	loop_io_free(pp->other); /* also ready in this batch: must not run */
}

static void other_reader(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct pipe_pair *pp = data;
	pp->other_reads++;
}

START_TEST(io_freed_inside_callback)
{
	struct loop *loop = clock_loop(_i);
	struct pipe_pair a = { 0 }, b = { 0 };

	ck_assert_int_eq(pipe(a.fds), 0);
	ck_assert_int_eq(pipe(b.fds), 0);
	a.io = loop_io_new(loop, a.fds[0], EPOLLIN, read_and_free, &a);
	b.io = loop_io_new(loop, b.fds[0], EPOLLIN, read_and_free, &b);
	a.other = b.io;
	b.other = a.io;
	ck_assert_int_eq(write(a.fds[1], "x", 1), 1);
	ck_assert_int_eq(write(b.fds[1], "y", 1), 1);
	ck_assert_int_ge(loop_iterate(loop, 100), 1);
	/* Exactly one of the two ran; it freed both. */
	ck_assert_int_eq(a.reads + b.reads, 1);
	ck_assert_int_eq(loop_iterate(loop, 20), 0);
	ck_assert_int_eq(a.reads + b.reads, 1);
	for (int i = 0; i < 2; i++) {
		close(a.fds[i]);
		close(b.fds[i]);
	}
	loop_free(loop);
}
END_TEST

START_TEST(io_events_can_change)
{
	struct loop *loop = clock_loop(_i);
	struct pipe_pair p = { 0 };

	ck_assert_int_eq(pipe(p.fds), 0);
	p.io = loop_io_new(loop, p.fds[0], 0, other_reader, &p);
	ck_assert_int_eq(loop_io_fd(p.io), p.fds[0]);
	ck_assert_int_eq(write(p.fds[1], "x", 1), 1);
	ck_assert_int_eq(loop_iterate(loop, 10), 0); /* not interested yet */
	ck_assert_int_eq(loop_io_set_events(p.io, EPOLLIN), 0);
	ck_assert_int_eq(loop_iterate(loop, 100), 1);
	ck_assert_int_eq(p.other_reads, 1);
	loop_io_free(p.io);
	close(p.fds[0]);
	close(p.fds[1]);
	loop_free(loop);
}
END_TEST

struct sig_seen {
	int signo;
	int count;
	struct loop_signal *other;
};

static void on_signal(struct loop_signal *sig, int signo, void *data)
{
	struct sig_seen *s = data;
	s->signo = signo;
	s->count++;
	if (s->other) {
		loop_signal_free(s->other);
		s->other = NULL;
	}
}

static int sig_done(void *arg)
{
	return ((struct sig_seen *)arg)->count > 0;
}

START_TEST(signal_is_delivered)
{
	struct loop *loop = clock_loop(_i);
	struct sig_seen usr1 = { 0 }, usr2 = { 0 };
	struct loop_signal *s1 = loop_signal_new(loop, SIGUSR1, on_signal, &usr1);
	struct loop_signal *s2 = loop_signal_new(loop, SIGUSR2, on_signal, &usr2);

	ck_assert_ptr_nonnull(s1);
	ck_assert_ptr_nonnull(s2);
	ck_assert_int_eq(kill(getpid(), SIGUSR2), 0);
	spin(loop, sig_done, &usr2);
	ck_assert_int_eq(usr2.signo, SIGUSR2);
	ck_assert_int_eq(usr1.count, 0);
	ck_assert_int_eq(raise(SIGUSR1), 0);
	spin(loop, sig_done, &usr1);
	ck_assert_int_eq(usr1.signo, SIGUSR1);
	ck_assert_int_eq(usr2.count, 1);
	loop_signal_free(s1);
	loop_signal_free(s2);
	loop_free(loop);
}
END_TEST

START_TEST(signal_handler_freed_by_sibling_is_not_called)
{
	struct loop *loop = clock_loop(_i);
	struct sig_seen first = { 0 }, second = { 0 };
	struct loop_signal *a = loop_signal_new(loop, SIGUSR1, on_signal, &first);
	struct loop_signal *b = loop_signal_new(loop, SIGUSR1, on_signal, &second);

	first.other = b;
	ck_assert_int_eq(raise(SIGUSR1), 0);
	spin(loop, sig_done, &first);
	ck_assert_int_eq(first.count, 1);
	ck_assert_int_eq(second.count, 0);
	loop_signal_free(a);
	loop_free(loop);
}
END_TEST

struct idle_state {
	struct loop_idle *idle;
	int runs;
	int reschedule;
};

static void idle_cb(struct loop_idle *idle, void *data)
{
	struct idle_state *st = data;
	st->runs++;
	if (st->reschedule-- > 0)
		loop_idle_schedule(idle);
}

START_TEST(idle_runs_once_per_schedule)
{
	struct loop *loop = clock_loop(_i);
	struct idle_state st = { 0 };

	st.idle = loop_idle_new(loop, idle_cb, &st);
	loop_idle_schedule(st.idle);
	loop_idle_schedule(st.idle);
	loop_iterate(loop, 0);
	ck_assert_int_eq(st.runs, 1);
	loop_iterate(loop, 0);
	ck_assert_int_eq(st.runs, 1);

	/* Rescheduling from the callback runs it on the next iteration,
	 * not in a spin within this one. */
	st.reschedule = 2;
	loop_idle_schedule(st.idle);
	loop_iterate(loop, 0);
	ck_assert_int_eq(st.runs, 2);
	loop_iterate(loop, 0);
	ck_assert_int_eq(st.runs, 3);
	loop_iterate(loop, 0);
	ck_assert_int_eq(st.runs, 4);
	loop_iterate(loop, 0);
	ck_assert_int_eq(st.runs, 4);

	loop_idle_schedule(st.idle);
	loop_idle_cancel(st.idle);
	loop_iterate(loop, 0);
	ck_assert_int_eq(st.runs, 4);
	loop_idle_schedule(st.idle);
	loop_idle_free(st.idle);
	loop_iterate(loop, 0);
	ck_assert_int_eq(st.runs, 4);
	loop_free(loop);
}
END_TEST

static void quit_cb(struct loop_timer *timer, void *data)
{
	loop_quit(data, 42);
}

START_TEST(quit_returns_code)
{
	struct loop *loop = clock_loop(_i);
	struct loop_timer *t = loop_timer_new(loop, quit_cb, loop);

	loop_timer_arm_ms(t, 1);
	ck_assert_int_eq(loop_run(loop), 42);
	ck_assert(loop_quitting(loop));
	loop_free(loop);
}
END_TEST

START_TEST(wait_blocks_without_busy_loop)
{
	/* An idle loop with a 50 ms timer must sleep, not spin: count the
	 * iterations it takes. */
	struct loop *loop = clock_loop(_i);
	struct trace tr = { 0 };
	struct tagged_timer tag = { &tr, 7 };
	struct loop_timer *t = loop_timer_new(loop, record_timer, &tag);
	int iterations = 0;

	loop_timer_arm_ms(t, 50);
	while (tr.n == 0 && iterations < 1000) {
		loop_iterate(loop, -1);
		iterations++;
	}
	ck_assert_int_eq(tr.n, 1);
	ck_assert_int_le(iterations, 2);
	loop_free(loop);
}
END_TEST

/* The loop sets its timerfd once per turn, before it waits: what it
 * waits for is the last change of the turn. A timer moved later must not
 * wake the loop at its first deadline, one moved earlier must wake it at
 * its new one, and a timer disarmed in the same turn must not fire. */
START_TEST(a_wait_follows_the_last_timer_change_of_the_turn)
{
	struct loop *loop = loop_new();
	struct trace tr = { 0 };
	struct tagged_timer a = { &tr, 1 }, b = { &tr, 2 };
	struct loop_timer *ta = loop_timer_new(loop, record_timer, &a);
	struct loop_timer *tb = loop_timer_new(loop, record_timer, &b);

	loop_timer_arm_ms(ta, 5);
	loop_timer_arm_ms(ta, 40); /* later: no wakeup at 5 ms */
	uint64_t t0 = loop_now_us(loop);
	ck_assert_int_eq(loop_iterate(loop, -1), 1);
	ck_assert_int_eq(tr.n, 1);
	ck_assert_uint_ge(loop_now_us(loop) - t0, 40000u);

	loop_timer_arm_ms(ta, 500);
	loop_timer_arm_ms(ta, 5); /* earlier: the wait ends at 5 ms, not 500 */
	loop_timer_arm_ms(tb, 1);
	loop_timer_disarm(tb); /* never fires */
	t0 = loop_now_us(loop);
	ck_assert_int_eq(loop_iterate(loop, -1), 1);
	ck_assert_int_eq(tr.n, 2);
	ck_assert_int_eq(tr.order[1], 1);
	ck_assert_uint_lt(loop_now_us(loop) - t0, 400000u);
	loop_timer_free(ta);
	loop_timer_free(tb);
	loop_free(loop);
}
END_TEST

/* ---- the virtual clock ---- */

static uint64_t wall_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static struct loop *virtual_loop(void)
{
	struct loop *loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	ck_assert_ptr_nonnull(loop);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US);
	return loop;
}

START_TEST(virtual_time_jumps_to_the_next_timer)
{
	struct loop *loop = virtual_loop();
	struct trace tr = { 0 };
	struct tagged_timer tags[2] = { { &tr, 1 }, { &tr, 2 } };
	struct loop_timer *late = loop_timer_new(loop, record_timer, &tags[1]);
	struct loop_timer *soon = loop_timer_new(loop, record_timer, &tags[0]);
	uint64_t wall = wall_us();

	loop_timer_arm_ms(late, 3000);
	loop_timer_arm_ms(soon, 1000);
	ck_assert_int_eq(loop_iterate(loop, -1), 1);
	ck_assert_int_eq(tr.n, 1);
	ck_assert_int_eq(tr.order[0], 1);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US + 1000000u);
	ck_assert_uint_eq(loop_timer_remaining_us(late), 2000000u);
	ck_assert_int_eq(loop_iterate(loop, -1), 1);
	ck_assert_int_eq(tr.order[1], 2);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US + 3000000u);
	/* Three seconds of protocol time, no sleeping. */
	ck_assert_uint_lt(wall_us() - wall, 1000000u);
	loop_free(loop);
}
END_TEST

START_TEST(virtual_time_jump_is_capped_by_the_timeout)
{
	struct loop *loop = virtual_loop();
	struct trace tr = { 0 };
	struct tagged_timer tag = { &tr, 1 };
	struct loop_timer *t = loop_timer_new(loop, record_timer, &tag);

	/* Nothing armed: time passes by the timeout, as a real wait would. */
	ck_assert_int_eq(loop_iterate(loop, 50), 0);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US + 50000u);
	loop_timer_arm_ms(t, 100);
	ck_assert_int_eq(loop_iterate(loop, 30), 0);
	ck_assert_int_eq(tr.n, 0);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US + 80000u);
	/* A zero timeout never moves time. */
	ck_assert_int_eq(loop_iterate(loop, 0), 0);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US + 80000u);
	ck_assert_int_eq(loop_iterate(loop, 500), 1);
	ck_assert_int_eq(tr.n, 1);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US + 150000u);
	loop_free(loop);
}
END_TEST

struct echo {
	struct loop *loop;
	int fds[2];
	int reads;
	uint64_t read_at;
};

static void echo_read(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct echo *e = data;
	char c;
	ck_assert_int_eq(read(fd, &c, 1), 1);
	e->reads++;
	e->read_at = loop_now_us(e->loop);
}

START_TEST(virtual_time_waits_for_a_readable_fd)
{
	/* A frame in flight (data in a socketpair) is read at the instant it
	 * was sent: time never jumps over it. */
	struct loop *loop = virtual_loop();
	struct trace tr = { 0 };
	struct tagged_timer tag = { &tr, 1 };
	struct loop_timer *t = loop_timer_new(loop, record_timer, &tag);
	struct echo e = { .loop = loop };

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, e.fds), 0);
	struct loop_io *io = loop_io_new(loop, e.fds[0], EPOLLIN, echo_read, &e);
	ck_assert_ptr_nonnull(io);
	loop_timer_arm_ms(t, 10);
	ck_assert_int_eq(write(e.fds[1], "x", 1), 1);
	ck_assert_int_eq(loop_iterate(loop, -1), 1);
	ck_assert_int_eq(e.reads, 1);
	ck_assert_uint_eq(e.read_at, LOOP_VIRTUAL_START_US);
	ck_assert_int_eq(tr.n, 0);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US);
	ck_assert_int_eq(loop_iterate(loop, -1), 1);
	ck_assert_int_eq(tr.n, 1);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US + 10000u);
	loop_io_free(io);
	close(e.fds[0]);
	close(e.fds[1]);
	loop_free(loop);
}
END_TEST

struct busy_idle {
	int left;
	uint64_t seen_at[4];
	int runs;
	struct loop *loop;
};

static void busy_idle_cb(struct loop_idle *idle, void *data)
{
	struct busy_idle *b = data;
	if (b->runs < 4)
		b->seen_at[b->runs] = loop_now_us(b->loop);
	b->runs++;
	if (--b->left > 0)
		loop_idle_schedule(idle);
}

START_TEST(virtual_time_waits_for_pending_idles)
{
	struct loop *loop = virtual_loop();
	struct trace tr = { 0 };
	struct tagged_timer tag = { &tr, 1 };
	struct loop_timer *t = loop_timer_new(loop, record_timer, &tag);
	struct busy_idle b = { .left = 3, .loop = loop };
	struct loop_idle *idle = loop_idle_new(loop, busy_idle_cb, &b);

	loop_timer_arm_ms(t, 5);
	loop_idle_schedule(idle);
	while (tr.n == 0)
		ck_assert_int_ge(loop_iterate(loop, -1), 0);
	ck_assert_int_eq(b.runs, 3);
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(b.seen_at[i], LOOP_VIRTUAL_START_US);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US + 5000u);
	loop_free(loop);
}
END_TEST

START_TEST(virtual_time_advances_on_request)
{
	struct loop *loop = virtual_loop();
	struct trace tr = { 0 };
	struct tagged_timer tag = { &tr, 1 };
	struct loop_timer *t = loop_timer_new(loop, record_timer, &tag);

	loop_timer_arm_ms(t, 20);
	loop_advance_us(loop, 25000);
	ck_assert_uint_eq(loop_timer_remaining_us(t), 0);
	ck_assert_int_eq(loop_iterate(loop, 0), 1);
	ck_assert_int_eq(tr.n, 1);
	ck_assert_uint_eq(loop_now_us(loop), LOOP_VIRTUAL_START_US + 25000u);
	loop_free(loop);

	/* The monotonic clock ignores it. */
	loop = loop_new();
	uint64_t before = loop_now_us(loop);
	loop_advance_us(loop, 3600u * 1000000u);
	ck_assert_uint_lt(loop_now_us(loop) - before, 1800u * 1000000u);
	loop_free(loop);
}
END_TEST

Suite *make_loop_suite(void)
{
	Suite *s = suite_create("loop");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, timers_fire_in_deadline_order, 0, 2);
	tcase_add_loop_test(tc, equal_deadlines_fire_in_arm_order, 0, 2);
	tcase_add_loop_test(tc, rearm_and_disarm, 0, 2);
	tcase_add_loop_test(tc, timer_freed_inside_callback, 0, 2);
	tcase_add_loop_test(tc, timer_rearmed_from_callback_waits_for_next_iteration, 0, 2);
	tcase_add_loop_test(tc, io_freed_inside_callback, 0, 2);
	tcase_add_loop_test(tc, io_events_can_change, 0, 2);
	tcase_add_loop_test(tc, signal_is_delivered, 0, 2);
	tcase_add_loop_test(tc, signal_handler_freed_by_sibling_is_not_called, 0, 2);
	tcase_add_loop_test(tc, idle_runs_once_per_schedule, 0, 2);
	tcase_add_loop_test(tc, quit_returns_code, 0, 2);
	tcase_add_loop_test(tc, wait_blocks_without_busy_loop, 0, 2);
	tcase_add_test(tc, a_wait_follows_the_last_timer_change_of_the_turn);
	suite_add_tcase(s, tc);
	TCase *virt = tcase_create("virtual");
	tcase_add_test(virt, virtual_time_jumps_to_the_next_timer);
	tcase_add_test(virt, virtual_time_jump_is_capped_by_the_timeout);
	tcase_add_test(virt, virtual_time_waits_for_a_readable_fd);
	tcase_add_test(virt, virtual_time_waits_for_pending_idles);
	tcase_add_test(virt, virtual_time_advances_on_request);
	suite_add_tcase(s, virt);
	return s;
}
