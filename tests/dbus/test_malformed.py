#!/usr/bin/python3
"""Untrusted input: a table of malformed calls (wrong signatures, huge
strings, unknown keys, wrong types, missing objects) each answered with
the right error while the daemon keeps serving; a flood of waiting calls;
then calls in flight and arriving while the daemon shuts down."""

import signal
import time

import dbus
import dbus.lowlevel

from wpadtest import (ERR, NAME, SLOW, Agent, Setup, check, fail, pump, sim_radios, ssid_path,
                      wait_for)

CONF = sim_radios("r0", "r1") + """
[AccessPoint ap0]
Radio=r0
SSID=wpad-bad
Passphrase=secret passphrase
Channel=1
[Station s0]
Radio=r1
AutoConnect=false
"""

S0 = "/org/wpad1/device/s0"
AP0 = "/org/wpad1/device/ap0"
M = "/org/wpad1"
STA, API, MGR, PROPS = "org.wpad1.Station", "org.wpad1.AccessPoint", "org.wpad1.Manager", \
    "org.freedesktop.DBus.Properties"
INVALID = ERR + "InvalidArguments"
HUGE = "x" * 200000
MANY = {"Key%d" % i: dbus.String("v", variant_level=1) for i in range(5000)}

# (what, path, interface, member, signature, args, wanted error, word in text)
TABLE = [
    ("RegisterAgent with a string", M, MGR, "RegisterAgent", "s", ["/a"], INVALID, "(o)"),
    ("RegisterAgent without arguments", M, MGR, "RegisterAgent", "", [], INVALID, "(o)"),
    ("RegisterAgent with two paths", M, MGR, "RegisterAgent", "oo", ["/a", "/b"], INVALID, ""),
    ("a huge hidden network name", S0, STA, "ConnectHiddenNetwork", "s", [HUGE], INVALID,
     "32 bytes"),
    ("an empty hidden network name", S0, STA, "ConnectHiddenNetwork", "s", [""], INVALID, ""),
    ("a 33-byte hidden network name", S0, STA, "ConnectHiddenNetwork", "s", ["y" * 33],
     INVALID, ""),
    ("ConnectHiddenNetwork with an int", S0, STA, "ConnectHiddenNetwork", "i", [5], INVALID, ""),
    ("Scan with an argument", S0, STA, "Scan", "s", ["now"], INVALID, "()"),
    ("Stop", AP0, API, "Stop", "", [], None, ""),  # succeeds: Start needs a stopped AP
    ("Stop of a stopped AP", AP0, API, "Stop", "", [], ERR + "NotConnected", ""),
    ("Start with a{ss}", AP0, API, "Start", "a{ss}", [{"SSID": "x"}], INVALID, "a{sv}"),
    ("Start with an unknown key", AP0, API, "Start", "a{sv}", [{"SSID": "x", "Frobnicate": 1}],
     INVALID, "Frobnicate"),
    ("Start with 5000 entries", AP0, API, "Start", "a{sv}", [MANY], INVALID, "more than"),
    ("Start with a huge key", AP0, API, "Start", "a{sv}", [{HUGE: "x"}], INVALID, "key"),
    ("Start with a huge passphrase", AP0, API, "Start", "a{sv}",
     [{"SSID": "x", "Passphrase": HUGE}], INVALID, "longer"),
    ("Start with a list as SSID", AP0, API, "Start", "a{sv}", [{"SSID": ["a", "b"]}],
     INVALID, "SSID"),
    ("Start with a nested variant", AP0, API, "Start", "a{sv}",
     [{"SSID": dbus.String("x", variant_level=2)}], INVALID, "SSID"),
    ("Start with a negative channel", AP0, API, "Start", "a{sv}",
     [{"SSID": "x", "Channel": dbus.Int32(-6)}], INVALID, "negative"),
    ("Start with a file key", AP0, API, "Start", "a{sv}",
     [{"SSID": "x", "MacAllowFile": "/etc/shadow"}], INVALID, "wpad.conf"),
    ("Get of an unknown interface", S0, PROPS, "Get", "ss", ["org.nope", "X"],
     "org.freedesktop.DBus.Error.UnknownInterface", ""),
    ("Get of an unknown property", S0, PROPS, "Get", "ss", [STA, "Nope"],
     "org.freedesktop.DBus.Error.UnknownProperty", ""),
    ("Get with a wrong signature", S0, PROPS, "Get", "s", [STA], INVALID, "(ss)"),
    ("GetAll of a huge interface name", S0, PROPS, "GetAll", "s", [HUGE],
     "org.freedesktop.DBus.Error.UnknownInterface", ""),
    ("GetAll of a long non-ASCII name", S0, PROPS, "GetAll", "s", ["a" + "\u00e9" * 300],
     "org.freedesktop.DBus.Error.UnknownInterface", "\u00e9"),
    ("Get of a long non-ASCII property", S0, PROPS, "Get", "ss", [STA, "b" + "\u20ac" * 300],
     "org.freedesktop.DBus.Error.UnknownProperty", "\u20ac"),
    ("Set of a read-only property", S0, PROPS, "Set", "ssv", [STA, "State", "connected"],
     "org.freedesktop.DBus.Error.PropertyReadOnly", ""),
    ("Set of Powered with a string", S0, PROPS, "Set", "ssv",
     ["org.wpad1.Device", "Powered", "yes"], INVALID, "type b"),
    ("Set without a variant", S0, PROPS, "Set", "ssb", ["org.wpad1.Device", "Powered", True],
     INVALID, "(ssv)"),
    ("an unknown method", S0, STA, "Explode", "", [], "org.freedesktop.DBus.Error.UnknownMethod",
     ""),
    ("a method of another interface", S0, API, "Start", "a{sv}", [{}],
     "org.freedesktop.DBus.Error.UnknownMethod", ""),
    ("an object that does not exist", S0 + "/nope", STA, "Scan", "", [],
     "org.freedesktop.DBus.Error.UnknownObject", ""),
    ("a node without interfaces", "/org/wpad1/device", STA, "Scan", "", [],
     "org.freedesktop.DBus.Error.UnknownObject", "below"),
    ("GetManagedObjects away from /", M, "org.freedesktop.DBus.ObjectManager",
     "GetManagedObjects", "", [], "org.freedesktop.DBus.Error.UnknownMethod", ""),
    ("UnregisterAgent of nobody", M, MGR, "UnregisterAgent", "o", ["/nobody"], ERR + "NotFound",
     ""),
]


