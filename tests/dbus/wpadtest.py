"""Test harness for the D-Bus API: a private dbus-daemon, wpad on simulated
radios, and a python3-dbus client with a GLib main loop for signals.

    with Setup(conf) as s:           # bus + daemon, torn down on exit
        dev = s.obj("/org/wpad1/device/s0")
        s.call(dev, "org.wpad1.Station", "Scan")

A test script is one test (exit 0 = pass). WPAD_BUILD names the build
directory (default: build/ next to the sources)."""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("WPAD_BUILD", os.path.join(TOP, "build"))
WPAD = os.path.join(BUILD, "wpad")
POLICY = os.path.join(TOP, "dbus", "org.wpad1.conf")
NAME = "org.wpad1"
ERR = "org.wpad1.Error."
SANITIZED = BUILD.rstrip("/").endswith("-san")
# A sanitized build, or wpad under valgrind, runs several times slower.
SLOW = 4 if SANITIZED or os.environ.get("WPAD_WRAPPER") else 1

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)

# The bus: like the system bus (method calls refused unless a policy allows
# them), with wpad's own policy file included, as on an installed system.
BUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>unix:path={sock}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus"/>
    <allow own_prefix="test.wpad"/>
    {extra}
  </policy>
  <include>{policy}</include>
</busconfig>
"""


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)
    print("ok: " + msg)


def pump(seconds=0.0):
    """Runs the GLib loop for a while (signals and async replies)."""
    ctx = GLib.MainContext.default()
    end = time.monotonic() + seconds
    while True:
        while ctx.pending():
            ctx.iteration(False)
        if time.monotonic() >= end:
            return
        time.sleep(0.005)


def wait_for(cond, timeout=10.0, what="condition"):
    end = time.monotonic() + timeout * SLOW
    ctx = GLib.MainContext.default()
    while time.monotonic() < end:
        while ctx.pending():
            ctx.iteration(False)
        if cond():
            return True
        time.sleep(0.01)
    fail("timed out waiting for " + what)


class Bus:
    """A private dbus-daemon."""

    def __init__(self, tmp, permissive=False, policy=""):
        self.dir = tmp
        os.chmod(tmp, 0o755)
        sock = os.path.join(tmp, "bus.sock")
        conf = os.path.join(tmp, "bus.conf")
        extra = ('<allow send_type="method_call"/>' if permissive else "") + policy
        with open(conf, "w") as f:
            f.write(BUS_CONF.format(sock=sock, policy=POLICY, extra=extra))
        self.proc = subprocess.Popen(
            ["dbus-daemon", "--config-file=" + conf, "--nofork", "--print-address=1"],
            stdout=subprocess.PIPE, text=True)
        self.address = self.proc.stdout.readline().strip()
        if not self.address:
            fail("dbus-daemon did not start")

    def close(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


class Daemon:
    """wpad on simulated radios, on the given bus."""

    def __init__(self, tmp, address, conf, args=(), system=False):
        self.dir = tmp
        self.state = os.path.join(tmp, "state")
        os.makedirs(self.state, exist_ok=True)
        self.conf = os.path.join(tmp, "wpad.conf")
        with open(self.conf, "w") as f:
            f.write("[General]\nStateDirectory=%s\n" % self.state + conf)
        self.log = os.path.join(tmp, "wpad.log")
        self.logf = open(self.log, "w")
        # WPAD_WRAPPER: a command to run wpad under, e.g. valgrind.
        wrapper = os.environ.get("WPAD_WRAPPER", "").split()
        env = dict(os.environ)
        if system:  # as under systemd: --system, the bus named by the environment
            env["DBUS_SYSTEM_BUS_ADDRESS"] = address
            bus = ["--system"]
        else:
            bus = ["--bus-address", address]
        self.proc = subprocess.Popen(wrapper + [WPAD, "-d", "-c", self.conf] + bus + list(args),
                                     stdout=self.logf, stderr=subprocess.STDOUT, env=env)

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout=30 * SLOW)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = "killed"
        self.logf.close()
        return rc

    def text(self):
        with open(self.log, errors="replace") as f:
            return f.read()


class Setup:
    """A bus and a daemon; the client connection is self.bus."""

    def __init__(self, conf, args=(), permissive=False, start=True, tmp=None, system=False,
                 policy=""):
        self.tmp = tmp or tempfile.mkdtemp(prefix="wpad-dbus-")
        self.conf_text = conf
        self.args = args
        self.permissive = permissive
        self.policy = policy
        self.started = start
        self.system = system
        self.daemon = None

    def __enter__(self):
        self.busd = Bus(self.tmp, self.permissive, self.policy)
        self.bus = dbus.bus.BusConnection(self.busd.address)
        self.signals = []
        self.bus.add_signal_receiver(self._record, sender_keyword="sender",
                                     path_keyword="path", interface_keyword="iface",
                                     member_keyword="member")
        if self.started:
            self.start()
        return self

    def _record(self, *args, **kw):
        self.signals.append((kw["path"], kw["iface"], kw["member"], args))

    def start(self):
        self.daemon = Daemon(self.tmp, self.busd.address, self.conf_text, self.args,
                             self.system)
        wait_for(lambda: self.bus.name_has_owner(NAME) or self.daemon.proc.poll() is not None,
                 20, "wpad to own " + NAME)
        if not self.bus.name_has_owner(NAME):
            print(self.daemon.text())
            fail("wpad exited before owning " + NAME)
        self.owner = self.bus.get_name_owner(NAME)
        pump(0.2)

    def stop_daemon(self, sig=signal.SIGTERM):
        rc = self.daemon.stop(sig)
        log = self.daemon.text()
        if rc != 0 or "ERROR: AddressSanitizer" in log or "runtime error" in log or \
                re.search(r"==\d+== .*(definitely|indirectly) lost", log):
            print(log[-6000:])
            fail("wpad exited %s" % rc)
        return log

    def __exit__(self, exc_type, exc, tb):
        if self.daemon and self.daemon.proc.poll() is None:
            log = self.stop_daemon()
            if exc_type is None:
                print("ok: wpad stopped cleanly")
        elif self.daemon and exc_type is not None:
            print(self.daemon.text()[-6000:])
        self.busd.close()
        if exc_type is None and os.environ.get("KEEP_TMP") is None:
            shutil.rmtree(self.tmp, ignore_errors=True)
        return False

    # ---- client helpers ----

    def obj(self, path):
        # By wpad's unique name, resolved once: calls made while it stops
        # must reach it (or fail) rather than ask the bus to activate it.
        return self.bus.get_object(self.owner, path, introspect=False)

    def call(self, path, iface, member, *args, timeout=30, sig=None):
        """Returns the reply (None, one value or a tuple); raises
        DBusException. The loop runs meanwhile: our agent can answer."""
        box = self.call_async(path, iface, member, *args, sig=sig)
        wait_for(lambda: "reply" in box or "error" in box, timeout,
                 "the reply to %s.%s" % (iface, member))
        pump(0.02)  # signals sent right after the reply
        if "error" in box:
            raise dbus.exceptions.DBusException(box["error"][1], name=box["error"][0])
        r = box["reply"]
        return None if len(r) == 0 else r[0] if len(r) == 1 else r

    def error_of(self, path, iface, member, *args, timeout=30, sig=None):
        """The D-Bus error name of a call that must fail, and its text."""
        try:
            r = self.call(path, iface, member, *args, timeout=timeout, sig=sig)
        except dbus.exceptions.DBusException as e:
            return e.get_dbus_name(), e.get_dbus_message()
        fail("%s.%s on %s succeeded (%r), an error was expected" % (iface, member, path, r))

    def call_async(self, path, iface, member, *args, sig=None):
        """Starts a call; returns a dict that gets 'reply' or 'error'."""
        box = {}
        o = self.obj(path)
        o.get_dbus_method(member, iface)(
            *args, signature=sig, timeout=120 * SLOW,
            reply_handler=lambda *r: box.update(reply=r),
            error_handler=lambda e: box.update(error=(e.get_dbus_name(), e.get_dbus_message())))
        return box

    def wait_reply(self, box, timeout=30, what="a reply"):
        wait_for(lambda: "reply" in box or "error" in box, timeout, what)
        return box

    def prop(self, path, iface, name):
        return self.call(path, "org.freedesktop.DBus.Properties", "Get", iface, name)

    def props(self, path, iface):
        return self.call(path, "org.freedesktop.DBus.Properties", "GetAll", iface)

    def set_prop(self, path, iface, name, value):
        return self.call(path, "org.freedesktop.DBus.Properties", "Set", iface, name, value,
                         sig="ssv")

    def managed(self):
        return self.call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")

    def seen(self, member, path=None, pred=None):
        for p, i, m, a in self.signals:
            if m == member and (path is None or p == path) and (pred is None or pred(a)):
                return True
        return False

    def wait_signal(self, member, path=None, pred=None, timeout=15):
        wait_for(lambda: self.seen(member, path, pred), timeout, "signal " + member)

    def wait_prop(self, path, iface, name, value, timeout=15):
        wait_for(lambda: self.prop(path, iface, name) == value, timeout,
                 "%s.%s == %r" % (iface, name, value))


class Agent(dbus.service.Object):
    """An org.wpad1.Agent on the client's connection. answer: the
    passphrase to give, or an exception to raise; None: never answer."""

    def __init__(self, bus, path="/test/agent", answer="secret passphrase"):
        super().__init__(bus, path)
        self.path = path
        self.answer = answer
        self.asked = []
        self.cancels = []
        self.released = 0
        self.pending = []

    @dbus.service.method("org.wpad1.Agent", in_signature="o", out_signature="s",
                         async_callbacks=("ok", "err"))
    def RequestPassphrase(self, network, ok, err):
        self.asked.append(str(network))
        if self.answer is None:
            self.pending.append((ok, err))
        elif isinstance(self.answer, Exception):
            err(self.answer)
        else:
            ok(self.answer)

    @dbus.service.method("org.wpad1.Agent", in_signature="s", out_signature="")
    def Cancel(self, reason):
        self.cancels.append(str(reason))

    @dbus.service.method("org.wpad1.Agent", in_signature="", out_signature="")
    def Release(self):
        self.released += 1


class Canceled(dbus.exceptions.DBusException):
    _dbus_error_name = "org.wpad1.Agent.Error.Canceled"


def catalogue():
    """The catalogue's names as daemon/core/error.c spells them."""
    with open(os.path.join(TOP, "daemon", "core", "error.c")) as f:
        names = re.findall(r'\[WPAD_ERR_[A-Z_]+\] = \{ "([A-Za-z]+)"', f.read())
    return [ERR + n for n in names]


