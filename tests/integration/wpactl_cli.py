#!/usr/bin/python3
"""wpactl's command line and its exit codes outside the happy path: help,
usage errors, no bus, no wpad on the bus, a user without the right to
configure; the man pages (they render without warnings, and wpactl(1) has
the commands and the exit-code table of `wpactl --help`); the bash
completion, against a running wpad."""

import json
import os
import re
import shutil
import subprocess
import tempfile

from wpactl_lib import CONF, HERE, WPACTL, Ctl, Setup, check, fail
from wpadtest import USER, ensure_user

TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
MAN = os.path.join(TOP, "docs", "man")


def run(*args):
    p = subprocess.run([WPACTL] + list(args), capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def help_and_usage():
    rc, out, _ = run("--help")
    check(rc == 0 and "station DEV connect SSID" in out and "Exit codes:" in out, "--help")
    rc, out, _ = run("station", "--help")
    check(rc == 0 and "station DEV scan" in out and "device list" not in out,
          "help of the commands a prefix begins")
    rc, out, _ = run("ap", "x", "start", "-h")
    check(rc == 0 and "--max-stations N" in out and "--passphrase P" in out,
          "help of one command with its options")
    rc, out, _ = run("--version")
    check(rc == 0 and re.match(r"wpactl \d+\.\d+", out), "--version")
    for args, says in [((), "no command given"),
                       (("devcie", "list"), "did you mean 'device'?"),
                       (("station", "s0"), "not a whole command"),
                       (("station", "s0", "scan", "now"), "unexpected 'now'"),
                       (("device", "list", "--chanel", "1"), "did you mean '--channel'?"),
                       (("device", "list", "--channel", "1"), "does not go with 'device list'"),
                       (("--timeout", "0", "device", "list"), "--timeout takes whole seconds"),
                       (("station", "s0", "connect", "x" * 33), "1 to 32 bytes")]:
        rc, out, err = run(*args)
        check(rc == 2 and says in err, "usage error, exit 2: %s" % err.splitlines()[0])
    rc, out, err = run("--json", "devcie")
    check(rc == 2 and json.loads(out)["error"]["exit"] == 2, "--json usage error on stdout")


def help_table():
    rc, out, _ = run("--help")
    codes = re.findall(r"^ +(\d+)  (.*)$", out.split("Exit codes:")[1], re.M)
    cmds = re.findall(r"^  ([a-z][a-zA-Z| -]*?[A-Za-z|]) {2,}", out.split("Commands:")[1]
                      .split("Options:")[0], re.M)
    return codes, cmds


def man_pages():
    if not shutil.which("groff"):
        fail("groff is missing: run scripts/install-deps.sh test")
    for page in ("wpactl.1", "wpad.8", "wpad.conf.5"):
        p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", os.path.join(MAN, page)],
                           capture_output=True, text=True)
        check(p.returncode == 0 and p.stderr == "", "%s renders without warnings %s" %
              (page, p.stderr))
    with open(os.path.join(MAN, "wpactl.1")) as f:
        src = f.read()
    plain = re.sub(r"\\f[BIRP]", "", src).replace("\\-", "-")
    codes, cmds = help_table()
    check(len(codes) >= 12 and len(cmds) >= 18, "the help lists the codes and commands")
    status = plain.split(".SH EXIT STATUS")[1].split(".SH ")[0]
    for code, meaning in codes:
        if not re.search(r"^\.B %s\n%s" % (code, re.escape(meaning)), status, re.M):
            fail("wpactl.1 EXIT STATUS lacks %s: %s" % (code, meaning))
    check(True, "wpactl.1 has the exit-code table of --help")
    for cmd in cmds:
        if not re.search(r"^\.B %s\b" % re.escape(cmd), plain, re.M):
            fail("wpactl.1 lacks the command '%s'" % cmd)
    check(True, "wpactl.1 describes every command of --help")


def no_bus():
    rc, out, err = run("--bus", "unix:path=/nonexistent/bus", "device", "list")
    check(rc == 9 and "cannot connect to the bus at unix:path=/nonexistent/bus" in err,
          "no bus: exit 9, " + err.strip())