def alive(s):
    check(s.prop(S0, "org.wpad1.Device", "Mode") == "station", "wpad still answers")


def malformed_table(s):
    for what, path, iface, member, sig, args, want, word in TABLE:
        if want is None:
            s.call(path, iface, member, *args, sig=sig or None)
            continue
        name, text = s.error_of(path, iface, member, *args, sig=sig or None)
        check(name == want and word in text, "%s: %s (%s)" % (what, name, text[:100]))
    alive(s)


def no_interface(s):
    """A call without an interface finds the member on the object."""
    msg = dbus.lowlevel.MethodCallMessage(NAME, S0, None, "GetOrderedNetworks")
    reply = s.bus.send_message_with_reply_and_block(msg, 10000)
    check(reply.get_signature() == "a(on)", "a call without an interface name works")


def introspect_nodes(s):
    x = s.call("/org", "org.freedesktop.DBus.Introspectable", "Introspect")
    check('<node name="wpad1"/>' in x, "Introspect of /org lists its child")
    name, _ = s.error_of("/nothing", "org.freedesktop.DBus.Introspectable", "Introspect")
    check(name == "org.freedesktop.DBus.Error.UnknownObject", "Introspect of nothing")


def flood(s):
    """More callers than the daemon keeps waiting: the rest are told Busy."""
    boxes = [s.call_async(S0, STA, "Scan") for _ in range(40)]
    wait_for(lambda: all("reply" in b or "error" in b for b in boxes), 60, "40 Scan replies")
    busy = [b for b in boxes if "error" in b]
    check(all(b["error"][0] == ERR + "Busy" for b in busy) and len(busy) == 40 - 16,
          "16 callers wait for the scan, 24 are told Busy")
    alive(s)


