"""What the wpactl end-to-end tests share: the bus and wpad come from the
D-Bus tests' harness (tests/dbus/wpadtest.py); this adds wpactl itself, run
as a program the way a person or a script runs it, on a pipe or on a
pseudo-terminal (for the passphrase prompt)."""

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dbus"))

from wpadtest import BUILD, SLOW, Setup, check, fail, sim_radios, wait_for  # noqa: E402,F401

WPACTL = os.path.join(BUILD, "wpactl")

# Three simulated radios: a WPA2 access point, an open one, a station.
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
[Station s0]
Radio=r1
AutoConnect=false
"""

PASS = "secret passphrase"

# An SAE access point and a station on one shared simulated medium:
# PMKSA-cached reconnects (dbus_pmksa_flush.py, bench/dbus-reconnect.py).
SAE_PAIR_CONF = """
[Radio r0]
Driver=sim
Options=medium=shared,radios=1
[Radio r1]
Driver=sim
Options=medium=shared,radios=1
[AccessPoint ap0]
Radio=r0
SSID=wpad-sae
Passphrase=secret passphrase
AKMs=sae
Channel=1
[Station s0]
Radio=r1
AutoConnect=false
"""


class Ctl:
    """wpactl against the bus of a Setup."""

    def __init__(self, setup, use_env=False):
        self.address = setup.busd.address
        self.use_env = use_env

    def argv(self, args):
        if self.use_env:
            return [WPACTL] + list(args)
        return [WPACTL, "--bus", self.address] + list(args)

    def env(self):
        e = dict(os.environ)
        e["DBUS_SYSTEM_BUS_ADDRESS"] = self.address
        return e

    def run(self, *args, stdin=None, timeout=120):
        """(exit code, stdout, stderr); no terminal."""
        p = subprocess.run(self.argv(args), input=stdin, capture_output=True, text=True,
                           env=self.env(), timeout=timeout * SLOW, start_new_session=True)
        return p.returncode, p.stdout, p.stderr

    def ok(self, *args, stdin=None):
        rc, out, err = self.run(*args, stdin=stdin)
        if rc != 0:
            fail("wpactl %s: exit %d\n%s%s" % (" ".join(args), rc, out, err))
        return out

    def json(self, *args):
        """The --json output, parsed by python3 -m json.tool and by json."""
        out = self.ok("--json", *args)
        tool = subprocess.run(["/usr/bin/python3", "-m", "json.tool"], input=out,
                              capture_output=True, text=True)
        if tool.returncode != 0:
            fail("wpactl --json %s: json.tool refused %r: %s" % (" ".join(args), out, tool.stderr))
        return json.loads(out)

    def fails(self, code, *args, says=(), stdin=None):
        """Runs a command that must exit with code; its stderr must hold
        every string of says. Returns stderr."""
        rc, out, err = self.run(*args, stdin=stdin)
        if rc != code:
            fail("wpactl %s: exit %d, not %d\n%s%s" % (" ".join(args), rc, code, out, err))
        for s in says:
            if s not in err:
                fail("wpactl %s: stderr lacks %r:\n%s" % (" ".join(args), s, err))
        return err


class Tty:
    """wpactl on a pseudo-terminal: what it writes there, and keys typed."""

    def __init__(self, ctl, *args):
        self.out = b""
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = ctl.address
            argv = ctl.argv(args)
            os.execv(argv[0], argv)

    def read(self, timeout=0.1):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return False
        try:
            data = os.read(self.fd, 4096)
        except OSError:  # EIO: the program ended and closed the terminal
            return None
        if not data:
            return None
        self.out += data
        return True

    def mark(self):
        """A position in the output: expect(after=) looks only past it."""
        return len(self.out)

    def expect(self, text, timeout=20, after=0):
        end = time.monotonic() + timeout * SLOW
        while text.encode() not in self.out[after:]:
            if time.monotonic() > end or self.read() is None:
                fail("the terminal never showed %r; it shows %r" % (text, self.text()))
        return self

    def type(self, keys):
        time.sleep(0.05)  # the prompt is up; echo is off by now
        os.write(self.fd, keys.encode())
        return self

    def interrupt(self):
        os.kill(self.pid, signal.SIGINT)

    def wait(self, timeout=60):
        """The exit code, once the program ended."""
        end = time.monotonic() + timeout * SLOW
        while time.monotonic() < end:
            if self.read() is None:
                break
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.02)
        os.kill(self.pid, signal.SIGKILL)
        fail("wpactl on the terminal did not end; it shows %r" % self.text())

    def text(self):
        return self.out.decode(errors="replace")
