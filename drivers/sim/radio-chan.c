/* Channels, the built-in regulatory table and the capabilities of a sim
 * radio.
 *
 * Every sim radio has the same hardware: 2.4 GHz channels 1-14 (14 is
 * always disabled, as it is for OFDM radios everywhere but Japan's 11b-only
 * rule, which we do not model) and the 5 GHz channels 36-165 of the UNII
 * bands, with DFS (radar) on 52-144. Which of them may be used comes from a
 * small regulatory table, a simplified digest of the Linux wireless-regdb
 * (db.txt): frequency ranges with a bandwidth, an EIRP limit and flags.
 * It is a simulation, not legal advice: it is meant to be plausible, and to
 * make the world domain, FCC, ETSI and Japan differ the way they do on real
 * radios (channels 12/13, 144 and 149-165).
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

static const struct sim_chan channels[] = {
	{ 2412, 1, DRIVER_BAND_2GHZ },	 { 2417, 2, DRIVER_BAND_2GHZ },
	{ 2422, 3, DRIVER_BAND_2GHZ },	 { 2427, 4, DRIVER_BAND_2GHZ },
	{ 2432, 5, DRIVER_BAND_2GHZ },	 { 2437, 6, DRIVER_BAND_2GHZ },
	{ 2442, 7, DRIVER_BAND_2GHZ },	 { 2447, 8, DRIVER_BAND_2GHZ },
	{ 2452, 9, DRIVER_BAND_2GHZ },	 { 2457, 10, DRIVER_BAND_2GHZ },
	{ 2462, 11, DRIVER_BAND_2GHZ },	 { 2467, 12, DRIVER_BAND_2GHZ },
	{ 2472, 13, DRIVER_BAND_2GHZ },	 { 2484, 14, DRIVER_BAND_2GHZ },
	{ 5180, 36, DRIVER_BAND_5GHZ },	 { 5200, 40, DRIVER_BAND_5GHZ },
	{ 5220, 44, DRIVER_BAND_5GHZ },	 { 5240, 48, DRIVER_BAND_5GHZ },
	{ 5260, 52, DRIVER_BAND_5GHZ },	 { 5280, 56, DRIVER_BAND_5GHZ },
	{ 5300, 60, DRIVER_BAND_5GHZ },	 { 5320, 64, DRIVER_BAND_5GHZ },
	{ 5500, 100, DRIVER_BAND_5GHZ }, { 5520, 104, DRIVER_BAND_5GHZ },
	{ 5540, 108, DRIVER_BAND_5GHZ }, { 5560, 112, DRIVER_BAND_5GHZ },
	{ 5580, 116, DRIVER_BAND_5GHZ }, { 5600, 120, DRIVER_BAND_5GHZ },
	{ 5620, 124, DRIVER_BAND_5GHZ }, { 5640, 128, DRIVER_BAND_5GHZ },
	{ 5660, 132, DRIVER_BAND_5GHZ }, { 5680, 136, DRIVER_BAND_5GHZ },
	{ 5700, 140, DRIVER_BAND_5GHZ }, { 5720, 144, DRIVER_BAND_5GHZ },
	{ 5745, 149, DRIVER_BAND_5GHZ }, { 5765, 153, DRIVER_BAND_5GHZ },
	{ 5785, 157, DRIVER_BAND_5GHZ }, { 5805, 161, DRIVER_BAND_5GHZ },
	{ 5825, 165, DRIVER_BAND_5GHZ },
};
#define N_CHANNELS (sizeof(channels) / sizeof(channels[0]))

/* ---- the regulatory table ---- */

#define NO_IR DRIVER_CHAN_NO_IR
#define DFS DRIVER_CHAN_RADAR
#define INDOOR DRIVER_CHAN_INDOOR_ONLY

struct reg_set {
	bool dfs_required;
	size_t n;
	struct driver_reg_rule rules[8];
};

