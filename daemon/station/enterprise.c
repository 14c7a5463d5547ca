/* 802.1X on the station's link (WPA2/WPA3-Enterprise, AKMs 00-0F-AC:1 and
 * :5): the network's [EAP] profile, an 802.1X supplicant PAE
 * (daemon/rsn/pae_supp.h) on the link's EAPOL port, and the PMK it yields
 * handed to the 4-way handshake, which was started without one
 * (rsn_supp_set_pmk) and to the PMKSA cache, so a reconnect within the
 * PMK's lifetime offers its PMKID and skips EAP.
 *
 * An EAP failure is reported from an idle callback, not from inside the
 * PAE: the report tears the link down, PAE included. */
#define LOG_TAG "station"
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/pae_supp.h"
#include "daemon/rsn/pmksa.h"
#include "daemon/rsn/suites.h"
#include "daemon/rsn/supplicant.h"
#include "daemon/station/station_i.h"

/* EAP takes round trips to a RADIUS server: the watchdog waits this long
 * for EAP, then the usual handshake time for the 4-way. */
#define STATION_EAP_TIMEOUT_MS 30000
/* The AP starts EAP right after the association; EAPOL-Start only if not. */
#define STATION_EAPOL_START_DELAY_MS 1000

static void profile_from_conf(const struct eap_conf *c, struct eap_peer_profile *p)
{
	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < c->n_methods && i < EAP_PROFILE_METHODS_MAX; i++)
		p->methods[p->n_methods++] = c->methods[i];
	p->identity = c->identity;
	p->anonymous_identity = c->anonymous_identity;
	p->password = c->password;
	p->password_len = c->password ? strlen(c->password) : 0;
	p->phase2 = c->phase2[0] ? c->phase2 : NULL;
	p->phase2_eap = c->phase2_eap;
	p->tls = (struct eap_tls_policy){
		.ca_file = c->ca_file,
		.ca_dir = c->ca_dir,
		.ca_system = c->ca_system,
		.allow_unverified = c->allow_unverified,
		.server_name = c->server_name,
		.domain_suffix = c->domain_suffix,
		.min_version = c->tls_min,
		.max_version = c->tls_max,
		.client_cert = c->client_cert,
		.private_key = c->private_key,
		.key_passphrase = c->key_passphrase,
	};
}

void enterprise_clear(struct station *st)
{
	enterprise_stop(st);
	eap_conf_clear(&st->eap);
	crypto_zero(&st->eap_prof, sizeof(st->eap_prof));
	st->have_eap = false;
}

int station_set_eap_profile(struct station *st, const uint8_t *ssid, size_t ssid_len,
			    const struct eap_conf *conf)
{
	if (!st || ssid_len > sizeof(st->eap_given_ssid))
		return -EINVAL;
	/* A PMKSA is the server this profile verified: a changed profile (another
	 * CA, server name, identity) must run EAP again, as wpa_supplicant's
	 * RemoveNetwork drops a network block's PMKSAs. */
	if (conf && !(st->eap_given_ssid_len == ssid_len &&
		      memcmp(st->eap_given_ssid, ssid, ssid_len) == 0 &&
		      eap_conf_same(&st->eap_given, conf))) {
		char name[BSS_SSID_STR_MAX];
		size_t n = pmksa_cache_flush_network(st->pmksa, ssid, ssid_len);
		if (n)
			log_info("802.1X profile of '%s' changed: %zu cached PMKSA%s dropped",
				 bss_ssid_str(ssid, ssid_len, name, sizeof(name)), n,
				 n == 1 ? "" : "s");
	}
	eap_conf_clear(&st->eap_given);
	st->eap_given_ssid_len = 0;
	if (!conf)
		return 0;
	int r = eap_conf_copy(&st->eap_given, conf);
	if (r == 0) {
		memcpy(st->eap_given_ssid, ssid, ssid_len);
		st->eap_given_ssid_len = ssid_len;
	}
	return r;
}

