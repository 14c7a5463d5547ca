#!/usr/bin/python3
"""The contract holds: every object kind's introspection matches the
interfaces kept in dbus/org.wpad1.xml exactly, every property value has its
declared type, docs/dbus-api.md documents every interface, member and error
with busctl and gdbus examples, and the policy file lets the default context
call exactly the methods that are not privileged."""

import os
import re
import xml.etree.ElementTree as ET

import dbus

from wpadtest import (BUILD, ERR, TOP, Agent, Setup, catalogue, check, fail, sim_radios,
                      ssid_path, wait_for)

CONF = sim_radios("r0", "r1") + """
[AccessPoint ap0]
Radio=r0
SSID=wpad-xml
Passphrase=secret passphrase
Channel=1
[Station s0]
Radio=r1
AutoConnect=false
"""

XML = os.path.join(TOP, "dbus", "org.wpad1.xml")
DOC = os.path.join(TOP, "docs", "dbus-api.md")
POLICY = os.path.join(TOP, "dbus", "org.wpad1.conf")
S0 = "/org/wpad1/device/s0"
STANDARD = {"org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties",
            "org.freedesktop.DBus.Peer"}


def canonical(iface):
    """An interface element as comparable data: order of arguments kept,
    order of members and annotations not."""
    def annotations(el):
        return frozenset((a.get("name"), a.get("value")) for a in el.findall("annotation"))

    def args(el):
        return tuple((a.get("name"), a.get("type"), a.get("direction")) for a in el.findall("arg"))
    out = {}
    for m in iface.findall("method"):
        out["method " + m.get("name")] = (args(m), annotations(m))
    for s in iface.findall("signal"):
        out["signal " + s.get("name")] = (args(s), annotations(s))
    for p in iface.findall("property"):
        out["property " + p.get("name")] = (p.get("type"), p.get("access"), annotations(p))
    return out


def contract():
    root = ET.parse(XML).getroot()
    return {i.get("name"): i for i in root.findall("interface")}


def populate(s):
    """Brings every kind of object into being."""
    s.call(S0, "org.wpad1.Station", "Scan", timeout=60)
    agent = Agent(s.bus, answer="secret passphrase")
    s.call("/org/wpad1", "org.wpad1.Manager", "RegisterAgent", agent.path, sig="o")
    s.call(ssid_path(S0, "wpad-xml", "psk"), "org.wpad1.Network", "Connect", timeout=60)
    wait_for(lambda: any("/sta_" in p for p in s.managed()), 10, "an ApStation object")
    wait_for(lambda: any(p.startswith("/org/wpad1/known/") for p in s.managed()), 10,
             "a KnownNetwork object")


def sig_of(v):
    """The D-Bus signature of a value python-dbus returned."""
    simple = [(dbus.Boolean, "b"), (dbus.Byte, "y"), (dbus.Int16, "n"), (dbus.UInt16, "q"),
              (dbus.Int32, "i"), (dbus.UInt32, "u"), (dbus.Int64, "x"), (dbus.UInt64, "t"),
              (dbus.Double, "d"), (dbus.ObjectPath, "o"), (dbus.Signature, "g"),
              (dbus.String, "s")]
    for t, c in simple:
        if isinstance(v, t):
            return c
    if isinstance(v, dbus.Struct):
        return "(" + "".join(sig_of(x) for x in v) + ")"
    if isinstance(v, dbus.Dictionary):  # its signature is the entry's: "sv"
        return "a{" + v.signature + "}" if v.signature else "a?"
    if isinstance(v, dbus.Array):
        return "a" + v.signature if v.signature else "a?"
    fail("unexpected value type %r" % (v,))


def check_root(s, names):
    """org.wpad1.xml says every object has the standard interfaces: "/" too,
    with no properties of its own."""
    missing = STANDARD - names
    if missing:
        fail("/ lacks %s" % missing)
    check(True, "/ lists Introspectable, Properties and Peer")
    props = "org.freedesktop.DBus.Properties"
    om = "org.freedesktop.DBus.ObjectManager"
    check(s.call("/", props, "GetAll", om, sig="s") == {}, "GetAll(ObjectManager) on /: {}")
    check(s.call("/", props, "GetAll", "", sig="s") == {}, "GetAll('') on /: {}")
    name, _ = s.error_of("/", props, "GetAll", "org.wpad1.Device", sig="s")
    check(name == "org.freedesktop.DBus.Error.UnknownInterface",
          "GetAll of an interface / lacks: UnknownInterface")
    name, _ = s.error_of("/", props, "Get", om, "Version", sig="ss")
    check(name == "org.freedesktop.DBus.Error.UnknownProperty", "Get on /: UnknownProperty")
    name, _ = s.error_of("/", props, "Set", om, "X", dbus.String("y", variant_level=1),
                         sig="ssv")
    check(name == "org.freedesktop.DBus.Error.UnknownProperty", "Set on /: UnknownProperty")
    name, _ = s.error_of("/", props, "GetAll", 5, sig="u")
    check(name == "org.wpad1.Error.InvalidArguments", "GetAll(u) on /: InvalidArguments")
    s.call("/", "org.freedesktop.DBus.Peer", "Ping")
    check(True, "Peer.Ping on /")


