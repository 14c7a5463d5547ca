/* The command handlers the table (table.c) names. Each returns wpactl's
 * exit code (errors.h). */
#ifndef WPACTL_COMMANDS_H
#define WPACTL_COMMANDS_H

#include <stddef.h>

#include "wpactl/parse.h"

extern const struct wc_command wc_commands[];
extern const struct wc_option wc_options[WC_OPT_COUNT];

int cmd_device_list(struct wc_ctx *c, const struct wc_args *a);
int cmd_device_show(struct wc_ctx *c, const struct wc_args *a);
int cmd_device_power(struct wc_ctx *c, const struct wc_args *a);
int cmd_device_mode(struct wc_ctx *c, const struct wc_args *a);
int cmd_station_scan(struct wc_ctx *c, const struct wc_args *a);
int cmd_station_networks(struct wc_ctx *c, const struct wc_args *a);
int cmd_station_connect(struct wc_ctx *c, const struct wc_args *a);
int cmd_station_connect_hidden(struct wc_ctx *c, const struct wc_args *a);
int cmd_station_autoconnect(struct wc_ctx *c, const struct wc_args *a);
int cmd_station_disconnect(struct wc_ctx *c, const struct wc_args *a);
int cmd_station_flush_pmksa(struct wc_ctx *c, const struct wc_args *a);
int cmd_station_show(struct wc_ctx *c, const struct wc_args *a);
int cmd_known_list(struct wc_ctx *c, const struct wc_args *a);
int cmd_known_forget(struct wc_ctx *c, const struct wc_args *a);
int cmd_known_autoconnect(struct wc_ctx *c, const struct wc_args *a);
int cmd_known_add_8021x(struct wc_ctx *c, const struct wc_args *a);
int cmd_ap_start(struct wc_ctx *c, const struct wc_args *a);
int cmd_ap_stop(struct wc_ctx *c, const struct wc_args *a);
int cmd_ap_rescan_channel(struct wc_ctx *c, const struct wc_args *a);
int cmd_ap_show(struct wc_ctx *c, const struct wc_args *a);
int cmd_ap_disconnect(struct wc_ctx *c, const struct wc_args *a);
int cmd_ap_allow(struct wc_ctx *c, const struct wc_args *a);
int cmd_ap_deny(struct wc_ctx *c, const struct wc_args *a);
int cmd_ap_unlist(struct wc_ctx *c, const struct wc_args *a);
int cmd_ap_reload_lists(struct wc_ctx *c, const struct wc_args *a);
int cmd_wired_show(struct wc_ctx *c, const struct wc_args *a);
int cmd_wired_reconnect(struct wc_ctx *c, const struct wc_args *a);
int cmd_wired_profile(struct wc_ctx *c, const struct wc_args *a);
int cmd_wired_reset_profile(struct wc_ctx *c, const struct wc_args *a);
int cmd_monitor(struct wc_ctx *c, const struct wc_args *a);
int cmd_agent(struct wc_ctx *c, const struct wc_args *a);
int cmd_complete(struct wc_ctx *c, const struct wc_args *a);

/* Shared by the commands (cmd_*.c). */
struct wc_objects;
struct wc_object;
struct jw;
/* Loads the objects and finds the device name of role (WC_IFACE_STATION,
 * WC_IFACE_AP or NULL). Returns 0, or the exit code after reporting. */
int wc_load_device(struct wc_ctx *c, const char *name, const char *role, struct wc_objects *os,
		   const struct wc_object **dev);
/* wc_load_device for commands that need only the device's object path and
 * its Name: both copied out, the objects freed. */
int wc_device_path(struct wc_ctx *c, const char *name, const char *role, char *path,
		   size_t path_cap, char *dev_name, size_t name_cap);
/* device show, station DEV show, ap DEV show: role NULL or the one wanted. */
int wc_show_device(struct wc_ctx *c, const char *name, const char *role);
/* `show` lines of a device's role, and its JSON object. */
void wc_station_fields(const struct wc_objects *os, const struct wc_object *dev);
/* ", PMF required", ", PMF capable" or "" for a Network object. */
const char *wc_pmf_text(const struct wc_object *net);
void wc_ap_fields(const struct wc_objects *os, const struct wc_object *dev);
void wc_device_json(struct jw *w, const struct wc_objects *os, const struct wc_object *dev);
/* One line about what a device is doing ("connected to 'home'"). */
void wc_device_summary(const struct wc_objects *os, const struct wc_object *dev, char *out,
		       size_t cap);

#endif
