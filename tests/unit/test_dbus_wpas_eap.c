/* The 802.1X keys of fi.w1.wpa_supplicant1 AddNetwork (dbus/wpas_neteap.c
 * through dbus/wpas_netdict.c): NetworkManager 1.42's PEAP dictionary as
 * captured (docs/nm.md: identity, password, ca_cert and
 * domain_suffix_match as byte arrays), every key with a valid value, and
 * a table of values wpad cannot honour, each refused naming its key. */
#include <check.h>
#include <dbus/dbus.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "daemon/config/eap_conf.h"
#include "daemon/crypto/cred_blob.h"
#include "dbus/wpas_i.h"
#include "dbus/wpas_netdict.h"

/* One dict entry: key, type ('s', 'y' = ay, 'i'), value. */
struct kv {
	const char *key;
	char type;
	const char *s;
	int i;
};

static void append(DBusMessageIter *dict, const struct kv *e)
{
	DBusMessageIter ent, var, arr;
	char sig[3] = { (char)(e->type == 'y' ? 'a' : e->type), e->type == 'y' ? 'y' : 0, 0 };
	ck_assert(dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &ent));
	ck_assert(dbus_message_iter_append_basic(&ent, DBUS_TYPE_STRING, &e->key));
	ck_assert(dbus_message_iter_open_container(&ent, DBUS_TYPE_VARIANT, sig, &var));
	if (e->type == 's') {
		ck_assert(dbus_message_iter_append_basic(&var, DBUS_TYPE_STRING, &e->s));
	} else if (e->type == 'i') {
		dbus_int32_t v = e->i;
		ck_assert(dbus_message_iter_append_basic(&var, DBUS_TYPE_INT32, &v));
	} else {
		const unsigned char *b = (const unsigned char *)e->s;
		ck_assert(dbus_message_iter_open_container(&var, DBUS_TYPE_ARRAY, "y", &arr));
		ck_assert(dbus_message_iter_append_fixed_array(&arr, DBUS_TYPE_BYTE, &b,
							       (int)strlen(e->s)));
		ck_assert(dbus_message_iter_close_container(&var, &arr));
	}
	ck_assert(dbus_message_iter_close_container(&ent, &var));
	ck_assert(dbus_message_iter_close_container(dict, &ent));
}

/* NetworkManager's PEAP network (docs/nm.md), with extra entries. */
static const struct kv peap[] = {
	{ "ssid", 'y', "corp", 0 },
	{ "scan_ssid", 'i', NULL, 1 },
	{ "bgscan", 'y', "simple:30:-65:300", 0 },
	{ "key_mgmt", 's', "WPA-EAP FT-EAP FT-EAP-SHA384 WPA-EAP-SHA256", 0 },
	{ "eap", 's', "PEAP", 0 },
	{ "identity", 'y', "alice", 0 },
	{ "password", 'y', "s3cret", 0 },
	{ "phase2", 's', "auth=MSCHAPV2", 0 },
	{ "ca_cert", 'y', "/etc/ssl/corp-ca.pem", 0 },
	{ "domain_suffix_match", 'y', "corp.example", 0 },
	{ "fragment_size", 'i', NULL, 1266 },
	{ "proactive_key_caching", 'i', NULL, 1 },
};

/* Parses the base entries plus extra (key NULL ends; a base key named in
 * extra is replaced, type 0 drops it). */
