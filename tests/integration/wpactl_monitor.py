#!/usr/bin/python3
"""wpactl monitor end to end: state changes, objects coming and going and
a failed connection appear as they happen, one line each, as text and as
JSON lines; wpad stopping and starting again is seen too, and the monitor
goes on."""

import json
import os
import re
import signal
import subprocess
import time

from wpactl_lib import CONF, PASS, SLOW, Ctl, Setup, check, fail

TIME = r"\d\d:\d\d:\d\d\.\d\d\d "


class Monitor:
    def __init__(self, c, tmp, *args):
        name = "json" if args else "text"
        self.out_path = os.path.join(tmp, "monitor-%s.out" % name)
        self.err_path = os.path.join(tmp, "monitor-%s.err" % name)
        with open(self.out_path, "w") as out, open(self.err_path, "w") as err:
            self.p = subprocess.Popen(c.argv(list(args) + ["monitor"]), stdout=out, stderr=err,
                                      stdin=subprocess.DEVNULL)
        self.wait_for(lambda: "monitoring wpad" in self.err(), "the monitor to start")

    def err(self):
        with open(self.err_path) as f:
            return f.read()

    def lines(self):
        with open(self.out_path) as f:
            return f.read().splitlines()

    def wait_for(self, cond, what, timeout=15):
        end = time.monotonic() + timeout * SLOW
        while time.monotonic() < end:
            if cond():
                return
            if self.p.poll() is not None:
                fail("the monitor ended (%s): %s" % (self.p.returncode, self.err()))
            time.sleep(0.02)
        fail("timed out waiting for %s; the monitor printed:\n%s" %
             (what, "\n".join(self.lines())))

    def wait_line(self, pattern, what):
        self.wait_for(lambda: any(re.search(pattern, l) for l in self.lines()), what)
        check(True, "monitor: " + what)

    def stop(self):
        self.p.send_signal(signal.SIGINT)
        return self.p.wait(timeout=10 * SLOW)


def text_lines(m):
    # One line per signal: the properties that changed in a loop turn
    # share it (State=connecting with ConnectedNetwork and AutoConnect).
    m.wait_line("^" + TIME + r"s0 Station\.State=connecting( |$)", "State=connecting")
    m.wait_line("^" + TIME + r"s0 ConnectionFailed InvalidPassphrase \(IEEE reason 15\): ",
                "the failed connection with its error name and IEEE reason")
    m.wait_line("^" + TIME + r"s0 Station\.State=connected( |$)", "State=connected")
    m.wait_line("^" + TIME + r"\+ ap0 station [0-9a-f:]{17} \(ApStation\)$",
                "a station object appears at the AP")
    m.wait_line("^" + TIME + r"\+ known 'wpad-test' \(psk\) \(KnownNetwork\)$",
                "a known network appears")
    m.wait_line("^" + TIME + r"s0 network 'wpad-test' \(psk\) Network\.Connected=true$",
                "the network's Connected, named by its label")
    m.wait_line("^" + TIME + r"s0 Station\.State=disconnected( |$)", "State=disconnected")


def json_lines(m):
    def events():
        return [json.loads(l) for l in m.lines()]

    def has(pred):
        return any(pred(e) for e in events())

    m.wait_for(lambda: has(lambda e: e["event"] == "PropertiesChanged" and e["object"] == "s0"
                           and e["changed"].get("State") == "connected"), "JSON State")
    check(all(set(e) >= {"time", "event"} for e in events()), "every JSON line parses, "
          "with time and event")
    check(has(lambda e: e["event"] == "ConnectionFailed" and
              e["error"] == "org.wpad1.Error.InvalidPassphrase" and e["ieee_reason"] == 15),
          "JSON ConnectionFailed")
    check(has(lambda e: e["event"] == "InterfacesAdded" and
              "org.wpad1.ApStation" in e["interfaces"]), "JSON InterfacesAdded")
    return has


def main():
    with Setup(CONF) as s:
        c = Ctl(s)
        c.ok("station", "s0", "scan")
        text = Monitor(c, s.tmp)
        js = Monitor(c, s.tmp, "--json")
        c.fails(5, "station", "s0", "connect", "wpad-test", "--passphrase", "wrong passphrase")
        c.ok("station", "s0", "connect", "wpad-test", "--passphrase", PASS)
        c.ok("station", "s0", "disconnect")
        text_lines(text)
        has = json_lines(js)

        s.stop_daemon()
        text.wait_line("^" + TIME + "wpad stopped$", "wpad stopped")
        s.start()
        text.wait_line("^" + TIME + "wpad started$", "wpad started")
        c.ok("station", "s0", "scan")
        text.wait_line("^" + TIME + r"s0 Station\.Scanning=true$", "events after the restart")
        js.wait_for(lambda: has(lambda e: e["event"] == "DaemonStopped") and
                    has(lambda e: e["event"] == "DaemonStarted"), "JSON daemon events")
        check(text.stop() == 0 and js.stop() == 0, "Ctrl-C ends the monitors with exit 0")
    print("PASS")


if __name__ == "__main__":
    main()
