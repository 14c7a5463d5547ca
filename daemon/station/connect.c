/* One connect attempt, from the request to the first BSS: which network,
 * which credentials, and whether to scan first (fast connect: no scan when
 * the network was heard recently; else the remembered frequencies of a known
 * network before every channel). Then BSS after BSS until one works or the
 * bound is reached; connect_finish() reports the outcome. */
#define LOG_TAG "station"
#include "daemon/codec/codec_err.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/kde.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/kdf.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/pmksa.h"
#include "daemon/rsn/suites.h"
#include "daemon/station/station_i.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *conn_ssid_str(const struct station *st, char *buf, size_t cap)
{
	return bss_ssid_str(st->conn.ssid, st->conn.ssid_len, buf, cap);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The PSK of a checked passphrase: PBKDF2 of 8..63 characters, or the 64
 * hex digits of a raw PSK. */
static int psk_from_passphrase(const char *pass, const uint8_t *ssid, size_t ssid_len,
			       uint8_t psk[STATION_PSK_LEN])
{
	if (strlen(pass) == 2 * STATION_PSK_LEN) {
		for (size_t i = 0; i < STATION_PSK_LEN; i++)
			psk[i] = (uint8_t)(hexval(pass[2 * i]) << 4 | hexval(pass[2 * i + 1]));
		return 0;
	}
	return crypto_psk_from_passphrase(pass, ssid, ssid_len, psk);
}

void connect_reset(struct station *st)
{
	if (st->kickoff)
		loop_idle_cancel(st->kickoff);
	sme_auth_free(st);
	crypto_zero(&st->conn, sizeof(st->conn));
	st->conn.phase = CONNECT_IDLE;
}

static const struct station_network *conn_network(struct station *st)
{
	const struct station_connect *c = &st->conn;
	const struct station_network *n;

	station_networks_refresh(st);
	if (!c->security_set)
		return network_list_find_ssid(&st->nets, c->ssid, c->ssid_len);
	/* A passphrase also fits a WPA3-only network; it never leads to an
	 * open network of the same name, which would be a downgrade anyone
	 * can stage. */
	n = network_list_find_known(&st->nets, c->ssid, c->ssid_len, c->security);
	return n;
}

static uint16_t negotiate_bss(struct station *st, const struct station_bss *b,
			      struct rsn_negotiated *out);

/* SAE needs the passphrase itself; a raw PSK (64 hex digits) is no SAE
 * password. */
static bool sae_password_known(const struct station_connect *c)
{
	size_t n = strlen(c->passphrase);
	return n > 0 && n != 2 * STATION_PSK_LEN;
}

/* The stored credentials of a passphrase network, where the request gave
 * none: the PSK, and the passphrase for SAE. */
static void fetch_credentials(struct station *st)
{
	struct station_connect *c = &st->conn;
	struct station_known k;

	if ((c->have_psk || c->psk_from_user) && c->passphrase[0])
		return;
	if (known_get(st->store, c->ssid, c->ssid_len, BSS_SECURITY_PSK, true, &k)) {
		if (!c->have_psk && k.have_psk) {
			memcpy(c->psk, k.psk, sizeof(c->psk));
			c->have_psk = true;
		}
		if (!c->passphrase[0] && k.have_passphrase)
			snprintf(c->passphrase, sizeof(c->passphrase), "%s", k.passphrase);
	}
	known_wipe(&k);
}

/* Without an SAE password the SAE AKMs are out of the policy: a
 * transition network is then joined with PSK. */
static void limit_akms(struct station_connect *c)
{
	uint32_t sae = RSN_SUITE_BIT(RSN_AKM_SAE) | RSN_SUITE_BIT(RSN_AKM_FT_SAE) |
		       RSN_SUITE_BIT(RSN_AKM_SAE_EXT_KEY) | RSN_SUITE_BIT(RSN_AKM_FT_SAE_EXT_KEY);
	if (sae_password_known(c))
		return;
	c->policy.akms = (c->policy.akms ? c->policy.akms : rsn_akms_implemented()) & ~sae;
	if (!c->policy.akms)
		c->policy.akms = RSN_SUITE_BIT(RSN_AKM_PSK); /* never "every AKM" by accident */
}

/* Settles security and credentials once the network is in view. Returns 0
 * or fills err. */
static int resolve_credentials(struct station *st, const struct station_network *n,
			       struct wpad_error *err)
{
	struct station_connect *c = &st->conn;
	char s[BSS_SSID_STR_MAX];
	bool personal = n->security == BSS_SECURITY_PSK || n->security == BSS_SECURITY_SAE;

	c->security = n->security;
	c->security_set = true;
	if (personal) {
		fetch_credentials(st);
		limit_akms(c);
	}
	struct rsn_negotiated neg;
	if (n->support != BSS_OK && n->n_bss && n->bss[0]->has_rsn &&
	    negotiate_bss(st, n->bss[0], &neg) != WLAN_STATUS_SUCCESS)
		return wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, 0, c->refusal_status, -1,
				      "cannot connect to '%s' (%s): %s",
				      conn_ssid_str(st, s, sizeof(s)),
				      bss_security_name(n->security), c->refusal),
		       -EOPNOTSUPP;
	if (n->support != BSS_OK)
		return wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, 0, -1, -1,
				      "cannot connect to '%s' (%s): %s",
				      conn_ssid_str(st, s, sizeof(s)),
				      bss_security_name(n->security), bss_support_text(n->support)),
		       -EOPNOTSUPP;
	if (n->security == BSS_SECURITY_8021X)
		return enterprise_load(st, err);
	if ((n->security == BSS_SECURITY_PSK && !c->have_psk && !c->passphrase[0]) ||
	    (n->security == BSS_SECURITY_SAE && !sae_password_known(c)))
		return wpad_error_set(err, WPAD_ERR_NO_AGENT, 0, -1, -1,
				      "'%s' needs a passphrase and none was given or stored",
				      conn_ssid_str(st, s, sizeof(s))),
		       -ENOKEY;
	return 0;
}

