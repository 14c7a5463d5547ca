"""Enterprise (802.1X) known networks provisioned over org.wpad1
(Manager.AddKnownNetwork) and over the fi.w1.wpa_supplicant1 front
(AddNetwork with NetworkManager's 802.1X keys, AddBlob): read back without
a secret, the file written without one unless StoreSecrets, the errors of
the catalogue (InvalidArguments naming the rule, NotSupported) and the
front's (InvalidArgs, BlobExists, BlobUnknown). wpad runs on a simulated
radio; nothing connects here (see tests/integration/wired for a connect)."""

import os
import stat
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dbus"))

import dbus  # noqa: E402
from wpadtest import WPAS as W, WPAS_IFACE as WIFACE, WPAS_ROOT as WROOT  # noqa: E402
from wpadtest import BUILD, ERR, ay, check, pump, sim_radios, wpas_setup  # noqa: E402

MGR = "org.wpad1.Manager"
KNOWN = "org.wpad1.KnownNetwork"
ROOT = "/org/wpad1"

CONF = sim_radios("r1") + """
[Station s0]
Radio=r1
AutoConnect=false
"""


def sv(d):
    return dbus.Dictionary(d, signature="sv")


PEAP = {
    "Method": dbus.Array(["PEAP"], signature="s"),
    "Identity": "alice@corp.example",
    "AnonymousIdentity": "anonymous@corp.example",
    "Password": "pw-in-memory",
    "Phase2": "MSCHAPV2",
    "CACert": "/etc/ssl/corp-ca.pem",
    "DomainSuffix": "corp.example",
    "TLSMinVersion": "1.3",
}


def no_secret(d, *secrets):
    text = repr(d)
    return all(s not in text for s in secrets) and "Password" not in d and \
        "PrivateKeyPassphrase" not in d


def file_of(s, name):
    return os.path.join(s.daemon.state, name + ".8021x")