static int parse(const struct kv *base, size_t n_base, const struct kv *extra, size_t n_extra,
		 struct wpas_net *n, char *why, size_t cap)
{
	DBusMessage *m = dbus_message_new_method_call("x.y", "/x", "x.y", "AddNetwork");
	DBusMessageIter it, dict;
	dbus_message_iter_init_append(m, &it);
	ck_assert(dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict));
	for (size_t i = 0; i < n_base; i++) {
		bool replaced = false;
		for (size_t j = 0; j < n_extra; j++)
			replaced |= strcmp(extra[j].key, base[i].key) == 0;
		if (!replaced)
			append(&dict, &base[i]);
	}
	for (size_t j = 0; j < n_extra; j++)
		if (extra[j].type)
			append(&dict, &extra[j]);
	ck_assert(dbus_message_iter_close_container(&it, &dict));
	memset(n, 0, sizeof(*n));
	why[0] = '\0';
	int r = wpas_net_parse(m, n, why, cap);
	dbus_message_unref(m);
	return r;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(nm_peap)
{
	struct wpas_net n;
	char why[256];
	ck_assert_int_eq(parse(peap, N(peap), NULL, 0, &n, why, sizeof(why)), 0);
	ck_assert(wpas_net_is_8021x(&n));
	ck_assert_ptr_nonnull(n.eap_conf);
	const struct eap_conf *c = n.eap_conf;
	ck_assert_uint_eq(c->n_methods, 1);
	ck_assert_str_eq(c->methods[0], "PEAP");
	ck_assert_str_eq(c->identity, "alice");
	ck_assert_str_eq(c->password, "s3cret");
	ck_assert_str_eq(c->phase2, "MSCHAPV2");
	ck_assert_str_eq(c->ca_file, "/etc/ssl/corp-ca.pem");
	ck_assert_str_eq(c->domain_suffix, "corp.example");
	ck_assert_int_eq(c->tls_min, EAP_CONF_TLS_1_2);
	ck_assert_ptr_null(n.eap_ini);
	wpas_eap_release(&n);
	ck_assert_ptr_null(n.eap_conf);
}
END_TEST

/* Every key with a valid value, as s and as ay where NM may send bytes. */
START_TEST(every_key_valid)
{
	static const struct kv ttls[] = {
		{ "eap", 's', "TTLS", 0 },
		{ "anonymous_identity", 'y', "anon@corp.example", 0 },
		{ "phase2", 's', "autheap=MSCHAPV2", 0 },
		{ "ca_cert", 's', "blob://ca-corp", 0 },
		{ "ca_path", 's', "/etc/ssl/certs", 0 },
		{ "domain_match", 's', "radius.corp.example", 0 },
		{ "phase1", 's', "peapver=0 tls_disable_tlsv1_0=1 tls_disable_tlsv1_1=1 "
				 "tls_disable_tlsv1_2=1", 0 },
		{ "key_mgmt", 's', "WPA-EAP-SHA256", 0 },
	};
	struct wpas_net n;
	char why[256];
	ck_assert_msg(parse(peap, N(peap), ttls, N(ttls), &n, why, sizeof(why)) == 0, "%s", why);
	const struct eap_conf *c = n.eap_conf;
	ck_assert_str_eq(c->methods[0], "TTLS");
	ck_assert_str_eq(c->anonymous_identity, "anon@corp.example");
	ck_assert_str_eq(c->phase2, "MSCHAPV2");
	ck_assert(c->phase2_eap);
	ck_assert_str_eq(c->ca_file, "blob://ca-corp");
	ck_assert_str_eq(c->ca_dir, "/etc/ssl/certs");
	ck_assert_str_eq(c->server_name, "radius.corp.example");
	ck_assert_int_eq(c->tls_min, EAP_CONF_TLS_1_3);
	wpas_eap_release(&n);

	static const struct kv tls[] = {
		{ "eap", 's', "TLS", 0 },
		{ "password", 0, NULL, 0 },
		{ "phase2", 0, NULL, 0 },
		{ "client_cert", 'y', "/etc/wpad/alice.pem", 0 },
		{ "private_key", 's', "blob://alice-key", 0 },
		{ "private_key_passwd", 'y', "k3y", 0 },
		{ "altsubject_match", 's', "DNS:radius.corp.example", 0 },
		{ "phase1", 's', "tls_disable_tlsv1_3=1", 0 },
	};
	ck_assert_msg(parse(peap, N(peap), tls, N(tls), &n, why, sizeof(why)) == 0, "%s", why);
	c = n.eap_conf;
	ck_assert_str_eq(c->methods[0], "TLS");
	ck_assert_str_eq(c->client_cert, "/etc/wpad/alice.pem");
	ck_assert_str_eq(c->private_key, "blob://alice-key");
	ck_assert_str_eq(c->key_passphrase, "k3y");
	ck_assert_str_eq(c->server_name, "radius.corp.example");
	ck_assert_int_eq(c->tls_max, EAP_CONF_TLS_1_2);
	ck_assert_ptr_null(c->password);
	wpas_eap_release(&n);

	static const struct kv inner[] = {
		{ "phase2", 's', "auth=GTC", 0 },
	};
	ck_assert_int_eq(parse(peap, N(peap), inner, N(inner), &n, why, sizeof(why)), 0);
	ck_assert_str_eq(n.eap_conf->phase2, "GTC");
	wpas_eap_release(&n);
	static const struct kv md5[] = {
		{ "eap", 's', "MD5", 0 },
		{ "phase2", 0, NULL, 0 },
		{ "ca_cert", 0, NULL, 0 },
		{ "domain_suffix_match", 0, NULL, 0 },
	};
	ck_assert_int_eq(parse(peap, N(peap), md5, N(md5), &n, why, sizeof(why)), 0);
	ck_assert_str_eq(n.eap_conf->methods[0], "MD5");
	wpas_eap_release(&n);
}
END_TEST

