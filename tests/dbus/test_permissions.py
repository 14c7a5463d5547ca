#!/usr/bin/python3
"""Who may do what, with the policy file dbus/org.wpad1.conf on a bus
configured like the system bus:

  - an unprivileged user reads every public property and lists objects,
    and is refused every configuring call: by the bus (AccessDenied) for
    methods, by wpad itself (org.wpad1.Error.PermissionDenied) for
    Properties.Set, which the bus cannot tell apart;
  - a member of group netdev configures;
  - on a bus that lets every call through (no policy), wpad still refuses
    the unprivileged caller with PermissionDenied;
  - no property holds a secret."""

import json

from wpadtest import (ERR, NETDEV_USER, USER, Setup, call_as, check, ensure_user, sim_radios,
                      ssid_path)

CONF = sim_radios("r0", "r1") + """
[AccessPoint ap0]
Radio=r0
SSID=wpad-perm
Passphrase=very secret passphrase
Channel=1
[Station s0]
Radio=r1
AutoConnect=false
"""

S0 = "/org/wpad1/device/s0"
AP0 = "/org/wpad1/device/ap0"
PROPS = "org.freedesktop.DBus.Properties"
DENIED = "org.freedesktop.DBus.Error.AccessDenied"

CONFIGURING = [
    (S0, "org.wpad1.Station", "Scan", [], ""),
    (S0, "org.wpad1.Station", "Disconnect", [], ""),
    (S0, "org.wpad1.Station", "ConnectHiddenNetwork", ["x"], "s"),
    (AP0, "org.wpad1.AccessPoint", "Stop", [], ""),
    (AP0, "org.wpad1.AccessPoint", "Start", [{"SSID": "x"}], "a{sv}"),
    ("/org/wpad1", "org.wpad1.Manager", "RegisterAgent", ["/a"], "o"),
    ("/org/wpad1", "org.wpad1.Manager", "UnregisterAgent", ["/a"], "o"),
]


def reads(s, user):
    r = call_as(user, s.busd.address, "/", "org.freedesktop.DBus.ObjectManager",
                "GetManagedObjects")
    check(r[0] == "OK" and S0 in r[1], "%s lists the objects" % user)
    r = call_as(user, s.busd.address, S0, PROPS, "GetAll", ["org.wpad1.Device"], "s")
    check(r[0] == "OK" and '"Mode": "station"' in r[1], "%s reads Device properties" % user)
    r = call_as(user, s.busd.address, S0, PROPS, "Get", ["org.wpad1.Station", "State"], "ss")
    check(r[0] == "OK", "%s reads Station.State" % user)
    r = call_as(user, s.busd.address, S0, "org.wpad1.Station", "GetOrderedNetworks")
    check(r[0] == "OK", "%s calls GetOrderedNetworks" % user)
    r = call_as(user, s.busd.address, S0, "org.freedesktop.DBus.Introspectable", "Introspect")
    check(r[0] == "OK" and "org.wpad1.Station" in r[1], "%s introspects" % user)


def refusals(s, user, method_error):
    for path, iface, member, args, sig in CONFIGURING:
        r = call_as(user, s.busd.address, path, iface, member, args, sig)
        check(r[0] == "ERR" and r[1] == method_error,
              "%s may not call %s.%s (%s)" % (user, iface, member, r[1:]))
    for path, iface, prop, value in ((S0, "org.wpad1.Device", "Powered", False),
                                     (S0, "org.wpad1.Station", "AutoConnect", True)):
        r = call_as(user, s.busd.address, path, PROPS, "Set", [iface, prop, value], "ssv")
        check(r[0] == "ERR" and r[1] == ERR + "PermissionDenied" and "netdev" in r[2],
              "%s may not set %s: PermissionDenied" % (user, prop))
    check(s.prop(S0, "org.wpad1.Device", "Powered"), "the device stayed powered")


def netdev_member(s):
    r = call_as(NETDEV_USER, s.busd.address, S0, "org.wpad1.Station", "Scan")
    check(r[0] == "OK", "a member of netdev scans")
    r = call_as(NETDEV_USER, s.busd.address, S0, PROPS, "Set",
                ["org.wpad1.Station", "AutoConnect", False], "ssv")
    check(r[0] == "OK", "a member of netdev sets a property")
    net = ssid_path(S0, "wpad-perm", "psk")
    r = call_as(NETDEV_USER, s.busd.address, net, "org.wpad1.Network", "Connect")
    check(r[0] == "ERR" and r[1] == ERR + "NoAgent", "and connects (reaching wpad: NoAgent)")


def no_secrets(s):
    everything = json.dumps(s.managed(), default=str)
    check("very secret passphrase" not in everything and "assphrase" not in everything,
          "no property of any object holds or names a passphrase")


def main():
    ensure_user(USER)
    ensure_user(NETDEV_USER, "netdev")
    with Setup(CONF) as s:
        s.call(S0, "org.wpad1.Station", "Scan", timeout=60)
        reads(s, USER)
        refusals(s, USER, DENIED)
        netdev_member(s)
        no_secrets(s)
    with Setup(CONF, permissive=True) as s:
        reads(s, USER)
        refusals(s, USER, ERR + "PermissionDenied")
    print("PASS")


if __name__ == "__main__":
    main()
