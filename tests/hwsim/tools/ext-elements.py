#!/usr/bin/env python3
"""Which extension elements (element 255, by Element ID Extension) an AP
puts in its Beacons and in the Association Responses it sends, from a
radiotap capture (tcpdump on hwsim0); a few lines of Python instead of a
tshark start, which costs tens of seconds in the emulated VM:

    ext-elements.py PCAP AP_MAC

prints two lines, the IDs sorted, "-" for none:
    beacon 35 36
    assoc_resp 35
Every length is checked; a truncated frame is skipped, a malformed pcap is
an error."""
import struct
import sys

from radiotap_pcap import records

FIXED = {0x80: 12, 0x10: 6}  # Beacon, Association Response: fixed fields
NAMES = {0x80: "beacon", 0x10: "assoc_resp"}


def ext_ids(ies):
    out, i = set(), 0
    while i + 2 <= len(ies):
        eid, ln = ies[i], ies[i + 1]
        if i + 2 + ln > len(ies):
            break
        if eid == 255 and ln >= 1:
            out.add(ies[i + 2])
        i += 2 + ln
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ap = bytes.fromhex(sys.argv[2].replace(":", ""))
    seen = {0x80: set(), 0x10: set()}
    for rec in records(sys.argv[1]):
        if len(rec) < 4:
            continue
        (rt_len,) = struct.unpack("<H", rec[2:4])
        frame = rec[rt_len:]
        if len(frame) < 24 or frame[0] not in FIXED or frame[10:16] != ap:
            continue  # not ours, or not a Beacon / Association Response
        body = frame[24 + FIXED[frame[0]]:]
        seen[frame[0]] |= ext_ids(body)
    for st in (0x80, 0x10):
        print(NAMES[st], " ".join(str(x) for x in sorted(seen[st])) or "-")


if __name__ == "__main__":
    main()
