/* Path helpers for files named inside configuration files. */
#ifndef WPAD_CONFIG_PATH_H
#define WPAD_CONFIG_PATH_H

/* path if absolute, else base_dir/path. Returns a new string the caller
 * frees, or NULL (relative path without base_dir, or no memory). */
char *cfg_path_resolve(const char *base_dir, const char *path);

/* The directory part of path ("." when it has none, "/" for "/x"). Returns
 * a new string the caller frees, or NULL on allocation failure. */
char *cfg_path_dir(const char *path);

#endif