static int request_scan(struct station *st, enum connect_phase phase)
{
	struct station_connect *c = &st->conn;
	struct scan_request req = { .purpose = SCAN_FOR_CONNECT, .n_ssids = c->hidden ? 1 : 0 };

	if (phase == CONNECT_SCAN_KNOWN_FREQS) {
		req.n_freqs = c->n_known_freqs;
		memcpy(req.freqs, c->known_freqs, c->n_known_freqs * sizeof(req.freqs[0]));
		/* Ask for it by name: its answer is what we wait for. */
		req.n_ssids = 1;
		req.active_dwell_ms = STATION_KNOWN_FREQ_DWELL_MS;
	}
	req.ssids[0].len = c->ssid_len;
	memcpy(req.ssids[0].ssid, c->ssid, c->ssid_len);
	c->phase = phase;
	if (phase == CONNECT_SCAN_FULL)
		c->full_scans++;
	station_enter_state(st, STATION_SCANNING);
	return scan_request(st, &req);
}

static void fail_with_errno(struct station *st, int ret, const char *what)
{
	struct wpad_error e;
	wpad_error_set(&e, wpad_error_code_from_errno(ret), ret, -1, -1, "%s: %s", what,
		       strerror(-ret));
	connect_finish(st, &e);
}

/* The network is in view: go through its BSSes. */
static void connect_run(struct station *st, const struct station_network *n)
{
	struct wpad_error e;

	wpad_error_clear(&e);
	if (resolve_credentials(st, n, &e) < 0) {
		connect_finish(st, &e);
		return;
	}
	st->conn.phase = CONNECT_RUNNING;
	connect_next_bss(st);
}

void connect_kickoff(struct loop_idle *idle, void *data)
{
	struct station *st = data;
	struct station_connect *c = &st->conn;
	uint64_t fresh_us = (uint64_t)STATION_FRESH_SCAN_MS * 1000u;

	(void)idle;
	if (!c->kickoff_pending)
		return;
	c->kickoff_pending = false;
	const struct station_network *n = conn_network(st);
	uint64_t now = loop_now_us(st->loop);
	uint64_t recent = now > fresh_us ? now - fresh_us : 0;
	if (c->min_seen_us < recent) /* autoconnect may have asked for stricter */
		c->min_seen_us = recent;
	if (n && n->last_seen_us >= c->min_seen_us) {
		connect_run(st, n);
		return;
	}
	int ret = request_scan(st, c->n_known_freqs ? CONNECT_SCAN_KNOWN_FREQS : CONNECT_SCAN_FULL);
	if (ret < 0)
		fail_with_errno(st, ret, "scan failed");
}