def ssid_path(dev, ssid, sec):
    return "%s/%s_%s" % (dev, ssid.encode().hex(), sec)


def sim_radios(*names):
    """The [Radio] sections most configurations start with: one simulated
    radio each, all on one shared medium, in the order named."""
    return "".join("\n[Radio %s]\nDriver=sim\nOptions=medium=shared,radios=1" % n
                   for n in names)


# ---- the fi.w1.wpa_supplicant1 front, as NetworkManager uses it ----

WPAS = "fi.w1.wpa_supplicant1"
WPAS_ROOT = "/fi/w1/wpa_supplicant1"
WPAS_IFACE = WPAS + ".Interface"


def wpas_setup(conf):
    """A Setup with the front on: wpad may own its name and, as root's
    NetworkManager may, call every method."""
    return Setup(conf, args=("--wpa-supplicant-api",), permissive=True,
                 policy='<allow own="%s"/>' % WPAS)


def by(text):
    """A string as NetworkManager sends it (s)."""
    return dbus.String(text)


def ay(octets):
    """Octets as NetworkManager sends them (ay)."""
    return dbus.Array([dbus.Byte(x) for x in octets], signature="y")


# ---- callers other than root ----

USER = "wpad-dbus-test"
NETDEV_USER = "wpad-dbus-netdev"

