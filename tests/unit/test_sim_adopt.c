/* Taking over an interface that exists already (iface_adopt/iface_release)
 * on the sim backend, and the daemon's [Station] Interface= that uses it:
 * the interface is retyped, never deleted, and given back as found. */
#include "tests/unit/test_sim_fixture.h"
#include "daemon/config/wpad_conf.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/wpad.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The interface of the sim named name, or fails the test. */
static struct driver_iface_info iface_named(struct driver *drv, const char *name)
{
	struct driver_iface_info all[8];
	size_t n = 0;
	ck_assert_int_eq(driver_list_ifaces(drv, all, 8, &n), 0);
	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i].name, name) == 0)
			return all[i];
	ck_abort_msg("no interface named %s", name);
	return all[0];
}

static size_t iface_count(struct driver *drv)
{
	struct driver_iface_info all[8];
	size_t n = 0;
	ck_assert_int_eq(driver_list_ifaces(drv, all, 8, &n), 0);
	return n;
}

START_TEST(netdev_option_gives_each_radio_a_station_interface)
{
	simt_open("radios=2,netdev=station");
	ck_assert_uint_eq(iface_count(T->drv), 2);
	char name[DRIVER_IFNAME_MAX];
	for (size_t i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "%.11s-sta", T->radios[i].name);
		struct driver_iface_info info = iface_named(T->drv, name);
		ck_assert_uint_eq(info.radio_id, T->radios[i].id);
		ck_assert_int_eq(info.iftype, DRIVER_IFTYPE_STATION);
		ck_assert(!info.up);
	}
}
END_TEST

START_TEST(adopted_interface_is_retyped_kept_and_given_back)
{
	simt_open("radios=2,netdev=station");
	char name[DRIVER_IFNAME_MAX];
	snprintf(name, sizeof(name), "%.11s-sta", T->radios[0].name);
	struct driver_iface_info before = iface_named(T->drv, name);
	ck_assert_int_eq(driver_iface_set_up(T->drv, before.ifindex, true), 0);
	uint32_t ifindex = 0;
	ck_assert_int_eq(driver_iface_adopt(T->drv, T->radios[0].id, name, DRIVER_IFTYPE_AP,
					    &ifindex),
			 0);
	ck_assert_uint_eq(ifindex, before.ifindex);
	struct driver_iface_info now;
	ck_assert_int_eq(driver_iface_info(T->drv, ifindex, &now), 0);
	ck_assert_int_eq(now.iftype, DRIVER_IFTYPE_AP);
	/* Taken once only; never deleted while taken. */
	ck_assert_int_eq(driver_iface_adopt(T->drv, T->radios[0].id, name, DRIVER_IFTYPE_STATION,
					    NULL),
			 -EBUSY);
	ck_assert_int_eq(driver_iface_del(T->drv, ifindex), -EBUSY);
	ck_assert_int_eq(driver_iface_release(T->drv, ifindex), 0);
	now = iface_named(T->drv, name);
	ck_assert_uint_eq(now.ifindex, before.ifindex);
	ck_assert_int_eq(now.iftype, DRIVER_IFTYPE_STATION); /* the type it had */
	ck_assert(now.up);				     /* and up, as it was */
	ck_assert_uint_eq(iface_count(T->drv), 2);
	/* Released: not taken any more, so release again is refused. */
	ck_assert_int_eq(driver_iface_release(T->drv, ifindex), -EINVAL);
}
END_TEST

