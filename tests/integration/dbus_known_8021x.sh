#!/bin/bash
# Enterprise known networks over org.wpad1 and the fi.w1.wpa_supplicant1 front (tests/integration/dbus_known_8021x.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/dbus_known_8021x.py"