/* A PSK network carries no profile; the front's old keys still work. */
START_TEST(psk_has_no_profile)
{
	static const struct kv psk[] = {
		{ "ssid", 'y', "home", 0 },
		{ "key_mgmt", 's', "WPA-PSK WPA-PSK-SHA256 FT-PSK SAE FT-SAE", 0 },
		{ "psk", 's', "secret passphrase", 0 },
	};
	struct wpas_net n;
	char why[256];
	ck_assert_int_eq(parse(psk, N(psk), NULL, 0, &n, why, sizeof(why)), 0);
	ck_assert(!wpas_net_is_8021x(&n));
	ck_assert_ptr_null(n.eap_conf);
	ck_assert_ptr_null(n.eap_ini);
}
END_TEST

/* Values wpad cannot honour: refused, the key (or the rule) named. */
static const struct {
	struct kv kv;
	const char *says;
} refused[] = {
	{ { "key_mgmt", 's', "WPA-EAP-SUITE-B-192", 0 }, "Suite B" },
	{ { "key_mgmt", 's', "WPA-EAP-SUITE-B", 0 }, "Suite B" },
	{ { "key_mgmt", 's', "IEEE8021X", 0 }, "dynamic WEP" },
	{ { "key_mgmt", 's', "WPA-PSK", 0 }, "802.1X keys need key_mgmt" },
	{ { "eap", 's', "FAST", 0 }, "not an EAP method wpad runs" },
	{ { "eap", 's', "PEAP PEAP", 0 }, "given twice" },
	{ { "eap", 0, NULL, 0 }, "eap is missing" },
	{ { "identity", 0, NULL, 0 }, "needs Identity" },
	{ { "password", 's', "hash:0123456789abcdef0123456789abcdef", 0 }, "password: an NT password hash" },
	{ { "phase2", 's', "auth=MSCHAP", 0 }, "cannot run inside PEAP" },
	{ { "phase2", 's', "MSCHAPV2", 0 }, "phase2: not auth=METHOD" },
	{ { "phase2", 's', "auth=PAP autheap=MD5", 0 }, "phase2: contradicts" },
	{ { "phase2", 's', "autheap=", 0 }, "phase2: not auth=METHOD" },
	{ { "phase2", 's', "auth=PAP", 0 }, "cannot run inside PEAP" },
	{ { "phase2", 0, NULL, 0 }, "needs Phase2" },
	{ { "phase1", 's', "peapver=1", 0 }, "phase1: PEAPv1" },
	{ { "phase1", 's', "peaplabel=1", 0 }, "phase1: PEAPv1" },
	{ { "phase1", 's', "tls_disable_tlsv1_0=0", 0 }, "phase1: TLS 1.0" },
	{ { "phase1", 's', "tls_disable_time_checks=1", 0 }, "phase1: certificate validity" },
	{ { "phase1", 's', "fast_provisioning=1", 0 }, "phase1: a phase1 word" },
	{ { "phase1", 's', "tls_disable_tlsv1_2=1 tls_disable_tlsv1_3=1", 0 }, "TLSMinVersion is above" },
	{ { "ca_cert", 0, NULL, 0 }, "needs the server checked" },
	{ { "ca_cert", 's', "relative/ca.pem", 0 }, "ca_cert: an absolute path or blob://NAME" },
	{ { "ca_cert", 's', "blob://", 0 }, "ca_cert: an absolute path or blob://NAME" },
	{ { "ca_cert", 's', "blob://a/b", 0 }, "ca_cert: an absolute path or blob://NAME" },
	{ { "ca_cert", 's', "pkcs11:token", 0 }, "ca_cert: an absolute path" },
	{ { "ca_path", 's', "certs", 0 }, "ca_path: an absolute path" },
	{ { "client_cert", 's', "alice.pem", 0 }, "client_cert: an absolute path" },
	{ { "private_key", 's', "/k.pem", 0 }, "PrivateKey= without ClientCert" },
	{ { "domain_suffix_match", 's', "a.example;b.example", 0 }, "one name only" },
	{ { "domain_match", 's', "a.example;b.example", 0 }, "one name only" },
	{ { "altsubject_match", 's', "EMAIL:admin@corp.example", 0 }, "only one DNS:name" },
	{ { "altsubject_match", 's', "DNS:a.example;DNS:b.example", 0 }, "only one DNS:name" },
	{ { "subject_match", 's', "/CN=radius", 0 }, "subject_match: substring matches" },
	{ { "pin", 's', "1234", 0 }, "pin: smart cards" },
	{ { "pac_file", 's', "/var/pac", 0 }, "pac_file: EAP-FAST" },
	{ { "ca_cert2", 's', "/ca2.pem", 0 }, "ca_cert2: certificates of an inner" },
	{ { "domain_suffix_match2", 's', "x", 0 }, "domain_suffix_match2: matches of an inner" },
	{ { "identity", 'i', NULL, 5 }, "identity: must be a string" },
	{ { "fragment_size", 's', "1266", 0 }, "fragment_size: must be an integer" },
	/* A hotspot with 802.1X keys (found by fuzz_dbus_wpas_net: the keys
	 * stayed half-read on a mode-2 network). */
	{ { "mode", 'i', NULL, 2 }, "eap: 802.1X keys are for station networks" },
};

