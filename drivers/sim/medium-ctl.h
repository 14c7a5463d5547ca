/* The command-line control client of a running medium:
 *     wpad-medium -D DIR ctl COMMAND [ARGS...]
 * It connects to DIR/medium.sock, sends CTRL_HELLO and one control message,
 * waits for the answer and exits 0 when the medium said 0. See
 * medium_ctl_usage() for the commands. */
#ifndef WPAD_DRIVERS_SIM_MEDIUM_CTL_H
#define WPAD_DRIVERS_SIM_MEDIUM_CTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Runs one command (argv[0] is the command name). Returns the process exit
 * code: 0 done, 1 refused or failed, 2 usage error. */
int medium_ctl_main(const char *dir, int argc, char **argv);
void medium_ctl_usage(FILE *out);

/* Parsers shared with the tests: "02:00:00:00:00:01" and hex bytes. */
bool medium_parse_addr(const char *s, uint8_t addr[6]);
/* Returns the byte count, or -1 on bad hex or more than cap bytes. */
long medium_parse_hex(const char *s, uint8_t *out, size_t cap);

#endif