START_TEST(adoption_errors_say_which_case)
{
	simt_open("radios=2,netdev=station");
	char other[DRIVER_IFNAME_MAX];
	snprintf(other, sizeof(other), "%.11s-sta", T->radios[1].name);
	uint32_t r0 = T->radios[0].id;
	ck_assert_int_eq(driver_iface_adopt(T->drv, r0, "nosuch0", DRIVER_IFTYPE_STATION, NULL),
			 -ENODEV);
	ck_assert_int_eq(driver_iface_adopt(T->drv, r0, other, DRIVER_IFTYPE_STATION, NULL),
			 -EMEDIUMTYPE);
	ck_assert_int_eq(driver_iface_adopt(T->drv, r0, "", DRIVER_IFTYPE_STATION, NULL),
			 -EINVAL);
	ck_assert_int_eq(driver_iface_adopt(T->drv, 999, other, DRIVER_IFTYPE_STATION, NULL),
			 -ENODEV);
	ck_assert_int_eq(driver_iface_release(T->drv, 999), -ENODEV);
	/* One its user made with iface_add is that user's, not the system's. */
	uint32_t own = simt_iface(0, DRIVER_IFTYPE_STATION);
	struct driver_iface_info own_info;
	ck_assert_int_eq(driver_iface_info(T->drv, own, &own_info), 0);
	ck_assert_int_eq(driver_iface_adopt(T->drv, r0, own_info.name, DRIVER_IFTYPE_STATION, NULL),
			 -EBUSY);
	/* A type the radio refuses leaves the interface untaken and as it was. */
	char mine[DRIVER_IFNAME_MAX];
	snprintf(mine, sizeof(mine), "%.11s-sta", T->radios[0].name);
	ck_assert_int_eq(driver_iface_adopt(T->drv, r0, mine, DRIVER_IFTYPE_MESH, NULL),
			 -EOPNOTSUPP);
	struct driver_iface_info info = iface_named(T->drv, mine);
	ck_assert_int_eq(info.iftype, DRIVER_IFTYPE_STATION);
	ck_assert_int_eq(driver_iface_del(T->drv, info.ifindex), 0); /* not taken: deletable */
}
END_TEST

/* ---- the daemon: [Station] Interface= ---- */

static char logged[8192];

static void capture(enum log_level level, const char *tag, const char *line, void *data)
{
	size_t used = strlen(logged);
	snprintf(logged + used, sizeof(logged) - used, "%s\n", line);
}

struct daemon_case {
	char dir[64];
	struct wpad_conf *conf;
	struct loop *loop;
	struct wpad *w;
	struct wpad_error err;
};

static void daemon_open(struct daemon_case *c, const char *station_keys)
{
	char text[1024];
	struct cfg_error ce;
	memset(c, 0, sizeof(*c));
	snprintf(c->dir, sizeof(c->dir), "/tmp/wpad-adopt-%d-XXXXXX", (int)getpid());
	ck_assert_ptr_nonnull(mkdtemp(c->dir));
	int n = snprintf(text, sizeof(text),
			 "[General]\nStateDirectory=%s\n[Radio r0]\nDriver=sim\n"
			 "Options=radios=2,netdev=station,name=adr\n"
			 "[Station s]\nRadio=r0\nAutoConnect=false\n%s",
			 c->dir, station_keys);
	ck_assert_int_eq(wpad_conf_load_buffer(text, (size_t)n, "adopt.conf", c->dir, &c->conf,
					       &ce),
			 0);
	c->loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	c->w = wpad_new(c->loop, c->conf, NULL, &c->err);
}

static void daemon_close(struct daemon_case *c)
{
	wpad_free(c->w);
	wpad_conf_free(c->conf);
	loop_free(c->loop);
	rmdir(c->dir);
}

/* Stops the daemon: an adopted interface is given back, not deleted (the
 * sim logs "NAME: removed" when it deletes one). */
static void close_giving_back(struct daemon_case *c)
{
	logged[0] = '\0';
	log_set_sink(capture, NULL);
	wpad_free(c->w);
	c->w = NULL;
	log_set_sink(NULL, NULL);
	ck_assert_ptr_null(strstr(logged, "adr0-sta: removed"));
	daemon_close(c);
}

