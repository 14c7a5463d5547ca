/* Fuzz the sim backend's receive path: the first input byte picks the
 * interface (the AP with an associated, keyed, authorized station; that
 * station; a monitor), the rest is handed over as a received frame.
 *
 * Oracle: no crash, no sanitizer report, no leak. Before each input the
 * station is re-associated if an earlier input (a forged deauth, say) ended
 * the association, so the deep paths (decryption, replay check, port,
 * forwarding) stay reachable.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "drivers/driver.h"
#include "drivers/sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FREQ 2437

static struct loop *loop;
static struct driver *drv;
static uint32_t ap, sta, mon;
static uint8_t ap_addr[6], sta_addr[6];

static void addr_of(uint32_t ifindex, uint8_t out[6])
{
	struct driver_iface_info info;
	driver_iface_info(drv, ifindex, &info);
	memcpy(out, info.addr, 6);
}

static size_t hdr(uint8_t *f, uint16_t fc, const uint8_t *da, const uint8_t *sa)
{
	memset(f, 0, 24);
	f[0] = (uint8_t)fc;
	f[1] = (uint8_t)(fc >> 8);
	memcpy(f + 4, da, 6);
	memcpy(f + 10, sa, 6);
	memcpy(f + 16, ap_addr, 6);
	return 24;
}

static void start_ap(void)
{
	static const uint8_t tail[] = { 1, 1, 0x82, 3, 1, 6 };
	uint8_t head[64];
	size_t n = hdr(head, 0x0080, (const uint8_t *)"\xff\xff\xff\xff\xff\xff", ap_addr);
	memset(head + n, 0, 12);
	head[n + 8] = 100;
	head[n + 10] = 0x11;
	n += 12;
	head[n++] = 0;
	head[n++] = 4;
	memcpy(head + n, "fuzz", 4);
	n += 4;
	struct driver_ap_params p = { .freq_mhz = FREQ, .beacon_interval = 100, .dtim_period = 2,
				      .beacon_head = head, .beacon_head_len = n,
				      .beacon_tail = tail, .beacon_tail_len = sizeof(tail),
				      .probe_resp = head, .probe_resp_len = n };
	p.ssid.len = 4;
	memcpy(p.ssid.ssid, "fuzz", 4);
	driver_start_ap(drv, ap, &p);
	static const uint16_t types[] = { 0x00b0, 0x0000, 0x0020, 0x00d0, 0x00c0, 0x00a0 };
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		driver_register_mgmt(drv, ap, types[i], NULL, 0);
	driver_register_mgmt(drv, sta, 0x00d0, NULL, 0);
}

static void install_keys(void)
{
	struct driver_key k = { .type = DRIVER_KEY_PAIRWISE, .cipher = DRIVER_CIPHER_CCMP_128,
				.key_len = 16, .set_tx = true };
	memset(k.key, 0x42, 16);
	memcpy(k.addr, ap_addr, 6);
	driver_key_set(drv, sta, &k);
	memcpy(k.addr, sta_addr, 6);
	driver_key_set(drv, ap, &k);
	struct driver_key g = { .type = DRIVER_KEY_GROUP, .cipher = DRIVER_CIPHER_GCMP_256,
				.key_idx = 1, .key_len = 32 };
	memset(g.key, 0x24, 32);
	driver_key_set(drv, sta, &g);
	g.set_tx = true;
	driver_key_set(drv, ap, &g);
	driver_port_authorize(drv, sta, ap_addr, true);
	/* Management frame protection on both ends: the RX path then decrypts
	 * robust frames, checks BIP/MMIE and IPNs, and reports unprotected
	 * deauths (radio-pmf.c). */
	struct driver_key i = { .type = DRIVER_KEY_IGTK, .cipher = DRIVER_CIPHER_BIP_CMAC_128,
				.key_idx = 4, .key_len = 16 };
	memset(i.key, 0x33, 16);
	driver_key_set(drv, sta, &i);
	i.set_tx = true;
	driver_key_set(drv, ap, &i);
	driver_sta_set_flags(drv, ap, sta_addr, DRIVER_STA_MFP, 0);
}

/* Associates the station by answering its MLME with injected frames. */
static void associate(void)
{
	uint8_t f[64];
	struct driver_auth_params a = { .freq_mhz = FREQ, .alg = DRIVER_AUTH_OPEN };
	memcpy(a.bssid, ap_addr, 6);
	if (driver_authenticate(drv, sta, &a) < 0)
		return;
	size_t n = hdr(f, 0x00b0, sta_addr, ap_addr);
	memcpy(f + n, "\0\0\2\0\0\0", 6);
	sim_driver_inject_rx(drv, sta, f, n + 6, FREQ, -3000);
	struct driver_assoc_params p = { .freq_mhz = FREQ, .use_mfp = true };
	memcpy(p.bssid, ap_addr, 6);
	driver_associate(drv, sta, &p);
	n = hdr(f, 0x0010, sta_addr, ap_addr);
	memcpy(f + n, "\1\0\0\0\1\xc0", 6);
	sim_driver_inject_rx(drv, sta, f, n + 6, FREQ, -3000);
	install_keys();
}

static void setup(void)
{
	log_set_level(WLOG_ERROR);
	loop = loop_new();
	drv = driver_open("sim", loop, "radios=3", NULL, NULL, NULL);
	if (!drv)
		__builtin_trap();
	struct driver_radio_info r[3];
	size_t n = 0;
	driver_list_radios(drv, r, 3, &n);
	driver_iface_add(drv, r[0].id, NULL, DRIVER_IFTYPE_AP, NULL, &ap);
	driver_iface_add(drv, r[1].id, NULL, DRIVER_IFTYPE_STATION, NULL, &sta);
	driver_iface_add(drv, r[2].id, NULL, DRIVER_IFTYPE_MONITOR, NULL, &mon);
	driver_iface_set_up(drv, ap, true);
	driver_iface_set_up(drv, sta, true);
	driver_iface_set_up(drv, mon, true);
	driver_set_channel(drv, mon, FREQ);
	addr_of(ap, ap_addr);
	addr_of(sta, sta_addr);
	start_ap();
	struct driver_sta_params sp = { .aid = 1, .flags = DRIVER_STA_AUTHENTICATED |
							    DRIVER_STA_ASSOCIATED |
							    DRIVER_STA_AUTHORIZED };
	memcpy(sp.addr, sta_addr, 6);
	driver_sta_add(drv, ap, &sp);
	associate();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!drv)
		setup();
	struct driver_sta_info si;
	if (driver_sta_info(drv, sta, ap_addr, &si) < 0 || !(si.flags & DRIVER_STA_ASSOCIATED))
		associate();
	if (size < 1)
		return 0;
	static const uint32_t *const targets[] = { &ap, &sta, &mon };
	sim_driver_inject_rx(drv, *targets[data[0] % 3], data + 1, size - 1, data[0] & 0x80 ? 0 : FREQ,
			     -4000);
	loop_iterate(loop, 0); /* deliver the events, let the medium move */
	return 0;
}
