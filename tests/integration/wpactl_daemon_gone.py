#!/usr/bin/python3
"""wpactl when wpad goes away under a call: a call in flight when wpad is
killed exits 9 (wpad is not running) at once, not 7; a wpad that stays
alive but does not answer (stopped with SIGSTOP) is 7 after --timeout, and
answers again once continued. The call kept in flight is a connect that
waits on an agent that never answers."""

import signal
import subprocess
import time

from wpactl_lib import CONF, SLOW, Ctl, Setup, check, fail, wait_for
from wpadtest import Agent, pump

DEV = "/org/wpad1/device/s0"


def in_flight(s, c, agent, timeout):
    """`wpactl station s0 connect wpad-test` waiting on wpad, which waits
    on the agent."""
    c.ok("station", "s0", "scan")  # the network is fresh: the call goes out at once
    asked = len(agent.asked)
    p = subprocess.Popen(c.argv(["-t", str(timeout), "station", "s0", "connect", "wpad-test"]),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=c.env(), start_new_session=True)
    wait_for(lambda: len(agent.asked) > asked, 20, "wpad to ask the agent")
    return p


def finish(p, limit):
    try:
        out, err = p.communicate(timeout=limit * SLOW)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("wpactl still waiting %d s later" % limit)
    return p.returncode, err


def stuck(s, c, agent):
    p = in_flight(s, c, agent, 4)
    s.daemon.proc.send_signal(signal.SIGSTOP)
    t0 = time.monotonic()
    try:
        rc, err = finish(p, 30)
    finally:
        s.daemon.proc.send_signal(signal.SIGCONT)
    check(rc == 7 and "it may be stuck" in err,
          "wpad alive but silent: exit 7 after --timeout (%d): %s" % (rc, err.strip()))
    check(time.monotonic() - t0 < 20 * SLOW, "and within the timeout's reach")
    s.call(DEV, "org.wpad1.Station", "Disconnect")  # ends the connect and the agent's wait
    check(c.json("station", "s0", "show")["Station"]["State"] == "disconnected",
          "continued, wpad answers again")


def killed(s, c, agent):
    p = in_flight(s, c, agent, 120)
    t0 = time.monotonic()
    s.daemon.proc.kill()
    s.daemon.proc.wait()
    rc, err = finish(p, 30)
    check(rc == 9 and "wpad stopped before it answered" in err,
          "wpad killed under a call: exit 9 (%d): %s" % (rc, err.strip()))
    check(time.monotonic() - t0 < 10 * SLOW, "at once, not after the 120 s timeout")
    rc, _, err = c.run("station", "s0", "show")
    check(rc == 9 and "wpad is not running" in err, "the next call: not running, 9 (%d)" % rc)


def main():
    with Setup(CONF, system=True) as s:
        c = Ctl(s)
        agent = Agent(s.bus, "/test/silent", answer=None)
        s.call("/org/wpad1", "org.wpad1.Manager", "RegisterAgent", agent.path, sig="o")
        pump(0.1)
        stuck(s, c, agent)
        killed(s, c, agent)
        s.daemon.logf.close()
    print("PASS")


if __name__ == "__main__":
    main()