/* 00: the world domain, what a radio may do before it knows where it is. */
static const struct reg_set reg_world = { false, 6, {
	{ 2402, 2472, 40, 20, 0 },
	{ 2457, 2482, 20, 20, NO_IR },
	{ 5170, 5250, 80, 20, NO_IR },
	{ 5250, 5330, 80, 20, DFS | NO_IR },
	{ 5490, 5730, 160, 20, DFS | NO_IR },
	{ 5735, 5835, 80, 20, NO_IR },
} };

/* FCC (US, CA): channels 1-11 only, all of UNII-1..3. */
static const struct reg_set reg_fcc = { true, 5, {
	{ 2400, 2472, 40, 30, 0 },
	{ 5170, 5250, 80, 23, 0 },
	{ 5250, 5330, 80, 23, DFS },
	{ 5490, 5730, 160, 23, DFS },
	{ 5735, 5835, 80, 30, 0 },
} };

/* ETSI (DE, FR, GB, ...): 1-13, UNII-1/2 indoors, 100-140 with DFS, and
 * the 5.8 GHz short-range-device band at low power. */
static const struct reg_set reg_etsi = { true, 5, {
	{ 2400, 2483, 40, 20, 0 },
	{ 5150, 5250, 80, 23, INDOOR },
	{ 5250, 5350, 80, 20, DFS | INDOOR },
	{ 5470, 5725, 160, 26, DFS },
	{ 5725, 5875, 80, 13, 0 },
} };

/* Japan: 1-13, 36-64, 100-140; no 149-165. */
static const struct reg_set reg_jp = { true, 4, {
	{ 2402, 2482, 40, 20, 0 },
	{ 5170, 5250, 80, 20, 0 },
	{ 5250, 5330, 80, 20, DFS },
	{ 5490, 5710, 160, 23, DFS },
} };

static const struct {
	char alpha2[3];
	const struct reg_set *set;
} countries[] = {
	{ "00", &reg_world }, { "US", &reg_fcc }, { "CA", &reg_fcc }, { "DE", &reg_etsi },
	{ "FR", &reg_etsi },  { "GB", &reg_etsi }, { "NL", &reg_etsi }, { "ES", &reg_etsi },
	{ "IT", &reg_etsi },  { "JP", &reg_jp },
};

int sim_reg_lookup(const char *alpha2, const void **rules)
{
	if (!alpha2 || strlen(alpha2) != 2)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(countries) / sizeof(countries[0]); i++) {
		if (strcmp(countries[i].alpha2, alpha2) == 0) {
			if (rules)
				*rules = countries[i].set;
			return 0;
		}
	}
	return -EINVAL;
}

static const struct reg_set *current_set(const struct sim *sim)
{
	const void *set = &reg_world;
	sim_reg_lookup(sim->country, &set);
	return set;
}

const struct sim_chan *sim_chan_find(uint32_t freq)
{
	for (size_t i = 0; i < N_CHANNELS; i++)
		if (channels[i].freq == freq)
			return &channels[i];
	return NULL;
}

/* The first rule that holds the whole 20 MHz channel, or NULL. */
static const struct driver_reg_rule *rule_for(const struct reg_set *set, uint32_t freq)
{
	for (size_t i = 0; i < set->n; i++)
		if (freq - 10 >= set->rules[i].start_mhz && freq + 10 <= set->rules[i].end_mhz)
			return &set->rules[i];
	return NULL;
}

uint32_t sim_chan_flags(const struct sim *sim, uint32_t freq)
{
	const struct sim_chan *c = sim_chan_find(freq);
	if (!c || c->number == 14)
		return DRIVER_CHAN_DISABLED;
	uint32_t flags = 0;
	if (c->number >= 52 && c->number <= 144)
		flags |= DRIVER_CHAN_RADAR; /* the hardware knows its DFS channels */
	const struct driver_reg_rule *r = rule_for(current_set(sim), freq);
	if (!r)
		return flags | DRIVER_CHAN_DISABLED;
	flags |= r->flags;
	if (flags & DRIVER_CHAN_RADAR)
		flags |= sim_dfs_flags(sim, freq);
	return flags;
}