def teardown(s):
    """Calls waiting (Connect at the agent, Scan) and calls arriving while the
    daemon stops: every caller gets an answer or a clean disconnect, wpad
    exits 0 (and, under ASan, without a report)."""
    agent = Agent(s.bus, answer=None)
    s.call(M, MGR, "RegisterAgent", agent.path, sig="o")
    s.call(AP0, API, "Start", {"SSID": "wpad-bad", "Passphrase": "secret passphrase",
                               "Channel": 1}, sig="a{sv}")
    net = ssid_path(S0, "wpad-bad", "psk")
    # The access point has only just started: under valgrind on a loaded
    # machine its first beacons can miss one scan. This is the set-up, not
    # what is tested, so scan until the station heard it (bounded).
    for _ in range(5):
        s.call(S0, STA, "Scan", timeout=60)
        if net in [str(p) for p, _sig in s.call(S0, STA, "GetOrderedNetworks")]:
            break
    else:
        fail("the station never heard the access point wpad-bad in 5 scans")
    connect = s.call_async(net, "org.wpad1.Network", "Connect")
    wait_for(lambda: agent.asked, 10, "the agent to be asked")
    scan = s.call_async(S0, STA, "Scan")
    pump(0.05)
    # SIGTERM is pending before these calls reach wpad (it is stopped), so
    # they arrive while it stops: a configuring call is told Aborted, a read
    # is answered (or Aborted once the objects are gone), none is left
    # without an answer.
    s.daemon.proc.send_signal(signal.SIGSTOP)
    s.daemon.proc.send_signal(signal.SIGTERM)
    queued = [s.call_async(S0, STA, "Scan"), s.call_async(S0, PROPS, "Get", STA, "State", sig="ss")]
    pump(0.3)
    s.daemon.proc.send_signal(signal.SIGCONT)
    late = []
    end = time.monotonic() + 2 * SLOW
    while True:  # at least once, even if wpad is already gone
        late.append(s.call_async(S0, STA, "Scan"))
        late.append(s.call_async(S0, PROPS, "GetAll", STA, sig="s"))
        pump(0.002)
        if time.monotonic() >= end or s.daemon.proc.poll() is not None:
            break
    log = s.stop_daemon()
    pump(0.5)
    for b in (connect, scan):
        wait_for(lambda: "reply" in b or "error" in b, 10, "an answer to a waiting call")
    check(connect.get("error", ("",))[0] == ERR + "Aborted", "the waiting Connect: Aborted")
    check(scan.get("error", ("",))[0] in (ERR + "Aborted", None) or "reply" in scan,
          "the waiting Scan: answered")
    check(agent.cancels or agent.released, "the agent was told (Cancel/Release)")
    wait_for(lambda: all("reply" in b or "error" in b for b in late), 30, "late calls answered")
    check(len(late) > 0, "%d calls arrived during teardown, all answered" % len(late))
    wait_for(lambda: all("reply" in b or "error" in b for b in queued), 30, "queued calls answered")
    check(queued[0].get("error", ("", ""))[0] == ERR + "Aborted" and
          "shutting down" in queued[0]["error"][1],
          "a Scan while wpad stops: Aborted, shutting down (%s)" % (queued[0],))
    check("reply" in queued[1] or (queued[1]["error"][0] == ERR + "Aborted" and
                                    "shutting down" in queued[1]["error"][1]),
          "a property read while wpad stops: answered (%s)" % (queued[1],))
    check("stopped" in log, "wpad stopped cleanly")


def main():
    with Setup(CONF) as s:
        malformed_table(s)
        no_interface(s)
        introspect_nodes(s)
        flood(s)
        teardown(s)
    print("PASS")


if __name__ == "__main__":
    main()
