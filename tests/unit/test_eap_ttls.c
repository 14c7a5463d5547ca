/* EAP-TTLS (eap/eap_ttls.c, eap/eap_ttls_avp.c): the AVP codec with its
 * malformed table, and whole runs through the EAP peer against the
 * scripted server (eap_tls_test_server.h) with PAP, CHAP, MSCHAPv2 and
 * EAP-MD5 inside, on TLS 1.2 and 1.3; wrong passwords give the
 * inner-rejected error; a server that cannot prove the MSCHAPv2 password
 * is refused; a tunnel inside the tunnel is refused. The server side
 * checks credentials with its own arithmetic (OpenSSL MD5, the MSCHAPv2
 * primitives of daemon/crypto, whose RFC 2759 vectors live in their own
 * suite) and a walker of its own for AVPs. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include <openssl/evp.h>

#include "daemon/crypto/mschapv2.h"
#include "eap/eap_peer.h"
#include "eap/eap_ttls_avp.h"
#include "eap_tls_test_server.h"
#include "tls_test_pki.h"

/* --- codec --- */

START_TEST(avp_build_and_parse)
{
	struct eap_buf b = { 0 };
	struct ttls_avp_iter it;
	struct ttls_avp a;
	char err[96];

	ck_assert_int_eq(ttls_avp_put(&b, TTLS_AVP_USER_NAME, 0, true, "bob", 3), 0);
	ck_assert_int_eq(ttls_avp_put(&b, TTLS_MS_CHAP2_SUCCESS, TTLS_VENDOR_MICROSOFT, true,
				      "abcdef", 6),
			 0);
	/* User-Name: code 1, flags M, length 11, padded to 12. */
	const uint8_t want[] = { 0, 0, 0, 1, 0x40, 0, 0, 11, 'b', 'o', 'b', 0 };
	ck_assert_uint_eq(b.len, 12 + 20);
	ck_assert_mem_eq(b.data, want, sizeof(want));
	ck_assert_uint_eq(b.data[12 + 4], 0xc0); /* V and M */
	ck_assert_uint_eq(b.data[12 + 7], 18);	 /* 12 + 6 */
	it.p = b.data;
	it.left = b.len;
	ck_assert_int_eq(ttls_avp_next(&it, &a, err, sizeof(err)), 1);
	ck_assert_uint_eq(a.code, 1);
	ck_assert_uint_eq(a.len, 3);
	ck_assert_int_eq(ttls_avp_next(&it, &a, err, sizeof(err)), 1);
	ck_assert_uint_eq(a.vendor, 311);
	ck_assert_uint_eq(a.code, 26);
	ck_assert_mem_eq(a.data, "abcdef", 6);
	ck_assert_int_eq(ttls_avp_next(&it, &a, err, sizeof(err)), 0);
	eap_buf_release(&b);
}
END_TEST

START_TEST(avp_eap_message_concatenated)
{
	struct eap_buf b = { 0 };
	struct ttls_avps a;
	char err[96];

	ck_assert_int_eq(ttls_avp_put(&b, TTLS_AVP_EAP_MESSAGE, 0, true, "\x01\x02", 2), 0);
	ck_assert_int_eq(ttls_avp_put(&b, TTLS_AVP_REPLY_MESSAGE, 0, false, "hi", 2), 0);
	ck_assert_int_eq(ttls_avp_put(&b, TTLS_AVP_EAP_MESSAGE, 0, true, "\x00\x07\x04", 3), 0);
	ck_assert_int_eq(ttls_avp_put(&b, 9999, 0, false, "x", 1), 0); /* optional, unknown */
	ck_assert_int_eq(ttls_avps_parse(b.data, b.len, &a, err, sizeof(err)), 0);
	ck_assert_uint_eq(a.eap_len, 5);
	ck_assert_mem_eq(a.eap, "\x01\x02\x00\x07\x04", 5);
	ck_assert_uint_eq(a.reply_len, 2);
	ttls_avps_free(&a);
	eap_buf_release(&b);
}
END_TEST