bool connect_target_heard(struct station *st, uint64_t since)
{
	if (st->conn.phase != CONNECT_SCAN_KNOWN_FREQS && st->conn.phase != CONNECT_SCAN_FULL)
		return false;
	const struct station_network *n = conn_network(st);
	return n && n->last_seen_us >= since;
}

static bool hidden_bss_heard(struct station *st)
{
	for (size_t i = 0; i < bss_list_count(st->bss); i++) {
		const struct station_bss *b = bss_list_at(st->bss, i);
		if (b->hidden && b->last_seen_us >= st->conn.min_seen_us)
			return true;
	}
	return false;
}

void connect_scan_done(struct station *st)
{
	struct station_connect *c = &st->conn;
	char s[BSS_SSID_STR_MAX];

	if (c->phase == CONNECT_SCAN_OWE) {
		c->phase = CONNECT_RUNNING;
		c->min_seen_us = st->scan.last_started_us;
		connect_next_bss(st);
		return;
	}
	if (c->phase != CONNECT_SCAN_KNOWN_FREQS && c->phase != CONNECT_SCAN_FULL)
		return;
	/* Heard in this scan, not merely remembered by the driver. */
	c->min_seen_us = st->scan.last_started_us;
	const struct station_network *n = conn_network(st);
	if (n && n->last_seen_us >= c->min_seen_us) {
		connect_run(st, n);
		return;
	}
	if (c->phase == CONNECT_SCAN_KNOWN_FREQS || c->full_scans < STATION_CONNECT_FULL_SCANS) {
		/* A probe response lost on a busy channel should not decide
		 * NotFound: every channel is scanned twice before that. */
		log_info("'%s' not heard %s; scanning every channel", conn_ssid_str(st, s, sizeof(s)),
			 c->phase == CONNECT_SCAN_KNOWN_FREQS ? "on its known frequencies" : "yet");
		int ret = request_scan(st, CONNECT_SCAN_FULL);
		if (ret < 0)
			fail_with_errno(st, ret, "scan failed");
		return;
	}
	struct wpad_error e;
	wpad_error_set(&e, WPAD_ERR_NOT_FOUND, 0, -1, -1,
		       "network '%s' not found: no access point answered on any channel in two scans%s",
		       conn_ssid_str(st, s, sizeof(s)),
		       !c->hidden && hidden_bss_heard(st)
			       ? " (hidden networks are in range: connect to it as a hidden network)"
			       : "");
	connect_finish(st, &e);
}

/* The driver's ciphers; without its capabilities, CCMP-128 alone. */
static uint32_t driver_ciphers(const struct station *st)
{
	return st->have_capa ? st->capa.ciphers : DRIVER_CIPHER_CCMP_128;
}

/* Negotiates with a BSS under the network's policy (daemon/rsn/negotiate.h).
 * Open networks have nothing to negotiate. A refusal is explained in
 * c->refusal: what the network offers and why it cannot be joined. */
static uint16_t negotiate_bss(struct station *st, const struct station_bss *b,
			      struct rsn_negotiated *out)
{
	struct station_connect *c = &st->conn;
	struct ie_rsn rsn;
	char offer[160], a[18];

