#!/usr/bin/python3
"""The resident client of the hwsim benches (bench/hwsim-eap-guest.sh,
bench/hwsim-light-guest.sh): one per station daemon, started once, so that
a timed connect pays for the daemon, not for a client program starting
(fork, exec, dynamic linking, joining the bus), as a desktop's resident
client (NetworkManager, an applet) does.

    hwsim-client.py wpad BUS_ADDRESS DEVICE      (org.wpad1 on that bus)
    hwsim-client.py wpa_supplicant CTRL_SOCKET   (its control socket)
    hwsim-client.py iwd DEVICE                   (net.connman.iwd, system bus)

DEVICE: wpad's station name ([Station NAME]); iwd's interface name.
Reads one command a line on standard input, answers on standard output:
    prepare SSID  looks up what the connect needs (the D-Bus daemons: the
                  network's object) -> "ok"
    connect SSID  "sent REALTIME MONOTONIC" just before the request goes
                  out, then "ok" or "error TEXT" once the daemon answered
                  (wpad, iwd: Network.Connect, answered when connected or
                  failed; wpa_supplicant: RECONNECT, answered at once)
    disconnect    -> "ok" once the daemon says it is disconnected (wpad,
                  iwd: Station.Disconnect, answered then; wpa_supplicant:
                  DISCONNECT, then STATUS until wpa_state=DISCONNECTED),
                  "ok not-connected" when the daemon answered that there was
                  no link to leave (the AP dropped it first), or "error TEXT"
    flush         drops the daemon's PMKSA cache -> "ok removed N" (wpad:
                  Station.FlushPMKSA, N its count; wpa_supplicant:
                  PMKSA_FLUSH, N "?"; iwd keeps none: N 0)
The two clocks are read together so that a log on CLOCK_MONOTONIC
(wpad -t) can be put on hostapd's realtime clock."""
import os
import socket
import sys
import time


def stamp():
    return "%.6f %.6f" % (time.time(), time.clock_gettime(time.CLOCK_MONOTONIC))


class NotConnected(Exception):
    """The daemon had no link to leave."""


class DBusStation:
    """What wpad's org.wpad1 and iwd's net.connman.iwd have in common: an
    ObjectManager at "/", a device found by its Name, its Network objects
    below it (Name = SSID) with Connect(), a Station interface on the
    device with Disconnect()."""
    service = iface = not_connected = None

    def __init__(self, bus, device):
        import dbus
        self.dbus = dbus
        self.bus = bus
        self.device = device
        self.network = None
        self.dev_path = None

    def prepare(self, ssid):
        root = self.bus.get_object(self.service, "/")
        objs = root.GetManagedObjects(dbus_interface="org.freedesktop.DBus.ObjectManager")
        dev = [p for p, i in objs.items()
               if i.get(self.iface + ".Device", {}).get("Name") == self.device]
        if not dev:
            raise RuntimeError("no device %s" % self.device)
        nets = [p for p, i in objs.items() if p.startswith(dev[0] + "/")
                and i.get(self.iface + ".Network", {}).get("Name") == ssid]
        if len(nets) != 1:
            raise RuntimeError("%d networks named %s" % (len(nets), ssid))
        self.dev_path, self.network = dev[0], nets[0]

    def connect(self, ssid):
        if self.network is None:
            self.prepare(ssid)
        net = self.bus.get_object(self.service, self.network)
        say("sent " + stamp())
        net.Connect(dbus_interface=self.iface + ".Network", timeout=60)

    def disconnect(self):
        if self.dev_path is None:
            raise RuntimeError("disconnect before prepare")
        dev = self.bus.get_object(self.service, self.dev_path)
        try:
            dev.Disconnect(dbus_interface=self.iface + ".Station", timeout=30)
        except self.dbus.exceptions.DBusException as e:
            if e.get_dbus_name() == self.not_connected:
                raise NotConnected() from e
            raise


class Wpad(DBusStation):
    service = "org.wpad1"
    iface = "org.wpad1"
    not_connected = "org.wpad1.Error.NotConnected"

    def __init__(self, address, device):
        import dbus
        super().__init__(dbus.bus.BusConnection(address), device)

    def flush(self):
        if self.dev_path is None:
            raise RuntimeError("flush before prepare")
        dev = self.bus.get_object(self.service, self.dev_path)
        return int(dev.FlushPMKSA("", "", dbus_interface="org.wpad1.Station", timeout=30))


class Iwd(DBusStation):
    service = "net.connman.iwd"
    iface = "net.connman.iwd"
    not_connected = "net.connman.iwd.NotConnected"

    def __init__(self, device):
        import dbus
        super().__init__(dbus.SystemBus(), device)

    def flush(self):
        return 0  # iwd 2.3 caches no PMKSA for SAE


class WpaSupplicant:
    """The control socket's datagram protocol, as wpa_cli speaks it."""

    def __init__(self, ctrl):
        self.local = os.path.join(os.path.dirname(ctrl), "bench-client-%d" % os.getpid())
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.local)
        self.sock.connect(ctrl)
        self.sock.settimeout(10)

    def _ask(self, cmd):
        self.sock.send(cmd.encode())
        return self.sock.recv(4096).decode()

    def _request(self, cmd, announce=False):
        if announce:
            say("sent " + stamp())
        answer = self._ask(cmd).strip()
        if answer != "OK":
            raise RuntimeError("%s answered %s" % (cmd, answer))

    def prepare(self, ssid):
        pass

    def connect(self, ssid):
        self._request("RECONNECT", announce=True)

    def disconnect(self):
        self._request("DISCONNECT")
        # DISCONNECT is answered at once; the link goes after.
        for _ in range(150):
            if "wpa_state=DISCONNECTED" in self._ask("STATUS").splitlines():
                return
            time.sleep(0.2)
        raise RuntimeError("wpa_state not DISCONNECTED 30 s after DISCONNECT")

    def flush(self):
        self._request("PMKSA_FLUSH")
        return "?"

    def close(self):
        os.unlink(self.local)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "wpad":
        client = Wpad(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "wpa_supplicant":
        client = WpaSupplicant(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "iwd":
        client = Iwd(sys.argv[2])
    else:
        sys.exit(__doc__)
    for line in iter(sys.stdin.readline, ""):
        words = line.split(None, 1)
        if not words:
            continue
        try:
            if words[0] == "disconnect":
                try:
                    client.disconnect()
                    say("ok")
                except NotConnected:
                    say("ok not-connected")
            elif words[0] == "flush":
                say("ok removed %s" % client.flush())
            elif words[0] in ("prepare", "connect") and len(words) == 2:
                getattr(client, words[0])(words[1].rstrip("\n"))
                say("ok")
            else:
                raise RuntimeError("unknown command %r" % line)
        except Exception as e:  # the bench reports it and stops
            say("error %s" % " ".join(str(e).split()))
    if hasattr(client, "close"):
        client.close()


if __name__ == "__main__":
    main()
