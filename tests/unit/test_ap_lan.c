#define _GNU_SOURCE
/* The access point on a LAN (issue 17, items 1, 5, 6), on the simulated
 * radio and the virtual clock:
 *   - several BSSs on one radio: two [AccessPoint] sections of one
 *     wpad.conf on one sim radio, each with its own SSID, security and
 *     address, serve one wpad station each; a third is refused when the
 *     radio's combinations (sim ap_ifaces=2) allow two;
 *   - MAC access lists changed at run time (ap_acl_*): a station the deny
 *     list gains is deauthenticated (reason 1) and refused with status 12,
 *     an allow list refuses everyone else, a reload re-reads the files and
 *     a bad file changes nothing;
 *   - Bridge=: the profile keys, the rtnetlink messages (built, and a
 *     malformed-reply table), and the catalogue errors of a missing bridge
 *     and of a name that is no bridge (lookups only: no privilege needed).
 */
#include "tests/unit/test_ap_fixture.h"

#include "daemon/ap/ap_internal.h"
#include "daemon/bridge.h"
#include "daemon/bridge_msg.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/config/ap_profile.h"
#include "daemon/config/wpad_conf.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "daemon/wpad.h"

#include <check.h>
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- several BSSs on one radio (the daemon composition) ---- */

#define LAN_CONF_FMT                                                                               \
	"[General]\nStateDirectory=%s\n"                                                           \
	"[Radio r0]\nDriver=sim\nOptions=medium=shared,radios=1,ap_ifaces=2\n"                     \
	"[Radio r1]\nDriver=sim\nOptions=medium=shared,radios=1,addr=02:b1:00:00:00:00\n"          \
	"[Radio r2]\nDriver=sim\nOptions=medium=shared,radios=1,addr=02:b2:00:00:00:00\n"          \
	"[AccessPoint lan-a]\nRadio=r0\nSSID=lan-a\nSecurity=open\nChannel=6\n"                    \
	"[AccessPoint lan-b]\nRadio=r0\nSSID=lan-b\nPassphrase=correct horse battery\n"           \
	"Channel=6\nMaxStations=4\n"                                                               \
	"%s"                                                                                       \
	"[Station s1]\nRadio=r1\nAutoConnect=false\n"                                              \
	"[Station s2]\nRadio=r2\nAutoConnect=false\n"

struct lan {
	struct loop *loop;
	struct wpad_conf *conf;
	struct wpad *w;
	char dir[64];
};

static int lan_open(struct lan *l, const char *extra, struct wpad_error *err)
{
	char text[2048];
	struct cfg_error ce;
	memset(l, 0, sizeof(*l));
	snprintf(l->dir, sizeof(l->dir), "/tmp/wpad-ap-lan-%d-XXXXXX", (int)getpid());
	ck_assert_ptr_nonnull(mkdtemp(l->dir));
	int n = snprintf(text, sizeof(text), LAN_CONF_FMT, l->dir, extra);
	ck_assert_int_lt(n, (int)sizeof(text));
	ck_assert_int_eq(wpad_conf_load_buffer(text, (size_t)n, "lan.conf", l->dir, &l->conf, &ce),
			 0);
	l->loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	l->w = wpad_new(l->loop, l->conf, NULL, err);
	return l->w ? 0 : -1;
}

static void lan_close(struct lan *l)
{
	wpad_free(l->w);
	wpad_conf_free(l->conf);
	loop_free(l->loop);
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", l->dir);
	ck_assert_int_eq(system(cmd), 0);
}

static bool lan_wait_connected(struct lan *l, struct station *st, int ms)
{
	uint64_t end = loop_now_us(l->loop) + (uint64_t)ms * 1000u;
	while (station_state(st) != STATION_CONNECTED) {
		if (loop_now_us(l->loop) >= end)
			return false;
		loop_iterate(l->loop, 5);
	}
	return true;
}

static void lan_run(struct lan *l, int ms)
{
	uint64_t end = loop_now_us(l->loop) + (uint64_t)ms * 1000u;
	while (loop_now_us(l->loop) < end)
		loop_iterate(l->loop, 5);
}

static void iface_addr(struct wpad_device *dev, uint8_t out[6])
{
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(wpad_radio_driver(dev->radio), dev->ifindex, &info), 0);
	memcpy(out, info.addr, 6);
}

