#!/usr/bin/python3
"""The D-Bus API end to end through python3-dbus (and busctl for a few
calls): objects, properties, PropertiesChanged, ObjectManager signals,
scan, connect through the agent, known networks, the access point and its
stations."""

import os
import subprocess

import dbus

from wpadtest import (ERR, Agent, Canceled, Setup, check, pump, sim_radios, ssid_path,
                      wait_for)

CONF = sim_radios("r0", "r1", "r2") + """
[AccessPoint ap0]
Radio=r0
SSID=wpad-test
Passphrase=secret passphrase
Channel=1
[AccessPoint ap1]
Radio=r2
SSID=wpad-open
Security=open
Channel=6
[Radio r3]
Driver=sim
Options=medium=shared,radios=1
[AccessPoint hidden]
Radio=r3
SSID=wpad-hidden
Hidden=true
Passphrase=hidden passphrase
Channel=11
[Station s0]
Radio=r1
AutoConnect=false
"""

DEV = "/org/wpad1/device/s0"
AP0 = "/org/wpad1/device/ap0"
AP1 = "/org/wpad1/device/ap1"
STA = "org.wpad1.Station"
NET = "org.wpad1.Network"
DEVI = "org.wpad1.Device"
API = "org.wpad1.AccessPoint"
ACL = "org.wpad1.AccessControl"
PSK_NET = ssid_path(DEV, "wpad-test", "psk")
OPEN_NET = ssid_path(DEV, "wpad-open", "open")
KNOWN_PSK = "/org/wpad1/known/%s_psk" % "wpad-test".encode().hex()


def objects_and_properties(s):
    objs = s.managed()
    for p in ("/org/wpad1", "/org/wpad1/radio/r0", DEV, AP0, AP1):
        check(p in objs, "GetManagedObjects lists " + p)
    check(set(objs[DEV]) == {DEVI, STA}, "a station device has Device and Station")
    check(set(objs[AP0]) == {DEVI, API, ACL},
          "an AP device has Device, AccessPoint and AccessControl")
    check(s.prop("/org/wpad1", "org.wpad1.Manager", "Version") != "", "Manager.Version")
    d = s.props(DEV, DEVI)
    check(d["Mode"] == "station" and d["Powered"] and d["Driver"] == "sim", "Device properties")
    check(d["Radio"] == "/org/wpad1/radio/r1", "Device.Radio names its radio")
    check(d["LastError"][0] == "" and d["LastError"][4] == 0, "no LastError yet")
    r = s.props("/org/wpad1/radio/r1", "org.wpad1.Radio")
    check(r["Driver"] == "sim" and "2.4" in r["Bands"] and r["Name"] == "r1", "Radio properties")
    a = s.props(AP0, API)
    check(a["Started"] and a["SSID"] == "wpad-test" and a["Security"] == "wpa2-psk"
          and a["Frequency"] == 2412 and a["StationCount"] == 0, "AccessPoint properties")
    check(s.props(DEV, STA)["State"] == "disconnected", "Station.State disconnected")


def scan(s):
    s.signals.clear()
    s.call(DEV, STA, "Scan", timeout=60)
    check(s.seen("PropertiesChanged", DEV, lambda a: a[0] == STA and a[1].get("Scanning")),
          "Scanning went true (PropertiesChanged)")
    check(not s.prop(DEV, STA, "Scanning"), "Scan replied once the scan was done")
    nets = [str(p) for p, sig in s.call(DEV, STA, "GetOrderedNetworks")]
    check(PSK_NET in nets and OPEN_NET in nets, "GetOrderedNetworks: both networks")
    check(s.seen("InterfacesAdded", "/", lambda a: a[0] == PSK_NET and NET in a[1]),
          "InterfacesAdded for the new network")
    n = s.props(PSK_NET, NET)
    check(n["Name"] == "wpad-test" and n["Security"] == "psk" and not n["Known"]
          and not n["Connected"] and n["Device"] == DEV, "Network properties")
    check(len(n["ExtendedServiceSet"]) == 1, "the network has one BSS")
    b = s.props(n["ExtendedServiceSet"][0], "org.wpad1.BSS")
    check(b["Frequency"] == 2412 and b["Network"] == PSK_NET, "BSS properties")