START_TEST(refused_table)
{
	struct wpas_net n;
	char why[256];
	for (size_t i = 0; i < N(refused); i++) {
		int r = parse(peap, N(peap), &refused[i].kv, 1, &n, why, sizeof(why));
		ck_assert_msg(r == -EINVAL, "%s=%s accepted", refused[i].kv.key,
			      refused[i].kv.s ? refused[i].kv.s : "(absent)");
		ck_assert_msg(strstr(why, refused[i].says), "%s: \"%s\" does not say \"%s\"",
			      refused[i].kv.key, why, refused[i].says);
		ck_assert_ptr_null(n.eap_conf);
		ck_assert_ptr_null(n.eap_ini);
	}
}
END_TEST

/* A NUL inside a byte array is refused, not cut. */
START_TEST(nul_in_bytes)
{
	DBusMessage *m = dbus_message_new_method_call("x.y", "/x", "x.y", "AddNetwork");
	DBusMessageIter it, dict;
	dbus_message_iter_init_append(m, &it);
	ck_assert(dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict));
	for (size_t i = 0; i < N(peap); i++)
		if (strcmp(peap[i].key, "identity") != 0)
			append(&dict, &peap[i]);
	DBusMessageIter ent, var, arr;
	const char *k = "identity";
	static const unsigned char id[] = { 'a', 0, 'b' };
	const unsigned char *p = id;
	ck_assert(dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &ent));
	ck_assert(dbus_message_iter_append_basic(&ent, DBUS_TYPE_STRING, &k));
	ck_assert(dbus_message_iter_open_container(&ent, DBUS_TYPE_VARIANT, "ay", &var));
	ck_assert(dbus_message_iter_open_container(&var, DBUS_TYPE_ARRAY, "y", &arr));
	ck_assert(dbus_message_iter_append_fixed_array(&arr, DBUS_TYPE_BYTE, &p, 3));
	ck_assert(dbus_message_iter_close_container(&var, &arr));
	ck_assert(dbus_message_iter_close_container(&ent, &var));
	ck_assert(dbus_message_iter_close_container(&dict, &ent));
	ck_assert(dbus_message_iter_close_container(&it, &dict));
	struct wpas_net n;
	char why[256];
	memset(&n, 0, sizeof(n));
	ck_assert_int_eq(wpas_net_parse(m, &n, why, sizeof(why)), -EINVAL);
	ck_assert(strstr(why, "identity: must be text without NUL"));
	ck_assert_ptr_null(n.eap_ini);
	dbus_message_unref(m);
}
END_TEST

