/* The event loop: epoll for file descriptors, a heap of timers on the loop's
 * clock, signalfd for signals, and idle callbacks that run once at the start
 * of the next iteration.
 *
 * The clock is chosen when the loop is made. LOOP_CLOCK_MONOTONIC (the
 * daemon, the tools, the integration tests) is real time: a timerfd on
 * CLOCK_MONOTONIC wakes the loop. LOOP_CLOCK_VIRTUAL (unit tests) is a
 * counter that only the loop moves: an iteration first polls the fds without
 * waiting, and only when no fd is ready and no idle callback is pending does
 * time jump forward, to the next timer's deadline or by the iteration's
 * timeout, whichever is sooner. So a frame written to a socketpair is always
 * read before time passes, and a 3 s protocol timeout costs no wall time.
 * Virtual time is only sound when every party the loop waits on is in this
 * process and on this loop (no child process, no kernel timing).
 * Everything that measures time reads loop_now_us() of its own loop.
 *
 * Ownership: whoever creates a source frees it (loop_*_free). Freeing is safe
 * at any time, including from inside the source's own callback or from the
 * callback of another source dispatched in the same iteration: the memory is
 * released only after the iteration ends, and a freed source is never called.
 * Freeing the loop frees any source still attached.
 */
#ifndef WPAD_CORE_LOOP_H
#define WPAD_CORE_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>

struct loop;
struct loop_io;
struct loop_timer;
struct loop_signal;
struct loop_idle;

typedef void (*loop_io_fn)(struct loop_io *io, int fd, uint32_t events, void *data);
typedef void (*loop_timer_fn)(struct loop_timer *timer, void *data);
typedef void (*loop_signal_fn)(struct loop_signal *sig, int signo, void *data);
typedef void (*loop_idle_fn)(struct loop_idle *idle, void *data);

enum loop_clock {
	LOOP_CLOCK_MONOTONIC,
	LOOP_CLOCK_VIRTUAL,
};

/* loop_new(): LOOP_CLOCK_MONOTONIC. */
struct loop *loop_new(void);
struct loop *loop_new_with_clock(enum loop_clock clock);
void loop_free(struct loop *loop);
enum loop_clock loop_clock(const struct loop *loop);

/* Runs until loop_quit(); returns the code given to loop_quit(). */
int loop_run(struct loop *loop);
void loop_quit(struct loop *loop, int code);
bool loop_quitting(const struct loop *loop);
/* One iteration: idle callbacks, then wait at most timeout_ms (-1: forever)
 * for events and dispatch them. Returns callbacks run, or -errno. On the
 * virtual clock "wait" is a jump of the clock (see above); with no timer
 * armed and timeout_ms -1 it blocks on the fds in real time. */
int loop_iterate(struct loop *loop, int timeout_ms);

/* The loop's clock, microseconds (monotonic; the virtual clock starts at
 * LOOP_VIRTUAL_START_US, so "now minus an age" never wraps). */
uint64_t loop_now_us(const struct loop *loop);
#define LOOP_VIRTUAL_START_US (3600ull * 1000000u)
/* Virtual clock only (ignored otherwise): moves time forward now; timers
 * that became due run in the next iteration. */
void loop_advance_us(struct loop *loop, uint64_t delta_us);

/* File descriptors. events: EPOLLIN, EPOLLOUT, ... (level-triggered). */
struct loop_io *loop_io_new(struct loop *loop, int fd, uint32_t events, loop_io_fn fn,
			    void *data);
int loop_io_set_events(struct loop_io *io, uint32_t events);
int loop_io_fd(const struct loop_io *io);
void loop_io_free(struct loop_io *io);

/* Timers are created disarmed; arming an armed timer moves its deadline.
 * Timers with equal deadlines fire in the order they were armed. A timer
 * armed from a callback never fires in the same iteration. */
struct loop_timer *loop_timer_new(struct loop *loop, loop_timer_fn fn, void *data);
void loop_timer_arm_us(struct loop_timer *timer, uint64_t delay_us);
void loop_timer_arm_ms(struct loop_timer *timer, uint64_t delay_ms);
void loop_timer_disarm(struct loop_timer *timer);
bool loop_timer_armed(const struct loop_timer *timer);
/* Microseconds until the deadline (0 if due or disarmed). */
uint64_t loop_timer_remaining_us(const struct loop_timer *timer);
void loop_timer_free(struct loop_timer *timer);

/* Signals are blocked for the process and delivered through signalfd. */
struct loop_signal *loop_signal_new(struct loop *loop, int signo, loop_signal_fn fn, void *data);
void loop_signal_free(struct loop_signal *sig);

/* Idle callbacks: loop_idle_schedule() queues the callback to run once at the
 * start of the next iteration (scheduling twice runs it once). */
struct loop_idle *loop_idle_new(struct loop *loop, loop_idle_fn fn, void *data);
void loop_idle_schedule(struct loop_idle *idle);
void loop_idle_cancel(struct loop_idle *idle);
void loop_idle_free(struct loop_idle *idle);

#endif
