/* Files watched for changes, on the loop, through inotify on their
 * directories: a tool or an editor that replaces a file by renaming a new
 * one over it (the safe way to write) leaves a watch on the file itself
 * on the old inode; the directory sees every way a file changes. A burst
 * of events (a write, its close, a rename) becomes one callback once the
 * directory has been quiet for FILE_WATCH_SETTLE_MS.
 *
 * Ownership: file_watch_new()'s caller owns the watcher and frees it with
 * file_watch_free(); paths are copied. */
#ifndef WPAD_CORE_FILE_WATCH_H
#define WPAD_CORE_FILE_WATCH_H

#include <stddef.h>

struct loop;
struct file_watch;

#define FILE_WATCH_SETTLE_MS 200
#define FILE_WATCH_MAX 32 /* files per watcher */

typedef void (*file_watch_fn)(void *ctx);

/* NULL with errno set when inotify is not available. */
struct file_watch *file_watch_new(struct loop *loop);
void file_watch_free(struct file_watch *fw);

/* fn(ctx) runs after path was written and closed, created, renamed into
 * place or deleted. Once per burst, and once per (fn, ctx) however many
 * of its files changed. Returns 0, -EINVAL (no absolute path), -ENOSPC
 * (FILE_WATCH_MAX reached), or the errno of inotify_add_watch (the
 * directory does not exist, ...). */
int file_watch_add(struct file_watch *fw, const char *path, file_watch_fn fn, void *ctx);

/* Forgets every file watched for ctx; safe from inside a callback. */
void file_watch_remove_ctx(struct file_watch *fw, void *ctx);

/* How many files are watched (for tests). */
size_t file_watch_count(const struct file_watch *fw);

#endif
