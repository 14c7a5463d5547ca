/* Option string of the sim backend: "key=value,key=value". See docs/sim.md
 * for the list; every unknown key or bad value is refused by name. */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/core/log.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_DEFAULT_QUEUE_LIMIT 64
#define SIM_DEFAULT_ACTIVE_DWELL_MS 30
#define SIM_DEFAULT_PASSIVE_DWELL_MS 110
#define SIM_DEFAULT_BEACON_LOSS 7

static bool parse_uint(const char *v, unsigned long min, unsigned long max, uint32_t *out)
{
	char *end;
	if (!*v || !isdigit((unsigned char)*v))
		return false;
	errno = 0;
	unsigned long n = strtoul(v, &end, 10);
	if (errno || *end || n < min || n > max)
		return false;
	*out = (uint32_t)n;
	return true;
}

static bool parse_addr(const char *v, uint8_t out[SIM_ADDR_LEN])
{
	unsigned b[SIM_ADDR_LEN];
	char tail;
	if (strlen(v) != 17 ||
	    sscanf(v, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &tail) != 6)
		return false;
	for (int i = 0; i < SIM_ADDR_LEN; i++)
		out[i] = (uint8_t)b[i];
	return !(out[0] & 0x01); /* a group address cannot name a radio */
}

static bool parse_medium(const char *v, struct sim_opts *o)
{
	if (strcmp(v, "inproc") == 0) {
		o->medium = SIM_MEDIUM_INPROC;
	} else if (strcmp(v, "shared") == 0) {
		o->medium = SIM_MEDIUM_SHARED;
	} else {
		if (!*v || strlen(v) >= sizeof(o->medium_dir))
			return false;
		o->medium = SIM_MEDIUM_PATH;
		strcpy(o->medium_dir, v);
	}
	return true;
}

static bool parse_name(const char *v, struct sim_opts *o)
{
	size_t n = strlen(v);
	if (n == 0 || n >= sizeof(o->name))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)v[i]) && v[i] != '-' && v[i] != '_')
			return false;
	memcpy(o->name, v, n + 1);
	return true;
}

static bool parse_country(const char *v, struct sim_opts *o)
{
	if (sim_reg_lookup(v, NULL) < 0)
		return false;
	memcpy(o->country, v, 3);
	return true;
}

/* One key=value pair. Returns 0, or -EINVAL after logging why. */
static int apply(struct sim_opts *o, const char *key, const char *v)
{
	bool ok;
	if (strcmp(key, "medium") == 0)
		ok = parse_medium(v, o);
	else if (strcmp(key, "radios") == 0)
		ok = parse_uint(v, 1, SIM_MAX_RADIOS, &o->radios);
	else if (strcmp(key, "addr") == 0)
		ok = (o->addr_given = parse_addr(v, o->base_addr));
	else if (strcmp(key, "name") == 0)
		ok = parse_name(v, o);
	else if (strcmp(key, "fail") == 0)
		ok = (o->fail_firmware = strcmp(v, "firmware") == 0);
	else if (strcmp(key, "country") == 0)
		ok = parse_country(v, o);
	else if (strcmp(key, "queue_limit") == 0)
		ok = parse_uint(v, 2, 4096, &o->queue_limit);
	else if (strcmp(key, "active_dwell") == 0)
		ok = parse_uint(v, 5, 10000, &o->active_dwell_ms);
	else if (strcmp(key, "passive_dwell") == 0)
		ok = parse_uint(v, 5, 10000, &o->passive_dwell_ms);
	else if (strcmp(key, "beacon_loss") == 0)
		ok = parse_uint(v, 1, 100, &o->beacon_loss_count);
	else if (strcmp(key, "ap_ifaces") == 0)
		ok = parse_uint(v, 1, SIM_MAX_AP_IFACES, &o->ap_ifaces);
	else if (strcmp(key, "netdev") == 0)
		ok = (o->netdev_station = strcmp(v, "station") == 0) || strcmp(v, "none") == 0;
	else {
		log_error("unknown option '%s'", key);
		return -EINVAL;
	}
	if (!ok) {
		log_error("bad value '%s' for option '%s'", v, key);
		return -EINVAL;
	}
	return 0;
}

int sim_opts_parse(const char *options, struct sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->medium = SIM_MEDIUM_INPROC;
	o->radios = 1;
	o->base_addr[0] = 0x02;
	strcpy(o->name, "simradio");
	strcpy(o->country, "00");
	o->queue_limit = SIM_DEFAULT_QUEUE_LIMIT;
	o->active_dwell_ms = SIM_DEFAULT_ACTIVE_DWELL_MS;
	o->passive_dwell_ms = SIM_DEFAULT_PASSIVE_DWELL_MS;
	o->beacon_loss_count = SIM_DEFAULT_BEACON_LOSS;
	o->ap_ifaces = SIM_MAX_AP_IFACES;
	if (!options)
		return 0;

	char *copy = strdup(options);
	if (!copy)
		return -ENOMEM;
	int err = 0;
	char *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq) {
			log_error("option '%s' needs a value (key=value)", tok);
			err = -EINVAL;
			break;
		}
		*eq = '\0';
		err = apply(o, tok, eq + 1);
	}
	free(copy);
	return err;
}
