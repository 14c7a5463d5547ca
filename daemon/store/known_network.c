/* A known network in memory: defaults, copies, secrets, connection history. */
#include "daemon/store/known_network.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/value.h"
#include "daemon/crypto/hash.h"
#include "daemon/crypto/secure.h"

void known_network_init(struct known_network *net, const uint8_t *ssid, size_t len,
			enum known_security sec)
{
	memset(net, 0, sizeof(*net));
	if (len > KNOWN_SSID_MAX)
		len = KNOWN_SSID_MAX;
	memcpy(net->ssid, ssid, len);
	net->ssid_len = len;
	net->security = sec;
	net->autoconnect = true;
}

static void free_extra(struct known_extra *x)
{
	free(x->section);
	free(x->key);
	if (x->value) {
		crypto_zero(x->value, strlen(x->value));
		free(x->value);
	}
}

static void free_secret(char **s)
{
	if (*s) {
		crypto_zero(*s, strlen(*s));
		free(*s);
	}
	*s = NULL;
}

void known_network_clear(struct known_network *net)
{
	for (size_t i = 0; i < net->n_extras; i++)
		free_extra(&net->extras[i]);
	free(net->extras);
	free_secret(&net->mem_password);
	free_secret(&net->mem_key_passphrase);
	crypto_zero(net, sizeof(*net));
}

int known_network_copy(struct known_network *dst, const struct known_network *src)
{
	*dst = *src;
	dst->extras = NULL;
	dst->n_extras = 0;
	dst->mem_password = dst->mem_key_passphrase = NULL;
	if ((src->mem_password && !(dst->mem_password = strdup(src->mem_password))) ||
	    (src->mem_key_passphrase &&
	     !(dst->mem_key_passphrase = strdup(src->mem_key_passphrase))))
		goto fail;
	if (src->n_extras == 0)
		return 0;
	dst->extras = calloc(src->n_extras, sizeof(*dst->extras));
	if (!dst->extras)
		goto fail;
	for (size_t i = 0; i < src->n_extras; i++) {
		struct known_extra *x = &dst->extras[i];
		dst->n_extras++;
		x->section = strdup(src->extras[i].section);
		x->key = strdup(src->extras[i].key);
		x->value = strdup(src->extras[i].value);
		if (!x->section || !x->key || !x->value)
			goto fail;
	}
	return 0;
fail:
	known_network_clear(dst);
	return -ENOMEM;
}

int known_network_add_extra(struct known_network *net, const char *section, const char *key,
			    const char *value)
{
	struct known_extra *p = realloc(net->extras, (net->n_extras + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	net->extras = p;
	struct known_extra *x = &p[net->n_extras];
	*x = (struct known_extra){ strdup(section), strdup(key), strdup(value) };
	net->n_extras++; /* counted even half-made: clear frees what there is */
	return x->section && x->key && x->value ? 0 : -ENOMEM;
}

void known_network_drop_section(struct known_network *net, const char *section)
{
	size_t kept = 0;
	for (size_t i = 0; i < net->n_extras; i++) {
		if (strcmp(net->extras[i].section, section) == 0)
			free_extra(&net->extras[i]);
		else
			net->extras[kept++] = net->extras[i];
	}
	net->n_extras = kept;
}

int known_network_set_mem_secret(struct known_network *net, const char *which, const char *value)
{
	char **slot = strcmp(which, "Password") == 0		 ? &net->mem_password
		      : strcmp(which, "PrivateKeyPassphrase") == 0 ? &net->mem_key_passphrase
								   : NULL;
	if (!slot)
		return -EINVAL;
	char *copy = NULL;
	if (value && !(copy = strdup(value)))
		return -ENOMEM;
	free_secret(slot);
	*slot = copy;
	return 0;
}

int known_network_set_passphrase(struct known_network *net, const char *passphrase)
{
	if (!cfg_passphrase_valid(passphrase))
		return -EINVAL;
	crypto_zero(net->passphrase, sizeof(net->passphrase));
	memcpy(net->passphrase, passphrase, strlen(passphrase) + 1);
	net->has_passphrase = true;
	crypto_zero(net->psk, sizeof(net->psk));
	net->psk_valid = false;
	return 0;
}

void known_network_set_psk(struct known_network *net, const uint8_t psk[32])
{
	crypto_zero(net->passphrase, sizeof(net->passphrase));
	net->has_passphrase = false;
	memcpy(net->psk, psk, sizeof(net->psk));
	net->psk_valid = true;
}

bool known_network_touch(struct known_network *net, uint32_t freq, uint64_t now)
{
	size_t keep = 0;
	uint32_t out[KNOWN_FREQS_MAX];
	bool known = false;

	net->last_connected = now;
	if (freq == 0)
		return false;
	out[keep++] = freq;
	for (size_t i = 0; i < net->n_freqs; i++) {
		if (net->freqs[i] == freq)
			known = true;
		else if (keep < KNOWN_FREQS_MAX)
			out[keep++] = net->freqs[i];
	}
	memcpy(net->freqs, out, keep * sizeof(out[0]));
	net->n_freqs = keep;
	return !known;
}

int known_psk_check(const struct known_network *net, uint8_t out[16])
{
	static const char label[] = "wpad known-network PSK cache";
	uint8_t len = (uint8_t)net->ssid_len;
	uint8_t mac[CRYPTO_SHA256_LEN];
	const struct crypto_iov parts[] = {
		{ label, sizeof(label) }, /* with its NUL as separator */
		{ &len, 1 },
		{ net->ssid, net->ssid_len },
		{ net->passphrase, strlen(net->passphrase) },
	};
	int ret = crypto_hmac_vec(CRYPTO_HASH_SHA256, net->psk, sizeof(net->psk), parts,
				  sizeof(parts) / sizeof(parts[0]), mac);

	if (ret == 0)
		memcpy(out, mac, 16);
	crypto_zero(mac, sizeof(mac));
	return ret;
}