START_TEST(station_interface_key_adopts_instead_of_creating)
{
	struct daemon_case c;
	daemon_open(&c, "Interface=adr0-sta\n");
	ck_assert_msg(c.w != NULL, "wpad_new: %s", c.err.text);
	struct wpad_device *dev = wpad_device_find(c.w, "s");
	ck_assert_ptr_nonnull(dev);
	ck_assert(dev->adopted);
	struct driver *drv = wpad_radio_driver(dev->radio);
	ck_assert_uint_eq(iface_count(drv), 2); /* none created */
	struct driver_iface_info info = iface_named(drv, "adr0-sta");
	ck_assert_uint_eq(info.ifindex, dev->ifindex);
	ck_assert(info.up);
	ck_assert_ptr_nonnull(dev->station);
	close_giving_back(&c);
}
END_TEST

START_TEST(station_without_interface_key_still_creates_its_own)
{
	struct daemon_case c;
	daemon_open(&c, "");
	ck_assert_msg(c.w != NULL, "wpad_new: %s", c.err.text);
	struct wpad_device *dev = wpad_device_find(c.w, "s");
	ck_assert(!dev->adopted);
	ck_assert_uint_eq(iface_count(wpad_radio_driver(dev->radio)), 3);
	logged[0] = '\0';
	log_set_sink(capture, NULL);
	wpad_free(c.w);
	c.w = NULL;
	log_set_sink(NULL, NULL);
	ck_assert_ptr_nonnull(strstr(logged, ": removed")); /* its own one goes */
	daemon_close(&c);
}
END_TEST

static unsigned removed_calls;
static void on_removed(void *ctx, struct wpad_device *dev)
{
	ck_assert_ptr_nonnull(dev->station); /* told while the role still exists */
	removed_calls++;
}

/* The front's CreateInterface then RemoveInterface: wpad_station_adopt,
 * then wpad_station_release gives the interface back as found (type, up
 * state), observers are told, the device is no more and its slot serves
 * the next adoption; a device of wpad.conf cannot be released. */
START_TEST(adopted_on_demand_is_released_as_found)
{
	struct daemon_case c;
	struct wpad_error err;
	static const struct wpad_observer obs = { .device_removed = on_removed };
	daemon_open(&c, "");
	ck_assert_msg(c.w != NULL, "wpad_new: %s", c.err.text);
	ck_assert_int_eq(wpad_add_observer(c.w, &obs), 0);
	struct wpad_device *conf_dev = wpad_device_find(c.w, "s");
	struct driver *drv = wpad_radio_driver(conf_dev->radio);
	struct driver_iface_info found = iface_named(drv, "adr0-sta");
	ck_assert(found.iftype == DRIVER_IFTYPE_STATION && !found.up);
	size_t slots = wpad_device_count(c.w);

	struct wpad_device *dev = wpad_station_adopt(c.w, "adr0-sta", &err);
	ck_assert_msg(dev != NULL, "adopt: %s", err.text);
	ck_assert(dev->on_demand && dev->adopted && dev->station);
	ck_assert(iface_named(drv, "adr0-sta").up);
	ck_assert_int_eq(wpad_station_release(conf_dev), -EINVAL); /* wpad.conf's stays */

	removed_calls = 0;
	logged[0] = '\0';
	log_set_sink(capture, NULL);
	ck_assert_int_eq(wpad_station_release(dev), 0);
	log_set_sink(NULL, NULL);
	ck_assert_uint_eq(removed_calls, 1);
	ck_assert_ptr_nonnull(strstr(logged, "adr0-sta: given back as found"));
	struct driver_iface_info after = iface_named(drv, "adr0-sta");
	ck_assert_uint_eq(after.ifindex, found.ifindex);
	ck_assert(after.iftype == found.iftype && after.up == found.up);
	ck_assert_ptr_null(wpad_device_find(c.w, "adr0-sta"));
	ck_assert_uint_eq(wpad_device_count(c.w), slots); /* the last slot is freed */
	ck_assert_ptr_nonnull(wpad_device_find(c.w, "s"));

	/* Adopted again (the sim refuses one still adopted); a refused
	 * adoption keeps no slot; a vacant slot cannot be released twice. */
	dev = wpad_station_adopt(c.w, "adr0-sta", &err);
	ck_assert_msg(dev != NULL, "adopt again: %s", err.text);
	struct wpad_device *second = wpad_station_adopt(c.w, "adr1-sta", &err);
	ck_assert_ptr_null(second); /* another radio's interface: refused, no slot kept */
	ck_assert_uint_eq(wpad_device_count(c.w), slots + 1);
	ck_assert_int_eq(wpad_station_release(dev), 0);
	ck_assert_int_eq(wpad_station_release(dev), -EINVAL); /* a vacant slot */
	ck_assert_uint_eq(wpad_device_count(c.w), slots);
	close_giving_back(&c);
}
END_TEST

