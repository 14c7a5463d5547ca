/* The [EAP] section of known-network files (daemon/config/eap_conf.h):
 * complete profiles read back, and a table of broken ones, each refused
 * with its own code and a line number. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/eap_conf.h"
#include "daemon/config/ini.h"

static int parse(const char *text, struct eap_conf *c, struct cfg_error *err)
{
	struct ini *ini = NULL;
	int r = ini_parse(text, strlen(text), "net.8021x", &ini, err);
	ck_assert_int_eq(r, 0);
	r = eap_conf_parse(ini, ini_find(ini, "EAP", NULL), c, err);
	ini_free(ini);
	return r;
}

START_TEST(peap_profile)
{
	struct eap_conf c;
	struct cfg_error err;
	ck_assert_int_eq(parse("[EAP]\nMethod=peap TTLS\nIdentity=alice@example.org\n"
			       "AnonymousIdentity=anonymous@example.org\nPassword=s3cret\n"
			       "Phase2=mschapv2\nCACert=/etc/ca.pem\nServerName=radius.example.org\n"
			       "TLSMinVersion=1.3\n",
			       &c, &err),
			 0);
	ck_assert_uint_eq(c.n_methods, 2);
	ck_assert_str_eq(c.methods[0], "PEAP");
	ck_assert_str_eq(c.methods[1], "TTLS");
	ck_assert_str_eq(c.identity, "alice@example.org");
	ck_assert_str_eq(c.anonymous_identity, "anonymous@example.org");
	ck_assert_str_eq(c.password, "s3cret");
	ck_assert_str_eq(c.phase2, "MSCHAPV2");
	ck_assert_str_eq(c.ca_file, "/etc/ca.pem");
	ck_assert_str_eq(c.server_name, "radius.example.org");
	ck_assert_int_eq(c.tls_min, EAP_CONF_TLS_1_3);
	ck_assert(eap_conf_uses_tls(&c));
	eap_conf_clear(&c);
	ck_assert_ptr_null(c.password);
}
END_TEST

START_TEST(md5_and_tls_profiles)
{
	struct eap_conf c;
	struct cfg_error err;
	ck_assert_int_eq(parse("[EAP]\nMethod=MD5\nIdentity=bob\n", &c, &err), 0);
	ck_assert(!eap_conf_uses_tls(&c));
	ck_assert_ptr_null(c.password); /* asked through the agent */
	ck_assert_int_eq(c.tls_min, EAP_CONF_TLS_1_2);
	eap_conf_clear(&c);
	ck_assert_int_eq(parse("[EAP]\nMethod=TLS\nIdentity=host/pc1\nClientCert=/c.pem\n"
			       "PrivateKey=/k.pem\nCASystem=true\nDomainSuffix=example.org\n",
			       &c, &err),
			 0);
	ck_assert(c.ca_system);
	ck_assert_str_eq(c.private_key, "/k.pem");
	eap_conf_clear(&c);
	ck_assert_int_eq(parse("[EAP]\nMethod=TTLS\nIdentity=bob\nPhase2=GTC\nPhase2EAP=true\n"
			       "AllowUnverifiedServer=true\n",
			       &c, &err),
			 0);
	ck_assert(c.phase2_eap && c.allow_unverified);
	eap_conf_clear(&c);
}
END_TEST