START_TEST(two_bss_on_one_radio_serve_two_stations)
{
	struct lan l;
	struct wpad_error err;
	ck_assert_msg(lan_open(&l, "", &err) == 0, "wpad_new: %s", err.text);
	struct wpad_device *a = wpad_device_find(l.w, "lan-a"), *b = wpad_device_find(l.w, "lan-b");
	struct wpad_device *s1 = wpad_device_find(l.w, "s1"), *s2 = wpad_device_find(l.w, "s2");
	ck_assert(a && b && s1 && s2);
	ck_assert_ptr_eq(a->radio, b->radio); /* one radio, two BSSs */
	ck_assert_int_eq(ap_get_state(a->ap), AP_STATE_STARTED);
	ck_assert_int_eq(ap_get_state(b->ap), AP_STATE_STARTED);
	uint8_t addr_a[6], addr_b[6];
	iface_addr(a, addr_a);
	iface_addr(b, addr_b);
	ck_assert_msg(memcmp(addr_a, addr_b, 6) != 0, "the two BSSs share a BSSID");
	ck_assert_msg(!(addr_b[0] & 0x01) && (addr_b[0] & 0x02),
		      "the second BSSID is not a locally administered unicast address");

	ck_assert_int_eq(station_connect(s1->station, (const uint8_t *)"lan-a", 5, NULL, false), 0);
	ck_assert_int_eq(station_connect(s2->station, (const uint8_t *)"lan-b", 5,
					 "correct horse battery", false),
			 0);
	ck_assert_msg(lan_wait_connected(&l, s1->station, 20000), "s1 did not join lan-a");
	ck_assert_msg(lan_wait_connected(&l, s2->station, 20000), "s2 did not join lan-b");
	uint8_t bssid[6];
	ck_assert(station_bssid(s1->station, bssid));
	ck_assert(memcmp(bssid, addr_a, 6) == 0);
	ck_assert(station_bssid(s2->station, bssid));
	ck_assert(memcmp(bssid, addr_b, 6) == 0);
	lan_run(&l, 500);
	ck_assert_uint_eq(ap_associated_count(a->ap), 1);
	ck_assert_uint_eq(ap_associated_count(b->ap), 1);
	/* Each BSS knows only its own station, and its own security. */
	uint8_t s1_addr[6], s2_addr[6];
	iface_addr(s1, s1_addr);
	iface_addr(s2, s2_addr);
	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(a->ap, s1_addr, &info), 0);
	ck_assert_uint_eq(info.akm, 0); /* open */
	ck_assert_int_eq(ap_get_station(a->ap, s2_addr, &info), -ENOENT);
	ck_assert_int_eq(ap_get_station(b->ap, s2_addr, &info), 0);
	ck_assert_int_eq(info.state, AP_STA_AUTHORIZED);
	ck_assert_uint_ne(info.akm, 0); /* WPA2-PSK */
	ck_assert_int_eq(ap_get_station(b->ap, s1_addr, &info), -ENOENT);
	/* Stopping one BSS leaves the other serving (s1 stays out: it
	 * learnt lan-b's passphrase from the shared known networks). */
	station_set_autoconnect(s1->station, false);
	ck_assert_int_eq(ap_stop(a->ap), 0);
	lan_run(&l, 1000);
	ck_assert_int_eq(ap_get_state(a->ap), AP_STATE_STOPPED);
	ck_assert_int_eq(station_state(s2->station), STATION_CONNECTED);
	ck_assert_int_eq(ap_get_station(b->ap, s2_addr, &info), 0);
	ck_assert_int_eq(info.state, AP_STA_AUTHORIZED);
	ck_assert_int_eq(ap_get_station(b->ap, s1_addr, &info), -ENOENT);
	lan_close(&l);
}
END_TEST

START_TEST(third_bss_beyond_the_combinations_refused)
{
	struct lan l;
	struct wpad_error err;
	wpad_error_clear(&err);
	ck_assert_int_eq(lan_open(&l, "[AccessPoint lan-c]\nRadio=r0\nSSID=lan-c\nSecurity=open\n",
				  &err),
			 -1);
	ck_assert_int_eq(err.code, WPAD_ERR_NOT_SUPPORTED);
	ck_assert_msg(strstr(err.text, "lan-c") && strstr(err.text, "allows 2 access points"),
		      "unclear refusal: %s", err.text);
	lan_close(&l);
}
END_TEST

