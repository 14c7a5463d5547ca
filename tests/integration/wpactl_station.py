#!/usr/bin/python3
"""wpactl as a station's client, end to end: devices, scan, networks,
connect with --passphrase (wrong, then right), show, disconnect, known
networks; --json parses; each failure has its exit code and a message that
says what to do."""

from wpactl_lib import CONF, PASS, Ctl, Setup, check

# And an access point that does not broadcast its name.
HIDDEN = """
[Radio r3]
Driver=sim
Options=medium=shared,radios=1
[AccessPoint ap2]
Radio=r3
SSID=wpad-hidden
Passphrase=secret passphrase
Hidden=true
Channel=11
"""


def devices(c):
    out = c.ok("device", "list")
    check(out.splitlines()[0].split() == ["DEVICE", "MODE", "POWERED", "ADDRESS", "DRIVER",
                                          "STATE"], "device list: a table with a header")
    check(any(l.split()[:3] == ["s0", "station", "on"] for l in out.splitlines()),
          "device list: s0 is a powered station")
    check("started 'wpad-test' on channel 1" in out, "device list: ap0's state")
    devs = c.json("device", "list")
    check({d["Device"]["Name"] for d in devs} == {"s0", "ap0", "ap1", "ap2"},
          "--json device list")
    s0 = [d for d in devs if d["Device"]["Name"] == "s0"][0]
    check(s0["path"] == "/org/wpad1/device/s0" and s0["Station"]["State"] == "disconnected"
          and s0["network"] is None, "--json: a station's Device, Station and network")
    check("Mode             station" in c.ok("device", "show", "s0"), "device show s0")
    c.fails(3, "device", "show", "s9", says=["no device named 's9'", "(did you mean 's0'?)",
                                              "there are: ap0, ap1, ap2, s0"])
    c.fails(3, "station", "ap0", "scan", says=["ap0 is an access point, not a station",
                                               "wpactl ap ap0 show"])


def scan_and_networks(c):
    out = c.ok("station", "s0", "networks")
    check("wpactl station s0 scan" in out, "networks before a scan says how to scan")
    out = c.ok("station", "s0", "scan")
    lines = out.splitlines()
    check(lines[0].split() == ["NETWORK", "SECURITY", "PMF", "SIGNAL", "KNOWN"] and
          any("wpad-test" in l and " psk " in l and " capable " in l for l in lines) and
          any("wpad-open" in l and " open " in l for l in lines),
          "scan lists both networks")
    check(all(l == l.rstrip() for l in lines), "no trailing blanks in the table")
    nets = c.json("station", "s0", "networks")
    check({(n["Name"], n["Security"]) for n in nets} == {("wpad-test", "psk"),
                                                        ("wpad-open", "open")},
          "--json networks: names and securities")
    check(all(n["SignalStrength"] < 0 and not n["Connected"] for n in nets),
          "--json networks: signal, not connected")


def connect(c):
    err = c.fails(5, "station", "s0", "connect", "wpad-test", "--passphrase", "wrong passphrase",
                  says=["wrong passphrase for 'wpad-test': check it and run "
                        "`wpactl station s0 connect wpad-test --passphrase ...`",
                        "wpad said (InvalidPassphrase)"])
    check(err.count("\n") == 2, "two lines: what to do, then wpad's own words")
    err = c.fails(5, "station", "s0", "connect", "wpad-test",
                  says=["'wpad-test' needs a passphrase", "--passphrase"])
    c.fails(2, "station", "s0", "connect", "wpad-test", "--passphrase", "short",
            says=["8 to 63 printable ASCII characters"])
    out = c.ok("station", "s0", "connect", "wpad-test", "--passphrase", PASS)
    check(out == "Connected to 'wpad-test' on s0.\n", "connect --passphrase: connected")
    out = c.ok("station", "s0", "connect", "wpad-test")
    check(out.startswith("Already connected to 'wpad-test'"), "connecting again is not an error")
    st = c.json("station", "s0", "show")
    check(st["Station"]["State"] == "connected" and st["network"]["Name"] == "wpad-test"
          and st["Device"]["LastError"][0] == "",
          "--json station show: connected, the network, no last error (the connect "
          "cleared the InvalidPassphrase)")
    out = c.ok("station", "s0", "show")
    check("Network          wpad-test (psk)" in out and "InvalidPassphrase" not in out,
          "station show: the network, and no last error once connected")
    c.fails(3, "station", "s0", "connect", "no-such-net",
            says=["s0 sees no network 'no-such-net'", "connect-hidden"])


def known(c):
    out = c.ok("known", "list")
    check(out.splitlines()[1].split()[:3] == ["wpad-test", "psk", "yes"], "known list")
    k = c.json("known", "list")
    check(len(k) == 1 and k[0]["Name"] == "wpad-test" and k[0]["LastConnected"] > 0,
          "--json known list")
    c.ok("known", "autoconnect", "wpad-test", "off")
    check(c.json("known", "list")[0]["AutoConnect"] is False, "known autoconnect off")
    out = c.ok("station", "s0", "disconnect")
    check(out == "s0 is disconnected.\n", "disconnect")
    out = c.ok("station", "s0", "disconnect")
    check(out == "s0 was not connected.\n", "disconnect when idle is no error")
    check(c.ok("known", "forget", "wpad-test") == "wpad forgot 'wpad-test'.\n", "known forget")
    c.fails(3, "known", "forget", "wpad-test", says=["wpad knows no network 'wpad-test'"])
    check(c.json("known", "list") == [], "nothing known any more")
    # The passphrase from standard input; the stored one is used next time.
    c.ok("station", "s0", "connect", "wpad-test", "--passphrase", "-", stdin=PASS + "\n")
    c.ok("station", "s0", "disconnect")
    check(c.ok("station", "s0", "connect", "wpad-test").startswith("Connected"),
          "a known network connects without a passphrase")
    c.ok("station", "s0", "disconnect")


def hidden(c):
    c.fails(5, "station", "s0", "connect-hidden", "wpad-hidden",
            says=["'wpad-hidden' needs a passphrase: give it with `wpactl station s0 "
                  "connect-hidden wpad-hidden --passphrase ...`"])
    out = c.ok("station", "s0", "connect-hidden", "wpad-hidden", "--passphrase", PASS)
    check(out == "Connected to 'wpad-hidden' on s0.\n", "connect-hidden --passphrase")
    check(c.json("station", "s0", "show")["network"]["Name"] == "wpad-hidden",
          "connected to the hidden network")
    check(c.ok("station", "s0", "autoconnect", "on") ==
          "s0 joins known networks on its own.\n", "station autoconnect on")
    check("Autoconnect      on" in c.ok("station", "s0", "show"), "station show: autoconnect")
    c.ok("station", "s0", "disconnect")
    check(c.json("station", "s0", "show")["Station"]["AutoConnect"] is False,
          "disconnect turned autoconnect off")


def main():
    with Setup(CONF + HIDDEN) as s:
        c = Ctl(s)
        devices(c)
        scan_and_networks(c)
        connect(c)
        known(c)
        hidden(c)
        # DBUS_SYSTEM_BUS_ADDRESS instead of --bus.
        env = Ctl(s, use_env=True)
        check("s0" in env.ok("device", "list"), "DBUS_SYSTEM_BUS_ADDRESS names the bus")
    print("PASS")


if __name__ == "__main__":
    main()