START_TEST(avp_malformed_table)
{
	static const struct {
		const char *name;
		uint8_t data[24];
		size_t len;
		const char *err;
	} t[] = {
		{ "header truncated", { 0, 0, 0, 1, 0x40 }, 5, "truncated" },
		{ "length below header", { 0, 0, 0, 1, 0x40, 0, 0, 7 }, 8, "below its header" },
		{ "vendor length below header", { 0, 0, 0, 1, 0xc0, 0, 0, 11, 0, 0, 1, 0x37 }, 12, "below its header" },
		{ "length past the end", { 0, 0, 0, 1, 0x40, 0, 0, 40, 'x' }, 9, "past the end" },
		{ "huge length", { 0, 0, 0, 1, 0x40, 0xff, 0xff, 0xff, 'x' }, 9, "past the end" },
		{ "reserved flags", { 0, 0, 0, 1, 0x41, 0, 0, 8 }, 8, "reserved flag" },
		{ "unknown mandatory", { 0, 0, 0x27, 0x0f, 0x40, 0, 0, 8 }, 8, "unsupported mandatory AVP 9999" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct ttls_avps a;
		char err[96] = "";

		ck_assert_msg(ttls_avps_parse(t[i].data, t[i].len, &a, err, sizeof(err)) == -EBADMSG,
			      "%s accepted", t[i].name);
		ck_assert_msg(strstr(err, t[i].err) != NULL, "%s: '%s'", t[i].name, err);
		ck_assert_ptr_null(a.eap);
	}
}
END_TEST

START_TEST(avp_eap_over_64k)
{
	/* Two EAP-Message AVPs of 40000 octets: past one EAP packet's 65535. */
	static uint8_t raw[2 * (8 + 40000)];
	struct ttls_avps a;
	char err[96];

	for (int i = 0; i < 2; i++) {
		uint8_t *h = raw + i * (8 + 40000);
		size_t l = 8 + 40000;

		h[3] = TTLS_AVP_EAP_MESSAGE;
		h[4] = 0x40;
		h[5] = (uint8_t)(l >> 16);
		h[6] = (uint8_t)(l >> 8);
		h[7] = (uint8_t)l;
	}
	ck_assert_int_eq(ttls_avps_parse(raw, sizeof(raw), &a, err, sizeof(err)), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "over 65535"));
	ck_assert_ptr_null(a.eap);
}
END_TEST

/* --- the server's TTLS script --- */

enum srv_kind { SRV_PAP, SRV_CHAP, SRV_MSCHAPV2, SRV_EAP_MD5 };

struct ttls_script {
	enum srv_kind kind;
	const char *password;
	bool bad_authenticator; /* MSCHAPv2: prove a wrong password */
	bool offer_peap_inner;
	bool error_without_ident; /* MS-CHAP-Error as hostapd 2.10 sends it */
	int step;
	bool verdict;
	bool saw_nak;
	uint8_t md5_chal[16];
};

/* The server's own AVP walker: finds the first AVP (code, vendor). */
static const uint8_t *find_avp(const uint8_t *d, size_t len, uint32_t code, uint32_t vendor,
			       size_t *out_len)
{
	size_t pos = 0;

	while (pos + 8 <= len) {
		uint32_t c = (uint32_t)d[pos] << 24 | d[pos + 1] << 16 | d[pos + 2] << 8 | d[pos + 3];
		size_t l = (size_t)d[pos + 5] << 16 | d[pos + 6] << 8 | d[pos + 7];
		size_t h = (d[pos + 4] & 0x80) ? 12 : 8;
		uint32_t v = h == 12 ? ((uint32_t)d[pos + 8] << 24 | d[pos + 9] << 16 |
					d[pos + 10] << 8 | d[pos + 11])
				     : 0;

		ck_assert_uint_ge(l, h);
		ck_assert_uint_le(pos + l, len);
		if (c == code && v == vendor) {
			*out_len = l - h;
			return d + pos + h;
		}
		pos += (l + 3) & ~(size_t)3;
	}
	return NULL;
}

static void put_avp(uint8_t *buf, size_t *n, uint32_t code, uint32_t vendor, const void *data,
		    size_t len)
{
	size_t h = vendor ? 12 : 8, l = h + len;

	buf[*n + 0] = (uint8_t)(code >> 24);
	buf[*n + 1] = (uint8_t)(code >> 16);
	buf[*n + 2] = (uint8_t)(code >> 8);
	buf[*n + 3] = (uint8_t)code;
	buf[*n + 4] = vendor ? 0xc0 : 0x40;
	buf[*n + 5] = 0;
	buf[*n + 6] = (uint8_t)(l >> 8);
	buf[*n + 7] = (uint8_t)l;
	if (vendor) {
		buf[*n + 8] = 0;
		buf[*n + 9] = 0;
		buf[*n + 10] = (uint8_t)(vendor >> 8);
		buf[*n + 11] = (uint8_t)vendor;
	}
	memcpy(buf + *n + h, data, len);
	memset(buf + *n + l, 0, 3);
	*n += (l + 3) & ~(size_t)3;
}