static void refused(const char *keys, enum wpad_error_code code, const char *words)
{
	struct daemon_case c;
	daemon_open(&c, keys);
	ck_assert_ptr_null(c.w);
	ck_assert_int_eq(c.err.code, code);
	ck_assert_msg(strstr(c.err.text, words), "'%s' lacks '%s'", c.err.text, words);
	daemon_close(&c);
}

START_TEST(station_interface_key_refusals_name_the_cause)
{
	refused("Interface=wlan-none\n", WPAD_ERR_NOT_FOUND, "no network interface has that name");
	/* The sim opens radio adr1 too, but [Radio r0] is adr0. */
	refused("Interface=adr1-sta\n", WPAD_ERR_NOT_SUPPORTED,
		"not a wireless interface of this radio");
}
END_TEST

START_TEST(interface_and_data_interface_exclude_each_other)
{
	char text[256];
	struct cfg_error ce;
	struct wpad_conf *conf = NULL;
	int n = snprintf(text, sizeof(text),
			 "[Radio r0]\nDriver=sim\n[Station s]\nRadio=r0\nInterface=wlan0\n"
			 "DataInterface=tap0\n");
	ck_assert_int_lt(wpad_conf_load_buffer(text, (size_t)n, "x.conf", "/tmp", &conf, &ce), 0);
	ck_assert_ptr_nonnull(strstr(ce.msg, "exclude each other"));
	n = snprintf(text, sizeof(text),
		     "[Radio r0]\nDriver=sim\n[Station s]\nRadio=r0\nInterface=a/b\n");
	ck_assert_int_lt(wpad_conf_load_buffer(text, (size_t)n, "x.conf", "/tmp", &conf, &ce), 0);
	ck_assert_ptr_nonnull(strstr(ce.msg, "Interface must be a network interface name"));
}
END_TEST

Suite *make_sim_adopt_suite(void)
{
	Suite *s = suite_create("sim_adopt");
	TCase *drv = tcase_create("driver");
	tcase_add_checked_fixture(drv, NULL, simt_teardown);
	tcase_set_timeout(drv, 20);
	tcase_add_test(drv, netdev_option_gives_each_radio_a_station_interface);
	tcase_add_test(drv, adopted_interface_is_retyped_kept_and_given_back);
	tcase_add_test(drv, adoption_errors_say_which_case);
	suite_add_tcase(s, drv);

	TCase *daemon = tcase_create("daemon");
	tcase_set_timeout(daemon, 20);
	tcase_add_test(daemon, station_interface_key_adopts_instead_of_creating);
	tcase_add_test(daemon, station_without_interface_key_still_creates_its_own);
	tcase_add_test(daemon, adopted_on_demand_is_released_as_found);
	tcase_add_test(daemon, station_interface_key_refusals_name_the_cause);
	tcase_add_test(daemon, interface_and_data_interface_exclude_each_other);
	suite_add_tcase(s, daemon);
	return s;
}