	*out = (struct rsn_negotiated){ 0 };
	if (!b->has_rsn)
		return WLAN_STATUS_SUCCESS;
	if (b->rsne_len < 2 || ie_parse_rsn(b->rsne + 2, b->rsne_len - 2, &rsn) != CODEC_OK) {
		snprintf(c->refusal, sizeof(c->refusal), "%s: its RSN element does not parse",
			 bss_addr_str(b->bssid, a));
		return WLAN_STATUS_INVALID_RSNIE;
	}
	uint16_t status = rsn_negotiate(RSN_ROLE_STATION, &c->policy, driver_ciphers(st), &rsn,
					b->rsnxe_len != 0, out);
	uint64_t left = rsn_mic_cm_remaining_us(&st->mic_cm, loop_now_us(st->loop));
	if (!status && out->group == RSN_CIPHER_TKIP && left) {
		snprintf(c->refusal, sizeof(c->refusal),
			 "%s uses TKIP and TKIP countermeasures (two MIC failures) refuse TKIP "
			 "networks for %llu more s",
			 bss_addr_str(b->bssid, a), (unsigned long long)(left / 1000000 + 1));
		c->refusal_status = WLAN_STATUS_CIPHER_REJECTED_PER_POLICY;
		return WLAN_STATUS_CIPHER_REJECTED_PER_POLICY;
	}
	c->refusal_status = status;
	if (status)
		snprintf(c->refusal, sizeof(c->refusal), "%s offers %s; %s (status %u)",
			 bss_addr_str(b->bssid, a), rsn_describe(&rsn, offer, sizeof(offer)),
			 out->why, status);
	return status;
}

static bool tried(const struct station_connect *c, const uint8_t *bssid)
{
	for (size_t i = 0; i < c->n_tried; i++)
		if (memcmp(c->tried[i], bssid, DRIVER_ADDR_LEN) == 0)
			return true;
	return false;
}

static const struct station_bss *pick_bss(struct station *st, const struct station_network *n,
					  enum bss_support *why_not)
{
	*why_not = BSS_OK;
	for (size_t i = 0; i < n->n_bss; i++) {
		const struct station_bss *b = n->bss[i];
		if (tried(&st->conn, b->bssid) || b->last_seen_us < st->conn.min_seen_us)
			continue;
		if (b->support != BSS_OK && !b->has_rsn) {
			*why_not = b->support;
			continue;
		}
		struct rsn_negotiated neg;
		uint16_t status = negotiate_bss(st, b, &neg);
		if (status) {
			*why_not = bss_support_from_status(status);
			log_info("not joining %s", st->conn.refusal);
			continue;
		}
		return b;
	}
	return NULL;
}

static void fail_no_bss(struct station *st, enum bss_support why_not)
{
	struct station_connect *c = &st->conn;
	struct wpad_error e;
	char s[BSS_SSID_STR_MAX];

	if (c->have_err) {
		e = c->last_err;
	} else if (why_not != BSS_OK && c->refusal[0]) {
		wpad_error_set(&e, WPAD_ERR_NOT_SUPPORTED, 0, c->refusal_status, -1,
			       "cannot connect to '%s': %s", conn_ssid_str(st, s, sizeof(s)),
			       c->refusal);
	} else if (why_not != BSS_OK) {
		wpad_error_set(&e, WPAD_ERR_NOT_SUPPORTED, 0, -1, -1, "cannot connect to '%s': %s",
			       conn_ssid_str(st, s, sizeof(s)), bss_support_text(why_not));
	} else {
		wpad_error_set(&e, WPAD_ERR_NOT_FOUND, 0, -1, -1,
			       "network '%s' has no access point in range",
			       conn_ssid_str(st, s, sizeof(s)));
	}
	connect_finish(st, &e);
}

/* The OWE twin an open BSS names, when heard under that SSID since the
 * connect's scan and joinable with our policy. */
static const struct station_bss *owe_twin(struct station *st, const struct station_bss *open)
{
	const struct station_bss *t = bss_list_find(st->bss, open->owe_bssid);
	struct rsn_negotiated neg;
	if (!t || t->security != BSS_SECURITY_OWE || t->ssid_len != open->owe_ssid_len ||
	    memcmp(t->ssid, open->owe_ssid, t->ssid_len) != 0 ||
	    t->last_seen_us < st->conn.min_seen_us)
		return NULL;
	return negotiate_bss(st, t, &neg) == WLAN_STATUS_SUCCESS ? t : NULL;
}

/* Probes for the twin by its SSID (it is usually hidden: its beacons
 * carry no SSID, and a driver joins only a BSS whose SSID it has seen). */
