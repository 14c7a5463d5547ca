#!/usr/bin/python3
"""wpactl's agent end to end on a pseudo-terminal: connect without
--passphrase asks on the terminal with echo off (a malformed passphrase is
asked again), Ctrl-D and Ctrl-C cancel cleanly, and `wpactl agent` answers
for a connect started elsewhere, before and after wpad restarts."""

import subprocess

from wpactl_lib import CONF, PASS, Ctl, Setup, Tty, check


def forget(c):
    c.ok("station", "s0", "disconnect")
    if c.json("known", "list"):
        c.ok("known", "forget", "wpad-test")


def prompt_on_the_terminal(c):
    t = Tty(c, "station", "s0", "connect", "wpad-test")
    t.expect("Passphrase for 'wpad-test': ").type("short\n")
    t.expect("8 to 63 printable ASCII characters")
    t.expect("wpactl: a passphrase is 8 to 63 printable ASCII characters, or 64 hex digits\r\n"
             "Passphrase for 'wpad-test': ").type(PASS + "\n")
    rc = t.wait()
    check(rc == 0 and "Connected to 'wpad-test' on s0." in t.text(),
          "connect asked on the terminal, then connected (%d)" % rc)
    check(PASS not in t.text() and "short" not in t.text(),
          "the typed passphrases were not echoed: %r" % t.text())
    check(c.json("station", "s0", "show")["Station"]["State"] == "connected", "s0 is connected")


def cancel_keys(c):
    forget(c)
    t = Tty(c, "station", "s0", "connect", "wpad-test")
    t.expect("Passphrase for 'wpad-test': ").type("\x04")  # Ctrl-D
    rc = t.wait()
    check(rc == 1 and "cancelled: no passphrase was given for 'wpad-test'" in t.text(),
          "Ctrl-D at the prompt cancels the connect (%d): %r" % (rc, t.text()))
    t = Tty(c, "station", "s0", "connect", "wpad-test")
    t.expect("Passphrase for 'wpad-test': ").type("\x03")  # Ctrl-C
    rc = t.wait()
    check(rc == 130 and "interrupted: the connect to 'wpad-test' is cancelled" in t.text(),
          "Ctrl-C at the prompt: exit 130 (%d): %r" % (rc, t.text()))
    check(c.json("station", "s0", "show")["Station"]["State"] == "disconnected",
          "no connect is left running")


def persistent_agent(s, c):
    agent = Tty(c, "agent")
    agent.expect("Agent registered with wpad")
    c.fails(10, "station", "s0", "connect", "wpad-test", "--passphrase", PASS,
            says=["another agent is registered with wpad"])
    connect_elsewhere(c, agent)
    forget(c)

    # wpad restarts: the agent waits and registers again.
    s.stop_daemon()
    agent.expect("wpad stopped; waiting for it to start again.")
    s.start()
    agent.expect("wpad started; agent registered again.")
    connect_elsewhere(c, agent)

    agent.interrupt()
    rc = agent.wait()
    check(rc == 0, "Ctrl-C ends `wpactl agent` with exit 0 (%d)" % rc)


def connect_elsewhere(c, agent):
    """A connect without a terminal: the registered agent is asked."""
    mark = agent.mark()
    p = subprocess.Popen(c.argv(["station", "s0", "connect", "wpad-test"]), text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    agent.expect("Passphrase for 'wpad-test': ", after=mark)
    agent.type(PASS + "\n")
    out, err = p.communicate(timeout=60)
    check(p.returncode == 0 and out.startswith("Connected"),
          "`wpactl agent` answered for a connect without a terminal (%d %s)" % (p.returncode, err))
    check(PASS not in agent.text(), "the agent did not echo the passphrase")


def main():
    with Setup(CONF) as s:
        c = Ctl(s)
        c.ok("station", "s0", "scan")
        prompt_on_the_terminal(c)
        cancel_keys(c)
        forget(c)
        persistent_agent(s, c)
    print("PASS")


if __name__ == "__main__":
    main()