static const struct {
	const char *name, *text;
	int code;
	unsigned line;
} bad[] = {
	{ "no method", "[EAP]\nIdentity=a\n", CFG_E_MISSING_KEY, 1 },
	{ "no identity", "[EAP]\nMethod=MD5\n", CFG_E_MISSING_KEY, 1 },
	{ "unknown method", "[EAP]\nMethod=MD5 LEAP\nIdentity=a\n", CFG_E_BAD_VALUE, 2 },
	{ "method twice", "[EAP]\nMethod=MD5 md5\nIdentity=a\n", CFG_E_BAD_VALUE, 2 },
	{ "empty method", "[EAP]\nMethod=\nIdentity=a\n", CFG_E_BAD_VALUE, 2 },
	{ "unknown key", "[EAP]\nMethod=MD5\nIdentity=a\nPasword=x\n", CFG_E_UNKNOWN_KEY, 4 },
	{ "PEAP without Phase2", "[EAP]\nMethod=PEAP\nIdentity=a\nCASystem=true\n",
	  CFG_E_MISSING_KEY, 1 },
	{ "Phase2 without a tunnel", "[EAP]\nMethod=MD5\nIdentity=a\nPhase2=GTC\n",
	  CFG_E_CONFLICT, 1 },
	{ "PAP inside PEAP", "[EAP]\nMethod=PEAP\nIdentity=a\nPhase2=PAP\nCASystem=true\n",
	  CFG_E_BAD_VALUE, 1 },
	{ "PAP as TTLS EAP inner",
	  "[EAP]\nMethod=TTLS\nIdentity=a\nPhase2=PAP\nPhase2EAP=true\nCASystem=true\n",
	  CFG_E_BAD_VALUE, 1 },
	{ "TLS without a certificate", "[EAP]\nMethod=TLS\nIdentity=a\nCASystem=true\n",
	  CFG_E_MISSING_KEY, 1 },
	{ "key without certificate",
	  "[EAP]\nMethod=PEAP\nIdentity=a\nPhase2=GTC\nCASystem=true\nPrivateKey=/k\n",
	  CFG_E_CONFLICT, 1 },
	{ "no CA decision", "[EAP]\nMethod=PEAP\nIdentity=a\nPhase2=GTC\n", CFG_E_MISSING_KEY, 1 },
	{ "unverified and a CA",
	  "[EAP]\nMethod=PEAP\nIdentity=a\nPhase2=GTC\nCACert=/c\nAllowUnverifiedServer=true\n",
	  CFG_E_CONFLICT, 1 },
	{ "TLS 1.0", "[EAP]\nMethod=TLS\nIdentity=a\nClientCert=/c\nCASystem=true\n"
		     "TLSMinVersion=1.0\n", CFG_E_OUT_OF_RANGE, 6 },
	{ "min above max", "[EAP]\nMethod=TLS\nIdentity=a\nClientCert=/c\nCASystem=true\n"
			   "TLSMinVersion=1.3\nTLSMaxVersion=1.2\n", CFG_E_CONFLICT, 1 },
	{ "bad bool", "[EAP]\nMethod=MD5\nIdentity=a\nCASystem=maybe\n", CFG_E_BAD_VALUE, 4 },
	{ "empty identity", "[EAP]\nMethod=MD5\nIdentity=\n", CFG_E_BAD_VALUE, 3 },
	{ "overlong method", "[EAP]\nMethod=MSCHAPV2MSCHAPV2MSCHAPV2\nIdentity=a\n",
	  CFG_E_BAD_VALUE, 2 },
};

START_TEST(malformed_table)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct eap_conf c;
		struct cfg_error err = { 0 };
		int r = parse(bad[i].text, &c, &err);
		ck_assert_msg(r == bad[i].code, "%s: got %d (%s), want %d", bad[i].name, r,
			      err.msg, bad[i].code);
		ck_assert_msg(err.line == bad[i].line, "%s: line %u, want %u (%s)", bad[i].name,
			      err.line, bad[i].line, err.msg);
		ck_assert_ptr_nonnull(strstr(err.msg, "net.8021x"));
		ck_assert_ptr_null(c.identity); /* left clear */
	}
	struct eap_conf c;
	struct cfg_error err;
	ck_assert_int_eq(eap_conf_parse(NULL, NULL, &c, &err), CFG_E_MISSING_KEY);
}
END_TEST

/* eap_conf_same: a base profile against itself, against a copy with one
 * line changed (each must differ), and blob:// credentials (never the same). */
static const char *const same_base = "[EAP]\nMethod=PEAP\nIdentity=alice\n"
				     "AnonymousIdentity=anon\nPassword=s3cret\nPhase2=MSCHAPV2\n"
				     "CACert=/etc/ca.pem\nDomainSuffix=example.org\n";