def no_wpad(c):
    c.fails(9, "device", "list",
            says=["wpad is not running: start it with `systemctl start wpad`"])
    c.fails(9, "station", "s0", "connect", "home", "--passphrase", "secret passphrase",
            says=["wpad is not running"])
    c.fails(9, "monitor", says=["wpad is not running"])
    rc, out, err = c.run("--json", "known", "list")
    e = json.loads(out)["error"]
    check(rc == 9 and e["exit"] == 9 and e["name"].endswith("ServiceUnknown")
          and "systemctl start wpad" in e["message"], "--json: the error on stdout too")


def staged_wpactl(user):
    """A copy of wpactl the user can run: the build folder may sit where
    only root can enter (a clone in /root, which Debian makes 0700) and a
    umask of 077 leaves the program itself unreadable to others. Returns
    (folder to remove, path)."""
    d = tempfile.mkdtemp(prefix="wpad-wpactl-")
    os.chmod(d, 0o755)
    path = os.path.join(d, "wpactl")
    shutil.copyfile(WPACTL, path)
    os.chmod(path, 0o755)
    p = subprocess.run(["runuser", "-u", user, "--", path, "--version"], capture_output=True,
                       text=True, timeout=60, cwd="/")
    if p.returncode != 0:
        walk, a = [], path
        while a != "/":
            walk.append("%s %o" % (a, os.stat(a).st_mode & 0o777))
            a = os.path.dirname(a)
        fail("user %s cannot run the staged wpactl %s (exit %d: %s); modes: %s" %
             (user, path, p.returncode, p.stderr.strip(), ", ".join(walk)))
    return d, path


def unprivileged(s):
    ensure_user(USER)
    staged_dir, wpactl = staged_wpactl(USER)

    def as_user(*args):
        p = subprocess.run(["runuser", "-u", USER, "--", wpactl, "--bus", s.busd.address]
                           + list(args), capture_output=True, text=True, timeout=60, cwd="/")
        return p.returncode, p.stdout, p.stderr

    rc, out, err = as_user("device", "list")
    check(rc == 0 and "s0" in out, "an unprivileged user lists the devices")
    rc, out, err = as_user("station", "s0", "scan")
    check(rc == 4 and "permission denied" in err and "netdev" in err,
          "an unprivileged scan: exit 4 (the bus refused)")
    rc, out, err = as_user("device", "power", "s0", "off")
    check(rc == 4 and "PermissionDenied" in err, "an unprivileged Set: exit 4 (wpad refused)")
    shutil.rmtree(staged_dir)


def completion(s):
    script = os.path.join(TOP, "wpactl", "wpactl.bash-completion")
    test = r'''
source "$1"
t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _wpactl
      echo "${COMPREPLY[*]}"; }
t wpactl ''
t wpactl st
t wpactl station ''
t wpactl station s0 c
t wpactl station s0 connect ''
t wpactl device power s0 ''
t wpactl ap ap0 start --sec
'''
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(WPACTL) + ":" + env["PATH"]
    env["DBUS_SYSTEM_BUS_ADDRESS"] = s.busd.address
    p = subprocess.run(["bash", "-c", test, "test", script], capture_output=True, text=True,
                       env=env, timeout=60)
    want = ["device station known ap wired monitor agent", "station", "s0",
            "connect connect-hidden", "wpad-open wpad-test", "on off", "--security"]
    got = p.stdout.splitlines()
    if len(got) != len(want):
        fail("completion printed %r (%s)" % (got, p.stderr))
    for g, w in zip(got, want):
        if sorted(g.split()) != sorted(w.split()):
            fail("completion: %r, not %r" % (g, w))
    check(True, "bash completion: commands, devices, networks, choices, options")


def main():
    help_and_usage()
    man_pages()
    no_bus()
    with Setup(CONF, start=False) as s:
        no_wpad(Ctl(s))
        s.start()
        c = Ctl(s)
        c.ok("station", "s0", "scan")
        unprivileged(s)
        completion(s)
    print("PASS")


if __name__ == "__main__":
    main()
