/* Fuzz kde_parse on (decrypted) EAPOL-Key key data.
 *
 * Oracle: the key KDEs it decoded rebuild with the KDE builders, and the
 * rebuilt key data parses to the same keys.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/kde.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void must(int err)
{
	if (err != CODEC_OK)
		abort();
}

static bool same_igtk(const struct kde_igtk *a, const struct kde_igtk *b)
{
	return a->key_id == b->key_id && a->key_len == b->key_len &&
	       !memcmp(a->ipn, b->ipn, KDE_IPN_LEN) && !memcmp(a->key, b->key, a->key_len);
}

static void rebuild_keys(struct wbuf *w, const struct kde_set *s)
{
	if (s->has_gtk)
		must(kde_build_gtk(w, s->gtk.key_id, s->gtk.tx, s->gtk.key, s->gtk.key_len));
	if (s->has_igtk)
		must(kde_build_igtk(w, s->igtk.key_id, s->igtk.ipn, s->igtk.key, s->igtk.key_len));
	if (s->has_bigtk)
		must(kde_build_bigtk(w, s->bigtk.key_id, s->bigtk.ipn, s->bigtk.key,
				     s->bigtk.key_len));
	if (s->pmkid)
		must(kde_build_pmkid(w, s->pmkid));
	if (s->mac_addr)
		must(kde_build_mac_addr(w, s->mac_addr));
	for (size_t i = 0; i < s->n_rsn; i++)
		wbuf_put(w, s->rsn_elem[i], s->rsn_elem_len[i]);
	must(kde_pad(w, 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[4096];
	struct kde_set s, again;

	if (size > 2048 || kde_parse(data, size, &s) != CODEC_OK)
		return 0;
	struct wbuf w = wbuf_init(out, sizeof(out));
	rebuild_keys(&w, &s);
	if (w.len % 8 != 0 || kde_parse(out, w.len, &again) != CODEC_OK)
		abort();
	if (s.has_gtk != again.has_gtk || s.has_igtk != again.has_igtk ||
	    s.has_bigtk != again.has_bigtk || s.n_rsn != again.n_rsn)
		abort();
	if (s.has_gtk && (s.gtk.key_id != again.gtk.key_id || s.gtk.tx != again.gtk.tx ||
			  s.gtk.key_len != again.gtk.key_len ||
			  memcmp(s.gtk.key, again.gtk.key, s.gtk.key_len) != 0))
		abort();
	if ((s.has_igtk && !same_igtk(&s.igtk, &again.igtk)) ||
	    (s.has_bigtk && !same_igtk(&s.bigtk, &again.bigtk)))
		abort();
	if (s.pmkid && memcmp(s.pmkid, again.pmkid, 16) != 0)
		abort();
	return 0;
}