/* The profile given for this network, else the store's [EAP]. */
static int profile_for(struct station *st, struct eap_conf *conf, struct cfg_error *ce)
{
	struct station_connect *c = &st->conn;
	if (st->eap_given_ssid_len && st->eap_given_ssid_len == c->ssid_len &&
	    memcmp(st->eap_given_ssid, c->ssid, c->ssid_len) == 0)
		return eap_conf_copy(conf, &st->eap_given) < 0
			       ? cfg_fail(ce, CFG_E_NOMEM, NULL, 0, "out of memory")
			       : 0;
	return known_get_eap(st->store, c->ssid, c->ssid_len, conf, ce);
}

int enterprise_load(struct station *st, struct wpad_error *err)
{
	struct station_connect *c = &st->conn;
	struct cfg_error ce = { 0 };
	struct eap_conf conf;
	char s[BSS_SSID_STR_MAX];

	bss_ssid_str(c->ssid, c->ssid_len, s, sizeof(s));
	int r = profile_for(st, &conf, &ce);
	if (r == -ENOENT)
		return wpad_error_set(err, WPAD_ERR_NOT_FOUND, ENOENT, -1, -1,
				      "'%s' is an 802.1X (WPA-Enterprise) network and no EAP "
				      "profile is known for it (a known network with an [EAP] "
				      "section: Method, Identity, ...)", s),
		       -ENOENT;
	if (r < 0)
		return wpad_error_set(err, WPAD_ERR_INVALID_FORMAT, EINVAL, -1, -1,
				      "the EAP profile of '%s' is not usable: %s", s, ce.msg),
		       -EINVAL;
	/* A method the profile names but this build lacks would only show
	 * later as a confusing refusal: say it now. */
	for (size_t i = 0; i < conf.n_methods; i++) {
		if (eap_peer_method_by_name(conf.methods[i]))
			continue;
		wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, EOPNOTSUPP, -1, -1,
			       "the EAP profile of '%s' names the method %s, which this build "
			       "of wpad does not run", s, conf.methods[i]);
		eap_conf_clear(&conf);
		return -EOPNOTSUPP;
	}
	enterprise_clear(st);
	st->eap = conf;
	profile_from_conf(&st->eap, &st->eap_prof);
	st->have_eap = true;
	return 0;
}

/* The user-facing error of a failed EAP attempt: one code per stage. */
static void eap_error(struct station *st, struct wpad_error *e)
{
	const char *detail = "";
	enum eap_peer_err err = pae_supp_error(st->pae, &detail);
	const struct eap_peer *peer = pae_supp_peer(st->pae);
	const char *method = peer ? eap_peer_method_name(peer) : NULL;
	enum wpad_error_code code = WPAD_ERR_AUTHENTICATION_FAILED;
	char a[18];

	st->eap_needs_user = err == EAP_PEER_ERR_INNER_REJECTED || err == EAP_PEER_ERR_CREDENTIALS ||
			     err == EAP_PEER_ERR_SERVER_UNTRUSTED || err == EAP_PEER_ERR_SERVER_NAME ||
			     err == EAP_PEER_ERR_METHOD_REFUSED ||
			     err == EAP_PEER_ERR_METHOD_UNAVAILABLE;
	switch (err) {
	case EAP_PEER_ERR_NO_RESPONSE:
		code = WPAD_ERR_TIMEOUT;
		break;
	case EAP_PEER_ERR_METHOD_REFUSED:
	case EAP_PEER_ERR_METHOD_UNAVAILABLE:
		code = WPAD_ERR_NOT_SUPPORTED;
		break;
	case EAP_PEER_ERR_CREDENTIALS:
		code = WPAD_ERR_NO_AGENT;
		break;
	case EAP_PEER_ERR_PROTOCOL:
		code = WPAD_ERR_FAILED;
		break;
	case EAP_PEER_ERR_NONE:
	case EAP_PEER_ERR_SERVER_UNTRUSTED:
	case EAP_PEER_ERR_SERVER_NAME:
	case EAP_PEER_ERR_TLS_ALERT:
	case EAP_PEER_ERR_INNER_REJECTED:
	case EAP_PEER_ERR_FAILURE:
		break;
	}
	wpad_error_set(e, code, 0, -1, WLAN_REASON_IEEE_802_1X_AUTH_FAILED,
		       "802.1X authentication with %s failed (%s%s%s): %s",
		       bss_addr_str(st->bssid, a), eap_peer_err_name(err), method ? ", " : "",
		       method ? method : "", detail[0] ? detail : "no detail");
}