static const struct {
	const char *what, *text;
} same_changed[] = {
	{ "method", "[EAP]\nMethod=TTLS\nIdentity=alice\nAnonymousIdentity=anon\nPassword=s3cret\n"
		    "Phase2=MSCHAPV2\nCACert=/etc/ca.pem\nDomainSuffix=example.org\n" },
	{ "identity", "[EAP]\nMethod=PEAP\nIdentity=bob\nAnonymousIdentity=anon\nPassword=s3cret\n"
		      "Phase2=MSCHAPV2\nCACert=/etc/ca.pem\nDomainSuffix=example.org\n" },
	{ "no anonymous identity", "[EAP]\nMethod=PEAP\nIdentity=alice\nPassword=s3cret\n"
				   "Phase2=MSCHAPV2\nCACert=/etc/ca.pem\nDomainSuffix=example.org\n" },
	{ "password", "[EAP]\nMethod=PEAP\nIdentity=alice\nAnonymousIdentity=anon\nPassword=s3creT\n"
		      "Phase2=MSCHAPV2\nCACert=/etc/ca.pem\nDomainSuffix=example.org\n" },
	{ "phase2", "[EAP]\nMethod=PEAP\nIdentity=alice\nAnonymousIdentity=anon\nPassword=s3cret\n"
		    "Phase2=GTC\nCACert=/etc/ca.pem\nDomainSuffix=example.org\n" },
	{ "CA", "[EAP]\nMethod=PEAP\nIdentity=alice\nAnonymousIdentity=anon\nPassword=s3cret\n"
		"Phase2=MSCHAPV2\nCACert=/etc/other-ca.pem\nDomainSuffix=example.org\n" },
	{ "domain suffix", "[EAP]\nMethod=PEAP\nIdentity=alice\nAnonymousIdentity=anon\n"
			   "Password=s3cret\nPhase2=MSCHAPV2\nCACert=/etc/ca.pem\n"
			   "DomainSuffix=wrong.test\n" },
	{ "server name added", "[EAP]\nMethod=PEAP\nIdentity=alice\nAnonymousIdentity=anon\n"
			       "Password=s3cret\nPhase2=MSCHAPV2\nCACert=/etc/ca.pem\n"
			       "DomainSuffix=example.org\nServerName=radius.example.org\n" },
	{ "TLS minimum", "[EAP]\nMethod=PEAP\nIdentity=alice\nAnonymousIdentity=anon\nPassword=s3cret\n"
			 "Phase2=MSCHAPV2\nCACert=/etc/ca.pem\nDomainSuffix=example.org\n"
			 "TLSMinVersion=1.3\n" },
};

START_TEST(same_profile)
{
	struct eap_conf a, b;
	struct cfg_error err;
	ck_assert_int_eq(parse(same_base, &a, &err), 0);
	ck_assert_int_eq(parse(same_base, &b, &err), 0);
	ck_assert(eap_conf_same(&a, &b));
	eap_conf_clear(&b);
	for (size_t i = 0; i < sizeof(same_changed) / sizeof(same_changed[0]); i++) {
		ck_assert_msg(parse(same_changed[i].text, &b, &err) == 0, "%s: %s",
			      same_changed[i].what, err.msg);
		ck_assert_msg(!eap_conf_same(&a, &b) && !eap_conf_same(&b, &a), "%s: same",
			      same_changed[i].what);
		eap_conf_clear(&b);
	}
	/* A blob's bytes can change under its name: never the same. */
	free(a.ca_file);
	a.ca_file = strdup("blob://ca");
	ck_assert_int_eq(eap_conf_copy(&b, &a), 0);
	ck_assert(!eap_conf_same(&a, &b));
	eap_conf_clear(&a);
	eap_conf_clear(&b);
}
END_TEST

Suite *make_config_eap_suite(void)
{
	Suite *s = suite_create("config_eap");
	TCase *tc = tcase_create("eap");
	tcase_add_test(tc, peap_profile);
	tcase_add_test(tc, md5_and_tls_profiles);
	tcase_add_test(tc, malformed_table);
	tcase_add_test(tc, same_profile);
	suite_add_tcase(s, tc);
	return s;
}