def agent_edge_cases(s):
    """The agent declines, or leaves the bus while it is asked."""
    other = dbus.bus.BusConnection(s.busd.address)
    leaving = Agent(other, "/leaving", answer=None)
    other.get_object(s.owner, "/org/wpad1").RegisterAgent(
        "/leaving", dbus_interface="org.wpad1.Manager", signature="o")
    box = s.call_async(PSK_NET, NET, "Connect")
    wait_for(lambda: leaving.asked, 10, "the agent to be asked")
    other.close()
    s.wait_reply(box)
    check(box.get("error", ("",))[0] == ERR + "NoAgent",
          "the agent left while asked: NoAgent (%s)" % (box.get("error"),))
    declining = Agent(s.bus, "/declining", answer=Canceled("no"))
    s.call("/org/wpad1", "org.wpad1.Manager", "RegisterAgent", declining.path, sig="o")
    name, _ = s.error_of(PSK_NET, NET, "Connect")
    check(name == ERR + "Aborted", "the agent declined: Aborted")
    s.call("/org/wpad1", "org.wpad1.Manager", "UnregisterAgent", declining.path, sig="o")
    declining.remove_from_connection()


def connect_psk(s):
    name, text = s.error_of(PSK_NET, NET, "Connect")
    check(name == ERR + "NoAgent" and "agent" in text, "Connect without an agent: NoAgent")
    agent = Agent(s.bus, answer="wrong passphrase")
    s.call("/org/wpad1", "org.wpad1.Manager", "RegisterAgent", agent.path, sig="o")
    s.signals.clear()
    name, text = s.error_of(PSK_NET, NET, "Connect", timeout=60)
    check(name == ERR + "InvalidPassphrase", "a wrong passphrase: InvalidPassphrase (%s)" % text)
    check(agent.asked == [PSK_NET], "the agent was asked for that network")
    check(s.seen("ConnectionFailed", DEV, lambda a: a[0] == ERR + "InvalidPassphrase"),
          "Device.ConnectionFailed carries the error name")
    err = s.prop(DEV, DEVI, "LastError")
    check(err[0] == ERR + "InvalidPassphrase" and err[4] > 0, "LastError records it")
    agent.answer = "secret passphrase"
    s.signals.clear()
    s.call(PSK_NET, NET, "Connect", timeout=60)
    check(s.prop(DEV, STA, "State") == "connected", "Connect replied once connected")
    check(s.prop(DEV, STA, "ConnectedNetwork") == PSK_NET, "Station.ConnectedNetwork")
    check(s.prop(PSK_NET, NET, "Connected"), "Network.Connected")
    check(s.seen("PropertiesChanged", DEV, lambda a: a[0] == STA and "State" in a[1]
                 and a[1]["State"] == "connecting"), "State passed through connecting")
    # What changed in one loop turn comes in one signal (each costs libdbus
    # ~70k instructions to build): the connect's start moves both.
    check(s.seen("PropertiesChanged", DEV, lambda a: a[0] == STA
                 and a[1].get("State") == "connecting"
                 and a[1].get("ConnectedNetwork") == PSK_NET),
          "State and ConnectedNetwork announced together")
    wait_for(lambda: KNOWN_PSK in s.managed(), 5, "the known network object")
    check(s.prop(PSK_NET, NET, "KnownNetwork") == KNOWN_PSK, "Network.KnownNetwork")
    name, _ = s.error_of(PSK_NET, NET, "Connect")
    check(name == ERR + "AlreadyExists", "connecting again: AlreadyExists")
    return agent


def ap_stations(s):
    wait_for(lambda: s.prop(AP0, API, "StationCount") == 1, 10, "StationCount 1")
    stas = [p for p in s.managed() if p.startswith(AP0 + "/sta_")]
    check(len(stas) == 1, "one ApStation object")
    st = s.props(stas[0], "org.wpad1.ApStation")
    check(st["State"] == "authorized" and st["Address"] == s.prop(DEV, DEVI, "Address"),
          "ApStation: authorized, our station's address")
    return stas[0]


def disconnect(s, sta_path):
    s.signals.clear()
    s.call(DEV, STA, "Disconnect")
    check(s.prop(DEV, STA, "State") == "disconnected", "Disconnect replied once disconnected")
    wait_for(lambda: s.seen("InterfacesRemoved", "/", lambda a: a[0] == sta_path), 10,
             "the ApStation object to go")
    name, _ = s.error_of(DEV, STA, "Disconnect")
    check(name == ERR + "NotConnected", "Disconnect when idle: NotConnected")


