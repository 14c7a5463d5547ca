"""The fi.w1.wpa_supplicant1 front, driven the way NetworkManager 1.42 drives
wpa_supplicant (the order and types captured from the real NetworkManager:
docs/nm.md): start-up calls, a scan, a WPA2-PSK connect with the
passphrase as "s" and as a raw 32-octet PSK, a wrong passphrase seen as
4way_handshake -> disconnected, Disconnect, RemoveNetwork, and the errors
NetworkManager reacts to. wpad runs on simulated radios with its own AP."""

import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dbus"))

import dbus  # noqa: E402
from wpadtest import WPAS as W, WPAS_IFACE as IFACE, WPAS_ROOT as ROOT  # noqa: E402
from wpadtest import ay, by, check, fail, sim_radios, wait_for, wpas_setup  # noqa: E402

PROPS = "org.freedesktop.DBus.Properties"
SSID = "wpad-test"
PASS = "secret passphrase"

HIDDEN = "wpad-hidden"
STA_IF = "wlan102"  # the sim names interfaces in creation order: access points first
RENAMED = "wpad-renamed"

CONF = sim_radios("r0", "r1", "r2") + """
[AccessPoint ap0]
Radio=r0
SSID=wpad-test
Passphrase=secret passphrase
Channel=1
[Station s0]
Radio=r1
AutoConnect=false
[AccessPoint ap1]
Radio=r2
SSID=wpad-hidden
Hidden=true
Passphrase=secret passphrase
Channel=6
"""

def state_changes(s, path):
    """The State values announced on path, in order."""
    out = []
    for p, i, m, a in s.signals:
        if p == path and m == "PropertiesChanged" and a[0] == IFACE and "State" in a[1]:
            out.append(str(a[1]["State"]))
    return out


def network(ssid, psk):
    # As NetworkManager 1.42 sends a WPA2-PSK profile.
    return dbus.Dictionary({
        "ssid": ay(ssid.encode()),
        "scan_ssid": dbus.Int32(1),
        "bgscan": ay(b"simple:30:-70:86400"),
        "key_mgmt": by("WPA-PSK WPA-PSK-SHA256 FT-PSK SAE FT-SAE"),
        "auth_alg": by("OPEN"),
        "psk": psk,
    }, signature="sv")


