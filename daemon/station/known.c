/* The known-network store (daemon/store) seen through what the station
 * needs; every function accepts a NULL store (no known networks). */
#define LOG_TAG "station"
#include "daemon/core/log.h"
#include "daemon/crypto/secure.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/suites.h"
#include "daemon/station/station_i.h"
#include "daemon/store/known_store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The store keeps open, PSK and 802.1X networks; a WPA3 transition network
 * is a PSK one (as in iwd). */
static bool to_known(enum bss_security sec, enum known_security *out)
{
	switch (sec) {
	case BSS_SECURITY_OPEN:
	case BSS_SECURITY_OWE: /* no credential: kept as open (as iwd does) */
		*out = KNOWN_SEC_OPEN;
		return true;
	case BSS_SECURITY_PSK:
	case BSS_SECURITY_SAE: /* a passphrase network, WPA3 or not */
		*out = KNOWN_SEC_PSK;
		return true;
	case BSS_SECURITY_8021X:
		*out = KNOWN_SEC_8021X;
		return true;
	case BSS_SECURITY_WEP:
	case BSS_SECURITY_COUNT:
		return false;
	}
	return false;
}

static enum bss_security from_known(enum known_security sec)
{
	switch (sec) {
	case KNOWN_SEC_OPEN:
		return BSS_SECURITY_OPEN;
	case KNOWN_SEC_PSK:
		return BSS_SECURITY_PSK;
	case KNOWN_SEC_8021X:
		return BSS_SECURITY_8021X;
	}
	return BSS_SECURITY_8021X;
}

/* "psk psk-sha256" into a mask of the names the lookup knows; an unknown
 * name is logged and skipped (the file stays as the user wrote it). */
static uint32_t names_mask(const char *list, uint32_t (*lookup)(const char *), const char *what)
{
	char buf[128], *save = NULL;
	uint32_t m = 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
		uint32_t bit = RSN_SUITE_BIT(lookup(t));
		if (!bit)
			log_warn("known network: unknown %s '%s' ignored", what, t);
		m |= bit;
	}
	return m;
}

/* The network's security policy from its file; unset parts keep the
 * station defaults (PMF optional, every implemented AKM and cipher). */
static void fill_policy(struct rsn_policy *p, const struct known_network *net)
{
	*p = (struct rsn_policy){ .pmf = RSN_PMF_OPTIONAL };
	if (net->pmf[0] && rsn_pmf_from_name(net->pmf, &p->pmf) < 0)
		p->pmf = RSN_PMF_OPTIONAL;
	if (net->akms[0])
		p->akms = names_mask(net->akms, rsn_akm_from_name, "AKM");
	if (net->ciphers[0]) {
		uint32_t c = names_mask(net->ciphers, rsn_cipher_from_name, "cipher");
		p->pairwise = c & ~RSN_SUITE_BIT(RSN_CIPHER_TKIP);
		p->group = c;
	}
}

static void fill(struct station_known *out, const struct known_network *net)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->ssid, net->ssid, net->ssid_len);
	out->ssid_len = (uint8_t)net->ssid_len;
	out->security = from_known(net->security);
	out->autoconnect = net->autoconnect;
	out->hidden = net->hidden;
	fill_policy(&out->policy, net);
	snprintf(out->sae_pwe, sizeof(out->sae_pwe), "%s", net->sae_pwe);
	out->last_connected = net->last_connected;
	out->n_freqs = net->n_freqs < STATION_KNOWN_MAX_FREQS ? net->n_freqs
							      : STATION_KNOWN_MAX_FREQS;
	memcpy(out->freqs, net->freqs, out->n_freqs * sizeof(out->freqs[0]));
}

bool known_get(struct known_store *store, const uint8_t *ssid, size_t ssid_len,
	       enum bss_security security, bool want_psk, struct station_known *out)
{
	enum known_security ks;

	memset(out, 0, sizeof(*out));
	if (!store || !to_known(security, &ks))
		return false;
	struct known_network *net = known_store_get(store, ssid, ssid_len, ks);
	if (!net)
		return false;
	fill(out, net);
	if (want_psk && ks == KNOWN_SEC_PSK) {
		out->have_psk = net->psk_valid && known_store_get_psk(store, net, out->psk) == 0;
		out->have_passphrase = net->has_passphrase;
		if (net->has_passphrase)
			snprintf(out->passphrase, sizeof(out->passphrase), "%s", net->passphrase);
	}
	return true;
}

