/* Crash-safe file replacement inside one directory.
 *
 * A write goes to a new temporary file in the same directory (name
 * starting with ATOMIC_TEMP_PREFIX, created O_EXCL, mode set exactly),
 * which is fsync'ed, renamed over the target, and then the directory is
 * fsync'ed. At any moment the target is either the old complete file or
 * the new complete file. A crash can leave a temporary file behind: the
 * readers ignore names starting with '.', and atomic_is_temp_name() lets
 * them delete the leftovers.
 */
#ifndef WPAD_STORE_ATOMIC_FILE_H
#define WPAD_STORE_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define ATOMIC_TEMP_PREFIX ".wpad-tmp-"

/* Replaces dirfd/name with len bytes of data, mode exactly `mode`.
 * Returns 0 or a negative errno; on failure the target is unchanged and
 * no temporary file is left. */
int atomic_write(int dirfd, const char *name, const void *data, size_t len, mode_t mode);

/* Removes dirfd/name and makes the removal durable. Returns 0, -ENOENT
 * or another negative errno. */
int atomic_unlink(int dirfd, const char *name);

bool atomic_is_temp_name(const char *name);

#endif
