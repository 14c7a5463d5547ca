#!/usr/bin/python3
"""Profiling aid (not a test): wpad's PMKSA-cached reconnects asked over
D-Bus, the whole daemon (the D-Bus layer, the station, the sim driver), as
a resident client (NetworkManager, an applet) asks for them. wpad on the
simulated radio runs an SAE access point and a station on a private bus
(the D-Bus tests' harness); the station joins once with the passphrase
(untimed: full SAE, the PMKSA cached), then RUNS times: Station.Disconnect,
Network.Connect, each reconnect offering the PMKSA (no SAE).

    WPAD_BUILD=$PWD/build bash tests/dbus/run.sh $PWD/bench/dbus-reconnect.py RUNS

For wpad's instructions per reconnect, run it with wpad under callgrind
and PROFILE=1: the counters are zeroed after the first connect and dumped
after the last reconnect (callgrind_control), so the dump holds the RUNS
reconnects alone. The harness starts wpad with -d; bench/no-debug.sh takes
it away, as the daemon runs by default (debug lines cost more than the
rest of a reconnect):
    PROFILE=1 WPAD_WRAPPER="$PWD/bench/no-debug.sh valgrind --tool=callgrind \\
      --callgrind-out-file=/tmp/dr.out" \\
      WPAD_BUILD=$PWD/build bash tests/dbus/run.sh $PWD/bench/dbus-reconnect.py 10
    callgrind_annotate --inclusive=yes /tmp/dr.out.1   # the dump
Prints the reconnects' wall time (median) and wpad's log count of cached
PMKSAs offered (it must equal RUNS)."""

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "integration"))

from wpactl_lib import SAE_PAIR_CONF as CONF, Ctl, Setup, fail  # noqa: E402

DEV = "/org/wpad1/device/s0"
NET = DEV + "/" + b"wpad-sae".hex() + "_sae"


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    with Setup(CONF) as s:
        c = Ctl(s)
        c.ok("station", "s0", "scan")
        if not c.ok("station", "s0", "connect", "wpad-sae", "--passphrase",
                    "secret passphrase").startswith("Connected"):
            fail("the first connect failed")
        offered0 = s.daemon.text().count("offering the cached PMKSA")
        profile = os.environ.get("PROFILE") == "1"
        if profile:
            subprocess.run(["callgrind_control", "-z", str(s.daemon.proc.pid)], check=True,
                           stdout=subprocess.DEVNULL)
        times = []
        for _ in range(runs):
            s.call(DEV, "org.wpad1.Station", "Disconnect")
            t0 = time.monotonic()
            s.call(NET, "org.wpad1.Network", "Connect", timeout=60)
            times.append(time.monotonic() - t0)
        if profile:
            subprocess.run(["callgrind_control", "-d", str(s.daemon.proc.pid)], check=True,
                           stdout=subprocess.DEVNULL)
        offered = s.daemon.text().count("offering the cached PMKSA") - offered0
        times.sort()
        print("%d reconnects over D-Bus: median %.1f ms; PMKSA offered %d times" %
              (runs, 1000 * times[len(times) // 2], offered))
        if offered != runs:
            fail("not every reconnect offered the cached PMKSA")


if __name__ == "__main__":
    main()
