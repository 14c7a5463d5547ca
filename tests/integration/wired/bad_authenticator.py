#!/usr/bin/python3
"""A hostile 802.1X authenticator for the wired harness: answers
EAPOL-Start with Request/Identity, then starts EAP-TLS and announces a TLS
message of more than 1 MiB (RFC 5216 3.1: TLS Message Length) -- a peer
must refuse it as a protocol error instead of buffering it.

usage: bad_authenticator.py IFNAME (run in the authenticator's namespace)
"""
import socket
import struct
import sys
import time

ETH_P_PAE = 0x888E
PAE_GROUP = bytes.fromhex("0180c2000003")


def main():
    ifname = sys.argv[1]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_PAE))
    s.bind((ifname, ETH_P_PAE))
    own = s.getsockname()[4][:6]
    s.settimeout(30)

    def send_eap(code, ident, payload):
        eap = struct.pack(">BBH", code, ident, 4 + len(payload)) + payload
        eapol = struct.pack(">BBH", 2, 0, len(eap)) + eap
        s.send(PAE_GROUP + own + struct.pack(">H", ETH_P_PAE) + eapol)

    def recv_eapol():
        while True:
            f = s.recv(2048)
            if f[6:12] != own and len(f) >= 18:
                return f[14:]

    print("waiting for EAPOL-Start", flush=True)
    while recv_eapol()[1] != 1:
        pass
    send_eap(1, 1, b"\x01")  # Request/Identity
    print("sent Request/Identity", flush=True)
    recv_eapol()
    send_eap(1, 2, b"\x0d\x20")  # EAP-TLS Start
    print("sent EAP-TLS Start", flush=True)
    recv_eapol()
    # L and M set, TLS Message Length 0x00110000 (1 MiB + 64 KiB).
    send_eap(1, 3, b"\x0d\xc0" + struct.pack(">I", 0x110000) + b"\x16" * 1000)
    print("sent an oversized TLS message announcement", flush=True)
    time.sleep(5)


if __name__ == "__main__":
    main()
