/* The station's BSS list: every access point heard in scan results and in
 * beacons or probe responses, parsed once with the codec into what the rest
 * of the station needs (SSID, security, ciphers, signal, band), and aged:
 * an entry not heard for a while is dropped.
 *
 * Ownership: the list owns its entries. Pointers to entries stay valid until
 * the next call that changes the list (update, expire, remove, free).
 * The list is bounded (BSS_LIST_MAX): a flood of forged beacons cannot grow
 * it without limit; when full, the entry heard longest ago is replaced.
 */
#ifndef WPAD_STATION_BSS_H
#define WPAD_STATION_BSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/driver.h"

#define BSS_LIST_MAX 256
#define BSS_SSID_MAX 32
#define BSS_RSNE_MAX 257 /* a whole element: 2 header octets + 255 */
#define BSS_RSNXE_MAX 257

/* What a network asks of a station to join it, weakest first. The order is
 * the ranking order of networks (stronger security ranks higher). */
enum bss_security {
	BSS_SECURITY_WEP = 0, /* privacy bit without RSN/WPA: legacy, refused */
	BSS_SECURITY_OPEN,
	BSS_SECURITY_OWE,
	BSS_SECURITY_PSK,     /* WPA2-Personal, and WPA3 transition (PSK+SAE) */
	BSS_SECURITY_SAE,     /* WPA3-Personal only */
	BSS_SECURITY_8021X,   /* WPA2/3-Enterprise */
	BSS_SECURITY_COUNT
};

/* Why we cannot join a BSS, or BSS_OK. */
enum bss_support {
	BSS_OK = 0,
	BSS_UNSUPPORTED_WEP,         /* WEP: broken, not implemented */
	BSS_UNSUPPORTED_WPA1,        /* only the pre-RSN WPA element */
	BSS_UNSUPPORTED_CIPHER,      /* no usable pairwise or group cipher */
	BSS_UNSUPPORTED_AKM,         /* no AKM the station implements yet */
	BSS_UNSUPPORTED_MFP,         /* the PMF policies of the two sides conflict */
	BSS_UNSUPPORTED_RSN,         /* the RSN element itself is unusable */
};

struct station_bss {
	uint8_t bssid[DRIVER_ADDR_LEN];
	uint8_t ssid[BSS_SSID_MAX];
	uint8_t ssid_len;
	bool hidden;             /* the SSID was empty or all zero octets */
	uint32_t freq_mhz;
	enum driver_band band;
	int32_t signal_mbm;
	uint16_t capability;
	uint16_t beacon_interval;
	uint64_t last_seen_us;   /* loop_now_us(station loop) when last heard */

	enum bss_security security;
	enum bss_support support;
	/* RSN details (valid when has_rsn). */
	bool has_rsn;
	/* The negotiation (daemon/rsn/negotiate.h) with the default policy and
	 * every cipher: what the list shows. A connect negotiates again with
	 * the network's policy and the driver's ciphers. */
	uint16_t rsn_status;     /* 0, or the IEEE status code of the refusal */
	uint32_t akm;            /* the AKM we would use, 0 if none */
	uint32_t pairwise_cipher; /* the pairwise cipher we would use */
	uint32_t akms;           /* offered, RSN_SUITE_BIT mask */
	uint32_t pairwise_ciphers; /* offered, RSN_SUITE_BIT mask */
	uint32_t group_cipher;
	uint32_t group_mgmt_cipher; /* BIP suite (default BIP-CMAC-128) */
	uint16_t rsn_capab;
	bool mfp_capable;        /* MFPC */
	bool mfp_required;       /* MFPR */
	/* The AP's RSNE and RSNXE as heard, for the 4-way's message 3 check
	 * (IEEE 802.11-2020 12.7.6.4): both whole elements, always from the
	 * same frame (the latest Beacon or Probe Response of this BSSID), so
	 * a frame without an RSNXE leaves rsnxe_len 0 rather than an older
	 * frame's element. */
	uint8_t rsne[BSS_RSNE_MAX];
	size_t rsne_len;
	uint8_t rsnxe[BSS_RSNXE_MAX];
	size_t rsnxe_len;       /* 0: the frame carried no RSNXE */
	bool sae_h2e_only;      /* the rates list the SAE H2E-only selector */
	bool wmm;
	/* OWE transition mode (WFA OWE Specification v1.1): an open BSS
	 * naming its OWE twin (often hidden) by BSSID and SSID; owe_freq_mhz
	 * 0 when the element names no channel (the same as ours). */
	bool owe_trans;
	uint8_t owe_bssid[DRIVER_ADDR_LEN];
	uint8_t owe_ssid[BSS_SSID_MAX];
	uint8_t owe_ssid_len;
	uint32_t owe_freq_mhz;
};

