/* Shared by the two halves of the store; not for other modules. */
#ifndef WPAD_STORE_KNOWN_STORE_INTERNAL_H
#define WPAD_STORE_KNOWN_STORE_INTERNAL_H

#include <sys/types.h>

#include "daemon/store/known_store.h"

struct known_store {
	char *dir;
	int dirfd; /* O_DIRECTORY, for openat/renameat/fsync */
	struct known_network **nets; /* owned */
	size_t n;
	size_t cap;
	known_psk_fn psk_fn;
};

ssize_t store_index(const struct known_store *store, const uint8_t *ssid, size_t len,
		    enum known_security sec);
/* Makes room for one more network pointer. Returns 0 or -ENOMEM. */
int store_reserve(struct known_store *store);
/* known_network_clear() and free(). */
void store_release(struct known_network *net);
/* Writes net's file atomically, mode 0600, and marks its state saved.
 * Returns 0 or a negative errno. */
int store_write(struct known_store *store, struct known_network *net);
int store_remove_file(struct known_store *store, const struct known_network *net);

#endif