with wpas_setup(CONF) as s:
    check(s.bus.name_has_owner(W), "wpad owns " + W)
    root = s.props(ROOT, W)
    check("pmf" in root["Capabilities"] and "p2p" not in root["Capabilities"],
          "root Capabilities list pmf and no p2p: %s" % list(root["Capabilities"]))
    # The real NetworkManager 1.42 logged "WEP+" until wep_disabled was listed.
    check("wep_disabled" in root["Capabilities"],
          "root Capabilities list wep_disabled (wpad has no WEP)")

    # Start-up, in NetworkManager's order.
    name, _ = s.error_of(ROOT, W, "CreateInterface",
                         dbus.Dictionary({"Ifname": "nosuch0", "Driver": "nl80211,wext"},
                                         signature="sv"))
    check(name == W + ".UnknownError", "an unknown interface is refused (%s)" % name)
    path = s.call(ROOT, W, "CreateInterface",
                  dbus.Dictionary({"Ifname": STA_IF, "Driver": "nl80211,wext"},
                                  signature="sv"))
    check(path.startswith(ROOT + "/Interfaces/"), "CreateInterface gives " + path)
    name, _ = s.error_of(ROOT, W, "CreateInterface",
                         dbus.Dictionary({"Ifname": STA_IF}, signature="sv"))
    check(name == W + ".InterfaceExists", "a second CreateInterface: InterfaceExists")
    check(s.call(ROOT, W, "GetInterface", STA_IF) == path, "GetInterface finds it")
    s.set_prop(path, IFACE, "BSSExpireAge", dbus.UInt32(250))
    s.set_prop(path, IFACE, "BSSExpireCount", dbus.UInt32(2))
    s.set_prop(path, IFACE, "Pmf", by("1"))
    props = s.props(path, IFACE)
    check(props["State"] == "inactive" and props["Ifname"] == STA_IF,
          "interface: inactive, " + STA_IF)
    check("wpa-psk" in props["Capabilities"]["KeyMgmt"] and
          "aes-128-cmac" in props["Capabilities"]["GroupMgmt"],
          "KeyMgmt/GroupMgmt capabilities: %s / %s" % (
              list(props["Capabilities"]["KeyMgmt"]), list(props["Capabilities"]["GroupMgmt"])))
    check(props["BSSExpireAge"] == 250 and props["Pmf"] == "1", "written settings read back")
    check(s.props(path, IFACE + ".P2PDevice") == {}, "P2PDevice GetAll is empty")
    name, _ = s.error_of(path, IFACE + ".P2PDevice", "Cancel")
    check(name == W + ".UnknownError", "P2PDevice.Cancel is refused as NM tolerates")
    s.set_prop(path, IFACE, "SaePwe", by("2"))
    s.set_prop(ROOT, W, "WFDIEs", ay(b""))

    # Scan: BSSAdded, then GetAll of the BSS.
    s.call(path, IFACE, "Scan", dbus.Dictionary({"Type": "active", "AllowRoam": False},
                                                signature="sv"))
    s.wait_signal("ScanDone", path)
    s.wait_signal("BSSAdded", path)
    bsss = s.props(path, IFACE)["BSSs"]
    found = None
    for b in bsss:
        p = s.props(b, W + ".BSS")
        if bytes(p["SSID"]) == SSID.encode():
            found = (b, p)
    if not found:
        fail("no BSS object for %s among %d" % (SSID, len(bsss)))
    bss, bp = found
    check(bp["Frequency"] == 2412 and bp["Privacy"] and "wpa-psk" in bp["RSN"]["KeyMgmt"] and
          bp["Mode"] == "infrastructure", "BSS: 2412 MHz, privacy, RSN wpa-psk")
    check(len(bytes(bp["IEs"])) > 2 + len(SSID), "BSS IEs hold the SSID and RSN elements")

    # A hidden network: NetworkManager names its hidden profiles in Scan's
    # SSIDs (the wildcard first) only when Scan lists "ssid" and MaxScanSSID
    # is above 0; the probe by name makes the BSS appear with its SSID.
    def ssids_heard():
        return [bytes(s.props(b, W + ".BSS")["SSID"]) for b in s.props(path, IFACE)["BSSs"]]
    caps = props["Capabilities"]
    check("ssid" in caps["Scan"] and "active" in caps["Scan"] and caps["MaxScanSSID"] == 5,
          "Scan capabilities %s, MaxScanSSID %d" % (list(caps["Scan"]), caps["MaxScanSSID"]))
    check(HIDDEN.encode() not in ssids_heard(), "the hidden network is not listed unprobed")
    name, text = s.error_of(path, IFACE, "Scan", dbus.Dictionary(
        {"Type": "active", "SSIDs": dbus.Array([ay(b"")] + [ay(b"n%d" % i) for i in range(5)],
                                               signature="ay")}, signature="sv"))
    check(name == W + ".InvalidArgs" and "SSIDs" in text,
          "more SSIDs than MaxScanSSID: InvalidArgs naming SSIDs (%s)" % text)
    del s.signals[:]
    s.call(path, IFACE, "Scan", dbus.Dictionary(
        {"Type": "active", "AllowRoam": False,
         "SSIDs": dbus.Array([ay(b""), ay(HIDDEN.encode())], signature="ay")}, signature="sv"))
    s.wait_signal("ScanDone", path)
    check(HIDDEN.encode() in ssids_heard(), "after a Scan naming it, the hidden network is "
          "a BSS with its SSID: %s" % ssids_heard())

    # Per activation: settings, AddNetwork, SelectNetwork.
    for prop, val in (("BridgeIfname", by("")), ("ApScan", dbus.UInt32(1)),
                      ("Dot11RSNAConfigPMKLifetime", by("604800")), ("ApIsolate", by("0"))):
        s.set_prop(path, IFACE, prop, val)
    name, text = s.error_of(path, IFACE, "AddNetwork",
                            dbus.Dictionary({"ssid": ay(b"x"), "no_such_key": by("1")},
                                            signature="sv"))
    check(name == W + ".InvalidArgs" and "no_such_key" in text,
          "an unknown network key is InvalidArgs naming it")
    name, _ = s.error_of(path, IFACE, "AddNetwork",
                         dbus.Dictionary({"ssid": ay(b"x" * 33)}, signature="sv"))
    check(name == W + ".InvalidArgs", "a 33-octet SSID is refused")

    # Wrong passphrase: NetworkManager's cue is 4way_handshake -> disconnected.
    del s.signals[:]
    net = s.call(path, IFACE, "AddNetwork", network(SSID, by("wrong passphrase")))
    s.wait_signal("NetworkAdded", path)
    s.call(path, IFACE, "SelectNetwork", net)
    wait_for(lambda: "disconnected" in state_changes(s, path)[1:] or
             "completed" in state_changes(s, path), 30, "the attempt to end")
    seq = state_changes(s, path)
    check("completed" not in seq, "a wrong passphrase does not connect: %s" % seq)
    i = seq.index("4way_handshake") if "4way_handshake" in seq else -1
    check(i >= 0 and seq[i + 1:i + 2] == ["disconnected"],
          "4way_handshake -> disconnected, as NM reads a wrong passphrase: %s" % seq)
    s.call(path, IFACE, "Disconnect")
    s.call(path, IFACE, "RemoveNetwork", net)
    s.wait_signal("NetworkRemoved", path)

    # The right passphrase as "s".
    del s.signals[:]
    net = s.call(path, IFACE, "AddNetwork", network(SSID, by(PASS)))
    s.call(path, IFACE, "SelectNetwork", net)
    s.wait_prop(path, IFACE, "State", "completed", timeout=30)
    seq = state_changes(s, path)
    check(seq[-1] == "completed" and "4way_handshake" in seq,
          "connected through 4way_handshake: %s" % seq)
    cur = s.props(path, IFACE)
    check(cur["CurrentBSS"] == bss and cur["CurrentNetwork"] == net,
          "CurrentBSS and CurrentNetwork name the BSS and network")
    known = [str(p) for p in s.managed() if str(p).startswith("/org/wpad1/known/")]
    check(known == [], "the network NM added is not a wpad known network: %s" % known)

    # Deactivation: Disconnect, RemoveNetwork; Disconnect again: NotConnected.
    s.call(path, IFACE, "Disconnect")
    s.wait_prop(path, IFACE, "State", "disconnected")
    s.call(path, IFACE, "RemoveNetwork", net)
    s.wait_prop(path, IFACE, "State", "inactive")
    name, _ = s.error_of(path, IFACE, "Disconnect")
    check(name == W + ".NotConnected", "Disconnect when idle: NotConnected")

    # A raw PSK (32 octets as "ay"), as NM sends a 64-hex-digit key.
    psk = hashlib.pbkdf2_hmac("sha1", PASS.encode(), SSID.encode(), 4096, 32)
    net = s.call(path, IFACE, "AddNetwork", network(SSID, ay(psk)))
    s.call(path, IFACE, "SelectNetwork", net)
    s.wait_prop(path, IFACE, "State", "completed", timeout=30)
    check(True, "connected with a raw 32-octet PSK")

    s.call(path, IFACE, "Disconnect")
    s.call(path, IFACE, "RemoveNetwork", net)

    # The AP back on the same BSSID with another SSID: a new BSS object (NM
    # takes SSID as constant), the old one removed.
    ap = "/org/wpad1/device/ap0"
    s.call(ap, "org.wpad1.AccessPoint", "Stop")
    s.call(ap, "org.wpad1.AccessPoint", "Start", dbus.Dictionary(
        {"SSID": RENAMED, "Security": "wpa2-psk", "Passphrase": PASS, "Channel": dbus.UInt32(1)},
        signature="sv"))
    del s.signals[:]
    s.call(path, IFACE, "Scan", dbus.Dictionary({"Type": "active"}, signature="sv"))
    s.wait_signal("ScanDone", path)
    heard = {bytes(s.props(b, W + ".BSS")["SSID"]): str(b) for b in s.props(path, IFACE)["BSSs"]}
    check(RENAMED.encode() in heard and SSID.encode() not in heard and
          heard[RENAMED.encode()] != str(bss),
          "the renamed AP is a new BSS object, the old one gone: %s" % heard)
    check(any(m == "BSSRemoved" and a[0] == bss for p, i, m, a in s.signals),
          "BSSRemoved for the old SSID's object")

    # NM's shutdown (Disconnect and RemoveNetwork done above): RemoveInterface.
    s.call(ROOT, W, "RemoveInterface", path)
    s.wait_signal("InterfaceRemoved", ROOT)
    name, _ = s.error_of(ROOT, W, "GetInterface", STA_IF)
    check(name == W + ".InterfaceUnknown", "after RemoveInterface: InterfaceUnknown")
