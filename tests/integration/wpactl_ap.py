#!/usr/bin/python3
"""wpactl as an access point's client, end to end: show (with the station
that joined), stop, start with options, the errors of start (busy, missing
passphrase, values wpad refuses), disconnecting a station, the MAC lists
(deny, unlist, reload-lists); --json parses."""

from wpactl_lib import CONF, PASS, Ctl, Setup, check


def show_with_station(c):
    c.ok("station", "s0", "connect", "wpad-test", "--passphrase", PASS)
    addr = c.json("device", "show", "s0")["Device"]["Address"]
    out = c.ok("ap", "ap0", "show")
    check("Access point     started" in out and "SSID             wpad-test" in out
          and "Channel          1 (2412 MHz)" in out and "Stations         1" in out,
          "ap show: the access point")
    rows = [l.split() for l in out.splitlines()]
    check(["STATION", "STATE", "SIGNAL", "CONNECTED"] in rows, "ap show: a station table")
    check(any(r[:2] == [addr, "authorized"] for r in rows), "ap show: s0 is authorized")
    ap = c.json("ap", "ap0", "show")
    check(ap["AccessPoint"]["Started"] and ap["AccessPoint"]["StationCount"] == 1
          and ap["AccessPoint"]["Frequency"] == 2412, "--json ap show: AccessPoint")
    check([st["Address"] for st in ap["stations"]] == [addr]
          and ap["stations"][0]["State"] == "authorized", "--json ap show: its stations")
    return addr


def stop_and_start(c):
    check(c.ok("ap", "ap1", "stop") == "ap1 is stopped.\n", "ap stop")
    check(c.json("ap", "ap1", "show")["AccessPoint"]["Started"] is False, "stopped")
    check("Access point     stopped" in c.ok("ap", "ap1", "show"), "ap show: stopped")
    check(c.ok("ap", "ap1", "stop") == "ap1 was not started.\n", "stop twice is no error")
    out = c.ok("ap", "ap1", "start", "--ssid", "renamed", "--security", "open", "--channel",
               "11", "--set", "DTIMPeriod=3")
    check(out == "ap1 started 'renamed' on channel 11 (2462 MHz), open.\n",
          "ap start with options: %r" % out)
    a = c.json("ap", "ap1", "show")["AccessPoint"]
    check(a["SSID"] == "renamed" and a["Frequency"] == 2462 and a["Security"] == "open",
          "--json: the new settings")
    c.fails(10, "ap", "ap1", "start", "--ssid", "x", "--security", "open",
            says=["ap1 is already running an access point ('renamed')", "wpactl ap ap1 stop"])
    c.ok("ap", "ap1", "stop")
    c.fails(2, "ap", "ap1", "start", "--ssid", "x",
            says=["--passphrase P for a WPA2 network, or --security open"])
    c.fails(2, "ap", "ap1", "start", "--passphrase", PASS, says=["--ssid SSID"])
    c.fails(2, "ap", "ap1", "start", "--ssid", "x", "--passphrase", PASS, "--channel", "99",
            says=["wpad refused the settings"])
    c.fails(2, "ap", "ap1", "start", "--ssid", "x", "--security", "open", "--set",
            "DTIMPeriode=3", says=["did you mean 'DTIMPeriod'?"])
    out = c.ok("ap", "ap1", "start", "--ssid", "lab", "--passphrase", PASS, "--hidden")
    check("started 'lab' on channel 6 (2437 MHz), wpa2-psk" in out, "WPA2 from --passphrase")
    c.fails(3, "ap", "s0", "stop", says=["s0 is a station, not an access point",
                                         "`wpactl device mode s0 ap`"])


def disconnect_station(c, addr):
    c.ok("known", "autoconnect", "wpad-test", "off")
    out = c.ok("ap", "ap0", "disconnect", addr)
    check(out == "ap0 disconnected %s.\n" % addr, "ap disconnect ADDRESS")
    c.fails(3, "ap", "ap0", "disconnect", "02:00:00:00:99:99",
            says=["no station 02:00:00:00:99:99 is connected to ap0"])


def access_lists(c, addr):
    """deny keeps s0 out (status 12: AuthenticationFailed); unlist lets it
    back; the lists' errors; reload-lists reads the (absent) files."""
    out = c.ok("ap", "ap0", "deny", addr)
    check(out == "ap0: %s added to the deny list.\n" % addr, "ap deny: %r" % out)
    c.fails(1, "ap", "ap0", "deny", addr, says=["on the list"])
    c.fails(5, "station", "s0", "connect", "wpad-test", says=["12"])
    c.fails(2, "ap", "ap0", "unlist", "both", addr, says=["allow or deny"])
    c.fails(2, "ap", "ap0", "deny", "01:00:5e:00:00:01", says=["not a station's MAC"])
    out = c.ok("ap", "ap0", "unlist", "deny", addr)
    check(out == "ap0: %s removed from the deny list.\n" % addr, "ap unlist: %r" % out)
    c.fails(3, "ap", "ap0", "unlist", "deny", addr, says=["not on the list"])
    c.ok("station", "s0", "connect", "wpad-test")
    check(c.ok("ap", "ap0", "reload-lists") == "ap0: access lists reloaded from their files.\n",
          "ap reload-lists")
    c.ok("station", "s0", "disconnect")


def change_role(c):
    out = c.ok("device", "mode", "s0", "ap")
    check(out == "s0 is an access point now: `wpactl ap s0 start --ssid ...` starts it.\n",
          "device mode s0 ap")
    check(c.json("device", "show", "s0")["Device"]["Mode"] == "ap", "s0's Mode is ap")
    check(c.ok("device", "mode", "s0", "ap") == "s0 is an access point already.\n",
          "the same mode again is no error")
    out = c.ok("ap", "s0", "start", "--ssid", "from-station", "--security", "open", "--channel",
               "11")
    check("s0 started 'from-station' on channel 11" in out, "the new access point starts")
    check(c.ok("device", "mode", "s0", "station") == "s0 is a station now.\n",
          "device mode s0 station")
    d = c.json("device", "show", "s0")
    check(d["Device"]["Mode"] == "station" and d["Station"]["State"] == "disconnected"
          and "AccessPoint" not in d, "s0 is an idle station again")
    c.fails(2, "device", "mode", "s0", "mesh", says=["station|ap"])


def main():
    with Setup(CONF) as s:
        c = Ctl(s)
        addr = show_with_station(c)
        stop_and_start(c)
        disconnect_station(c, addr)
        access_lists(c, addr)
        change_role(c)
    print("PASS")


if __name__ == "__main__":
    main()