static int probe_owe_twin(struct station *st, const struct station_bss *open)
{
	struct station_connect *c = &st->conn;
	struct scan_request req = { .purpose = SCAN_FOR_CONNECT, .n_freqs = 1, .n_ssids = 1 };
	char s[BSS_SSID_STR_MAX];

	req.freqs[0] = open->owe_freq_mhz ? open->owe_freq_mhz : open->freq_mhz;
	memcpy(req.ssids[0].ssid, open->owe_ssid, open->owe_ssid_len);
	req.ssids[0].len = open->owe_ssid_len;
	c->owe_probed = true;
	c->phase = CONNECT_SCAN_OWE;
	log_info("'%s' is the open side of an OWE transition pair: probing for '%s' on %u MHz",
		 conn_ssid_str(st, s, sizeof(s)),
		 bss_ssid_str(open->owe_ssid, open->owe_ssid_len, (char[BSS_SSID_STR_MAX]){ 0 },
			      BSS_SSID_STR_MAX),
		 req.freqs[0]);
	station_enter_state(st, STATION_SCANNING);
	return scan_request(st, &req);
}

/* An open BSS in OWE transition mode gives way to its OWE twin
 * (WFA OWE Specification v1.1 2.3): returns the BSS to join, or NULL
 * when a probe for the twin was started. */
static const struct station_bss *prefer_owe(struct station *st, const struct station_bss *b)
{
	struct station_connect *c = &st->conn;
	char a[18];

	c->via_owe = false;
	if (!b->owe_trans)
		return b;
	const struct station_bss *t = owe_twin(st, b);
	if (t) {
		log_info("joining %s, the OWE side of %s", bss_addr_str(t->bssid, a),
			 bss_addr_str(b->bssid, (char[18]){ 0 }));
		c->via_owe = true;
		return t;
	}
	if (!c->owe_probed) {
		int ret = probe_owe_twin(st, b);
		if (ret == 0)
			return NULL;
		log_info("probing for the OWE side failed: %s", strerror(-ret));
	}
	log_info("the OWE side of %s is not in range; joining it unencrypted",
		 bss_addr_str(b->bssid, a));
	return b;
}

/* The PSK, stretched from the passphrase (PBKDF2) only once an AKM that
 * needs it is negotiated: an SAE connect never pays for it (4096 x 2
 * HMAC-SHA-1, more CPU than SAE's own arithmetic). A stored passphrase is
 * stretched by the store, which keeps the result. Returns 0, or ends the
 * connect and returns < 0. */
static int derive_psk(struct station *st)
{
	struct station_connect *c = &st->conn;
	const struct rsn_akm_info *a = rsn_akm_info(c->neg.akm);
	struct wpad_error e;

	if (c->have_psk || !c->passphrase[0] || !a || a->family != RSN_AKM_FAMILY_PSK)
		return 0;
	int ret = -ENOENT;
	if (!c->psk_from_user)
		ret = known_psk(st->store, c->ssid, c->ssid_len, c->psk);
	if (ret < 0)
		ret = psk_from_passphrase(c->passphrase, c->ssid, c->ssid_len, c->psk);
	if (ret < 0) {
		wpad_error_set(&e, WPAD_ERR_FAILED, ret, -1, -1, "deriving the PSK failed: %s",
			       strerror(-ret));
		connect_finish(st, &e);
		return ret;
	}
	c->have_psk = true;
	return 0;
}

void connect_next_bss(struct station *st)
{
	struct station_connect *c = &st->conn;
	enum bss_support why_not = BSS_OK;
	const struct station_network *n = conn_network(st);
	const struct station_bss *b = NULL;

	if (n && c->n_tried < STATION_MAX_BSS_TRIES)
		b = pick_bss(st, n, &why_not);
	if (!b) {
		fail_no_bss(st, why_not);
		return;
	}
	const struct station_bss *open = b;
	if (!(b = prefer_owe(st, b)))
		return; /* connect_scan_done() comes back here */
	c->bss = *b;
	negotiate_bss(st, &c->bss, &c->neg); /* its PMKIDs point into c->bss */
	memcpy(c->tried[c->n_tried++], open->bssid, DRIVER_ADDR_LEN);
	c->auth_tries = c->assoc_tries = 0;
	if (derive_psk(st) < 0)
		return;
	sme_start(st);
}

/* ---- starting and ending ---- */

