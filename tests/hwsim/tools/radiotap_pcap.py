"""Reads a radiotap capture (tcpdump on hwsim0) for the hwsim tools: the
records of a pcap file whose link type is radiotap (127), either byte
order. Every length is checked; a malformed file raises ValueError."""
import struct


def records(path):
    """Yields each record's bytes (radiotap header first)."""
    for _, rec in timed_records(path):
        yield rec


def timed_records(path):
    """Yields (seconds since the epoch, bytes) for each record."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise ValueError("no pcap header")
    if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif data[:4] in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        raise ValueError("not a pcap file")
    (linktype,) = struct.unpack(e + "I", data[20:24])
    if linktype != 127:
        raise ValueError("link type %d, not radiotap (127)" % linktype)
    off = 24
    while off + 16 <= len(data):
        sec, usec, incl, _ = struct.unpack(e + "IIII", data[off:off + 16])
        off += 16
        if off + incl > len(data):
            raise ValueError("truncated record")
        yield sec + usec / 1e6, data[off:off + incl]
        off += incl