int sim_chan_check(const struct sim *sim, uint32_t freq, bool may_initiate)
{
	if (!sim_chan_find(freq))
		return -EINVAL;
	uint32_t flags = sim_chan_flags(sim, freq);
	if (flags & DRIVER_CHAN_DISABLED)
		return -EPERM;
	if (may_initiate && (flags & DRIVER_CHAN_NO_IR))
		return -EPERM; /* no beaconing */
	/* A radar channel: only once a CAC passed (radio-dfs.c). */
	if (may_initiate && (flags & DRIVER_CHAN_RADAR) && !(flags & DRIVER_CHAN_DFS_AVAILABLE))
		return -EPERM;
	return 0;
}

size_t sim_chan_list_enabled(const struct sim *sim, uint32_t *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < N_CHANNELS && n < max; i++)
		if (!(sim_chan_flags(sim, channels[i].freq) & DRIVER_CHAN_DISABLED))
			out[n++] = channels[i].freq;
	return n;
}

/* ---- rates and HT ---- */

static const uint8_t rates_2ghz[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12,
				      0x18, 0x24, 0x30, 0x48, 0x60, 0x6c };
static const uint8_t rates_5ghz[] = { 0x8c, 0x12, 0x98, 0x24, 0xb0, 0x48, 0x60, 0x6c };

size_t sim_band_rates(uint32_t freq, uint8_t *out, size_t max)
{
	const uint8_t *r = freq >= 5000 ? rates_5ghz : rates_2ghz;
	size_t n = freq >= 5000 ? sizeof(rates_5ghz) : sizeof(rates_2ghz);
	if (n > max)
		n = max;
	memcpy(out, r, n);
	return n;
}

/* 20/40 MHz, short GI for 20 and 40 MHz, one RX STBC stream, SM power
 * save off, two spatial streams (MCS 0-15). */
uint16_t sim_ht_capab(void)
{
	return 0x0002 | 0x000c | 0x0020 | 0x0040 | 0x0100;
}

const uint8_t *sim_ht_mcs(void)
{
	static const uint8_t mcs[10] = { 0xff, 0xff };
	return mcs;
}

/* VHT on 5 GHz: 160 MHz, short GI at 80/160 MHz, MCS 0-9 on two
 * streams. HE on both bands: 40 MHz on 2.4 GHz, 40/80 and 160 MHz on
 * 5 GHz, HE-MCS 0-11 on two streams, no PPE thresholds. Enough for the
 * AP's elements and the widths the tests use; nothing is modulated. */
#define SIM_VHT_CAPAB ((1u << 2) | (1u << 5) | (1u << 6))
#define SIM_MCS_MAP_2SS 0xfffa

static void fill_vht_he(enum driver_band band, struct driver_band_info *b)
{
	static const uint8_t mcs4[4] = { SIM_MCS_MAP_2SS & 0xff, SIM_MCS_MAP_2SS >> 8,
					 SIM_MCS_MAP_2SS & 0xff, SIM_MCS_MAP_2SS >> 8 };
	if (band == DRIVER_BAND_5GHZ) {
		b->vht = true;
		b->vht_capab = SIM_VHT_CAPAB;
		memcpy(b->vht_mcs, mcs4, 2);
		memcpy(b->vht_mcs + 4, mcs4, 2);
	}
	b->he = true;
	b->he_phy_cap[0] = band == DRIVER_BAND_5GHZ ? 0x0c : 0x02;
	memcpy(b->he_mcs, mcs4, 4);
	if (band == DRIVER_BAND_5GHZ)
		memcpy(b->he_mcs + 4, mcs4, 4);
}

/* ---- capabilities and regulatory ops ---- */

