#!/usr/bin/python3
"""The resident client of bench/hwsim-eap-guest.sh: one per station daemon,
started once, so that a timed connect pays for the daemon, not for a
client program starting (fork, exec, dynamic linking, joining the bus).

    hwsim-eap-client.py wpad BUS_ADDRESS DEVICE
    hwsim-eap-client.py wpa_supplicant CTRL_SOCKET

Reads one command a line on standard input, answers on standard output:
    prepare SSID  looks up what the connect needs (wpad: the network's
                  object) -> "ok"
    connect SSID  "sent REALTIME MONOTONIC" just before the request goes
                  out, then "ok" or "error TEXT" once the daemon answered
                  (wpad: Network.Connect, answered when connected or
                  failed; wpa_supplicant: RECONNECT, answered at once)
    disconnect    -> "ok" or "error TEXT"
The two clocks are read together so that a log on CLOCK_MONOTONIC
(wpad -t) can be put on hostapd's realtime clock."""
import os
import socket
import sys
import time


def stamp():
    return "%.6f %.6f" % (time.time(), time.clock_gettime(time.CLOCK_MONOTONIC))


class Wpad:
    def __init__(self, address, device):
        import dbus
        self.dbus = dbus
        self.bus = dbus.bus.BusConnection(address)
        self.device = device
        self.network = None

    def _objects(self):
        root = self.bus.get_object("org.wpad1", "/")
        return root.GetManagedObjects(dbus_interface="org.freedesktop.DBus.ObjectManager")

    def prepare(self, ssid):
        objs = self._objects()
        dev = [p for p, i in objs.items()
               if i.get("org.wpad1.Device", {}).get("Name") == self.device]
        if not dev:
            raise RuntimeError("no device %s" % self.device)
        nets = [p for p, i in objs.items() if p.startswith(dev[0] + "/")
                and i.get("org.wpad1.Network", {}).get("Name") == ssid]
        if len(nets) != 1:
            raise RuntimeError("%d networks named %s" % (len(nets), ssid))
        self.dev_path, self.network = dev[0], nets[0]

    def connect(self, ssid):
        if self.network is None:
            self.prepare(ssid)
        net = self.bus.get_object("org.wpad1", self.network)
        say("sent " + stamp())
        net.Connect(dbus_interface="org.wpad1.Network", timeout=60)

    def disconnect(self):
        dev = self.bus.get_object("org.wpad1", self.dev_path)
        dev.Disconnect(dbus_interface="org.wpad1.Station", timeout=30)


class WpaSupplicant:
    """The control socket's datagram protocol, as wpa_cli speaks it."""

    def __init__(self, ctrl):
        self.local = os.path.join(os.path.dirname(ctrl), "bench-client-%d" % os.getpid())
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.local)
        self.sock.connect(ctrl)
        self.sock.settimeout(10)

    def _request(self, cmd, announce=False):
        if announce:
            say("sent " + stamp())
        self.sock.send(cmd.encode())
        answer = self.sock.recv(4096).decode().strip()
        if answer != "OK":
            raise RuntimeError("%s answered %s" % (cmd, answer))

    def prepare(self, ssid):
        pass

    def connect(self, ssid):
        self._request("RECONNECT", announce=True)

    def disconnect(self):
        self._request("DISCONNECT")

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
    else:
        sys.exit(__doc__)
    for line in iter(sys.stdin.readline, ""):
        words = line.split(None, 1)
        if not words:
            continue
        try:
            if words[0] == "disconnect":
                client.disconnect()
            elif words[0] in ("prepare", "connect") and len(words) == 2:
                getattr(client, words[0])(words[1].rstrip("\n"))
            else:
                raise RuntimeError("unknown command %r" % line)
            say("ok")
        except Exception as e:  # the bench reports it and stops
            say("error %s" % " ".join(str(e).split()))
    if hasattr(client, "close"):
        client.close()


if __name__ == "__main__":
    main()