static void eap_end(struct loop_idle *idle, void *data)
{
	struct station *st = data;
	struct wpad_error e = st->eap_err;
	bool retry = e.code == WPAD_ERR_TIMEOUT; /* another BSS may answer */

	station_teardown_link(st, WLAN_REASON_IEEE_802_1X_AUTH_FAILED);
	if (st->state == STATION_HANDSHAKING)
		sme_bss_failed(st, &e, retry);
	else if (st->state == STATION_CONNECTED)
		station_link_lost(st, &e);
}

/* The TLS version and server certificate of the attempt, kept after the
 * PAE goes (station_eap_tls_info). */
static void keep_tls_info(struct station *st)
{
	const struct eap_peer *peer = pae_supp_peer(st->pae);
	const struct eap_peer_tls_info *t = peer ? eap_peer_tls_info(peer) : NULL;
	if (t && t->version[0]) {
		st->eap_tls = *t;
		st->have_eap_tls = true;
	}
}

void station_eap_profile_replaced(struct station *st, const uint8_t *ssid, size_t ssid_len)
{
	if (st)
		pmksa_cache_flush_network(st->pmksa, ssid, ssid_len);
}

bool station_eap_needs_user(const struct station *st)
{
	return st && st->eap_user_failure;
}

bool station_eap_method_runs(const char *name)
{
	return eap_peer_method_by_name(name) != NULL;
}

const struct eap_peer_tls_info *station_eap_tls_info(const struct station *st)
{
	return st && st->have_eap_tls ? &st->eap_tls : NULL;
}

static void pae_result(void *ctx, enum eap_peer_result result)
{
	struct station *st = ctx;
	struct station_connect *c = &st->conn;
	uint8_t pmk[RSN_PMK_MAX_LEN];
	uint32_t akm = st->state == STATION_HANDSHAKING ? c->neg.akm : st->link_akm;

	keep_tls_info(st);

	if (result != EAP_PEER_SUCCESS) {
		eap_error(st, &st->eap_err);
		log_info("%s", st->eap_err.text);
		loop_idle_schedule(st->eap_end);
		return;
	}
	int n = pae_supp_pmk(st->pae, akm, pmk, sizeof(pmk));
	if (n < 0) {
		wpad_error_set(&st->eap_err, WPAD_ERR_NOT_SUPPORTED, -n, -1,
			       WLAN_REASON_IEEE_802_1X_AUTH_FAILED,
			       "EAP method %s exports no key for the 802.1X AKM %s",
			       eap_peer_method_name(pae_supp_peer(st->pae)), rsn_akm_name(akm));
		loop_idle_schedule(st->eap_end);
		return;
	}
	struct pmksa_add add = {
		.own_addr = st->addr, .peer_addr = st->bssid, .own_is_aa = false, .akm = akm,
		.network = st->ssid, .network_len = st->ssid_len,
		.pmk = pmk, .pmk_len = (size_t)n,
	};
	if (!pmksa_cache_add(st->pmksa, &add))
		log_warn("the PMKSA of this link could not be cached");
	/* Not the PMKID as "offered": we offered none, the AP names it. */
	int r = st->supp ? rsn_supp_set_pmk(st->supp, pmk, (size_t)n, NULL) : -ENOENT;
	crypto_zero(pmk, sizeof(pmk));
	if (r < 0)
		log_warn("the PMK from EAP could not be set: %s", strerror(-r));
	log_info("802.1X authentication with %s succeeded (%s)",
		 bss_addr_str(st->bssid, (char[18]){ 0 }),
		 eap_peer_method_name(pae_supp_peer(st->pae)));
	if (st->state == STATION_HANDSHAKING) {
		if (st->supp)
			rsn_supp_start(st->supp); /* now message 1 can be answered */
		station_arm_timer(st, STATION_HANDSHAKE_TIMEOUT_MS);
	}
}