static void fill_band(const struct sim *sim, enum driver_band band, struct driver_band_info *b)
{
	const struct reg_set *set = current_set(sim);
	uint8_t rates[16];
	size_t nr = sim_band_rates(band == DRIVER_BAND_5GHZ ? 5180 : 2412, rates, sizeof(rates));

	b->present = true;
	for (size_t i = 0; i < N_CHANNELS; i++) {
		if (channels[i].band != band)
			continue;
		struct driver_channel *c = &b->channels[b->n_channels++];
		const struct driver_reg_rule *r = rule_for(set, channels[i].freq);
		c->freq_mhz = channels[i].freq;
		c->number = channels[i].number;
		c->flags = sim_chan_flags(sim, channels[i].freq);
		c->max_power_dbm = r ? r->max_eirp_dbm : 0;
		c->dfs_cac_ms = c->flags & DRIVER_CHAN_RADAR ? SIM_CAC_MS : 0;
	}
	for (size_t i = 0; i < nr; i++)
		b->rates_100kbps[b->n_rates++] = (uint16_t)((rates[i] & 0x7f) * 5);
	b->ht = true;
	b->ht_capab = sim_ht_capab();
	memcpy(b->ht_mcs_rx, sim_ht_mcs(), sizeof(b->ht_mcs_rx));
	fill_vht_he(band, b);
}

int sim_chandef_check(const struct sim *sim, uint32_t control, const struct driver_chandef *cd)
{
	unsigned w = cd->width_mhz ? cd->width_mhz : 20;
	uint32_t center = cd->center1_mhz ? cd->center1_mhz : control;
	if ((w != 20 && w != 40 && w != 80 && w != 160) || cd->center2_mhz ||
	    control + 10 > center + w / 2 || control < center - w / 2 + 10 ||
	    (center - w / 2 + 10 - control) % 20)
		return -EINVAL;
	for (uint32_t f = center - w / 2 + 10; f < center + w / 2; f += 20) {
		int r = sim_chan_check(sim, f, true);
		if (r)
			return r;
	}
	return 0;
}

int sim_get_capa(void *priv, uint32_t radio_id, struct driver_capa *capa)
{
	struct sim *sim = priv;
	if (!capa || !sim_radio_find(sim, radio_id))
		return -ENODEV;
	memset(capa, 0, sizeof(*capa));
	capa->iftypes = DRIVER_IFTYPE_STATION | DRIVER_IFTYPE_AP | DRIVER_IFTYPE_MONITOR;
	capa->ciphers = DRIVER_CIPHER_CCMP_128 | DRIVER_CIPHER_CCMP_256 | DRIVER_CIPHER_GCMP_128 |
			DRIVER_CIPHER_GCMP_256 | DRIVER_CIPHER_BIP_CMAC_128 |
			DRIVER_CIPHER_BIP_CMAC_256 | DRIVER_CIPHER_BIP_GMAC_128 |
			DRIVER_CIPHER_BIP_GMAC_256;
	/* A soft MAC with a user-space SME: every AKM user space runs. */
	capa->akms = DRIVER_AKM_PSK | DRIVER_AKM_PSK_SHA256 | DRIVER_AKM_8021X |
		     DRIVER_AKM_8021X_SHA256 | DRIVER_AKM_FT_PSK | DRIVER_AKM_FT_8021X |
		     DRIVER_AKM_SAE | DRIVER_AKM_FT_SAE | DRIVER_AKM_OWE | DRIVER_AKM_SAE_EXT_KEY;
	capa->ext_features = DRIVER_EXT_MFP | DRIVER_EXT_CONTROL_PORT |
			     DRIVER_EXT_UNPROT_DEAUTH_EVENT | DRIVER_EXT_AUTH_TX_STATUS;
	capa->auth_algs = DRIVER_AUTH_BIT(DRIVER_AUTH_OPEN) | DRIVER_AUTH_BIT(DRIVER_AUTH_FT) |
			  DRIVER_AUTH_BIT(DRIVER_AUTH_SAE);
	capa->flags = DRIVER_CAPA_USER_SME | DRIVER_CAPA_AP_PROBE_RESP_OFFLOAD |
		      DRIVER_CAPA_MONITOR | DRIVER_CAPA_CONTROL_PORT |
		      DRIVER_CAPA_AP_STA_CONCURRENT | DRIVER_CAPA_QOS_QUEUES |
		      DRIVER_CAPA_POWER_SAVE | DRIVER_CAPA_HW_CRYPTO | DRIVER_CAPA_DATA_PLANE |
		      DRIVER_CAPA_REGULATORY | DRIVER_CAPA_HOTPLUG | DRIVER_CAPA_DFS;
	capa->max_scan_ssids = DRIVER_MAX_SCAN_SSIDS;
	capa->max_scan_freqs = DRIVER_MAX_SCAN_FREQS;
	capa->max_ap_stations = SIM_MAX_AP_STATIONS;
	capa->max_interfaces = SIM_MAX_IFACES_PER_RADIO;
	capa->max_ap_interfaces = (uint8_t)sim->opts.ap_ifaces;
	fill_band(sim, DRIVER_BAND_2GHZ, &capa->bands[DRIVER_BAND_2GHZ]);
	fill_band(sim, DRIVER_BAND_5GHZ, &capa->bands[DRIVER_BAND_5GHZ]);
	return 0;
}