/* SIGHUP's work: every started AP re-reads its files; a bad file is the
 * device's last_error and changes nothing. */
START_TEST(reload_every_access_point)
{
	char dir[64], path[96], text[512];
	struct cfg_error ce;
	struct wpad_error err;
	struct wpad_conf *conf;
	snprintf(dir, sizeof(dir), "/tmp/wpad-ap-lan-hup-%d-XXXXXX", (int)getpid());
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/deny", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("# empty\n", f);
	fclose(f);
	int n = snprintf(text, sizeof(text),
			 "[General]\nStateDirectory=%s\n[Radio r0]\nDriver=sim\n"
			 "Options=medium=inproc,radios=1\n[AccessPoint a]\nRadio=r0\nSSID=a\n"
			 "Security=open\nMacDenyFile=%s\n[AccessPoint b]\nRadio=r0\nSSID=b\n"
			 "Security=open\n",
			 dir, path);
	ck_assert_int_eq(wpad_conf_load_buffer(text, (size_t)n, "hup.conf", dir, &conf, &ce), 0);
	struct loop *loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	struct wpad *w = wpad_new(loop, conf, NULL, &err);
	ck_assert_msg(w != NULL, "wpad_new: %s", err.text);
	struct wpad_device *a = wpad_device_find(w, "a");
	uint8_t got[2][6];
	ck_assert_uint_eq(ap_acl_get(a->ap, AP_ACL_DENY, got, 2, NULL), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("02:00:00:00:00:42\n", f);
	fclose(f);
	ck_assert_int_eq(wpad_reload_access_lists(w), 0);
	ck_assert_uint_eq(ap_acl_get(a->ap, AP_ACL_DENY, got, 2, NULL), 1);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("garbage\n", f);
	fclose(f);
	ck_assert_int_eq(wpad_reload_access_lists(w), 1); /* a's file is bad; b has none */
	ck_assert_int_eq(a->last_error.code, WPAD_ERR_INVALID_FORMAT);
	ck_assert_uint_eq(ap_acl_get(a->ap, AP_ACL_DENY, got, 2, NULL), 1); /* kept */
	wpad_free(w);
	wpad_conf_free(conf);
	loop_free(loop);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* The list files are watched: a change (here a rename over the file, as
 * tools write) is reloaded without SIGHUP, a denied station leaves; a bad
 * file is last_error and changes nothing. */
START_TEST(acl_file_change_reloads_itself)
{
	char dir[64], path[96], tmp[104], text[512];
	struct cfg_error ce;
	struct wpad_error err;
	struct wpad_conf *conf;
	snprintf(dir, sizeof(dir), "/tmp/wpad-ap-lan-watch-%d-XXXXXX", (int)getpid());
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/deny", dir);
	snprintf(tmp, sizeof(tmp), "%s/deny.new", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	int n = snprintf(text, sizeof(text),
			 "[General]\nStateDirectory=%s\n[Radio r0]\nDriver=sim\n"
			 "Options=medium=shared,radios=1\n[Radio r1]\nDriver=sim\n"
			 "Options=medium=shared,radios=1,addr=02:d1:00:00:00:00\n"
			 "[AccessPoint a]\nRadio=r0\nSSID=a\nSecurity=open\nMacDenyFile=%s\n"
			 "[Station s]\nRadio=r1\nAutoConnect=false\n",
			 dir, path);
	ck_assert_int_eq(wpad_conf_load_buffer(text, (size_t)n, "watch.conf", dir, &conf, &ce), 0);
	struct lan l = { .loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL), .conf = conf };
	l.w = wpad_new(l.loop, conf, NULL, &err);
	ck_assert_msg(l.w != NULL, "wpad_new: %s", err.text);
	struct wpad_device *a = wpad_device_find(l.w, "a"), *s = wpad_device_find(l.w, "s");
	ck_assert_int_eq(station_connect(s->station, (const uint8_t *)"a", 1, NULL, false), 0);
	ck_assert(lan_wait_connected(&l, s->station, 20000));
	uint8_t s_addr[6], got[2][6];
	iface_addr(s, s_addr);
	station_set_autoconnect(s->station, false);

	f = fopen(tmp, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%02x:%02x:%02x:%02x:%02x:%02x\n", s_addr[0], s_addr[1], s_addr[2], s_addr[3],
		s_addr[4], s_addr[5]);
	fclose(f);
	ck_assert_int_eq(rename(tmp, path), 0);
	lan_run(&l, 1000);
	ck_assert_uint_eq(ap_acl_get(a->ap, AP_ACL_DENY, got, 2, NULL), 1);
	ck_assert(memcmp(got[0], s_addr, 6) == 0);
	ck_assert_uint_eq(ap_associated_count(a->ap), 0);
	ck_assert_int_ne(station_state(s->station), STATION_CONNECTED);

	f = fopen(path, "w"); /* written in place, badly */
	ck_assert_ptr_nonnull(f);
	fputs("garbage\n", f);
	fclose(f);
	lan_run(&l, 1000);
	ck_assert_int_eq(a->last_error.code, WPAD_ERR_INVALID_FORMAT);
	ck_assert_uint_eq(ap_acl_get(a->ap, AP_ACL_DENY, got, 2, NULL), 1); /* kept */
	wpad_free(l.w);
	wpad_conf_free(conf);
	loop_free(l.loop);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* ---- MAC access lists at run time (the AP fixture) ---- */

static bool sta_gone(void *arg)
{
	return apt_ap_sta_state(arg) == AP_STA_NONE;
}

/* The AP let s go and s heard the deauthentication, with reason 1. */
static void put_out(struct apt_sta *s)
{
	ck_assert(apt_wait_for(sta_gone, s->addr, 1000));
	struct apt_event *e = apt_wait(DRIVER_EV_DEAUTH, s->ifindex, 1000);
	ck_assert_msg(e != NULL, "no deauthentication heard");
	ck_assert_uint_eq(apt_reason(e), WLAN_REASON_UNSPECIFIED);
}

START_TEST(acl_changes_at_run_time)
{
	struct ap_profile p;
	apt_profile(&p, false);
	struct apt_sta *a = apt_sta_add(), *b = apt_sta_add();
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	unsigned gen = ap_acl_generation(APT->ap);

	/* Denied while associated: out at once, reason 1; back: status 12. */
	ck_assert_int_eq(ap_acl_add(APT->ap, AP_ACL_DENY, a->addr), 0);
	ck_assert_uint_gt(ap_acl_generation(APT->ap), gen);
	ck_assert_int_eq(ap_acl_add(APT->ap, AP_ACL_DENY, a->addr), -EALREADY);
	put_out(a);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_ASSOC_DENIED_UNSPEC);
	ck_assert_int_eq(apt_ap_sta_state(b->addr), AP_STA_AUTHORIZED); /* untouched */
	uint8_t got[4][6];
	bool has;
	ck_assert_uint_eq(ap_acl_get(APT->ap, AP_ACL_DENY, got, 4, &has), 1);
	ck_assert(has && memcmp(got[0], a->addr, 6) == 0);

	/* Forgiven: in again. */
	ck_assert_int_eq(ap_acl_remove(APT->ap, AP_ACL_DENY, a->addr), 0);
	ck_assert_int_eq(ap_acl_remove(APT->ap, AP_ACL_DENY, a->addr), -ENOENT);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);

	/* An allow list of one: everyone else leaves and is refused. */
	ck_assert_int_eq(ap_acl_add(APT->ap, AP_ACL_ALLOW, a->addr), 0);
	put_out(b);
	ck_assert_int_eq(apt_ap_sta_state(a->addr), AP_STA_AUTHORIZED);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_ASSOC_DENIED_UNSPEC);
	/* Emptied with no file behind it: no allow list any more. */
	ck_assert_int_eq(ap_acl_remove(APT->ap, AP_ACL_ALLOW, a->addr), 0);
	ck_assert_uint_eq(ap_acl_get(APT->ap, AP_ACL_ALLOW, got, 4, &has), 0);
	ck_assert(!has);
	ck_assert_int_eq(apt_connect(b, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);

	/* Refusals: a group address; a stopped AP. */
	static const uint8_t group[6] = { 0x01, 0, 0x5e, 0, 0, 1 };
	ck_assert_int_eq(ap_acl_add(APT->ap, AP_ACL_DENY, group), -EINVAL);
	ck_assert_int_eq(ap_stop(APT->ap), 0);
	apt_run(300);
	ck_assert_int_eq(ap_acl_add(APT->ap, AP_ACL_DENY, a->addr), -ENOTCONN);
	ap_profile_clear(&p);
}
END_TEST

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void mac_text(const uint8_t a[6], char out[32])
{
	snprintf(out, 32, "%02x:%02x:%02x:%02x:%02x:%02x\n", a[0], a[1], a[2], a[3], a[4], a[5]);
}

START_TEST(acl_reload_from_the_file)
{
	char path[64], line[32];
	struct wpad_error err;
	snprintf(path, sizeof(path), "/tmp/wpad-ap-lan-deny-%d", (int)getpid());
	write_file(path, "# nobody yet\n");
	struct ap_profile p;
	apt_profile(&p, false);
	p.mac_deny_file = strdup(path);
	struct apt_sta *a = apt_sta_add();
	apt_start(&p);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);

	/* The file gains the station: a reload puts it out. */
	mac_text(a->addr, line);
	write_file(path, line);
	ck_assert_int_eq(ap_acl_reload(APT->ap, &err), 0);
	put_out(a);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_ASSOC_DENIED_UNSPEC);

	/* A malformed file: refused, the lists as they were. */
	write_file(path, "not a mac\n");
	ck_assert_int_eq(ap_acl_reload(APT->ap, &err), -EINVAL);
	ck_assert_int_eq(err.code, WPAD_ERR_INVALID_FORMAT);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_ASSOC_DENIED_UNSPEC);
	/* A missing file: NotFound, nothing changes either. */
	unlink(path);
	ck_assert_int_eq(ap_acl_reload(APT->ap, &err), -EINVAL);
	ck_assert_int_eq(err.code, WPAD_ERR_NOT_FOUND);
	/* Emptied: the station is welcome again. */
	write_file(path, "\n");
	ck_assert_int_eq(ap_acl_reload(APT->ap, &err), 0);
	ck_assert_int_eq(apt_connect(a, NULL, 0, true, NULL), WLAN_STATUS_SUCCESS);
	unlink(path);
	ap_profile_clear(&p);
}
END_TEST

