/* libFuzzer target for the medium's message handling: a fresh in-process
 * medium per input, two radios (HELLO'd, on 2412 MHz) and two other clients;
 * the input is a list of datagrams, each sent from one of the four and
 * dispatched by the medium. Whatever they say, the medium must neither
 * crash nor leak (LeakSanitizer checks each input).
 *
 * Input: repeated [client (1 byte)] [length (1 byte)] [datagram bytes].
 * CAPTURE messages are skipped: they would create files with fuzzed names. */
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "drivers/sim/medium.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { CLIENTS = 4 };

static void settle(struct loop *loop)
{
	for (int i = 0; i < 16 && loop_iterate(loop, 0) > 0; i++)
		;
}

static void hello(int fd, uint8_t last, struct loop *loop)
{
	struct medium_msg msg = { .type = MEDIUM_MSG_HELLO };
	uint8_t buf[MEDIUM_MAX_MSG];

	memcpy(msg.u.hello.addr, (const uint8_t[6]){ 2, 0, 0, 0, 0, last }, 6);
	int n = medium_msg_encode(&msg, buf, sizeof(buf));
	send(fd, buf, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
	msg = (struct medium_msg){ .type = MEDIUM_MSG_SET_CHANNEL };
	msg.u.set_channel.freq_mhz = 2412;
	n = medium_msg_encode(&msg, buf, sizeof(buf));
	send(fd, buf, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
	settle(loop);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet;
	int fds[CLIENTS], err;

	if (!quiet) {
		log_set_level(WLOG_ERROR);
		quiet = true;
	}
	struct loop *loop = loop_new();
	struct medium *m = medium_new(loop, NULL, &err);
	if (!m)
		abort();
	for (int i = 0; i < CLIENTS; i++)
		fds[i] = medium_connect_local(m);
	hello(fds[0], 1, loop);
	hello(fds[1], 2, loop);
	while (size >= 2) {
		int who = data[0] % CLIENTS;
		size_t len = data[1] < size - 2 ? data[1] : size - 2;
		const uint8_t *dgram = data + 2;
		data += 2 + len;
		size -= 2 + len;
		if (len >= 2 && dgram[1] == MEDIUM_MSG_CAPTURE)
			continue;
		if (fds[who] >= 0)
			send(fds[who], dgram, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		settle(loop);
	}
	for (int i = 0; i < CLIENTS; i++)
		close(fds[i]);
	settle(loop);
	medium_free(m);
	loop_free(loop);
	return 0;
}