static void md5_of(const void *a, size_t al, const void *b, size_t bl, const void *c, size_t cl,
		   uint8_t out[16])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	EVP_DigestInit_ex(ctx, EVP_md5(), NULL);
	EVP_DigestUpdate(ctx, a, al);
	EVP_DigestUpdate(ctx, b, bl);
	EVP_DigestUpdate(ctx, c, cl);
	EVP_DigestFinal_ex(ctx, out, NULL);
	EVP_MD_CTX_free(ctx);
}

static const char user[] = "user@example.com";

static int check_user(const uint8_t *d, size_t len)
{
	size_t n;
	const uint8_t *u = find_avp(d, len, 1, 0, &n);

	ck_assert_ptr_nonnull(u);
	ck_assert_uint_eq(n, strlen(user));
	ck_assert_mem_eq(u, user, n);
	return 0;
}

static int srv_pap(struct ttls_script *s, const uint8_t *d, size_t len)
{
	size_t n;
	const uint8_t *pw = find_avp(d, len, 2, 0, &n);

	check_user(d, len);
	ck_assert_ptr_nonnull(pw);
	ck_assert_uint_eq(n % 16, 0); /* RFC 5281 11.2.5 padding */
	size_t plen = strnlen((const char *)pw, n);
	return plen == strlen(s->password) && memcmp(pw, s->password, plen) == 0 ? 1 : -1;
}

static int srv_chap(struct ets *e, struct ttls_script *s, const uint8_t *d, size_t len)
{
	uint8_t chal[17], want[16];
	size_t n1, n2;
	const uint8_t *c = find_avp(d, len, 60, 0, &n1), *p = find_avp(d, len, 3, 0, &n2);

	check_user(d, len);
	ets_export(e, "ttls challenge", NULL, 0, chal, sizeof(chal));
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(n1, 16);
	ck_assert_mem_eq(c, chal, 16);
	ck_assert_uint_eq(n2, 17);
	ck_assert_uint_eq(p[0], chal[16]);
	md5_of(chal + 16, 1, s->password, strlen(s->password), chal, 16, want);
	return memcmp(p + 1, want, 16) == 0 ? 1 : -1;
}

static int srv_mschapv2(struct ets *e, struct ttls_script *s, const uint8_t *d, size_t len)
{
	uint8_t chal[17], hash[16], nt[24], auth[20], out[128];
	size_t n1, n2, n = 0;
	const uint8_t *c, *r;
	char msg[64];

	if (s->step == 1)
		return s->verdict ? 1 : -1; /* the peer's empty answer */
	check_user(d, len);
	c = find_avp(d, len, 11, 311, &n1);
	r = find_avp(d, len, 25, 311, &n2);
	ets_export(e, "ttls challenge", NULL, 0, chal, sizeof(chal));
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(n1, 16);
	ck_assert_mem_eq(c, chal, 16);
	ck_assert_uint_eq(n2, 50);
	ck_assert_uint_eq(r[0], chal[16]);
	ck_assert_int_eq(mschapv2_nt_password_hash(s->password, strlen(s->password), hash), 0);
	ck_assert_int_eq(mschapv2_nt_response(chal, r + 2, user, strlen(user), hash, nt), 0);
	s->step = 1;
	if (memcmp(nt, r + 26, 24) != 0) {
		if (s->error_without_ident)
			snprintf(msg, sizeof(msg), "Failed");
		else
			snprintf(msg, sizeof(msg), "%cE=691 R=0 V=3 M=Authentication failure",
				 chal[16]);
		put_avp(out, &n, TTLS_MS_CHAP_ERROR, 311, msg, strlen(msg));
		s->verdict = false;
	} else {
		ck_assert_int_eq(mschapv2_authenticator_response(hash, nt, r + 2, chal, user,
								 strlen(user), auth),
				 0);
		if (s->bad_authenticator)
			auth[3] ^= 0x10;
		msg[0] = (char)chal[16];
		msg[1] = 'S';
		msg[2] = '=';
		for (int i = 0; i < 20; i++)
			snprintf(msg + 3 + 2 * i, 3, "%02X", auth[i]);
		put_avp(out, &n, TTLS_MS_CHAP2_SUCCESS, 311, msg, 43);
		s->verdict = true;
	}
	ets_tunnel_write(e, out, n);
	return 0;
}