/* ---- Bridge= ---- */

START_TEST(bridge_profile_keys)
{
	struct ap_profile p;
	struct cfg_error ce;
	ap_profile_init(&p);
	ck_assert_int_eq(ap_profile_set(&p, "Bridge", "br-lan0", NULL, &ce), 0);
	ck_assert_str_eq(p.bridge, "br-lan0");
	ck_assert_int_eq(ap_profile_set(&p, "BridgeCreate", "true", NULL, &ce), 0);
	ck_assert(p.bridge_create);
	static const char *const bad[] = { "", "0123456789abcdef", "br/0", "br:0", "br 0", "..",
					   "." };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(ap_profile_set(&p, "Bridge", bad[i], NULL, &ce) == AP_E_BRIDGE,
			      "Bridge='%s' accepted", bad[i]);
	ck_assert_str_eq(p.bridge, "br-lan0"); /* unchanged by the refusals */
	ck_assert_int_eq(ap_err_to_wpad(AP_E_BRIDGE), WPAD_ERR_INVALID_ARGUMENTS);
	ap_profile_clear(&p);
	/* BridgeCreate without a Bridge is refused at validation. */
	ap_profile_init(&p);
	ck_assert_int_eq(ap_profile_set(&p, "SSID", "x", NULL, &ce), 0);
	ck_assert_int_eq(ap_profile_set(&p, "Security", "open", NULL, &ce), 0);
	ck_assert_int_eq(ap_profile_set(&p, "BridgeCreate", "true", NULL, &ce), 0);
	ck_assert_int_eq(ap_profile_validate(&p, "t.conf", 1, &ce), AP_E_BRIDGE);
	ck_assert(strstr(ce.msg, "Bridge=") != NULL);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(bridge_messages_built)
{
	uint8_t buf[256];
	size_t n = bridge_msg_getlink(buf, sizeof(buf), "br0", 0);
	ck_assert_uint_gt(n, NLMSG_HDRLEN);
	struct nlmsghdr h;
	memcpy(&h, buf, sizeof(h));
	ck_assert_uint_eq(h.nlmsg_len, n);
	ck_assert_uint_eq(h.nlmsg_type, RTM_GETLINK);
	ck_assert_uint_eq(bridge_msg_getlink(buf, sizeof(buf), "0123456789abcdef", 0), 0);
	ck_assert_uint_eq(bridge_msg_getlink(buf, sizeof(buf), NULL, 0), 0);
	ck_assert_uint_eq(bridge_msg_getlink(buf, 20, "br0", 0), 0); /* does not fit */
	n = bridge_msg_setmaster(buf, sizeof(buf), 7, 3);
	memcpy(&h, buf, sizeof(h));
	ck_assert_uint_eq(h.nlmsg_type, RTM_NEWLINK);
	ck_assert(h.nlmsg_flags & NLM_F_ACK);
	ck_assert_uint_eq(bridge_msg_setmaster(buf, sizeof(buf), 0, 3), 0);
	n = bridge_msg_newbridge(buf, sizeof(buf), "br-new");
	memcpy(&h, buf, sizeof(h));
	ck_assert(h.nlmsg_flags & NLM_F_CREATE && h.nlmsg_flags & NLM_F_EXCL);
	ck_assert(memmem(buf, n, "bridge", 7) != NULL); /* IFLA_INFO_KIND */
	ck_assert_uint_gt(bridge_msg_setup(buf, sizeof(buf), 4), 0);
	ck_assert_uint_gt(bridge_msg_dellink(buf, sizeof(buf), 4), 0);
	ck_assert_uint_eq(bridge_msg_dellink(buf, sizeof(buf), 0), 0);
}
END_TEST

/* A reply: header, ifinfomsg, then attrs (already encoded). */
static size_t link_reply(uint8_t *out, int ifindex, const uint8_t *attrs, size_t attrs_len)
{
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWLINK };
	struct ifinfomsg ifi = { .ifi_index = ifindex };
	size_t n = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifi)) + attrs_len;
	h.nlmsg_len = (uint32_t)n;
	memset(out, 0, n);
	memcpy(out, &h, sizeof(h));
	memcpy(out + NLMSG_HDRLEN, &ifi, sizeof(ifi));
	memcpy(out + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifi)), attrs, attrs_len);
	return n;
}