int known_psk(struct known_store *store, const uint8_t *ssid, size_t ssid_len,
	      uint8_t psk[STATION_PSK_LEN])
{
	struct known_network *net =
		store ? known_store_get(store, ssid, ssid_len, KNOWN_SEC_PSK) : NULL;
	return net ? known_store_get_psk(store, net, psk) : -ENOENT;
}

static bool has_eap_section(const struct known_network *net)
{
	for (size_t i = 0; i < net->n_extras; i++)
		if (strcmp(net->extras[i].section, "EAP") == 0)
			return true;
	return false;
}

size_t known_autoconnect_list(struct known_store *store, struct station_known *out, size_t max)
{
	struct known_network **list = NULL;
	size_t n = 0, kept = 0;

	if (!store || known_store_list(store, &list, &n) < 0)
		return 0;
	for (size_t i = 0; i < n && kept < max; i++) {
		/* An 802.1X network only with its EAP profile: without one every
		 * attempt would fail the same way. */
		if (!list[i]->autoconnect ||
		    (list[i]->security == KNOWN_SEC_8021X && !has_eap_section(list[i])))
			continue;
		fill(&out[kept++], list[i]);
	}
	free(list);
	return kept;
}

/* Sets the credentials the user gave on a copy of the network. */
static int set_credentials(struct known_network *net, const char *passphrase,
			   const uint8_t psk[STATION_PSK_LEN])
{
	/* A checked passphrase of 64 characters is the hex of a raw PSK. */
	if (strlen(passphrase) == 2 * STATION_PSK_LEN) {
		if (!psk)
			return -EINVAL;
		known_network_set_psk(net, psk);
		return 0;
	}
	int ret = known_network_set_passphrase(net, passphrase);
	if (ret == 0 && psk) { /* stretched for this connect: keep the PBKDF2 result */
		memcpy(net->psk, psk, STATION_PSK_LEN);
		net->psk_valid = true;
	}
	return ret;
}

int known_connected(struct known_store *store, const uint8_t *ssid, size_t ssid_len,
		    enum bss_security security, bool hidden, const char *passphrase,
		    const uint8_t psk[STATION_PSK_LEN], uint32_t freq)
{
	enum known_security ks;
	struct known_network copy;

	if (!store || !to_known(security, &ks))
		return -ENOENT;
	struct known_network *net = known_store_get(store, ssid, ssid_len, ks);
	/* Hidden is learnt, never unlearnt: a network found only by a
	 * directed probe is probed for from then on (autoconnect too). */
	if (net && !(passphrase && ks == KNOWN_SEC_PSK) && (net->hidden || !hidden))
		return known_store_touch_connected(store, net, freq, 0);
	if (net) {
		if (known_network_copy(&copy, net) < 0)
			return -ENOMEM;
	} else {
		known_network_init(&copy, ssid, ssid_len, ks);
	}
	int ret = 0;
	copy.hidden = copy.hidden || hidden;
	if (ks == KNOWN_SEC_PSK && passphrase)
		ret = set_credentials(&copy, passphrase, psk);
	if (ret == 0) {
		known_network_touch(&copy, freq, (uint64_t)time(NULL));
		ret = known_store_save(store, &copy, NULL);
	}
	known_network_clear(&copy);
	return ret;
}

int known_transition_disable(struct known_store *store, const uint8_t *ssid, size_t ssid_len)
{
	struct known_network *net = store ? known_store_get(store, ssid, ssid_len, KNOWN_SEC_PSK)
					  : NULL;
	if (!net)
		return -ENOENT;
	if (strcmp(net->akms, "sae") == 0 && strcmp(net->pmf, "required") == 0)
		return 0;
	int ret = known_store_set_policy(store, net, "AKMs", "sae");
	return ret < 0 ? ret : known_store_set_policy(store, net, "ManagementFrameProtection",
						       "required");
}

/* The [EAP] section, read where the store keeps it (one reader). */
int known_get_eap(struct known_store *store, const uint8_t *ssid, size_t ssid_len,
		  struct eap_conf *out, struct cfg_error *err)
{
	memset(out, 0, sizeof(*out));
	struct known_network *net =
		store ? known_store_get(store, ssid, ssid_len, KNOWN_SEC_8021X) : NULL;
	return net ? known_network_eap(net, out, err) : -ENOENT;
}

void known_wipe(struct station_known *k)
{
	crypto_zero(k->psk, sizeof(k->psk));
	crypto_zero(k->passphrase, sizeof(k->passphrase));
	k->have_psk = k->have_passphrase = false;
}
