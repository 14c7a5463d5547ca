"""NetworkManager's hotspot through the fi.w1.wpa_supplicant1 front: a
mode=2 network, added and selected the way NetworkManager 1.42 does it
(the dictionary captured from the real one, docs/nm.md), runs wpad's
access point on that interface. Checked: the capabilities that make
NetworkManager offer a hotspot, the hotspot dictionaries wpad cannot run
refused at AddNetwork (IBSS, mesh, EAP, TKIP alone, WPA1, a bad
frequency or passphrase), State "completed" once the AP beacons, the AP
and its station table on org.wpad1, a station of another simulated radio
joining (StaAuthorized), and RemoveNetwork / Disconnect stopping the AP
and giving the interface back to a station NetworkManager can scan with.
wpad runs on simulated radios."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dbus"))

import dbus  # noqa: E402
from wpadtest import WPAS as W, WPAS_IFACE as IFACE, WPAS_ROOT as ROOT  # noqa: E402
from wpadtest import (SLOW, Agent, ay, by, check, sim_radios, ssid_path, wait_for,  # noqa: E402
                      wpas_setup)

SSID = "wpad-hotspot"
PASS = "hotspot passphrase"
HOT = "/org/wpad1/device/s0"
JOINER = "/org/wpad1/device/joiner"

CONF = sim_radios("r0", "r1") + """
[Station joiner]
Radio=r0
AutoConnect=false
[Station s0]
Radio=r1
AutoConnect=false
"""

def hotspot(**over):
    """NetworkManager 1.42's hotspot network block (captured), with
    overrides; a value None drops the key."""
    d = {
        "ssid": ay(SSID.encode()),
        "mode": dbus.Int32(2),
        "frequency": dbus.Int32(2462),
        "proto": by("RSN"),
        "pairwise": by("CCMP"),
        "group": by("CCMP"),
        "key_mgmt": by("WPA-PSK WPA-PSK-SHA256 SAE"),
        "psk": by(PASS),
    }
    for k, v in over.items():
        if v is None:
            d.pop(k, None)
        else:
            d[k] = v
    return dbus.Dictionary(d, signature="sv")


def refused(s, path, what, says, **over):
    name, text = s.error_of(path, IFACE, "AddNetwork", hotspot(**over))
    check(name == W + ".InvalidArgs" and says in text,
          "%s: refused at AddNetwork (%s: %s)" % (what, name, text))


def activate(s, path):
    # NetworkManager's per-activation settings; ApScan 2 for a hotspot.
    for prop, val in (("BridgeIfname", by("")), ("ApScan", dbus.UInt32(2)),
                      ("Dot11RSNAConfigPMKLifetime", by("604800")), ("ApIsolate", by("0"))):
        s.set_prop(path, IFACE, prop, val)


def join(s, agent):
    """The joiner (a wpad station on another simulated radio) connects."""
    net = ssid_path(JOINER, SSID, "psk")
    for _ in range(10):
        s.call(JOINER, "org.wpad1.Station", "Scan", timeout=60 * SLOW)
        if net in s.managed():
            break
    check(net in s.managed(), "the joiner hears the hotspot")
    s.call(net, "org.wpad1.Network", "Connect", timeout=60 * SLOW)
    check(s.prop(JOINER, "org.wpad1.Station", "State") == "connected", "the joiner connected")
    return agent


with wpas_setup(CONF) as s:
    root = s.props(ROOT, W)
    check("ap" in root["Capabilities"], "root Capabilities list ap: %s" % list(root["Capabilities"]))
    path = s.call(ROOT, W, "CreateInterface",
                  dbus.Dictionary({"Ifname": "wlan101", "Driver": "nl80211,wext"},
                                  signature="sv"))
    caps = s.props(path, IFACE)["Capabilities"]
    check("ap" in caps["Modes"], "interface Modes list ap: %s" % list(caps["Modes"]))

    # Hotspots wpad cannot run: refused when added, naming the key.
    refused(s, path, "IBSS (mode=1)", "IBSS", mode=dbus.Int32(1))
    refused(s, path, "mesh (mode=5)", "mesh", mode=dbus.Int32(5))
    refused(s, path, "an 802.1X hotspot", "WPA-EAP", key_mgmt=by("WPA-EAP"))
    refused(s, path, "no passphrase", "psk", psk=None)
    refused(s, path, "a 7-character passphrase", "8..63", psk=by("short12"))
    refused(s, path, "an unknown frequency", "frequency", frequency=dbus.Int32(2000))
    refused(s, path, "TKIP alone", "TKIP", pairwise=by("TKIP"))
    refused(s, path, "WPA1 alone", "RSN", proto=by("WPA"))
    refused(s, path, "group TKIP", "group", group=by("TKIP"))
    refused(s, path, "SAE alone with a raw PSK", "SAE", key_mgmt=by("SAE"),
            psk=ay(bytes(range(32))))
    refused(s, path, "NONE with a psk", "psk", key_mgmt=by("NONE"))
    check(s.props(path, IFACE)["Networks"] == [], "no network was added by the refusals")

    # NetworkManager's hotspot: settings, AddNetwork, SelectNetwork.
    activate(s, path)
    del s.signals[:]
    net = s.call(path, IFACE, "AddNetwork", hotspot())
    s.call(path, IFACE, "SelectNetwork", net)
    s.wait_prop(path, IFACE, "State", "completed", timeout=30 * SLOW)
    p = s.props(path, IFACE)
    check(p["CurrentNetwork"] == net and p["CurrentBSS"] == "/",
          "CurrentNetwork is the hotspot, CurrentBSS / (as wpa_supplicant in AP mode)")
    check(s.prop(HOT, "org.wpad1.Device", "Mode") == "ap", "the device is an access point")
    a = s.props(HOT, "org.wpad1.AccessPoint")
    check(a["Started"] and str(a["SSID"]) == SSID and a["Frequency"] == 2462 and
          a["Security"] == "wpa2-psk", "AccessPoint: started, SSID, 2462 MHz, wpa2-psk (%s)" %
          dict(a))
    name, _ = s.error_of(path, IFACE, "Scan", dbus.Dictionary({"Type": "active"},
                                                              signature="sv"))
    check(name == IFACE + ".ScanError", "Scan while the hotspot runs: ScanError")

    # A station of another radio joins: StaAuthorized, the station table.
    agent = Agent(s.bus, answer=PASS)
    s.call("/org/wpad1", "org.wpad1.Manager", "RegisterAgent", agent.path, sig="o")
    join(s, agent)
    s.wait_signal("StaAuthorized", path, timeout=30 * SLOW)
    mac = str([a for p_, i, m, a in s.signals if m == "StaAuthorized" and p_ == path][0][0])
    stas = [str(o) for o in s.managed() if str(o).startswith(HOT + "/sta_")]
    check(len(stas) == 1 and s.prop(HOT, "org.wpad1.AccessPoint", "StationCount") == 1,
          "org.wpad1 shows the station (%s, StaAuthorized %s)" % (stas, mac))
    st = s.props(stas[0], "org.wpad1.ApStation")
    check(str(st["Address"]) == mac and str(st["State"]) == "authorized",
          "ApStation: %s authorized" % mac)
    check(s.prop(path, IFACE, "State") == "completed", "still completed with a station")

    # RemoveNetwork (without Disconnect): the AP stops, the station is back.
    s.call(path, IFACE, "RemoveNetwork", net)
    s.wait_prop(HOT, "org.wpad1.Device", "Mode", "station", timeout=15 * SLOW)
    s.wait_prop(path, IFACE, "State", "inactive", timeout=15 * SLOW)
    check(not [o for o in s.managed() if str(o).startswith(HOT + "/sta_")],
          "the station table is gone with the AP")
    s.wait_signal("StaDeauthorized", path, timeout=15 * SLOW)
    wait_for(lambda: s.prop(JOINER, "org.wpad1.Station", "State") != "connected", 20 * SLOW,
             "the joiner to lose the hotspot")
    s.call(path, IFACE, "Scan", dbus.Dictionary({"Type": "active"}, signature="sv"))
    s.wait_signal("ScanDone", path, timeout=30 * SLOW)
    check(True, "the interface scans again as a station")

    # Again, ended by Disconnect (NetworkManager's deactivation), with
    # SAE alone (WPA3-Personal hotspot): PMF required by the AP.
    net = s.call(path, IFACE, "AddNetwork", hotspot(key_mgmt=by("SAE"), frequency=dbus.Int32(2412)))
    s.call(path, IFACE, "SelectNetwork", net)
    s.wait_prop(path, IFACE, "State", "completed", timeout=30 * SLOW)
    check(s.prop(HOT, "org.wpad1.AccessPoint", "Frequency") == 2412, "a second hotspot on 2412")
    s.call(path, IFACE, "Disconnect")
    s.wait_prop(HOT, "org.wpad1.Device", "Mode", "station", timeout=15 * SLOW)
    check(s.prop(path, IFACE, "State") in ("disconnected", "inactive"),
          "after Disconnect: %s" % s.prop(path, IFACE, "State"))
    s.call(path, IFACE, "RemoveNetwork", net)

    # A hotspot still running when NetworkManager removes the interface:
    # the station comes back for wpad.
    net = s.call(path, IFACE, "AddNetwork", hotspot())
    s.call(path, IFACE, "SelectNetwork", net)
    s.wait_prop(path, IFACE, "State", "completed", timeout=30 * SLOW)
    s.call(ROOT, W, "RemoveInterface", path)
    s.wait_prop(HOT, "org.wpad1.Device", "Mode", "station", timeout=15 * SLOW)
    check(True, "RemoveInterface stops the hotspot")