def check_objects(s, want):
    exported = {}
    paths = ["/", "/org", "/org/wpad1"] + sorted(str(p) for p in s.managed())
    for path in paths:
        root = ET.fromstring(str(s.call(path, "org.freedesktop.DBus.Introspectable",
                                        "Introspect")))
        names = {i.get("name") for i in root.findall("interface")}
        if path == "/":
            check("org.freedesktop.DBus.ObjectManager" in names, "/ is the ObjectManager")
            check_root(s, names)
        if any(n.startswith("org.wpad1.") for n in names):
            missing = STANDARD - names
            if missing:
                fail("%s lacks %s" % (path, missing))
        for i in root.findall("interface"):
            name = i.get("name")
            if not name.startswith("org.wpad1."):
                continue
            if name not in want:
                fail("%s exports %s, which org.wpad1.xml does not have" % (path, name))
            got, expected = canonical(i), canonical(want[name])
            if got != expected:
                extra = set(got.items()) - set(expected.items())
                lack = set(expected.items()) - set(got.items())
                fail("%s on %s differs from org.wpad1.xml: exported %s, file %s"
                     % (name, path, sorted(extra), sorted(lack)))
            exported.setdefault(name, path)
            props = s.props(path, name)
            for p in i.findall("property"):
                if p.get("name") not in props:
                    fail("%s.%s declared but not in GetAll on %s" % (name, p.get("name"), path))
                t = sig_of(props[p.get("name")])
                if t != p.get("type") and not (t == "a?" and p.get("type").startswith("a")):
                    fail("%s.%s is %s, declared %s" % (name, p.get("name"), t, p.get("type")))
    # Wired8021X lives on wired devices, which need an Ethernet interface:
    # tests/integration/wired/run.sh compares its introspection with
    # org.wpad1.xml on a real one.
    for name in want:
        if name not in ("org.wpad1.Agent", "org.wpad1.Wired8021X") and name not in exported:
            fail("org.wpad1.xml has %s, which no object exports" % name)
    check("org.wpad1.Agent" not in exported, "the Agent interface is the clients' only")
    check(True, "introspection of %d objects matches org.wpad1.xml (%d interfaces)"
          % (len(paths), len(exported)))


def check_docs(want):
    with open(DOC) as f:
        doc = f.read()
    lines = doc.splitlines()
    for name, iface in want.items():
        if "## " + name not in doc and "### " + name not in doc:
            fail("docs/dbus-api.md has no section for " + name)
        for el in iface:
            member = el.get("name")
            if el.tag in ("method", "signal", "property") and \
                    not re.search(r"\b%s\b" % re.escape(member), doc):
                fail("docs/dbus-api.md does not document %s.%s" % (name, member))
            if el.tag == "method" and name != "org.wpad1.Agent":
                for tool in ("busctl", "gdbus"):
                    if not any(tool in l and member in l for l in lines):
                        fail("no %s example calls %s.%s" % (tool, name, member))
    for err in catalogue():
        if err not in doc:
            fail("docs/dbus-api.md does not list " + err)
    check(True, "docs/dbus-api.md documents every interface, member and error, with "
          "busctl and gdbus examples")


def check_policy(want):
    root = ET.parse(POLICY).getroot()
    default = [r for p in root.findall("policy") if p.get("context") == "default"
               for r in p.findall("allow")]
    allowed = {(r.get("send_interface"), r.get("send_member")) for r in default
               if r.get("send_destination") == "org.wpad1"}
    for name, iface in want.items():
        if name == "org.wpad1.Agent":
            continue
        for m in iface.findall("method"):
            priv = any(a.get("name") == "org.wpad1.Privileged" for a in m.findall("annotation"))
            open_ = (name, m.get("name")) in allowed or (name, None) in allowed
            if priv == open_:
                fail("policy: %s.%s is %s but the default context %s call it" %
                     (name, m.get("name"), "privileged" if priv else "public",
                      "may" if open_ else "may not"))
    groups = {p.get("group") or p.get("user") for p in root.findall("policy")
              if any(r.get("send_destination") == "org.wpad1" and not r.get("send_interface")
                     for r in p.findall("allow"))}
    check(groups == {"root", "netdev"}, "only root and netdev may call everything")
    check(True, "the policy file opens exactly the public methods to everyone")


def check_packaging():
    """The systemd unit and the activation file agree and are valid."""
    import configparser
    import shutil
    import subprocess
    import tempfile
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(os.path.join(TOP, "dbus", "wpad.service"))
    svc = configparser.ConfigParser(interpolation=None)
    svc.optionxform = str
    svc.read(os.path.join(TOP, "dbus", "org.wpad1.service"))
    check(unit["Service"]["Type"] == "dbus" and unit["Service"]["BusName"] == "org.wpad1",
          "the unit is Type=dbus, BusName=org.wpad1")
    check(svc["D-BUS Service"]["Name"] == "org.wpad1" and
          svc["D-BUS Service"]["SystemdService"] == "wpad.service" and
          svc["D-BUS Service"]["Exec"] == unit["Service"]["ExecStart"],
          "the activation file starts the unit, with the same command line")
    check("--system" in unit["Service"]["ExecStart"], "under systemd the system bus is required")
    if shutil.which("systemd-analyze"):
        tmp = tempfile.mkdtemp()
        with open(os.path.join(TOP, "dbus", "wpad.service")) as f:
            text = f.read().replace("@SBINDIR@", BUILD).replace("@DOCDIR@", "/usr/share/doc")
        path = os.path.join(tmp, "wpad.service")
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run(["systemd-analyze", "verify", path], capture_output=True, text=True)
        shutil.rmtree(tmp)
        check(r.returncode == 0 and "wpad.service" not in r.stderr,
              "systemd-analyze verify accepts the unit " + r.stderr.strip())


def main():
    want = contract()
    check_packaging()
    check_docs(want)
    check_policy(want)
    with Setup(CONF) as s:
        populate(s)
        check_objects(s, want)
    print("PASS")


if __name__ == "__main__":
    main()