/* The blob registry the TLS loader reads blob://NAME from. */
START_TEST(blob_registry)
{
	const char *name;
	size_t len;
	ck_assert(wpas_blob_name_ok("ca_cert-1.pem"));
	ck_assert(!wpas_blob_name_ok(""));
	ck_assert(!wpas_blob_name_ok("a/b"));
	ck_assert(!wpas_blob_name_ok("a b"));
	ck_assert_int_eq(cred_blob_put("wpas0/ca", (const uint8_t *)"abc", 3), 0);
	ck_assert_int_eq(cred_blob_put("wpas0/key", (const uint8_t *)"k", 1), 0);
	ck_assert_int_eq(cred_blob_put("wpas1/ca", (const uint8_t *)"xy", 2), 0);
	const uint8_t *b = cred_blob_get("wpas0/ca", &len);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(len, 3);
	ck_assert_mem_eq(b, "abc", 3);
	ck_assert_int_eq(cred_blob_put("wpas0/ca", (const uint8_t *)"defg", 4), 0);
	ck_assert_uint_eq((cred_blob_get("wpas0/ca", &len), len), 4);
	ck_assert(cred_blob_ref("blob://wpas0/ca", &name));
	ck_assert_str_eq(name, "wpas0/ca");
	ck_assert(!cred_blob_ref("/etc/ca.pem", &name));
	cred_blob_drop_prefix("wpas0/");
	ck_assert_ptr_null(cred_blob_get("wpas0/ca", &len));
	ck_assert_ptr_null(cred_blob_get("wpas0/key", &len));
	ck_assert_ptr_nonnull(cred_blob_get("wpas1/ca", &len));
	ck_assert_int_eq(cred_blob_drop("wpas1/ca"), 0);
	ck_assert_int_eq(cred_blob_drop("wpas1/ca"), -ENOENT);
	ck_assert_int_eq(cred_blob_put("", (const uint8_t *)"x", 1), -EINVAL);
}
END_TEST

Suite *make_dbus_wpas_eap_suite(void)
{
	Suite *s = suite_create("dbus_wpas_eap");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, nm_peap);
	tcase_add_test(tc, every_key_valid);
	tcase_add_test(tc, psk_has_no_profile);
	tcase_add_test(tc, refused_table);
	tcase_add_test(tc, nul_in_bytes);
	tcase_add_test(tc, blob_registry);
	suite_add_tcase(s, tc);
	return s;
}
