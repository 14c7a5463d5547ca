#!/usr/bin/env python3
"""Turns the captures of capture-rsnxe.sh into C test data.

    tests/hwsim/tools/rsnxe-pcap-to-c.py PCAP_DIR > tests/unit/data_hostapd_rsnxe.c

For each NAME.pcap (radiotap frames from hwsim0) it keeps, from the access
point's address: the last Beacon before the first Authentication frame, the
first Probe Response, and the first message 3, the message 1 with its ANonce
and the message 2 answering it (same replay counter) between them. Frames
are written whole (802.11 frames without FCS; EAPOL frames from their
version octet), each with the hostapd lines of its NAME.hostapd.conf.
"""
import os
import struct
import sys

LINKTYPE_RADIOTAP = 127
SNAP_EAPOL = bytes([0xAA, 0xAA, 0x03, 0x00, 0x00, 0x00, 0x88, 0x8E])


def pcap_frames(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack_from("<I", data, 0)[0]
    if magic not in (0xA1B2C3D4, 0xA1B23C4D):
        raise SystemExit(f"{path}: not a little-endian pcap file")
    linktype = struct.unpack_from("<I", data, 20)[0]
    if linktype != LINKTYPE_RADIOTAP:
        raise SystemExit(f"{path}: link type {linktype}, want radiotap")
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        yield data[off + 16:off + 16 + incl]
        off += 16 + incl


def strip_radiotap(pkt):
    """The 802.11 frame, without the FCS when radiotap says one is there."""
    hlen = struct.unpack_from("<H", pkt, 2)[0]
    present = struct.unpack_from("<I", pkt, 4)[0]
    pos = 8
    p = present
    while p & 0x80000000:  # more presence words
        p = struct.unpack_from("<I", pkt, pos)[0]
        pos += 4
    has_fcs = False
    if present & 1:  # TSFT, 8 octets aligned to 8
        pos = (pos + 7) & ~7
        pos += 8
    if present & 2:  # Flags
        has_fcs = bool(pkt[pos] & 0x10)
    frame = pkt[hlen:]
    return frame[:-4] if has_fcs else frame


def classify(frame):
    fc = struct.unpack_from("<H", frame, 0)[0]
    ftype = (fc >> 2) & 3
    subtype = (fc >> 4) & 15
    return ftype, subtype, fc


def eapol_of(frame):
    """(source, EAPOL bytes) of a data frame carrying EAPOL, else None."""
    ftype, subtype, fc = classify(frame)
    if ftype != 2:
        return None
    hdr = 24 + (2 if subtype & 8 else 0)
    if frame[hdr:hdr + 8] != SNAP_EAPOL:
        return None
    return frame[10:16], frame[hdr + 8:]


def key_info(eapol):
    return struct.unpack_from(">H", eapol, 5)[0]


def replay(eapol):
    return eapol[9:17]


def which_message(eapol):
    if eapol[1] != 3:  # EAPOL-Key
        return 0
    ki = key_info(eapol)
    ack, mic, secure, install = ki & 0x80, ki & 0x100, ki & 0x200, ki & 0x40
    if not ki & 0x08:  # group key handshake
        return 0
    if ack and not mic:
        return 1
    if ack and mic and install:
        return 3
    if mic and not ack:
        return 4 if secure else 2
    return 0


def extract(path):
    frames = [strip_radiotap(p) for p in pcap_frames(path)]
    ap = None
    beacon = probe_resp = None
    auth_seen = False
    eapols = []
    for fr in frames:
        ftype, subtype, _ = classify(fr)
        if ftype == 0 and subtype == 8:  # Beacon
            ap = ap or fr[10:16]
            if fr[10:16] == ap and not auth_seen:
                beacon = fr
        elif ftype == 0 and subtype == 5:  # Probe Response
            if probe_resp is None and fr[10:16] == ap:
                probe_resp = fr
        elif ftype == 0 and subtype == 11:  # Authentication
            auth_seen = True
        else:
            e = eapol_of(fr)
            if e:
                eapols.append((e[0], e[1], fr))
    if not (beacon and probe_resp):
        raise SystemExit(f"{path}: no Beacon or Probe Response from the AP")
    # The first message 3, the message 1s with its ANonce before it, and the
    # last message 2 between them answering one of those (same replay
    # counter): hostapd's PTK for that message 3 came from that pair.
    i3 = next((i for i, e in enumerate(eapols) if which_message(e[1]) == 3), None)
    if i3 is None:
        raise SystemExit(f"{path}: no message 3")
    m3 = eapols[i3]
    anonce = m3[1][17:49]
    ones = [e for e in eapols[:i3] if which_message(e[1]) == 1 and e[1][17:49] == anonce]
    if not ones:
        raise SystemExit(f"{path}: no message 1 with message 3's ANonce")
    first1 = eapols.index(ones[0])
    twos = [e for e in eapols[first1:i3] if which_message(e[1]) == 2 and
            any(replay(e[1]) == replay(o[1]) for o in ones)]
    if not twos:
        raise SystemExit(f"{path}: no message 2 answering message 1")
    m2 = twos[-1]
    m1 = [o for o in ones if replay(o[1]) == replay(m2[1])][-1]
    sta = m2[0]
    return {"aa": ap, "spa": sta, "beacon": beacon, "probe_resp": probe_resp,
            "msg1": m1[1], "msg2": m2[1], "msg3": m3[1]}


def c_bytes(name, data):
    out = [f"static const uint8_t {name}[{len(data)}] = {{"]
    for i in range(0, len(data), 12):
        out.append("\t" + " ".join(f"0x{b:02x}," for b in data[i:i + 12]))
    out.append("};")
    return "\n".join(out)


def hostapd_lines(conf):
    keep = []
    with open(conf) as f:
        for line in f:
            line = line.strip()
            if line.startswith(("interface=", "driver=", "ctrl_interface=", "hw_mode=",
                                "channel=", "wpa_passphrase=")):
                continue
            keep.append(line)
    return keep


def main():
    d = sys.argv[1]
    names = sorted(n[:-5] for n in os.listdir(d) if n.endswith(".pcap"))
    print("/* Generated by tests/hwsim/tools/rsnxe-pcap-to-c.py from the captures of")
    print(" * tests/hwsim/tools/capture-rsnxe.sh: hostapd 2.10 (Debian 2:2.10-12+deb12u3)")
    print(" * on mac80211_hwsim, recorded with tcpdump on hwsim0, wpa_supplicant 2.10 as")
    print(" * the station. Do not edit; capture again. */")
    print('#include "tests/unit/data_hostapd_rsnxe.h"')
    print()
    entries = []
    for n in names:
        x = extract(os.path.join(d, n + ".pcap"))
        c = n.replace("-", "_")
        lines = hostapd_lines(os.path.join(d, n + ".hostapd.conf"))
        print(f"/* {n}: hostapd.conf")
        for line in lines:
            print(f" *   {line}")
        print(" */")
        for k in ("beacon", "probe_resp", "msg1", "msg2", "msg3"):
            print(c_bytes(f"{c}_{k}", x[k]))
        print()
        entries.append((n, c, x))
    print("const struct hostapd_capture hostapd_captures[] = {")
    for n, c, x in entries:
        aa = ", ".join(f"0x{b:02x}" for b in x["aa"])
        spa = ", ".join(f"0x{b:02x}" for b in x["spa"])
        print(f'\t{{ .name = "{n}",')
        print(f"\t  .aa = {{ {aa} }},")
        print(f"\t  .spa = {{ {spa} }},")
        for k in ("beacon", "probe_resp", "msg1", "msg2", "msg3"):
            print(f"\t  .{k} = {c}_{k}, .{k}_len = sizeof({c}_{k}),")
        print("\t},")
    print("};")
    print()
    print("const size_t n_hostapd_captures = sizeof(hostapd_captures) / sizeof(hostapd_captures[0]);")


if __name__ == "__main__":
    main()
