#!/bin/bash
# NetworkManager's hotspot (mode=2) through the fi.w1.wpa_supplicant1 front (tests/integration/wpas_hotspot.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/wpas_hotspot.py"