/* Fills *out from one BSS's fixed fields and element list. Returns 0, or a
 * negative codec error when the elements do not parse (the BSS is then
 * ignored: a malformed beacon is not a network we can join). */
int bss_parse(struct station_bss *out, const uint8_t bssid[DRIVER_ADDR_LEN], uint32_t freq_mhz,
	      int32_t signal_mbm, uint16_t capability, uint16_t beacon_interval,
	      const uint8_t *ies, size_t ies_len, uint64_t now_us);

const char *bss_security_name(enum bss_security sec);
const char *bss_support_text(enum bss_support s);
/* The support verdict of a negotiation status code. */
enum bss_support bss_support_from_status(uint16_t status);
enum driver_band bss_band_from_freq(uint32_t freq_mhz);
/* Channel number of a frequency, 0 if unknown. */
unsigned bss_channel_from_freq(uint32_t freq_mhz);
/* "aa:bb:cc:dd:ee:ff" into buf (at least 18 bytes). Returns buf. */
const char *bss_addr_str(const uint8_t addr[DRIVER_ADDR_LEN], char *buf);
/* The SSID printable for logs: non-printable octets as \xNN. */
const char *bss_ssid_str(const uint8_t *ssid, size_t len, char *buf, size_t cap);
#define BSS_SSID_STR_MAX (BSS_SSID_MAX * 4 + 1)

struct bss_list;

struct bss_list *bss_list_new(void);
void bss_list_free(struct bss_list *list);
size_t bss_list_count(const struct bss_list *list);
struct station_bss *bss_list_at(struct bss_list *list, size_t i);
struct station_bss *bss_list_find(struct bss_list *list, const uint8_t bssid[DRIVER_ADDR_LEN]);

/* Inserts or refreshes one parsed entry (matched by BSSID). A hidden beacon
 * does not overwrite an SSID learned from a directed probe response.
 * Returns the stored entry. */
struct station_bss *bss_list_update(struct bss_list *list, const struct station_bss *bss);
/* Merges a driver's scan results; each is dated now - age_ms. Returns how
 * many entries were taken (malformed ones are skipped). */
size_t bss_list_merge_scan(struct bss_list *list, const struct driver_scan_results *res,
			   uint64_t now_us);
/* Parses a received beacon or probe response frame and updates the list.
 * Returns 0, or a negative codec error (the frame is then ignored). */
int bss_list_update_from_frame(struct bss_list *list, const uint8_t *frame, size_t len,
			       uint32_t freq_mhz, int32_t signal_mbm, uint64_t now_us);
/* Drops entries last heard more than max_age_us ago, except keep (may be
 * NULL: the BSS we are associated with). Returns how many were dropped. */
size_t bss_list_expire(struct bss_list *list, uint64_t now_us, uint64_t max_age_us,
		       const uint8_t *keep);
/* When bss_list_expire() with this keep will next drop an entry: false if
 * it never will (no entry but keep); else *seen_us is the oldest last_seen_us. */
bool bss_list_oldest(const struct bss_list *list, const uint8_t *keep, uint64_t *seen_us);
void bss_list_remove(struct bss_list *list, const uint8_t bssid[DRIVER_ADDR_LEN]);
void bss_list_clear(struct bss_list *list);

#endif
