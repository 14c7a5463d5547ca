/* MAC access control of a running BSS: changes from D-Bus, reloads of the
 * list files, and the stations a change refuses. See ap.h. */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/config/macfile.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <string.h>

static struct mac_set **list_of(struct ap *ap, enum ap_acl_list list)
{
	return list == AP_ACL_ALLOW ? &ap->conf.allow : &ap->conf.deny;
}

/* Stations the lists now refuse leave at once, as hostapd does when its
 * deny list grows. */
static void enforce(struct ap *ap)
{
	char a[AP_ADDR_STR_LEN];
	struct ap_sta *sta = sta_table_first(&ap->stas);
	while (sta) {
		struct ap_sta *next = sta_table_next(sta);
		if (!sta->removed && !ap_conf_acl_allows(&ap->conf, sta->addr)) {
			log_info("%s: refused by the access lists now: deauthenticating",
				 ap_addr_str(sta->addr, a));
			ap_sta_remove(sta, WLAN_REASON_UNSPECIFIED, true);
		}
		sta = next;
	}
}

int ap_acl_add(struct ap *ap, enum ap_acl_list list, const uint8_t addr[6])
{
	char a[AP_ADDR_STR_LEN];
	if (ap->state != AP_STATE_STARTED)
		return -ENOTCONN;
	if (addr[0] & 0x01)
		return -EINVAL; /* a group address is never a station */
	struct mac_set **set = list_of(ap, list);
	if (mac_set_contains(*set, addr))
		return -EALREADY;
	if (!*set && !(*set = mac_set_new()))
		return -ENOMEM;
	int r = mac_set_add(*set, addr);
	if (r < 0)
		return r == CFG_E_TOO_MANY ? -ENOSPC : -ENOMEM;
	ap->acl_gen++;
	log_info("%s added to the %s list", ap_addr_str(addr, a),
		 list == AP_ACL_ALLOW ? "allow" : "deny");
	enforce(ap);
	return 0;
}

int ap_acl_remove(struct ap *ap, enum ap_acl_list list, const uint8_t addr[6])
{
	char a[AP_ADDR_STR_LEN];
	if (ap->state != AP_STATE_STARTED)
		return -ENOTCONN;
	struct mac_set **set = list_of(ap, list);
	if (!mac_set_remove(*set, addr))
		return -ENOENT;
	const char *path = list == AP_ACL_ALLOW ? ap->conf.allow_path : ap->conf.deny_path;
	/* An allow list emptied over D-Bus with no file behind it is no
	 * list; one from a file stays in force, empty (nobody may join). */
	if (mac_set_count(*set) == 0 && !path) {
		mac_set_free(*set);
		*set = NULL;
	}
	ap->acl_gen++;
	log_info("%s removed from the %s list", ap_addr_str(addr, a),
		 list == AP_ACL_ALLOW ? "allow" : "deny");
	return 0;
}

static int load(const char *path, struct mac_set **out, struct wpad_error *err)
{
	struct cfg_error ce = { 0 };
	*out = NULL;
	if (!path)
		return 0;
	if (macfile_load(path, out, &ce) < 0) {
		wpad_error_set(err, ce.code == CFG_E_IO ? WPAD_ERR_NOT_FOUND : WPAD_ERR_INVALID_FORMAT,
			       EINVAL, -1, -1, "%s", ce.msg[0] ? ce.msg : "a MAC list cannot be read");
		log_warn("access lists not reloaded: %s", err->text);
		return -EINVAL;
	}
	return 0;
}

int ap_acl_reload(struct ap *ap, struct wpad_error *err)
{
	struct mac_set *allow, *deny;
	if (ap->state != AP_STATE_STARTED) {
		wpad_error_set(err, WPAD_ERR_NOT_CONNECTED, ENOTCONN, -1, -1,
			       "the access point is not started");
		return -ENOTCONN;
	}
	if (load(ap->conf.allow_path, &allow, err) < 0)
		return -EINVAL;
	if (load(ap->conf.deny_path, &deny, err) < 0) {
		mac_set_free(allow);
		return -EINVAL;
	}
	/* Only the lists that come from a file are replaced. */
	if (ap->conf.allow_path) {
		mac_set_free(ap->conf.allow);
		ap->conf.allow = allow;
	}
	if (ap->conf.deny_path) {
		mac_set_free(ap->conf.deny);
		ap->conf.deny = deny;
	}
	ap->acl_gen++;
	log_info("access lists reloaded: %zu allowed, %zu denied", mac_set_count(ap->conf.allow),
		 mac_set_count(ap->conf.deny));
	enforce(ap);
	return 0;
}

size_t ap_acl_get(const struct ap *ap, enum ap_acl_list list, uint8_t (*out)[6], size_t max,
		  bool *has_list)
{
	const struct mac_set *set = list == AP_ACL_ALLOW ? ap->conf.allow : ap->conf.deny;
	size_t n = mac_set_count(set);
	if (has_list)
		*has_list = set != NULL;
	for (size_t i = 0; i < n && i < max; i++)
		memcpy(out[i], mac_set_at(set, i), 6);
	return n;
}

const char *ap_acl_file(const struct ap *ap, enum ap_acl_list list)
{
	return list == AP_ACL_ALLOW ? ap->conf.allow_path : ap->conf.deny_path;
}

unsigned ap_acl_generation(const struct ap *ap)
{
	return ap->acl_gen;
}