static int check_request(struct station *st, const uint8_t *ssid, size_t ssid_len,
			 const char *passphrase, struct wpad_error *err)
{
	if (!ssid || ssid_len == 0 || ssid_len > BSS_SSID_MAX)
		return wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1,
				      "an SSID is 1 to 32 octets, not %zu", ssid_len),
		       -EINVAL;
	if (passphrase && station_passphrase_check(passphrase) < 0)
		return wpad_error_set(err, WPAD_ERR_INVALID_FORMAT, 0, -1, -1,
				      "a passphrase is 8 to 63 printable ASCII characters, or "
				      "64 hexadecimal digits"),
		       -EINVAL;
	if (st->have_capa && !(st->capa.flags & DRIVER_CAPA_USER_SME))
		return wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, 0, -1, -1,
				      "the driver %s does not support user-space SME",
				      driver_name(st->drv)),
		       -EOPNOTSUPP;
	return 0;
}

/* Whatever the station is doing gives way to a new connect. */
static int preempt(struct station *st, const uint8_t *ssid, size_t ssid_len,
		   struct wpad_error *err)
{
	struct wpad_error why;
	char s[BSS_SSID_STR_MAX];

	bss_ssid_str(ssid, ssid_len, s, sizeof(s));
	if (st->state == STATION_CONNECTED && st->ssid_len == ssid_len &&
	    memcmp(st->ssid, ssid, ssid_len) == 0)
		return wpad_error_set(err, WPAD_ERR_ALREADY_EXISTS, 0, -1, -1,
				      "already connected to '%s'", s),
		       -EALREADY;
	wpad_error_set(&why, WPAD_ERR_ABORTED, 0, -1, -1, "superseded by a connect to '%s'", s);
	if (st->conn.phase != CONNECT_IDLE) {
		connect_finish(st, &why);
	} else if (st->state == STATION_CONNECTED) {
		station_teardown_link(st, WLAN_REASON_DEAUTH_LEAVING);
		station_enter_state(st, STATION_DISCONNECTED);
		if (st->cb.disconnected)
			st->cb.disconnected(st->cb.ctx, &why);
	}
	if (st->state != STATION_DISCONNECTED)
		station_enter_state(st, STATION_DISCONNECTED);
	return 0;
}

/* What the store remembers: security, PSK, frequencies, hidden. */
static void load_known(struct station *st)
{
	static const enum bss_security order[] = { BSS_SECURITY_PSK, BSS_SECURITY_8021X,
						   BSS_SECURITY_OPEN };
	struct station_connect *c = &st->conn;
	struct station_known k;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (c->security_set && c->security != order[i])
			continue;
		bool want_psk = !c->have_psk && !c->psk_from_user;
		if (!known_get(st->store, c->ssid, c->ssid_len, order[i], want_psk, &k))
			continue;
		c->security = order[i];
		c->security_set = true;
		c->hidden = c->hidden || k.hidden;
		c->policy = k.policy;
		snprintf(c->sae_pwe, sizeof(c->sae_pwe), "%s", k.sae_pwe);
		c->n_known_freqs = k.n_freqs;
		memcpy(c->known_freqs, k.freqs, k.n_freqs * sizeof(k.freqs[0]));
		if (want_psk && k.have_psk) {
			memcpy(c->psk, k.psk, sizeof(c->psk));
			c->have_psk = true;
		}
		known_wipe(&k);
		return;
	}
}

int connect_start(struct station *st, const uint8_t *ssid, size_t ssid_len,
		  const char *passphrase, bool hidden, bool autoconnect,
		  struct wpad_error *err)
{
	struct station_connect *c = &st->conn;
	int ret = check_request(st, ssid, ssid_len, passphrase, err);

