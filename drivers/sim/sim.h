/* Test and tooling hooks of the simulated radio backend ("sim").
 *
 * The sim backend is reached like every backend, through driver_open("sim",
 * ...) and the driver_*() wrappers of drivers/driver.h. These few extra
 * calls let tests and fuzzers reach inside: the in-process medium (to move
 * radios out of range), received-frame injection (the RX path without the
 * medium), per-interface drop counters and radio hotplug.
 *
 * Every function checks that drv is a sim instance and returns -EINVAL
 * (or NULL) otherwise. See docs/sim.md for the radio model.
 */
#ifndef WPAD_DRIVERS_SIM_SIM_H
#define WPAD_DRIVERS_SIM_SIM_H

#include <stddef.h>
#include <stdint.h>


struct driver;
struct medium;

/* The in-process medium the instance's radios are attached to (medium=inproc
 * or medium=shared), or NULL for medium=DIR. Borrowed. */
struct medium *sim_driver_medium(struct driver *drv);

/* Feeds frame into the receive path of ifindex as if the medium had
 * delivered it on freq (0: the interface's channel) with signal_mbm. The
 * bytes are borrowed and may be anything: this is the fuzzing entry point.
 * Returns 0, or -ENODEV for an unknown interface. */
int sim_driver_inject_rx(struct driver *drv, uint32_t ifindex, const uint8_t *frame,
			 size_t len, uint32_t freq, int32_t signal_mbm);

/* Drop counters of one interface, for frames no peer can be blamed for. */
struct sim_rx_counters {
	uint64_t frames;       /* every frame handed to the RX path */
	uint64_t malformed;    /* failed header/body parsing */
	uint64_t not_for_us;   /* address filter */
	uint64_t class3;       /* data from an unknown or unassociated peer */
	uint64_t duplicate;    /* retransmission already received */
	uint64_t no_key;       /* protected, but no key for it */
	uint64_t replay;       /* PN not above the replay counter */
	uint64_t bad_mic;      /* decryption failed */
	uint64_t unauth;       /* non-EAPOL data on a closed port */
	uint64_t unprot_mgmt;  /* robust management frame unprotected on an MFP link */
	uint64_t bip_bad_mic;  /* group robust frame: wrong BIP MIC, or no MMIE with an IGTK */
	uint64_t bip_replay;   /* group robust frame: IPN not above the last accepted */
};
int sim_driver_rx_counters(struct driver *drv, uint32_t ifindex, struct sim_rx_counters *c);

/* Radio hotplug: adds a radio (DRIVER_EV_RADIO_NEW) or removes one with
 * all its interfaces (IFACE_DEL for each, then DRIVER_EV_RADIO_DEL). */
int sim_driver_radio_add(struct driver *drv, uint32_t *radio_id);
int sim_driver_radio_remove(struct driver *drv, uint32_t radio_id);

/* Scripts the channel survey every radio of the instance reports
 * (driver_get_survey): busy_pct of the time on freq is busy, the noise
 * floor is noise_dbm. Replaces an earlier setting of freq. -EINVAL for a
 * share above 100, -ENOSPC when too many channels are scripted. */
int sim_driver_set_survey(struct driver *drv, uint32_t freq, uint8_t busy_pct,
			  int8_t noise_dbm);

/* Radar on freq, a DFS channel (-EINVAL otherwise): the channel becomes
 * unavailable for the non-occupancy period (30 minutes of loop time, then
 * DRIVER_EV_RADAR NOP_FINISHED), a CAC covering it is aborted and every AP
 * beaconing over it gets DRIVER_EV_RADAR DETECTED. */
int sim_driver_radar(struct driver *drv, uint32_t freq);

#endif
