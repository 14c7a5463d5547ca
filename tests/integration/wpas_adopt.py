"""The fi.w1.wpa_supplicant1 front takes over an interface that exists
already, as wpa_supplicant does when NetworkManager names the kernel's
wlan0: wpad.conf names the radio only (no [Station]); CreateInterface with
the existing interface's name adopts it (a station device appears on
org.wpad1 too), it connects to wpad's own AP, RemoveInterface (while
connected) gives it back as it was found and a second CreateInterface adopts
it again, and the refusals carry the catalogue's names. The
sim radio r1 starts with an interface of its own (netdev=station), as the
kernel gives a phy its wlanN."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dbus"))

import dbus  # noqa: E402
from wpadtest import Setup, check, wait_for  # noqa: E402

W = "fi.w1.wpa_supplicant1"
ROOT = "/fi/w1/wpa_supplicant1"
IFACE = W + ".Interface"
SSID = "wpad-adopt"
PASS = "secret passphrase"

# r1's sim has two radios, wl0 and wl1, each with its station interface
# (wl0-sta, wl1-sta); [Radio r1] is wl0, so wl1-sta is another radio's.
CONF = """
[Radio r0]
Driver=sim
Options=medium=shared,radios=1
[Radio r1]
Driver=sim
Options=medium=shared,radios=2,netdev=station,name=wl,addr=02:77:00:00:00:00
[AccessPoint ap0]
Radio=r0
SSID=wpad-adopt
Passphrase=secret passphrase
Channel=1
"""

POLICY = '<allow own="%s"/>' % W


def ay(b):
    return dbus.Array([dbus.Byte(x) for x in b], signature="y")


def device_paths(s):
    """org.wpad1's device objects (not their networks and BSSs below)."""
    return [str(p) for p in s.managed() if str(p).startswith("/org/wpad1/device/") and
            str(p).count("/") == 4]


def create(s, ifname):
    return dbus.Dictionary({"Ifname": ifname, "Driver": "nl80211,wext"}, signature="sv")


with Setup(CONF, args=("--wpa-supplicant-api",), permissive=True, policy=POLICY) as s:
    devices = device_paths(s)
    check(len(devices) == 1, "before: one org.wpad1 device, the AP: %s" % devices)

    # Refusals: wpa_supplicant's UnknownError, with wpad's catalogue name.
    for ifname, want in (("nosuch0", "org.wpad1.Error.NotFound"),
                         ("wl1-sta", "org.wpad1.Error.NotSupported")):
        name, text = s.error_of(ROOT, W, "CreateInterface", create(s, ifname))
        check(name == W + ".UnknownError" and text.startswith(want) and ifname in text,
              "CreateInterface %s refused: %s: %s" % (ifname, name, text))

    # The kernel's interface of r1: adopted.
    path = s.call(ROOT, W, "CreateInterface", create(s, "wl0-sta"))
    check(path.startswith(ROOT + "/Interfaces/"), "CreateInterface wl0-sta gives " + path)
    props = s.props(path, IFACE)
    check(props["Ifname"] == "wl0-sta" and props["State"] == "inactive",
          "the adopted interface: wl0-sta, inactive")
    devices = device_paths(s)
    check(len(devices) == 2, "after: a station device on org.wpad1 too: %s" % devices)
    check("wl0-sta: adopted" in s.daemon.text(), "wpad's log says it adopted wl0-sta")

    # It works: scan and join wpad's own AP.
    s.call(path, IFACE, "Scan", dbus.Dictionary({"Type": "active", "AllowRoam": False},
                                                signature="sv"))
    s.wait_signal("ScanDone", path)
    net = s.call(path, IFACE, "AddNetwork", dbus.Dictionary({
        "ssid": ay(SSID.encode()), "scan_ssid": dbus.Int32(1),
        "key_mgmt": dbus.String("WPA-PSK"), "psk": dbus.String(PASS)}, signature="sv"))
    s.call(path, IFACE, "SelectNetwork", net)
    s.wait_prop(path, IFACE, "State", "completed", timeout=30)
    check(True, "the adopted interface connected (WPA2-PSK)")

    # RemoveInterface while still connected (NetworkManager killed, or a
    # client that skips Disconnect): the interface goes back as it was
    # found, as wpa_supplicant closes a netdev it was given, and the
    # org.wpad1 device with it.
    found = re.findall(r"wl0-sta: adopted \(was (\w+), (\w+)\)", s.daemon.text())
    check(len(found) == 1, "the sim logged what it found: %s" % found)
    s.call(ROOT, W, "RemoveInterface", path)
    s.wait_signal("InterfaceRemoved", ROOT)
    wait_for(lambda: "wl0-sta: given back (" in s.daemon.text(), 10, "wl0-sta given back")
    back = re.findall(r"wl0-sta: given back \((\w+), (\w+)\)", s.daemon.text())
    check(back == found, "given back as found: %s, found %s" % (back, found))
    check("wl0-sta: given back as found" in s.daemon.text(), "wpad's log says so")
    devices = device_paths(s)
    check(len(devices) == 1, "the adopted device left org.wpad1: %s" % devices)
    name, _ = s.error_of(ROOT, W, "GetInterface", "wl0-sta")
    check(name == W + ".InterfaceUnknown", "GetInterface after RemoveInterface: " + name)

    # NetworkManager restarting: CreateInterface again adopts it anew (the
    # sim refuses to adopt an interface still adopted or connected).
    again = s.call(ROOT, W, "CreateInterface", create(s, "wl0-sta"))
    check(again != path and s.props(again, IFACE)["Ifname"] == "wl0-sta",
          "CreateInterface after RemoveInterface serves it again: " + again)
    check(len(re.findall(r"wl0-sta: adopted \(", s.daemon.text())) == 2, "adopted a second time")
    devices = device_paths(s)
    check(len(devices) == 2, "two org.wpad1 devices again: %s" % devices)
    s.call(again, IFACE, "Scan", dbus.Dictionary({"Type": "active"}, signature="sv"))
    s.wait_signal("ScanDone", again)
    check(True, "the interface adopted again scans")
    log = s.stop_daemon()
    check("wl0-sta: removed" not in log, "at exit the adopted interface is given back, not deleted")
    check(len(re.findall(r"wl0-sta: given back \(", log)) == 2, "and given back a second time")