static void send_inner_eap(struct ets *e, const uint8_t *pkt, size_t len)
{
	uint8_t out[128];
	size_t n = 0;

	put_avp(out, &n, TTLS_AVP_EAP_MESSAGE, 0, pkt, len);
	ets_tunnel_write(e, out, n);
}

static int srv_eap_md5(struct ets *e, struct ttls_script *s, const uint8_t *d, size_t len)
{
	size_t n;
	const uint8_t *m = find_avp(d, len, 79, 0, &n);

	ck_assert_ptr_nonnull(m);
	if (s->step == 0) {
		/* The unsolicited Response/Identity. */
		ck_assert_uint_eq(n, 5 + strlen(user));
		ck_assert_uint_eq(m[0], 2);
		ck_assert_uint_eq(m[4], 1);
		ck_assert_mem_eq(m + 5, user, strlen(user));
		if (s->offer_peap_inner) {
			const uint8_t peap[] = { 1, 7, 0, 6, 25, 0x20 };
			send_inner_eap(e, peap, sizeof(peap));
			s->step = 2;
			return 0;
		}
		uint8_t req[5 + 17] = { 1, 7, 0, 22, 4, 16 };
		for (int i = 0; i < 16; i++)
			s->md5_chal[i] = (uint8_t)(0x30 + i);
		memcpy(req + 6, s->md5_chal, 16);
		send_inner_eap(e, req, sizeof(req));
		s->step = 1;
		return 0;
	}
	if (s->step == 2) {
		/* Nak naming MD5 (type 4). */
		ck_assert_uint_eq(n, 6);
		ck_assert_uint_eq(m[4], 3);
		ck_assert_uint_eq(m[5], 4);
		s->saw_nak = true;
		return -1;
	}
	uint8_t want[16], id = 7;
	ck_assert_uint_eq(n, 5 + 17);
	ck_assert_uint_eq(m[0], 2);
	ck_assert_uint_eq(m[1], 7);
	ck_assert_uint_eq(m[4], 4);
	md5_of(&id, 1, s->password, strlen(s->password), s->md5_chal, 16, want);
	return memcmp(m + 6, want, 16) == 0 ? 1 : -1;
}

static int ttls_phase2(struct ets *e, const uint8_t *d, size_t len)
{
	struct ttls_script *s = e->phase2_state;

	if (!d && !(s->kind == SRV_MSCHAPV2 && s->step == 1))
		return 0; /* the tunnel is up: the peer speaks first */
	switch (s->kind) {
	case SRV_PAP:
		return srv_pap(s, d, len);
	case SRV_CHAP:
		return srv_chap(e, s, d, len);
	case SRV_MSCHAPV2:
		return srv_mschapv2(e, s, d, len);
	case SRV_EAP_MD5:
		return srv_eap_md5(e, s, d, len);
	}
	return -1;
}

static struct eap_peer_profile ttls_profile(const char *phase2, bool eap)
{
	struct eap_peer_profile p = {
		.methods = { "TTLS" },
		.n_methods = 1,
		.identity = user,
		.anonymous_identity = "anonymous@example.com",
		.password = "pass word",
		.password_len = 9,
		.phase2 = phase2,
		.phase2_eap = eap,
		.tls = { .ca_file = ets_pki.ca, .server_name = "auth.example.com" },
	};
	return p;
}

static enum eap_peer_result run_ttls(struct ets *e, SSL_CTX *sctx, struct ttls_script *s,
				     const struct eap_peer_profile *p)
{
	return ets_run_script(e, 21, sctx, ttls_phase2, s, p);
}

