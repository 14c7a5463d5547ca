#include "daemon/config/path.h"

#include <stdlib.h>
#include <string.h>

char *cfg_path_resolve(const char *base_dir, const char *path)
{
	if (path[0] == '/')
		return strdup(path);
	if (!base_dir)
		return NULL;
	size_t lb = strlen(base_dir), lp = strlen(path);
	char *out = malloc(lb + 1 + lp + 1);
	if (!out)
		return NULL;
	memcpy(out, base_dir, lb);
	out[lb] = '/';
	memcpy(out + lb + 1, path, lp + 1);
	return out;
}

char *cfg_path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}