with wpas_setup(CONF) as s:
    # ---- org.wpad1: provision, read back ----
    path = s.call(ROOT, MGR, "AddKnownNetwork", "corp", "8021x", sv(PEAP))
    check(path == "/org/wpad1/known/636f7270_8021x", "AddKnownNetwork gives " + path)
    k = s.props(path, KNOWN)
    check(k["Security"] == "8021x" and k["Name"] == "corp", "a KnownNetwork corp, 8021x")
    eap = k["EAP"]
    check(list(eap["Method"]) == ["PEAP"] and eap["Identity"] == "alice@corp.example" and
          eap["Phase2"] == "MSCHAPV2" and eap["CACert"] == "/etc/ssl/corp-ca.pem" and
          eap["DomainSuffix"] == "corp.example" and eap["TLSMinVersion"] == "1.3" and
          eap["AnonymousIdentity"] == "anonymous@corp.example",
          "EAP reads the profile back: %s" % dict(eap))
    check(eap["HasPassword"] and not eap["HasKeyPassphrase"] and
          not eap["AllowUnverifiedServer"], "HasPassword true, no key passphrase")
    check(no_secret(eap, "pw-in-memory"), "EAP carries no secret")
    with open(file_of(s, "corp")) as f:
        text = f.read()
    check("Identity=alice@corp.example" in text and "pw-in-memory" not in text and
          "Password" not in text, "the file has the profile and not the password")
    check(stat.S_IMODE(os.stat(file_of(s, "corp")).st_mode) == 0o600, "the file is 0600")
    managed = s.managed()
    check(no_secret(managed[path][KNOWN]["EAP"], "pw-in-memory"),
          "GetManagedObjects shows no secret")

    # StoreSecrets=true: asked for in as many words, the file keeps it.
    tls = {
        "Method": "TLS", "Identity": "alice", "CASystem": True,
        "ServerName": "radius.corp.example", "ClientCert": "/etc/wpad/alice.pem",
        "PrivateKey": "/etc/wpad/alice.key", "PrivateKeyPassphrase": "kp-stored",
        "StoreSecrets": True, "AutoConnect": False, "Hidden": True,
    }
    p2 = s.call(ROOT, MGR, "AddKnownNetwork", "lab", "8021x", sv(tls))
    k2 = s.props(p2, KNOWN)
    check(not k2["AutoConnect"] and k2["Hidden"], "AutoConnect and Hidden taken")
    check(k2["EAP"]["HasKeyPassphrase"] and k2["EAP"]["CASystem"] and
          no_secret(k2["EAP"], "kp-stored"), "TLS profile read back without the passphrase")
    with open(file_of(s, "lab")) as f:
        check("PrivateKeyPassphrase=kp-stored" in f.read(), "StoreSecrets: the file keeps it")

    # Replacing a profile: the new one, announced.
    n0 = len(s.signals)
    ttls = {"Method": "TTLS", "Identity": "bob", "Phase2": "PAP",
            "CAPath": "/etc/ssl/certs", "ServerName": "radius.corp.example"}
    check(s.call(ROOT, MGR, "AddKnownNetwork", "corp", "8021x", sv(ttls)) == path,
          "the same network is replaced")
    eap = s.prop(path, KNOWN, "EAP")
    check(list(eap["Method"]) == ["TTLS"] and eap["Identity"] == "bob" and
          not eap["HasPassword"] and "AnonymousIdentity" not in eap,
          "the new profile replaced the old one entirely: %s" % dict(eap))
    pump(0.3)
    check(any(p == path and m == "PropertiesChanged" and "EAP" in a[1]
              for p, i, m, a in s.signals[n0:]), "PropertiesChanged announces EAP")

    # ---- org.wpad1: errors ----
    def err(name, sec, settings):
        return s.error_of(ROOT, MGR, "AddKnownNetwork", name, sec, sv(settings))

    base = {"Method": "PEAP", "Identity": "a", "Phase2": "MSCHAPV2", "CACert": "/ca.pem"}
    cases = [
        ("no CA", dict(base, CACert=None), "InvalidArguments", "needs the server checked"),
        ("CA and unverified", dict(base, AllowUnverifiedServer=True), "InvalidArguments",
         "contradicts"),
        ("relative CA", dict(base, CACert="ca.pem"), "InvalidArguments", "absolute path"),
        ("unknown method", dict(base, Method="FAST"), "InvalidArguments", "not an EAP method"),
        ("inner", dict(base, Phase2="PAP"), "InvalidArguments", "cannot run inside PEAP"),
        ("no identity", dict(base, Identity=None), "InvalidArguments", "needs Identity"),
        ("TLS version", dict(base, TLSMinVersion="1.1"), "InvalidArguments", "1.2 or 1.3"),
        ("TLS without cert", dict(base, Method="TLS", Phase2=None), "InvalidArguments",
         "needs ClientCert"),
        ("unknown key", dict(base, Colour="blue"), "InvalidArguments", "unknown key"),
        ("type", dict(base, AutoConnect="yes"), "InvalidArguments", "true or false"),
        ("type b", dict(base, Hidden=dbus.Int32(1)), "InvalidArguments", "booleans"),
        ("secret type", dict(base, Password=dbus.Int32(5)), "InvalidArguments", "Password"),
    ]
    for what, settings, name, text in cases:
        settings = {k: v for k, v in settings.items() if v is not None}
        e, msg = err("x", "8021x", settings)
        check(e == ERR + name and text in msg, "%s: %s (%s)" % (what, e, msg))
    e, msg = err("home", "psk", {})
    check(e == ERR + "NotSupported", "a psk network: NotSupported (%s)" % msg)
    e, msg = err("x", "wep", base)
    check(e == ERR + "InvalidArguments", "an unknown security: InvalidArguments")
    e, msg = err("x" * 33, "8021x", base)
    check(e == ERR + "InvalidArguments" and "32" in msg, "a 33-byte name: InvalidArguments")
    check(not os.path.exists(file_of(s, "x")), "nothing written for a refused profile")

    # ---- wpactl known add-8021x ----
    def wpactl(*args, stdin=None):
        r = subprocess.run([os.path.join(BUILD, "wpactl"), "--bus", s.busd.address] +
                           list(args), input=stdin, capture_output=True, text=True, timeout=30)
        return r.returncode, r.stdout + r.stderr

    ca = os.path.join(s.tmp, "ca.pem")
    open(ca, "w").close()
    rc, out = wpactl("known", "add-8021x", "eduroam", "--method", "TTLS", "--identity",
                     "carol@uni.example", "--anonymous-identity", "anonymous@uni.example",
                     "--phase2", "PAP", "--ca-cert", os.path.relpath(ca), "--domain-suffix",
                     "uni.example", "--tls-min", "1.3", "--password", "-",
                     "--set", "AutoConnect=false", stdin="pw-from-stdin\n")
    check(rc == 0 and "eduroam" in out, "wpactl known add-8021x: %d %s" % (rc, out.strip()))
    eap = s.prop("/org/wpad1/known/656475726f616d_8021x", KNOWN, "EAP")
    check(list(eap["Method"]) == ["TTLS"] and eap["CACert"] == os.path.realpath(ca) and
          eap["Phase2"] == "PAP" and eap["TLSMinVersion"] == "1.3" and eap["HasPassword"] and
          not s.prop("/org/wpad1/known/656475726f616d_8021x", KNOWN, "AutoConnect"),
          "wpactl's profile read back, the CA made absolute: %s" % dict(eap))
    rc, out = wpactl("known", "add-8021x", "eduroam", "--method", "PEAP", "--identity", "c",
                     "--phase2", "MSCHAPV2")
    check(rc != 0 and "server checked" in out,
          "wpactl: a PEAP profile without a CA is refused by wpad: %s" % out.strip())
    rc, out = wpactl("known", "add-8021x", "open-lab", "--method", "PEAP", "--identity", "c",
                     "--phase2", "MSCHAPV2", "--allow-unverified-server")
    check(rc == 0 and s.prop("/org/wpad1/known/6f70656e2d6c6162_8021x", KNOWN,
                             "EAP")["AllowUnverifiedServer"],
          "--allow-unverified-server is the one way to skip the check")
    rc, out = wpactl("known", "add-8021x", "--help")
    check("--ca-system" in out and "--allow-unverified-server" in out, "wpactl help lists the flags")

    # The station shows the last TLS attempt (none yet).
    check(s.prop("/org/wpad1/device/s0", "org.wpad1.Station", "TLS") == {},
          "Station.TLS is empty before an 802.1X attempt")

    # ---- the fi.w1.wpa_supplicant1 front ----
    root = s.props(WROOT, W)
    check({"PEAP", "TTLS", "TLS", "MD5"} <= set(root["EapMethods"]),
          "EapMethods: %s" % list(root["EapMethods"]))
    ifc = s.call(WROOT, W, "CreateInterface", sv({"Ifname": "wlan100", "Driver": "nl80211,wext"}))
    caps = s.props(ifc, WIFACE)["Capabilities"]
    check("wpa-eap" in caps["KeyMgmt"] and "wpa-eap-sha256" in caps["KeyMgmt"],
          "KeyMgmt lists wpa-eap: %s" % list(caps["KeyMgmt"]))
    # NetworkManager 1.42's PEAP network, as captured (docs/nm.md).
    nm_peap = {
        "ssid": ay(b"corp"), "scan_ssid": dbus.Int32(1), "bgscan": ay(b"simple:30:-65:300"),
        "key_mgmt": "WPA-EAP FT-EAP FT-EAP-SHA384 WPA-EAP-SHA256", "eap": "PEAP",
        "identity": ay(b"alice"), "password": ay(b"nm-secret"), "phase2": "auth=MSCHAPV2",
        "ca_cert": ay(b"/etc/ssl/corp-ca.pem"), "domain_suffix_match": ay(b"corp.example"),
        "fragment_size": dbus.Int32(1266), "proactive_key_caching": dbus.Int32(1),
    }
    net = s.call(ifc, WIFACE, "AddNetwork", sv(nm_peap))
    props = s.prop(net, W + ".Network", "Properties")
    check(props["eap"] == "PEAP" and props["identity"] == "alice" and
          props["phase2"] == "auth=MSCHAPV2" and props["ca_cert"] == "/etc/ssl/corp-ca.pem" and
          props["domain_suffix_match"] == "corp.example", "the front reads the network back")
    check(props["password"] == "*" and "nm-secret" not in repr(props),
          "the front's Properties hide the password")

    # Blobs.
    s.call(ifc, WIFACE, "AddBlob", "ca-corp", ay(b"-----BEGIN CERTIFICATE-----\n"))
    e, _ = s.error_of(ifc, WIFACE, "AddBlob", "ca-corp", ay(b"x"))
    check(e == W + ".BlobExists", "AddBlob twice: BlobExists")
    e, _ = s.error_of(ifc, WIFACE, "AddBlob", "a/b", ay(b"x"))
    check(e == W + ".InvalidArgs", "a blob name with '/': InvalidArgs")
    blob_net = s.call(ifc, WIFACE, "AddNetwork", sv(dict(nm_peap, ca_cert="blob://ca-corp")))
    check(s.prop(blob_net, W + ".Network", "Properties")["ca_cert"] == "blob://ca-corp",
          "ca_cert=blob://ca-corp accepted")
    s.call(ifc, WIFACE, "RemoveBlob", "ca-corp")
    e, _ = s.error_of(ifc, WIFACE, "RemoveBlob", "ca-corp")
    check(e == W + ".BlobUnknown", "RemoveBlob of a gone blob: BlobUnknown")
    e, msg = s.error_of(ifc, WIFACE, "SelectNetwork", blob_net)
    check(e.startswith(W + ".") and "blob://ca-corp" in msg and "AddBlob" in msg,
          "SelectNetwork with a missing blob says which (%s: %s)" % (e, msg))

    # What wpad cannot honour is refused with InvalidArgs, the key named.
    refusals = [
        ({"key_mgmt": "WPA-EAP-SUITE-B-192"}, "Suite B"),
        ({"eap": "FAST"}, "not an EAP method"),
        ({"phase1": "peapver=1"}, "phase1"),
        ({"phase2": "auth=MSCHAP"}, "cannot run inside PEAP"),
        ({"password": "hash:00112233445566778899aabbccddeeff"}, "password"),
        ({"subject_match": "/CN=radius"}, "subject_match"),
        ({"ca_cert": "relative.pem"}, "ca_cert"),
        ({"altsubject_match": "EMAIL:a@b"}, "altsubject_match"),
        ({"pin": "1234"}, "pin"),
    ]
    for extra, text in refusals:
        e, msg = s.error_of(ifc, WIFACE, "AddNetwork", sv(dict(nm_peap, **extra)))
        check(e == W + ".InvalidArgs" and text in msg, "%s: %s (%s)" % (extra, e, msg))
    without_ca = dict(nm_peap)
    del without_ca["ca_cert"]
    e, msg = s.error_of(ifc, WIFACE, "AddNetwork", sv(without_ca))
    check(e == W + ".InvalidArgs" and "server checked" in msg,
          "no ca_cert: refused, wpad never trusts an unverified server (%s)" % msg)
    s.call(ifc, WIFACE, "RemoveNetwork", net)
    s.call(WROOT, W, "RemoveInterface", ifc)

    # ---- after a restart, a secret kept in memory is gone ----
    s.stop_daemon()
    s.start()
    eap = s.prop("/org/wpad1/known/6c6162_8021x", KNOWN, "EAP")
    check(eap["HasKeyPassphrase"], "a stored secret survives a restart")
    s.call(ROOT, MGR, "AddKnownNetwork", "mem", "8021x", sv(PEAP))
    s.stop_daemon()
    s.start()
    eap = s.prop("/org/wpad1/known/6d656d_8021x", KNOWN, "EAP")
    check(list(eap["Method"]) == ["PEAP"] and not eap["HasPassword"],
          "a secret kept in memory is gone after a restart (the agent will be asked)")
    s.call("/org/wpad1/known/6d656d_8021x", KNOWN, "Forget")
    check(not os.path.exists(file_of(s, "mem")), "Forget deletes the file")
print("ok: dbus_known_8021x")