START_TEST(bridge_replies_parsed)
{
	uint8_t buf[256];
	struct bridge_link l;
	/* IFLA_MASTER = 9, IFLA_LINKINFO { IFLA_INFO_KIND "bridge" } */
	static const uint8_t bridged[] = { 8, 0, IFLA_MASTER, 0, 9, 0, 0, 0,
					   16, 0, IFLA_LINKINFO, 0,
					   11, 0, IFLA_INFO_KIND, 0, 'b', 'r', 'i', 'd', 'g', 'e', 0, 0 };
	size_t n = link_reply(buf, 5, bridged, sizeof(bridged));
	ck_assert_int_eq(bridge_msg_parse_reply(buf, n, &l), 0);
	ck_assert(l.found && l.ifindex == 5 && l.master == 9 && l.is_bridge);
	/* A veth is no bridge; "bridgeX" neither. */
	static const uint8_t veth[] = { 12, 0, IFLA_LINKINFO, 0,
					8, 0, IFLA_INFO_KIND, 0, 'v', 'e', 't', 'h' };
	n = link_reply(buf, 6, veth, sizeof(veth));
	ck_assert_int_eq(bridge_msg_parse_reply(buf, n, &l), 0);
	ck_assert(!l.is_bridge && l.master == 0);
	static const uint8_t bridgex[] = { 16, 0, IFLA_LINKINFO, 0,
					   12, 0, IFLA_INFO_KIND, 0, 'b', 'r', 'i', 'd', 'g', 'e', 'X', 0 };
	n = link_reply(buf, 6, bridgex, sizeof(bridgex));
	ck_assert_int_eq(bridge_msg_parse_reply(buf, n, &l), 0);
	ck_assert(!l.is_bridge);
	/* An error and an ACK. */
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
	} err = { .h = { .nlmsg_len = sizeof(err), .nlmsg_type = NLMSG_ERROR },
		  .e = { .error = -ENODEV } };
	ck_assert_int_eq(bridge_msg_parse_reply((const uint8_t *)&err, sizeof(err), &l), -ENODEV);
	err.e.error = 0;
	ck_assert_int_eq(bridge_msg_parse_reply((const uint8_t *)&err, sizeof(err), NULL), 0);
	err.e.error = 5; /* positive: nonsense */
	ck_assert_int_eq(bridge_msg_parse_reply((const uint8_t *)&err, sizeof(err), &l), -EBADMSG);

	/* Malformed: every one is -EBADMSG, none reads past the datagram. */
	static const uint8_t short_master[] = { 6, 0, IFLA_MASTER, 0, 9, 0, 0, 0 };
	static const uint8_t attr_too_long[] = { 40, 0, IFLA_MASTER, 0, 9, 0, 0, 0 };
	static const uint8_t attr_too_short[] = { 2, 0, IFLA_MASTER, 0, 9, 0, 0, 0 };
	struct {
		const uint8_t *attrs;
		size_t len;
		const char *what;
	} bad[] = {
		{ short_master, sizeof(short_master), "IFLA_MASTER of 2 octets" },
		{ attr_too_long, sizeof(attr_too_long), "attribute longer than the message" },
		{ attr_too_short, sizeof(attr_too_short), "attribute shorter than its header" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = link_reply(buf, 1, bad[i].attrs, bad[i].len);
		ck_assert_msg(bridge_msg_parse_reply(buf, n, &l) == -EBADMSG, "%s accepted",
			      bad[i].what);
	}
	n = link_reply(buf, 1, bridged, sizeof(bridged));
	ck_assert_int_eq(bridge_msg_parse_reply(buf, 10, &l), -EBADMSG);      /* cut header */
	ck_assert_int_eq(bridge_msg_parse_reply(buf, n - 1, &l), -EBADMSG);   /* nlmsg_len > len */
	struct nlmsghdr h = { .nlmsg_len = NLMSG_HDRLEN + 4, .nlmsg_type = RTM_NEWLINK };
	memcpy(buf, &h, sizeof(h));
	ck_assert_int_eq(bridge_msg_parse_reply(buf, h.nlmsg_len, &l), -EBADMSG); /* no ifinfo */
	h.nlmsg_type = RTM_NEWADDR;
	memcpy(buf, &h, sizeof(h));
	ck_assert_int_eq(bridge_msg_parse_reply(buf, h.nlmsg_len, &l), -EBADMSG); /* other type */
	err.h.nlmsg_len = NLMSG_HDRLEN + 2;
	ck_assert_int_eq(bridge_msg_parse_reply((const uint8_t *)&err, err.h.nlmsg_len, &l),
			 -EBADMSG); /* cut error */
}
END_TEST