static void pae_need_secret(void *ctx, enum eap_peer_secret which)
{
	struct station *st = ctx;
	log_info("the EAP profile has no %s: asking",
		 which == EAP_SECRET_PASSWORD ? "password" : "private key passphrase");
	if (st->cb.eap_secret)
		st->cb.eap_secret(st->cb.ctx, (int)which);
	else
		pae_supp_set_secret(st->pae, which, NULL); /* credentials error */
}

static const struct pae_supp_ops pae_ops = {
	.eap_result = pae_result,
	.need_secret = pae_need_secret,
};

int station_eap_secret(struct station *st, int which, const char *value)
{
	if (!st || (which != EAP_SECRET_PASSWORD && which != EAP_SECRET_KEY_PASSPHRASE))
		return -EINVAL;
	if (!st->pae)
		return -ENOENT;
	int r = pae_supp_set_secret(st->pae, (enum eap_peer_secret)which, value);
	return r == -EALREADY ? -ENOENT : r;
}

int enterprise_start(struct station *st, bool cached)
{
	if (!st->have_eap)
		return -ENOKEY;
	enterprise_stop(st);
	struct pae_supp_config cfg = { .first_start_delay_ms = STATION_EAPOL_START_DELAY_MS };
	st->eap_end = loop_idle_new(st->loop, eap_end, st);
	st->pae = st->eap_end ? pae_supp_new(st->loop, st->port, &cfg, &st->eap_prof, &pae_ops, st)
			      : NULL;
	if (!st->pae) {
		enterprise_stop(st);
		return -ENOMEM;
	}
	st->link_akm = st->conn.neg.akm;
	st->eap_needs_user = false;
	st->pae_enabled = !cached;
	if (!cached) {
		pae_supp_port_enabled(st->pae, true);
		station_arm_timer(st, STATION_EAP_TIMEOUT_MS);
	}
	return 0;
}

void enterprise_stop(struct station *st)
{
	pae_supp_free(st->pae);
	st->pae = NULL;
	loop_idle_free(st->eap_end);
	st->eap_end = NULL;
	st->pae_enabled = false;
}

bool enterprise_timed_out(struct station *st, struct wpad_error *e)
{
	char a[18];
	if (!st->pae || pae_supp_state(st->pae) == PAE_SUPP_AUTHENTICATED)
		return false;
	const struct eap_peer *peer = pae_supp_peer(st->pae);
	const char *method = peer ? eap_peer_method_name(peer) : NULL;
	wpad_error_set(e, WPAD_ERR_TIMEOUT, ETIMEDOUT, -1, -1,
		       "802.1X authentication with %s did not finish in %u s (%s%s)",
		       bss_addr_str(st->bssid, a), STATION_EAP_TIMEOUT_MS / 1000,
		       !peer ? "no EAP request from the access point"
		       : method ? "no-response during " : "no-response before a method ran",
		       peer && method ? method : "");
	return true;
}

bool enterprise_active(const struct station *st)
{
	return st->pae != NULL;
}

int enterprise_rx_eap(struct station *st, const struct eap_hdr_info *eap)
{
	if (!st->pae)
		return -ENOENT;
	if (!st->pae_enabled) {
		/* We offered a PMKSA and the AP starts EAP: it has none. */
		st->pae_enabled = true;
		pae_supp_port_enabled(st->pae, true);
		if (st->state == STATION_HANDSHAKING) {
			if (st->supp)
				rsn_supp_stop(st->supp); /* waits for EAP's PMK now */
			station_arm_timer(st, STATION_EAP_TIMEOUT_MS);
		}
	}
	return pae_supp_rx_eap(st->pae, eap);
}