static void ok_case(enum srv_kind kind, const char *phase2, bool eap, int max)
{
	struct eap_peer_profile p = ttls_profile(phase2, eap);
	struct ttls_script s = { .kind = kind, .password = "pass word" };
	SSL_CTX *sctx = ets_sctx_new(max, false);
	struct ets e;
	uint8_t msk[64], emsk[64], km[128], sid[EAP_SESSION_ID_MAX];
	const uint8_t ttls = 21;

	ck_assert_int_eq(run_ttls(&e, sctx, &s, &p), EAP_PEER_SUCCESS);
	ck_assert_str_eq(eap_peer_method_name(e.peer), "TTLS");
	if (ets_tls13(&e))
		ets_export(&e, "EXPORTER_EAP_TLS_Key_Material", &ttls, 1, km, sizeof(km));
	else
		ets_export(&e, "ttls keying material", NULL, 0, km, sizeof(km));
	ck_assert_int_eq(eap_peer_msk(e.peer, msk, sizeof(msk)), 64);
	ck_assert_int_eq(eap_peer_emsk(e.peer, emsk, sizeof(emsk)), 64);
	ck_assert_mem_eq(msk, km, 64);
	ck_assert_mem_eq(emsk, km + 64, 64);
	ck_assert_int_eq(eap_peer_session_id(e.peer, sid, sizeof(sid)), 65);
	ck_assert_uint_eq(sid[0], 21);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}

START_TEST(pap_ok)
{
	ok_case(SRV_PAP, "PAP", false, TLS1_2_VERSION);
	ok_case(SRV_PAP, "PAP", false, 0);
}
END_TEST

START_TEST(chap_ok)
{
	ok_case(SRV_CHAP, "CHAP", false, TLS1_2_VERSION);
	ok_case(SRV_CHAP, "chap", false, 0);
}
END_TEST

START_TEST(mschapv2_ok)
{
	ok_case(SRV_MSCHAPV2, "MSCHAPV2", false, TLS1_2_VERSION);
	ok_case(SRV_MSCHAPV2, "MSCHAPV2", false, 0);
}
END_TEST

START_TEST(eap_md5_ok)
{
	ok_case(SRV_EAP_MD5, "MD5", true, TLS1_2_VERSION);
	ok_case(SRV_EAP_MD5, "MD5", true, 0);
}
END_TEST

static void reject_case(enum srv_kind kind, const char *phase2, bool eap, bool bad_auth,
			enum eap_peer_err want, const char *detail_has)
{
	struct eap_peer_profile p = ttls_profile(phase2, eap);
	struct ttls_script s = { .kind = kind, .password = bad_auth ? "pass word" : "other",
				 .bad_authenticator = bad_auth };
	SSL_CTX *sctx = ets_sctx_new(0, false);
	struct ets e;
	const char *detail;

	ck_assert_int_eq(run_ttls(&e, sctx, &s, &p), EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(e.peer, &detail), want);
	ck_assert_msg(strstr(detail, detail_has) != NULL, "'%s' lacks '%s'", detail, detail_has);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}

START_TEST(wrong_password_is_inner_rejected)
{
	reject_case(SRV_PAP, "PAP", false, false, EAP_PEER_ERR_INNER_REJECTED, "PAP");
	reject_case(SRV_CHAP, "CHAP", false, false, EAP_PEER_ERR_INNER_REJECTED, "CHAP");
	reject_case(SRV_MSCHAPV2, "MSCHAPV2", false, false, EAP_PEER_ERR_INNER_REJECTED, "E=691");
}
END_TEST

/* The Ident is random: one in 256 runs of the test above drew 'F', and
 * "Failed" lost its first letter to it. */
START_TEST(ms_chap_error_text_tells_the_ident_from_text)
{
	const uint8_t *t;
	const uint8_t failed[] = "Failed", with_ident[] = "FE=691 R=0 V=3";
	ck_assert_uint_eq(ttls_ms_chap_error_text(failed, 6, 'F', &t), 6);
	ck_assert_ptr_eq(t, failed);
	ck_assert_uint_eq(ttls_ms_chap_error_text(with_ident, 14, 'F', &t), 13);
	ck_assert_ptr_eq(t, with_ident + 1);
	ck_assert_uint_eq(ttls_ms_chap_error_text(with_ident, 14, 'G', &t), 14);
	ck_assert_uint_eq(ttls_ms_chap_error_text(failed, 0, 'F', &t), 0);
	ck_assert_uint_eq(ttls_ms_chap_error_text(with_ident, 2, 'F', &t), 2);
}
END_TEST

