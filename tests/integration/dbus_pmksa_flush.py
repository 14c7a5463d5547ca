#!/usr/bin/python3
"""Station.FlushPMKSA end to end, on an SAE access point of the simulated
radio: a reconnect offers the cached PMKSA and runs no SAE; after a flush
(by network, by access point, or of everything) the next connect runs SAE
in full. The filters that match nothing remove nothing, bad arguments get
their catalogue errors, and wpactl's flush-pmksa says the count."""

import dbus

from wpactl_lib import PASS, SAE_PAIR_CONF as CONF, Ctl, Setup, check


DEV = "/org/wpad1/device/s0"
ST = "org.wpad1.Station"
ERR = "org.wpad1.Error."


def log_count(s, text):
    return s.daemon.text().count(text)


def reconnect(s, c):
    """Disconnects, connects again; returns (SAE runs, PMKSAs offered)
    that connect logged."""
    c.ok("station", "s0", "disconnect")
    sae, offered = log_count(s, "SAE accepted"), log_count(s, "offering the cached PMKSA")
    check(c.ok("station", "s0", "connect", "wpad-sae").startswith("Connected"),
          "reconnected to wpad-sae")
    return log_count(s, "SAE accepted") - sae, log_count(s, "offering the cached PMKSA") - offered


def ap_address(s):
    return str(s.prop("/org/wpad1/device/ap0", "org.wpad1.Device", "Address"))


def main():
    with Setup(CONF) as s:
        c = Ctl(s)
        c.ok("station", "s0", "scan")
        check(c.ok("station", "s0", "connect", "wpad-sae", "--passphrase", PASS)
              .startswith("Connected"), "first connect (full SAE)")
        check(log_count(s, "SAE accepted") >= 2, "SAE ran (both roles log it)")

        # Without a flush the reconnect uses the PMKSA: no SAE.
        sae, offered = reconnect(s, c)
        check(sae == 0 and offered == 1, "reconnect: PMKSA offered, no SAE (%d, %d)" %
              (sae, offered))

        # Filters that match nothing remove nothing.
        check(s.call(DEV, ST, "FlushPMKSA", "other-net", "") == 0, "another network: 0")
        check(s.call(DEV, ST, "FlushPMKSA", "", "02:00:00:00:99:99") == 0,
              "another access point: 0")
        check(s.call(DEV, ST, "FlushPMKSA", "wpad-sae", "02:00:00:00:99:99") == 0,
              "the network with another access point: 0")

        # Bad arguments: catalogue errors that say what is wrong.
        name, text = s.error_of(DEV, ST, "FlushPMKSA", "", "not-a-mac")
        check(name == ERR + "InvalidFormat" and "aa:bb:cc:dd:ee:ff" in text,
              "a malformed BSSID is InvalidFormat: %s" % text)
        name, text = s.error_of(DEV, ST, "FlushPMKSA", "", "01:00:5e:00:00:01")
        check(name == ERR + "InvalidFormat", "a group address is InvalidFormat")
        name, text = s.error_of(DEV, ST, "FlushPMKSA", "x" * 33, "")
        check(name == ERR + "InvalidArguments" and "32 bytes" in text,
              "a 33-byte name is InvalidArguments: %s" % text)
        name, text = s.error_of(DEV, ST, "FlushPMKSA", "wpad-sae", sig="s")
        check(name.endswith("InvalidArgs") or name == ERR + "InvalidArguments",
              "a wrong signature is refused: %s %s" % (name, text))

        # By network: the connect after it runs SAE again, the link stays up.
        check(s.call(DEV, ST, "FlushPMKSA", "wpad-sae", "") == 1, "by network: 1 removed")
        check(s.prop(DEV, ST, "State") == "connected", "the link in use stays up")
        check(s.call(DEV, ST, "FlushPMKSA", "wpad-sae", "") == 0, "flushed already: 0")
        sae, offered = reconnect(s, c)
        check(sae >= 1 and offered == 0, "after the flush: full SAE (%d, %d)" % (sae, offered))

        # By access point (upper case accepted), through wpactl.
        bssid = ap_address(s).upper()
        out = c.ok("station", "s0", "flush-pmksa", "--bssid", bssid)
        check(out == "s0: 1 cached PMKSA removed.\n", "wpactl flush-pmksa --bssid: %r" % out)
        sae, offered = reconnect(s, c)
        check(sae >= 1 and offered == 0, "after flush-pmksa --bssid: full SAE")

        # Everything, as wpa_supplicant's pmksa_flush.
        check(c.json("station", "s0", "flush-pmksa") == {"removed": 1},
              "wpactl --json flush-pmksa: everything, 1 removed")
        check(c.json("station", "s0", "flush-pmksa", "--ssid", "wpad-sae") == {"removed": 0},
              "--ssid after everything went: 0")
        c.fails(2, "station", "s0", "flush-pmksa", "--bssid", "zz",
                says=["not an access point's address"])
        c.fails(3, "station", "ap0", "flush-pmksa", says=["ap0 is an access point"])
        sae, offered = reconnect(s, c)
        check(sae >= 1 and offered == 0, "after flush-pmksa: full SAE")
        c.ok("station", "s0", "disconnect")
    print("PASS")


if __name__ == "__main__":
    main()
