/* What every wpactl command gets: the bus and the global options.
 *
 *   main.c      options, the table lookup, the bus, the exit code
 *   table.c     the grammar (parse.c reads it)
 *   bus.c       the connection, calls with timeouts, the wait loop
 *   objects.c   GetManagedObjects: devices, networks, known networks, stations
 *   output.c    tables and terminal-safe text for people, D-Bus values as JSON
 *   json.c      the JSON writer
 *   errors.c    D-Bus error -> exit code and message (the one table)
 *   agent.c     org.wpad1.Agent: passphrases asked on the terminal
 *   cmd_*.c     the commands
 */
#ifndef WPACTL_WPACTL_H
#define WPACTL_WPACTL_H

#include <stdbool.h>

#include "wpactl/bus.h"

struct wc_ctx {
	struct wc_bus bus;
	bool json;
	int timeout_ms;
	int long_timeout_ms;
};

#endif