# Run as another user: one call, the outcome printed as "OK <reply>" or
# "ERR <name> <text>".
CLIENT = r'''
import sys, json, dbus
bus = dbus.bus.BusConnection(sys.argv[1])
path, iface, member, sig = sys.argv[2:6]
args = json.loads(sys.argv[6])
try:
    o = bus.get_object("org.wpad1", path, introspect=False)
    r = o.get_dbus_method(member, iface)(*args, signature=sig or None, timeout=20)
    print("OK", json.dumps(r, default=str))
except dbus.exceptions.DBusException as e:
    print("ERR", e.get_dbus_name(), e.get_dbus_message())
'''


def ensure_user(name, group=None):
    if subprocess.run(["id", name], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                        "/usr/sbin/nologin", name], check=True)
    if group:
        if subprocess.run(["getent", "group", group], capture_output=True).returncode != 0:
            subprocess.run(["groupadd", "--system", group], check=True)
        subprocess.run(["usermod", "-a", "-G", group, name], check=True)


def call_as(user, address, path, iface, member, args=(), sig=""):
    """Runs one call as user; returns ("OK", reply) or ("ERR", name, text)."""
    import json
    out = subprocess.run(["runuser", "-u", user, "--", "/usr/bin/python3", "-c", CLIENT,
                          address, path, iface, member, sig, json.dumps(list(args))],
                         capture_output=True, text=True, timeout=60 * SLOW)
    line = out.stdout.strip()
    if not line:
        fail("the client as %s printed nothing: %s" % (user, out.stderr))
    word, rest = line.split(" ", 1)
    if word == "OK":
        return ("OK", rest)
    name, _, text = rest.partition(" ")
    return ("ERR", name, text)
