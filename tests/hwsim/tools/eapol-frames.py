#!/usr/bin/env python3
"""Counts the 802.1X frames between one station and its AP in a radiotap
capture (tcpdump on hwsim0), for the enterprise scenarios:

    eapol-frames.py PCAP STA_MAC

prints one line
    eap=N start=N logoff=N key=N assoc_pmkid=HEX|none msg1_pmkid=HEX|none
eap: EAPOL frames of type EAP-Packet (0) either way; start/logoff: EAPOL-Start
(1) / Logoff (2); key: EAPOL-Key (3); assoc_pmkid: the first PMKID in the
station's last (Re)Association Request RSNE; msg1_pmkid: the PMKID KDE in
the last 4-way message 1 (IEEE 802.11-2020 12.7.2: Key Ack set, Key MIC
clear) sent to the station. Frames with the Protected bit are skipped (the
EAPOL frames of a fresh association are not encrypted). Every length is
checked; a truncated frame is skipped, a malformed pcap is an error."""
import struct
import sys

from radiotap_pcap import records

LLC_EAPOL = b"\xaa\xaa\x03\x00\x00\x00\x88\x8e"


def rsn_pmkid(ies):
    """The first PMKID of the RSN element in IES, or None."""
    i = 0
    while i + 2 <= len(ies):
        eid, ln = ies[i], ies[i + 1]
        body = ies[i + 2:i + 2 + ln]
        i += 2 + ln
        if eid != 48 or len(body) != ln:
            continue
        p = 2 + 4  # version, group cipher
        for _ in range(2):  # pairwise, AKM suite lists
            if p + 2 > len(body):
                return None
            (n,) = struct.unpack("<H", body[p:p + 2])
            p += 2 + 4 * n
        p += 2  # RSN capabilities
        if p + 2 > len(body):
            return None
        (n,) = struct.unpack("<H", body[p:p + 2])
        if n < 1 or p + 2 + 16 > len(body):
            return None
        return body[p + 2:p + 18].hex()
    return None


def kde_pmkid(kd):
    i = 0
    while i + 2 <= len(kd):
        t, ln = kd[i], kd[i + 1]
        body = kd[i + 2:i + 2 + ln]
        i += 2 + ln
        if t == 0xDD and len(body) >= 4 + 16 and body[:4] == b"\x00\x0f\xac\x04":
            return body[4:20].hex()
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sta = bytes.fromhex(sys.argv[2].replace(":", ""))
    c = {"eap": 0, "start": 0, "logoff": 0, "key": 0}
    assoc_pmkid = msg1_pmkid = "none"
    for pkt in records(sys.argv[1]):
        if len(pkt) < 4:
            continue
        (rt_len,) = struct.unpack("<H", pkt[2:4])
        f = pkt[rt_len:]
        if len(f) < 24:
            continue
        fc0, fc1 = f[0], f[1]
        ftype, sub = (fc0 >> 2) & 3, fc0 >> 4
        a1, a2 = f[4:10], f[10:16]
        if sta not in (a1, a2):
            continue
        if ftype == 0 and sub in (0, 2) and a2 == sta:  # (Re)Association Request
            fixed = 4 if sub == 0 else 10
            p = rsn_pmkid(f[24 + fixed:])
            assoc_pmkid = p or "none"
            continue
        if ftype != 2 or fc1 & 0x40:
            continue
        hdr = 24
        if fc1 & 0x03 == 0x03:
            hdr += 6
        if sub & 0x08:  # QoS Data
            hdr += 2
            if fc1 & 0x80:  # +HTC
                hdr += 4
        body = f[hdr:]
        if len(body) < 12 or body[:8] != LLC_EAPOL:
            continue
        ptype = body[9]
        if ptype == 0:
            c["eap"] += 1
        elif ptype == 1:
            c["start"] += 1
        elif ptype == 2:
            c["logoff"] += 1
        elif ptype == 3:
            c["key"] += 1
            k = body[12:]
            # descriptor 1, info 2, key length 2, replay 8, nonce 32, IV 16,
            # RSC 8, reserved 8, MIC 16, key data length 2
            if len(k) < 95 or a1 != sta:
                continue
            (info,) = struct.unpack(">H", k[1:3])
            if info & 0x0080 and not info & 0x0100:
                (kdl,) = struct.unpack(">H", k[93:95])
                msg1_pmkid = kde_pmkid(k[95:95 + kdl]) or "none"
    print(" ".join("%s=%d" % kv for kv in c.items()),
          "assoc_pmkid=%s msg1_pmkid=%s" % (assoc_pmkid, msg1_pmkid))


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError) as e:
        sys.exit("eapol-frames: %s" % e)
