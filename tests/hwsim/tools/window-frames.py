#!/usr/bin/env python3
"""Counts the frames on the air to or from one station in time windows of a
radiotap capture (tcpdump on hwsim0, which sees every radio's transmissions,
retries included; mac80211_hwsim shows no ACKs), for the benchmarks:

    window-frames.py PCAP < WINDOWS

Each line of WINDOWS is "KEY STA_MAC START END" (START and END in seconds
since the epoch, the clock tcpdump stamps with); each output line is
"KEY N", N the frames whose address 1 or 2 is STA_MAC with a time in
[START, END]. Beacons are not counted (address 1 is broadcast). Every length
is checked; a truncated frame is skipped, a malformed pcap is an error."""
import struct
import sys

from radiotap_pcap import timed_records


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    windows = []
    for line in sys.stdin:
        f = line.split()
        if len(f) != 4:
            sys.exit("window-frames: bad window line: %r" % line)
        windows.append((f[0], bytes.fromhex(f[1].replace(":", "")), float(f[2]), float(f[3])))
    counts = [0] * len(windows)
    for ts, pkt in timed_records(sys.argv[1]):
        if len(pkt) < 4:
            continue
        (rt_len,) = struct.unpack("<H", pkt[2:4])
        f = pkt[rt_len:]
        if rt_len < 8 or len(f) < 16:
            continue
        a1, a2 = f[4:10], f[10:16]
        for i, (_, sta, start, end) in enumerate(windows):
            if start <= ts <= end and sta in (a1, a2):
                counts[i] += 1
    for (key, _, _, _), n in zip(windows, counts):
        print(key, n)


if __name__ == "__main__":
    main()
