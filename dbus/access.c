/* The caller check; see access.h. */
#define LOG_TAG "dbus"
#include "dbus/access.h"

#include "daemon/core/log.h"
#include "dbus/bus.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CACHE_SIZE 32
#define NAME_MAX_LEN 256
#define MAX_GROUPS 256

struct entry {
	char name[NAME_MAX_LEN];
	unsigned long uid;
	bool allowed;
	unsigned long stamp;
};

static struct {
	struct entry e[CACHE_SIZE];
	unsigned long clock;
} cache;

static void name_gone(const char *name)
{
	for (size_t i = 0; i < CACHE_SIZE; i++)
		if (strcmp(cache.e[i].name, name) == 0)
			cache.e[i].name[0] = '\0';
}

void wdb_access_init(void)
{
	wdb_bus_on_name_gone(name_gone);
}

void wdb_access_clear(void)
{
	memset(&cache, 0, sizeof(cache));
}

static bool in_group(unsigned long uid, const char *group)
{
	char buf[4096];
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;
	char gbuf[4096];
	gid_t groups[MAX_GROUPS];
	int n = MAX_GROUPS;
	if (getgrnam_r(group, &gr, gbuf, sizeof(gbuf), &grp) != 0 || !grp)
		return false;
	if (getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &pwp) != 0 || !pwp)
		return false;
	if (pw.pw_gid == gr.gr_gid)
		return true;
	if (getgrouplist(pw.pw_name, pw.pw_gid, groups, &n) < 0)
		n = MAX_GROUPS; /* more groups than we read: look at those we have */
	for (int i = 0; i < n; i++)
		if (groups[i] == gr.gr_gid)
			return true;
	return false;
}

static struct entry *lookup(const char *sender)
{
	struct entry *slot = &cache.e[0];
	for (size_t i = 0; i < CACHE_SIZE; i++) {
		if (strcmp(cache.e[i].name, sender) == 0)
			return &cache.e[i];
		if (cache.e[i].stamp < slot->stamp)
			slot = &cache.e[i];
	}
	DBusError e;
	dbus_error_init(&e);
	unsigned long uid = dbus_bus_get_unix_user(wdb_bus_connection(), sender, &e);
	if (dbus_error_is_set(&e)) {
		log_warn("cannot tell who %s is: %s", sender, e.message);
		dbus_error_free(&e);
		return NULL;
	}
	snprintf(slot->name, sizeof(slot->name), "%s", sender);
	slot->uid = uid;
	slot->allowed = uid == 0 || uid == (unsigned long)geteuid() ||
			in_group(uid, WDB_PRIVILEGED_GROUP);
	return slot;
}

bool wdb_access_check(DBusMessage *msg, struct wpad_error *err)
{
	const char *sender = dbus_message_get_sender(msg);
	struct entry *en = sender && wdb_bus_connection() && strlen(sender) < NAME_MAX_LEN
				   ? lookup(sender)
				   : NULL;
	if (en && (en->stamp = ++cache.clock, en->allowed))
		return true;
	if (en)
		wpad_error_set(err, WPAD_ERR_PERMISSION_DENIED, EACCES, -1, -1,
			       "%s.%s changes the configuration: uid %lu is neither root nor in "
			       "group %s",
			       dbus_message_get_interface(msg) ? dbus_message_get_interface(msg)
							       : "",
			       dbus_message_get_member(msg), en->uid, WDB_PRIVILEGED_GROUP);
	else
		wpad_error_set(err, WPAD_ERR_PERMISSION_DENIED, EACCES, -1, -1,
			       "cannot tell who is calling %s, so it may not configure",
			       dbus_message_get_member(msg));
	log_info("refused %s from %s: %s", dbus_message_get_member(msg), sender ? sender : "?",
		 err->text);
	return false;
}
