/* Reading a whole configuration file into memory, bounded. */
#ifndef WPAD_CONFIG_READFILE_H
#define WPAD_CONFIG_READFILE_H

#include <stddef.h>

#include "daemon/config/cfg_error.h"

/* Default limit for every configuration file we read. */
#define CFG_FILE_MAX (1024 * 1024)

/* Reads the regular file at path (at most max bytes) into a new buffer,
 * NUL-terminated after *len bytes. Refuses FIFOs, devices and directories
 * (CFG_E_NOT_REGULAR) so a path can never block the daemon. Returns 0,
 * CFG_E_IO, CFG_E_TOO_LARGE, CFG_E_NOT_REGULAR or CFG_E_NOMEM, with a
 * message in err. The caller owns *buf: free() it, after crypto_zero() of
 * the *len bytes if the file may hold secrets. */
int cfg_read_file(const char *path, size_t max, char **buf, size_t *len, struct cfg_error *err);

#endif