	if (ret == 0)
		ret = preempt(st, ssid, ssid_len, err);
	if (ret < 0)
		return ret;
	connect_reset(st);
	memcpy(c->ssid, ssid, ssid_len);
	c->ssid_len = (uint8_t)ssid_len;
	c->hidden = hidden;
	c->autoconnect = autoconnect;
	c->policy = (struct rsn_policy){ .pmf = RSN_PMF_OPTIONAL };
	c->started_us = loop_now_us(st->loop);
	if (passphrase) {
		snprintf(c->passphrase, sizeof(c->passphrase), "%s", passphrase);
		c->psk_from_user = true;
		/* A raw PSK is ready; a passphrase's PBKDF2 waits for a PSK AKM. */
		if (strlen(passphrase) == 2 * STATION_PSK_LEN)
			c->have_psk = psk_from_passphrase(passphrase, ssid, ssid_len, c->psk) == 0;
		c->security = BSS_SECURITY_PSK;
		c->security_set = true;
		/* A credential given anew may differ from the one the cached
		 * PMKSAs (SAE) of this network came from. */
		pmksa_cache_flush_network(st->pmksa, ssid, ssid_len);
	}
	load_known(st);
	if (!autoconnect) {
		autoconnect_unblock(st, ssid, ssid_len);
		st->ac.enabled = st->store != NULL;
		autoconnect_stop(st);
	}
	c->phase = CONNECT_STARTING;
	c->kickoff_pending = true;
	loop_idle_schedule(st->kickoff);
	return 0;
}

static void finish_success(struct station *st)
{
	struct station_connect *c = &st->conn;
	char a[18], s[BSS_SSID_STR_MAX];

	st->connect_time_ms = (loop_now_us(st->loop) - c->started_us) / 1000u;
	st->eap_user_failure = false;
	memcpy(st->ssid, c->ssid, c->ssid_len);
	st->ssid_len = c->ssid_len;
	/* The open side of an OWE transition pair is joined encrypted. */
	st->security = c->neg.akm == RSN_AKM_OWE ? BSS_SECURITY_OWE : c->security;
	log_info("connected to '%s' via %s on %u MHz, signal %d dBm (%llu ms)",
		 conn_ssid_str(st, s, sizeof(s)), bss_addr_str(st->bssid, a), st->freq_mhz,
		 st->signal_mbm / 100, (unsigned long long)st->connect_time_ms);
	st->nets_dirty = true; /* the network is known now */
	int ret = known_connected(st->store, c->ssid, c->ssid_len, c->security, c->hidden,
				  c->psk_from_user ? c->passphrase : NULL,
				  c->have_psk ? c->psk : NULL, st->freq_mhz);
	if (ret < 0 && ret != -ENOENT)
		log_warn("could not remember '%s': %s", s, strerror(-ret));
	/* Transition Disable (WPA3-Personal) on an SAE link: never PSK again. */
	if ((c->transition_disable & KDE_TD_WPA3_PERSONAL) && c->neg.akm == RSN_AKM_SAE &&
	    (ret = known_transition_disable(st->store, c->ssid, c->ssid_len)) < 0 &&
	    ret != -ENOENT)
		log_warn("could not remember transition disable for '%s': %s", s, strerror(-ret));
	connect_reset(st); /* the handshake machine stays, for rekeys */
	station_set_error(st, NULL);
	station_enter_state(st, STATION_CONNECTED);
	autoconnect_connected(st);
	if (st->cb.connect_done)
		st->cb.connect_done(st->cb.ctx, NULL);
}

void connect_finish(struct station *st, const struct wpad_error *err)
{
	struct wpad_error e;
	bool was_auto = st->conn.autoconnect;
	char s[BSS_SSID_STR_MAX];

	station_disarm_timer(st);
	if (!err) {
		finish_success(st);
		return;
	}
	e = *err;
	log_info("connect to '%s' failed: %s: %s", conn_ssid_str(st, s, sizeof(s)),
		 wpad_error_name(e.code), e.text);
	station_teardown_link(st, WLAN_REASON_DEAUTH_LEAVING);
	if (e.code == WPAD_ERR_INVALID_PASSPHRASE || st->eap_needs_user)
		autoconnect_block(st, st->conn.ssid, st->conn.ssid_len);
	st->eap_user_failure = st->eap_needs_user;
	st->eap_needs_user = false;
	connect_reset(st);
	station_set_error(st, &e);
	station_enter_state(st, STATION_DISCONNECTED);
	if (st->cb.connect_done)
		st->cb.connect_done(st->cb.ctx, &e);
	if (was_auto)
		autoconnect_failed(st, &e);
	else if (e.code != WPAD_ERR_ABORTED)
		autoconnect_kick(st);
}