def known_networks(s):
    k = s.props(KNOWN_PSK, "org.wpad1.KnownNetwork")
    check(k["Name"] == "wpad-test" and k["Security"] == "psk" and k["AutoConnect"]
          and k["LastConnected"] > 0, "KnownNetwork properties")
    check(not any("assphrase" in key for key in k), "no secret among its properties")
    s.signals.clear()
    s.set_prop(KNOWN_PSK, "org.wpad1.KnownNetwork", "AutoConnect", False)
    check(not s.prop(KNOWN_PSK, "org.wpad1.KnownNetwork", "AutoConnect"), "AutoConnect set")
    check(s.seen("PropertiesChanged", KNOWN_PSK, lambda a: a[1].get("AutoConnect") == 0),
          "PropertiesChanged for AutoConnect")
    s.call(KNOWN_PSK, "org.wpad1.KnownNetwork", "Forget")
    check(KNOWN_PSK not in s.managed(), "Forget removed the object")
    check(s.seen("InterfacesRemoved", "/", lambda a: a[0] == KNOWN_PSK), "InterfacesRemoved")
    wait_for(lambda: not s.prop(PSK_NET, NET, "Known"), 5, "Network.Known false")


def open_network_and_ap(s):
    s.call(OPEN_NET, NET, "Connect", timeout=60)
    check(s.prop(DEV, STA, "ConnectedNetwork") == OPEN_NET, "connected to the open network")
    wait_for(lambda: s.prop(AP1, API, "StationCount") == 1, 10, "ap1 StationCount 1")
    sta = [p for p in s.managed() if p.startswith(AP1 + "/sta_")][0]
    s.call(sta, "org.wpad1.ApStation", "Disconnect")
    # The kick goes into LastError with the AP's reason code; the station
    # reconnects at once (the network is known now), which clears it.
    wait_for(lambda: s.seen("PropertiesChanged", DEV,
                            lambda a: a[0] == DEVI and a[1].get("LastError", ("", -1, -1))[2] == 2),
             10, "LastError reason 2")
    wait_for(lambda: s.prop(DEV, STA, "State") == "connected", 30, "reconnected")
    check(s.prop(DEV, DEVI, "LastError")[0] == "", "the reconnect cleared LastError")
    check(s.seen("PropertiesChanged", DEV, lambda a: a[1].get("State") == "disconnected"),
          "ApStation.Disconnect kicked the station")
    s.signals.clear()
    s.call(AP1, API, "Stop")
    check(not s.prop(AP1, API, "Started"), "Stop replied once stopped")
    check(s.seen("PropertiesChanged", AP1, lambda a: a[1].get("Started") == 0),
          "PropertiesChanged Started false")
    s.call(AP1, API, "Start", {"SSID": "renamed", "Security": "open", "Channel": 11,
                               "Hidden": False}, sig="a{sv}")
    a = s.props(AP1, API)
    check(a["Started"] and a["SSID"] == "renamed" and a["Frequency"] == 2462
          and a["Security"] == "open", "Start(a{sv}) started the new BSS")


def busctl(s):
    out = subprocess.run(["busctl", "--address=" + s.busd.address, "get-property", "org.wpad1",
                          DEV, DEVI, "Mode"], capture_output=True, text=True)
    check(out.stdout.strip() == 's "station"', "busctl reads Device.Mode")
    out = subprocess.run(["gdbus", "call", "--address", s.busd.address, "--dest", "org.wpad1",
                          "--object-path", AP0, "--method", "org.wpad1.AccessPoint.Start",
                          "{'SSID': <'x'>}"], capture_output=True, text=True)
    check("org.wpad1.Error.Busy" in out.stderr, "gdbus sees Busy for a started AP: " + out.stderr.strip())


def hidden_network(s, agent):
    """A hidden PSK network: the station probes, learns it needs a
    passphrase, the agent is asked once, the connect goes on."""
    agent.answer = "hidden passphrase"
    asked = len(agent.asked)
    s.signals.clear()
    s.call(DEV, STA, "ConnectHiddenNetwork", "wpad-hidden", timeout=90)
    hidden = ssid_path(DEV, "wpad-hidden", "psk")
    check(s.prop(DEV, STA, "ConnectedNetwork") == hidden, "connected to the hidden network")
    check(agent.asked[asked:] == [hidden], "the agent was asked for the hidden network")
    # Learning that it needs a passphrase is a step of the connect, not
    # its end: LastError never says NoAgent, and stays empty.
    check(s.prop(DEV, DEVI, "LastError")[0] == "", "LastError empty after the hidden connect")
    check(not s.seen("PropertiesChanged", DEV,
                     lambda a: a[1].get("LastError", ("",))[0] == ERR + "NoAgent"),
          "LastError never said NoAgent during it")
    check(not s.seen("ConnectionFailed", DEV), "no ConnectionFailed during it")
    known = "/org/wpad1/known/%s_psk" % "wpad-hidden".encode().hex()
    check(s.prop(known, "org.wpad1.KnownNetwork", "Hidden"), "KnownNetwork.Hidden is true")
    s.call(DEV, STA, "Disconnect")