/* Against this machine's own rtnetlink: read-only lookups. */
START_TEST(bridge_join_errors)
{
	struct bridge_port bp;
	struct wpad_error err;
	uint32_t idx = 0;
	bool is_bridge = true;
	ck_assert_int_eq(bridge_lookup("lo", &idx, &is_bridge), 0);
	ck_assert_uint_gt(idx, 0);
	ck_assert(!is_bridge);
	ck_assert_int_eq(bridge_lookup("wpadnobr9", &idx, NULL), -ENODEV);

	ck_assert_int_lt(bridge_port_join(&bp, "wpadnobr9", false, "lo", &err), 0);
	ck_assert_int_eq(err.code, WPAD_ERR_BRIDGE_NOT_FOUND);
	ck_assert_msg(strstr(err.text, "wpadnobr9") && strstr(err.text, "BridgeCreate"), "%s",
		      err.text);
	ck_assert(!bp.joined && !bp.created);
	ck_assert_int_lt(bridge_port_join(&bp, "lo", false, "lo", &err), 0);
	ck_assert_int_eq(err.code, WPAD_ERR_NOT_BRIDGEABLE);
	ck_assert_msg(strstr(err.text, "lo is not a bridge"), "%s", err.text);
	bridge_port_leave(&bp); /* harmless when not joined */
}
END_TEST

Suite *make_ap_lan_suite(void)
{
	Suite *s = suite_create("ap_lan");
	TCase *tc = tcase_create("wpad");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, two_bss_on_one_radio_serve_two_stations);
	tcase_add_test(tc, third_bss_beyond_the_combinations_refused);
	tcase_add_test(tc, reload_every_access_point);
	tcase_add_test(tc, acl_file_change_reloads_itself);
	suite_add_tcase(s, tc);
	tc = tcase_create("acl");
	tcase_add_checked_fixture(tc, apt_setup, apt_teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, acl_changes_at_run_time);
	tcase_add_test(tc, acl_reload_from_the_file);
	suite_add_tcase(s, tc);
	tc = tcase_create("bridge");
	tcase_add_test(tc, bridge_profile_keys);
	tcase_add_test(tc, bridge_messages_built);
	tcase_add_test(tc, bridge_replies_parsed);
	tcase_add_test(tc, bridge_join_errors);
	suite_add_tcase(s, tc);
	return s;
}