int sim_get_regulatory(void *priv, uint32_t radio_id, struct driver_regulatory *reg)
{
	struct sim *sim = priv;
	if (!reg || !sim_radio_find(sim, radio_id))
		return -ENODEV;
	const struct reg_set *set = current_set(sim);
	memset(reg, 0, sizeof(*reg));
	memcpy(reg->alpha2, sim->country, 3);
	reg->dfs_required = set->dfs_required;
	reg->n_rules = set->n;
	memcpy(reg->rules, set->rules, set->n * sizeof(set->rules[0]));
	return 0;
}

int sim_set_regulatory(void *priv, const char *alpha2)
{
	struct sim *sim = priv;
	if (sim_reg_lookup(alpha2, NULL) < 0) {
		log_warn("no regulatory rules for '%s' (the simulated table knows 00, US, "
			 "CA, DE, FR, GB, NL, ES, IT, JP)", alpha2 ? alpha2 : "(null)");
		return -EINVAL;
	}
	memcpy(sim->country, alpha2, 3);
	log_info("regulatory domain %s", sim->country);
	sim_dfs_reg_reset(sim);
	for (struct sim_radio *r = sim->radios; r; r = r->next) {
		struct driver_event ev = { .type = DRIVER_EV_REG_CHANGE, .radio_id = r->id };
		sim_emit(sim, &ev);
	}
	return 0;
}

/* ---- channel survey ---- */

/* Every channel of the radio, with the time since the counters started as
 * active time (at least 100 ms, so a survey taken at once still has
 * shares) and the scripted share of it busy. */
int sim_get_survey(void *priv, uint32_t ifindex, struct driver_survey *out, size_t max,
		   size_t *n)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	uint64_t active_ms = (loop_now_us(sim->loop) - sim->survey_since_us) / 1000;
	if (active_ms < 100)
		active_ms = 100;
	*n = 0;
	for (size_t i = 0; i < N_CHANNELS && *n < max; i++) {
		struct driver_survey *s = &out[(*n)++];
		memset(s, 0, sizeof(*s));
		s->freq_mhz = channels[i].freq;
		s->in_use = ifc->oper_freq == channels[i].freq;
		s->has_noise = s->has_time = true;
		s->noise_dbm = -95;
		s->active_ms = active_ms;
		for (size_t k = 0; k < sim->n_survey; k++) {
			if (sim->survey[k].freq != channels[i].freq)
				continue;
			s->noise_dbm = sim->survey[k].noise_dbm;
			s->busy_ms = active_ms * sim->survey[k].busy_pct / 100;
		}
	}
	return 0;
}