START_TEST(mschapv2_error_without_ident)
{
	struct eap_peer_profile p = ttls_profile("MSCHAPV2", false);
	struct ttls_script s = { .kind = SRV_MSCHAPV2, .password = "other",
				 .error_without_ident = true };
	SSL_CTX *sctx = ets_sctx_new(0, false);
	struct ets e;
	const char *detail;

	ck_assert_int_eq(run_ttls(&e, sctx, &s, &p), EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(e.peer, &detail), EAP_PEER_ERR_INNER_REJECTED);
	ck_assert_str_eq(detail, "TTLS/MSCHAPV2 rejected: Failed");
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(mschapv2_server_must_prove)
{
	reject_case(SRV_MSCHAPV2, "MSCHAPV2", false, true, EAP_PEER_ERR_PROTOCOL,
		    "does not prove the server knows the password");
}
END_TEST

START_TEST(nested_tunnel_refused)
{
	struct eap_peer_profile p = ttls_profile("MD5", true);
	struct ttls_script s = { .kind = SRV_EAP_MD5, .password = "pass word",
				 .offer_peap_inner = true };
	SSL_CTX *sctx = ets_sctx_new(0, false);
	struct ets e;
	const char *detail;

	ck_assert_int_eq(run_ttls(&e, sctx, &s, &p), EAP_PEER_FAILURE);
	ck_assert(s.saw_nak);
	ets_deinit(&e);

	p.phase2 = "PEAP";
	ets_init(&e, 21, sctx);
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(e.peer, &detail), EAP_PEER_ERR_METHOD_UNAVAILABLE);
	ck_assert_ptr_nonnull(strstr(detail, "is a tunnel"));
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(resumed_ttls)
{
	struct eap_peer_profile p = ttls_profile("PAP", false);
	struct ttls_script s = { .kind = SRV_PAP, .password = "pass word" };
	SSL_CTX *sctx = ets_sctx_new(0, false);
	struct ets e;

	ck_assert_int_eq(run_ttls(&e, sctx, &s, &p), EAP_PEER_SUCCESS);
	ets_deinit(&e);
	s.step = 0;
	ck_assert_int_eq(run_ttls(&e, sctx, &s, &p), EAP_PEER_SUCCESS);
	ck_assert(eap_peer_tls_info(e.peer)->resumed);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

/* A TTLS/PAP run has its verdict (the server's Success is believed) once
 * the credentials went. A new Start on the same method then begins a new
 * authentication: a Success before its handshake ends must not be
 * believed on the old verdict (it would authorize the port with no keys). */
START_TEST(restart_forgets_the_verdict)
{
	struct eap_peer_profile p = ttls_profile("PAP", false);
	struct ttls_script s = { .kind = SRV_PAP, .password = "pass word" };
	SSL_CTX *sctx = ets_sctx_new(0, false);
	struct ets e;
	uint8_t msk[64];

	ets_init(&e, 21, sctx);
	e.phase2 = ttls_phase2;
	e.phase2_state = &s;
	e.restart_before_success = true;
	ets_run(&e, &p);
	ck_assert(e.restarted);
	ck_assert(e.finished); /* the server sent its early Success */
	ck_assert_int_eq(eap_peer_result(e.peer), EAP_PEER_FAILURE);
	ck_assert_int_lt(eap_peer_msk(e.peer, msk, sizeof(msk)), 0);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

Suite *make_eap_ttls_suite(void)
{
	Suite *s = suite_create("eap_ttls");
	TCase *tv = tcase_create("avp");
	TCase *tc = tcase_create("runs");

	tcase_add_test(tv, avp_build_and_parse);
	tcase_add_test(tv, avp_eap_message_concatenated);
	tcase_add_test(tv, avp_malformed_table);
	tcase_add_test(tv, avp_eap_over_64k);
	suite_add_tcase(s, tv);
	ets_add_run_fixtures(tc);
	tcase_add_test(tc, pap_ok);
	tcase_add_test(tc, chap_ok);
	tcase_add_test(tc, mschapv2_ok);
	tcase_add_test(tc, eap_md5_ok);
	tcase_add_test(tc, wrong_password_is_inner_rejected);
	tcase_add_test(tc, mschapv2_server_must_prove);
	tcase_add_test(tc, mschapv2_error_without_ident);
	tcase_add_test(tc, ms_chap_error_text_tells_the_ident_from_text);
	tcase_add_test(tc, nested_tunnel_refused);
	tcase_add_test(tc, resumed_ttls);
	tcase_add_test(tc, restart_forgets_the_verdict);
	suite_add_tcase(s, tc);
	return s;
}