def mode_switch(s):
    """A station device becomes an access point and back."""
    name, _ = s.error_of(DEV, "org.freedesktop.DBus.Properties", "Set", DEVI, "Mode", "mesh",
                         sig="ssv")
    check(name == ERR + "InvalidArguments", "Mode 'mesh': InvalidArguments")
    s.signals.clear()
    s.set_prop(DEV, DEVI, "Mode", "ap")
    check(set(s.managed()[DEV]) == {DEVI, API, ACL}, "s0 is an access point now")
    check(s.seen("InterfacesRemoved", "/", lambda a: a[0] == DEV and STA in a[1]) and
          s.seen("InterfacesAdded", "/", lambda a: a[0] == DEV and API in a[1]),
          "InterfacesRemoved Station, InterfacesAdded AccessPoint")
    check(not any(p.startswith(DEV + "/") for p in s.managed()), "its networks went with it")
    s.call(DEV, API, "Start", {"SSID": "from-a-station", "Security": "open", "Channel": 6},
           sig="a{sv}")
    check(s.prop(DEV, API, "Started"), "and it beacons")
    s.set_prop(DEV, DEVI, "Mode", "station")
    check(set(s.managed()[DEV]) == {DEVI, STA}, "a station again")
    s.call(DEV, STA, "Scan", timeout=60)
    check(PSK_NET in s.managed(), "and it scans")


def agent_unregister(s, agent):
    s.call("/org/wpad1", "org.wpad1.Manager", "UnregisterAgent", agent.path, sig="o")
    name, _ = s.error_of("/org/wpad1", "org.wpad1.Manager", "UnregisterAgent", agent.path,
                         sig="o")
    check(name == ERR + "NotFound", "UnregisterAgent twice: NotFound")


def access_control(s):
    """AccessControl on a started AP: the lists as properties, with
    PropertiesChanged when they change; the methods' errors."""
    addr = "02:aa:bb:cc:dd:01"
    check(list(s.prop(AP1, ACL, "DenyList")) == [] and not s.prop(AP1, ACL, "AllowListActive"),
          "AccessControl: empty lists at first")
    s.call(AP1, ACL, "AddAddress", "deny", addr)
    check(list(s.prop(AP1, ACL, "DenyList")) == [addr], "AddAddress deny: DenyList")
    wait_for(lambda: s.seen("PropertiesChanged", AP1,
                            lambda a: a[0] == ACL and list(a[1].get("DenyList", [])) == [addr]),
             5, "PropertiesChanged DenyList")
    name, _ = s.error_of(AP1, ACL, "AddAddress", "deny", addr)
    check(name == ERR + "AlreadyExists", "AddAddress twice: AlreadyExists")
    name, _ = s.error_of(AP1, ACL, "AddAddress", "grey", addr)
    check(name == ERR + "InvalidArguments", "an unknown list: InvalidArguments")
    s.call(AP1, ACL, "AddAddress", "allow", addr)
    check(s.prop(AP1, ACL, "AllowListActive"), "AddAddress allow: the allow list is in force")
    s.call(AP1, ACL, "RemoveAddress", "allow", addr)
    s.call(AP1, ACL, "RemoveAddress", "deny", addr)
    check(not s.prop(AP1, ACL, "AllowListActive") and list(s.prop(AP1, ACL, "DenyList")) == [],
          "RemoveAddress: both lists empty again")
    name, _ = s.error_of(AP1, ACL, "RemoveAddress", "deny", addr)
    check(name == ERR + "NotFound", "RemoveAddress of an absent address: NotFound")
    s.call(AP1, ACL, "Reload")


def main():
    with Setup(CONF, system=True) as s:  # --system with DBUS_SYSTEM_BUS_ADDRESS
        objects_and_properties(s)
        access_control(s)
        scan(s)
        agent_edge_cases(s)
        agent = connect_psk(s)
        sta = ap_stations(s)
        disconnect(s, sta)
        known_networks(s)
        open_network_and_ap(s)
        busctl(s)
        hidden_network(s, agent)
        mode_switch(s)
        agent_unregister(s, agent)
        s.call("/org/wpad1", "org.wpad1.Manager", "RegisterAgent", agent.path, sig="o")
        s.stop_daemon()
        pump(0.3)
        check(agent.released == 1, "the agent got Release() at shutdown")
    print("PASS")


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    main()
