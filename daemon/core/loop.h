/* The event loop: epoll for file descriptors, one timerfd driving a heap of
 * timers (CLOCK_MONOTONIC), signalfd for signals, and idle callbacks that run
 * once at the start of the next iteration.
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

struct loop *loop_new(void);
void loop_free(struct loop *loop);

/* Runs until loop_quit(); returns the code given to loop_quit(). */
int loop_run(struct loop *loop);
void loop_quit(struct loop *loop, int code);
bool loop_quitting(const struct loop *loop);
/* One iteration: idle callbacks, then wait at most timeout_ms (-1: forever)
 * for events and dispatch them. Returns callbacks run, or -errno. */
int loop_iterate(struct loop *loop, int timeout_ms);

/* Monotonic clock, microseconds. */
uint64_t loop_now_us(void);

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
